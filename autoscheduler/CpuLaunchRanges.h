//===- CpuLaunchRanges.h - CPU tiles chosen at launch by a size -*- C++ -*-===//
//
// A kernel compiled without its sizes gets one tile for every shape
// (CpuUnboundSizes.h), and no tile is best at every shape. The CPU model
// may divide the values of an unbound size into ranges, each with its own
// tile, as LaunchRanges.h divides them for any model: here the model is
// the CPU's (its candidates the power-of-two, unsplit tiles rankCpuTiles
// gives at any sample shape, and those `allowed`), and the division comes
// back with each range's tile costed at its largest sample shape.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CPULAUNCHRANGES_H
#define NAUTILUS_AUTOSCHEDULER_CPULAUNCHRANGES_H

#include "autoscheduler/CpuUnboundSizes.h"
#include "autoscheduler/LaunchRanges.h"

#include <functional>
#include <memory>
#include <optional>

namespace nautilus::autosched {

struct CpuLaunchRanges;

/// One range of the divided size's values and its tile.
struct CpuLaunchRange {
  int64_t atLeast = 0;
  std::optional<int64_t> below; // none: no upper bound
  /// The tile, its regrets over the range's sample shapes (against the
  /// best tile at each).
  CpuSampledCandidate chosen;
  /// Within the range, a division of another size whose ranges each have
  /// their own tile (and no further division); null: `chosen` serves the
  /// whole range.
  std::shared_ptr<const CpuLaunchRanges> inner;
};

/// A division of one unbound size's values.
struct CpuLaunchRanges {
  size_t size = 0; // the divided size, an index of the unbound sizes
  std::vector<CpuLaunchRange> ranges;
  size_t sampleShapes = 0;      // the shapes both means are over
  double meanRegret = 1;        // the division's geometric mean regret
  double oneTileMeanRegret = 1; // the one tile's, over the same shapes
  /// The copies the division makes (a range divided again counts its
  /// inner ranges).
  size_t copies() const;
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
