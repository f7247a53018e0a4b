//===- Search.cpp - The best schedules of a space under the model ---------===//
#include "autoscheduler/Search.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {
/// The rasterisations the space gives each candidate, at most.
constexpr size_t kRasterisations = 4;
} // namespace

std::vector<int64_t> autosched::parametersOf(const ContractionCandidate &c) {
  return {c.wgmma,  c.tileM,  c.tileN,    c.tileK,        c.warpsM, c.warpsN,
          c.stages, c.splitK, c.producer, c.swizzleBytes, c.groupM};
}

SearchResult autosched::searchContraction(const ContractionProblem &problem,
                                          const TargetInfo &target, size_t keep,
                                          const SearchOptions &options) {
  std::vector<ContractionCandidate> space =
      enumerateCandidates(problem, target);
  SearchResult result;
  result.spaceSize = space.size();
  std::vector<std::vector<int64_t>> parameters;
  for (const ContractionCandidate &c : space)
    parameters.push_back(parametersOf(c));
  std::vector<CostBreakdown> costs(space.size());
  auto predict = [&](size_t i) {
    costs[i] = estimate(problem, space[i], target);
    return costs[i].totalUs;
  };
  // Among equal predictions, the deeper pipeline (it absorbs more of the
  // copies' jitter), then the larger tile, then the first enumerated.
  auto before = [&](size_t a, size_t b) {
    if (space[a].stages != space[b].stages)
      return space[a].stages > space[b].stages;
    if (space[a].tileM * space[a].tileN != space[b].tileM * space[b].tileN)
      return space[a].tileM * space[a].tileN > space[b].tileM * space[b].tileN;
    return a < b;
  };
  // A rasterisation that predicts the same as one ranked before it (a
  // compute-bound problem's, whose DRAM time hides under its products) is
  // no alternative worth listing among the best `keep`: kept out of them,
  // so the search keeps some spare. (All of them: the whole space.)
  SpaceSearchOutcome outcome =
      searchSpace(ParameterSpace(std::move(parameters)), predict, before,
                  options, keep ? keep * kRasterisations : 0);
  result.predicted = outcome.predicted;
  auto sameButRasterisation = [&](size_t a, size_t b) {
    ContractionCandidate other = space[b];
    other.groupM = space[a].groupM;
    return parametersOf(space[a]) == parametersOf(other) &&
           costs[a].totalUs == costs[b].totalUs;
  };
  std::vector<size_t> listed;
  for (size_t i : outcome.ranked) {
    if (keep && llvm::any_of(listed, [&](size_t j) {
          return sameButRasterisation(j, i);
        }))
      continue;
    listed.push_back(i);
    result.ranked.push_back({space[i], costs[i]});
    if (keep && result.ranked.size() == keep)
      break;
  }
  return result;
}

std::optional<RankedCandidate>
autosched::fewestWavesChoice(const ContractionProblem &problem,
                             const TargetInfo &target) {
  std::optional<RankedCandidate> best;
  for (const ContractionCandidate &c : enumerateCandidates(problem, target)) {
    if (c.splitK != 1)
      continue;
    CostBreakdown cost = estimate(problem, c, target);
    auto key = [](const RankedCandidate &r) {
      return std::make_tuple(r.cost.waves, -r.cost.lastWaveFill,
                             -r.candidate.tileM * r.candidate.tileN,
                             -r.candidate.stages);
    };
    RankedCandidate ranked{c, cost};
    if (!best || key(ranked) < key(*best))
      best = ranked;
  }
  return best;
}
