//===- RepeatedReadsTest.cpp - One read an element before scheduling ------===//
//
// convert-alg-to-tile reads a definition's operand at each of its uses
// (Y = X * exp(X) reads X twice); the pipeline runs CSE before any
// schedule is chosen, so the CPU's and the GPU's views of a program
// (CpuPrograms.h, GpuPrograms.h) count the reads the kernel makes.
//
//===----------------------------------------------------------------------===//
#include "ExampleKernelUtil.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Schedule/GpuPrograms.h"
#include "compiler/Target/Target.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

/// test/unit/Inputs/repeated_reads.tensor's kernel at 4096 x 4096, its
/// programs scheduled for `target` as the pipeline does.
struct Scheduled : test::ExampleKernel {
  explicit Scheduled(const std::string &target)
      : ExampleKernel("../test/unit/Inputs/repeated_reads.tensor", "twice",
                      {{"T", 4096}, {"D", 4096}}) {
    scheduled = loaded() && succeeded(lowerAlgToScheduledTile(
                                module(), *getTarget(target), nullptr));
  }
  tile::ProgramOp program() {
    return *module().getOps<tile::ProgramOp>().begin();
  }
  bool scheduled = false;
};

} // namespace

TEST(RepeatedReads, TheCpuViewCountsAReadOnce) {
  Scheduled k("cpu");
  ASSERT_TRUE(k.scheduled);
  auto view = cpuProgramOf(k.program());
  ASSERT_TRUE(view);
  // X and Y: two buffers along the rows.
  EXPECT_EQ(view->rowStreams, 2);
  // X's one read live across exp2 (its three tiles and X's: four), not
  // two reads each folded into its use (three).
  int64_t widest = 0;
  for (const autosched::LivePoint &point : view->livePoints)
    widest = std::max(widest, point.registers(1, 1));
  EXPECT_EQ(widest, 4);
}

TEST(RepeatedReads, TheGpuViewCountsAReadOnce) {
  Scheduled k("sm_80");
  ASSERT_TRUE(k.scheduled);
  auto view = gpuProgramOf(k.program());
  ASSERT_TRUE(view);
  EXPECT_EQ(view->loadsPerPoint, 1);
  EXPECT_EQ(view->uniqueBytesPerPoint, 4);
}
