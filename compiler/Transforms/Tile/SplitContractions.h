//===- SplitContractions.h - split-K as two programs ------------*- C++ -*-===//
//
// What tile-split-contractions needs to know before it splits a program's
// contraction, shared with the passes that choose or check a schedule's
// `split_k` (tile-form-contractions, tile-apply-schedules).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_TILE_SPLITCONTRACTIONS_H
#define NAUTILUS_TRANSFORMS_TILE_SPLITCONTRACTIONS_H

#include "dialects/Tile/TileOps.h"

#include <optional>
#include <string>

namespace nautilus {

/// Why `contract` (of `program`) cannot be split along K, or "" if it can:
/// it must be at the program's top level, without offset tables, in a
/// program that skips no tiles, over a bound extent; and given the
/// `requested` schedule's split_k, its partial sums must fit the workspace
/// a split may take (partialWorkspaceRefusal).
std::string splitKRefusal(tile::ProgramOp program, tile::ContractOp contract,
                          tile::MmaAttr requested = {});

/// `contract`'s reduced extent, when bound at compile time.
std::optional<int64_t> knownReducedExtent(tile::ProgramOp program,
                                          tile::ContractOp contract);

/// How K of `extent` splits `splits` ways in whole steps of `tileK`: chunks
/// of `chunk` elements (a multiple of tileK), `splits` of them (at most the
/// asked number: none is empty).
struct SplitKChunks {
  int64_t chunk, splits;
};
SplitKChunks splitKChunks(int64_t extent, int64_t tileK, int64_t splits);

} // namespace nautilus

#endif
