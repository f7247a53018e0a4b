//===- WarpAccessTest.cpp - Coalescing and bank conflicts from layouts ----===//
#include "autoscheduler/WarpAccess.h"
#include "autoscheduler/CostModel.h"
#include "autoscheduler/FlashSpace.h"
#include "autoscheduler/GpuSpace.h"

#include <gtest/gtest.h>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

GpuCandidate candidate(std::vector<int64_t> tile, int64_t threads,
                       int64_t groups = 1, int64_t vector = 1,
                       bool interleaved = false) {
  GpuCandidate c;
  c.tile = std::move(tile);
  c.threads = threads;
  c.reduceThreads = groups;
  c.vector = vector;
  c.interleaved = interleaved;
  return c;
}

GpuProgram reduction(GpuProgramKind kind, std::vector<int64_t> extents,
                     int64_t reduced) {
  GpuProgram p;
  p.kind = kind;
  p.extents = std::move(extents);
  p.reduced = reduced;
  p.uniqueBytesPerPoint = 4;
  p.work = 1;
  p.maxVector = 4;
  p.maxReduceThreads = 1024;
  return p;
}

WarpAccessCost sectorsOf(const GpuProgram &p, const GpuCandidate &c) {
  return gpuLoadSectors(p, c, *getTarget("sm_80"));
}

} // namespace

// A warp's 4-byte loads of consecutive elements touch 4 sectors; runs of 4
// (16 bytes a lane) 16; either is the fewest for its bytes.
TEST(WarpAccess, ConsecutiveLanesCoalesce) {
  StridedTensor row = StridedTensor::rowMajor({1, 1024}, 4);
  WarpAccessCost scalar =
      globalSectors(layout::rowMajorBlockedLayout({1, 1024}, 256, 1), 1, row);
  EXPECT_EQ(scalar.perInstruction, 4);
  EXPECT_EQ(scalar.excess(), 1);
  WarpAccessCost runs =
      globalSectors(layout::rowMajorBlockedLayout({1, 1024}, 256, 4), 4, row);
  EXPECT_EQ(runs.perInstruction, 16);
  EXPECT_EQ(runs.excess(), 1);
}

// Rows narrower than a sector that lie one after another in memory
// coalesce across rows: a warp over 32 rows of 4 f16 reads 256 contiguous
// bytes, 8 sectors (a formula per row of the tile counted 32).
TEST(WarpAccess, NarrowRowsCoalesceAcrossRows) {
  StridedTensor narrow = StridedTensor::rowMajor({1024, 4}, 2);
  WarpAccessCost cost =
      globalSectors(layout::rowMajorBlockedLayout({64, 4}, 64, 1), 1, narrow);
  EXPECT_EQ(cost.perInstruction, 2);
  WarpAccessCost wide =
      globalSectors(layout::rowMajorBlockedLayout({64, 4}, 32, 4), 4, narrow);
  EXPECT_EQ(wide.perInstruction, 8);
  EXPECT_EQ(wide.excess(), 1);
}

// Lanes beyond the tensor's extent load nothing: of a 128-column tile over
// rows of 104 f32 (416 bytes, 13 sectors), the fourth warp reads 8
// elements, one sector.
TEST(WarpAccess, MaskedLanesTouchNothing) {
  StridedTensor rows = StridedTensor::rowMajor({1000, 104}, 4);
  WarpAccessCost cost =
      globalSectors(layout::rowMajorBlockedLayout({1, 128}, 128, 1), 1, rows);
  EXPECT_EQ(cost.instructions, 4);
  EXPECT_DOUBLE_EQ(cost.perInstruction, (4 + 4 + 4 + 1) / 4.0);
}

// Programs whose rows start at different places within a sector load
// differently: rows of 100 f32 (400 bytes) start on a sector, then half-way
// into one, where each warp's 128 bytes touch 5 sectors and the last 16
// bytes one. Both kinds are sampled, half the programs each.
TEST(WarpAccess, RowsStartingMidSectorCostMore) {
  StridedTensor rows = StridedTensor::rowMajor({1000, 100}, 4);
  WarpAccessCost cost =
      globalSectors(layout::rowMajorBlockedLayout({1, 128}, 128, 1), 1, rows);
  EXPECT_EQ(cost.instructions, 8);
  EXPECT_DOUBLE_EQ(cost.perInstruction,
                   ((4 + 4 + 4 + 1) + (5 + 5 + 5 + 1)) / 8.0);
}

// Runs cut by the rows' end, or in rows that are not a whole number of
// runs, load element by element: rows of 37 f32 never take vectors, so a
// load of runs of 4 is 4 requests.
TEST(WarpAccess, RunsInRaggedRowsLoadElementByElement) {
  StridedTensor whole = StridedTensor::rowMajor({64, 64}, 4);
  EXPECT_EQ(
      globalSectors(layout::rowMajorBlockedLayout({8, 64}, 64, 4), 4, whole)
          .requests,
      1);
  StridedTensor ragged = StridedTensor::rowMajor({64, 37}, 4);
  WarpAccessCost cost =
      globalSectors(layout::rowMajorBlockedLayout({8, 64}, 64, 4), 4, ragged);
  EXPECT_EQ(cost.requests, 4);
  EXPECT_LT(cost.perRequest(), cost.perInstruction);
}

// A row reduction read by a group of 32 threads in runs of 4 coalesces; one
// read a row a thread touches a sector a lane, 8 times the fewest.
TEST(WarpAccess, RowReductionsCoalesceWithinGroups) {
  GpuProgram rows = reduction(GpuProgramKind::RowReduction, {64}, 4096);
  WarpAccessCost grouped = sectorsOf(rows, candidate({1}, 32, 32, 4));
  EXPECT_EQ(grouped.perInstruction, 16);
  EXPECT_EQ(grouped.excess(), 1);
  WarpAccessCost threadARow = sectorsOf(rows, candidate({32}, 32));
  EXPECT_EQ(threadARow.perInstruction, 32);
  EXPECT_EQ(threadARow.excess(), 8);
  // Groups of 8: four rows a warp, 32 bytes of each.
  EXPECT_EQ(sectorsOf(rows, candidate({4}, 32, 8)).perInstruction, 4);
}

// A column reduction's interleaved groups put 32 consecutive columns on a
// warp's lanes; groups of consecutive threads would put 8 rows of 4
// columns there, a sector each, twice the fewest.
TEST(WarpAccess, ColumnReductionsCoalesceWhenInterleaved) {
  GpuProgram columns = reduction(GpuProgramKind::ColumnReduction, {4096}, 1024);
  WarpAccessCost interleaved =
      sectorsOf(columns, candidate({32}, 256, 8, 1, /*interleaved=*/true));
  EXPECT_EQ(interleaved.perInstruction, 4);
  EXPECT_EQ(interleaved.excess(), 1);
  WarpAccessCost blocked = sectorsOf(columns, candidate({32}, 256, 8));
  EXPECT_EQ(blocked.perInstruction, 8);
  EXPECT_EQ(blocked.excess(), 2);
}

// ldmatrix over the lowering's 128-byte swizzle is conflict-free (a
// wavefront a matrix); over unswizzled 128-byte rows each matrix's 8 rows
// fall in the same four banks.
TEST(WarpAccess, LdmatrixConflictsFollowTheSwizzle) {
  for (bool kInnermost : {true, false}) {
    WarpAccessCost swizzled =
        ldmatrixWavefronts(64, 64, 128, kInnermost, /*isLhs=*/kInnermost);
    EXPECT_EQ(swizzled.perInstruction, 4);
    EXPECT_EQ(swizzled.excess(), 1);
    WarpAccessCost plain =
        ldmatrixWavefronts(64, 64, 0, kInnermost, /*isLhs=*/kInnermost);
    EXPECT_EQ(plain.excess(), 8);
  }
  // Rows of 32 bytes (tile_k 16): four rows a bank line, two-way conflicts
  // without a swizzle, none with the 32-byte one.
  EXPECT_EQ(ldmatrixWavefronts(128, 16, 0, true, true).excess(), 2);
  EXPECT_EQ(ldmatrixWavefronts(128, 16, 32, true, true).excess(), 1);
}

// The contraction model reads the stages' swizzle: without one, an mma.sync
// step's shared-memory reads take longer.
TEST(WarpAccess, TheContractionModelPaysForConflicts) {
  TargetInfo sm80 = *getTarget("sm_80");
  ContractionProblem problem;
  problem.m = problem.n = 4096;
  problem.k = 4096;
  ContractionCandidate c;
  c.tileM = c.tileN = 128;
  c.tileK = 64;
  c.warpsM = c.warpsN = 2;
  c.stages = 3;
  CostBreakdown swizzled = estimate(problem, c, sm80);
  c.swizzleBytes = 0;
  CostBreakdown plain = estimate(problem, c, sm80);
  EXPECT_GT(plain.computeUs, 1.3 * swizzled.computeUs)
      << plain.computeUs << " against " << swizzled.computeUs;
}

// The flash model reads its K and V stages' swizzle too: without one, an
// mma.sync kernel's steps at head dimension 128 (256-byte rows) wait on
// conflicted ldmatrix reads; wgmma's stages are the hardware's.
TEST(WarpAccess, TheFlashModelPaysForConflicts) {
  TargetInfo sm80 = *getTarget("sm_80");
  FlashProblem p;
  p.heads = 32;
  p.queries = p.keys = 4096;
  p.headDim = 128;
  FlashCandidate c;
  c.warps = 4;
  c.keyBlock = 64;
  FlashCost swizzled = estimateFlash(p, c, sm80);
  c.swizzleBytes = 0;
  FlashCost plain = estimateFlash(p, c, sm80);
  EXPECT_GT(plain.tensorUs, 2 * swizzled.tensorUs)
      << plain.tensorUs << " against " << swizzled.tensorUs;
  EXPECT_EQ(c.describe(), "mma_sync 64 rows, keys 64, swizzle 0");
}
