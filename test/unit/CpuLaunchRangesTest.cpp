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
#include "test/unit/LaunchRangesCheck.h"

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

/// Checks that `division`'s ranges cover every value in order
/// (LaunchRangesCheck.h), each with its own power-of-two tile of `tiles`.
void expectCoversInOrder(const LaunchRanges &division,
                         const CpuLaunchRanges &tiles) {
  nautilus::test::expectRangesInOrder(division);
  for (size_t r = 0; r < division.ranges.size(); ++r) {
    const CpuCandidate &tile = tiles.tileOf(division.ranges[r]);
    for (int64_t t : tile.tile)
      EXPECT_EQ(t & (t - 1), 0) << tile.describe();
    if (r > 0)
      EXPECT_NE(tile.describe(),
                tiles.tileOf(division.ranges[r - 1]).describe());
  }
}

/// Every tile the division's copies take ("8x32 packed"), in order.
std::vector<std::string> copiesOf(const CpuLaunchRanges &ranges) {
  std::vector<std::string> tiles;
  for (const LaunchRange &range : ranges.division.ranges)
    if (range.inner)
      for (const LaunchRange &inner : range.inner->ranges)
        tiles.push_back(ranges.tileOf(inner).describe());
    else
      tiles.push_back(ranges.tileOf(range).describe());
  return tiles;
}

// A GEMM's one tile wastes most of its lanes on a single column, and on a
// single row: the model divides one of M and N, then each range by the
// other, every division covering its values in order.
TEST(CpuLaunchRanges, DividesAGemmsSizes) {
  TargetInfo target = avx512Host();
  CpuCandidate one = oneTileOf(target);
  std::optional<CpuLaunchRanges> ranges =
      chooseCpuLaunchRanges(3, gemmAt, one, target);
  ASSERT_TRUE(ranges);
  const LaunchRanges *division = &ranges->division;
  expectCoversInOrder(*division, *ranges);
  EXPECT_EQ(division->sampleShapes, kLaunchRangeSamples.size() * 9);
  ASSERT_LT(division->size, 2u) << "a GEMM divided by K";
  size_t other = 1 - division->size;
  for (const LaunchRange &range : division->ranges)
    if (range.inner) {
      EXPECT_EQ(range.inner->size, other);
      expectCoversInOrder(*range.inner, *ranges);
      // The inner division is over the outer range's sample values.
      EXPECT_LE(range.inner->sampleShapes, division->sampleShapes);
    }
  EXPECT_EQ(division->copies(), copiesOf(*ranges).size());
  // The lowest range holds a single row or column: its tile is no wider
  // there than the sample.
  const CpuCandidate &lowest = ranges->tileOf(division->ranges.front());
  EXPECT_EQ(lowest.tile[division->size], 1) << lowest.describe();
  // The widest range is divided again: its few rows or columns (a
  // decoding step's one token) take a tile that spans one, the rest the
  // one tile.
  ASSERT_TRUE(division->ranges.back().inner);
  const LaunchRanges &manyOuter = *division->ranges.back().inner;
  const CpuCandidate &fewInner = ranges->tileOf(manyOuter.ranges.front());
  EXPECT_EQ(fewInner.tile[other], 1) << fewInner.describe();
  EXPECT_EQ(ranges->tileOf(manyOuter.ranges.back()).describe(), one.describe());
  // A refuted tile is taken by no copy (not the one tile: the one the
  // model passes is never refuted).
  std::string refuted = copiesOf(*ranges).front();
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
  EXPECT_EQ(copiesOf(*again), copiesOf(*ranges));
  ASSERT_EQ(again->division.ranges.size(), division->ranges.size());
  for (size_t r = 0; r < division->ranges.size(); ++r)
    EXPECT_EQ(again->division.ranges[r].below, division->ranges[r].below);
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
    EXPECT_LT(division->division.meanRegret * kLaunchRangeGain,
              division->division.oneTileMeanRegret);
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
