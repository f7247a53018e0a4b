//===- TileOps.h - The tile dialect -----------------------------*- C++ -*-===//
#ifndef NAUTILUS_DIALECTS_TILE_TILEOPS_H
#define NAUTILUS_DIALECTS_TILE_TILEOPS_H

#include "dialects/Tile/Layout/LinearLayout.h"
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

/// The name a program that sweeps its rows' consumer (tile.sweep) had
/// before it took the consumer's (`softmax_L` for a merged `softmax_Y`):
/// tile-sweep-row-consumers records it, and a schedule file that names
/// the rows' program finds the merged one by it, whether the sizes merge
/// the two or not.
inline constexpr llvm::StringLiteral kSweptRowsAttrName = "tile.swept_rows";
/// Marks a swept program whose rows tile-sweep-row-consumers re-scheduled
/// for the sweep (ScheduleProvider::sweepableRows): its schedule is not the
/// heuristics', so a tuner names it rather than leave it to them.
inline constexpr llvm::StringLiteral kRowsRescheduledAttrName =
    "tile.rows_rescheduled";

/// Whether index expression `expr` takes one value over each tile of
/// `tileExtent` elements along dimension `dim` (tiles start at multiples of
/// their extent): it does not read `dim`, or reads it only as
/// `dim floordiv c` with c a positive multiple of the extent (a grouped
/// GEMM's block of rows, whose expert is the same for the whole tile;
/// grouped-query attention's K[b, h floordiv (H floordiv G), ...], whose
/// key/value head is the same for a tile of the group's heads), within
/// sums, products, remainders and divisions of such terms, or the tile is
/// one element along it. c is a constant, or of symbols whose values
/// `symbols` gives (by position; the sizes a plan binds).
bool isUniformOverTile(mlir::AffineExpr expr, unsigned dim, int64_t tileExtent,
                       llvm::ArrayRef<std::optional<int64_t>> symbols = {});

/// Gives every tile of shape `from` that `root` and the ops nested in it
/// make or take (results, splat constants, regions' arguments) the shape
/// `to`: ProgramOp::retile, and a body moved into a program of another
/// tile shape.
void retileTiles(mlir::Operation *root, llvm::ArrayRef<int64_t> from,
                 llvm::ArrayRef<int64_t> to);

/// The values of `program`'s size symbols known at compile time (its
/// plan's bindings), by symbol position.
llvm::SmallVector<std::optional<int64_t>> knownSizeValues(ProgramOp program);

/// `program`'s output extents, when every one is known at compile time (a
/// literal or bound by its plan); std::nullopt otherwise.
std::optional<std::vector<int64_t>> knownOutputExtents(ProgramOp program);

/// A splat constant or a broadcast scalar.
bool isSplatTile(mlir::Value value);

/// Whether `value` is one value at every element: a splat constant, a
/// broadcast scalar, or an element-wise op of such tiles (a scale
/// `rsqrt(D)`). Such a tile is in every layout.
bool isUniformTile(mlir::Value value);

/// isUniformTile, remembered for every value it walks: where a caller asks
/// of many values of one body that IR does not change in between (each
/// query alone walks the element-wise ops below it: over a chain of n
/// definitions, asking of each was quadratic, and layoutOf's walk down it
/// cubic).
class UniformTiles {
public:
  bool isUniform(mlir::Value value);

private:
  llvm::DenseMap<mlir::Value, bool> known;
};

/// Whether `value` (a tile of the program's body) is the same at every
/// element along output dimension `dim` (it may vary along the others): a
/// uniform tile, a load or index tile that does not read `dim` (a gather's
/// indices too), or an element-wise op of such tiles.
bool isUniformAlongDim(mlir::Value value, unsigned dim);

/// The layout `value` is distributed by, as the IR states it: a
/// conversion's target, a load's or index tile's `layout`, or an
/// element-wise op's operands' layout. Of the operands, uniform tiles are
/// skipped (they are in every layout) and those that `deferred` holds
/// (tiles that could be produced in any layout) count only when no other
/// tile is left. Null for the program's own distribution and for a uniform
/// tile. After `tile-assign-layouts` an element-wise op's tile operands
/// share one layout, and `deferred` changes nothing.
LinearLayoutAttr
layoutOf(mlir::Value value,
         llvm::function_ref<bool(mlir::Value)> deferred = nullptr);

/// Clones into `contract`'s computed operand regions the splat constants
/// and broadcast scalars defined outside them that they use (CSE may
/// replace such an op in a region by an identical one outside it), so
/// that each region computes its operand from what it holds alone.
void sinkIntoComputedOperands(ContractOp contract);

/// Whether `op` reads the program's output index `dim` itself: a load whose
/// map is a function of it, or an index tile of it. (Other ops read it only
/// through their operands.) A computed operand none of whose ops reads the
/// other output dimension or K, but through loads' maps, can be computed
/// apart, once into a workspace over the rows and K.
bool readsOutputDim(mlir::Operation *op, unsigned dim);

} // namespace nautilus::tile

#endif
