//===- GpuUnboundSizes.cpp - GPU schedules for unbound sizes --------------===//
#include "autoscheduler/GpuUnboundSizes.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// What ranking one model's candidates over sample shapes asks of it.
template <typename Sample, typename Candidate, typename Cost>
struct SampledModel {
  /// A sample's space (within the target's limits there).
  std::function<std::vector<Candidate>(const Sample &)> spaceOf;
  std::function<Cost(const Sample &, const Candidate &)> estimate;
  /// Whether a program over unbound sizes may take the candidate.
  std::function<bool(const Candidate &)> takes;
  /// Whether the candidate fits the target at a sample whose space does
  /// not offer it.
  std::function<bool(const Sample &, const Candidate &)> fits;
  /// The candidate's parameters (a key), and what breaks ties between
  /// equal regrets (the lesser first; then the first seen).
  std::function<std::vector<int64_t>(const Candidate &)> keyOf, tieOf;
};

/// Every candidate of `samples`' spaces that a program over unbound sizes
/// may take and that fits at every sample, ranked by its regrets (as
/// GpuUnboundSizes.h says), best first; at most `keep` (0: all).
template <typename Sample, typename Candidate, typename Cost>
std::vector<SampledCandidateOf<Candidate, Cost>>
rankOverSamples(const std::vector<Sample> &samples,
                const SampledModel<Sample, Candidate, Cost> &model, size_t keep,
                std::vector<double> *bestUs) {
  // Each sample's space, every candidate predicted there: the best time at
  // each sample, and the candidates a program of unbound sizes may take,
  // in the order they first appear, with their times where predicted.
  const size_t shapes = samples.size();
  std::vector<double> best(shapes, 0);
  std::vector<Candidate> candidates;
  std::vector<std::vector<double>> times; // a candidate's, a sample's
  std::map<std::vector<int64_t>, size_t> indexOf;
  for (size_t s = 0; s < shapes; ++s) {
    for (const Candidate &c : model.spaceOf(samples[s])) {
      double us = model.estimate(samples[s], c).totalUs;
      best[s] = best[s] > 0 ? std::min(best[s], us) : us;
      if (!model.takes(c))
        continue;
      auto [at, added] = indexOf.try_emplace(model.keyOf(c), candidates.size());
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
  std::vector<SampledCandidateOf<Candidate, Cost>> all;
  for (size_t i = 0; i < candidates.size(); ++i) {
    bool fits = true;
    for (size_t s = 0; s < shapes && fits; ++s) {
      if (!std::isnan(times[i][s]))
        continue;
      fits = model.fits(samples[s], candidates[i]);
      if (fits) {
        times[i][s] = model.estimate(samples[s], candidates[i]).totalUs;
        best[s] = std::min(best[s], times[i][s]);
      }
    }
    if (fits)
      all.push_back(
          {candidates[i], model.estimate(samples.back(), candidates[i]), {}});
  }
  for (auto &sampled : all)
    sampled.regrets =
        regretsOver(times[indexOf.at(model.keyOf(sampled.candidate))], best);
  if (bestUs)
    *bestUs = best;
  // Regrets equal to a ten-thousandth are ties, which go as the model's
  // `tieOf` says, then to the candidate first seen.
  auto key = [&](const SampledCandidateOf<Candidate, Cost> &c) {
    return std::make_tuple(std::llround(c.regrets.mean * 1e4),
                           std::llround(c.regrets.worst * 1e4),
                           model.tieOf(c.candidate));
  };
  std::stable_sort(all.begin(), all.end(), [&](const auto &a, const auto &b) {
    return key(a) < key(b);
  });
  if (keep && all.size() > keep)
    all.resize(keep);
  return all;
}

/// `candidate` over `samples` as `estimate` (a model's, on `target`)
/// predicts it, its regrets against `bestUs`.
template <typename Sample, typename Candidate, typename Cost>
SampledCandidateOf<Candidate, Cost> sampledOver(
    const std::vector<Sample> &samples, const std::vector<double> &bestUs,
    const Candidate &candidate,
    Cost (*estimate)(const Sample &, const Candidate &, const TargetInfo &),
    const TargetInfo &target) {
  auto [atLargest, regrets] =
      costOverSamples(samples, bestUs, [&](const Sample &sample) {
        return estimate(sample, candidate, target);
      });
  return {candidate, atLargest, regrets};
}

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

/// A flash candidate's parameters, as a key.
std::vector<int64_t> flashKeyOf(const FlashCandidate &c) {
  return std::vector<int64_t>{c.wgmma, c.warps, c.keyBlock,    c.stages,
                              c.split, c.heads, c.swizzleBytes};
}

} // namespace

GpuSampledCandidate nautilus::autosched::sampledGpuCandidate(
    const std::vector<GpuProgram> &samples, const std::vector<double> &bestUs,
    const GpuCandidate &candidate, const TargetInfo &target) {
  return sampledOver(samples, bestUs, candidate, estimateGpu, target);
}

std::vector<GpuSampledCandidate>
nautilus::autosched::rankGpuOverSamples(const std::vector<GpuProgram> &samples,
                                        const TargetInfo &target, size_t keep,
                                        std::vector<double> *bestUs) {
  SampledModel<GpuProgram, GpuCandidate, GpuCost> model;
  model.spaceOf = [&](const GpuProgram &p) { return gpuSpace(p, target); };
  model.estimate = [&](const GpuProgram &p, const GpuCandidate &c) {
    return estimateGpu(p, c, target);
  };
  model.takes = takesUnbound;
  model.fits = [&](const GpuProgram &p, const GpuCandidate &c) {
    return fitsGpuTarget(p, c, target);
  };
  model.keyOf = keyOf;
  // (Ties as the bound ranking's, rankGpuSchedules: to the larger tile,
  // then more threads, then longer runs.)
  model.tieOf = [](const GpuCandidate &c) {
    int64_t elements = 1;
    for (int64_t t : c.tile)
      elements *= t;
    return std::vector<int64_t>{-elements, -c.threads, -c.vector};
  };
  return rankOverSamples(samples, model, keep, bestUs);
}

FlashSampledCandidate nautilus::autosched::sampledFlashCandidate(
    const std::vector<FlashProblem> &samples, const std::vector<double> &bestUs,
    const FlashCandidate &candidate, const TargetInfo &target) {
  return sampledOver(samples, bestUs, candidate, estimateFlash, target);
}

std::vector<FlashSampledCandidate> nautilus::autosched::rankFlashOverSamples(
    const std::vector<FlashProblem> &samples, const TargetInfo &target,
    size_t keep, std::vector<double> *bestUs) {
  SampledModel<FlashProblem, FlashCandidate, FlashCost> model;
  model.spaceOf = [&](const FlashProblem &p) { return flashSpace(p, target); };
  model.estimate = [&](const FlashProblem &p, const FlashCandidate &c) {
    return estimateFlash(p, c, target);
  };
  // (One head a tile: several fit only where a sample's queries are few.)
  model.takes = [](const FlashCandidate &c) {
    return c.split == 1 && c.heads == 1;
  };
  // (The space's limits, its shared memory and a thread's registers, are
  // the head dimension's and the candidate's, the same at every sample.)
  model.fits = [](const FlashProblem &, const FlashCandidate &) {
    return true;
  };
  model.keyOf = flashKeyOf;
  // (Ties to the first enumerated, as the bound ranking's.)
  model.tieOf = [](const FlashCandidate &) { return std::vector<int64_t>{}; };
  return rankOverSamples(samples, model, keep, bestUs);
}

namespace {

/// What a division asks of a model whose candidates are ranked at each
/// shape (the GPU programs' and the flash kernels'): the problem at the
/// shape's extents, its candidates ranked there (best first, with their
/// times), which of them a copy may take, whether one fits the target
/// there, its time there, and its key.
template <typename Problem, typename Candidate> struct RangeHooks {
  std::function<std::optional<Problem>(const std::vector<int64_t> &)> problemAt;
  std::function<std::vector<std::pair<Candidate, double>>(const Problem &)>
      rank;
  std::function<bool(const Candidate &)> takes;
  std::function<bool(const Problem &, const Candidate &)> fits;
  std::function<double(const Problem &, const Candidate &)> estimate;
  std::function<std::vector<int64_t>(const Candidate &)> keyOf;
};

/// A model as a division asks it (LaunchRanges.h): the problem at each
/// shape, its ranking there, and each candidate's time (none where it does
/// not fit the target there), each remembered (a division asks again).
template <typename Problem, typename Candidate>
class RankedRangeModel final : public LaunchRangeModel {
public:
  explicit RankedRangeModel(RangeHooks<Problem, Candidate> hooks)
      : hooks(std::move(hooks)) {}

  std::optional<Sample> sampleAt(const std::vector<int64_t> &extents) override {
    const Problem *problem = problemOf(extents);
    if (!problem)
      return std::nullopt;
    std::vector<std::pair<Candidate, double>> ranked = hooks.rank(*problem);
    Sample sample;
    sample.bestUs = ranked.empty() ? 0 : ranked.front().second;
    for (const auto &[candidate, us] : ranked)
      if (hooks.takes(candidate))
        sample.candidates.push_back(idOf(candidate));
    return sample;
  }

  std::optional<double> timeOf(size_t candidate,
                               const std::vector<int64_t> &extents) override {
    auto [at, added] = times.try_emplace({candidate, extents});
    if (!added)
      return at->second;
    const Problem *problem = problemOf(extents);
    if (problem && hooks.fits(*problem, candidates[candidate]))
      at->second = hooks.estimate(*problem, candidates[candidate]);
    return at->second;
  }

  /// The candidate's number (numbered as first seen).
  size_t idOf(const Candidate &c) {
    auto [at, added] = ids.try_emplace(hooks.keyOf(c), candidates.size());
    if (added)
      candidates.push_back(c);
    return at->second;
  }

  /// The candidates, numbered as first seen.
  std::vector<Candidate> candidates;

private:
  const Problem *problemOf(const std::vector<int64_t> &extents) {
    auto found = problems.find(extents);
    if (found == problems.end())
      found = problems.emplace(extents, hooks.problemAt(extents)).first;
    return found->second ? &*found->second : nullptr;
  }

  RangeHooks<Problem, Candidate> hooks;
  std::map<std::vector<int64_t>, size_t> ids;
  std::map<std::vector<int64_t>, std::optional<Problem>> problems;
  std::map<std::pair<size_t, std::vector<int64_t>>, std::optional<double>>
      times;
};

/// The best division of `unboundSizes` sizes under `hooks` against
/// `oneSchedule`, and the candidates its ranges name; std::nullopt where
/// none earns its copies.
template <typename Problem, typename Candidate>
std::optional<std::pair<LaunchRanges, std::vector<Candidate>>>
divideOver(size_t unboundSizes, RangeHooks<Problem, Candidate> hooks,
           const Candidate &oneSchedule) {
  RankedRangeModel<Problem, Candidate> model(std::move(hooks));
  size_t oneId = model.idOf(oneSchedule);
  std::optional<LaunchRanges> division =
      chooseLaunchRanges(unboundSizes, model, oneId);
  if (!division)
    return std::nullopt;
  return std::make_pair(std::move(*division), std::move(model.candidates));
}

} // namespace

std::optional<GpuLaunchRanges> nautilus::autosched::chooseGpuLaunchRanges(
    size_t unboundSizes, const GpuProgramAtExtents &programAt,
    const GpuCandidate &oneSchedule, const TargetInfo &target,
    const GpuCandidateFilter &allowed) {
  if (unboundSizes > kMostGpuLaunchRangeSizes)
    return std::nullopt;
  RangeHooks<GpuProgram, GpuCandidate> hooks;
  hooks.problemAt = programAt;
  hooks.rank = [&](const GpuProgram &program) {
    std::vector<std::pair<GpuCandidate, double>> ranked;
    for (const RankedGpuCandidate &r : rankGpuSchedules(program, target))
      ranked.emplace_back(r.candidate, r.cost.totalUs);
    return ranked;
  };
  hooks.takes = [&](const GpuCandidate &c) {
    return takesUnbound(c) && (!allowed || allowed(c));
  };
  hooks.fits = [&](const GpuProgram &program, const GpuCandidate &c) {
    return fitsGpuTarget(program, c, target);
  };
  hooks.estimate = [&](const GpuProgram &program, const GpuCandidate &c) {
    return estimateGpu(program, c, target).totalUs;
  };
  hooks.keyOf = keyOf;
  auto divided = divideOver(unboundSizes, std::move(hooks), oneSchedule);
  if (!divided)
    return std::nullopt;
  return GpuLaunchRanges{std::move(divided->first), std::move(divided->second)};
}

std::optional<FlashLaunchRanges> nautilus::autosched::chooseFlashLaunchRanges(
    size_t unboundSizes, const FlashProblemAtExtents &problemAt,
    const FlashCandidate &oneSchedule, const TargetInfo &target,
    const FlashCandidateFilter &allowed) {
  if (unboundSizes > kMostGpuLaunchRangeSizes)
    return std::nullopt;
  RangeHooks<FlashProblem, FlashCandidate> hooks;
  hooks.problemAt = problemAt;
  hooks.rank = [&](const FlashProblem &problem) {
    std::vector<std::pair<FlashCandidate, double>> ranked;
    for (const RankedFlashCandidate &r : rankFlashSchedules(problem, target))
      ranked.emplace_back(r.candidate, r.cost.totalUs);
    return ranked;
  };
  // One head a tile (as the one schedule); splits too, each copy's chunks
  // sized at launch.
  hooks.takes = [&](const FlashCandidate &c) {
    return c.heads == 1 && (!allowed || allowed(c));
  };
  // (The space's limits are the head dimension's and the candidate's, the
  // same at every shape.)
  hooks.fits = [](const FlashProblem &, const FlashCandidate &) {
    return true;
  };
  hooks.estimate = [&](const FlashProblem &problem, const FlashCandidate &c) {
    return estimateFlash(problem, c, target).totalUs;
  };
  hooks.keyOf = flashKeyOf;
  auto divided = divideOver(unboundSizes, std::move(hooks), oneSchedule);
  if (!divided)
    return std::nullopt;
  return FlashLaunchRanges{std::move(divided->first),
                           std::move(divided->second)};
}
