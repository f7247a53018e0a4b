//===- RepeatedReadsTest.cpp - Reads CSE merges, as the models count them -===//
//
// Programs are scheduled before CSE runs, and a definition's operand is a
// read at each of its uses (gelu's X five times). The CPU's and the GPU's
// views of a program (CpuPrograms.h, GpuPrograms.h) count the reads of
// one element once, as the kernel makes them.
//
//===----------------------------------------------------------------------===//
#include "ParsedModule.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Schedule/GpuPrograms.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

/// Y[t, d] = X[t, d] * exp2(X[t, d]) over 4096 x 4096 f32 on `target`, X
/// read twice (as convert-alg-to-tile writes it) or once (`twice` false).
std::string program(const std::string &target, bool twice) {
  std::string second =
      twice ? "    %2 = tile.load %x[#both] : memref<?x?xf32> -> "
              "vector<16x64xf32>\n    %3 = arith.mulf %2, %1 : "
              "vector<16x64xf32>\n"
            : "    %3 = arith.mulf %0, %1 : vector<16x64xf32>\n";
  return R"(#both = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>
module attributes {tile.target = #tile.target<name = ")" +
         target + R"(">} {
  tile.program @k_Y attributes {arg_names = ["X", "Y"], output_dims = ["T", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 128>, sizes = ["T", "D"]} {
  ^bb0(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %t: index, %d: index):
    %0 = tile.load %x[#both] : memref<?x?xf32> -> vector<16x64xf32>
    %1 = math.exp2 %0 : vector<16x64xf32>
)" + second +
         R"(    tile.store %3, %y : vector<16x64xf32> -> memref<?x?xf32>
  }
  tile.plan @k {bindings = {D = 4096 : i64, T = 4096 : i64}, buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["T", "D"], name = "Y", role = "output", type = memref<?x?xf32>}], programs = [@k_Y], sizes = ["T", "D"]}
}
)";
}

using Parsed = nautilus::test::ParsedModule;

} // namespace

TEST(RepeatedReads, TheCpuViewCountsAReadOnce) {
  Parsed twice(program("cpu", true)), once(program("cpu", false));
  ASSERT_TRUE(twice.module && once.module);
  auto a = cpuProgramOf(twice.program()), b = cpuProgramOf(once.program());
  ASSERT_TRUE(a && b);
  // X and Y: two buffers along the rows, however often X is read.
  EXPECT_EQ(a->rowStreams, 2);
  EXPECT_EQ(a->rowStreams, b->rowStreams);
  EXPECT_EQ(a->work, b->work);
  ASSERT_EQ(a->livePoints.size(), b->livePoints.size());
  for (size_t i = 0; i < a->livePoints.size(); ++i)
    EXPECT_EQ(a->livePoints[i].registers(16, 4),
              b->livePoints[i].registers(16, 4));
}

TEST(RepeatedReads, TheGpuViewCountsAReadOnce) {
  Parsed twice(program("sm_80", true)), once(program("sm_80", false));
  ASSERT_TRUE(twice.module && once.module);
  auto a = gpuProgramOf(twice.program()), b = gpuProgramOf(once.program());
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->loadsPerPoint, 1);
  EXPECT_EQ(a->uniqueBytesPerPoint, 4);
  EXPECT_EQ(a->loadsPerPoint, b->loadsPerPoint);
  EXPECT_EQ(a->uniqueBytesPerPoint, b->uniqueBytesPerPoint);
}
