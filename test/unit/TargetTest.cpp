//===- TargetTest.cpp - The targets, their capabilities, the attribute ----===//
#include "compiler/Target/NamedBarriers.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace nautilus;

// Every listed name resolves, and nothing else does.
TEST(Target, TheListIsTheTargets) {
  for (llvm::StringRef name : targetNames())
    EXPECT_TRUE(getTarget(name).has_value()) << name.str();
  EXPECT_FALSE(getTarget("sm_70"));
  EXPECT_FALSE(getTarget(""));
  EXPECT_EQ(targetNameList(), "cpu, sm_80, sm_90, gfx90a or gfx942");
}

TEST(Target, CapabilitiesOfEachGeneration) {
  TargetInfo a100 = *getTarget("sm_80"), h100 = *getTarget("sm_90");
  EXPECT_TRUE(a100.hasMmaSync());
  EXPECT_FALSE(a100.hasWgmma());
  EXPECT_FALSE(a100.hasTma);
  EXPECT_TRUE(h100.hasWgmma());
  EXPECT_TRUE(h100.hasTma);
  EXPECT_EQ(h100.warpgroupThreads, 4 * h100.kernelLanes);
  EXPECT_GT(h100.maxSharedBytes, a100.maxSharedBytes);
  TargetInfo mi300 = *getTarget("gfx942");
  EXPECT_TRUE(mi300.isAMD());
  EXPECT_FALSE(mi300.hasMmaSync());
  EXPECT_EQ(mi300.warpSize, 64);
  EXPECT_EQ(mi300.kernelLanes, 32); // today's kernels, see kernelLanes
  TargetInfo host = *getTarget("cpu");
  EXPECT_TRUE(host.isCPU());
  EXPECT_GE(host.vectorBits, 128);
  // The host's caches, from the machine or the defaults: an L1 of whole
  // sets of 64-byte lines, an L2 larger than it.
  EXPECT_GT(host.l1Ways, 0);
  EXPECT_GE(host.l1DataBytes, host.l1Ways * 64);
  EXPECT_EQ(host.l1DataBytes % (host.l1Ways * 64), 0);
  EXPECT_GT(host.l2Bytes, host.l1DataBytes);
  EXPECT_EQ(firstTargetOf(TargetFamily::NVIDIA).name, "sm_80");
}

TEST(Target, MultiprocessorsReplaceTheTargetsOwn) {
  EXPECT_EQ(getTarget("sm_90")->multiprocessors, 132);
  EXPECT_EQ(getTarget("sm_90", 4)->multiprocessors, 4);
}

// The module attribute round-trips, writing the multiprocessors only where
// they differ from the target's.
TEST(Target, RidesOnTheModule) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<tile::TileDialect>();
  mlir::OpBuilder b(&ctx);
  auto module = mlir::ModuleOp::create(b.getUnknownLoc());
  setModuleTarget(module, *getTarget("sm_90", 4));
  std::optional<TargetInfo> back = getModuleTarget(module);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->name, "sm_90");
  EXPECT_EQ(back->multiprocessors, 4);
  setModuleTarget(module, *getTarget("sm_80"));
  auto attr = module->getAttrOfType<tile::TargetAttr>(
      tile::TargetAttr::kModuleAttrName);
  EXPECT_EQ(attr.getMultiprocessors(), 0);
  module->erase();
}

// Named barriers: 0 is the block's; groups get the next ids in the order
// they reserve them, the same id again on a second request.
TEST(Target, NamedBarriersAreHandedOutOnce) {
  NamedBarriers barriers(*getTarget("sm_90"));
  EXPECT_EQ(barriers.reserve(BarrierGroup::Consumers), 1);
  EXPECT_EQ(barriers.reserve(BarrierGroup::Producer), 2);
  EXPECT_EQ(barriers.reserve(BarrierGroup::Consumers), 1);
  EXPECT_EQ(barriers.of(BarrierGroup::Producer), 2);
  NamedBarriers other(*getTarget("sm_90"));
  EXPECT_EQ(other.reserve(BarrierGroup::Producer), 1);
}
