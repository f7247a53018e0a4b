//===- GpuPrograms.h - A tile program as the GPU model sees it -*- C++ -*-===//
//
// The facts autoscheduler/GpuSpace.h ranks a GPU program's schedules by,
// for programs without tensor cores: element-wise programs and reductions
// of rows or columns (ReductionShape). Their output and reduced extents
// (bound by the plan), the bytes a point reads (its own, or shared with
// other points) and an output writes, the loads and operations of a point,
// the longest run its accesses allow, and the splits it may take.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_GPUPROGRAMS_H
#define NAUTILUS_SCHEDULE_GPUPROGRAMS_H

#include "autoscheduler/FlashSpace.h"
#include "autoscheduler/GpuSpace.h"
#include "compiler/Schedule/SampledViews.h"
#include "dialects/Tile/TileOps.h"

#include <optional>

namespace nautilus {

/// The GPU model's view of `program`, or std::nullopt where it keeps its
/// own schedule: a contraction or a flash kernel (tensor cores), a stream,
/// a reduction that is neither of rows nor of columns (but a short fold of
/// gathered rows, a mixture of experts' combine, seen as a column
/// reduction without groups), more than one top-level reduction, an output
/// of rank 0, nested loops, a gather that does not read runs along the
/// outputs' innermost dimension, a routing program (one tile), a skip of a
/// routing table's blocks that is not over whole blocks of rows, or an
/// extent not bound. A program that skips blocks is seen over the rows
/// that compute (balanced routing).
std::optional<autosched::GpuProgram> gpuProgramOf(tile::ProgramOp program);

/// A program whose sizes are not all bound, as the GPU model sees it at
/// sample extents (autoscheduler/GpuUnboundSizes.h).
using GpuProgramSamples = SampledViews<autosched::GpuProgram>;

/// `program` at sample extents (SampledViews.h), or std::nullopt where it
/// is bound, cannot be viewed at any extent (as gpuProgramOf: a skip of a
/// routing table's blocks needs the routing bound), or has more than
/// kMostUnboundSizesSampled unbound sizes.
std::optional<GpuProgramSamples> gpuProgramSamplesOf(tile::ProgramOp program);

/// `program` with its unbound sizes `unbound` (as gpuProgramSamplesOf
/// names them) at `extents`, in order; std::nullopt where it cannot be
/// viewed so (what autosched::chooseGpuLaunchRanges asks for).
std::optional<autosched::GpuProgram>
gpuProgramAtExtents(tile::ProgramOp program,
                    const std::vector<std::string> &unbound,
                    const std::vector<int64_t> &extents);

/// Whether tile-sweep-row-consumers can sweep a consumer in a program of
/// rows under `schedule`: unsplit, each row shared by a group of
/// consecutive threads. (A row one thread reduces alone it would sweep
/// alone too, and a store a point strided across the warp's rows: the
/// consumer's own program spreads those points over many more threads. So
/// would interleaved groups, whose consecutive threads hold other rows.)
bool sharesRowsForSweep(tile::ScheduleAttr schedule);

/// The GPU model's best schedule of `rows` (a program that reduces rows)
/// that sharesRowsForSweep (over sample shapes where its number of rows is
/// unbound: autoscheduler/GpuUnboundSizes.h), or null where the model
/// does not view the program, the rows' length is unbound, or the target
/// is not a GPU.
tile::ScheduleAttr sweepableRowsSchedule(tile::ProgramOp rows,
                                         const TargetInfo &target);

/// `program`'s schedule as `candidate` gives it.
tile::ScheduleAttr gpuScheduleOf(tile::ProgramOp program,
                                 const autosched::GpuCandidate &candidate);

/// The candidate `schedule` stands for (its tile, threads, groups, runs and
/// split).
autosched::GpuCandidate gpuCandidateOf(tile::ScheduleAttr schedule);

/// The flash model's view of `program` (a stream on tensor cores) on
/// `target`, or std::nullopt where an extent is not bound. The heads a
/// tile may hold are those flashHeadsRefusal accepts (grouped-query heads
/// sharing each K and V block).
std::optional<autosched::FlashProblem> flashProblemOf(tile::ProgramOp program,
                                                      const TargetInfo &target);

/// A flash kernel whose sizes are not all bound, as the flash model sees it
/// at sample extents (autoscheduler/GpuUnboundSizes.h): unsplit, one head
/// a tile.
using FlashProblemSamples = SampledViews<autosched::FlashProblem>;

/// `program` at sample extents (SampledViews.h), or std::nullopt where it
/// is bound, is no flash kernel, or has more than kMostUnboundSizesSampled
/// unbound sizes.
std::optional<FlashProblemSamples>
flashProblemSamplesOf(tile::ProgramOp program, const TargetInfo &target);

/// `program` with its unbound sizes `unbound` at `extents`, in order, as
/// a copy for a range of them sees it (what
/// autosched::chooseFlashLaunchRanges asks for): one head a tile, and
/// splits of the keys (split-KV, each chunk sized at launch) of at least
/// kFlashMinChunk keys each, up to kMostUnboundFlashSplit.
std::optional<autosched::FlashProblem>
flashProblemAtExtents(tile::ProgramOp program, const TargetInfo &target,
                      const std::vector<std::string> &unbound,
                      const std::vector<int64_t> &extents);

/// The most ways a copy of a flash kernel over unbound sizes splits its
/// keys: 32 chunks fill an H100's 132 multiprocessors from 4 heads.
constexpr int64_t kMostUnboundFlashSplit = 32;

/// `program`'s schedule as the flash `candidate` gives it.
tile::ScheduleAttr flashScheduleOf(tile::ProgramOp program,
                                   const autosched::FlashCandidate &candidate);

/// The flash candidate a flash kernel's `schedule` stands for.
autosched::FlashCandidate flashCandidateOf(tile::ScheduleAttr schedule);

} // namespace nautilus

#endif
