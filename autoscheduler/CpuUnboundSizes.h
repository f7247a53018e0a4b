//===- CpuUnboundSizes.h - CPU tiles for sizes unbound at compile time -*-===//
//
// A kernel compiled without its sizes (a bundle an application launches
// at many shapes) gets one schedule for every shape. The CPU model ranks
// tiles at bound extents (CpuSpace.h); for a program whose sizes are not
// all bound, it ranks them over sample shapes instead (SampleShapes.h:
// by the geometric mean of their regrets, then the worst), then in the
// order they first appear (the samples in order, each as rankCpuTiles
// ranks it). The candidates are the tiles
// rankCpuTiles gives at any sample whose every extent is a power of two:
// the checker (docs/verification.md) proves a power-of-two tile covers an
// unbound extent at once, where it gave up on rows of 6 after its 10 s
// timeout.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CPUUNBOUNDSIZES_H
#define NAUTILUS_AUTOSCHEDULER_CPUUNBOUNDSIZES_H

#include "autoscheduler/CpuSpace.h"
#include "autoscheduler/SampleShapes.h"

#include <functional>

namespace nautilus::autosched {

/// Which candidates a choice may take (the verifier refuted the others).
using CandidateFilter = std::function<bool(const CpuCandidate &)>;

/// Adds to `candidates` each tile of `ranked` (one sample's ranking) a
/// program over unbound sizes may take, not there yet: unsplit (the tile
/// is costed so at every sample), of power-of-two extents, and `allowed`
/// (when given).
void addSampleCandidates(const std::vector<CpuCandidate> &ranked,
                         std::vector<CpuCandidate> &candidates,
                         const CandidateFilter &allowed = {});

/// A candidate ranked over sample shapes.
struct CpuSampledCandidate {
  CpuCandidate candidate; // its cost at the last (largest) sample
  double meanRegret = 1;  // the geometric mean of its regrets
  double worstRegret = 1;
  size_t worstSample = 0; // where its regret is the worst
};

/// Every candidate of `samples` (the same program at each sample shape),
/// ranked as above, best first; at most `keep` (0: all). `bestUs`, when
/// given, receives the best candidate's time at each sample (what
/// sampledCandidate takes).
std::vector<CpuSampledCandidate>
rankCpuTilesOverSamples(const std::vector<CpuProgram> &samples,
                        const TargetInfo &target, size_t keep = 0,
                        const CpuTermScales &scales = {},
                        std::vector<double> *bestUs = nullptr);

/// `schedule` (a candidate's tile, pack and block; its cost aside) over
/// `samples` as above, `bestUs` the best time at each.
CpuSampledCandidate sampledCandidate(const std::vector<CpuProgram> &samples,
                                     const std::vector<double> &bestUs,
                                     const CpuCandidate &schedule,
                                     const TargetInfo &target,
                                     const CpuTermScales &scales = {});

} // namespace nautilus::autosched

#endif
