//===- Search.h - The best schedules of a space under the model -*- C++ -*-===//
//
// The search of a contraction's space (a few hundred candidates: every
// one predicted, unless SearchOptions ask for evolution), ranked by the
// cost model; equal predictions go to the deeper pipeline, then the larger
// tile, then the candidate enumerated first, so that the same problem
// always gets the same schedule.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_SEARCH_H
#define NAUTILUS_AUTOSCHEDULER_SEARCH_H

#include "autoscheduler/CostModel.h"
#include "autoscheduler/SpaceSearch.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace nautilus::autosched {

struct RankedCandidate {
  ContractionCandidate candidate;
  CostBreakdown cost;
};

/// The search's outcome: the candidates it scored, best first (at most
/// `keep` of them), how many the space held and how many were predicted.
struct SearchResult {
  std::vector<RankedCandidate> ranked;
  size_t spaceSize = 0;
  size_t predicted = 0;
};

/// Searches `problem`'s space as `options` say and keeps the best `keep`
/// (all of them when 0).
SearchResult searchContraction(const ContractionProblem &problem,
                               const TargetInfo &target, size_t keep = 5,
                               const SearchOptions &options = {});

/// A contraction candidate's parameters, as SpaceSearch varies them.
std::vector<int64_t> parametersOf(const ContractionCandidate &c);

/// What a deterministic wave heuristic (DeepGEMM's) picks from the same
/// space, for comparison: K unsplit, the fewest waves, then the fullest
/// last wave, then the larger tile, then the deeper pipeline.
std::optional<RankedCandidate>
fewestWavesChoice(const ContractionProblem &problem, const TargetInfo &target);

} // namespace nautilus::autosched

#endif
