//===- CostModel.h - An analytic model of a contraction's time -*- C++ -*-===//
//
// Predicts the time of a contraction schedule on a GPU target from the
// constants of compiler/Target, term by term (docs/autoscheduler.md derives
// each): the waves the programs take over the multiprocessors (occupancy
// and wave quantisation), a wave's tensor-core time against the shared
// memory that feeds it, its DRAM traffic with the reuse its rasterised
// tiles get from L2, pipeline fill and launch latency, and split-K's
// summing program. Deterministic, and cheap: a space of a few hundred
// candidates is scored in well under a millisecond.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_COSTMODEL_H
#define NAUTILUS_AUTOSCHEDULER_COSTMODEL_H

#include "autoscheduler/ContractionSpace.h"
#include "autoscheduler/GpuTerms.h"

namespace nautilus::autosched {

/// A prediction, in microseconds, and the terms it is made of.
struct CostBreakdown {
  double totalUs = 0;
  double computeUs = 0;  // tensor cores (or the shared memory feeding them)
  double memoryUs = 0;   // DRAM traffic
  double latencyUs = 0;  // launches, pipeline fill per wave
  double splitSumUs = 0; // split-K's partial sums
  int64_t programs = 0;
  int64_t blocksPerMultiprocessor = 0;
  int64_t waves = 0;
  /// The share of the last wave's slots that have a program.
  double lastWaveFill = 0;
  /// The terms unscaled (the times above are under the target's
  /// gpuModelScales).
  GpuTerms terms;
};

/// The predicted time of `candidate` for `problem` on `target`.
CostBreakdown estimate(const ContractionProblem &problem,
                       const ContractionCandidate &candidate,
                       const TargetInfo &target);

} // namespace nautilus::autosched

#endif
