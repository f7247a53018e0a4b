//===- GroupedGemmModelTest.cpp - A mixture of experts under the GPU models
//===//
//
// The contraction model's grouped GEMMs (busy blocks, each group's B), the
// routing program's model, and the MoE example's programs as the GPU models
// see them: every program of both structures costed.
//
//===----------------------------------------------------------------------===//
#include "ExampleKernelUtil.h"

#include "autoscheduler/CostModel.h"
#include "autoscheduler/RoutingModel.h"
#include "compiler/Pipeline/Structures.h"
#include "compiler/Schedule/GpuPrograms.h"

#include <gtest/gtest.h>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// A grouped GEMM of `rows` routed rows over `groups` groups of blocks of
/// 128 rows (a mixture of experts' projection, D -> F).
ContractionProblem grouped(int64_t rows, int64_t groups, int64_t n, int64_t k) {
  ContractionProblem p;
  p.grouped = ContractionProblem::Groups{rows, groups, 128};
  p.m = rows + groups * 127;
  p.n = n, p.k = k;
  p.wgmmaAllowed = true;
  return p;
}

} // namespace

// Balanced routing: each group's rows fill whole blocks, and the blocks
// past the last group's hold none.
TEST(GroupedGemmModel, CountsTheBlocksThatHoldRows) {
  ContractionProblem prefill = grouped(4096 * 2, 8, 14336, 4096);
  EXPECT_EQ(prefill.grouped->groupSpan(), 1024);
  EXPECT_EQ(prefill.busyTilesM(128), 64); // of 72 the capacity has
  EXPECT_EQ(prefill.busyTilesM(64), 128);
  ContractionProblem ragged = grouped(1000, 8, 4096, 4096);
  EXPECT_EQ(ragged.grouped->groupSpan(), 128); // 125 rows a group
  EXPECT_EQ(ragged.busyTilesM(128), 8);
  // Decode: 16 rows over 8 experts, a block each.
  ContractionProblem decode = grouped(16, 8, 14336, 4096);
  EXPECT_EQ(decode.busyTilesM(128), 8);
  EXPECT_EQ(decode.busyTilesM(64), 16);
  // A band of one tile reads one group's B; a band as long as a group,
  // starting anywhere, two but where it starts with the group; never more
  // groups than there are.
  EXPECT_DOUBLE_EQ(prefill.groupsSpanned(128, 128), 1.0);
  EXPECT_DOUBLE_EQ(prefill.groupsSpanned(1024, 128), 2.0 - 128.0 / 1024);
  EXPECT_DOUBLE_EQ(decode.groupsSpanned(8 * 128, 128), 8.0);
  EXPECT_DOUBLE_EQ(decode.groupsSpanned(64 * 128, 128), 8.0);
  // Fewer routed rows than experts (a decoding step of one token, J = 2,
  // over 8 experts): at most 2 experts hold rows, a block each, and a band
  // reads at most their 2 experts' weights.
  ContractionProblem token = grouped(2, 8, 14336, 4096);
  EXPECT_EQ(token.grouped->activeGroups(), 2);
  EXPECT_EQ(token.busyTilesM(128), 2);
  EXPECT_DOUBLE_EQ(token.groupsSpanned(8 * 128, 128), 2.0);
  ContractionProblem plain = prefill;
  plain.grouped.reset();
  EXPECT_EQ(plain.busyTilesM(128), 72);
  EXPECT_DOUBLE_EQ(plain.groupsSpanned(1024, 128), 1.0);
}

// The model runs only the busy programs, and reads each group's B: a
// grouped GEMM over 8192 rows costs the programs of one GEMM of 8192 rows,
// with more DRAM traffic; at decode it reads every expert's weights.
TEST(GroupedGemmModel, RunsTheBusyProgramsAndReadsEachGroupsWeights) {
  TargetInfo h200 = *getTarget("sm_90");
  ContractionCandidate c{true, 128, 128, 64, 8, 1, 4, 1, true};
  ContractionProblem moe = grouped(8192, 8, 14336, 4096);
  ContractionProblem dense = moe;
  dense.grouped.reset();
  dense.m = 8192;
  CostBreakdown moeCost = estimate(moe, c, h200);
  CostBreakdown denseCost = estimate(dense, c, h200);
  EXPECT_EQ(moeCost.programs, 64 * 112);
  EXPECT_EQ(moeCost.programs, denseCost.programs);
  EXPECT_DOUBLE_EQ(moeCost.computeUs, denseCost.computeUs);
  EXPECT_GT(moeCost.memoryUs, denseCost.memoryUs);
  // Decode: 8 busy tiles a column, 8 experts' weights (K x N each).
  ContractionProblem decode = grouped(16, 8, 14336, 4096);
  CostBreakdown decodeCost = estimate(decode, c, h200);
  EXPECT_EQ(decodeCost.programs, 8 * 112);
  double weights = 8.0 * 4096 * 14336 * 2;
  EXPECT_GE(decodeCost.memoryUs * h200.dramBytesPerSecond / 1e6,
            0.99 * weights);
  // A tile taller than a block would straddle two groups' rows.
  ContractionCandidate tall = c;
  tall.tileM = 256;
  EXPECT_EQ(resourceRefusal(tall, moe, h200),
            "its tiles straddle the groups' blocks of rows");
  for (const ContractionCandidate &candidate : enumerateCandidates(moe, h200))
    EXPECT_EQ(128 % candidate.tileM, 0) << candidate.describe();
}

// The routing program: a launch and its round trips, more with more rows
// and with more experts.
TEST(GroupedGemmModel, RoutingWaitsOnItsRoundTrips) {
  TargetInfo h200 = *getTarget("sm_90");
  double small = estimateRouting({1024, 8, 128, 256}, h200);
  double large = estimateRouting({8192, 8, 128, 256}, h200);
  double manyExperts = estimateRouting({8192, 64, 128, 256}, h200);
  EXPECT_GT(small, 3.0);
  EXPECT_LT(small, large);
  EXPECT_LT(large, manyExperts);
  // 8192 rows on 256 threads: 32 rounds counting, 32 placing (two round
  // trips each), 8 experts and the barrier: 105 round trips of 1000
  // cycles at 1.83 GHz, and the stores' issue.
  EXPECT_NEAR(large, 3.0 + 105 * 1000 / 1830.0, 1.0);
  // Its terms: the round trips and the launch latencies, the stores'
  // issue compute; refit scales weigh them (GpuTerms.h).
  GpuTerms terms = routingTerms({8192, 8, 128, 256}, h200);
  EXPECT_NEAR(scaledUs(terms, {}), large, 1e-9);
  TargetInfo slower = h200;
  slower.gpuModelScales.latency = 2;
  slower.gpuModelScales.compute = 3;
  double issueUs = terms.waves.at(0).computeUs;
  EXPECT_GT(issueUs, 0);
  EXPECT_NEAR(estimateRouting({8192, 8, 128, 256}, slower),
              2 * terms.fixedUs + 3 * issueUs, 1e-9);
  EXPECT_NEAR(terms.fixedUs + issueUs, large, 1e-9);
}

// Every program of the mixture of experts, in its three structures
// (siblings; apart, A recomputed by the down projection or stored), is costed on sm_80 and sm_90: the routing program by its
// model, the grouped GEMMs over their busy blocks, the gathered rows' copy
// over its busy rows, and the combine as a short gathered fold.
TEST(GroupedGemmModel, CostsEveryProgramOfAMixtureOfExperts) {
  test::ExampleKernel moe(
      "moe.tensor", "moe_ffn",
      {{"T", 512}, {"D", 256}, {"F", 512}, {"E", 4}, {"J", 2}});
  ASSERT_TRUE(moe.loaded());
  for (const char *name : {"sm_80", "sm_90"}) {
    SCOPED_TRACE(name);
    TargetInfo target = *getTarget(name);
    std::vector<KernelStructure> structures =
        kernelStructures(moe.module(), target);
    ASSERT_EQ(structures.size(), 3u);
    for (const KernelStructure &s : structures) {
      EXPECT_EQ(s.prediction.uncosted, "");
      EXPECT_TRUE(s.prediction.predictedUs.has_value());
    }
    for (auto program :
         structures.front().programs->getOps<tile::ProgramOp>()) {
      llvm::StringRef symbol = program.getSymName();
      if (symbol.ends_with("_lhs_materialized")) {
        std::optional<GpuProgram> facts = gpuProgramOf(program);
        ASSERT_TRUE(facts);
        // 256 rows an expert; the capacity is 1024 + 4 x 127.
        EXPECT_EQ(facts->extents, (std::vector<int64_t>{1024, 256}));
      } else if (symbol == "moe_ffn_Y") {
        std::optional<GpuProgram> facts = gpuProgramOf(program);
        ASSERT_TRUE(facts);
        EXPECT_EQ(facts->kind, GpuProgramKind::ColumnReduction);
        EXPECT_EQ(facts->reduced, 2);
        EXPECT_EQ(facts->maxReduceThreads, 1);
        EXPECT_EQ(facts->maxVector, 8); // runs of the outputs (bf16)
      }
    }
  }
}
