//===- LaunchRanges.cpp - Schedules chosen at launch by a size ------------===//
#include "autoscheduler/LaunchRanges.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

using Sample = LaunchRangeModel::Sample;

/// Sample shapes (extents of every unbound size) to what the model says
/// there, shared by the divisions of each size (most shapes recur).
using SampleCache =
    std::map<std::vector<int64_t>, std::optional<LaunchRangeModel::Sample>>;

/// The values each unbound size is sampled at, in order.
using SampleSpace = std::vector<std::vector<int64_t>>;

/// What a division asks of the model (the same for every division made).
struct DivisionContext {
  LaunchRangeModel &model;
  SampleCache cache;
};

/// Every shape of `space` (the last size varying fastest).
std::vector<std::vector<int64_t>> shapesOf(const SampleSpace &space) {
  std::vector<std::vector<int64_t>> shapes = {{}};
  for (const std::vector<int64_t> &values : space) {
    std::vector<std::vector<int64_t>> longer;
    for (const std::vector<int64_t> &shape : shapes)
      for (int64_t v : values) {
        longer.push_back(shape);
        longer.back().push_back(v);
      }
    shapes = std::move(longer);
  }
  return shapes;
}

/// The sample shapes of one divided size, and every candidate's log
/// regret at each.
struct DivisionGrid {
  size_t divided = 0;
  std::vector<int64_t> values; // the divided size's sample values
  std::vector<size_t> valueOf; // each shape's index in `values`
  std::vector<std::vector<int64_t>> shapes;
  std::vector<const Sample *> samples;
  std::vector<size_t> candidates;              // the model's, in order seen
  std::vector<std::vector<double>> logRegrets; // [candidate][shape]
  /// The best time at each shape: its sample's best, or a candidate's
  /// that the sample's own space does not offer (a tile larger than its
  /// extents) and that beats it, so that every regret is at least 1.
  std::vector<double> bestUs;
};

std::vector<double> logRegretsOf(size_t candidate, const DivisionGrid &grid,
                                 DivisionContext &context) {
  std::vector<double> out;
  for (size_t s = 0; s < grid.samples.size(); ++s) {
    double us =
        context.model.timeOf(candidate, grid.shapes[s]).value_or(INFINITY);
    double best = grid.bestUs[s];
    out.push_back(best > 0 ? std::log(us / best) : 0);
  }
  return out;
}

const Sample *sampleAt(const std::vector<int64_t> &extents,
                       DivisionContext &context) {
  auto found = context.cache.find(extents);
  if (found == context.cache.end())
    found =
        context.cache.emplace(extents, context.model.sampleAt(extents)).first;
  return found->second ? &*found->second : nullptr;
}

std::optional<DivisionGrid> gridOf(const SampleSpace &space, size_t divided,
                                   DivisionContext &context) {
  DivisionGrid grid;
  grid.divided = divided;
  grid.values = space[divided];
  for (const std::vector<int64_t> &extents : shapesOf(space)) {
    const Sample *sample = sampleAt(extents, context);
    if (!sample)
      return std::nullopt;
    grid.valueOf.push_back(llvm::find(grid.values, extents[divided]) -
                           grid.values.begin());
    grid.shapes.push_back(extents);
    grid.samples.push_back(sample);
    for (size_t c : sample->candidates)
      if (!llvm::is_contained(grid.candidates, c))
        grid.candidates.push_back(c);
  }
  for (size_t s = 0; s < grid.samples.size(); ++s) {
    grid.bestUs.push_back(grid.samples[s]->bestUs);
    if (grid.bestUs.back() > 0)
      for (size_t c : grid.candidates)
        grid.bestUs.back() = std::min(
            grid.bestUs.back(),
            context.model.timeOf(c, grid.shapes[s]).value_or(INFINITY));
  }
  for (size_t c : grid.candidates)
    grid.logRegrets.push_back(logRegretsOf(c, grid, context));
  return grid;
}

/// The candidate of least mean log regret over the shapes whose divided
/// value is among values[first..last] (ties: the least worst, then the
/// first).
struct RangeChoice {
  size_t candidate = 0;
  double logSum = 0, worst = 0;
  size_t shapes = 0;
};

RangeChoice bestOver(const DivisionGrid &grid, size_t first, size_t last) {
  RangeChoice best;
  for (size_t c = 0; c < grid.candidates.size(); ++c) {
    RangeChoice here{c, 0, -INFINITY, 0};
    for (size_t s = 0; s < grid.samples.size(); ++s)
      if (grid.valueOf[s] >= first && grid.valueOf[s] <= last) {
        here.logSum += grid.logRegrets[c][s];
        here.worst = std::max(here.worst, grid.logRegrets[c][s]);
        ++here.shapes;
      }
    if (c == 0 || here.logSum < best.logSum - 1e-12 ||
        (std::abs(here.logSum - best.logSum) <= 1e-12 &&
         here.worst < best.worst))
      best = here;
  }
  return best;
}

/// Where the range of `upper` begins above that of `lower`, whose last
/// sample value is values[value] of the divided size: the first power of
/// two up to the next value where `upper` is predicted no slower (the
/// geometric mean over the other sizes' samples in `space`).
int64_t boundaryOf(size_t lower, size_t upper, SampleSpace space,
                   size_t divided, size_t value, DivisionContext &context) {
  int64_t next = space[divided][value + 1];
  for (int64_t t = 2 * space[divided][value]; t < next; t *= 2) {
    space[divided] = {t};
    double logRatio = 0;
    for (const std::vector<int64_t> &extents : shapesOf(space)) {
      std::optional<double> lowerUs = context.model.timeOf(lower, extents);
      std::optional<double> upperUs = context.model.timeOf(upper, extents);
      if (!lowerUs || !upperUs)
        return next;
      logRatio += std::log(*lowerUs / *upperUs);
    }
    if (logRatio >= 0)
      return t;
  }
  return next;
}

/// A division of the grid's values into ranges: the last value index of
/// each range but the last.
using Cuts = std::vector<size_t>;

/// The last shape of range `r` of the division `cuts` (its largest).
size_t lastShapeOf(const DivisionGrid &grid, const Cuts &cuts, size_t r) {
  size_t lastValue = r < cuts.size() ? cuts[r] : grid.values.size() - 1;
  size_t last = 0;
  for (size_t s = 0; s < grid.samples.size(); ++s)
    if (grid.valueOf[s] <= lastValue)
      last = s;
  return last;
}

double scoreOf(const std::vector<RangeChoice> &ranges, size_t shapes) {
  double logSum = 0;
  for (const RangeChoice &r : ranges)
    logSum += r.logSum;
  return std::exp(logSum / double(shapes)) *
         std::pow(kLaunchRangeGain, double(ranges.size() - 1));
}

/// A division and where its ranges' sample values lie.
struct ScoredDivision {
  LaunchRanges division;
  double score = INFINITY;
  std::vector<std::pair<size_t, size_t>> valueSpans; // a range's first, last
};

/// The ranges of the division `cuts` of the grid, their candidates
/// `ranges`.
LaunchRanges rangesOf(const DivisionGrid &grid, const SampleSpace &space,
                      const Cuts &cuts, const std::vector<RangeChoice> &ranges,
                      DivisionContext &context) {
  LaunchRanges division;
  division.size = grid.divided;
  int64_t atLeast = 0;
  for (size_t r = 0; r < ranges.size(); ++r) {
    size_t candidate = grid.candidates[ranges[r].candidate];
    LaunchRange range;
    range.atLeast = atLeast;
    if (r < cuts.size())
      range.below =
          boundaryOf(candidate, grid.candidates[ranges[r + 1].candidate], space,
                     grid.divided, cuts[r], context);
    range.candidate = candidate;
    range.largestShape = grid.shapes[lastShapeOf(grid, cuts, r)];
    range.meanRegret = std::exp(ranges[r].logSum / double(ranges[r].shapes));
    range.worstRegret = std::exp(ranges[r].worst);
    division.ranges.push_back(range);
    atLeast = range.below.value_or(0);
  }
  return division;
}

/// The best division of size `divided`'s values in `space` that beats
/// `oneTile` over its shapes, as the file's comment says.
std::optional<ScoredDivision> divide(const SampleSpace &space, size_t divided,
                                     size_t oneTile, DivisionContext &context) {
  std::optional<DivisionGrid> grid = gridOf(space, divided, context);
  if (!grid || grid->candidates.empty())
    return std::nullopt;
  double oneTileLogSum = 0, oneTileWorst = 0;
  for (double r : logRegretsOf(oneTile, *grid, context)) {
    oneTileLogSum += r;
    oneTileWorst = std::max(oneTileWorst, r);
  }
  const size_t shapes = grid->samples.size(), values = grid->values.size();
  const double oneTileMean = std::exp(oneTileLogSum / double(shapes));
  std::optional<ScoredDivision> best;
  // Every division into two ranges or more (a bit a gap between values).
  for (unsigned mask = 1; mask < (1u << (values - 1)); ++mask) {
    Cuts cuts;
    for (size_t gap = 0; gap + 1 < values; ++gap)
      if (mask & (1u << gap))
        cuts.push_back(gap);
    if (cuts.size() + 1 > kMostLaunchRanges)
      continue;
    std::vector<RangeChoice> ranges;
    std::vector<std::pair<size_t, size_t>> spans;
    size_t first = 0;
    for (size_t r = 0; r <= cuts.size(); ++r) {
      size_t last = r < cuts.size() ? cuts[r] : values - 1;
      ranges.push_back(bestOver(*grid, first, last));
      spans.push_back({first, last});
      first = last + 1;
    }
    // (Neighbours with one tile: the division with fewer ranges says it.)
    bool repeats = false;
    for (size_t r = 1; r < ranges.size(); ++r)
      repeats |= ranges[r].candidate == ranges[r - 1].candidate;
    double score = scoreOf(ranges, shapes);
    // Earned by its mean (each range beyond the first kLaunchRangeGain),
    // or by the worst loss it removes (kLaunchRangeWorstGain).
    double logSum = 0, worst = 0;
    for (const RangeChoice &r : ranges) {
      logSum += r.logSum;
      worst = std::max(worst, r.worst);
    }
    bool byMean = score < oneTileMean;
    bool byWorst = oneTileWorst - worst >= std::log(kLaunchRangeWorstGain) &&
                   logSum <= oneTileLogSum;
    if (repeats || !(byMean || byWorst) || (best && score >= best->score))
      continue;
    best = ScoredDivision{rangesOf(*grid, space, cuts, ranges, context), score,
                          spans};
    best->division.sampleShapes = shapes;
    best->division.oneTileMeanRegret = oneTileMean;
    best->division.worstRegret = std::exp(worst);
    best->division.oneTileWorstRegret = std::exp(oneTileWorst);
    best->division.earnedByWorst = !byMean;
    best->division.meanRegret =
        score / std::pow(kLaunchRangeGain, double(ranges.size() - 1));
  }
  return best;
}

/// The best division over the sizes `sizes` may divide, the others at
/// `space`'s values; each divided size sampled at kLaunchRangeSamples.
std::optional<ScoredDivision> divideAnyOf(const SampleSpace &space,
                                          const std::vector<size_t> &sizes,
                                          size_t oneTile,
                                          DivisionContext &context) {
  std::optional<ScoredDivision> best;
  for (size_t divided : sizes) {
    SampleSpace sampled = space;
    sampled[divided].assign(kLaunchRangeSamples.begin(),
                            kLaunchRangeSamples.end());
    std::optional<ScoredDivision> here =
        divide(sampled, divided, oneTile, context);
    // (Each size's shapes differ, a 1 only in that size: a division is
    // judged by its gain over the one tile on its own shapes.)
    auto gain = [](const ScoredDivision &d) {
      return d.score / d.division.oneTileMeanRegret;
    };
    if (here && (!best || gain(*here) < gain(*best)))
      best = std::move(here);
  }
  return best;
}

} // namespace

LaunchRangeModel::~LaunchRangeModel() = default;

size_t LaunchRanges::copies() const {
  size_t n = 0;
  for (const LaunchRange &r : ranges)
    n += r.inner ? r.inner->copies() : 1;
  return n;
}

std::optional<LaunchRanges> nautilus::autosched::chooseLaunchRanges(
    size_t unboundSizes, LaunchRangeModel &model, size_t oneTile) {
  if (unboundSizes == 0 || unboundSizes > kMostUnboundSizesSampled)
    return std::nullopt;
  DivisionContext context{model, {}};
  SampleSpace space(unboundSizes,
                    std::vector<int64_t>(kUnboundSizeSamples.begin(),
                                         kUnboundSizeSamples.end()));
  std::vector<size_t> every;
  for (size_t s = 0; s < unboundSizes; ++s)
    every.push_back(s);
  std::optional<ScoredDivision> outer =
      divideAnyOf(space, every, oneTile, context);
  if (!outer)
    return std::nullopt;
  // Each range divided again by another size, over the range's samples.
  LaunchRanges division = outer->division;
  std::vector<size_t> others;
  for (size_t s : every)
    if (s != division.size)
      others.push_back(s);
  for (size_t r = 0; r < division.ranges.size(); ++r) {
    SampleSpace within = space;
    auto [first, last] = outer->valueSpans[r];
    within[division.size].assign(kLaunchRangeSamples.begin() + first,
                                 kLaunchRangeSamples.begin() + last + 1);
    std::optional<ScoredDivision> inner =
        divideAnyOf(within, others, division.ranges[r].candidate, context);
    if (inner)
      division.ranges[r].inner =
          std::make_shared<const LaunchRanges>(inner->division);
  }
  return division;
}
