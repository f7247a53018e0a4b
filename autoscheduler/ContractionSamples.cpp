//===- ContractionSamples.cpp - Tensor-core contractions of unbound sizes -===//
#include "autoscheduler/ContractionSamples.h"
#include "autoscheduler/Search.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// `problem` with its unbound M and N (in that order) at `extents`.
ContractionProblem problemAt(ContractionProblem problem, bool mUnbound,
                             bool nUnbound,
                             const std::vector<int64_t> &extents) {
  size_t size = 0;
  if (mUnbound)
    problem.m = extents[size++];
  if (nUnbound)
    problem.n = extents[size++];
  return problem;
}

} // namespace

std::vector<ContractionProblem>
autosched::contractionSamples(ContractionProblem problem, bool mUnbound,
                              bool nUnbound) {
  size_t sizes = size_t(mUnbound) + size_t(nUnbound);
  std::vector<ContractionProblem> samples;
  for (size_t shape = 0; shape < sampleShapesOf(sizes); ++shape) {
    std::vector<int64_t> extents;
    for (size_t size = 0; size < sizes; ++size)
      extents.push_back(sampleExtentOf(shape, size, sizes));
    samples.push_back(problemAt(problem, mUnbound, nUnbound, extents));
  }
  return samples;
}

SampledContraction
autosched::sampledContraction(const std::vector<ContractionProblem> &samples,
                              const std::vector<double> &bestUs,
                              const ContractionCandidate &candidate,
                              const TargetInfo &target) {
  auto [atLargest, regrets] =
      costOverSamples(samples, bestUs, [&](const ContractionProblem &sample) {
        return estimate(sample, candidate, target);
      });
  return {candidate, atLargest, regrets};
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
    // The sample's whole space, ranked as the bound search ranks it.
    SearchOptions exhaustive;
    exhaustive.mode = SearchOptions::Mode::Exhaustive;
    SearchResult search =
        searchContraction(at(extents), target, /*keep=*/0, exhaustive);
    if (search.ranked.empty())
      return std::nullopt;
    Sample sample;
    sample.bestUs = search.ranked.front().cost.totalUs;
    for (const RankedCandidate &r : search.ranked)
      if (!allowed || allowed(r.candidate))
        sample.candidates.push_back(idOf(r.candidate));
    if (sample.candidates.empty())
      return std::nullopt;
    return sample;
  }

  std::optional<double> timeOf(size_t candidate,
                               const std::vector<int64_t> &extents) override {
    return estimate(at(extents), candidates[candidate], target).totalUs;
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
  ContractionProblem at(const std::vector<int64_t> &extents) const {
    return problemAt(problem, mUnbound, nUnbound, extents);
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
