//===- SpaceSearch.cpp - Exhaustive or evolutionary search of a space -----===//
#include "autoscheduler/SpaceSearch.h"
#include "runtime/SplitMix64.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// Members a generation keeps, and generations without a better best
/// before a descent from it.
constexpr size_t kPopulation = 16;
constexpr int kStaleGenerations = 3;
/// A candidate's neighbours: the nearest of the space.
constexpr size_t kNeighbours = 16;

/// Sorts `order` best first: by `predictions`, equal ones by `before`.
void sortBest(std::vector<size_t> &order,
              const std::vector<double> &predictions,
              llvm::function_ref<bool(size_t, size_t)> before) {
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (predictions[a] != predictions[b])
      return predictions[a] < predictions[b];
    return before(a, b);
  });
}

/// An evolutionary search's state: the predictions made so far.
class Evolution {
public:
  Evolution(const ParameterSpace &space,
            llvm::function_ref<double(size_t)> predict,
            llvm::function_ref<bool(size_t, size_t)> before,
            const SearchOptions &options, size_t budget)
      : space(space), predictFn(predict), before(before), random(options.seed),
        budget(budget), seconds(options.seconds), predictions(space.size()),
        isKnown(space.size(), false), start(std::chrono::steady_clock::now()) {}

  void run(const std::function<void(size_t, size_t, double)> &progress);
  /// Every candidate predicted, best first.
  std::vector<size_t> ranked() const;
  size_t predictedCount() const { return predicted.size(); }

private:
  bool better(size_t a, size_t b) const {
    if (predictions[a] != predictions[b])
      return predictions[a] < predictions[b];
    return before(a, b);
  }
  void sortBest(std::vector<size_t> &order) const {
    ::sortBest(order, predictions, before);
  }
  bool known(size_t i) const { return isKnown[i]; }
  bool spent() const {
    if (predicted.size() >= budget || predicted.size() >= space.size())
      return true;
    return seconds > 0 && std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                                  .count() >= seconds;
  }
  void predict(size_t i) {
    // (A prediction that is not a number ranks last.)
    double us = predictFn(i);
    predictions[i] =
        std::isnan(us) ? std::numeric_limits<double>::infinity() : us;
    isKnown[i] = true;
    predicted.push_back(i);
  }
  /// A candidate not yet predicted, drawn at random (the next one after
  /// the draw that is not).
  size_t draw();
  /// One generation; whether the best improved.
  bool generation();
  /// A descent to a local best, from the best member not descended from.
  void descend();

  const ParameterSpace &space;
  llvm::function_ref<double(size_t)> predictFn;
  llvm::function_ref<bool(size_t, size_t)> before;
  rt::SplitMix64 random;
  size_t budget;
  double seconds;
  std::vector<double> predictions;
  std::vector<bool> isKnown;
  std::vector<size_t> predicted, population;
  std::set<size_t> descended;
  std::chrono::steady_clock::time_point start;
};

size_t Evolution::draw() {
  size_t i = random.below(space.size());
  while (known(i))
    i = (i + 1) % space.size();
  return i;
}

bool Evolution::generation() {
  size_t bestBefore = population.front();
  std::vector<size_t> next = population;
  for (size_t member : population) {
    if (spent())
      break;
    std::vector<size_t> fresh;
    for (size_t n : space.neighbours(member))
      if (!known(n))
        fresh.push_back(n);
    size_t child = fresh.empty() ? draw() : fresh[random.below(fresh.size())];
    predict(child);
    next.push_back(child);
  }
  sortBest(next);
  next.resize(std::min(next.size(), kPopulation));
  population = std::move(next);
  return population.front() != bestBefore;
}

void Evolution::descend() {
  // From the best member not descended from yet: to its best neighbour
  // while that is better (every neighbour predicted, so that among equal
  // predictions the preferred one wins).
  auto start = llvm::find_if(
      population, [&](size_t member) { return !descended.count(member); });
  if (start == population.end())
    return;
  size_t best = *start;
  descended.insert(best);
  bool moved = true;
  while (moved && !spent()) {
    size_t from = best;
    for (size_t n : space.neighbours(from)) {
      if (spent())
        break;
      if (!known(n))
        predict(n);
      if (better(n, best))
        best = n;
    }
    moved = best != from;
    descended.insert(best);
  }
  if (!llvm::is_contained(population, best)) {
    population.push_back(best);
    sortBest(population);
  }
}

void Evolution::run(
    const std::function<void(size_t, size_t, double)> &progress) {
  while (population.size() < kPopulation && !spent()) {
    size_t i = draw();
    predict(i);
    population.push_back(i);
  }
  sortBest(population);
  // Half the budget to generations (and a descent whenever the best
  // stalls), the rest to descents from the best members in turn, with a
  // generation where none is left to descend from.
  size_t evolving = budget / 2;
  int stale = 0;
  while (!spent()) {
    if (predicted.size() < evolving) {
      stale = generation() ? 0 : stale + 1;
      if (stale >= kStaleGenerations) {
        descend();
        stale = 0;
      }
    } else {
      size_t before = predicted.size();
      descend();
      if (predicted.size() == before && !spent())
        generation();
    }
    if (progress)
      progress(predicted.size(), budget, predictions[population.front()]);
  }
}

std::vector<size_t> Evolution::ranked() const {
  std::vector<size_t> order = predicted;
  sortBest(order);
  return order;
}

} // namespace

const std::vector<size_t> &ParameterSpace::neighbours(size_t i) const {
  auto found = neighbourLists.find(i);
  if (found != neighbourLists.end())
    return found->second;
  size_t n = candidates.size();
  size_t parameters = n ? candidates[0].size() : 0;
  if (ranks.empty()) {
    // Each value as its rank among the parameter's values (tiles of 16,
    // 32, 64 are 0, 1, 2 apart): a step is the next value, whatever its
    // size.
    ranks.assign(n, std::vector<int64_t>(parameters));
    for (size_t p = 0; p < parameters; ++p) {
      std::vector<int64_t> values;
      for (const auto &c : candidates)
        values.push_back(c[p]);
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      for (size_t c = 0; c < n; ++c)
        ranks[c][p] =
            std::lower_bound(values.begin(), values.end(), candidates[c][p]) -
            values.begin();
    }
  }
  // The kNeighbours nearest by the sum of rank steps, nearer first; found
  // for the candidates a search visits only. Equally near ones come in an
  // order mixed from both indices (fixed, as the space is), so that no
  // direction of the space is always the one cut off.
  std::vector<std::tuple<int64_t, uint64_t, size_t>> byDistance;
  for (size_t d = 0; d < n; ++d) {
    if (d == i)
      continue;
    int64_t distance = 0;
    for (size_t p = 0; p < parameters; ++p)
      distance += std::abs(ranks[i][p] - ranks[d][p]);
    byDistance.push_back(
        {distance, rt::SplitMix64(uint64_t(i) << 32 ^ uint64_t(d)).next(), d});
  }
  size_t k = std::min(kNeighbours, byDistance.size());
  std::partial_sort(byDistance.begin(), byDistance.begin() + k,
                    byDistance.end());
  std::vector<size_t> &list = neighbourLists[i];
  for (size_t j = 0; j < k; ++j)
    list.push_back(std::get<2>(byDistance[j]));
  return list;
}

SpaceSearchOutcome
autosched::searchSpace(const ParameterSpace &space,
                       llvm::function_ref<double(size_t)> predict,
                       llvm::function_ref<bool(size_t, size_t)> before,
                       const SearchOptions &options, size_t keep) {
  SpaceSearchOutcome outcome;
  if (!options.evolves(space.size())) {
    std::vector<double> predictions(space.size());
    for (size_t i = 0; i < space.size(); ++i)
      predictions[i] = predict(i);
    outcome.ranked.resize(space.size());
    std::iota(outcome.ranked.begin(), outcome.ranked.end(), 0);
    sortBest(outcome.ranked, predictions, before);
    outcome.predicted = space.size();
  } else {
    Evolution evolution(space, predict, before, options,
                        options.budgetFor(space.size()));
    if (space.size())
      evolution.run(options.onProgress);
    outcome.ranked = evolution.ranked();
    outcome.predicted = evolution.predictedCount();
  }
  if (keep && outcome.ranked.size() > keep)
    outcome.ranked.resize(keep);
  return outcome;
}

SearchOptions SearchOptions::parse(llvm::StringRef spec, std::string &error) {
  SearchOptions options;
  llvm::SmallVector<llvm::StringRef> parts;
  spec.split(parts, ',');
  llvm::StringRef mode = parts.front().trim();
  if (mode == "auto")
    options.mode = Mode::Auto;
  else if (mode == "exhaustive")
    options.mode = Mode::Exhaustive;
  else if (mode == "evolutionary")
    options.mode = Mode::Evolutionary;
  else {
    error = "'" + mode.str() +
            "' is not a search (auto, exhaustive or evolutionary)";
    return options;
  }
  for (llvm::StringRef part : llvm::ArrayRef(parts).drop_front()) {
    auto [key, value] = part.trim().split('=');
    bool bad = options.mode == Mode::Exhaustive;
    if (key == "seed")
      bad |= value.getAsInteger(10, options.seed);
    else if (key == "candidates")
      bad |=
          value.getAsInteger(10, options.candidates) || options.candidates == 0;
    else if (key == "seconds")
      bad |= !llvm::to_float(value, options.seconds) ||
             !std::isfinite(options.seconds) || options.seconds <= 0;
    else
      bad = true;
    if (bad) {
      error = "'" + part.trim().str() + "' is not an option of the " +
              mode.str() +
              " search (an evolutionary one takes seed=N, candidates=N "
              "and seconds=S)";
      return options;
    }
  }
  return options;
}

size_t SearchOptions::budgetFor(size_t spaceSize) const {
  if (candidates)
    return candidates;
  return std::clamp(spaceSize / 4, kMinimumBudget, kMaximumBudget);
}

std::string SearchOptions::evolutionText(size_t spaceSize) const {
  std::string budgetText =
      llvm::formatv("at most {0} candidates", budgetFor(spaceSize)).str();
  if (seconds > 0)
    budgetText += llvm::formatv(" or {0} s", seconds).str();
  return llvm::formatv("evolution (seed {0}, {1})", seed, budgetText).str();
}
