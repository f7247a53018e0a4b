//===- Algebra.h - Facts about the scalar values of alg regions -*- C++ -*-===//
//
// What the algebraic rewrites of alg (factoring, scale sinking, exp2, and
// the repairs of reduction fusion) ask of a scalar value in a body or an
// epilogue: whether it varies along some indices of the domain, whether it
// is *point-free* (computed from constants and sizes only, so the same at
// every point and recomputable anywhere), its value when every size it
// reads is bound, and whether it is provably positive.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_ALGEBRA_H
#define NAUTILUS_TRANSFORMS_ALG_ALGEBRA_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Value.h"
#include <optional>
#include <string>

namespace nautilus {

/// Whether `value`, computed in `block` (or above it), depends on the
/// block's arguments `first` .. `first + count - 1` (index arguments): as
/// values, through the index maps of loads and `alg.apply`, or through a
/// nested reduction (assumed to).
bool variesAlong(mlir::Value value, mlir::Block &block, unsigned first,
                 unsigned count);

/// Whether `value` depends only on constants and sizes: the same at every
/// point, and recomputable anywhere in the kernel.
bool isPointFree(mlir::Value value);

/// The value of a float constant.
std::optional<double> constantValue(mlir::Value value);

/// The value of the point-free `value` when it reads no unbound size
/// (sizes bound by `--shape` are constants by then), computed in double
/// with each f32 operation rounded to f32; nullopt otherwise.
std::optional<double> evaluatePointFree(mlir::Value value);

/// Whether the point-free `value` is positive and finite for every value
/// of the sizes (which are at least 1): a constant that is, a size as a
/// float, or sqrt or rsqrt of one of these. Products are not accepted
/// unless they evaluate to a constant (they could overflow).
bool isPositive(mlir::Value value);

/// Clones the point-free `value` (and what it is computed from) at
/// `builder`'s insertion point, through `mapping`.
mlir::Value clonePointFree(mlir::OpBuilder &builder, mlir::Value value,
                           mlir::IRMapping &mapping);

/// A float constant of `type` (a scalar float type).
mlir::Value floatConstant(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Type type, double value);

/// A short form of `value` for remarks: 'L' for a read of L, 0.5,
/// rsqrt(D), 'math.tanh' for anything else.
std::string describeValue(mlir::Value value);

/// The name of the definition or input `tensor` is ("a tensor" otherwise).
std::string tensorName(mlir::Value tensor);

/// Erases the ops of `block` (and of blocks nested in it) whose results are
/// no longer used and that have no effects, last first.
void eraseDeadOps(mlir::Block &block);

} // namespace nautilus

#endif
