//===- CpuLaunchRanges.cpp - CPU tiles chosen at launch by a size ---------===//
#include "autoscheduler/CpuLaunchRanges.h"

#include <cmath>
#include <map>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// What the model predicts at one sample shape: the best time of any tile
/// there, and the ranked candidates.
struct SampleRanking {
  CpuProgram program;
  double bestUs = 0;
  std::vector<CpuCandidate> ranked;
};

/// Sample shapes (extents of every unbound size) to their rankings,
/// shared by the divisions of each size (most shapes recur).
using RankingCache = std::map<std::vector<int64_t>, SampleRanking>;

/// The sample shapes of one divided size, and every candidate's log
/// regret at each.
struct DivisionGrid {
  size_t divided = 0;
  std::vector<size_t> valueOf; // each shape's index in kLaunchRangeSamples
  std::vector<const SampleRanking *> samples;
  std::vector<CpuCandidate> candidates;        // power-of-two tiles, unsplit
  std::vector<std::vector<double>> logRegrets; // [candidate][shape]
};

/// The extents of every unbound size (of `sizes`) with size `divided` at
/// `extent` and the others at their sample combination `otherShape`.
std::vector<int64_t> extentsAt(size_t sizes, size_t divided, int64_t extent,
                               size_t otherShape) {
  std::vector<int64_t> extents;
  for (size_t s = 0, other = 0; s < sizes; ++s)
    extents.push_back(
        s == divided ? extent : sampleExtentOf(otherShape, other++, sizes - 1));
  return extents;
}

std::vector<double> logRegretsOf(const CpuCandidate &c,
                                 const DivisionGrid &grid,
                                 const TargetInfo &target,
                                 const CpuTermScales &scales) {
  std::vector<double> out;
  for (const SampleRanking *s : grid.samples) {
    double us = estimateCpu(s->program, c.tile, target, c.pack, scales).totalUs;
    out.push_back(s->bestUs > 0 ? std::log(us / s->bestUs) : 0);
  }
  return out;
}

std::optional<DivisionGrid>
gridOf(size_t sizes, size_t divided, const CpuProgramAtExtents &programAt,
       RankingCache &cache, const TargetInfo &target,
       const CpuTermScales &scales, const CandidateFilter &allowed) {
  DivisionGrid grid;
  grid.divided = divided;
  for (size_t v = 0; v < kLaunchRangeSamples.size(); ++v)
    for (size_t other = 0; other < sampleShapesOf(sizes - 1); ++other) {
      std::vector<int64_t> extents =
          extentsAt(sizes, divided, kLaunchRangeSamples[v], other);
      auto found = cache.find(extents);
      if (found == cache.end()) {
        std::optional<CpuProgram> program = programAt(extents);
        if (!program)
          return std::nullopt;
        SampleRanking ranking;
        ranking.program = std::move(*program);
        ranking.ranked = rankCpuTiles(ranking.program, target, 0, scales);
        ranking.bestUs =
            ranking.ranked.empty() ? 0 : ranking.ranked.front().cost.totalUs;
        found = cache.emplace(extents, std::move(ranking)).first;
      }
      grid.valueOf.push_back(v);
      grid.samples.push_back(&found->second);
      for (const CpuCandidate &c : found->second.ranked)
        if (c.split == 1 && isPowerOfTwoTile(c.tile) &&
            (!allowed || allowed(c)) &&
            std::none_of(grid.candidates.begin(), grid.candidates.end(),
                         [&](const CpuCandidate &seen) {
                           return seen.tile == c.tile && seen.pack == c.pack;
                         }))
          grid.candidates.push_back(c);
    }
  for (const CpuCandidate &c : grid.candidates)
    grid.logRegrets.push_back(logRegretsOf(c, grid, target, scales));
  return grid;
}

/// The candidate of least mean log regret over the shapes whose divided
/// extent is among kLaunchRangeSamples[first..last] (ties: the least
/// worst, then the first).
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
/// sample is kLaunchRangeSamples[value]: the first power of two up to the
/// next sample where `upper` is predicted no slower.
int64_t boundaryOf(const CpuCandidate &lower, const CpuCandidate &upper,
                   size_t value, size_t sizes, size_t divided,
                   const CpuProgramAtExtents &programAt,
                   const TargetInfo &target, const CpuTermScales &scales) {
  int64_t next = kLaunchRangeSamples[value + 1];
  for (int64_t t = 2 * kLaunchRangeSamples[value]; t < next; t *= 2) {
    double logRatio = 0;
    for (size_t other = 0; other < sampleShapesOf(sizes - 1); ++other) {
      std::optional<CpuProgram> p =
          programAt(extentsAt(sizes, divided, t, other));
      if (!p)
        return next;
      logRatio += std::log(
          estimateCpu(*p, lower.tile, target, lower.pack, scales).totalUs /
          estimateCpu(*p, upper.tile, target, upper.pack, scales).totalUs);
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
  size_t lastValue = r < cuts.size() ? cuts[r] : kLaunchRangeSamples.size() - 1;
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

} // namespace

std::optional<CpuLaunchRanges> nautilus::autosched::chooseCpuLaunchRanges(
    size_t unboundSizes, const CpuProgramAtExtents &programAt,
    const CpuCandidate &oneTile, const TargetInfo &target,
    const CpuTermScales &scales, const CandidateFilter &allowed) {
  if (unboundSizes == 0 || unboundSizes > kMostUnboundSizesSampled)
    return std::nullopt;
  RankingCache cache;
  std::optional<CpuLaunchRanges> best;
  double bestScore = INFINITY;
  const size_t values = kLaunchRangeSamples.size();
  for (size_t divided = 0; divided < unboundSizes; ++divided) {
    std::optional<DivisionGrid> grid = gridOf(unboundSizes, divided, programAt,
                                              cache, target, scales, allowed);
    if (!grid || grid->candidates.empty())
      continue; // (a size the model cannot view so: the others may divide)
    std::vector<double> oneTileRegrets =
        logRegretsOf(oneTile, *grid, target, scales);
    double oneTileLogSum = 0;
    for (double r : oneTileRegrets)
      oneTileLogSum += r;
    const size_t shapes = grid->samples.size();
    // Every division into two ranges or more (a bit a gap between values).
    for (unsigned mask = 1; mask < (1u << (values - 1)); ++mask) {
      Cuts cuts;
      for (size_t gap = 0; gap + 1 < values; ++gap)
        if (mask & (1u << gap))
          cuts.push_back(gap);
      if (cuts.size() + 1 > kMostLaunchRanges)
        continue;
      std::vector<RangeChoice> ranges;
      size_t first = 0;
      for (size_t cut : cuts) {
        ranges.push_back(bestOver(*grid, first, cut));
        first = cut + 1;
      }
      ranges.push_back(bestOver(*grid, first, values - 1));
      // (Neighbours with one tile: the division with fewer ranges says it.)
      bool repeats = false;
      for (size_t r = 1; r < ranges.size(); ++r)
        repeats |= ranges[r].candidate == ranges[r - 1].candidate;
      double score = scoreOf(ranges, shapes);
      if (repeats || score >= bestScore ||
          score >= std::exp(oneTileLogSum / double(shapes)))
        continue;
      bestScore = score;
      CpuLaunchRanges division;
      division.size = divided;
      division.sampleShapes = shapes;
      division.meanRegret =
          score / std::pow(kLaunchRangeGain, double(ranges.size() - 1));
      division.oneTileMeanRegret = std::exp(oneTileLogSum / double(shapes));
      int64_t atLeast = 0;
      for (size_t r = 0; r < ranges.size(); ++r) {
        const CpuCandidate &tile = grid->candidates[ranges[r].candidate];
        CpuLaunchRange range;
        range.atLeast = atLeast;
        if (r < cuts.size())
          range.below = boundaryOf(
              tile, grid->candidates[ranges[r + 1].candidate], cuts[r],
              unboundSizes, divided, programAt, target, scales);
        range.chosen.candidate = tile;
        range.chosen.candidate.cost =
            estimateCpu(grid->samples[lastShapeOf(*grid, cuts, r)]->program,
                        tile.tile, target, tile.pack, scales);
        range.chosen.meanRegret =
            std::exp(ranges[r].logSum / double(ranges[r].shapes));
        range.chosen.worstRegret = std::exp(ranges[r].worst);
        division.ranges.push_back(range);
        atLeast = range.below.value_or(0);
      }
      best = division;
    }
  }
  return best;
}
