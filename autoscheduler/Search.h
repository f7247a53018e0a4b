//===- Search.h - The best schedules of a space under the model -*- C++ -*-===//
//
// Exhaustive search over a contraction's space (a few hundred candidates),
// ranked by the cost model; equal predictions go to the deeper pipeline,
// then the larger tile, then the candidate enumerated first, so that the
// same problem always gets the same schedule.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_SEARCH_H
#define NAUTILUS_AUTOSCHEDULER_SEARCH_H

#include "autoscheduler/CostModel.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace nautilus::autosched {

struct RankedCandidate {
  ContractionCandidate candidate;
  CostBreakdown cost;
};

/// The search's outcome: the candidates it scored, best first (at most
/// `keep` of them), and how many the space held.
struct SearchResult {
  std::vector<RankedCandidate> ranked;
  size_t spaceSize = 0;
};

/// Scores the first `budget` candidates of `problem`'s space (all of them
/// when 0) and keeps the best `keep` (all of them when 0).
SearchResult searchContraction(const ContractionProblem &problem,
                               const TargetInfo &target, size_t keep = 5,
                               size_t budget = 0);

/// What a deterministic wave heuristic (DeepGEMM's) picks from the same
/// space, for comparison: K unsplit, the fewest waves, then the fullest
/// last wave, then the larger tile, then the deeper pipeline.
std::optional<RankedCandidate>
fewestWavesChoice(const ContractionProblem &problem, const TargetInfo &target);

} // namespace nautilus::autosched

#endif
