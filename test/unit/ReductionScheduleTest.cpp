//===- ReductionScheduleTest.cpp - the default schedule of a reduction ----===//
#include "compiler/Schedule/Heuristics.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

struct ReductionSchedule : testing::Test {
  ReductionSchedule() { ctx.loadDialect<tile::TileDialect>(); }
  tile::ScheduleAttr of(std::vector<std::optional<int64_t>> extents,
                        std::optional<int64_t> reduced,
                        ReductionShape shape = ReductionShape::Rows,
                        const char *target = "sm_90") {
    return defaultReductionSchedule(&ctx, extents, reduced, shape,
                                    *getTarget(target));
  }
  static int64_t programs(tile::ScheduleAttr s,
                          const std::vector<std::optional<int64_t>> &extents) {
    int64_t n = 1;
    for (size_t d = 0; d < extents.size(); ++d)
      n *= (*extents[d] + s.getTile()[d] - 1) / s.getTile()[d];
    return n;
  }
  mlir::MLIRContext ctx;
};

} // namespace

// Over rows and row lengths: groups fill at least a warp and at most a
// block of 256, each thread keeps 8 to 16 iterations of its part (unless
// the row is short), and a split keeps within 4 blocks a multiprocessor
// and 16 iterations a thread.
TEST_F(ReductionSchedule, GroupsAndSplitsStayWithinTheirBounds) {
  int64_t multiprocessors = getTarget("sm_90")->multiprocessors;
  for (int64_t rows : {1, 2, 3, 32, 100, 4096, 100000})
    for (int64_t k : {64, 100, 1000, 4096, 8192, 70001, 131072, 1 << 20}) {
      SCOPED_TRACE(testing::Message() << rows << " rows of " << k);
      std::vector<std::optional<int64_t>> extents = {rows};
      tile::ScheduleAttr s = of(extents, k);
      int64_t r = s.getReduceThreads(), split = s.getReduceSplit();
      ASSERT_GT(r, 1);
      EXPECT_EQ(r & (r - 1), 0);
      EXPECT_EQ(s.getThreads(), s.getNumElements() * r);
      EXPECT_GE(s.getThreads(), 32);
      EXPECT_LE(s.getThreads(), kReductionBlockThreads);
      // Iterations a thread: R is K / 16 rounded up to a power of two (at
      // least 8 each), or a warp for a short row.
      EXPECT_GE(k / r, std::min<int64_t>(k / 32, 8));
      if (split > 1) {
        EXPECT_LE(programs(s, extents) * split,
                  kReductionBlocksPerMultiprocessor * multiprocessors);
        EXPECT_GE(k / split, r * 16);
      }
    }
}

TEST_F(ReductionSchedule, Examples) {
  // A decoding step's norm: one block of 256 for the row of 4096.
  tile::ScheduleAttr norm = of({1}, 4096);
  EXPECT_EQ(norm.getTile().vec(), std::vector<int64_t>{1});
  EXPECT_EQ(norm.getThreads(), 256);
  EXPECT_EQ(norm.getReduceThreads(), 256);
  EXPECT_EQ(norm.getReduceSplit(), 1);
  // A softmax over a vocabulary of 131072: split 32 ways.
  EXPECT_EQ(of({1}, 131072).getReduceSplit(), 32);
  // Attention's row maximum at a decoding step, [B, H, N] = [1, 32, 1]
  // over 8192 keys: a row a block, each row in 2 chunks.
  tile::ScheduleAttr decode = of({1, 32, 1}, 8192);
  EXPECT_EQ(decode.getTile().vec(), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(decode.getReduceThreads(), 256);
  EXPECT_EQ(decode.getReduceSplit(), 2);
  // Many rows fill the machine: no split.
  EXPECT_EQ(of({4096}, 4096).getReduceSplit(), 1);
}

// Columns: interleaved groups over a tile that keeps 32 columns.
TEST_F(ReductionSchedule, Columns) {
  // A pooling over 8192 tokens of 4096 features: tiles of 32 columns (a
  // warp reads 32 consecutive features of a token), groups of 8, and 128
  // programs split 4 ways (512, within 4 a multiprocessor).
  tile::ScheduleAttr pool = of({1, 4096}, 8192, ReductionShape::Columns);
  EXPECT_EQ(pool.getTile().vec(), (std::vector<int64_t>{1, 32}));
  EXPECT_TRUE(pool.getReduceInterleaved());
  EXPECT_EQ(pool.getReduceThreads(), 8);
  EXPECT_EQ(pool.getThreads(), 256);
  EXPECT_EQ(pool.getReduceSplit(), 4);
  // Few columns: one tile of 32 (of the 37) a program, 8 threads each.
  tile::ScheduleAttr narrow = of({37}, 5000, ReductionShape::Columns);
  EXPECT_EQ(narrow.getTile().vec(), std::vector<int64_t>{32});
  EXPECT_EQ(narrow.getThreads(), 256);
  for (int64_t columns : {1, 3, 32, 100, 4096})
    for (int64_t k : {64, 1000, 100000}) {
      tile::ScheduleAttr s = of({columns}, k, ReductionShape::Columns);
      SCOPED_TRACE(testing::Message() << columns << " columns of " << k);
      EXPECT_TRUE(s.getReduceInterleaved());
      EXPECT_EQ(s.getThreads(), s.getNumElements() * s.getReduceThreads());
      EXPECT_LE(s.getThreads(), kReductionBlockThreads);
      EXPECT_GE(s.getThreads(), 32);
      EXPECT_GE(s.getTile().back(), std::min<int64_t>(32, columns));
    }
}

TEST_F(ReductionSchedule, OnlyRowsOrColumnsBoundLongGpuReductions) {
  // Neither rows nor columns (a GEMM), too short, unbound, or the CPU:
  // the plain default, no groups, no split.
  for (tile::ScheduleAttr s :
       {of({37}, 500, ReductionShape::Other), of({37}, 32),
        of({37}, std::nullopt), of({37}, 100000, ReductionShape::Rows, "cpu")}) {
    EXPECT_EQ(s.getReduceThreads(), 1);
    EXPECT_EQ(s.getReduceSplit(), 1);
  }
  // Unbound rows: groups, but no split (the programs are unknown).
  EXPECT_EQ(of({std::nullopt}, 131072).getReduceSplit(), 1);
}
