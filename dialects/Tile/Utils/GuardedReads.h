//===- GuardedReads.h - Reads a where(...) on the tile guards ---*- C++ -*-===//
//
// A flash kernel's copies check their rows, not the batch and head indices
// (the same for a program's whole tile). A read there may leave its
// buffer only where a `where(...)` on those coordinates does not select it
// (`where(h + 1 < H, ... K[b, h + 1, m, d] ...)`, which the language
// allows): the verifier does not prove such a read in range, and the
// sm_80 copies clamp it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_DIALECTS_TILE_UTILS_GUARDEDREADS_H
#define NAUTILUS_DIALECTS_TILE_UTILS_GUARDEDREADS_H

#include "dialects/Tile/TileOps.h"

namespace nautilus::tile {

/// Whether `load`'s value reaches a `where` (an arith.select) as one of
/// its choices under a condition computed from the program's coordinate
/// along a dimension of `tile` 1 (`tile.index d`: its batch or head).
bool isGuardedOnTileCoordinate(LoadOp load, llvm::ArrayRef<int64_t> tile);

} // namespace nautilus::tile

#endif
