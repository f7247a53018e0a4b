//===- GpuUnboundSizesTest.cpp - GPU schedules over sample shapes ---------===//
//
// autoscheduler/GpuUnboundSizes: a GPU program without tensor cores whose
// sizes are unbound is ranked over sample shapes (each unbound size at
// 32, 512 and 4096), one schedule for every shape.
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
