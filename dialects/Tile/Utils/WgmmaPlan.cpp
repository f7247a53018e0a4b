//===- WgmmaPlan.cpp - How a wgmma schedule stages its operands -----------===//
#include "dialects/Tile/Utils/WgmmaPlan.h"
#include "dialects/Tile/Utils/OperandMaps.h"
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "dialects/Tile/Utils/SiblingContracts.h"

using namespace mlir;
using namespace nautilus;

static WgmmaOperandPlan planOperand(AffineMap map, unsigned rowDim,
                                    int64_t rowTile, int64_t tileK,
                                    unsigned kDim, int64_t elementBytes,
                                    int64_t swizzleBytes) {
  WgmmaOperandPlan plan;
  plan.rowDim = rowDim;
  plan.rowTile = rowTile;
  // A computed operand (no map) is stored K-major, with no TMA box.
  plan.computed = !map;
  plan.kInnermost = isKInnermost(map);
  int64_t inner = swizzleBytes / elementBytes; // a row: 64 f16 for 128 bytes
  for (AffineExpr e : llvm::reverse(map ? map.getResults()
                                        : ArrayRef<AffineExpr>())) {
    // A batch index (a dimension or an expression of them) is one box row.
    auto dim = dyn_cast<AffineDimExpr>(e);
    unsigned d = dim ? dim.getPosition() : ~0u;
    if (d == kDim)
      plan.box.push_back(tileK);
    else if (d == rowDim)
      plan.box.push_back(plan.kInnermost ? rowTile : inner);
    else
      plan.box.push_back(1);
  }
  plan.boxes = plan.kInnermost ? 1 : rowTile / inner;
  plan.boxBytes = (plan.kInnermost ? rowTile : inner) * tileK * elementBytes;
  plan.stageBytes = plan.boxes * plan.boxBytes;
  return plan;
}

WgmmaPlan nautilus::planWgmma(tile::ContractOp contract,
                              tile::ScheduleAttr schedule) {
  ArrayRef<int64_t> tile = schedule.getTile();
  unsigned rank = tile.size();
  int64_t tileK = schedule.getMma().getTileK();
  int64_t bytes = contract.getOperandElementType().getIntOrFloatBitWidth() / 8;
  WgmmaPlan plan;
  plan.swizzleBytes = schedule.getMma().getSwizzle();
  plan.lhs = planOperand(contract.getOperandMap(0), rank - 2, tile[rank - 2], tileK,
                         rank, bytes, plan.swizzleBytes);
  plan.stageBytes = plan.lhs.stageBytes;
  if (!plan.lhs.computed)
    plan.copiedBytes += plan.lhs.stageBytes;
  // Each sibling's rhs after the previous one's (every stage of an
  // operand is a multiple of 1024 bytes: the swizzle's alignment holds).
  for (tile::ContractOp sibling : tile::siblingContracts(contract)) {
    WgmmaOperandPlan rhs =
        planOperand(sibling.getOperandMap(1), rank - 1, tile[rank - 1], tileK,
                    rank, bytes, plan.swizzleBytes);
    rhs.stageOffset = plan.stageBytes;
    plan.stageBytes += rhs.stageBytes;
    if (!rhs.computed)
      plan.copiedBytes += rhs.stageBytes;
    plan.rhs.push_back(rhs);
  }
  int64_t stages = schedule.getMma().getStages();
  plan.barrierOffset = stages * plan.stageBytes;
  // A "full" mbarrier a stage, and with a producer warpgroup an "empty" one.
  int64_t barriers = schedule.getMma().getProducers() ? 2 : 1;
  plan.sharedBytes = plan.barrierOffset + 8 * stages * barriers;
  // Register reallocation (PipelineLimits.h); a producer that computes an
  // operand keeps the even split.
  if (schedule.getMma().getProducers() && schedule.getMma().getPersistent() &&
      !plan.producersCompute())
    plan.registers = copyingProducerReallocation(schedule.getThreads());
  return plan;
}

SmallVector<TensorMappedOperand>
nautilus::tensorMappedOperands(tile::ContractOp contract) {
  SmallVector<TensorMappedOperand> mapped;
  if (!contract.isComputed(0))
    mapped.push_back({contract.getLhs(), 0});
  for (auto [s, sibling] : llvm::enumerate(tile::siblingContracts(contract)))
    if (!sibling.isComputed(1))
      mapped.push_back({sibling.getRhs(), unsigned(1 + s)});
  return mapped;
}

uint64_t nautilus::matrixDescriptorBits(int64_t leadingBytes,
                                        int64_t strideBytes,
                                        int64_t swizzleBytes) {
  uint64_t layoutType = swizzleBytes == 128  ? 1
                        : swizzleBytes == 64 ? 2
                        : swizzleBytes == 32 ? 3
                                             : 0;
  return (uint64_t((leadingBytes >> 4) & 0x3fff) << 16) |
         (uint64_t((strideBytes >> 4) & 0x3fff) << 32) | (layoutType << 62);
}

uint64_t WgmmaDescriptorPlan::fixedBits() const {
  return matrixDescriptorBits(leadingBytes, strideBytes, swizzleBytes);
}

WgmmaDescriptorPlan nautilus::planWgmmaDescriptor(const WgmmaPlan &plan,
                                                  const WgmmaOperandPlan &op,
                                                  bool isLhs,
                                                  int64_t elementBytes) {
  int64_t rowBytes = plan.swizzleBytes;
  WgmmaDescriptorPlan d;
  d.stageBytes = plan.stageBytes;
  d.swizzleBytes = rowBytes;
  d.offset = op.stageOffset;
  d.kStepBytes = op.kInnermost ? 16 * elementBytes : 16 * rowBytes;
  // A warpgroup's 64 rows of M: 64 K-major rows, or the boxes holding them.
  if (isLhs)
    d.groupBytes = op.kInnermost
                       ? 64 * rowBytes
                       : (64 / (rowBytes / elementBytes)) * op.boxBytes;
  d.leadingBytes = op.kInnermost ? 16 : op.boxBytes;
  d.strideBytes = 8 * rowBytes;
  return d;
}

FlashWgmmaPlan nautilus::planFlashWgmma(tile::ProgramOp program) {
  tile::ScheduleAttr schedule = program.getSchedule();
  ArrayRef<int64_t> tile = schedule.getTile();
  FlashWgmmaPlan plan;
  plan.rows = tile[tile.size() - 2];
  plan.headDim = tile.back();
  plan.keyBlock = schedule.getMma().getTileK();
  plan.stages = schedule.getMma().getStages();
  if (schedule.getMma().getProducers())
    plan.registers = copyingProducerReallocation(schedule.getThreads());
  return plan;
}

/// A K-major operand of 128-byte rows in panels of 64 columns.
static WgmmaDescriptorPlan panelledKMajor(int64_t offset, int64_t panelBytes,
                                          int64_t stageBytes) {
  WgmmaDescriptorPlan d;
  d.stageBytes = stageBytes;
  d.offset = offset;
  d.kStepBytes = 16 * 2;
  d.kStepsPerPanel = 64 / 16;
  d.panelBytes = panelBytes;
  d.leadingBytes = 16;
  d.strideBytes = 8 * 128;
  d.swizzleBytes = FlashWgmmaPlan::kSwizzleBytes;
  return d;
}

WgmmaDescriptorPlan FlashWgmmaPlan::query() const {
  WgmmaDescriptorPlan d =
      panelledKMajor(queryOffset(), queryPanelBytes(), stageBytes());
  d.groupBytes = 64 * 128;
  return d;
}

WgmmaDescriptorPlan FlashWgmmaPlan::keys() const {
  return panelledKMajor(0, panelBytes(), stageBytes());
}

WgmmaDescriptorPlan FlashWgmmaPlan::values() const {
  WgmmaDescriptorPlan d;
  d.stageBytes = stageBytes();
  d.offset = valueOffset();
  d.kStepBytes = 16 * 128;
  d.leadingBytes = panelBytes();
  d.strideBytes = 8 * 128;
  d.swizzleBytes = kSwizzleBytes;
  return d;
}

tile::ContractOp nautilus::findContract(tile::ProgramOp program) {
  tile::ContractOp found;
  program.walk([&](tile::ContractOp c) {
    found = c;
    return WalkResult::interrupt();
  });
  return found;
}

