//===- CpuPrograms.h - A tile program as the CPU model sees it -*- C++ -*-===//
//
// The facts autoscheduler/CpuSpace.h ranks a host program's tiles by:
// its output extents (bound by the plan), its top-level reduction's (or
// stream's) extent, whether that reduction is a contraction (a sum of a
// product of two reads, one of them the same along the output's innermost
// dimension), the work of a point, and whether a reduction's lanes gather.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_CPUPROGRAMS_H
#define NAUTILUS_SCHEDULE_CPUPROGRAMS_H

#include "autoscheduler/CpuSpace.h"
#include "autoscheduler/CpuUnboundSizes.h"
#include "compiler/Schedule/SampledViews.h"
#include "dialects/Tile/TileOps.h"

#include <optional>

namespace nautilus {

/// The CPU model's view of `program`, or std::nullopt where an output or
/// reduced extent is not bound (by the module's plan), or the program is a
/// stream (tile.online_reduce) over more than one output dimension
/// (attention's: its tile spans the head dimension), one that combines
/// the chunks of its `_partial` program (split already), or nested in a
/// loop: those keep their own tile. A row stream not yet split is seen
/// before its split, which the model chooses (`mostSplit`).
std::optional<autosched::CpuProgram> cpuProgramOf(tile::ProgramOp program);

/// A program whose sizes are not all bound, as the CPU model sees it at
/// sample extents (autoscheduler/CpuUnboundSizes.h).
using CpuProgramSamples = SampledViews<autosched::CpuProgram>;

/// `program` at sample extents (each `rowsVary` where an unbound size is
/// among its rows: a sample's rows then stand for others), or std::nullopt
/// where it is bound (see cpuProgramOf), cannot be viewed at any extent (as
/// cpuProgramOf), or has more than kMostUnboundSizesSampled unbound sizes.
std::optional<CpuProgramSamples> cpuProgramSamplesOf(tile::ProgramOp program);

/// `program` with its unbound sizes `unbound` (as cpuProgramSamplesOf
/// names them) at `extents`, in order (`rowsVary` as a sample's);
/// std::nullopt where it cannot be viewed so (what
/// autosched::chooseCpuLaunchRanges asks for).
std::optional<autosched::CpuProgram>
cpuProgramAtExtents(tile::ProgramOp program,
                    const std::vector<std::string> &unbound,
                    const std::vector<int64_t> &extents);

/// `program`'s schedule with the tile `tile` (the CPU's: one thread), its
/// rhs packed into panels when `pack`, its stream split into `split`
/// chunks (reduce_split), its packed contraction's reduction folded in
/// blocks of `block` (reduce_block; 0: unblocked).
/// The CPU model's view of `schedule` (its tile, pack, split and block;
/// no cost): cpuScheduleWithTile's inverse.
autosched::CpuCandidate cpuCandidateOf(tile::ScheduleAttr schedule);

tile::ScheduleAttr cpuScheduleWithTile(tile::ProgramOp program,
                                       llvm::ArrayRef<int64_t> tile,
                                       bool pack = false, int64_t split = 1,
                                       int64_t block = 0);

} // namespace nautilus

#endif
