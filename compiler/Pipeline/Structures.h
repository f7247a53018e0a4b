//===- Structures.h - A kernel's structures, by rewrite choice -*- C++ -*-===//
//
// A kernel's structures: the tile programs each choice of the alg rewrites
// (autoscheduler/Rewrites.h) gives it, scheduled by the heuristics, with
// the target's model's prediction of each (the sum of the model's best
// time of each program: the CPU model, or on a GPU the GPU models).
// `--schedule auto` takes the structure the model predicts fastest
// (Compilation, through ScheduleProvider::withStructure); `nautc tune`
// measures each structure's programs (on the CPU, a GPU or the
// emulator).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_STRUCTURES_H
#define NAUTILUS_PIPELINE_STRUCTURES_H

#include "autoscheduler/GpuTerms.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "compiler/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <vector>

namespace nautilus {

struct KernelStructure {
  StructurePrediction prediction; // its rewrites, and the model's time
  /// Its tile programs with the heuristics' schedules, as schedules see
  /// them (lowerAlgToScheduledTile: a split not yet made).
  mlir::OwningOpRef<mlir::ModuleOp> programs;
};

/// Whether `module`'s alg kernel may have more than one structure: it has
/// two reductions or more (a chain the rewrites may fuse), a reduction
/// an element-wise definition reads (which a GPU may sweep in the
/// reduction's program), or an element-wise definition a reduction reads
/// again (recomputed or stored).
bool mayHaveStructures(mlir::ModuleOp module);

/// The distinct structures of the alg kernel in `module` (its sizes bound;
/// not changed) on `target`, the default rewrites' first. A choice whose
/// programs are the same as an earlier one's is left out (a kernel with
/// no chain of reductions has one structure); a choice that does not
/// lower is left out too. A kernel with fewer than two reductions has no
/// chain to fuse: only the default is lowered. Each is predicted by the
/// target's model: on the CPU the CPU model, its terms multiplied by
/// `scales`; on a GPU the GPU models of programs without tensor cores and
/// of flash kernels (a structure with a contraction is not predicted).
std::vector<KernelStructure>
kernelStructures(mlir::ModuleOp module, const TargetInfo &target,
                 const autosched::CpuTermScales &scales = {});

/// The structure the model prefers: the least predicted time among those
/// it predicts, a tie going to the earlier; the first (the default
/// rewrites) where it cannot predict that one.
size_t preferredStructure(const std::vector<StructurePrediction> &structures);

/// The predictions of `structures`.
std::vector<StructurePrediction>
predictionsOf(const std::vector<KernelStructure> &structures);

/// A schedule of a GPU program as its model ranks it.
struct RankedGpuSchedule {
  tile::ScheduleAttr schedule;
  double predictedUs = 0;
  autosched::GpuTerms terms; // unscaled: what a measurement's sample keeps
};
struct GpuScheduleRanking {
  std::vector<RankedGpuSchedule> ranked; // best first
  /// Whether `--schedule auto` keeps the heuristics' schedule where the
  /// model predicts it within AutoSchedules::kHeuristicsTie of the best
  /// (every program but a contraction).
  bool heuristicsTie = false;
  /// The terms of the program's own schedule, ranked or not (a schedule
  /// outside the space the models search); none where the models cannot
  /// read it as a candidate.
  std::optional<autosched::GpuTerms> ownTerms;
};
/// `program`'s best `keep` schedules (0: all) under the GPU models: a
/// tensor-core contraction's (autoscheduler/Search.h), a flash kernel's
/// (FlashSpace.h), or an element-wise program's or a reduction's
/// (GpuSpace.h); a routing program's none, its fixed schedule's terms
/// (RoutingModel.h) its ownTerms; std::nullopt where no model views the
/// program (a contraction over unbound M or N). What predicts a structure
/// on a GPU, and what `nautc tune` measures there.
std::optional<GpuScheduleRanking> rankedGpuSchedules(tile::ProgramOp program,
                                                     const TargetInfo &target,
                                                     size_t keep);

} // namespace nautilus

#endif
