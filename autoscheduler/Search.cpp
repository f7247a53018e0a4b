//===- Search.cpp - The best schedules of a space under the model ---------===//
#include "autoscheduler/Search.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

SearchResult autosched::searchContraction(const ContractionProblem &problem,
                                          const TargetInfo &target,
                                          size_t keep, size_t budget) {
  std::vector<ContractionCandidate> space =
      enumerateCandidates(problem, target);
  SearchResult result;
  result.spaceSize = space.size();
  if (budget && space.size() > budget)
    space.resize(budget);
  std::vector<CostBreakdown> costs = estimateAll(problem, space, target);
  std::vector<size_t> order(space.size());
  std::iota(order.begin(), order.end(), 0);
  // Best predicted time first; among equal predictions, the deeper
  // pipeline (it absorbs more of the copies' jitter), then the larger tile.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (costs[a].totalUs != costs[b].totalUs)
      return costs[a].totalUs < costs[b].totalUs;
    if (space[a].stages != space[b].stages)
      return space[a].stages > space[b].stages;
    return space[a].tileM * space[a].tileN > space[b].tileM * space[b].tileN;
  });
  for (size_t i = 0; i < order.size() && (keep == 0 || i < keep); ++i)
    result.ranked.push_back({space[order[i]], costs[order[i]]});
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
