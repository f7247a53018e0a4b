//===- LaunchRanges.h - Schedules chosen at launch by a size ---*- C++ -*-===//
//
// A kernel compiled without its sizes gets one schedule for every shape
// (SampleShapes.h), and no schedule is best at every shape: a GEMM's best
// block for one row (a decoding step) wastes most of its work at
// thousands of rows, and the reverse. Here a model may instead divide the
// values of one unbound size into up to three ranges, each with its own
// schedule: the program is compiled once a range, and the runtime
// launches the copy whose range holds the size (tile.program's
// launch_ranges, LaunchPlan.h's launchWhen). The division is the same for
// every model: the CPU's tiles (CpuLaunchRanges.h), a GPU's tensor-core
// contractions (ContractionSamples.h) and its other programs
// (GpuUnboundSizes.h) each answer LaunchRangeModel's two questions.
//
// The divided size is sampled at kLaunchRangeSamples (the unbound sizes'
// samples with a single row before them), the other unbound sizes at
// kUnboundSizeSamples, every combination. A division's quality is the
// geometric mean over those sample shapes of each shape's regret (its
// range's schedule's predicted time over the best schedule's there: the
// best of the sample's own ranking, or of any candidate's there, so that
// no regret is below 1); a
// range's schedule is the one of least geometric-mean regret over its own
// samples. Each range beyond the first must earn kLaunchRangeGain (the
// copies cost compile time and code), and the best division must beat
// the one schedule the kernel has otherwise over the same shapes; or,
// its mean no worse than the one schedule's, cut the one schedule's
// worst regret over them by kLaunchRangeWorstGain (a large loss at a few
// shapes, which the mean over the grid dilutes: a decoding step of one
// sequence whose few heads leave most multiprocessors idle unsplit). Between
// two ranges the boundary is the first power of two, above the lower
// range's last sample and up to the next range's first, where the upper
// range's schedule is predicted no slower than the lower's (geometric
// mean over the other sizes' samples). Of the sizes, the division of the
// least score over the one schedule's (each size's shapes are its own) is
// taken.
//
// Then each range may be divided again by another size, the same way over
// the range's own sample shapes (the first size at the range's sample
// values, the second at kLaunchRangeSamples) against the range's
// schedule: a GEMM's single column and a decoding step's single row both
// get theirs. The copies are the leaves, each launched where its ranges
// (one or two sizes) all hold. The first size's boundaries are searched
// between its ranges' own schedules, before (and whatever) the second
// division.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_LAUNCHRANGES_H
#define NAUTILUS_AUTOSCHEDULER_LAUNCHRANGES_H

#include "autoscheduler/SampleShapes.h"

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace nautilus::autosched {

/// The extents a divided size is sampled at: one row, then the unbound
/// sizes' samples.
constexpr std::array<int64_t, 4> kLaunchRangeSamples = {1, 32, 512, 4096};

/// What each range beyond the first must gain: the division's geometric
/// mean regret, times this for each extra range, must stay below the one
/// schedule's.
constexpr double kLaunchRangeGain = 1.10;

/// A division also earns its copies where the one schedule is at least
/// this many times the best at some sample shape and the division's worst
/// is this many times better, its geometric mean no worse: a large loss at
/// a few shapes (a decoding step of one sequence, its few heads on an
/// unsplit kernel) that the mean over the whole grid dilutes.
constexpr double kLaunchRangeWorstGain = 1.5;

/// At most this many ranges (copies of a program).
constexpr size_t kMostLaunchRanges = 3;

/// What a division asks of a model. Candidates are the model's own,
/// numbered in the order it first gives them.
class LaunchRangeModel {
public:
  virtual ~LaunchRangeModel();
  /// At `extents` (one for each unbound size, in order): the best
  /// candidate's predicted time, and the candidates a range may take
  /// there, best first; std::nullopt where the model cannot view the shape.
  struct Sample {
    double bestUs = 0;
    std::vector<size_t> candidates;
  };
  virtual std::optional<Sample>
  sampleAt(const std::vector<int64_t> &extents) = 0;
  /// Candidate `candidate`'s predicted time at `extents`.
  virtual std::optional<double> timeOf(size_t candidate,
                                       const std::vector<int64_t> &extents) = 0;
};

struct LaunchRanges;

/// One range of the divided size's values and its candidate.
struct LaunchRange {
  int64_t atLeast = 0;
  std::optional<int64_t> below; // none: no upper bound
  size_t candidate = 0;
  /// Its regrets over the range's sample shapes (against the best
  /// candidate at each), and the largest of those shapes.
  double meanRegret = 1, worstRegret = 1;
  std::vector<int64_t> largestShape;
  /// Within the range, a division of another size whose ranges each have
  /// their own candidate (and no further division); null: `candidate`
  /// serves the whole range.
  std::shared_ptr<const LaunchRanges> inner;
};

/// A division of one unbound size's values.
struct LaunchRanges {
  size_t size = 0; // the divided size, an index of the unbound sizes
  std::vector<LaunchRange> ranges;
  size_t sampleShapes = 0;      // the shapes both means are over
  double meanRegret = 1;        // the division's geometric mean regret
  double oneTileMeanRegret = 1; // the one candidate's, over the same shapes
  /// The worst regrets over the same shapes, the division's and the one
  /// candidate's; and whether the division earned its copies by the worst
  /// loss it removes alone (kLaunchRangeWorstGain), not by its mean.
  double worstRegret = 1, oneTileWorstRegret = 1;
  bool earnedByWorst = false;
  /// The copies the division makes (a range divided again counts its
  /// inner ranges).
  size_t copies() const;
};

/// The best division of one of `unboundSizes` sizes (at most
/// kMostUnboundSizesSampled) against `oneTile` (the model's candidate
/// ranked best over the unbound sizes' samples), as above; std::nullopt
/// where none earns its copies or the model cannot view a sample.
std::optional<LaunchRanges> chooseLaunchRanges(size_t unboundSizes,
                                               LaunchRangeModel &model,
                                               size_t oneTile);

} // namespace nautilus::autosched

#endif
