//===- MeanRepair.h - How a term follows a running mean ---------*- C++ -*-===//
//
// A sum C over index k whose term g(x, r) reads r, the mean over the same
// k of another term x_L (layernorm's Var reads Mu), streams with r's
// running mean when C's partial sum can be repaired each time the mean
// moves (Welford, Chan et al.). The repair is additive. When g is a
// polynomial of degree at most two in r,
//
//     g(x, r) = A(x) + (beta + gamma x_L) r + c r^2,
//
// with beta, gamma and c free of the point (constants and sizes) and A
// anything free of r, then over n points whose mean of x_L is r:
//
//     Sum g(x_i, r + d) - Sum g(x_i, r) = n d (beta + (gamma + 2c) r + c d)
//
// because Sum x_L,i = n r. For a variance, g = (x_L - r)^2: beta = 0,
// gamma = -2, c = 1, and the repair is n d^2 (Chan's update). The partial
// sums stay centred on the running mean, so the one pass is as accurate as
// two, unlike Sum x^2 - n r^2.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_MEANREPAIR_H
#define NAUTILUS_TRANSFORMS_ALG_MEANREPAIR_H

#include "compiler/Transforms/Alg/Repair.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace nautilus {

/// A sum of monomials (scale * multipliers / divisors) over values free of
/// the point: constants and sizes.
using PointFreeSum = llvm::SmallVector<Coefficient, 2>;

/// The additive repair of a term in a running mean: the partial sum over
/// `count` points moves by count * d * (beta + slope * old + curvature * d)
/// when the mean moves from old to old + d.
struct MeanRepair {
  PointFreeSum beta, slope, curvature;

  /// Whether the term does not read the mean.
  bool isIdentity() const {
    return beta.empty() && slope.empty() && curvature.empty();
  }
};

/// The repair of `term` in the running mean `running` (values of the same
/// block), where `isLeaderTerm` says which values of that block compute
/// the term whose mean the running value is, or failure with the reason
/// in `why`.
mlir::FailureOr<MeanRepair>
deriveMeanRepair(mlir::Value term, mlir::Value running,
                 llvm::function_ref<bool(mlir::Value)> isLeaderTerm,
                 std::string &why);

/// Builds the addend of `repair` with `builder` (in a repair region) from
/// the old and new means and the count of points before, cloning the
/// coefficients' values there through `mapping`.
mlir::Value buildMeanAddend(mlir::OpBuilder &builder, mlir::Location loc,
                            const MeanRepair &repair, mlir::Value oldValue,
                            mlir::Value newValue, mlir::Value count,
                            mlir::IRMapping &mapping);

/// A short form of `repair` for remarks: "+ count * d * d".
std::string describeMeanRepair(const MeanRepair &repair);

} // namespace nautilus

#endif
