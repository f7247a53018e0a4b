//===- SpaceSearch.h - Exhaustive or evolutionary search of a space -*- C++
//-*-===//
//
// How a space of schedules is searched under the model. A space is its
// candidates, each a vector of parameter values (a contraction's tile M,
// tile N, tile K, warps, stages, ...); a candidate's neighbours are the
// nearest (ParameterSpace::neighbours). Small spaces are searched exhaustively:
// every candidate is predicted, and the best kept. Larger ones (more than
// `exhaustiveUpTo` candidates) are searched by evolution, as Ansor and
// MetaSchedule search theirs, but under the model alone:
//   - a population of candidates drawn at random (seeded: the same seed
//     always gives the same search);
//   - each generation, each member's child is one of its neighbours not
//     yet predicted (a mutation), or where it has none, a candidate drawn
//     at random; the best of members and children survive;
//   - whenever the best stalls, and with the second half of the budget,
//     descents from the best members in turn: to the best neighbour while
//     it is better (among equal predictions, the preferred);
//   - stopping at a budget of candidates predicted, or of seconds (a
//     seconds budget makes the outcome depend on the machine's speed; the
//     candidates budget does not).
// The order is the caller's: a prediction, and a rule for equal ones, so
// that either search's best is the same candidate where both find it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_SPACESEARCH_H
#define NAUTILUS_AUTOSCHEDULER_SPACESEARCH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// How spaces are searched (`nautc --search`).
struct SearchOptions {
  enum class Mode { Auto, Exhaustive, Evolutionary };
  Mode mode = Mode::Auto;
  /// Auto: spaces of at most this many candidates are searched
  /// exhaustively, larger ones by evolution.
  size_t exhaustiveUpTo = 4096;
  /// Evolution's budgets (auto's too, where a space evolves): candidates
  /// predicted (0: a quarter of the space, from kMinimumBudget to
  /// kMaximumBudget), seconds (0: none). (A
  /// candidate's neighbours take a pass over the space: a budget of B
  /// costs B passes at most.)
  size_t candidates = 0;
  double seconds = 0;
  uint64_t seed = 0;
  /// Whether a line on the terminal shows the search's progress (nautc
  /// sets it where its errors go to one), and what the search calls after
  /// each generation of an evolution: (predicted, budget, best prediction).
  bool progress = false;
  std::function<void(size_t, size_t, double)> onProgress;

  static constexpr size_t kMinimumBudget = 64, kMaximumBudget = 2048;

  /// Parses "auto", "exhaustive", or "evolutionary" followed by any of
  /// ",seed=N", ",candidates=N", ",seconds=S"; "" and the error's text
  /// where it does not parse.
  static SearchOptions parse(llvm::StringRef spec, std::string &error);
  /// "evolution (seed 0, at most 512 candidates)", for --explain, of a
  /// space of `spaceSize` candidates.
  std::string evolutionText(size_t spaceSize) const;
  /// Whether a space of `spaceSize` candidates evolves.
  bool evolves(size_t spaceSize) const {
    return mode == Mode::Evolutionary ||
           (mode == Mode::Auto && spaceSize > exhaustiveUpTo);
  }
  /// The candidates an evolution over `spaceSize` may predict.
  size_t budgetFor(size_t spaceSize) const;
};

/// A space: its candidates' parameter values, and each one's neighbours.
class ParameterSpace {
public:
  explicit ParameterSpace(std::vector<std::vector<int64_t>> candidates)
      : candidates(std::move(candidates)) {}
  size_t size() const { return candidates.size(); }
  /// The 16 candidates nearest candidate `i`, nearer first: the distance
  /// is the sum, over the parameters, of the steps between their values
  /// in the order of the parameter's values (tiles of 64 and 256 are two
  /// steps apart where 128 is a value). (Found when first asked, for the
  /// candidates a search visits: an exhaustive search needs none.)
  const std::vector<size_t> &neighbours(size_t i) const;

private:
  std::vector<std::vector<int64_t>> candidates;
  mutable std::vector<std::vector<int64_t>> ranks;
  mutable std::map<size_t, std::vector<size_t>> neighbourLists;
};

/// What a search found: candidates best first (at most `keep`), and how
/// many it predicted (the space's size: all).
struct SpaceSearchOutcome {
  std::vector<size_t> ranked;
  size_t predicted = 0;
};

/// `predict(i)`: candidate i's predicted time; `before(i, j)`: whether i
/// goes first of two with equal predictions.
SpaceSearchOutcome searchSpace(const ParameterSpace &space,
                               llvm::function_ref<double(size_t)> predict,
                               llvm::function_ref<bool(size_t, size_t)> before,
                               const SearchOptions &options, size_t keep);

} // namespace nautilus::autosched

#endif
