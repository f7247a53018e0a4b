//===- CpuLaunchRanges.h - CPU tiles chosen at launch by a size -*- C++ -*-===//
//
// A kernel compiled without its sizes gets one tile for every shape
// (CpuUnboundSizes.h), and no tile is best at every shape: a GEMM's
// best block for one row (a decoding step) wastes most of its work at
// thousands of rows, and the reverse. Here the model may instead divide
// the values of one unbound size into up to three ranges, each with its
// own tile: the program is compiled once a range, and the runtime
// launches the copy whose range holds the size (tile.program's
// launch_ranges, LaunchPlan.h's launchWhen).
//
// The divided size is sampled at kLaunchRangeSamples (the unbound sizes'
// samples with a single row before them), the other unbound sizes at
// kUnboundSizeSamples, every combination. A division's quality is the
// geometric mean over those sample shapes of each shape's regret (its
// range's tile's predicted time over the best tile's there); a range's
// tile is the one of least geometric-mean regret over its own samples.
// Each range beyond the first must earn kLaunchRangeGain (the copies cost
// compile time and code), and the best division must beat the one tile
// the kernel has otherwise over the same shapes. Between two ranges the
// boundary is the first power of two, above the lower range's last
// sample and up to the next range's first, where the upper range's tile
// is predicted no slower than the lower's (geometric mean over the other
// sizes' samples). Of the sizes, the division of the least score over the
// one tile's (each size's shapes are its own) is taken.
//
// Then each range may be divided again by another size, the same way over
// the range's own sample shapes (the first size at the range's sample
// values, the second at kLaunchRangeSamples) against the range's tile: a
// GEMM's single column and a decoding step's single row both get their
// tile. The copies are the leaves, each launched where its ranges (one or
// two sizes) all hold. The first size's boundaries are searched between
// its ranges' own tiles, before (and whatever) the second division.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CPULAUNCHRANGES_H
#define NAUTILUS_AUTOSCHEDULER_CPULAUNCHRANGES_H

#include "autoscheduler/CpuUnboundSizes.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>

namespace nautilus::autosched {

/// The extents a divided size is sampled at: one row, then the unbound
/// sizes' samples.
constexpr std::array<int64_t, 4> kLaunchRangeSamples = {1, 32, 512, 4096};

/// What each range beyond the first must gain: the division's geometric
/// mean regret, times this for each extra range, must stay below the one
/// tile's.
constexpr double kLaunchRangeGain = 1.10;

/// At most this many ranges (copies of a program).
constexpr size_t kMostLaunchRanges = 3;

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
