//===- Inlining.h - Copying alg bodies into other domains -------*- C++ -*-===//
//
// The alg fusions recompute one definition where another reads it: they
// copy its body into the reader's block, with its indices expressed over
// the reader's domain. These are the shared pieces.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_INLINING_H
#define NAUTILUS_TRANSFORMS_ALG_INLINING_H

#include "dialects/Alg/AlgOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {

/// Copies `body`'s ops (not its terminator) at `builder`'s insertion point
/// into a block whose domain has `at.getNumDims()` indices: `at` gives
/// each index argument of `body`, in order, over that domain (its symbols
/// are the kernel's sizes). Index maps are composed with `at`; an index
/// used as a value becomes an `alg.apply`. Values already in `mapping`
/// (the non-index arguments, and any op the caller replaces) are not
/// copied. Returns the values `body` yields, mapped; failure if `body`
/// holds a nested `alg.reduce` (not copied by this).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
inlineBlock(mlir::OpBuilder &builder, mlir::Block &body, mlir::AffineMap at,
            mlir::IRMapping &mapping);

/// Copies what `value` (computed in `body`) is computed from, and `value`
/// itself, at `builder`'s insertion point, as `inlineBlock` copies a whole
/// body: index maps composed with `at`, an index used as a value made an
/// `alg.apply`, values in `mapping` (and values from above `body`) used as
/// they are. Returns the copy of `value`.
mlir::Value inlineValue(mlir::OpBuilder &builder, mlir::Block &body,
                        mlir::Value value, mlir::AffineMap at,
                        mlir::IRMapping &mapping);

/// Merges the reads of `producer` that are the same element: in one block,
/// a load with the map of an earlier load is replaced by it. Without this,
/// a definition read twice at one index would be copied twice, and a chain
/// of such definitions would grow as 2^depth. Returns the reads that
/// remain.
llvm::SmallVector<alg::LoadOp> mergeIdenticalReads(mlir::Value producer);

/// The definition `value` is the result of, if it is an `alg.define`.
inline alg::DefineOp definitionOf(mlir::Value value) {
  return value.getDefiningOp<alg::DefineOp>();
}

} // namespace nautilus

#endif
