//===- ContractToWgmma.cpp - tile.contract on sm_90a tensor cores ---------===//
//
// The pipeline, per program instance (warpgroups of 128 threads, each
// computing 64 rows of the tile with wgmma.mma_async m64nNk16):
//
//  - Dynamic shared memory (an extern array aligned to 1024 bytes, so that
//    the schedule's swizzle, TMA's and the wgmma descriptors', follows the
//    same address bits) holds `stages` stages, each the lhs then the rhs
//    tile as WgmmaPlan lays them out, then one mbarrier per stage.
//    Sibling contractions (tile::siblingContracts: a gated MLP's gate and
//    up projections) share the lhs tile: a stage holds it once, then each
//    sibling's rhs tile, and each 16 of K issues one wgmma a sibling on
//    its own accumulators, all in one wgmma group.
//  - Thread 0 initialises the mbarriers and, `stages - 1` steps of K ahead,
//    announces a stage's bytes on its mbarrier (arrive.expect_tx) and
//    issues its TMA copies; TMA zero-fills what lies outside the tensors,
//    so ragged edges need no masks in the main loop.
//  - Every thread waits for the stage's mbarrier phase (parity kt / stages),
//    then its warpgroup issues tile_k / 16 wgmma.mma_async reading both
//    operands through matrix descriptors (start address, leading and stride
//    byte offsets, the schedule's swizzle), commits and waits for them; a block
//    barrier then frees the stage for the copy issued at the next step.
//
// With a producer warpgroup (`producers = 1`, warp specialisation),
// warpgroup 0 only copies: its thread 0 waits for a stage's "empty"
// mbarrier, announces and issues the stage's copies, and runs ahead by
// up to `stages` steps; the consumer warpgroups wait for a stage's "full"
// mbarrier, issue its wgmma group and wait only for the previous group
// (`wait_group 1`), then release the previous group's stage (one arrival
// per consumer warpgroup on its "empty" mbarrier). No block barrier is in
// the main loop.
//
// A computed operand (a tile.contract region) is evaluated by the whole
// producer warpgroup into the stage, fenced for the async proxy and handed
// over with a named barrier before thread 0's arrival (produceTile).
//
// Persistent programs (PersistentWgmma) run the producer and consumer
// loops over several output tiles; the GPU lowering places them.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "dialects/Tile/Utils/PipelineProtocol.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"
#include "dialects/Tile/Layout/LinearLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;

namespace nautilus {

class WgmmaLowering {
public:
  WgmmaLowering(OpBuilder &b, tile::ContractOp contract,
                const ContractLoweringContext &context)
      : b(b), loc(contract.getLoc()), contract(contract), context(context),
        plan(planWgmma(contract, context.schedule)),
        rhsStaged(context.rhsOperands(contract)) {}

  FailureOr<SmallVector<Value>> run();
  const WgmmaPlan &getPlan() const { return plan; }
  /// The plan's register reallocation for the producer (or a consumer)
  /// warpgroup, if it has one.
  void setMaxRegisters(bool producer) {
    emitSetMaxRegisters(b, loc, plan.registers, producer);
  }

  /// Shared memory and mbarriers (thread 0 initialises them, then a block
  /// barrier); returns the warpgroup index (i32), uniform per warpgroup.
  Value setup();
  /// Warp specialised: the producer thread's copies for the `localTile`-th
  /// output tile this program computes (at `origin`), steps numbered on
  /// from the previous tiles' so that stages and phases carry on.
  void produceTile(Value localTile, ArrayRef<Value> origin);
  /// Warp specialised: a consumer warpgroup's main loop over the
  /// `localTile`-th tile; returns its accumulators.
  SmallVector<Value> consumeTile(Value localTile, Value warpgroup);

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  /// The first k of step `kTile` of the tile at `origin` (a split
  /// contraction's steps start at its chunk's first K tile).
  Value kStart(Value kTile, ArrayRef<Value> origin) {
    return arith::MulIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, kTile,
                              emitFirstKTile(b, loc, contract, tileK, origin)),
        index(tileK));
  }
  Value toI32(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  }
  /// The shared pointer `offset` (i32) bytes into the dynamic shared memory.
  Value sharedPointer(Value offset) {
    return LLVM::GEPOp::create(b, loc, pointer3, b.getI8Type(), sharedBase,
                               ValueRange{offset});
  }
  Value barrierPointer(Value stage) {
    return sharedPointer(arith::AddIOp::create(
        b, loc, i32(plan.barrierOffset),
        arith::MulIOp::create(b, loc, stage, i32(8))));
  }
  /// Warp specialised: the mbarrier consumers arrive on when done with a
  /// stage.
  Value emptyPointer(Value stage) {
    return sharedPointer(arith::AddIOp::create(
        b, loc, i32(plan.barrierOffset + 8 * stages),
        arith::MulIOp::create(b, loc, stage, i32(8))));
  }
  /// The wgmma group of one stage on the accumulators `acc` (a struct a
  /// sibling); returns them.
  SmallVector<Value> multiplyStage(ArrayRef<Value> acc, Value stage,
                                   Value group);
  /// Waits for every wgmma group in flight; returns the accumulators `acc`
  /// as the wait leaves them.
  SmallVector<Value> waitForAllTied(ValueRange acc);
  /// A thread's accumulator registers: tile N / 2 a sibling, each
  /// sibling's after the previous one's.
  int64_t accumulatorRegisters() const {
    return context.schedule.getTile().back() / 2 * int64_t(plan.rhs.size());
  }
  /// The struct a wgmma takes one sibling's accumulators in.
  Type siblingAccumulatorType() {
    return LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(context.schedule.getTile().back() / 2,
                                          b.getF32Type()));
  }
  /// Waits for the stage of step `step` and issues its wgmma group on the
  /// accumulator registers `registers`; returns them as the group leaves
  /// them (registers again, not yet waited for).
  SmallVector<Value> consumeStep(Value step, ValueRange registers,
                                 Value group) {
    Value stage = toI32(arith::RemUIOp::create(b, loc, step, index(stages)));
    Value phase = toI32(arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, step, index(stages)), index(2)));
    NVVM::MBarrierTryWaitParityOp::create(b, loc, barrierPointer(stage), phase,
                                          i32(0x989680));
    Type accType = siblingAccumulatorType();
    int64_t each = registers.size() / plan.rhs.size();
    SmallVector<Value> acc;
    for (size_t s = 0; s < plan.rhs.size(); ++s) {
      Value sibling = LLVM::PoisonOp::create(b, loc, accType);
      for (int64_t i = 0; i < each; ++i)
        sibling = LLVM::InsertValueOp::create(b, loc, sibling,
                                              registers[s * each + i], i);
      acc.push_back(sibling);
    }
    SmallVector<Value> next;
    for (Value sibling : multiplyStage(acc, stage, group))
      for (int64_t i = 0; i < each; ++i)
        next.push_back(LLVM::ExtractValueOp::create(b, loc, sibling, i));
    return next;
  }
  FailureOr<SmallVector<Value>> runWarpSpecialized(Value warpgroup);
  Value numK;
  /// Thread 0's copies of K tile `kTile` (index) into `stage` (i32), for
  /// the output tile at `origin` (per output dim).
  void issueStage(Value kTile, Value stage, ArrayRef<Value> origin,
                  const std::array<Value, 2> &offsets);
  /// The loaded operands' offset-table entries for the tile at `origin`
  /// (null for an operand without a table), read once a tile.
  std::array<Value, 2> tileOffsets(ArrayRef<Value> origin) {
    std::array<Value, 2> offsets;
    for (auto [side, table] :
         {std::make_pair(0u, context.lhsOffsets),
          std::make_pair(1u, context.rhsOffsets)})
      if (table)
        offsets[side] = emitOperandOffset(b, loc, contract, side, table,
                                          origin, context.sizeArgs);
    return offsets;
  }
  /// A producer thread's reads of `count` of its chunks of computed
  /// operand `op` in K tile `kTile`, from its `firstChunk`-th (row, chunk
  /// and the run of 8 elements along K each), and their completion and
  /// stores into `stage`.
  SmallVector<std::tuple<Value, Value, ComputedRun>>
  readComputed(const WgmmaOperandPlan &op, ComputedOperand &computed,
               Value kTile, ArrayRef<Value> origin, Value firstChunk,
               int64_t count);
  void storeComputed(const WgmmaOperandPlan &op, ComputedOperand &computed,
                     Value kTile, Value stage, ArrayRef<Value> origin,
                     SmallVector<std::tuple<Value, Value, ComputedRun>> &runs);
  /// The matrix descriptor of `op`'s part read by the 16 of K at `kStep`,
  /// for warpgroup `group` (i32; the lhs's rows 64 group.. ; 0 for the rhs).
  Value descriptor(const WgmmaOperandPlan &op, Value stage, Value group,
                   int64_t kStep, bool isLhs);

  OpBuilder &b;
  Location loc;
  tile::ContractOp contract;
  const ContractLoweringContext &context;
  WgmmaPlan plan;
  /// Each sibling's rhs, in plan.rhs's order.
  SmallVector<ContractLoweringContext::RhsOperand, 1> rhsStaged;
  Type pointer3;
  Value sharedBase, sharedAddress; // the ptr<3> and its i32 shared address
  int64_t tileK = 0, stages = 0, elementBytes = 2;
  /// The main loop's synchronisation (proved by compiler/Verify).
  tile::PipelineProtocol protocol;
};

} // namespace nautilus

void WgmmaLowering::issueStage(Value kTile, Value stage,
                               ArrayRef<Value> origin,
                               const std::array<Value, 2> &offsets) {
  Value stageOffset = arith::MulIOp::create(b, loc, stage, i32(plan.stageBytes));
  Value bar = barrierPointer(stage);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), bar, i32(plan.copiedBytes), NVVM::MemScopeKind::CTA,
      /*relaxed=*/false, /*predicate=*/Value());
  Value kCoord = toI32(kStart(kTile, origin));
  unsigned kDim = context.schedule.getTile().size();
  int64_t rowsPerBox = plan.swizzleBytes / elementBytes; // of an M/N-major box
  auto pointer7 = LLVM::LLVMPointerType::get(b.getContext(), 7);
  SmallVector<std::tuple<unsigned, const WgmmaOperandPlan *, AffineMap, Value>>
      operands = {
          {0u, &plan.lhs, contract.getOperandMap(0), context.lhsTensorMap}};
  for (auto [rhs, staged] : llvm::zip(plan.rhs, rhsStaged))
    operands.push_back({1u, &rhs, staged.map, staged.tensorMap});
  for (auto [side, op, map, tensorMap] : operands)
    for (int64_t box = 0; box < (op->computed ? 0 : op->boxes); ++box) {
      SmallVector<Value> coordinates; // innermost first
      unsigned position = map.getNumResults();
      for (AffineExpr e : llvm::reverse(map.getResults())) {
        --position;
        auto dim = dyn_cast<AffineDimExpr>(e);
        unsigned d = dim ? dim.getPosition() : ~0u;
        if (d == kDim) {
          coordinates.push_back(kCoord);
          continue;
        }
        if (d == op->rowDim) {
          coordinates.push_back(toI32(arith::AddIOp::create(
              b, loc, origin[d],
              index(op->kInnermost ? 0 : rowsPerBox * box))));
          continue;
        }
        // A batch index: a batch dimension, or an expression of them and
        // of sizes; an offset table's entry is added to it (the verifier
        // keeps both the same over the tile).
        SmallVector<Value> dims(origin.begin(), origin.end());
        dims.push_back(index(0)); // k: not read by batch indices
        Value coordinate =
            expandAffine(b, loc, e, b.getIndexType(), dims, context.sizeArgs);
        if (offsets[side] &&
            position == contract.getOperandOffsetsPosition(side))
          coordinate = arith::AddIOp::create(b, loc, coordinate, offsets[side]);
        coordinates.push_back(toI32(coordinate));
      }
      Value offset = arith::AddIOp::create(
          b, loc, stageOffset, i32(op->stageOffset + box * op->boxBytes));
      Value destination = LLVM::AddrSpaceCastOp::create(
          b, loc, pointer7, sharedPointer(offset));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, destination, tensorMap, coordinates, bar,
          /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/Value(),
          /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
          /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
    }
}

Value WgmmaLowering::descriptor(const WgmmaOperandPlan &op, Value stage,
                                Value group, int64_t kStep, bool isLhs) {
  WgmmaDescriptorPlan d = planWgmmaDescriptor(plan, op, isLhs, elementBytes);
  Value start = arith::AddIOp::create(
      b, loc, sharedAddress,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, stage, i32(d.stageBytes)),
          i32(d.startOffset(kStep))));
  if (isLhs)
    start = arith::AddIOp::create(
        b, loc, start, arith::MulIOp::create(b, loc, group, i32(d.groupBytes)));
  return emitMatrixDescriptor(b, loc, start, d.leadingBytes, d.strideBytes,
                              d.swizzleBytes);
}

SmallVector<Value> WgmmaLowering::multiplyStage(ArrayRef<Value> acc,
                                                Value stage, Value group) {
  MLIRContext *ctx = b.getContext();
  int64_t tileN = context.schedule.getTile().back();
  Type element = contract.getOperandElementType();
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  NVVM::WGMMATypes type =
      element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  SmallVector<Value> out(acc);
  for (int64_t kStep = 0; kStep < tileK / 16; ++kStep) {
    // The lhs's descriptor once, for every sibling's wgmma.
    Value lhs = descriptor(plan.lhs, stage, group, kStep, /*isLhs=*/true);
    for (auto [sibling, rhs] : llvm::zip(out, plan.rhs))
      sibling = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, sibling.getType(), sibling, lhs,
          descriptor(rhs, stage, group, kStep, /*isLhs=*/false),
          NVVM::MMAShapeAttr::get(ctx, 64, tileN, 16), type, type,
          NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          plan.lhs.kInnermost ? NVVM::MMALayout::row : NVVM::MMALayout::col,
          rhs.kInnermost ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          /*satfinite=*/nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return out;
}

void WgmmaLowering::produceTile(Value localTile, ArrayRef<Value> origin) {
  std::array<Value, 2> offsets = tileOffsets(origin);
  Value first = arith::MulIOp::create(b, loc, localTile, numK);
  auto loop = scf::ForOp::create(b, loc, index(0), numK, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kt = loop.getInductionVar();
  Value step = arith::AddIOp::create(b, loc, first, kt);
  Value stage = toI32(arith::RemUIOp::create(b, loc, step, index(stages)));
  // From the second round on, wait until the consumers released the stage
  // (the phase of round step / stages - 1).
  Value reused = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, step,
                                       index(stages));
  auto ifReused = scf::IfOp::create(b, loc, reused, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard wait(b);
    b.setInsertionPointToStart(&ifReused.getThenRegion().front());
    Value round = arith::DivUIOp::create(b, loc, step, index(stages));
    Value parity = toI32(arith::RemUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, round, index(1)), index(2)));
    NVVM::MBarrierTryWaitParityOp::create(b, loc, emptyPointer(stage), parity,
                                          i32(0x989680));
  }
  if (!plan.producersCompute()) {
    issueStage(kt, stage, origin, offsets);
    return;
  }
  // The warpgroup evaluates the computed operands into the stage, a few
  // chunks a thread at a time (their reads first, then the arithmetic and
  // the stores: the reads overlap, and the registers they hold stay within
  // what 384 threads leave a thread), makes its writes visible to wgmma's
  // async proxy, meets, and then its thread 0 announces the TMA bytes (its
  // arrival completes the stage with them) and copies the loaded operands.
  constexpr int64_t kChunksInFlight = 4;
  int64_t rowChunks = plan.swizzleBytes / 16;
  for (auto [op, computed] :
       {std::make_pair(&plan.lhs, context.lhsComputed),
        std::make_pair(&plan.rhs[0], context.rhsComputed)}) {
    if (!op->computed)
      continue;
    // A loop over groups of a thread's chunks (a multiple of the group:
    // rowTile x rowChunks / 128 is at least 8), its body emitted once.
    int64_t chunks = op->rowTile * rowChunks / context.target->warpgroupThreads;
    int64_t inFlight = std::min(kChunksInFlight, chunks);
    auto groups = scf::ForOp::create(b, loc, index(0), index(chunks),
                                     index(inFlight));
    OpBuilder::InsertionGuard inGroup(b);
    b.setInsertionPointToStart(groups.getBody());
    auto runs = readComputed(*op, *computed, kt, origin,
                             groups.getInductionVar(), inFlight);
    storeComputed(*op, *computed, kt, stage, origin, runs);
  }
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  NVVM::BarrierOp::create(
      b, loc, Type(), i32(context.barriers->of(BarrierGroup::Producer)),
      i32(context.target->warpgroupThreads), nullptr, Value());
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       context.threadId, index(0));
  auto ifLeader = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
  issueStage(kt, stage, origin, offsets);
}

SmallVector<std::tuple<Value, Value, ComputedRun>>
WgmmaLowering::readComputed(const WgmmaOperandPlan &op,
                            ComputedOperand &computed, Value kTile,
                            ArrayRef<Value> origin, Value firstChunk,
                            int64_t count) {
  // Producer thread t (0-127) takes chunks t, t + 128, ... of the stage's
  // rows of the swizzle (16 bytes, 8 elements along K, a chunk); these are
  // its chunks firstChunk .. firstChunk + count - 1.
  int64_t rowChunks = plan.swizzleBytes / 16;
  SmallVector<std::tuple<Value, Value, ComputedRun>> runs;
  for (int64_t i = 0; i < count; ++i) {
    Value q = arith::AddIOp::create(
        b, loc, context.threadId,
        arith::MulIOp::create(
            b, loc, arith::AddIOp::create(b, loc, firstChunk, index(i)),
            index(context.target->warpgroupThreads)));
    Value row = arith::DivUIOp::create(b, loc, q, index(rowChunks));
    Value chunk = arith::RemUIOp::create(b, loc, q, index(rowChunks));
    SmallVector<Value> dims(origin.begin(), origin.end());
    dims[op.rowDim] = arith::AddIOp::create(b, loc, dims[op.rowDim], row);
    Value k = arith::AddIOp::create(b, loc, kStart(kTile, origin),
                                    arith::MulIOp::create(b, loc, chunk, index(8)));
    runs.emplace_back(row, chunk, computed.read(b, loc, dims, k, 8));
  }
  return runs;
}

void WgmmaLowering::storeComputed(
    const WgmmaOperandPlan &op, ComputedOperand &computed, Value kTile,
    Value stage, ArrayRef<Value> origin,
    SmallVector<std::tuple<Value, Value, ComputedRun>> &runs) {
  Type element = contract.getOperandElementType();
  layout::SharedSwizzle swizzle =
      layout::SharedSwizzle::forRows(plan.swizzleBytes, plan.swizzleBytes);
  for (auto &[row, chunk, run] : runs) {
    SmallVector<Value> dims(origin.begin(), origin.end());
    dims[op.rowDim] = arith::AddIOp::create(b, loc, dims[op.rowDim], row);
    Value rowInside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, dims[op.rowDim],
        context.outputExtents[op.rowDim]);
    Value k = arith::AddIOp::create(b, loc, kStart(kTile, origin),
                                    arith::MulIOp::create(b, loc, chunk, index(8)));
    SmallVector<Value> elements = computed.finishInside(
        b, loc, dims, run, rowInside, k, context.extent);
    // Rows of the swizzle, chunks XOR-swizzled as TMA would have stored
    // them (layout::SharedSwizzle for rows of one span).
    Value stored = emitStoredChunk(b, loc, swizzle, row, chunk);
    Value offset = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, stage, i32(plan.stageBytes)),
        toI32(arith::AddIOp::create(
            b, loc,
            arith::AddIOp::create(
                b, loc, index(op.stageOffset),
                arith::MulIOp::create(b, loc, row, index(plan.swizzleBytes))),
            arith::MulIOp::create(b, loc, stored, index(16)))));
    Value vector = vector::FromElementsOp::create(
        b, loc, VectorType::get({8}, element), elements);
    LLVM::StoreOp::create(b, loc, vector, sharedPointer(offset),
                          /*alignment=*/16);
  }
}

SmallVector<Value> WgmmaLowering::consumeTile(Value localTile,
                                              Value warpgroup) {
  int64_t registers = accumulatorRegisters();
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getZeroAttr(f32));
  int64_t warpgroupThreads = context.target->warpgroupThreads;
  Value computing = arith::SubIOp::create(b, loc, context.threadId,
                                          index(warpgroupThreads));
  Value group = arith::SubIOp::create(b, loc, warpgroup, i32(1));
  Value leader = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, computing, index(warpgroupThreads)),
      index(0));
  Value first = arith::MulIOp::create(b, loc, localTile, numK);
  SmallVector<Value> init(registers, zero);
  auto loop = scf::ForOp::create(b, loc, index(0), numK, index(1), init);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = arith::AddIOp::create(b, loc, first, loop.getInductionVar());
    SmallVector<Value> next =
        consumeStep(step, loop.getRegionIterArgs(), group);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, protocol.wgmmaInFlight);
    // The previous step's group is done: release its stage.
    Value release = arith::AndIOp::create(
        b, loc, leader,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, step,
                              index(0)));
    auto ifRelease = scf::IfOp::create(b, loc, release, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard arrive(b);
      b.setInsertionPointToStart(&ifRelease.getThenRegion().front());
      Value previous = toI32(arith::RemUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, step,
                                index(stages - protocol.releaseLag)),
          index(stages)));
      NVVM::MBarrierArriveOp::create(b, loc, b.getI64Type(),
                                     emptyPointer(previous), Value());
    }
    scf::YieldOp::create(b, loc, next);
  }
  return waitForAllTied(loop.getResults());
}

SmallVector<Value> WgmmaLowering::waitForAllTied(ValueRange acc) {
  return emitTiedWgmmaWait(b, loc, acc, protocol.epilogueWait);
}

FailureOr<SmallVector<Value>>
WgmmaLowering::runWarpSpecialized(Value warpgroup) {
  Type f32 = b.getF32Type();
  int64_t registers = accumulatorRegisters();
  SmallVector<Type> accTypes(registers, f32);
  Value isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           warpgroup, i32(0));
  auto split = scf::IfOp::create(b, loc, TypeRange(accTypes), isProducer,
                                 /*withElse=*/true);
  {
    // The producer: thread 0 of warpgroup 0 runs the copies ahead (the
    // whole warpgroup, when it computes an operand).
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&split.getThenRegion().front());
    Value producing = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, context.threadId,
        index(plan.producersCompute() ? 128 : 1));
    auto ifProducing = scf::IfOp::create(b, loc, producing, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&ifProducing.getThenRegion().front());
      produceTile(index(0), context.tileOrigin);
    }
    Value zero = arith::ConstantOp::create(b, loc, f32, b.getZeroAttr(f32));
    scf::YieldOp::create(b, loc, SmallVector<Value>(registers, zero));
  }
  {
    // The consumers: one wgmma group in flight.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&split.getElseRegion().front());
    scf::YieldOp::create(b, loc, consumeTile(index(0), warpgroup));
  }
  return SmallVector<Value>(split.getResults().begin(), split.getResults().end());
}

Value WgmmaLowering::setup() {
  MLIRContext *ctx = b.getContext();
  tile::MmaAttr mma = context.schedule.getMma();
  tileK = mma.getTileK();
  stages = mma.getStages();
  protocol = tile::pipelineProtocol(mma);
  Type element = contract.getOperandElementType();
  elementBytes = element.getIntOrFloatBitWidth() / 8;
  pointer3 = LLVM::LLVMPointerType::get(ctx, 3);

  sharedBase = emitDynamicSharedBase(b, loc, context.func);
  sharedAddress = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), sharedBase);

  Value tid = context.threadId;
  Value producer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                         index(0));
  {
    auto ifProducer = scf::IfOp::create(b, loc, producer, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifProducer.getThenRegion().front());
    int64_t consumers = mma.getWarps()[0] / 4;
    for (int64_t s = 0; s < stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, barrierPointer(i32(s)), i32(1),
                                   Value());
      if (mma.getProducers())
        NVVM::MBarrierInitOp::create(b, loc, emptyPointer(i32(s)),
                                     i32(consumers), Value());
    }
    // The inits made visible to the async proxy, whose TMA copies
    // complete on them (the CUDA C++ Programming Guide fences after the
    // init; the emulator requires it: scripts/mutate_sync.py). Where the
    // producers compute an operand, this thread's fence.proxy.async after
    // its stores precedes each of its TMA copies and publishes the inits
    // too: no second fence.
    if (!plan.producersCompute())
      NVVM::FenceMbarrierInitOp::create(b, loc);
    // The runtime copied the tensor maps to global memory: the thread that
    // issues the TMA copies acquires them for the tensormap proxy before
    // its first copy (CUDA C++ Programming Guide, "Using TMA to transfer
    // multi-dimensional arrays"; upstream's nvgpu.tma.fence.descriptor).
    SmallVector<Value> maps = {context.lhsTensorMap};
    for (const ContractLoweringContext::RhsOperand &rhs : rhsStaged)
      maps.push_back(rhs.tensorMap);
    for (Value map : maps)
      if (map)
        NVVM::FenceProxyAcquireOp::create(b, loc, NVVM::MemScopeKind::SYS, map,
                                          i32(kTensorMapBytes));
  }
  gpu::BarrierOp::create(b, loc);
  numK = emitKTileCount(b, loc, contract, context.extent, tileK);
  // The warpgroup index, broadcast from lane 0 so that ptxas sees branches
  // on it as uniform across each warpgroup (otherwise it serialises the
  // wgmma of a divergent-looking path).
  return NVVM::ShflOp::create(
      b, loc, b.getI32Type(), i32(-1),
      toI32(arith::DivUIOp::create(b, loc, tid,
                                   index(context.target->warpgroupThreads))),
      i32(0), i32(context.target->kernelLanes - 1),
      NVVM::ShflKindAttr::get(ctx, NVVM::ShflKind::idx),
      /*return_value_and_is_valid=*/nullptr);
}

FailureOr<SmallVector<Value>> WgmmaLowering::run() {
  tile::MmaAttr mma = context.schedule.getMma();
  Value warpgroup = setup();
  if (mma.getProducers())
    return runWarpSpecialized(warpgroup);
  Value tid = context.threadId;
  Value producer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                         index(0));
  Value group = warpgroup;
  std::array<Value, 2> offsets = tileOffsets(context.tileOrigin);
  auto issueIfNeeded = [&](Value kTile) {
    Value wanted = arith::AndIOp::create(
        b, loc, producer,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, kTile, numK));
    auto ifIssue = scf::IfOp::create(b, loc, wanted, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIssue.getThenRegion().front());
    issueStage(kTile, toI32(arith::RemUIOp::create(b, loc, kTile, index(stages))),
               context.tileOrigin, offsets);
  };
  for (int64_t s = 0; s < protocol.prefetch; ++s)
    issueIfNeeded(index(s));

  Type f32 = b.getF32Type();
  int64_t registers = accumulatorRegisters();
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getZeroAttr(f32));
  SmallVector<Value> init(registers, zero);
  auto loop = scf::ForOp::create(b, loc, index(0), numK, index(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    // Refill the stage the previous step freed.
    issueIfNeeded(arith::AddIOp::create(b, loc, kt, index(protocol.prefetch)));
    SmallVector<Value> next = consumeStep(kt, loop.getRegionIterArgs(), group);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, protocol.wgmmaInFlight);
    gpu::BarrierOp::create(b, loc); // every warpgroup is done with the stage
    scf::YieldOp::create(b, loc, next);
  }
  return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
}

FailureOr<SmallVector<Value>>
nautilus::lowerContractToWgmma(OpBuilder &b, tile::ContractOp contract,
                               const ContractLoweringContext &context) {
  return WgmmaLowering(b, contract, context).run();
}

struct PersistentWgmma::Impl {
  WgmmaLowering lowering;
};

PersistentWgmma::PersistentWgmma(OpBuilder &b, tile::ContractOp contract,
                                 const ContractLoweringContext &context)
    : impl(new Impl{WgmmaLowering(b, contract, context)}) {}
PersistentWgmma::~PersistentWgmma() = default;

Value PersistentWgmma::setup() { return impl->lowering.setup(); }

int64_t PersistentWgmma::producerThreads() const {
  return impl->lowering.getPlan().producersCompute() ? 128 : 1;
}

void PersistentWgmma::enterProducer() {
  impl->lowering.setMaxRegisters(/*producer=*/true);
}

void PersistentWgmma::enterConsumer() {
  impl->lowering.setMaxRegisters(/*producer=*/false);
}

void PersistentWgmma::produceTile(Value localTile, ArrayRef<Value> origin) {
  impl->lowering.produceTile(localTile, origin);
}

SmallVector<Value> PersistentWgmma::consumeTile(Value localTile,
                                                Value warpgroup) {
  return impl->lowering.consumeTile(localTile, warpgroup);
}
