//===- CpuRoutedRowsTest.cpp - Contractions whose rhs rows are routed -----===//
//
// A mixture of experts' projections read their weights through the
// tokens' expert ids (Wg[ids[t, j], d, f]): each row of a tile reads its
// own expert's rows. cpuProgramOf reads that (`routedRhs`), and the CPU
// model then lets a tile's rows share no row of the rhs.
//
//===----------------------------------------------------------------------===//
#include "CpuModelHost.h"
#include "ParsedModule.h"
#include "autoscheduler/CpuSpace.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/CpuPrograms.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace nautilus;
using namespace nautilus::autosched;
using nautilus::test::avx512Host;

namespace {

/// The gate projection G[t, j, f] = sum[d](X[t, d] * W[ids[t, j], d, f])
/// over T = 256, J = 2, F = 512, D = 256 and E = 8 experts; `routed`
/// false reads W[0, d, f] for every row instead (the same contraction, its
/// rhs shared by the rows).
std::string gateProjection(bool routed) {
  std::string rhs =
      routed ? "    %3 = tile.load %ids[#rows] : memref<?x?xi32> -> "
               "vector<1x2x32xi32>\n"
               "    %4 = arith.index_cast %3 : vector<1x2x32xi32> to "
               "vector<1x2x32xindex>\n"
               "    %5 = tile.load %w[#rhs] indirect(%4) at [0] : "
               "memref<?x?x?xbf16>, vector<1x2x32xindex> -> "
               "vector<1x2x32xbf16>\n"
             : "    %5 = tile.load %w[#first] : memref<?x?x?xbf16> -> "
               "vector<1x2x32xbf16>\n";
  return R"(#lhs = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d0, d3)>
#rows = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d0, d1)>
#rhs = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (d3, d2)>
#first = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3, s4] -> (0, d3, d2)>
module {
  tile.program @moe_G attributes {arg_names = ["X", "W", "ids", "G"], output_dims = ["T", "J", "F"], schedule = #tile.schedule<tile = [1, 2, 32], threads = 1>, sizes = ["T", "D", "E", "F", "J"]} {
  ^bb0(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %ids: memref<?x?xi32>, %g: memref<?x?x?xf32>, %T: index, %D: index, %E: index, %F: index, %J: index):
    %0 = tile.reduce sum over(%D) : vector<1x2x32xf32> {
    ^bb0(%d: index):
      %1 = tile.load %x[#lhs] : memref<?x?xbf16> -> vector<1x2x32xbf16>
      %2 = arith.extf %1 : vector<1x2x32xbf16> to vector<1x2x32xf32>
)" + rhs +
         R"(      %6 = arith.extf %5 : vector<1x2x32xbf16> to vector<1x2x32xf32>
      %7 = arith.mulf %2, %6 : vector<1x2x32xf32>
      tile.yield %7 : vector<1x2x32xf32>
    }
    tile.store %0, %g : vector<1x2x32xf32> -> memref<?x?x?xf32>
  }
  tile.plan @moe {bindings = {D = 256 : i64, E = 8 : i64, F = 512 : i64, J = 2 : i64, T = 256 : i64}, buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["E", "D", "F"], name = "W", role = "input", type = memref<?x?x?xbf16>}, {dims = ["T", "J"], name = "ids", role = "input", type = memref<?x?xi32>}, {dims = ["T", "J", "F"], name = "G", role = "output", type = memref<?x?x?xf32>}], programs = [@moe_G], sizes = ["T", "D", "E", "F", "J"]}
}
)";
}

std::optional<CpuProgram> viewOf(bool routed) {
  nautilus::test::ParsedModule parsed(gateProjection(routed));
  if (!parsed.module)
    return std::nullopt;
  return cpuProgramOf(parsed.program());
}

} // namespace

TEST(CpuRoutedRows, ReadsARhsGatheredThroughIds) {
  std::optional<CpuProgram> routed = viewOf(true), shared = viewOf(false);
  ASSERT_TRUE(routed && shared);
  EXPECT_TRUE(routed->contraction);
  EXPECT_TRUE(routed->routedRhs);
  EXPECT_TRUE(shared->contraction);
  EXPECT_FALSE(shared->routedRhs);
  EXPECT_EQ(routed->extents, (std::vector<int64_t>{256, 2, 512}));
  EXPECT_EQ(routed->reduced, 256);
}

// Routed, a tile of two rows streams twice the rhs bytes of one (each row
// its own expert's row), so the whole output streams as much either way;
// shared, the rows share them.
TEST(CpuRoutedRows, RowsShareNoRowOfARoutedRhs) {
  std::optional<CpuProgram> routed = viewOf(true), shared = viewOf(false);
  ASSERT_TRUE(routed && shared);
  TargetInfo host = avx512Host();
  auto memoryOf = [&](const CpuProgram &program, std::vector<int64_t> tile) {
    return estimateCpu(program, tile, host).memoryUs;
  };
  // The whole output's (half the instances for two rows a tile).
  double routedTwo = memoryOf(*routed, {1, 2, 64});
  double routedOne = memoryOf(*routed, {1, 1, 64});
  double sharedTwo = memoryOf(*shared, {1, 2, 64});
  double sharedOne = memoryOf(*shared, {1, 1, 64});
  EXPECT_NEAR(routedTwo, routedOne, routedOne * 0.05);
  EXPECT_LT(sharedTwo, sharedOne * 0.75);
  // A step's loads: each row its own rhs vectors.
  CpuCost two = estimateCpu(*routed, {1, 2, 64}, host);
  CpuCost one = estimateCpu(*routed, {1, 1, 64}, host);
  EXPECT_GT(two.computeUs, one.computeUs * 0.9);
}
