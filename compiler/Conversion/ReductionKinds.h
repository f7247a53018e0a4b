//===- ReductionKinds.h - Identities and folds of reductions ---*- C++ -*-===//
#ifndef NAUTILUS_CONVERSION_REDUCTIONKINDS_H
#define NAUTILUS_CONVERSION_REDUCTIONKINDS_H

#include "dialects/Alg/AlgOps.h"
#include "mlir/IR/Builders.h"

namespace nautilus {

/// The identity of `kind` (0, 1, -inf or +inf, the extreme integers) as a
/// constant of `type`: a scalar, or a vector splat.
mlir::Value reductionIdentity(mlir::OpBuilder &b, mlir::Location loc,
                              alg::ReductionKind kind, mlir::Type type);

/// `a` folded with `c` by `kind` (NaN-propagating max and min for floats).
mlir::Value combineReduction(mlir::OpBuilder &b, mlir::Location loc,
                             alg::ReductionKind kind, mlir::Value a,
                             mlir::Value c);

} // namespace nautilus

#endif
