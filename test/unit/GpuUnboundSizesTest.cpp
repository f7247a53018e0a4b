//===- GpuUnboundSizesTest.cpp - GPU schedules over sample shapes ---------===//
//
// autoscheduler/GpuUnboundSizes: a GPU program without tensor cores, or a
// flash kernel, whose sizes are unbound is ranked over sample shapes
// (each unbound size at 32, 512 and 4096), one schedule for every shape,
// or copies for ranges of a size.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/GpuUnboundSizes.h"

#include <gtest/gtest.h>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// `base` at every sample shape of two unbound sizes: a row reduction's
/// rows and their length, an element-wise program's rows and columns.
std::vector<GpuProgram> samplesOf(const GpuProgram &base) {
  std::vector<GpuProgram> samples;
  for (size_t shape = 0; shape < sampleShapesOf(2); ++shape) {
    GpuProgram p = base;
    int64_t rows = sampleExtentOf(shape, 0, 2);
    int64_t inner = sampleExtentOf(shape, 1, 2);
    p.extents = base.kind == GpuProgramKind::RowReduction
                    ? std::vector<int64_t>{rows}
                    : std::vector<int64_t>{rows, inner};
    p.reduced = base.kind == GpuProgramKind::RowReduction ? inner : 0;
    samples.push_back(p);
  }
  return samples;
}

/// An f32 row reduction (a softmax's row sum), its rows and their length
/// unbound.
std::vector<GpuProgram> rowReductionSamples() {
  GpuProgram p;
  p.kind = GpuProgramKind::RowReduction;
  p.reducedBound = false;
  p.uniqueBytesPerPoint = 4;
  p.bytesPerOutput = 4;
  p.work = 1;
  p.maxVector = 4;
  p.maxReduceThreads = 1024;
  return samplesOf(p);
}

/// An f32 element-wise program over rows x columns, both unbound.
std::vector<GpuProgram> elementwiseSamples() {
  GpuProgram p;
  p.uniqueBytesPerPoint = 4;
  p.bytesPerOutput = 4;
  p.work = 2;
  p.maxVector = 4;
  return samplesOf(p);
}

} // namespace

// The ranking is by the geometric mean of the regrets, then the worst
// (each to a ten-thousandth);
// every candidate is unsplit, of power-of-two tiles, and fits the target
// at every sample; the best's regrets are at least 1, and each regret
// is the candidate's time over the best's at that sample.
TEST(GpuUnboundSizes, RanksByRegretsOverEverySample) {
  TargetInfo target = *getTarget("sm_90");
  for (const std::vector<GpuProgram> &samples :
       {rowReductionSamples(), elementwiseSamples()}) {
    std::vector<double> bestUs;
    std::vector<GpuSampledCandidate> ranked =
        rankGpuOverSamples(samples, target, 0, &bestUs);
    ASSERT_FALSE(ranked.empty());
    ASSERT_EQ(bestUs.size(), samples.size());
    for (size_t i = 0; i < ranked.size(); ++i) {
      const GpuSampledCandidate &r = ranked[i];
      SCOPED_TRACE(r.candidate.describe());
      EXPECT_EQ(r.candidate.split, 1);
      EXPECT_TRUE(isPowerOfTwoTile(r.candidate.tile));
      for (const GpuProgram &sample : samples)
        EXPECT_TRUE(fitsGpuTarget(sample, r.candidate, target));
      EXPECT_GE(r.regrets.mean, 1 - 1e-9);
      EXPECT_GE(r.regrets.worst, r.regrets.mean - 1e-9);
      // (Regrets equal to a ten-thousandth are ties.)
      if (i > 0)
        EXPECT_GE(r.regrets.mean, ranked[i - 1].regrets.mean - 1e-4);
      double worstSampleUs =
          estimateGpu(samples[r.regrets.worstSample], r.candidate, target)
              .totalUs;
      EXPECT_NEAR(worstSampleUs / bestUs[r.regrets.worstSample],
                  r.regrets.worst, 1e-6);
    }
    // What sampledGpuCandidate says of the first is what the ranking did.
    GpuSampledCandidate again =
        sampledGpuCandidate(samples, bestUs, ranked.front().candidate, target);
    EXPECT_DOUBLE_EQ(again.regrets.mean, ranked.front().regrets.mean);
    EXPECT_DOUBLE_EQ(again.atLargest.totalUs, ranked.front().atLargest.totalUs);
  }
}

// Rows of unbound length: one thread a row (what the heuristics give a
// reduction without its sizes) leaves rows of 4096 to a thread each, far
// behind groups that share them; the choice shares each row, and keeps
// a tile larger than the smallest sample's rows (32), which that
// sample's own space does not offer, where it pays elsewhere.
TEST(GpuUnboundSizes, RowsOfUnboundLengthAreShared) {
  TargetInfo target = *getTarget("sm_90");
  std::vector<GpuProgram> samples = rowReductionSamples();
  std::vector<double> bestUs;
  std::vector<GpuSampledCandidate> ranked =
      rankGpuOverSamples(samples, target, 0, &bestUs);
  ASSERT_FALSE(ranked.empty());
  EXPECT_GT(ranked.front().candidate.reduceThreads, 1);
  GpuCandidate alone;
  alone.tile = {64};
  alone.threads = 64;
  GpuSampledCandidate heuristics =
      sampledGpuCandidate(samples, bestUs, alone, target);
  EXPECT_GT(heuristics.regrets.mean, 4 * ranked.front().regrets.mean);
  EXPECT_GT(heuristics.regrets.worst, 10.0);
  // Deterministic: the same samples give the same ranking.
  std::vector<GpuSampledCandidate> again = rankGpuOverSamples(samples, target);
  ASSERT_EQ(again.size(), ranked.size());
  for (size_t i = 0; i < ranked.size(); ++i)
    EXPECT_EQ(again[i].candidate, ranked[i].candidate);
  // At most `keep`.
  EXPECT_EQ(rankGpuOverSamples(samples, target, 3).size(), 3u);
}

// A swept row reduction keeps its rows in registers only over a bound
// length (the lowering unrolls its points): at a sample of an unbound
// length its sweep reads them again.
TEST(GpuUnboundSizes, UnboundRowsAreNotKeptInRegisters) {
  TargetInfo target = *getTarget("sm_90");
  GpuProgram swept = rowReductionSamples()[4]; // 512 rows of 512
  swept.bytesPerOutput = 0;
  swept.sweep = GpuProgram::Sweep{/*loadsPerPoint=*/1,
                                  /*rereadBytesPerPoint=*/4,
                                  /*uniqueBytesPerPoint=*/0,
                                  /*storeBytesPerPoint=*/4,
                                  /*work=*/3,
                                  /*specialFunctions=*/1,
                                  /*keptLoadsPerPoint=*/1,
                                  /*keptBytesPerPoint=*/4};
  GpuCandidate shares;
  shares.tile = {8};
  shares.threads = 1024;
  shares.reduceThreads = 128;
  shares.vector = 4;
  GpuProgram bound = swept;
  bound.reducedBound = true;
  EXPECT_EQ(estimateGpu(bound, shares, target).sweepRereads, "registers");
  EXPECT_NE(estimateGpu(swept, shares, target).sweepRereads, "registers");
}

// A flash kernel (D = 128 bound; heads, queries and keys unbound): its
// candidates are unsplit, one head a tile, every one of the bound space's
// (whose limits are the head dimension's), and ranked by their regrets.
TEST(GpuUnboundSizes, FlashKernelsOverSamples) {
  TargetInfo target = *getTarget("sm_90");
  std::vector<FlashProblem> samples;
  for (size_t shape = 0; shape < sampleShapesOf(3); ++shape) {
    FlashProblem p;
    p.heads = sampleExtentOf(shape, 0, 3);
    p.queries = sampleExtentOf(shape, 1, 3);
    p.keys = sampleExtentOf(shape, 2, 3);
    p.headDim = 128;
    p.wgmmaAllowed = true;
    samples.push_back(p);
  }
  std::vector<double> bestUs;
  std::vector<FlashSampledCandidate> ranked =
      rankFlashOverSamples(samples, target, 0, &bestUs);
  ASSERT_FALSE(ranked.empty());
  EXPECT_EQ(ranked.size(), flashSpace(samples.back(), target).size());
  for (size_t i = 0; i < ranked.size(); ++i) {
    SCOPED_TRACE(ranked[i].candidate.describe());
    EXPECT_EQ(ranked[i].candidate.split, 1);
    EXPECT_EQ(ranked[i].candidate.heads, 1);
    EXPECT_GE(ranked[i].regrets.mean, 1 - 1e-9);
    if (i > 0)
      EXPECT_GE(ranked[i].regrets.mean, ranked[i - 1].regrets.mean - 1e-4);
  }
  // Short sequences fill few of a 128-row tile's rows: the one schedule
  // takes 64 (wgmma on sm_90), ahead of 128 rows over the samples.
  EXPECT_TRUE(ranked.front().candidate.wgmma);
  EXPECT_EQ(ranked.front().candidate.rows(), 64);
  FlashCandidate rows128{/*wgmma=*/true, /*warps=*/8};
  FlashSampledCandidate wide =
      sampledFlashCandidate(samples, bestUs, rows128, target);
  EXPECT_GT(wide.regrets.mean, ranked.front().regrets.mean);
}

// Rows of 32 and of 4096 want different groups (on sm_80): a division
// (chooseGpuLaunchRanges) of one of the sizes into ranges, each with its
// own schedule, closer to the best over the division's samples than the
// one schedule; ranges in order, the last open, every range's schedule
// one a program over unbound sizes may take.
TEST(GpuUnboundSizes, LaunchRangesDivideASize) {
  TargetInfo target = *getTarget("sm_80");
  std::vector<GpuProgram> samples = rowReductionSamples();
  GpuProgram base = samples.front();
  std::vector<GpuSampledCandidate> ranked = rankGpuOverSamples(samples, target);
  ASSERT_FALSE(ranked.empty());
  auto programAt = [&](const std::vector<int64_t> &extents) {
    GpuProgram p = base;
    p.extents = {extents[0]};
    p.reduced = extents[1];
    return std::optional<GpuProgram>(p);
  };
  std::optional<GpuLaunchRanges> ranges =
      chooseGpuLaunchRanges(2, programAt, ranked.front().candidate, target);
  ASSERT_TRUE(ranges);
  const LaunchRanges &division = ranges->division;
  ASSERT_GE(division.ranges.size(), 2u);
  EXPECT_LT(division.meanRegret, division.oneTileMeanRegret);
  EXPECT_EQ(division.ranges.front().atLeast, 0);
  EXPECT_FALSE(division.ranges.back().below);
  for (size_t r = 0; r + 1 < division.ranges.size(); ++r)
    EXPECT_EQ(division.ranges[r].below, division.ranges[r + 1].atLeast);
  for (const GpuCandidate &c : ranges->candidates) {
    EXPECT_EQ(c.split, 1);
    EXPECT_TRUE(isPowerOfTwoTile(c.tile));
  }
  // A refuted schedule is no range's; more than three sizes, no division.
  const GpuCandidate &first =
      ranges->candidates[division.ranges.front().candidate];
  std::optional<GpuLaunchRanges> without = chooseGpuLaunchRanges(
      2, programAt, ranked.front().candidate, target,
      [&](const GpuCandidate &c) { return !(c == first); });
  if (without)
    for (const LaunchRange &range : without->division.ranges)
      EXPECT_FALSE(without->candidates[range.candidate] == first);
  EXPECT_FALSE(chooseGpuLaunchRanges(kMostGpuLaunchRangeSizes + 1, programAt,
                                     ranked.front().candidate, target));
}

// A decoding step's flash kernel (one query, 8 heads a batch, D = 64
// bound; B and M unbound): few heads over many keys leave most of the
// multiprocessors idle unsplit, so the division (chooseFlashLaunchRanges)
// gives small batches and long sequences a copy that splits the keys, and
// large batches an unsplit one. Without splits allowed, no range splits.
TEST(GpuUnboundSizes, FlashLaunchRangesSplitFewHeads) {
  TargetInfo target = *getTarget("sm_90");
  auto problemAt = [](const std::vector<int64_t> &extents) {
    FlashProblem p;
    p.heads = 8 * extents[0];
    p.queries = 1;
    p.keys = extents[1];
    p.headDim = 64;
    p.wgmmaAllowed = true;
    for (int64_t split = 2; split <= 32 && p.keys / split >= 256; split *= 2)
      p.splits.push_back(split);
    return std::optional<FlashProblem>(p);
  };
  FlashCandidate one{/*wgmma=*/false, /*warps=*/1, /*keyBlock=*/32};
  std::optional<FlashLaunchRanges> ranges =
      chooseFlashLaunchRanges(2, problemAt, one, target);
  ASSERT_TRUE(ranges);
  const LaunchRanges &division = ranges->division;
  EXPECT_LT(division.meanRegret, division.oneTileMeanRegret);
  // The split copy: one B has few heads (at most 8 a batch of 16 x 8 =
  // 128 programs unsplit), many keys.
  auto splits = [&](size_t candidate) {
    return ranges->candidates[candidate].split > 1;
  };
  std::optional<int64_t> fewestHeads = division.ranges.front().below;
  ASSERT_EQ(division.size, 0u); // B
  ASSERT_TRUE(fewestHeads);
  EXPECT_LE(*fewestHeads, 16);
  const LaunchRange &few = division.ranges.front();
  ASSERT_TRUE(few.inner);
  EXPECT_EQ(few.inner->size, 1u); // M
  EXPECT_FALSE(splits(few.inner->ranges.front().candidate));
  EXPECT_TRUE(splits(few.inner->ranges.back().candidate));
  EXPECT_FALSE(splits(division.ranges.back().candidate));
  for (const FlashCandidate &c : ranges->candidates)
    EXPECT_EQ(c.heads, 1);
  std::optional<FlashLaunchRanges> unsplit = chooseFlashLaunchRanges(
      2, problemAt, one, target,
      [](const FlashCandidate &c) { return c.split == 1; });
  if (unsplit)
    for (const LaunchRange &range : unsplit->division.ranges) {
      EXPECT_EQ(unsplit->candidates[range.candidate].split, 1);
      if (range.inner)
        for (const LaunchRange &inner : range.inner->ranges)
          EXPECT_EQ(unsplit->candidates[inner.candidate].split, 1);
    }
  EXPECT_FALSE(chooseFlashLaunchRanges(kMostGpuLaunchRangeSizes + 1, problemAt,
                                       one, target));
}
