//===- CancellationExcess.h - What cancelling sums add to an error -*- C++
//-*-===//
//
// `nautc run --check` bounds a compiled kernel's error relative to the
// magnitude of each expected value (compiler/Pipeline/Check.h): the roundings
// an operation makes are a few units of its result. A sum is the exception:
// its roundings are units of its partial sums, which for terms of mixed
// signs can be far larger than the sum itself (seventy terms near 1 adding
// to 0.1). The compiled code sums in another order than the reference (in
// vector lanes, blocks, split programs), so where a sum cancels its result
// may differ by far more than units of itself, and that difference reaches
// every value computed from it: a minimum that picks the cancelled sum, a
// small value added to it.
//
// The reference interpreter carries, beside each float value, its excess:
// the magnitude its error scales with beyond its own. A sum's is how far the
// root mean square of its partial sums (in the reference's order) exceeds
// its result, plus its terms' excesses; every other operation passes its
// operands' excesses on as a first-order error does (a product scales each
// by the other operand, a function by its derivative, a selection takes the
// chosen operand's). Values read from inputs, and sums whose partial sums
// stay within their result (terms of one sign, a layernorm's mean near
// 10^4), have none: there the check is as strict as it was. The excess
// widens an element's bound only where a sum cancelled on the way to it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_INTERPRETER_CANCELLATIONEXCESS_H
#define NAUTILUS_INTERPRETER_CANCELLATIONEXCESS_H

#include "dialects/Alg/AlgOps.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace nautilus {

/// The excess of the float result `result` of `op` (an arith or math
/// operation, not a select: its chosen operand's excess passes whole) from
/// its operands' `values` and `excesses` (0 for an operand that is not a
/// float); 0 where they are all 0, or where `op` carries none (a
/// comparison, a conversion from an integer).
double propagatedExcess(mlir::Operation *op, llvm::ArrayRef<double> values,
                        llvm::ArrayRef<double> excesses, double result);

/// A float fold's excess, term by term.
class FoldExcess {
public:
  /// Adds a term of value `term` and excess `termExcess`; `before` and
  /// `after` are the fold's value around it.
  void add(alg::ReductionKind kind, double term, double termExcess,
           double before, double after);
  /// The excess of the folded value `folded`.
  double finish(alg::ReductionKind kind, double folded) const;

private:
  double excess = 0;
  double partialSquares = 0; // a sum's, in the reference's order
  double largestPartial = 0; // a sum's largest |partial sum|
  int64_t terms = 0;
};

} // namespace nautilus

#endif
