//===- StagedReads.cpp - a stream's key-invariant reads, staged once ------===//
//
// A reduction nested in a stream's body (attention's scores, recomputed a
// key: sum[d] Q[n, d] * K[m, d]) is lowered once a block of keys. What it
// reads without the key (Q's column over the tile's rows at each d) is the
// same in every block, and is not contiguous: without staging, each block
// gathers it again, an element at a time, at every point of the reduction
// (8 scalar loads and inserts for 8 fused multiply-adds at D = 64 in
// attention's main loop).
//
// Staged, those reads (and the element-wise operations that only they
// feed, the widening of bf16 to f32) are computed once an instance, before
// the stream's loop: a loop over the reduction's points stores each value
// as a row of a scratch buffer [points, elements]. Inside the blocks each
// point loads its row as one vector.
//
// What it reads of each key, one element a point contiguous along the
// points and widened (K[m, d] in bf16: a broadcast, then three shuffles to
// widen it, at every point), is widened before each block's step, 16
// points of a key's row at a time, into a scratch [keys, points]; each
// point then reads one f32 a key, which the multiply-add takes as a
// broadcast from memory.
//
// The values, their order and the sums are those of the unstaged code:
// the results are the same bit for bit.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

/// Whether `load` (in a reduction nested in a stream whose key is reduced
/// dimension `keyDim` of the maps) reads without the key, and would be
/// gathered: not one element, not contiguous rows.
bool ProgramLowering::isStageableLoad(tile::LoadOp load, unsigned keyDim) {
  if (!load.getIndirect().empty() ||
      llvm::any_of(load.getMap().getResults(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(keyDim); }))
    return false;
  TileLoad described = describeLoad(load);
  return described.memType.getRank() > 0 && described.count > 1 &&
         !hasContiguousRows(described);
}

void ProgramLowering::findStagedReads(tile::ReduceOp reduce, unsigned keyDim,
                                      StagedReduction &staged) {
  if (reduce.isSplit() || reduce.getExtents().size() != 1)
    return;
  Block &body = reduce.getBody().front();
  // The stageable loads, and the pure element-wise operations on staged
  // values alone.
  for (Operation &op : body.without_terminator()) {
    bool stage = false;
    if (auto load = dyn_cast<tile::LoadOp>(op))
      stage = isStageableLoad(load, keyDim);
    else if (op.getNumRegions() == 0 && op.getNumOperands() > 0 &&
             isPure(&op) && !isa<tile::TileDialect>(op.getDialect()) &&
             llvm::all_of(op.getResultTypes(), llvm::IsaPred<VectorType>))
      stage = llvm::all_of(op.getOperands(), [&](Value operand) {
        Operation *def = operand.getDefiningOp();
        return def && staged.ops.contains(def);
      });
    if (stage)
      staged.ops.insert(&op);
  }
  // Of those, the values an unstaged op (or the body's yield) reads: they
  // are stored, in the body's order (the generated code must not depend on
  // where the ops lie in memory); the others only feed them.
  for (Operation &op : body.without_terminator()) {
    if (!staged.ops.contains(&op))
      continue;
    for (Value result : op.getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !staged.ops.contains(user);
          }))
        staged.values.push_back({result, Value()});
  }
  // Nothing an unstaged op reads: nothing to stage.
  if (staged.values.empty())
    staged.ops.clear();
}

Value ProgramLowering::extentAtStart(Value extent) {
  // A size or a literal: known before the loop over the program ids.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(instanceLoop);
  if (std::optional<int64_t> literal = getConstantIntValue(extent))
    return cIndex(*literal);
  if (auto arg = dyn_cast<BlockArgument>(extent);
      arg && arg.getOwner() == &program.getBody().front())
    return mapping.lookup(extent);
  return Value();
}

Value ProgramLowering::allocateScratch(MemRefType type, Value size) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(instanceLoop);
  Value scratch = memref::AllocOp::create(b, loc, type, ValueRange{size},
                                          b.getI64IntegerAttr(64));
  scratchBuffers.push_back(scratch);
  return scratch;
}

void ProgramLowering::stageReads(tile::OnlineReduceOp stream,
                                 LogicalResult &status) {
  // The stream's key will be the next reduced index, a nested reduction's
  // point the one after it.
  unsigned keyDim = rank + reducedIVs.size();
  for (Operation &op : stream.getBody().front().without_terminator()) {
    auto reduce = dyn_cast<tile::ReduceOp>(op);
    if (!reduce)
      continue;
    StagedReduction staged;
    findStagedReads(reduce, keyDim, staged);
    if (staged.ops.empty())
      continue;
    Value points = extentAtStart(reduce.getExtents()[0]);
    if (!points)
      continue;
    staged.shape = narrowShape(reduce);
    int64_t elements = computeProduct(staged.shape);
    for (StagedValue &value : staged.values) {
      Type element =
          cast<VectorType>(value.original.getType()).getElementType();
      value.scratch = allocateScratch(
          MemRefType::get({ShapedType::kDynamic, elements}, element), points);
    }
    emitStagingLoop(reduce, staged, points, status);
    stagedReductions.push_back(std::move(staged));
  }
}

void ProgramLowering::emitStagingLoop(tile::ReduceOp reduce,
                                      StagedReduction &staged, Value points,
                                      LogicalResult &status) {
  auto loop = scf::ForOp::create(b, loc, cIndex(0), points, cIndex(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value point = loop.getInductionVar();
  SmallVector<int64_t> outer = valueShape;
  valueShape = staged.shape;
  // The indices as in the blocks: the key (which no staged read
  // involves), then the point.
  reducedIVs.push_back(cIndex(0));
  reducedIVs.push_back(point);
  mapping.map(reduce.getBody().getArgument(0), point);
  for (Operation &op : reduce.getBody().front().without_terminator())
    if (staged.ops.contains(&op) && failed(lowerOp(op)))
      status = failure();
  for (StagedValue &value : staged.values) {
    Value lowered = mapping.lookup(value.original);
    auto type = cast<VectorType>(lowered.getType());
    auto row = VectorType::get({type.getNumElements()}, type.getElementType());
    vector::StoreOp::create(b, loc,
                            vector::ShapeCastOp::create(b, loc, row, lowered),
                            value.scratch, ValueRange{point, cIndex(0)});
  }
  reducedIVs.pop_back_n(2);
  valueShape = outer;
}

bool ProgramLowering::lowerStagedOp(Operation &op) {
  if (stagingBlock)
    for (BlockStagedRead &read : blockStagedReads) {
      if (&op == read.load.getOperation())
        return true;
      if (&op != read.widen.getOperation())
        continue;
      // The key's element at this point, broadcast.
      Value element = memref::LoadOp::create(
          b, loc, read.scratch,
          ValueRange{cIndex(stagingBlock->selected), reducedIVs.back()});
      mapping.map(
          read.widen.getResult(),
          vector::BroadcastOp::create(
              b, loc, VectorType::get(valueShape, element.getType()), element));
      return true;
    }
  for (StagedReduction &staged : stagedReductions) {
    if (!staged.ops.contains(&op))
      continue;
    // The point's row of each stored value; the values that only feed
    // them are not needed.
    for (StagedValue &value : staged.values) {
      if (value.original.getDefiningOp() != &op)
        continue;
      auto type = cast<VectorType>(value.original.getType());
      int64_t elements = computeProduct(staged.shape);
      Value row = vector::LoadOp::create(
          b, loc, VectorType::get({elements}, type.getElementType()),
          value.scratch, ValueRange{reducedIVs.back(), cIndex(0)});
      mapping.map(value.original,
                  vector::ShapeCastOp::create(
                      b, loc,
                      VectorType::get(staged.shape, type.getElementType()),
                      row));
    }
    return true;
  }
  return false;
}

void ProgramLowering::freeScratch() {
  for (Value scratch : scratchBuffers)
    memref::DeallocOp::create(b, loc, scratch);
}

/// The lanes a block-staged read widens at a time.
constexpr int64_t kStagedLanes = 16;

bool ProgramLowering::isBlockStageableLoad(tile::LoadOp load, unsigned keyDim,
                                           unsigned pointDim) {
  AffineMap map = load.getMap();
  auto memType = cast<MemRefType>(load.getBuffer().getType());
  if (!load.getIndirect().empty() || memType.getRank() == 0 ||
      map.getNumResults() != memType.getRank() ||
      !llvm::any_of(map.getResults(),
                    [&](AffineExpr e) { return e.isFunctionOfDim(keyDim); }) ||
      map.getResults().back() != getAffineDimExpr(pointDim, b.getContext()) ||
      llvm::any_of(map.getResults().drop_back(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(pointDim); }))
    return false;
  if (!load->hasOneUse() || !isa<arith::ExtFOp>(*load->user_begin()))
    return false;
  return describeLoad(load).count == 1;
}

void ProgramLowering::stageBlockReads(tile::OnlineReduceOp stream,
                                      StreamKeys &block) {
  unsigned keyDim = rank + block.level;
  for (Operation &op : stream.getBody().front().without_terminator()) {
    auto reduce = dyn_cast<tile::ReduceOp>(op);
    if (!reduce || reduce.isSplit() || reduce.getExtents().size() != 1)
      continue;
    for (auto load : reduce.getBody().front().getOps<tile::LoadOp>()) {
      if (!isBlockStageableLoad(load, keyDim, keyDim + 1))
        continue;
      auto read = llvm::find_if(
          blockStagedReads, [&](BlockStagedRead &r) { return r.load == load; });
      if (read == blockStagedReads.end()) {
        Value points = extentAtStart(reduce.getExtents()[0]);
        if (!points)
          continue;
        auto widen = cast<arith::ExtFOp>(*load->user_begin());
        Type element =
            cast<VectorType>(widen.getResult().getType()).getElementType();
        // A row a key of the block, the points padded to whole vectors.
        Value padded;
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(instanceLoop);
          padded = arith::MulIOp::create(
              b, loc,
              arith::CeilDivSIOp::create(b, loc, points, cIndex(kStagedLanes)),
              cIndex(kStagedLanes));
        }
        Value scratch = allocateScratch(
            MemRefType::get({kStreamBlock, ShapedType::kDynamic}, element),
            padded);
        blockStagedReads.push_back({load, widen, scratch, points});
        read = std::prev(blockStagedReads.end());
      }
      emitBlockStaging(*read, block);
    }
  }
  stagingBlock = &block;
}

void ProgramLowering::emitBlockStaging(BlockStagedRead &read,
                                       StreamKeys &block) {
  OpBuilder::InsertionGuard guard(b);
  auto loop =
      scf::ForOp::create(b, loc, cIndex(0), read.points, cIndex(kStagedLanes));
  b.setInsertionPointToStart(loop.getBody());
  Value point = loop.getInductionVar();
  TileLoad load = describeLoad(read.load);
  Type narrow = load.memType.getElementType();
  auto rowType = VectorType::get({kStagedLanes}, narrow);
  auto laneType = VectorType::get({kStagedLanes}, b.getIndexType());
  auto splat = [&](Value v) {
    return vector::BroadcastOp::create(b, loc, laneType, v);
  };
  Value lanes = vector::StepOp::create(b, loc, laneType);
  Value zero = arith::ConstantOp::create(
      b, loc, rowType, DenseElementsAttr::get(rowType, b.getZeroAttr(narrow)));
  Value pointsLeft = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt,
      arith::AddIOp::create(b, loc, lanes, splat(point)), splat(read.points));
  unsigned inner = load.memType.getRank() - 1;
  Value innerSize = memref::DimOp::create(b, loc, load.buffer, inner);
  SmallVector<Value> stride = strides(load.buffer);
  Value flat = flatView(load.buffer);
  Value keyBefore = reducedIVs[block.level];
  for (auto [j, key] : llvm::enumerate(block.indices)) {
    reducedIVs[block.level] = key;
    reducedIVs.push_back(point);
    SmallVector<Value> idx = loadIndices(load, SmallVector<int64_t>(rank, 0));
    reducedIVs.pop_back();
    // The other indices clamped into the buffer as a single element's
    // load clamps them; along the points, lanes outside read nothing.
    Value start = cIndex(0);
    for (auto [dim, i] : llvm::enumerate(idx)) {
      if (dim != inner)
        i = clampInto(load.buffer, dim, i);
      start = arith::AddIOp::create(
          b, loc, start, arith::MulIOp::create(b, loc, i, stride[dim]));
    }
    // (The innermost index is the point: never negative.)
    Value at = arith::AddIOp::create(b, loc, lanes, splat(idx.back()));
    Value mask = arith::AndIOp::create(
        b, loc, pointsLeft,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, at,
                              splat(innerSize)));
    Value row =
        vector::MaskedLoadOp::create(b, loc, rowType, flat, start, mask, zero);
    Type wide = cast<MemRefType>(read.scratch.getType()).getElementType();
    Value widened = arith::ExtFOp::create(
        b, loc, VectorType::get({kStagedLanes}, wide), row);
    vector::StoreOp::create(b, loc, widened, read.scratch,
                            ValueRange{cIndex(j), point});
  }
  reducedIVs[block.level] = keyBefore;
}
