//===- GpuSpaceTest.cpp - GPU programs without tensor cores: space, model -===//
#include "autoscheduler/GpuSpace.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// An f32 row reduction: `rows` outputs, each folding `columns` contiguous
/// elements (a softmax's row maximum).
GpuProgram rowReduction(int64_t rows, int64_t columns) {
  GpuProgram p;
  p.kind = GpuProgramKind::RowReduction;
  p.extents = {rows};
  p.reduced = columns;
  p.uniqueBytesPerPoint = 4;
  p.bytesPerOutput = 4;
  p.work = 1;
  p.maxVector = 4;
  p.maxReduceThreads = 1024;
  return p;
}

/// An f32 element-wise program over rows x columns reading one operand.
GpuProgram elementwise(int64_t rows, int64_t columns) {
  GpuProgram p;
  p.extents = {rows, columns};
  p.uniqueBytesPerPoint = 4;
  p.bytesPerOutput = 4;
  p.work = 2;
  p.maxVector = 4;
  return p;
}

GpuCandidate candidate(std::vector<int64_t> tile, int64_t threads,
                       int64_t groups = 1, int64_t vector = 1,
                       int64_t split = 1) {
  GpuCandidate c;
  c.tile = std::move(tile);
  c.threads = threads;
  c.reduceThreads = groups;
  c.vector = vector;
  c.split = split;
  return c;
}

} // namespace

// Every candidate is a schedule the lowering takes: threads a power of two
// within a block, groups dividing them, at least one element a thread,
// runs dividing what a thread holds, registers within a thread's.
TEST(GpuSpace, CandidatesRespectTheTargetsLimits) {
  for (const char *name : {"sm_80", "sm_90", "gfx90a", "gfx942"}) {
    TargetInfo target = *getTarget(name);
    for (const GpuProgram &p :
         {rowReduction(4096, 1000), rowReduction(3, 50000),
          elementwise(37, 1000), elementwise(4096, 4096)}) {
      std::vector<GpuCandidate> space = gpuSpace(p, target);
      ASSERT_FALSE(space.empty()) << name;
      for (const GpuCandidate &c : space) {
        SCOPED_TRACE(std::string(name) + ": " + c.describe());
        int64_t elements = 1;
        for (int64_t t : c.tile)
          elements *= t;
        EXPECT_LE(c.threads, target.maxThreadsPerProgram);
        EXPECT_EQ(c.threads % c.reduceThreads, 0);
        int64_t groups = c.threads / c.reduceThreads;
        EXPECT_GE(elements, groups);
        EXPECT_LE(c.vector, p.maxVector);
        if (p.kind == GpuProgramKind::Elementwise) {
          // Runs of a tile's row, in what each thread holds.
          EXPECT_EQ((elements / groups) % c.vector, 0);
          EXPECT_EQ(c.tile.back() % c.vector, 0);
        } else if (c.vector > 1) {
          // Runs of a shared row's iterations: one output a group.
          EXPECT_GT(c.reduceThreads, 1);
          EXPECT_EQ(elements, groups);
        }
        EXPECT_LE(estimateGpu(p, c, target).registers,
                  target.maxRegistersPerThread);
      }
    }
  }
}

// A long row read by one thread each (no groups) touches a sector a lane;
// groups of a warp read it coalesced, and runs of 16 bytes in a quarter of
// the instructions: each is predicted faster than the last.
TEST(GpuCostModel, CoalescedGroupsAndRunsBeatThreadsAlone) {
  TargetInfo target = *getTarget("sm_90");
  GpuProgram p = rowReduction(8192, 4096);
  GpuCost alone = estimateGpu(p, candidate({256}, 256), target);
  GpuCost groups = estimateGpu(p, candidate({8}, 256, 32), target);
  GpuCost runs = estimateGpu(p, candidate({8}, 256, 32, 4), target);
  EXPECT_GT(alone.cacheUs, 4 * groups.cacheUs);
  EXPECT_LT(groups.totalUs, alone.totalUs);
  EXPECT_LT(runs.computeUs, groups.computeUs);
  EXPECT_LE(runs.totalUs, groups.totalUs);
}

// Few rows of many elements: without a split the programs leave most
// multiprocessors idle; the model splits where the program allows it.
TEST(GpuCostModel, SplitsFewLongRowsWhereAllowed) {
  TargetInfo target = *getTarget("sm_80");
  GpuProgram p = rowReduction(4, 1 << 20);
  std::vector<RankedGpuCandidate> unsplit = rankGpuSchedules(p, target, 1);
  ASSERT_EQ(unsplit.size(), 1u);
  EXPECT_EQ(unsplit[0].candidate.split, 1);
  p.splits = {1, 2, 4, 8, 16, 32};
  std::vector<RankedGpuCandidate> split = rankGpuSchedules(p, target, 1);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_GT(split[0].candidate.split, 1);
  EXPECT_LT(split[0].cost.totalUs, 0.5 * unsplit[0].cost.totalUs);
  // Many rows fill the machine already: a split only adds its second
  // program.
  GpuProgram many = rowReduction(65536, 1024);
  many.splits = p.splits;
  EXPECT_EQ(rankGpuSchedules(many, target, 1)[0].candidate.split, 1);
}

// An element-wise program's warps should read whole sectors: a tile one
// element wide makes each warp touch 32 rows' sectors, 4 bytes used of
// each 32, against 4 sectors for a tile a warp's width wide.
TEST(GpuCostModel, NarrowTilesWasteSectors) {
  TargetInfo target = *getTarget("sm_90");
  GpuProgram p = elementwise(8192, 8192);
  GpuCost narrow = estimateGpu(p, candidate({256, 1}, 256), target);
  GpuCost wide = estimateGpu(p, candidate({1, 256}, 256), target);
  EXPECT_NEAR(narrow.cacheUs, 8 * wide.cacheUs, 0.01 * narrow.cacheUs);
  EXPECT_LE(wide.totalUs, narrow.totalUs);
}

// More bytes cost more; the model is deterministic; the ranking holds the
// model's optimum first (exhaustive: the space is a few hundred).
TEST(GpuCostModel, GrowsWithBytesAndRanksDeterministically) {
  TargetInfo target = *getTarget("sm_90");
  GpuProgram small = elementwise(1024, 1024), large = elementwise(8192, 8192);
  GpuCandidate c = candidate({16, 64}, 128, 1, 4);
  EXPECT_LT(estimateGpu(small, c, target).memoryUs,
            estimateGpu(large, c, target).memoryUs);
  size_t size = 0;
  std::vector<RankedGpuCandidate> first =
      rankGpuSchedules(large, target, 0, &size);
  std::vector<RankedGpuCandidate> again = rankGpuSchedules(large, target);
  ASSERT_EQ(first.size(), size);
  ASSERT_EQ(first.size(), again.size());
  for (size_t i = 0; i < first.size(); ++i)
    EXPECT_TRUE(first[i].candidate == again[i].candidate) << i;
  double best = first.front().cost.totalUs;
  for (const RankedGpuCandidate &r : first)
    EXPECT_GE(r.cost.totalUs, best - 0.005);
}

// Each target's constants enter the model: the same program on MI300X
// (5.3 TB/s) is predicted faster than on MI250X's die (1.6 TB/s), and an
// H200 faster than an A100.
TEST(GpuCostModel, ReadsTheTargetsBandwidth) {
  GpuProgram p = elementwise(8192, 8192);
  auto best = [&](const char *name) {
    return rankGpuSchedules(p, *getTarget(name), 1)[0].cost.totalUs;
  };
  EXPECT_LT(best("gfx942"), best("gfx90a"));
  EXPECT_LT(best("sm_90"), best("sm_80"));
}

// A row reduction that sweeps its rows again to write a softmax's Y
// (tile-sweep-row-consumers). Where each thread's points of its rows fit
// in kMaxHeldRowBytes it keeps them in registers (HeldRows.h): the sweep
// loads nothing again, the program moves X and Y once, less than the
// reduction and a separate element-wise program over the same rows (X
// twice), and the kept points cost registers. Where they do not, its
// re-reads come from L1 where the rows a multiprocessor's resident
// programs hold fit in half of it (X and Y once too); where those do not
// fit, X comes from DRAM again.
TEST(GpuCostModel, SweptRowsKeptInRegistersOrReadAgain) {
  TargetInfo target = *getTarget("sm_90");
  auto sweptOf = [](GpuProgram rows) {
    rows.bytesPerOutput = 0; // its results stay in registers
    GpuProgram swept = rows;
    swept.sweep = GpuProgram::Sweep{/*loadsPerPoint=*/1,
                                    /*rereadBytesPerPoint=*/4,
                                    /*uniqueBytesPerPoint=*/0,
                                    /*storeBytesPerPoint=*/4,
                                    /*work=*/3,
                                    /*specialFunctions=*/1,
                                    /*keptLoadsPerPoint=*/1,
                                    /*keptBytesPerPoint=*/4};
    return std::pair(rows, swept);
  };
  auto [rows, swept] = sweptOf(rowReduction(4096, 1024));
  // 128 threads a row in runs of 4: 8 points a thread, 32 bytes.
  GpuCandidate keeps = candidate({8}, 1024, 128, 4);
  GpuCost kept = estimateGpu(swept, keeps, target);
  GpuCost reduction = estimateGpu(rows, keeps, target);
  EXPECT_EQ(kept.sweepRereads, "registers");
  EXPECT_EQ(reduction.sweepRereads, "");
  EXPECT_NEAR(kept.memoryUs, 2 * reduction.memoryUs, 0.05 * kept.memoryUs);
  EXPECT_GT(kept.registers, reduction.registers);
  // The same schedule reading its rows again (nothing it may keep): more
  // L1 sectors, fewer registers.
  GpuProgram rereads = swept;
  rereads.sweep->keptLoadsPerPoint = rereads.sweep->keptBytesPerPoint = 0;
  GpuCost again = estimateGpu(rereads, keeps, target);
  EXPECT_EQ(again.sweepRereads, "L1");
  EXPECT_GT(again.cacheUs, kept.cacheUs);
  EXPECT_LT(again.registers, kept.registers);
  GpuCost apart = estimateGpu(elementwise(4096, 1024),
                              candidate({16, 64}, 128, 1, 4), target);
  EXPECT_LT(kept.totalUs, reduction.totalUs + apart.totalUs);
  // 8 threads a row: 128 points a thread, 512 bytes, read again. 2048
  // rows: 8 a program, 2 programs a multiprocessor, 64 KiB.
  auto [fewerRows, fewerSwept] = sweptOf(rowReduction(2048, 1024));
  GpuCandidate fits = candidate({8}, 64, 8);
  GpuCost fromL1 = estimateGpu(fewerSwept, fits, target);
  EXPECT_EQ(fromL1.sweepRereads, "L1");
  EXPECT_NEAR(fromL1.memoryUs,
              2 * estimateGpu(fewerRows, fits, target).memoryUs,
              0.05 * fromL1.memoryUs);
  // 4 rows a program, 8 programs a multiprocessor: 128 KiB, past half of
  // its 228 KiB.
  GpuCandidate spills = candidate({4}, 32, 8);
  GpuCost far = estimateGpu(swept, spills, target);
  EXPECT_EQ(far.sweepRereads, "DRAM");
  EXPECT_NEAR(far.memoryUs, 3 * estimateGpu(rows, spills, target).memoryUs,
              0.05 * far.memoryUs);
}
