//===- ScheduleTest.cpp - The schedule heuristics, apart from the lowering ===//
//
// Asks the heuristic provider directly, as the passes do, and checks what it
// decides (as IREE tests its kernel configurations apart from its
// pipelines): the lowering's tests take schedules as given.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/ScheduleFile.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

struct Schedules : testing::Test {
  Schedules() { ctx.loadDialect<tile::TileDialect>(); }

  tile::ScheduleAttr gemm(int64_t m, int64_t n, const char *target,
                          std::optional<int64_t> splittableK = std::nullopt,
                          int64_t multiprocessors = 0) {
    TargetInfo info = *getTarget(target, multiprocessors);
    return heuristicSchedules()->contraction(
        &ctx, 2, ContractionExtents{m, n, 1}, info.hasWgmma(),
        ComputedSides{}, info, splittableK);
  }
  static int64_t tiles(tile::ScheduleAttr s, int64_t m, int64_t n) {
    llvm::ArrayRef<int64_t> t = s.getTile();
    return ((m + t[0] - 1) / t[0]) * ((n + t[1] - 1) / t[1]);
  }
  mlir::MLIRContext ctx;
};

} // namespace

using llvm::ArrayRef;

// A large GEMM takes the widest tiles of each target's instruction: mma.sync
// 128 x 128 with 3 stages on sm_80, wgmma 128 x 256 with 4 on sm_90.
TEST_F(Schedules, LargeGemmTakesEachTargetsWidestTiles) {
  tile::ScheduleAttr a100 = gemm(4096, 4096, "sm_80");
  ASSERT_TRUE(a100.getMma());
  EXPECT_EQ(a100.getMma().getInstr(), "mma_sync");
  EXPECT_EQ(a100.getTile(), ArrayRef<int64_t>({128, 128}));
  EXPECT_EQ(a100.getMma().getStages(), 3);
  tile::ScheduleAttr h100 = gemm(4096, 4096, "sm_90");
  ASSERT_TRUE(h100.getMma());
  EXPECT_EQ(h100.getMma().getInstr(), "wgmma");
  EXPECT_EQ(h100.getTile(), ArrayRef<int64_t>({128, 256}));
  EXPECT_EQ(h100.getMma().getStages(), 4);
}

// A problem too small for a wave of the largest tiles is spread over the
// machine: tiles halve while twice as many still fit in one wave, down to
// the smallest tile of the instruction (32, or 64 for wgmma).
TEST_F(Schedules, SmallProblemsSpreadOverTheMultiprocessors) {
  for (const char *target : {"sm_80", "sm_90"})
    for (int64_t mn : {256, 512, 1024}) {
      SCOPED_TRACE(testing::Message() << target << " " << mn);
      TargetInfo info = *getTarget(target);
      tile::ScheduleAttr s = gemm(mn, mn, target);
      int64_t smallest = info.hasWgmma() ? 64 : 32;
      EXPECT_LE(tiles(s, mn, mn), info.multiprocessors);
      bool atSmallest =
          s.getTile()[0] <= smallest && s.getTile()[1] <= smallest;
      EXPECT_TRUE(atSmallest || 2 * tiles(s, mn, mn) > info.multiprocessors)
          << tiles(s, mn, mn) << " tiles of " << s.getTile()[0] << " x "
          << s.getTile()[1];
    }
}

// With a bound K and too few tiles even at the smallest size, K is split
// into a power of two of chunks whose programs still fit in one wave; the
// multiprocessors the target attribute names are the ones filled.
TEST_F(Schedules, SkinnyProblemsSplitKWithinOneWave) {
  tile::ScheduleAttr s = gemm(128, 128, "sm_90", /*splittableK=*/16384);
  ASSERT_TRUE(s.getMma());
  int64_t split = s.getMma().getSplitK();
  EXPECT_GT(split, 1);
  EXPECT_EQ(split & (split - 1), 0);
  EXPECT_LE(tiles(s, 128, 128) * split, getTarget("sm_90")->multiprocessors);
  tile::ScheduleAttr one = gemm(128, 128, "sm_90", 16384, /*multiprocessors=*/1);
  EXPECT_EQ(one.getMma().getSplitK(), 1);
}

// Elementwise programs: the CPU takes one thread a program; GPUs the
// target's default threads, the innermost dimension widest.
TEST_F(Schedules, ElementwiseSchedulesFollowTheTarget) {
  std::vector<std::optional<int64_t>> extents = {4096, 4096};
  tile::ScheduleAttr cpu =
      heuristicSchedules()->elementwise(&ctx, extents, *getTarget("cpu"));
  EXPECT_EQ(cpu.getThreads(), 1);
  for (const char *target : {"sm_80", "sm_90", "gfx942"}) {
    TargetInfo info = *getTarget(target);
    tile::ScheduleAttr gpu =
        heuristicSchedules()->elementwise(&ctx, extents, info);
    EXPECT_EQ(gpu.getThreads(), info.defaultThreads) << target;
    EXPECT_GE(gpu.getTile().back(), gpu.getTile().front()) << target;
  }
}

// The sum of a split contraction's partials: smaller tiles while fewer
// programs than multiprocessors, the innermost not below a warp's lanes.
TEST_F(Schedules, SplitSumsFillTheMachine) {
  TargetInfo h100 = *getTarget("sm_90");
  std::vector<std::optional<int64_t>> extents = {128, 128};
  tile::ScheduleAttr start =
      heuristicSchedules()->elementwise(&ctx, extents, h100);
  tile::ScheduleAttr sum =
      heuristicSchedules()->splitSum(start, extents, h100);
  EXPECT_GE(sum.getTile().back(), h100.kernelLanes);
  int64_t programs = ((128 + sum.getTile()[0] - 1) / sum.getTile()[0]) *
                     ((128 + sum.getTile()[1] - 1) / sum.getTile()[1]);
  EXPECT_GE(programs, std::min<int64_t>(h100.multiprocessors, 128 * 4));
}

// A schedule file answers only for the programs it names; the heuristics
// answer every question it does not.
TEST_F(Schedules, ScheduleFileDelegatesWhatItDoesNotName) {
  TargetInfo h100 = *getTarget("sm_90");
  auto file = scheduleProviderFor("/nonexistent/schedules.json", h100);
  EXPECT_EQ(file->origin(), "schedule file '/nonexistent/schedules.json'");
  EXPECT_EQ(file->contraction(&ctx, 2, ContractionExtents{4096, 4096, 1},
                              true, ComputedSides{}, h100, std::nullopt),
            gemm(4096, 4096, "sm_90"));
  EXPECT_EQ(scheduleProviderFor("heuristics", h100), heuristicSchedules());
}

// "default" is the target's: the auto-scheduler on the CPU, the
// heuristics on GPUs (as is a request that names none).
TEST_F(Schedules, TheDefaultIsTheTargets) {
  TargetInfo cpu = *getTarget("cpu"), h100 = *getTarget("sm_90");
  EXPECT_EQ(defaultScheduleOn(cpu), "auto");
  EXPECT_EQ(defaultScheduleOn(h100), "heuristics");
  EXPECT_EQ(scheduleProviderFor("default", h100), heuristicSchedules());
  EXPECT_EQ(scheduleProviderFor("", h100), heuristicSchedules());
  for (llvm::StringRef name : {"default", ""}) {
    auto provider = scheduleProviderFor(name, cpu);
    EXPECT_NE(provider, heuristicSchedules());
    EXPECT_EQ(provider->origin(), "the auto-scheduler");
    EXPECT_TRUE(provider->choosesStructure(cpu));
  }
  EXPECT_EQ(scheduleProviderFor("heuristics", cpu), heuristicSchedules());
  EXPECT_FALSE(namesScheduleFile("heuristics"));
  EXPECT_FALSE(namesScheduleFile("default"));
  EXPECT_FALSE(namesScheduleFile(""));
  EXPECT_TRUE(namesScheduleFile("auto.json"));
}

// A lowering that cannot meet a schedule file's schedules is the user's to
// change; one that cannot meet the heuristics' or the auto-scheduler's is
// a bug in the compiler.
TEST_F(Schedules, OnlyAScheduleFilesSchedulesAreTheUsers) {
  TargetInfo cpu = *getTarget("cpu");
  EXPECT_TRUE(scheduleProviderFor("/some/schedules.json", cpu)->isUsers());
  EXPECT_FALSE(scheduleProviderFor("default", cpu)->isUsers());
  EXPECT_FALSE(scheduleProviderFor("heuristics", cpu)->isUsers());
  EXPECT_FALSE(scheduleProviderFor("auto", cpu)->isUsers());
}

TEST(UniformOverTile, GroupedIndicesAreOneValueOverATileThatDividesTheGroup) {
  mlir::MLIRContext ctx;
  mlir::AffineExpr h = mlir::getAffineDimExpr(1, &ctx),
                   b = mlir::getAffineDimExpr(0, &ctx);
  mlir::AffineExpr heads = mlir::getAffineSymbolExpr(1, &ctx),
                   groups = mlir::getAffineSymbolExpr(4, &ctx);
  // K[b, h floordiv (H floordiv G)] at H = 32, G = 8: groups of 4 heads.
  llvm::SmallVector<std::optional<int64_t>> known = {1, 32, 1, 128, 8};
  mlir::AffineExpr grouped = h.floorDiv(heads.floorDiv(groups));
  EXPECT_TRUE(tile::isUniformOverTile(grouped, 1, 4, known));
  EXPECT_TRUE(tile::isUniformOverTile(grouped, 1, 2, known));
  EXPECT_FALSE(tile::isUniformOverTile(grouped, 1, 8, known)); // two groups
  EXPECT_FALSE(tile::isUniformOverTile(grouped, 1, 3, known)); // not aligned
  EXPECT_TRUE(tile::isUniformOverTile(grouped * 7 + b, 1, 4, known));
  EXPECT_TRUE(tile::isUniformOverTile(grouped, 0, 4, known)); // does not read b
  EXPECT_FALSE(tile::isUniformOverTile(h, 1, 4, known));
  EXPECT_TRUE(tile::isUniformOverTile(h, 1, 1, known)); // a one-wide tile
  // (h + 1) floordiv 4 crosses a group inside an aligned tile of 4.
  EXPECT_FALSE(tile::isUniformOverTile((h + 1).floorDiv(4), 1, 4, known));
  // Sizes unknown at compile time: no grouping to rely on.
  llvm::SmallVector<std::optional<int64_t>> unknown(5, std::nullopt);
  EXPECT_FALSE(tile::isUniformOverTile(grouped, 1, 4, unknown));
}

// A producer warpgroup's setmaxnreg: the consumers take no more registers
// than the block's launch count leaves once the producer gave its own
// back (the pool is the block's; more would leave `setmaxnreg.inc`
// waiting forever), multiples of 8.
TEST(RegisterReallocation, ConsumersTakeNoMoreThanTheLaunchLeaves) {
  for (int64_t threads = 256; threads <= 1024; threads += 128) {
    int64_t launch = nautilus::evenRegisterSplit(threads);
    int64_t consumers = nautilus::reallocatedConsumerRegisters(threads);
    EXPECT_LE(128 * nautilus::kProducerRegisters + consumers * (threads - 128),
              launch * threads)
        << threads << " threads";
    EXPECT_EQ(consumers % 8, 0) << threads << " threads";
  }
  EXPECT_EQ(nautilus::reallocatedConsumerRegisters(384), 232);
  EXPECT_EQ(nautilus::reallocatedConsumerRegisters(640), 104);
}
