//===- TileUniformity.h - Map results constant over a tile ------*- C++ -*-===//
//
// A program instance's tile starts at a multiple of its extent along each
// output dimension, so an index that reads dimension d only through
// `d floordiv c`, with c a multiple of the tile's extent along d, is the
// same for every element of the tile: grouped-query attention's K[b,
// h floordiv (H floordiv G), m, d] over a tile of H / G heads (or fewer)
// reads one key/value head. The CPU lowering then loads such an operand
// once for the tile instead of once per element along d.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_TILEUNIFORMITY_H
#define NAUTILUS_TILE_UTILS_TILEUNIFORMITY_H

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/AffineExpr.h"

#include <optional>

namespace nautilus {

/// The values of `program`'s size symbols known at compile time (the
/// plan's bindings), by symbol position.
llvm::SmallVector<std::optional<int64_t>>
knownSymbolValues(tile::ProgramOp program);

/// Whether `e` takes one value over a tile `tileExtent` wide along output
/// dimension `d` (whose origin is a multiple of `tileExtent`): it does not
/// read d, or reads it only as `d floordiv c` with c (a constant, or of
/// symbols in `symbols`) a positive multiple of `tileExtent`.
bool isUniformOverTile(mlir::AffineExpr e, unsigned d, int64_t tileExtent,
                       llvm::ArrayRef<std::optional<int64_t>> symbols);

} // namespace nautilus

#endif
