//===- CpuBlockingTest.cpp - A packed contraction's reduction in blocks ---===//
//
// The CPU model's view of `reduce_block` (autoscheduler/CpuSpace.cpp): a
// packed panel beyond the quarter of L2 it counts on is read partly from
// beyond, blocks whose panels fit are offered where the program can fold
// in them, and which programs can (tile::reductionBlockRefusal, read by
// cpuProgramOf).
//
//===----------------------------------------------------------------------===//
#include "CpuModelHost.h"
#include "autoscheduler/CpuSpace.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "dialects/Tile/Utils/PackedPanel.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

using namespace nautilus;
using namespace nautilus::autosched;
using nautilus::test::avx512Host;

namespace {

CpuProgram blockableGemm(int64_t m, int64_t n, int64_t k) {
  CpuProgram gemm;
  gemm.extents = {m, n};
  gemm.reduced = k;
  gemm.contraction = true;
  gemm.packable = true;
  gemm.blockable = true;
  return gemm;
}

/// A packed panel's bytes: `rows` rows of a tile `width` f32 wide.
int64_t panelBytes(int64_t rows, int64_t width) { return rows * width * 4; }

} // namespace

// A panel of K rows beyond a quarter of L2 is blocked, into the longest
// blocks whose panels fit (the unit tests' host: 1 MiB of L2); a panel
// that fits is not.
TEST(CpuBlocking, BlocksAPanelBeyondItsShareOfL2) {
  TargetInfo target = avx512Host();
  int64_t share = target.l2Bytes / 4;
  std::vector<CpuCandidate> deep =
      rankCpuTiles(blockableGemm(1024, 1024, 8192), target);
  ASSERT_FALSE(deep.empty());
  const CpuCandidate &best = deep.front();
  EXPECT_TRUE(best.pack) << best.describe();
  ASSERT_GT(best.reduceBlock, 0) << best.describe();
  EXPECT_LE(panelBytes(best.reduceBlock, best.tile.back()), share)
      << best.describe();
  EXPECT_GT(panelBytes(2 * best.reduceBlock, best.tile.back()), share)
      << best.describe();
  // The same tile unblocked reads its 2 MiB panel mostly from beyond L2.
  CpuProgram program = blockableGemm(1024, 1024, 8192);
  CpuCost blocked = estimateCpu(program, best.tile, target, /*pack=*/true, {},
                                1, best.reduceBlock);
  CpuCost whole = estimateCpu(program, best.tile, target, /*pack=*/true);
  EXPECT_GT(whole.memoryUs, blocked.memoryUs * 1.2);
  EXPECT_LT(blocked.totalUs, whole.totalUs);
  // 512^3: the panel (512 rows) fits; blocks would only add their cost.
  std::vector<CpuCandidate> small =
      rankCpuTiles(blockableGemm(512, 512, 512), target);
  ASSERT_FALSE(small.empty());
  EXPECT_EQ(small.front().reduceBlock, 0) << small.front().describe();
}

// Blocks are offered only where the program folds in them, and shorter
// than its reduction; each is named in the candidate's description.
TEST(CpuBlocking, OffersBlocksWhereTheProgramFoldsInThem) {
  TargetInfo target = avx512Host();
  CpuProgram unblockable = blockableGemm(1024, 1024, 8192);
  unblockable.blockable = false;
  for (const CpuCandidate &c : rankCpuTiles(unblockable, target))
    EXPECT_EQ(c.reduceBlock, 0) << c.describe();
  for (const CpuCandidate &c :
       rankCpuTiles(blockableGemm(256, 256, 512), target))
    EXPECT_EQ(c.reduceBlock, 0) << c.describe();
  std::vector<CpuCandidate> all =
      rankCpuTiles(blockableGemm(1024, 1024, 8192), target);
  EXPECT_TRUE(llvm::all_of(all, [](const CpuCandidate &c) {
    return !c.reduceBlock || (c.pack && c.reduceBlock < 8192);
  }));
  CpuCandidate named{{6, 64}, {}, true, 1, 2048};
  EXPECT_EQ(named.describe(), "6x64 packed in k blocks of 2048");
  CpuCandidate same = named;
  EXPECT_TRUE(named.sameSchedule(same));
  same.reduceBlock = 1024;
  EXPECT_FALSE(named.sameSchedule(same));
}

// A broadcast operand read across its rows (A[k, m], rows a page or more
// apart) takes short blocks, whose rows of A the instances down a column
// share in the L1 cache and its TLB; where it is read along k, no block
// that short is offered.
TEST(CpuBlocking, AnLhsReadAcrossItsRowsTakesShortBlocks) {
  TargetInfo target = avx512Host();
  CpuProgram transposed = blockableGemm(2048, 2048, 2048);
  transposed.lhsStrideBytes = 2048 * 4;
  std::vector<CpuCandidate> ranked = rankCpuTiles(transposed, target);
  ASSERT_FALSE(ranked.empty());
  EXPECT_TRUE(ranked.front().pack) << ranked.front().describe();
  EXPECT_GT(ranked.front().reduceBlock, 0) << ranked.front().describe();
  EXPECT_LE(ranked.front().reduceBlock, 256) << ranked.front().describe();
  std::vector<int64_t> tile = ranked.front().tile;
  EXPECT_LT(estimateCpu(transposed, tile, target, true, {}, 1, 32).totalUs,
            estimateCpu(transposed, tile, target, true, {}, 1, 1024).totalUs);
  EXPECT_GT(estimateCpu(transposed, tile, target, true).totalUs,
            1.5 * ranked.front().cost.totalUs);
  for (const CpuCandidate &c :
       rankCpuTiles(blockableGemm(2048, 2048, 2048), target))
    EXPECT_TRUE(c.reduceBlock == 0 || c.reduceBlock >= 512) << c.describe();
}

// The wait of an lhs read across its rows grows with the bytes of A a
// block spans (its rows x their stride), so rows 2 KiB apart take short
// blocks too (512 x 512 x 8192 A^T B ran 1.9x slower in blocks of 2048
// than of 64, model version 14's choice), and the same span waits the
// same at 8 KiB and 2 KiB strides; rows closer than 2 KiB wait less, a
// block of the same span.
TEST(CpuBlocking, TheStridedLhsWaitGrowsWithTheBlocksSpan) {
  TargetInfo target = avx512Host();
  CpuProgram deep = blockableGemm(512, 512, 8192);
  deep.lhsStrideBytes = 512 * 4;
  std::vector<CpuCandidate> ranked = rankCpuTiles(deep, target);
  ASSERT_FALSE(ranked.empty());
  EXPECT_GT(ranked.front().reduceBlock, 0) << ranked.front().describe();
  EXPECT_LE(ranked.front().reduceBlock, 256) << ranked.front().describe();

  std::vector<int64_t> tile{6, 64};
  auto waitOf = [&](int64_t stride, int64_t block) {
    CpuProgram strided = blockableGemm(2048, 2048, 8192);
    strided.lhsStrideBytes = stride;
    CpuProgram alongK = blockableGemm(2048, 2048, 8192);
    return estimateCpu(strided, tile, target, true, {}, 1, block).totalUs -
           estimateCpu(alongK, tile, target, true, {}, 1, block).totalUs;
  };
  EXPECT_NEAR(waitOf(8192, 256), waitOf(2048, 1024),
              1e-6 * waitOf(8192, 256));
  EXPECT_GT(waitOf(2048, 1024), waitOf(2048, 256));
  EXPECT_GT(waitOf(2048, 1024), waitOf(512, 4096));
}

// cpuProgramOf reads whether the program's contraction folds in blocks.
TEST(CpuBlocking, ReadsWhetherAProgramFoldsInBlocks) {
  mlir::DialectRegistry registry;
  registerPipelineDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  const char *ir = R"(module {
  tile.program @gemm_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [6, 64], threads = 1>, sizes = ["M", "N", "K"]} {
  ^bb0(%a: memref<64x8192xf32>, %b: memref<8192x256xf32>, %c: memref<64x256xf32>, %m: index, %n: index, %k: index):
    %s = tile.reduce sum over(%k) : vector<6x64xf32> {
    ^bb0(%kk: index):
      %x = tile.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<64x8192xf32> -> vector<6x64xf32>
      %y = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<8192x256xf32> -> vector<6x64xf32>
      %p = arith.mulf %x, %y : vector<6x64xf32>
      tile.yield %p : vector<6x64xf32>
    }
    tile.store %s, %c : vector<6x64xf32> -> memref<64x256xf32>
  }
  tile.program @tn_C attributes {arg_names = ["A", "B", "C"], output_dims = ["M", "N"], schedule = #tile.schedule<tile = [6, 64], threads = 1>, sizes = ["M", "N", "K"]} {
  ^bb0(%a: memref<8192x64xf32>, %b: memref<8192x256xf32>, %c: memref<64x256xf32>, %m: index, %n: index, %k: index):
    %s = tile.reduce sum over(%k) : vector<6x64xf32> {
    ^bb0(%kk: index):
      %x = tile.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d0)>] : memref<8192x64xf32> -> vector<6x64xf32>
      %y = tile.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<8192x256xf32> -> vector<6x64xf32>
      %p = arith.mulf %x, %y : vector<6x64xf32>
      tile.yield %p : vector<6x64xf32>
    }
    tile.store %s, %c : vector<6x64xf32> -> memref<64x256xf32>
  }
  tile.program @rowsum_Y attributes {arg_names = ["X", "Y"], output_dims = ["R"], schedule = #tile.schedule<tile = [16], threads = 1>, sizes = ["R", "C"]} {
  ^bb0(%x: memref<64x128xf32>, %y: memref<64xf32>, %r: index, %cc: index):
    %s = tile.reduce sum over(%cc) : vector<16xf32> {
    ^bb0(%j: index):
      %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<64x128xf32> -> vector<16xf32>
      tile.yield %v : vector<16xf32>
    }
    tile.store %s, %y : vector<16xf32> -> memref<64xf32>
  }
  tile.plan @gemm {bindings = {M = 64 : i64, N = 256 : i64, K = 8192 : i64, R = 64 : i64, C = 128 : i64}, buffers = [], programs = [@gemm_C, @tn_C, @rowsum_Y], sizes = ["M", "N", "K", "R", "C"]}
})";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
  ASSERT_TRUE(module);
  auto programs = llvm::to_vector(module->getOps<tile::ProgramOp>());
  ASSERT_EQ(programs.size(), 3u);
  EXPECT_EQ(tile::reductionBlockRefusal(programs[0]), "");
  std::optional<CpuProgram> facts = cpuProgramOf(programs[0]);
  ASSERT_TRUE(facts);
  EXPECT_TRUE(facts->packable);
  EXPECT_TRUE(facts->blockable);
  EXPECT_EQ(facts->lhsStrideBytes, 0);
  // A^T B: A[k, m] read across its rows of M = 64 floats.
  std::optional<CpuProgram> transposed = cpuProgramOf(programs[1]);
  ASSERT_TRUE(transposed);
  EXPECT_TRUE(transposed->blockable);
  EXPECT_EQ(transposed->lhsStrideBytes, 64 * 4);
  EXPECT_EQ(tile::reductionBlockRefusal(programs[2]),
            "the program has no contraction operand to pack");
}
