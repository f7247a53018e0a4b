//===- AffineExpansion.h - Affine expressions as arith ops ------*- C++ -*-===//
#ifndef NAUTILUS_TILE_UTILS_AFFINEEXPANSION_H
#define NAUTILUS_TILE_UTILS_AFFINEEXPANSION_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"

namespace nautilus {

namespace tile {
class LoadOp;
} // namespace tile

/// Emits `expr` as arith ops on `dims` and `syms`, which are all of one type:
/// `index`, or a vector of `index` (then constants are splats of that type).
/// Division and modulo are floor division and floor modulo.
mlir::Value expandAffine(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::AffineExpr expr, mlir::Type type,
                         llvm::ArrayRef<mlir::Value> dims,
                         llvm::ArrayRef<mlir::Value> syms);

/// Reads i32 `table` at `map` of `dims` with `syms` as symbols (index
/// scalars, the same over the tile or program that asks) as an index, or
/// `outside` where the map's index lies past the table.
mlir::Value loadTableEntry(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value table, mlir::AffineMap map,
                           llvm::ArrayRef<mlir::Value> dims,
                           llvm::ArrayRef<mlir::Value> syms, int64_t outside);

/// Whether `expr` involves dimension `dim`.
bool involvesDim(mlir::AffineExpr expr, unsigned dim);

/// Whether `map`'s innermost result is dimension `dim` itself and no other
/// result involves it: consecutive values of `dim` read consecutive
/// elements of a row-major buffer.
bool isContiguousAlong(mlir::AffineMap map, unsigned dim);

/// Whether `load` gathers whole runs along output dimension `dim`: its
/// gathered indices are the same along `dim` (tile::isUniformAlongDim),
/// none of them indexes the buffer's innermost dimension, and its map reads
/// `dim` as that innermost index alone (isContiguousAlong: a mixture of
/// experts' rows of X, `X[order[q] / J, d]`, along d). Consecutive elements
/// along `dim` then lie consecutively in memory, as for a plain load.
bool gathersRunsAlong(tile::LoadOp load, unsigned dim);

} // namespace nautilus

#endif
