//===- SampleShapes.h - Programs of unbound sizes ---------*- C++ -*-===//
//
// A kernel compiled without its sizes (a bundle an application launches
// at many shapes) gets one schedule for every shape, and the models rank
// schedules at bound extents. So such a program is viewed at sample
// shapes instead: each unbound size at each of kUnboundSizeSamples, in
// every combination. A candidate's regret at a sample is its predicted
// time over the best candidate's there (1: the best); candidates are
// ranked by the geometric mean of their regrets (each sample shape counts
// alike, whatever its time), then by the worst. The CPU's tiles
// (CpuUnboundSizes.h), a GPU's tensor-core contractions
// (ContractionSamples.h) and its other programs (GpuUnboundSizes.h) are
// ranked so.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_SAMPLESHAPES_H
#define NAUTILUS_AUTOSCHEDULER_SAMPLESHAPES_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nautilus::autosched {

/// The extents an unbound size is sampled at: a few rows (a decoding
/// step's tokens), a tile-sized matrix, a large one.
constexpr std::array<int64_t, 3> kUnboundSizeSamples = {32, 512, 4096};

/// The unbound sizes whose samples a program is ranked over at most (3^4
/// = 81 sample shapes); a program with more keeps its own schedule.
constexpr size_t kMostUnboundSizesSampled = 4;

/// The sample shapes of `sizes` unbound sizes: every combination of
/// kUnboundSizeSamples, the last size varying fastest (the last shape the
/// largest).
size_t sampleShapesOf(size_t sizes);

/// The extent of unbound size `size` (of `sizes`) at sample shape `shape`.
int64_t sampleExtentOf(size_t shape, size_t size, size_t sizes);

/// The sample extents as `--explain` lists them: "32, 512 and 4096".
std::string sampleExtentsText();

/// Sample shape `shape` of the unbound sizes `unbound` (by name, in
/// order): "M=32, N=4096".
std::string sampleShapeText(const std::vector<std::string> &unbound,
                            size_t shape);

/// Whether every extent of `tile` is a power of two: what the checker
/// (docs/verification.md) proves covers an unbound extent at once, where
/// it gave up on rows of 6 after its 10 s timeout. A candidate for sizes
/// unbound takes such a tile.
bool isPowerOfTwoTile(const std::vector<int64_t> &tile);

/// A candidate's regrets over sample shapes.
struct SampleRegrets {
  double mean = 1;        // the geometric mean
  double worst = 1;       // the largest
  size_t worstSample = 0; // where it is the largest (the first such)
};

/// The regrets of a candidate whose predicted time at sample s is
/// `times[s]`, where the best candidate's is `bestUs[s]` (a sample whose
/// best is not positive counts a regret of 1).
SampleRegrets regretsOver(const std::vector<double> &times,
                          const std::vector<double> &bestUs);

/// Whether regrets `a` rank before `b`: the lesser mean, then the lesser
/// worst (equal: neither).
bool ranksBefore(const SampleRegrets &a, const SampleRegrets &b);

/// One candidate over `samples`: `estimate` gives its cost at a sample (a
/// model's cost, with its `totalUs`); returns its cost at the last (the
/// largest) sample and its regrets against `bestUs`, the best time at
/// each.
template <typename Sample, typename Estimate>
auto costOverSamples(const std::vector<Sample> &samples,
                     const std::vector<double> &bestUs, Estimate estimate) {
  decltype(estimate(samples.front())) atLargest{};
  std::vector<double> times;
  for (const Sample &sample : samples) {
    atLargest = estimate(sample);
    times.push_back(atLargest.totalUs);
  }
  return std::make_pair(atLargest, regretsOver(times, bestUs));
}

} // namespace nautilus::autosched

#endif
