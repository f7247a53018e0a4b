//===- CpuLaunchRangesTest.cpp - Tiles chosen at launch by a size ---------===//
//
// autoscheduler/CpuLaunchRanges: the model's division of one unbound
// size's values into ranges, each with its own tile; and the runtime's
// side, which launches only the copy whose range holds the size.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/CpuLaunchRanges.h"
#include "runtime/HostPrograms.h"
#include "test/unit/CpuModelHost.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;
using nautilus::test::avx512Host;

namespace {

/// An f32 GEMM with M, N and K at `extents`, its rhs packable (a sample:
/// its rows vary, as cpuProgramAtExtents's).
std::optional<CpuProgram> gemmAt(const std::vector<int64_t> &extents) {
  CpuProgram gemm;
  gemm.rowsVary = true;
  gemm.extents = {extents[0], extents[1]};
  gemm.reduced = extents[2];
  gemm.contraction = true;
  gemm.packable = true;
  return gemm;
}

/// The one tile the unbound GEMM gets without ranges.
CpuCandidate oneTileOf(const TargetInfo &target) {
  std::vector<CpuProgram> samples;
  for (size_t shape = 0; shape < sampleShapesOf(3); ++shape)
    samples.push_back(
        *gemmAt({sampleExtentOf(shape, 0, 3), sampleExtentOf(shape, 1, 3),
                 sampleExtentOf(shape, 2, 3)}));
  return rankCpuTilesOverSamples(samples, target, 1).front().candidate;
}

} // namespace

/// Checks that `division`'s ranges cover every value in order, each with
/// its own power-of-two tile, at a mean regret below the one tile's by
/// more than each extra copy's toll.
void expectCoversInOrder(const CpuLaunchRanges &division) {
  ASSERT_GE(division.ranges.size(), 2u);
  ASSERT_LE(division.ranges.size(), kMostLaunchRanges);
  EXPECT_LT(division.meanRegret *
                std::pow(kLaunchRangeGain, division.ranges.size() - 1),
            division.oneTileMeanRegret);
  int64_t next = 0;
  for (size_t r = 0; r < division.ranges.size(); ++r) {
    const CpuLaunchRange &range = division.ranges[r];
    EXPECT_EQ(range.atLeast, next);
    EXPECT_EQ(range.below.has_value(), r + 1 < division.ranges.size());
    if (range.below) {
      EXPECT_GT(*range.below, range.atLeast);
      // A boundary is a power of two above a sample, at most the next.
      EXPECT_EQ(*range.below & (*range.below - 1), 0) << *range.below;
      next = *range.below;
    }
    for (int64_t t : range.chosen.candidate.tile)
      EXPECT_EQ(t & (t - 1), 0) << range.chosen.candidate.describe();
    EXPECT_GE(range.chosen.meanRegret, 1.0);
    EXPECT_GE(range.chosen.worstRegret, range.chosen.meanRegret);
    if (r > 0) {
      EXPECT_NE(range.chosen.candidate.describe(),
                division.ranges[r - 1].chosen.candidate.describe());
    }
  }
}

/// Every tile the division's copies take ("8x32 packed"), in order.
std::vector<std::string> copiesOf(const CpuLaunchRanges &division) {
  std::vector<std::string> tiles;
  for (const CpuLaunchRange &range : division.ranges)
    if (range.inner)
      for (const CpuLaunchRange &inner : range.inner->ranges)
        tiles.push_back(inner.chosen.candidate.describe());
    else
      tiles.push_back(range.chosen.candidate.describe());
  return tiles;
}

// A GEMM's one tile wastes most of its lanes on a single column, and on a
// single row: the model divides one of M and N, then each range by the
// other, every division covering its values in order.
TEST(CpuLaunchRanges, DividesAGemmsSizes) {
  TargetInfo target = avx512Host();
  CpuCandidate one = oneTileOf(target);
  std::optional<CpuLaunchRanges> division =
      chooseCpuLaunchRanges(3, gemmAt, one, target);
  ASSERT_TRUE(division);
  expectCoversInOrder(*division);
  EXPECT_EQ(division->sampleShapes, kLaunchRangeSamples.size() * 9);
  ASSERT_LT(division->size, 2u) << "a GEMM divided by K";
  size_t other = 1 - division->size;
  for (const CpuLaunchRange &range : division->ranges)
    if (range.inner) {
      EXPECT_EQ(range.inner->size, other);
      expectCoversInOrder(*range.inner);
      // The inner division is over the outer range's sample values.
      EXPECT_LE(range.inner->sampleShapes, division->sampleShapes);
    }
  EXPECT_EQ(division->copies(), copiesOf(*division).size());
  // The lowest range holds a single row or column: its tile is no wider
  // there than the sample.
  const CpuLaunchRange &lowest = division->ranges.front();
  EXPECT_EQ(lowest.chosen.candidate.tile[division->size], 1)
      << lowest.chosen.candidate.describe();
  // The widest range is divided again: its few rows or columns (a
  // decoding step's one token) take a tile that spans one, the rest the
  // one tile.
  ASSERT_TRUE(division->ranges.back().inner);
  const CpuLaunchRanges &manyOuter = *division->ranges.back().inner;
  const CpuLaunchRange &fewInner = manyOuter.ranges.front();
  EXPECT_EQ(fewInner.chosen.candidate.tile[other], 1)
      << fewInner.chosen.candidate.describe();
  EXPECT_EQ(manyOuter.ranges.back().chosen.candidate.describe(),
            one.describe());
  // A refuted tile is taken by no copy (not the one tile: the one the
  // model passes is never refuted).
  std::string refuted = copiesOf(*division).front();
  ASSERT_NE(refuted, one.describe());
  std::optional<CpuLaunchRanges> without = chooseCpuLaunchRanges(
      3, gemmAt, one, target, {},
      [&](const CpuCandidate &c) { return c.describe() != refuted; });
  ASSERT_TRUE(without);
  for (const std::string &tile : copiesOf(*without))
    EXPECT_NE(tile, refuted);
  // Deterministic.
  std::optional<CpuLaunchRanges> again =
      chooseCpuLaunchRanges(3, gemmAt, one, target);
  ASSERT_TRUE(again);
  EXPECT_EQ(copiesOf(*again), copiesOf(*division));
  ASSERT_EQ(again->ranges.size(), division->ranges.size());
  for (size_t r = 0; r < division->ranges.size(); ++r)
    EXPECT_EQ(again->ranges[r].below, division->ranges[r].below);
}

// Where one tile is as good as any division (an element-wise program over
// one extent: every sample's best is the widest vector), nothing is
// divided; nor where the model cannot view a sample.
TEST(CpuLaunchRanges, KeepsOneTileWhereNoDivisionEarnsItsCopies) {
  TargetInfo target = avx512Host();
  auto rows = [](const std::vector<int64_t> &extents) {
    CpuProgram program;
    program.extents = {extents[0]};
    return std::optional<CpuProgram>(program);
  };
  std::vector<CpuProgram> samples;
  for (int64_t extent : kUnboundSizeSamples)
    samples.push_back(*rows({extent}));
  CpuCandidate one =
      rankCpuTilesOverSamples(samples, target, 1).front().candidate;
  std::optional<CpuLaunchRanges> division =
      chooseCpuLaunchRanges(1, rows, one, target);
  if (division) { // (a division earns its copies, but never by a hair)
    EXPECT_LT(division->meanRegret * kLaunchRangeGain,
              division->oneTileMeanRegret);
  }
  auto blind = [](const std::vector<int64_t> &) {
    return std::optional<CpuProgram>();
  };
  EXPECT_FALSE(chooseCpuLaunchRanges(3, blind, oneTileOf(target), target));
  EXPECT_FALSE(chooseCpuLaunchRanges(0, gemmAt, one, target));
}

// The runtime launches a program only where its launch condition holds.
TEST(CpuLaunchRanges, TheRuntimeLaunchesTheCopyWhoseRangeHoldsTheSize) {
  using namespace nautilus::rt;
  LaunchPlan plan;
  plan.kernel = "k";
  plan.sizes = {"N"};
  for (const char *name : {"k_N_below_8", "k_N_from_8", "k_always"}) {
    ProgramDesc p;
    p.name = name;
    p.outputDims = {{"N", 0}};
    p.tile = {4};
    plan.programs.push_back(p);
  }
  plan.programs[0].launchWhen = Requirement{
      "N < 8", SizeExpr::op("lt", {SizeExpr::size("N"), SizeExpr::of(8)})};
  plan.programs[1].launchWhen = Requirement{
      "N >= 8", SizeExpr::op("ge", {SizeExpr::size("N"), SizeExpr::of(8)})};
  static int instances[3];
  std::vector<PackedProgram> programs = {[](void **) { ++instances[0]; },
                                         [](void **) { ++instances[1]; },
                                         [](void **) { ++instances[2]; }};
  // (One thread: each call is one range of instances.)
  for (int64_t n : {5, 8, 40}) {
    std::fill(std::begin(instances), std::end(instances), 0);
    runHostPrograms(plan, {{"N", n}}, {}, programs, /*threads=*/1);
    EXPECT_EQ(instances[0], n < 8 ? 1 : 0) << n;
    EXPECT_EQ(instances[1], n >= 8 ? 1 : 0) << n;
    EXPECT_EQ(instances[2], 1) << n;
  }
  // A condition over a size not given does not hold.
  EXPECT_FALSE(plan.programs[0].launchesAt({}));
  EXPECT_TRUE(plan.programs[2].launchesAt({}));
}
