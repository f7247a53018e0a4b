//===- SplitReductions.h - a reduction split across programs ----*- C++ -*-===//
//
// What tile-split-reductions needs to know before it splits a program's
// reduction, shared with tile-apply-schedules, which checks a schedule
// file's `reduce_split`.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_TILE_SPLITREDUCTIONS_H
#define NAUTILUS_TRANSFORMS_TILE_SPLITREDUCTIONS_H

#include "dialects/Tile/TileOps.h"

#include <string>

namespace nautilus {

/// The program's one `tile.reduce` at its top level, or null (none, or
/// more than one).
tile::ReduceOp topLevelReduce(tile::ProgramOp program);

/// The program's one op of type OpT at its top level, or null.
template <typename OpT> OpT onlyTopLevel(tile::ProgramOp program) {
  OpT found;
  for (OpT op : program.getBody().front().getOps<OpT>()) {
    if (found)
      return {};
    found = op;
  }
  return found;
}

/// `schedule` over `tile` with `reduce_split` = `split`.
tile::ScheduleAttr withReduceSplit(tile::ScheduleAttr schedule,
                                   llvm::ArrayRef<int64_t> tile,
                                   int64_t split);

/// Why `program`'s reduction cannot be split across programs, or "" if it
/// can: the program has exactly one reduction at its top level, over an
/// outermost extent bound at compile time, whose results a workspace buffer
/// can hold, and no contraction, routing or skipped tiles; split `split`
/// ways, its partial results must fit the workspace a split may take
/// (partialWorkspaceRefusal).
std::string splitReductionRefusal(tile::ProgramOp program, int64_t split = 1);

/// How a reduction over `extent` splits `split` ways: chunks of `chunk`
/// iterations, a multiple of `align` (a GPU schedule's runs along the
/// reduction: every chunk then starts where a run's vector load may),
/// `splits` of them (at most `split`: none is empty).
struct ReductionChunks {
  int64_t chunk, splits;
};
ReductionChunks reductionChunks(int64_t extent, int64_t split,
                                int64_t align = 1);

} // namespace nautilus

#endif
