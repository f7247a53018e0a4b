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
      if (c.split != 1 || !isPowerOfTwoTile(c.tile))
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
