//===- FlashCopies.cpp - The flash kernel's copies and key range ----------===//
//
// Q's, K's and V's rows into shared memory: by cp.async (16-byte chunks,
// coalesced, rows past the tensors zero-filled) into stages swizzled
// whole (mma.sync) or in 64-column panels (wgmma); or on sm_90 by TMA,
// a box a panel, on a stage's mbarrier. And the keys a program streams:
// its split's chunk, narrowed by the mask's key bounds.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/FlashKernel.h"

#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/GuardedReads.h"
#include "dialects/Tile/Utils/ReductionKinds.h"
#include "dialects/Tile/Utils/StreamMasks.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

Value FlashLowering::guardedHeadsInside(const StreamRead &read, Value buffer,
                                        ArrayRef<Value> indices) {
  // Nothing checks the batch and head indices (the same for the whole
  // tile, unless it spans heads): the verifier proves them inside, but
  // not those of a read a where(...) on them guards, which may leave the
  // buffer where it is not selected. Such a chunk is zero-filled from the
  // buffer's first element, as TMA does on sm_90.
  ArrayRef<int64_t> shape = kernel.program.getSchedule().getTile();
  auto load = dyn_cast_or_null<tile::LoadOp>(read.op);
  if (!load || !tile::isGuardedOnTileCoordinate(load, shape))
    return Value();
  unsigned firstVarying = heads > 1 ? rank - 3 : rank - 2;
  Value inside;
  for (auto [j, index] : llvm::enumerate(indices)) {
    AffineExpr e = read.map.getResult(j);
    bool varies = false;
    for (unsigned d = firstVarying; d < read.map.getNumDims(); ++d)
      varies |= e.isFunctionOfDim(d);
    if (varies) // (rows, columns and keys: checked above)
      continue;
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                     memref::DimOp::create(b, loc, buffer, j));
    inside = inside ? arith::AndIOp::create(b, loc, inside, in) : in;
  }
  return inside;
}

void FlashLowering::copyRows(const StreamRead &read, const StagedTile &tile,
                             Value stage, Value firstKey) {
  // Thread t copies 16-byte chunks t, t + threads, ... of the stage's
  // rows (consecutive threads along a row: coalesced); a row outside the
  // keys or the output is zero-filled, reading nothing from the buffer's
  // first row.
  Value buffer = kernel.scalars.lookup(read.buffer);
  int64_t rowChunks = headDim / 8;
  int64_t chunks = (firstKey ? keyBlock : rows) * rowChunks;
  bool nested = read.map.getNumDims() > rank + 1;
  for (int64_t first = 0; first < chunks; first += kernel.threads) {
    Value q = add(kernel.threadId, c(first));
    Value row = arith::DivUIOp::create(b, loc, q, c(rowChunks));
    Value chunk = arith::RemUIOp::create(b, loc, q, c(rowChunks));
    Value column = mul(chunk, c(8));
    OutputRow at;
    Value key, inside;
    if (firstKey) { // keys: the tile's first output row reads them
      key = add(firstKey, row);
      inside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, key, extent);
      key = arith::SelectOp::create(b, loc, inside, key, c(0));
      at = outputRow(c(0));
    } else { // the tile's rows
      at = outputRow(row);
      inside = insideOutput(at);
      at.row = arith::SelectOp::create(b, loc, inside, at.row, c(0));
      if (at.head)
        at.head = arith::SelectOp::create(b, loc, inside, at.head, c(0));
    }
    SmallVector<Value> source = nested
                                    ? indicesOf(read, at, Value(), key, column)
                                    : indicesOf(read, at, column, key, Value());
    if (Value heads = guardedHeadsInside(read, buffer, source)) {
      inside = arith::AndIOp::create(b, loc, inside, heads);
      for (Value &index : source)
        index = arith::SelectOp::create(b, loc, heads, index, c(0));
    }
    Value count = arith::SelectOp::create(b, loc, inside, c(8), c(0));
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tile.shared,
        ValueRange{stagedOffset(tile, stage, row, chunk)}, buffer, source,
        b.getIndexAttr(8), count,
        /*bypassL1=*/UnitAttr::get(b.getContext()));
  }
}

void FlashLowering::loadQuery(Value firstBlock) {
  // With more than two stages, the blocks after the first go into stages
  // 1 .. stages - 2 before the loop (each step then issues the block
  // stages - 1 ahead).
  auto copyNextBlocks = [&] {
    for (int64_t s = 1; s + 1 < protocol.stages; ++s)
      copyBlock(add(firstBlock, c(s)), c(s));
  };
  if (tma) {
    // Q's boxes on the first block's mbarrier.
    initBarriers();
    copyBlock(firstBlock, c(0), /*withQuery=*/true);
    copyNextBlocks();
    return;
  }
  if (wgmma) {
    // Q's rows into their region, with block 0's copies: the first step's
    // wait, fence and barrier publish them to wgmma.
    copyRows(roles.lhs, queryRegion, c(0), Value());
    copyBlock(firstBlock, c(0));
    copyNextBlocks();
    return;
  }
  // Q's rows go by cp.async into V's second stage, which block 1's copy
  // overwrites only after the first step's barrier, with block 0's rows;
  // each warp then takes its A fragments (m16n8k16) of them by ldmatrix.
  StagedTile queryStage = valueStages;
  queryStage.kInnermost = true;
  copyRows(roles.lhs, queryStage, c(1), Value());
  copyBlock(firstBlock, c(0));
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  gpu::BarrierOp::create(b, loc);
  for (int64_t kk = 0; kk < headDim; kk += 16)
    llvm::append_range(queryFragments,
                       emitLdmatrixFragment(b, loc, queryStage, lane, c(1),
                                            mul(warp, c(16)), c(kk),
                                            /*isLhs=*/true));
  if (protocol.stages > 2) {
    // Block 1 overwrites Q's rows in V's stage 1: every warp has its
    // fragments first.
    gpu::BarrierOp::create(b, loc);
    copyNextBlocks();
  }
}

Value FlashLowering::stagedOffset(const StagedTile &tile, Value stage,
                                  Value row, Value chunk) {
  if (!wgmma)
    return emitStagedOffset(b, loc, tile, stage, row, chunk);
  // Panel chunk / 8, at chunk % 8 of its 128-byte row.
  StagedTile panel = tile;
  panel.columns = 64;
  Value offset = emitStagedOffset(b, loc, panel, stage, row,
                                  arith::RemUIOp::create(b, loc, chunk, c(8)));
  // Panels of the tile's rows (a block's keys, or Q's rows).
  Value which = arith::DivUIOp::create(b, loc, chunk, c(8));
  return add(offset, mul(which, c(tile.stageElements / (headDim / 64))));
}

std::pair<Value, Value> FlashLowering::keyRange() {
  Value first = c(0), end = extent;
  if (stream.isSplit()) // a split's chunk: [s C, min(extent, (s + 1) C))
    std::tie(first, end) =
        emitStreamedRange(b, loc, stream, extent, kernel.tileOrigin);
  chunkFirst = fullFirst = first;
  chunkEnd = fullEnd = end;
  Block &body = stream.getBody().front();
  for (const KeyBound &bound : maskedKeyBounds(stream)) {
    // The ops the bound reads, evaluated at each row of the tile for its
    // largest (an upper bound) or smallest value.
    llvm::SetVector<Operation *> needed;
    SmallVector<Value> work{bound.other};
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (def && def->getBlock() == &body && needed.insert(def))
        llvm::append_range(work, def->getOperands());
    }
    SmallVector<Operation *> ordered(needed.begin(), needed.end());
    llvm::sort(ordered, [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
    auto otherAt = [&](Value rowInTile) {
      ScorePlace place{outputRow(rowInTile), c(0), Value(), 0};
      IRMapping map;
      for (Operation *op : ordered)
        evaluate(*op, map, &place);
      return valueAt(bound.other, map, &place);
    };
    // Over the tile's rows: the value some row allows (the largest for an
    // upper bound), and the value every row allows.
    Value atOrigin = otherAt(c(0));
    auto rowLoop = scf::ForOp::create(b, loc, c(1), c(rows), c(1),
                                      ValueRange{atOrigin, atOrigin});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rowLoop.getBody());
      Value v = otherAt(rowLoop.getInductionVar());
      Value largest =
          arith::MaxSIOp::create(b, loc, rowLoop.getRegionIterArgs()[0], v);
      Value smallest =
          arith::MinSIOp::create(b, loc, rowLoop.getRegionIterArgs()[1], v);
      scf::YieldOp::create(b, loc, ValueRange{largest, smallest});
    }
    auto asIndex = [&](Value v) -> Value {
      if (!v.getType().isIndex())
        v = arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
      return add(v, c(bound.shift()));
    };
    Value someRow = asIndex(rowLoop.getResult(bound.isUpper() ? 0 : 1));
    Value everyRow = asIndex(rowLoop.getResult(bound.isUpper() ? 1 : 0));
    if (bound.isUpper()) {
      end = arith::MinSIOp::create(b, loc, end, someRow);
      fullEnd = arith::MinSIOp::create(b, loc, fullEnd, everyRow);
    } else {
      first = arith::MaxSIOp::create(b, loc, first, someRow);
      fullFirst = arith::MaxSIOp::create(b, loc, fullFirst, everyRow);
    }
    maskComparisons.push_back(bound.comparison);
  }
  end = arith::MaxSIOp::create(b, loc, end, first); // none: an empty range
  return {first, end};
}

void FlashLowering::copyBlock(Value block, Value stage, bool withQuery) {
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, block, endBlock);
  if (tma) {
    // Thread 0 announces the stage's bytes on its mbarrier and issues the
    // boxes (zeros outside the tensors).
    any = arith::AndIOp::create(b, loc, any,
                                arith::CmpIOp::create(b, loc,
                                                      arith::CmpIPredicate::eq,
                                                      kernel.threadId, c(0)));
    auto ifIssue = scf::IfOp::create(b, loc, any, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIssue.getThenRegion().front());
    int64_t bytes =
        2 * sharedPlan.stageBytes() + (withQuery ? sharedPlan.queryBytes() : 0);
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, Type(), barrierPointer(stage), i32(bytes),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
    Value firstKey = mul(block, c(keyBlock));
    Value stageBytes = mul(stage, c(sharedPlan.stageBytes()));
    issueBoxes(0, firstKey, add(stageBytes, c(0)), stage);
    issueBoxes(1, firstKey, add(stageBytes, c(sharedPlan.valueOffset())),
               stage);
    if (withQuery)
      issueBoxes(2, kernel.tileOrigin[rank - 2], c(sharedPlan.queryOffset()),
                 stage);
    return;
  }
  auto ifAny = scf::IfOp::create(b, loc, any, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAny.getThenRegion().front());
    Value firstKey = mul(block, c(keyBlock));
    copyRows(roles.rhs, keyStages, stage, firstKey);
    copyRows(*roles.value, valueStages, stage, firstKey);
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

void FlashLowering::issueBoxes(unsigned which, Value firstRow,
                               Value destinationBytes, Value stage) {
  // Tensor map `which` (K, V, Q): a box of 64 columns a panel, its rows
  // from `firstRow`; coordinates innermost first.
  const FlashTensorMap &map = maps[which];
  auto pointer7 = LLVM::LLVMPointerType::get(b.getContext(), 7);
  SmallVector<Value> dims(kernel.tileOrigin.begin(), kernel.tileOrigin.end());
  dims.push_back(c(0)); // (the keys and the nested index: the box's)
  dims.push_back(c(0));
  for (int64_t panel = 0; panel < sharedPlan.panels(); ++panel) {
    SmallVector<Value> coordinates;
    for (auto [i, e] :
         llvm::enumerate(llvm::reverse(map.read.map.getResults()))) {
      Value coordinate;
      if (i == 0)
        coordinate = c(64 * panel);
      else if (map.box[i] > 1)
        coordinate = firstRow;
      else
        coordinate = expandAffine(
            b, loc, e, b.getIndexType(),
            ArrayRef<Value>(dims).take_front(map.read.map.getNumDims()),
            kernel.sizeArgs);
      coordinates.push_back(
          arith::IndexCastOp::create(b, loc, b.getI32Type(), coordinate));
    }
    Value offset = add(destinationBytes,
                       c(panel * (which == 2 ? sharedPlan.queryPanelBytes()
                                             : sharedPlan.panelBytes())));
    Value destination = LLVM::AddrSpaceCastOp::create(
        b, loc, pointer7,
        LLVM::GEPOp::create(b, loc,
                            LLVM::LLVMPointerType::get(b.getContext(), 3),
                            b.getI8Type(), sharedBase,
                            ValueRange{arith::IndexCastOp::create(
                                b, loc, b.getI32Type(), offset)}));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, destination, kernel.flashTensorMaps[which], coordinates,
        barrierPointer(stage), /*im2colOffsets=*/ValueRange{},
        /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
        NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, /*group=*/nullptr,
        /*predicate=*/Value());
  }
}

Value FlashLowering::emptyPointer(Value stage) {
  return barrierPointer(add(stage, c(protocol.stages)));
}

void FlashLowering::produceBlocks(Value firstBlock) {
  copyBlock(firstBlock, c(0), /*withQuery=*/true);
  int64_t stages = protocol.stages;
  auto loop = scf::ForOp::create(b, loc, add(firstBlock, c(1)), endBlock, c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value use = arith::SubIOp::create(b, loc, loop.getInductionVar(), firstBlock);
  Value stage = arith::RemUIOp::create(b, loc, use, c(stages));
  // From the second round on, the stage's previous block must have been
  // released (the empty mbarrier's phase of round use / stages - 1).
  Value reused =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, use, c(stages));
  auto ifReused = scf::IfOp::create(b, loc, reused, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard wait(b);
    b.setInsertionPointToStart(&ifReused.getThenRegion().front());
    Value round = arith::DivUIOp::create(b, loc, use, c(stages));
    Value parity = arith::IndexCastOp::create(
        b, loc, b.getI32Type(),
        arith::RemUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, round, c(1)), c(2)));
    NVVM::MBarrierTryWaitParityOp::create(b, loc, emptyPointer(stage), parity,
                                          i32(0x989680));
  }
  copyBlock(loop.getInductionVar(), stage);
}

Value FlashLowering::barrierPointer(Value stage) {
  Value offset = add(c(barrierBytes), mul(stage, c(8)));
  return LLVM::GEPOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), b.getI8Type(),
      sharedBase,
      ValueRange{arith::IndexCastOp::create(b, loc, b.getI32Type(), offset)});
}

void FlashLowering::initBarriers() {
  // Thread 0: an mbarrier a stage (one arrival: its own, with the
  // bytes), made visible to the async proxy, and the tensor maps acquired
  // for the tensormap proxy before its first copy; then every thread may
  // wait on them.
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      kernel.threadId, c(0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    for (int64_t s = 0; s < protocol.stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, barrierPointer(c(s)), i32(1),
                                   Value());
      // Released by each consumer warpgroup's first thread.
      if (producers)
        NVVM::MBarrierInitOp::create(
            b, loc, emptyPointer(c(s)),
            i32(kernel.program.getSchedule().getMma().getWarps()[0] / 4),
            Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
    for (Value map : kernel.flashTensorMaps)
      NVVM::FenceProxyAcquireOp::create(b, loc, NVVM::MemScopeKind::SYS, map,
                                        i32(kTensorMapBytes));
  }
  gpu::BarrierOp::create(b, loc);
}
