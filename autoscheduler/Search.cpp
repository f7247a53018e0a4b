//===- Search.cpp - The best schedules of a space under the model ---------===//
#include "autoscheduler/Search.h"

#include <algorithm>
#include <numeric>

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
  for (size_t i = 0; i < order.size() && i < keep; ++i)
    result.ranked.push_back({space[order[i]], costs[order[i]]});
  return result;
}
