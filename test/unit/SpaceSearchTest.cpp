//===- SpaceSearchTest.cpp - Exhaustive and evolutionary search -----------===//
#include "autoscheduler/SpaceSearch.h"
#include "autoscheduler/GpuSpace.h"
#include "autoscheduler/Search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// The grid of `n` x `n` x `n` parameter values.
std::vector<std::vector<int64_t>> grid(int64_t n) {
  std::vector<std::vector<int64_t>> points;
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < n; ++b)
      for (int64_t c = 0; c < n; ++c)
        points.push_back({a, b, c});
  return points;
}

/// A cost over the grid with one minimum, at (13, 4, 9), and ripples that
/// give it local minima along each parameter.
double rippled(const std::vector<int64_t> &p) {
  double a = p[0] - 13, b = p[1] - 4, c = p[2] - 9;
  return a * a + 2 * b * b + c * c +
         6 *
             (3 + std::sin(p[0] * 1.7) + std::cos(p[1] * 2.3) +
              std::sin(p[2] * 0.9 + 1)) *
             (a * a + b * b + c * c > 0);
}

SearchOptions evolutionary(uint64_t seed, size_t candidates = 0) {
  SearchOptions o;
  o.mode = SearchOptions::Mode::Evolutionary;
  o.seed = seed;
  o.candidates = candidates;
  return o;
}

ContractionProblem gemm(int64_t m, int64_t n, int64_t k, bool wgmma,
                        int64_t batch = 1) {
  ContractionProblem p;
  p.m = m, p.n = n, p.k = k, p.batch = batch;
  p.splittable = true;
  p.wgmmaAllowed = wgmma;
  return p;
}

} // namespace

// A candidate's neighbours are the nearest by the sum of steps between
// the parameters' values (ranks, not sizes), nearer first (equally near
// ones in a fixed mixed order).
TEST(SpaceSearch, NeighboursAreTheNearest) {
  ParameterSpace space(
      {{0, 16, 0}, {0, 32, 0}, {1, 16, 0}, {1, 32, 0}, {2, 16, 0}, {1, 32, 1}});
  auto sorted = [](std::vector<size_t> v, size_t from, size_t to) {
    std::vector<size_t> part(v.begin() + from, v.begin() + to);
    std::sort(part.begin(), part.end());
    return part;
  };
  std::vector<size_t> first = space.neighbours(0);
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(sorted(first, 0, 2), (std::vector<size_t>{1, 2})); // 1 step
  EXPECT_EQ(sorted(first, 2, 4), (std::vector<size_t>{3, 4})); // 2 steps
  EXPECT_EQ(first[4], 5u);                                     // 3 steps
  std::vector<size_t> last = space.neighbours(5);
  ASSERT_EQ(last.size(), 5u);
  EXPECT_EQ(last[0], 3u);
  EXPECT_EQ(sorted(last, 1, 3), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(sorted(last, 3, 5), (std::vector<size_t>{0, 4}));
  EXPECT_EQ(space.neighbours(5), last);
}

// Exhaustive search predicts every candidate and ranks them, equal
// predictions in the caller's order.
TEST(SpaceSearch, ExhaustiveRanksEveryCandidate) {
  ParameterSpace space(grid(4));
  std::vector<double> costs = {3, 1, 2, 1};
  SearchOptions options;
  options.mode = SearchOptions::Mode::Exhaustive;
  SpaceSearchOutcome outcome = searchSpace(
      space, [&](size_t i) { return costs[i % 4]; },
      [](size_t a, size_t b) { return a > b; }, options, 3);
  EXPECT_EQ(outcome.predicted, space.size());
  EXPECT_EQ(outcome.predicted, 64u);
  // Cost 1 at i % 4 == 1 or 3; ties go to the later index here.
  EXPECT_EQ(outcome.ranked, (std::vector<size_t>{63, 61, 59}));
}

// Evolution over 8,000 candidates finds the minimum of a rippled cost
// with a quarter of them, from every seed; the same seed gives the same
// search, and the budget holds.
TEST(SpaceSearch, EvolutionFindsTheMinimumWithinItsBudget) {
  std::vector<std::vector<int64_t>> points = grid(20);
  ParameterSpace space(points);
  size_t optimum = 13 * 400 + 4 * 20 + 9;
  auto predict = [&](size_t i) { return rippled(points[i]); };
  auto before = [](size_t a, size_t b) { return a < b; };
  for (uint64_t seed = 0; seed < 8; ++seed) {
    SpaceSearchOutcome outcome =
        searchSpace(space, predict, before, evolutionary(seed), 5);
    EXPECT_EQ(outcome.predicted, 2000u);
    EXPECT_LT(outcome.predicted, space.size());
    ASSERT_FALSE(outcome.ranked.empty());
    EXPECT_EQ(outcome.ranked.front(), optimum) << "seed " << seed;
    SpaceSearchOutcome again =
        searchSpace(space, predict, before, evolutionary(seed), 5);
    EXPECT_EQ(outcome.ranked, again.ranked);
  }
  SpaceSearchOutcome small =
      searchSpace(space, predict, before, evolutionary(3, 100), 0);
  EXPECT_EQ(small.predicted, 100u);
  EXPECT_EQ(small.ranked.size(), 100u);
}

// Auto searches a space exhaustively up to its threshold, by evolution
// beyond it.
TEST(SpaceSearch, AutoEvolvesOnlyLargeSpaces) {
  ParameterSpace space(grid(10));
  auto predict = [](size_t i) { return double(i % 7); };
  auto before = [](size_t a, size_t b) { return a < b; };
  SearchOptions options;
  EXPECT_EQ(searchSpace(space, predict, before, options, 1).predicted,
            space.size());
  options.exhaustiveUpTo = 500;
  SpaceSearchOutcome evolved = searchSpace(space, predict, before, options, 1);
  EXPECT_LT(evolved.predicted, space.size());
  EXPECT_EQ(evolved.predicted, 1000u / 4);
}

// On the contractions of the GPU workloads (square to skinny, batched,
// long K; spaces of 135 to 465 candidates, which `auto` searches
// exhaustively), evolution forced to predict half of each space finds the
// exhaustive search's choice in most runs (101 of 112 when this was
// written), and comes within 1.4x of it in every one.
TEST(SpaceSearch, EvolutionNearsTheContractionModelsOptimum) {
  int runs = 0, found = 0;
  for (const char *name : {"sm_80", "sm_90"}) {
    TargetInfo target = *getTarget(name);
    bool wgmma = target.hasWgmma();
    for (const ContractionProblem &p :
         {gemm(4096, 4096, 4096, wgmma), gemm(8192, 256, 4096, wgmma),
          gemm(128, 128, 16384, wgmma), gemm(16, 4096, 4096, wgmma),
          gemm(2048, 512, 1024, wgmma), gemm(1024, 1024, 1024, wgmma, 8),
          gemm(1000, 3000, 4096, false)}) {
      SearchResult exhaustive = searchContraction(p, target, 1);
      ASSERT_FALSE(exhaustive.ranked.empty());
      const RankedCandidate &optimum = exhaustive.ranked.front();
      for (uint64_t seed = 0; seed < 8; ++seed) {
        SearchResult evolved = searchContraction(
            p, target, 1, evolutionary(seed, exhaustive.spaceSize / 2));
        EXPECT_EQ(evolved.predicted, exhaustive.spaceSize / 2);
        ++runs;
        found += evolved.ranked.front().candidate.describe() ==
                 optimum.candidate.describe();
        EXPECT_LT(evolved.ranked.front().cost.totalUs,
                  1.4 * optimum.cost.totalUs)
            << name << " " << p.m << "x" << p.n << "x" << *p.k << " seed "
            << seed;
      }
    }
  }
  EXPECT_GE(found, runs * 85 / 100) << found << " of " << runs;
}

// Options parse, and what does not parse says why.
TEST(SpaceSearch, ParsesItsOptions) {
  std::string error;
  SearchOptions o =
      SearchOptions::parse("evolutionary,seed=7,candidates=300", error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(o.mode, SearchOptions::Mode::Evolutionary);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.candidates, 300u);
  EXPECT_EQ(o.evolutionText(5000),
            "evolution (seed 7, at most 300 candidates)");
  SearchOptions::parse("exhaustive", error);
  EXPECT_EQ(error, "");
  SearchOptions::parse("exhaustive,seed=1", error);
  EXPECT_NE(error.find("not an option of the exhaustive search"),
            std::string::npos);
  error.clear();
  SearchOptions::parse("evolutionary,candidates=0", error);
  EXPECT_NE(error, "");
  error.clear();
  SearchOptions::parse("annealing", error);
  EXPECT_NE(error.find("not a search"), std::string::npos);
  error.clear();
  SearchOptions::parse("evolutionary,seconds=nan", error);
  EXPECT_NE(error, "");
  // The default budget: a quarter of the space, from 64 to 2048, as
  // --explain says it.
  SearchOptions defaults;
  EXPECT_EQ(defaults.budgetFor(100), 64u);
  EXPECT_EQ(defaults.budgetFor(1000), 250u);
  EXPECT_EQ(defaults.budgetFor(100000), 2048u);
  EXPECT_EQ(defaults.evolutionText(100000),
            "evolution (seed 0, at most 2048 candidates)");
  EXPECT_FALSE(defaults.evolves(4096));
  EXPECT_TRUE(defaults.evolves(4097));
}
