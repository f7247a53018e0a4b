//===- GpuUnboundSizes.cpp - GPU schedules for unbound sizes --------------===//
#include "autoscheduler/GpuUnboundSizes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

GpuSampledCandidate nautilus::autosched::sampledGpuCandidate(
    const std::vector<GpuProgram> &samples, const std::vector<double> &bestUs,
    const GpuCandidate &candidate, const TargetInfo &target) {
  auto [atLargest, regrets] =
      costOverSamples(samples, bestUs, [&](const GpuProgram &sample) {
        return estimateGpu(sample, candidate, target);
      });
  return {candidate, atLargest, regrets};
}

namespace {

/// Whether a program over unbound sizes may take `c`: unsplit, of a
/// power-of-two tile.
bool takesUnbound(const GpuCandidate &c) {
  return c.split == 1 && isPowerOfTwoTile(c.tile);
}

/// A candidate's parameters, as a key.
std::vector<int64_t> keyOf(const GpuCandidate &c) {
  std::vector<int64_t> key = c.tile;
  key.insert(key.end(), {c.threads, c.reduceThreads, c.vector, c.split,
                         int64_t(c.interleaved)});
  return key;
}

} // namespace

std::vector<GpuSampledCandidate>
nautilus::autosched::rankGpuOverSamples(const std::vector<GpuProgram> &samples,
                                        const TargetInfo &target, size_t keep,
                                        std::vector<double> *bestUs) {
  // Each sample's space, every candidate predicted there: the best time at
  // each sample, and the candidates a program of unbound sizes may take,
  // in the order they first appear, with their times where predicted.
  const size_t shapes = samples.size();
  std::vector<double> best(shapes, 0);
  std::vector<GpuCandidate> candidates;
  std::vector<std::vector<double>> times; // a candidate's, a sample's
  std::map<std::vector<int64_t>, size_t> indexOf;
  for (size_t s = 0; s < shapes; ++s) {
    for (const GpuCandidate &c : gpuSpace(samples[s], target)) {
      double us = estimateGpu(samples[s], c, target).totalUs;
      best[s] = best[s] > 0 ? std::min(best[s], us) : us;
      if (!takesUnbound(c))
        continue;
      auto [at, added] = indexOf.try_emplace(keyOf(c), candidates.size());
      if (added) {
        candidates.push_back(c);
        times.emplace_back(shapes, NAN);
      }
      times[at->second][s] = us;
    }
  }
  // Each candidate must fit the target at every sample; where a sample's
  // space does not offer it (a tile larger than its extent, which runs
  // masked there) it is predicted there too, and may beat that space's
  // best: the best at a sample is the best of either, so that every regret
  // is at least 1.
  std::vector<size_t> fitting;
  for (size_t i = 0; i < candidates.size(); ++i) {
    bool fits = true;
    for (size_t s = 0; s < shapes && fits; ++s) {
      if (!std::isnan(times[i][s]))
        continue;
      fits = fitsGpuTarget(samples[s], candidates[i], target);
      if (fits) {
        times[i][s] = estimateGpu(samples[s], candidates[i], target).totalUs;
        best[s] = std::min(best[s], times[i][s]);
      }
    }
    if (fits)
      fitting.push_back(i);
  }
  std::vector<GpuSampledCandidate> all;
  for (size_t i : fitting) {
    GpuSampledCandidate sampled{candidates[i], {}, {}};
    sampled.atLargest = estimateGpu(samples.back(), candidates[i], target);
    sampled.regrets = regretsOver(times[i], best);
    all.push_back(std::move(sampled));
  }
  if (bestUs)
    *bestUs = best;
  // Regrets equal to a ten-thousandth are ties, which go as the bound
  // ranking's (rankGpuSchedules): to the larger tile, then more threads,
  // then longer runs, then the candidate first enumerated.
  auto key = [](const GpuSampledCandidate &c) {
    int64_t elements = 1;
    for (int64_t t : c.candidate.tile)
      elements *= t;
    return std::make_tuple(std::llround(c.regrets.mean * 1e4),
                           std::llround(c.regrets.worst * 1e4), -elements,
                           -c.candidate.threads, -c.candidate.vector);
  };
  std::stable_sort(
      all.begin(), all.end(),
      [&](const GpuSampledCandidate &a, const GpuSampledCandidate &b) {
        return key(a) < key(b);
      });
  if (keep && all.size() > keep)
    all.resize(keep);
  return all;
}

namespace {

/// The GPU model as a division asks it: the program at each shape, its
/// ranking there, and each candidate's time (none where it does not fit
/// the target there).
class GpuRangeModel final : public LaunchRangeModel {
public:
  GpuRangeModel(const GpuProgramAtExtents &programAt, const TargetInfo &target,
                const GpuCandidateFilter &allowed)
      : programAt(programAt), target(target), allowed(allowed) {}

  std::optional<Sample> sampleAt(const std::vector<int64_t> &extents) override {
    const GpuProgram *program = programOf(extents);
    if (!program)
      return std::nullopt;
    std::vector<RankedGpuCandidate> ranked = rankGpuSchedules(*program, target);
    Sample sample;
    sample.bestUs = ranked.empty() ? 0 : ranked.front().cost.totalUs;
    for (const RankedGpuCandidate &r : ranked)
      if (takesUnbound(r.candidate) && (!allowed || allowed(r.candidate)))
        sample.candidates.push_back(idOf(r.candidate));
    return sample;
  }

  std::optional<double> timeOf(size_t candidate,
                               const std::vector<int64_t> &extents) override {
    auto [at, added] = times.try_emplace({candidate, extents});
    if (!added)
      return at->second;
    const GpuProgram *program = programOf(extents);
    if (program && fitsGpuTarget(*program, candidates[candidate], target))
      at->second = estimateGpu(*program, candidates[candidate], target).totalUs;
    return at->second;
  }

  /// The candidate's number (numbered as first seen).
  size_t idOf(const GpuCandidate &c) {
    auto [at, added] = ids.try_emplace(keyOf(c), candidates.size());
    if (added)
      candidates.push_back(c);
    return at->second;
  }

  /// The schedules, numbered as first seen.
  std::vector<GpuCandidate> candidates;

private:
  const GpuProgram *programOf(const std::vector<int64_t> &extents) {
    auto found = programs.find(extents);
    if (found == programs.end())
      found = programs.emplace(extents, programAt(extents)).first;
    return found->second ? &*found->second : nullptr;
  }

  const GpuProgramAtExtents &programAt;
  const TargetInfo &target;
  const GpuCandidateFilter &allowed;
  std::map<std::vector<int64_t>, size_t> ids;
  std::map<std::vector<int64_t>, std::optional<GpuProgram>> programs;
  /// Each candidate's time at each shape asked (a division asks again).
  std::map<std::pair<size_t, std::vector<int64_t>>, std::optional<double>>
      times;
};

} // namespace

std::optional<GpuLaunchRanges> nautilus::autosched::chooseGpuLaunchRanges(
    size_t unboundSizes, const GpuProgramAtExtents &programAt,
    const GpuCandidate &oneSchedule, const TargetInfo &target,
    const GpuCandidateFilter &allowed) {
  if (unboundSizes > kMostGpuLaunchRangeSizes)
    return std::nullopt;
  GpuRangeModel model(programAt, target, allowed);
  size_t oneId = model.idOf(oneSchedule);
  std::optional<LaunchRanges> division =
      chooseLaunchRanges(unboundSizes, model, oneId);
  if (!division)
    return std::nullopt;
  return GpuLaunchRanges{std::move(*division), std::move(model.candidates)};
}
