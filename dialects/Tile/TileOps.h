//===- TileOps.h - The tile dialect -----------------------------*- C++ -*-===//
#ifndef NAUTILUS_DIALECTS_TILE_TILEOPS_H
#define NAUTILUS_DIALECTS_TILE_TILEOPS_H

#include "compiler/Layout/LinearLayout.h"
#include "dialects/Alg/AlgOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "dialects/Tile/TileDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.h.inc"

namespace nautilus::tile {

/// Whether index expression `expr` takes one value over each tile of
/// `tileExtent` elements along dimension `dim` (tiles start at multiples of
/// their extent): it does not read `dim`, or reads it only as
/// `dim floordiv c` with c a multiple of the extent (a grouped GEMM's block
/// of rows, whose expert is the same for the whole tile), or the tile
/// is one element along it.
bool isUniformOverTile(mlir::AffineExpr expr, unsigned dim,
                       int64_t tileExtent);

/// Whether `value`, used in a computed contraction operand but defined
/// outside its region, is a splat constant or a broadcast of a scalar:
/// CSE may replace such an op in the region by an identical one outside
/// it, which the region may then use (sinkIntoComputedOperands clones them
/// back before the region is evaluated).
bool isSinkableIntoComputedOperand(mlir::Value value);

/// Clones into `contract`'s computed operand regions the outer values
/// they use (isSinkableIntoComputedOperand), so that each region computes
/// its operand from what it holds alone.
void sinkIntoComputedOperands(ContractOp contract);

} // namespace nautilus::tile

#endif
