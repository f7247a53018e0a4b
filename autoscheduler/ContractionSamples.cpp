//===- ContractionSamples.cpp - Tensor-core contractions of unbound sizes -===//
#include "autoscheduler/ContractionSamples.h"
#include "autoscheduler/Search.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace nautilus;
using namespace nautilus::autosched;

std::vector<ContractionProblem>
autosched::contractionSamples(ContractionProblem problem, bool mUnbound,
                              bool nUnbound) {
  size_t sizes = size_t(mUnbound) + size_t(nUnbound);
  std::vector<ContractionProblem> samples;
  for (size_t shape = 0; shape < sampleShapesOf(sizes); ++shape) {
    size_t size = 0;
    if (mUnbound)
      problem.m = sampleExtentOf(shape, size++, sizes);
    if (nUnbound)
      problem.n = sampleExtentOf(shape, size++, sizes);
    samples.push_back(problem);
  }
  return samples;
}

SampledContraction
autosched::sampledContraction(const std::vector<ContractionProblem> &samples,
                              const std::vector<double> &bestUs,
                              const ContractionCandidate &candidate,
                              const TargetInfo &target) {
  SampledContraction sampled{candidate, {}, {}};
  std::vector<double> times;
  for (const ContractionProblem &sample : samples) {
    sampled.atLargest = estimate(sample, candidate, target);
    times.push_back(sampled.atLargest.totalUs);
  }
  sampled.regrets = regretsOver(times, bestUs);
  return sampled;
}

std::vector<SampledContraction> autosched::rankContractionOverSamples(
    const std::vector<ContractionProblem> &samples, const TargetInfo &target,
    size_t keep, std::vector<double> *bestUs) {
  // The union of the samples' spaces, in the order first enumerated.
  std::vector<ContractionCandidate> candidates;
  std::vector<std::vector<int64_t>> seen;
  for (const ContractionProblem &sample : samples)
    for (const ContractionCandidate &c : enumerateCandidates(sample, target)) {
      std::vector<int64_t> parameters = parametersOf(c);
      if (llvm::is_contained(seen, parameters))
        continue;
      seen.push_back(std::move(parameters));
      candidates.push_back(c);
    }
  // Each candidate at each sample, and each sample's best.
  std::vector<std::vector<double>> times(candidates.size());
  std::vector<SampledContraction> all;
  std::vector<double> best(samples.size(), 0);
  for (size_t c = 0; c < candidates.size(); ++c) {
    all.push_back({candidates[c], {}, {}});
    for (size_t s = 0; s < samples.size(); ++s) {
      all.back().atLargest = estimate(samples[s], candidates[c], target);
      double us = all.back().atLargest.totalUs;
      times[c].push_back(us);
      if (c == 0 || us < best[s])
        best[s] = us;
    }
  }
  for (size_t c = 0; c < candidates.size(); ++c)
    all[c].regrets = regretsOver(times[c], best);
  // Equal regrets: as the search orders equal predictions (Search.cpp).
  std::vector<size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const SampledContraction &x = all[a], &y = all[b];
    if (ranksBefore(x.regrets, y.regrets) || ranksBefore(y.regrets, x.regrets))
      return ranksBefore(x.regrets, y.regrets);
    if (x.candidate.stages != y.candidate.stages)
      return x.candidate.stages > y.candidate.stages;
    return x.candidate.tileM * x.candidate.tileN >
           y.candidate.tileM * y.candidate.tileN;
  });
  std::vector<SampledContraction> ranked;
  for (size_t i : order) {
    ranked.push_back(all[i]);
    if (keep && ranked.size() == keep)
      break;
  }
  if (bestUs)
    *bestUs = best;
  return ranked;
}

namespace {

/// The contraction model as a division asks it: each sample's space
/// ranked, and each candidate's time (candidates numbered as first seen).
class ContractionRangeModel final : public LaunchRangeModel {
public:
  ContractionRangeModel(const ContractionProblem &problem, bool mUnbound,
                        bool nUnbound, const TargetInfo &target,
                        const ContractionFilter &allowed)
      : problem(problem), mUnbound(mUnbound), nUnbound(nUnbound),
        target(target), allowed(allowed) {}

  std::optional<Sample> sampleAt(const std::vector<int64_t> &extents) override {
    ContractionProblem at = problemAt(extents);
    std::vector<std::pair<double, size_t>> timed;
    Sample sample;
    sample.bestUs = INFINITY;
    for (const ContractionCandidate &c : enumerateCandidates(at, target)) {
      double us = estimate(at, c, target).totalUs;
      sample.bestUs = std::min(sample.bestUs, us);
      if (!allowed || allowed(c))
        timed.push_back({us, idOf(c)});
    }
    if (timed.empty())
      return std::nullopt;
    std::stable_sort(
        timed.begin(), timed.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[us, id] : timed)
      sample.candidates.push_back(id);
    return sample;
  }

  std::optional<double> timeOf(size_t candidate,
                               const std::vector<int64_t> &extents) override {
    return estimate(problemAt(extents), candidates[candidate], target).totalUs;
  }

  size_t idOf(const ContractionCandidate &c) {
    std::vector<int64_t> parameters = parametersOf(c);
    for (size_t i = 0; i < candidates.size(); ++i)
      if (parametersOf(candidates[i]) == parameters)
        return i;
    candidates.push_back(c);
    return candidates.size() - 1;
  }

  std::vector<ContractionCandidate> candidates;

private:
  ContractionProblem problemAt(const std::vector<int64_t> &extents) const {
    ContractionProblem at = problem;
    size_t size = 0;
    if (mUnbound)
      at.m = extents[size++];
    if (nUnbound)
      at.n = extents[size++];
    return at;
  }

  ContractionProblem problem;
  bool mUnbound, nUnbound;
  const TargetInfo &target;
  const ContractionFilter &allowed;
};

} // namespace

std::optional<ContractionLaunchRanges> autosched::chooseContractionLaunchRanges(
    const ContractionProblem &problem, bool mUnbound, bool nUnbound,
    const ContractionCandidate &oneTile, const TargetInfo &target,
    const ContractionFilter &allowed) {
  ContractionRangeModel model(problem, mUnbound, nUnbound, target, allowed);
  size_t oneTileId = model.idOf(oneTile);
  std::optional<LaunchRanges> division =
      chooseLaunchRanges(size_t(mUnbound) + size_t(nUnbound), model, oneTileId);
  if (!division)
    return std::nullopt;
  return ContractionLaunchRanges{std::move(*division),
                                 std::move(model.candidates)};
}
