//===- CpuUnboundSizes.cpp - CPU tiles for sizes unbound at compile time --===//
#include "autoscheduler/CpuUnboundSizes.h"

#include <algorithm>
#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

CpuSampledCandidate nautilus::autosched::sampledCandidate(
    const std::vector<CpuProgram> &samples, const std::vector<double> &best,
    const std::vector<int64_t> &tile, bool pack, const TargetInfo &target,
    const CpuTermScales &scales) {
  CpuSampledCandidate sampled;
  sampled.candidate.tile = tile;
  sampled.candidate.pack = pack;
  double logSum = 0;
  sampled.worstRegret = 0;
  for (size_t s = 0; s < samples.size(); ++s) {
    CpuCost cost = estimateCpu(samples[s], tile, target, pack, scales);
    double regret = best[s] > 0 ? cost.totalUs / best[s] : 1;
    logSum += std::log(regret);
    if (regret > sampled.worstRegret) {
      sampled.worstRegret = regret;
      sampled.worstSample = s;
    }
    sampled.candidate.cost = cost;
  }
  sampled.meanRegret =
      samples.empty() ? 1 : std::exp(logSum / double(samples.size()));
  return sampled;
}

bool nautilus::autosched::isPowerOfTwoTile(const std::vector<int64_t> &tile) {
  return std::all_of(tile.begin(), tile.end(),
                     [](int64_t t) { return t > 0 && (t & (t - 1)) == 0; });
}

void nautilus::autosched::addSampleCandidates(
    const std::vector<CpuCandidate> &ranked,
    std::vector<CpuCandidate> &candidates, const CandidateFilter &allowed) {
  for (const CpuCandidate &c : ranked)
    if (c.split == 1 && isPowerOfTwoTile(c.tile) && (!allowed || allowed(c)) &&
        std::none_of(candidates.begin(), candidates.end(),
                     [&](const CpuCandidate &seen) {
                       return seen.tile == c.tile && seen.pack == c.pack;
                     }))
      candidates.push_back(c);
}

size_t nautilus::autosched::sampleShapesOf(size_t sizes) {
  size_t shapes = 1;
  for (size_t i = 0; i < sizes; ++i)
    shapes *= kUnboundSizeSamples.size();
  return shapes;
}

int64_t nautilus::autosched::sampleExtentOf(size_t shape, size_t size,
                                            size_t sizes) {
  size_t digit = shape;
  for (size_t later = size + 1; later < sizes; ++later)
    digit /= kUnboundSizeSamples.size();
  return kUnboundSizeSamples[digit % kUnboundSizeSamples.size()];
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
    all.push_back(
        sampledCandidate(samples, best, c.tile, c.pack, target, scales));
  if (bestUs)
    *bestUs = best;
  std::stable_sort(
      all.begin(), all.end(),
      [](const CpuSampledCandidate &a, const CpuSampledCandidate &b) {
        if (a.meanRegret != b.meanRegret)
          return a.meanRegret < b.meanRegret;
        return a.worstRegret < b.worstRegret;
      });
  if (keep && all.size() > keep)
    all.resize(keep);
  return all;
}
