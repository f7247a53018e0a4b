//===- CpuLaunchRanges.h - CPU tiles chosen at launch by a size -*- C++ -*-===//
//
// A kernel compiled without its sizes gets one tile for every shape
// (CpuUnboundSizes.h), and no tile is best at every shape. The CPU model
// may divide the values of an unbound size into ranges, each with its own
// tile, as LaunchRanges.h divides them for any model: here the model is
// the CPU's (its candidates the power-of-two, unsplit tiles rankCpuTiles
// gives at any sample shape, and those `allowed`).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CPULAUNCHRANGES_H
#define NAUTILUS_AUTOSCHEDULER_CPULAUNCHRANGES_H

#include "autoscheduler/CpuUnboundSizes.h"
#include "autoscheduler/LaunchRanges.h"

#include <functional>
#include <optional>

namespace nautilus::autosched {

/// A division of the CPU program's unbound sizes into launch ranges
/// (LaunchRanges.h), and the tiles its ranges name.
struct CpuLaunchRanges {
  LaunchRanges division;
  std::vector<CpuCandidate> candidates;
  /// Range `range`'s tile (unpacked or packed; its cost not filled).
  const CpuCandidate &tileOf(const LaunchRange &range) const {
    return candidates[range.candidate];
  }
};

/// The program at extents of its unbound sizes (in order); std::nullopt
/// where the model cannot view it so.
using CpuProgramAtExtents =
    std::function<std::optional<CpuProgram>(const std::vector<int64_t> &)>;

/// The best division of one of `unboundSizes` sizes (at most
/// kMostUnboundSizesSampled) against `oneTile` (the tile ranked over the
/// unbound sizes' samples), as above; std::nullopt where none earns its
/// copies or the model cannot view a sample.
/// `allowed` (when given) says which candidates a range may take (the
/// verifier refuted the others).
std::optional<CpuLaunchRanges>
chooseCpuLaunchRanges(size_t unboundSizes, const CpuProgramAtExtents &programAt,
                      const CpuCandidate &oneTile, const TargetInfo &target,
                      const CpuTermScales &scales = {},
                      const CandidateFilter &allowed = {});

} // namespace nautilus::autosched

#endif
