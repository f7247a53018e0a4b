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

/// An f32 GEMM with M, N and K at `extents`, its rhs packable.
std::optional<CpuProgram> gemmAt(const std::vector<int64_t> &extents) {
  CpuProgram gemm;
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

// A GEMM's one tile wastes most of its lanes on a single column: the
// model divides a size, and the division's ranges cover every value in
// order, each with its own tile, at a mean regret below the one tile's
// by more than each extra copy's toll.
TEST(CpuLaunchRanges, DividesAGemmsSize) {
  TargetInfo target = avx512Host();
  CpuCandidate one = oneTileOf(target);
  std::optional<CpuLaunchRanges> division =
      chooseCpuLaunchRanges(3, gemmAt, one, target);
  ASSERT_TRUE(division);
  ASSERT_GE(division->ranges.size(), 2u);
  ASSERT_LE(division->ranges.size(), kMostLaunchRanges);
  EXPECT_LT(division->size, 3u);
  EXPECT_EQ(division->sampleShapes, kLaunchRangeSamples.size() * 9);
  EXPECT_LT(division->meanRegret *
                std::pow(kLaunchRangeGain, division->ranges.size() - 1),
            division->oneTileMeanRegret);
  int64_t next = 0;
  for (size_t r = 0; r < division->ranges.size(); ++r) {
    const CpuLaunchRange &range = division->ranges[r];
    EXPECT_EQ(range.atLeast, next);
    EXPECT_EQ(range.below.has_value(), r + 1 < division->ranges.size());
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
    if (r > 0)
      EXPECT_NE(range.chosen.candidate.describe(),
                division->ranges[r - 1].chosen.candidate.describe());
  }
  // The lowest range holds a single row or column (M or N, output
  // dimensions 0 and 1): its tile is no wider there than the sample.
  ASSERT_LT(division->size, 2u) << "a GEMM divided by K";
  const CpuLaunchRange &lowest = division->ranges.front();
  EXPECT_EQ(lowest.chosen.candidate.tile[division->size], 1)
      << lowest.chosen.candidate.describe();
  // A refuted tile is taken by no range.
  std::string lowestTile = lowest.chosen.candidate.describe();
  std::optional<CpuLaunchRanges> without = chooseCpuLaunchRanges(
      3, gemmAt, one, target, {},
      [&](const CpuCandidate &c) { return c.describe() != lowestTile; });
  ASSERT_TRUE(without);
  for (const CpuLaunchRange &range : without->ranges)
    EXPECT_NE(range.chosen.candidate.describe(), lowestTile);
  // Deterministic.
  std::optional<CpuLaunchRanges> again =
      chooseCpuLaunchRanges(3, gemmAt, one, target);
  ASSERT_TRUE(again);
  ASSERT_EQ(again->ranges.size(), division->ranges.size());
  for (size_t r = 0; r < division->ranges.size(); ++r) {
    EXPECT_EQ(again->ranges[r].below, division->ranges[r].below);
    EXPECT_EQ(again->ranges[r].chosen.candidate.describe(),
              division->ranges[r].chosen.candidate.describe());
  }
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
  if (division) // (a division earns its copies, but never by a hair)
    EXPECT_LT(division->meanRegret * kLaunchRangeGain,
              division->oneTileMeanRegret);
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
