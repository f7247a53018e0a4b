//===- StreamSplits.h - Whether a stream may be split -----------*- C++ -*-===//
//
// A stream (tile.online_reduce) at the top of its program may be split
// across programs (its schedule's `reduce_split`: tile-split-reductions
// makes its `_partial` program and combines the chunks' states where it
// was) only in some programs. The splitter (compiler/Transforms/Tile/
// SplitStreams.cpp) refuses the others; the CPU model
// (compiler/Schedule/CpuPrograms.cpp) asks the same rules before it offers
// a split, so that no schedule it chooses is refused.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_STREAMSPLITS_H
#define NAUTILUS_TILE_UTILS_STREAMSPLITS_H

#include "dialects/Tile/TileOps.h"

#include <cstdint>
#include <string>

namespace nautilus::tile {

/// The most a split (`split_k`, `reduce_split`) may give the workspace of
/// its partial results: 1 GiB. The default schedules split only to fill
/// the multiprocessors (a few MiB of partials); a split whose partials
/// pass this gains no parallelism worth the memory it moves, and may not
/// fit the device at all.
constexpr int64_t kMaxPartialWorkspaceBytes = int64_t(1) << 30;

/// `program`'s one stream at its top level, or null (none, or several).
OnlineReduceOp onlyTopLevelStream(ProgramOp program);

/// Why `program`'s stream may not be split across programs however many
/// ways, or "": the program must have exactly one stream at its top level
/// and no contraction, routing, skipped tiles or top-level reduction
/// beside it, and accumulators of f32 or f64 (the workspace's types). (Its
/// streamed extent may be unbound: split `in P` parts, each computes its
/// chunk at launch.)
std::string streamSplitShapeRefusal(ProgramOp program);

/// The workspace bytes a chunk of `stream` keeps for one output element
/// (its accumulators).
int64_t streamPartialElementBytes(OnlineReduceOp stream);

/// The bytes each chunk of `program`'s stream keeps in the workspace (its
/// accumulators for each output element), or 0 where an output extent is
/// not bound.
int64_t streamPartialBytesPerChunk(ProgramOp program);

} // namespace nautilus::tile

#endif
