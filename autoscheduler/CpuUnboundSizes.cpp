//===- CpuUnboundSizes.cpp - CPU tiles for sizes unbound at compile time --===//
#include "autoscheduler/CpuUnboundSizes.h"

#include <algorithm>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

CpuSampledCandidate nautilus::autosched::sampledCandidate(
    const std::vector<CpuProgram> &samples, const std::vector<double> &best,
    const CpuCandidate &schedule, const TargetInfo &target,
    const CpuTermScales &scales) {
  CpuSampledCandidate sampled;
  sampled.candidate = schedule;
  SampleRegrets regrets;
  std::tie(sampled.candidate.cost, regrets) =
      costOverSamples(samples, best, [&](const CpuProgram &sample) {
        return estimateCpu(sample, schedule.tile, target, schedule.pack,
                           scales, schedule.split, schedule.reduceBlock);
      });
  sampled.meanRegret = regrets.mean;
  sampled.worstRegret = regrets.worst;
  sampled.worstSample = regrets.worstSample;
  return sampled;
}

void nautilus::autosched::addSampleCandidates(
    const std::vector<CpuCandidate> &ranked,
    std::vector<CpuCandidate> &candidates, const CandidateFilter &allowed) {
  for (const CpuCandidate &c : ranked)
    if (c.split == 1 && isPowerOfTwoTile(c.tile) && (!allowed || allowed(c)) &&
        std::none_of(
            candidates.begin(), candidates.end(),
            [&](const CpuCandidate &seen) { return seen.sameSchedule(c); }))
      candidates.push_back(c);
}

std::vector<CpuSampledCandidate> nautilus::autosched::rankCpuTilesOverSamples(
    const std::vector<CpuProgram> &samples, const TargetInfo &target,
    size_t keep, const CpuTermScales &scales, std::vector<double> *bestUs) {
  // Each sample's ranking gives its best time (of any tile) and the
  // candidates; then each candidate is costed at every sample.
  std::vector<double> best;
  std::vector<CpuCandidate> candidates;
  for (const CpuProgram &sample : samples) {
    std::vector<CpuCandidate> ranked = rankCpuTiles(sample, target, 0, scales);
    best.push_back(ranked.empty() ? 0 : ranked.front().cost.totalUs);
    addSampleCandidates(ranked, candidates);
  }
  std::vector<CpuSampledCandidate> all;
  for (const CpuCandidate &c : candidates)
    all.push_back(sampledCandidate(samples, best, c, target, scales));
  if (bestUs)
    *bestUs = best;
  std::stable_sort(
      all.begin(), all.end(),
      [](const CpuSampledCandidate &a, const CpuSampledCandidate &b) {
        return ranksBefore({a.meanRegret, a.worstRegret},
                           {b.meanRegret, b.worstRegret});
      });
  if (keep && all.size() > keep)
    all.resize(keep);
  return all;
}
