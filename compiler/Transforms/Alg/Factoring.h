//===- Factoring.h - Factors of products in alg regions ---------*- C++ -*-===//
//
// A value in a body or epilogue seen as a product: the walk goes from the
// value through products, quotients and negations, and through a choice
// `select(c, a, z)` whose other side z is 0 or an infinity (which a
// positive finite factor leaves unchanged: p * z = z), and asks at each
// value whether it is a factor to move out, one to keep, or one to look
// into. Then
//
//   value = rest * prod(multipliers) / prod(divisors)
//
// and `rebuild` makes `rest`. Factoring a reduction's term with it moves
// the factors constant along the reduced indices into the epilogue:
//
//   sum[k](a * g(k) / b)  =  sum[k](g(k)) * a / b
//
// exact up to rounding for a sum; for max and min only a positive finite
// factor moves (max(p x) = p max(x) exactly, as rounding is monotonic).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_FACTORING_H
#define NAUTILUS_TRANSFORMS_ALG_FACTORING_H

#include "dialects/Alg/AlgOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace nautilus {

/// What the walk does with one value.
enum class FactorChoice { Move, Keep, Descend };

/// Decides for `value`, told whether it is inside a choice (where only a
/// positive finite factor may move).
using FactorChooser =
    llvm::function_ref<FactorChoice(mlir::Value value, bool insideChoice)>;

/// The factors a walk moved (as multipliers or divisors of the rest) and
/// those it kept in place.
struct FactorSplit {
  llvm::SmallVector<mlir::Value, 2> multipliers, divisors, kept;
  bool empty() const { return multipliers.empty() && divisors.empty(); }
};

/// Whether `value` is a constant 0 or infinity: a positive finite scale
/// leaves it unchanged.
bool isScaleFree(mlir::Value value);

/// The factors of `value` that `choose` moves.
FactorSplit splitFactors(mlir::Value value, FactorChooser choose);

/// `value` rebuilt without the factors `choose` moves (new ops where an
/// operand changed, before the op they replace); null when nothing but
/// moved factors remains (the rest is 1).
mlir::Value rebuildWithout(mlir::OpBuilder &builder, mlir::Value value,
                           FactorChooser choose);

/// `value * prod(multipliers) / prod(divisors)`, built at `builder`.
mlir::Value applyFactors(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value value,
                         llvm::ArrayRef<mlir::Value> multipliers,
                         llvm::ArrayRef<mlir::Value> divisors);

/// What factoring one reduction did, for remarks: the factors moved into
/// the epilogue, and those that stay in the term (a max's factor not known
/// to be positive).
struct Factored {
  llvm::SmallVector<std::string, 2> moved, kept;
};

/// Moves the factors of `def`'s term (a sum, max or min of floats) that
/// are the same at every reduced index into its epilogue (see above); with
/// `apply` false, only says which it would move.
Factored factorInvariants(alg::DefineOp def, bool apply = true);

} // namespace nautilus

#endif
