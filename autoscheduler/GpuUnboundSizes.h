//===- GpuUnboundSizes.h - GPU schedules for unbound sizes ----*- C++ -*-===//
//
// A kernel compiled without its sizes (a bundle an application launches
// at many shapes) gets one schedule for every shape. The GPU model of
// programs without tensor cores (GpuSpace.h: element-wise programs,
// reductions of rows or columns) and the flash kernels' (FlashSpace.h)
// rank schedules at bound extents; for a program whose sizes are not all
// bound they rank them over sample shapes
// instead (SampleShapes.h: by the geometric mean of their regrets, then
// the worst, each to a ten-thousandth; ties as rankGpuSchedules breaks
// them: the larger tile, more threads, longer runs, the first
// enumerated). The candidates are those of any
// sample's space that fit the target at every sample (fitsGpuTarget; a
// tile larger than a sample's extent, which its space does not offer,
// runs there masked), unsplit (the one schedule serves every shape, and
// a split's partials would be allocated at every shape), with
// power-of-two tiles (what the checker proves covers an unbound extent).
// Copies for launch ranges (below) take the same candidates, but a flash
// kernel's copy may split its keys (its chunks sized at launch, its
// partials allocated only where it runs).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_GPUUNBOUNDSIZES_H
#define NAUTILUS_AUTOSCHEDULER_GPUUNBOUNDSIZES_H

#include "autoscheduler/FlashSpace.h"
#include "autoscheduler/GpuSpace.h"
#include "autoscheduler/LaunchRanges.h"
#include "autoscheduler/SampleShapes.h"

#include <functional>
#include <optional>

namespace nautilus::autosched {

/// A candidate ranked over sample shapes.
template <typename Candidate, typename Cost> struct SampledCandidateOf {
  Candidate candidate;
  Cost atLargest; // its cost at the last (largest) sample
  SampleRegrets regrets;
};
using GpuSampledCandidate = SampledCandidateOf<GpuCandidate, GpuCost>;
using FlashSampledCandidate = SampledCandidateOf<FlashCandidate, FlashCost>;

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

/// A flash kernel's candidates (FlashSpace.h) over `samples`, ranked as
/// above (ties to the first enumerated): those of one head a tile,
/// unsplit (as above).
std::vector<FlashSampledCandidate>
rankFlashOverSamples(const std::vector<FlashProblem> &samples,
                     const TargetInfo &target, size_t keep = 0,
                     std::vector<double> *bestUs = nullptr);

/// `candidate` over `samples` as above, `bestUs` the best time at each.
FlashSampledCandidate sampledFlashCandidate(
    const std::vector<FlashProblem> &samples, const std::vector<double> &bestUs,
    const FlashCandidate &candidate, const TargetInfo &target);

/// A division of a GPU program's unbound sizes into launch ranges
/// (LaunchRanges.h: a copy of the program a range, launched by the size),
/// and the schedules its ranges name.
struct GpuLaunchRanges {
  LaunchRanges division;
  std::vector<GpuCandidate> candidates;
};

/// The program at extents of its unbound sizes (in order); std::nullopt
/// where the model cannot view it so.
using GpuProgramAtExtents =
    std::function<std::optional<GpuProgram>(const std::vector<int64_t> &)>;

/// The most unbound sizes a GPU program may have to be divided into launch
/// ranges: a division predicts the whole space at each of its sample
/// shapes (4 x 3^(sizes - 1) a divided size), and the GPU model's
/// coalescing term reads each candidate's layout, so that attention's
/// row programs over four sizes took 9 s to divide where they take 0.4 s
/// to rank (a pooling over three, 2 s); a program over more keeps its one
/// schedule.
constexpr size_t kMostGpuLaunchRangeSizes = 3;

/// Which candidates a range may take (the verifier refuted the others).
using GpuCandidateFilter = std::function<bool(const GpuCandidate &)>;

/// The best division of one of `unboundSizes` sizes (at most
/// kMostUnboundSizesSampled) against `oneSchedule` (the schedule ranked
/// over the unbound sizes' samples), as LaunchRanges.h divides them for
/// any model: here the candidates are those a program over unbound sizes
/// may take (above) at any sample shape, and `allowed`; std::nullopt where
/// none earns its copies, the model cannot view a sample, or there are
/// more than kMostGpuLaunchRangeSizes sizes.
std::optional<GpuLaunchRanges>
chooseGpuLaunchRanges(size_t unboundSizes, const GpuProgramAtExtents &programAt,
                      const GpuCandidate &oneSchedule, const TargetInfo &target,
                      const GpuCandidateFilter &allowed = {});

/// A division of a flash kernel's unbound sizes (B, H, N or M; its head
/// dimension bound) into launch ranges, and the schedules its ranges name.
struct FlashLaunchRanges {
  LaunchRanges division;
  std::vector<FlashCandidate> candidates;
};

/// The flash kernel at extents of its unbound sizes (in order), with the
/// splits of the keys a copy may take; std::nullopt where the model cannot
/// view it so.
using FlashProblemAtExtents =
    std::function<std::optional<FlashProblem>(const std::vector<int64_t> &)>;

/// Which flash candidates a range may take.
using FlashCandidateFilter = std::function<bool(const FlashCandidate &)>;

/// The same division for a flash kernel against `oneSchedule`: the
/// candidates those of one head a tile at any shape, split or not (a
/// split copy's chunks are sized at launch: SplitStreams.cpp), and
/// `allowed`.
std::optional<FlashLaunchRanges> chooseFlashLaunchRanges(
    size_t unboundSizes, const FlashProblemAtExtents &problemAt,
    const FlashCandidate &oneSchedule, const TargetInfo &target,
    const FlashCandidateFilter &allowed = {});

} // namespace nautilus::autosched

#endif
