//===- GpuUnboundSizes.h - GPU schedules for unbound sizes ----*- C++ -*-===//
//
// A kernel compiled without its sizes (a bundle an application launches
// at many shapes) gets one schedule for every shape. The GPU model of
// programs without tensor cores (GpuSpace.h: element-wise programs,
// reductions of rows or columns) ranks schedules at bound extents; for a
// program whose sizes are not all bound it ranks them over sample shapes
// instead (SampleShapes.h: by the geometric mean of their regrets, then
// the worst, each to a ten-thousandth; ties as rankGpuSchedules breaks
// them: the larger tile, more threads, longer runs, the first
// enumerated). The candidates are those of any
// sample's space that fit the target at every sample (fitsGpuTarget; a
// tile larger than a sample's extent, which its space does not offer,
// runs there masked), unsplit (a split's chunks are sized from the
// reduced extent), with power-of-two tiles (what the checker proves
// covers an unbound extent).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_GPUUNBOUNDSIZES_H
#define NAUTILUS_AUTOSCHEDULER_GPUUNBOUNDSIZES_H

#include "autoscheduler/GpuSpace.h"
#include "autoscheduler/SampleShapes.h"

namespace nautilus::autosched {

/// A GPU candidate ranked over sample shapes.
struct GpuSampledCandidate {
  GpuCandidate candidate;
  GpuCost atLargest; // its cost at the last (largest) sample
  SampleRegrets regrets;
};

/// Every candidate of `samples` (the same program at each sample shape)
/// on `target`, ranked as above, best first; at most `keep` (0: all).
/// `bestUs`, when given, receives the best candidate's time at each
/// sample (what sampledGpuCandidate takes).
std::vector<GpuSampledCandidate>
rankGpuOverSamples(const std::vector<GpuProgram> &samples,
                   const TargetInfo &target, size_t keep = 0,
                   std::vector<double> *bestUs = nullptr);

/// `candidate` over `samples` as above, `bestUs` the best time at each.
GpuSampledCandidate sampledGpuCandidate(const std::vector<GpuProgram> &samples,
                                        const std::vector<double> &bestUs,
                                        const GpuCandidate &candidate,
                                        const TargetInfo &target);

} // namespace nautilus::autosched

#endif
