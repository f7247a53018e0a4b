//===- WgmmaPlan.cpp - How a wgmma schedule stages its operands -----------===//
#include "dialects/Tile/Utils/WgmmaPlan.h"
#include "dialects/Tile/Utils/OperandMaps.h"
#include "dialects/Tile/Utils/ResourceBudget.h"

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
  plan.rhs = planOperand(contract.getOperandMap(1), rank - 1, tile[rank - 1], tileK,
                         rank, bytes, plan.swizzleBytes);
  plan.rhs.stageOffset = plan.lhs.stageBytes;
  plan.stageBytes = plan.lhs.stageBytes + plan.rhs.stageBytes;
  for (const WgmmaOperandPlan *op : {&plan.lhs, &plan.rhs})
    if (!op->computed)
      plan.copiedBytes += op->stageBytes;
  int64_t stages = schedule.getMma().getStages();
  plan.barrierOffset = stages * plan.stageBytes;
  // A "full" mbarrier a stage, and with a producer warpgroup an "empty" one.
  int64_t barriers = schedule.getMma().getProducers() ? 2 : 1;
  plan.sharedBytes = plan.barrierOffset + 8 * stages * barriers;
  // Register reallocation (PipelineLimits.h); a producer that computes an
  // operand keeps the even split.
  int64_t threads = schedule.getThreads();
  int64_t evenSplit = evenRegisterSplit(threads);
  if (schedule.getMma().getProducers() && schedule.getMma().getPersistent() &&
      !plan.producersCompute() && threads > 128) {
    int64_t consumers = reallocatedConsumerRegisters(threads);
    // Only worth it when the consumers gain (with one consumer warpgroup
    // the even split already gives it all a thread can address).
    if (consumers > evenSplit) {
      plan.launchRegisters = evenSplit;
      plan.producerRegisters = kProducerRegisters;
      plan.consumerRegisters = consumers;
    }
  }
  return plan;
}

tile::ContractOp nautilus::findContract(tile::ProgramOp program) {
  tile::ContractOp found;
  program.walk([&](tile::ContractOp c) { found = c; });
  return found;
}

