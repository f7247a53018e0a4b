//===- SplitStreams.h - a stream split across programs ----------*- C++ -*-===//
//
// Split-KV: a program's tile.online_reduce split into chunks streamed by
// programs of their own, then combined (SplitStreams.cpp). Used by
// tile-split-reductions, and by tile-apply-schedules, which checks a
// schedule file's `reduce_split`.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_TILE_SPLITSTREAMS_H
#define NAUTILUS_TRANSFORMS_TILE_SPLITSTREAMS_H

#include "dialects/Tile/TileOps.h"

#include <string>

namespace nautilus {

/// Why `program`'s stream cannot be split across programs, or "" if it can:
/// it is the program's one stream, with no contraction, routing, skipped
/// tiles or reduction beside it, over an extent bound at compile time, its
/// accumulators f32 or f64, and split `split` ways its partial results fit
/// the workspace a split may take (partialWorkspaceRefusal).
std::string splitStreamRefusal(tile::ProgramOp program, int64_t split);

/// Splits `program`'s stream as its schedule's `reduce_split` says (which
/// splitStreamRefusal accepts): see SplitStreams.cpp. `combining`, when
/// set, is the schedule the program takes once it combines the partials
/// (a flash kernel's tensor-core schedule fits only its partial program).
void splitStream(mlir::ModuleOp module, tile::PlanOp plan,
                 tile::ProgramOp program,
                 tile::ScheduleAttr combining = tile::ScheduleAttr());

} // namespace nautilus

#endif
