//===- ReducedLanes.cpp - row reductions folded along their rows ----------===//
//
// A reduction that tile::foldsAlongReducedLanes (a norm's sum of squares,
// softmax's maximum and sum outside a stream) is lowered as if its reduced
// index were one more dimension of the tile, `lanes` wide: each step
// loads `lanes` consecutive elements of each row of the tile (one vector
// load a row, loadReducedLanes) and folds them into an accumulator a row,
// and the accumulators are reduced across their lanes once at the end.
// foldReduce's form would read one element of each row a step instead.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

int64_t ProgramLowering::reducedLanesOf(VectorType type) const {
  unsigned bits = type.getElementTypeBitWidth();
  int64_t lanes = bits >= 8 ? std::max<int64_t>(vectorBits, 128) / bits : 0;
  return lanes >= 2 ? lanes : 0;
}

/// The vector tiles the `reductions` (reductions or a stream) read from
/// outside them, each once.
static SmallVector<Value> tilesFromOutside(ArrayRef<Operation *> reductions) {
  SmallVector<Value> tiles;
  for (Operation *reduction : reductions)
    reduction->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (isa<VectorType>(operand.getType()) &&
            !reduction->isAncestor(operand.getParentBlock()->getParentOp()) &&
            !llvm::is_contained(tiles, operand))
          tiles.push_back(operand);
    });
  return tiles;
}

/// The operations of `group`.
static SmallVector<Operation *> operationsOf(ArrayRef<tile::ReduceOp> group) {
  SmallVector<Operation *> ops;
  for (tile::ReduceOp reduce : group)
    ops.push_back(reduce);
  return ops;
}

bool ProgramLowering::foldsAlongReducedLanes(ArrayRef<tile::ReduceOp> group,
                                             VectorType type) {
  if (keys || !reducedIVs.empty() || !reducedLanesOf(type) ||
      !tile::tileFoldsAlongReducedLanes(tileShape))
    return false;
  tile::ReduceOp first = group.front();
  if (isFloatSum(first.getKind(), type) &&
      kSumBlock % reducedLanesOf(type) != 0)
    return false;
  for (tile::ReduceOp reduce : group) {
    if (!tile::foldsAlongReducedLanes(reduce))
      return false;
    bool packedRead = false;
    reduce.getBody().walk(
        [&](tile::LoadOp load) { packedRead |= panelOfLoad.count(load); });
    if (packedRead)
      return false;
  }
  // A tile from outside is broadcast along the lanes: no wider than the
  // values computed (a splat constant may be: it is made anew).
  for (Value tile : tilesFromOutside(operationsOf(group))) {
    auto lowered = dyn_cast<VectorType>(mapping.lookup(tile).getType());
    if (!lowered || lowered.getRank() != type.getRank())
      return false;
    bool narrower = llvm::all_of(
        llvm::zip(lowered.getShape(), type.getShape()),
        [](auto dims) { return std::get<0>(dims) <= std::get<1>(dims); });
    if (!narrower && !tile.getDefiningOp<arith::ConstantOp>())
      return false;
  }
  return true;
}

/// vector.reduction's kind for `kind` over `element`.
static vector::CombiningKind combiningKindOf(alg::ReductionKind kind,
                                             Type element) {
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case alg::ReductionKind::sum:
    return vector::CombiningKind::ADD;
  case alg::ReductionKind::prod:
    return vector::CombiningKind::MUL;
  case alg::ReductionKind::max:
    return isFloat ? vector::CombiningKind::MAXIMUMF
                   : vector::CombiningKind::MAXSI;
  case alg::ReductionKind::min:
    return isFloat ? vector::CombiningKind::MINIMUMF
                   : vector::CombiningKind::MINSI;
  }
  llvm_unreachable("unknown reduction kind");
}

Value ProgramLowering::wholeStepsEnd(ArrayRef<Operation *> reductions,
                                     Value first, Value end, int64_t lanes) {
  // Inside every buffer read along the reduced index: its extent is
  // theirs, unless a kernel reads out of range (as X[r, c + 0] may).
  Value insideEnd = end;
  for (Operation *reduction : reductions)
    reduction->walk([&](tile::LoadOp load) {
      if (!tile::readsReducedIndex(load, rank))
        return;
      Value buffer = mapping.lookup(load.getBuffer());
      unsigned last = cast<MemRefType>(buffer.getType()).getRank() - 1;
      insideEnd = arith::MinSIOp::create(
          b, loc, insideEnd, memref::DimOp::create(b, loc, buffer, last));
      // A buffer without rows (its other sizes 0): no whole step.
      for (unsigned j = 0; j < last; ++j)
        insideEnd = arith::MinSIOp::create(
            b, loc, insideEnd,
            arith::MulIOp::create(b, loc, insideEnd,
                                  memref::DimOp::create(b, loc, buffer, j)));
    });
  Value whole = arith::MaxSIOp::create(
      b, loc, cIndex(0), arith::SubIOp::create(b, loc, insideEnd, first));
  return arith::AddIOp::create(
      b, loc, first,
      arith::MulIOp::create(
          b, loc, arith::DivSIOp::create(b, loc, whole, cIndex(lanes)),
          cIndex(lanes)));
}

void ProgramLowering::enterReducedLanes(ArrayRef<Operation *> reductions,
                                        ArrayRef<int64_t> laneShape, Value end,
                                        ReducedLanesView &view) {
  view.tile = tileShape;
  view.shape = valueShape;
  view.laneTile.assign(tileShape.begin(), tileShape.end());
  view.laneTile.push_back(laneShape.back());
  tileShape = view.laneTile;
  valueShape.assign(laneShape.begin(), laneShape.end());
  ++rank;
  base.push_back(Value()); // each step's first index
  extents.push_back(end);
  reducedLanes = {true, false};
  // The tiles from outside, as columns broadcast along the lanes; a splat
  // constant made anew at the lanes' tile (fitToValueShape narrows it).
  for (Value tile : tilesFromOutside(reductions)) {
    Value lowered = mapping.lookup(tile);
    auto vec = cast<VectorType>(lowered.getType());
    auto constant = lowered.getDefiningOp<arith::ConstantOp>();
    if (auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                              : SplatElementsAttr()) {
      auto wide = VectorType::get(view.laneTile, vec.getElementType());
      view.outside.push_back({tile, lowered});
      mapping.map(tile, arith::ConstantOp::create(
                            b, loc, wide,
                            SplatElementsAttr::get(
                                wide, splat.getSplatValue<Attribute>())));
      continue;
    }
    SmallVector<int64_t> column(vec.getShape());
    column.push_back(1);
    view.outside.push_back({tile, lowered});
    mapping.map(tile, vector::ShapeCastOp::create(
                          b, loc, VectorType::get(column, vec.getElementType()),
                          lowered));
  }
}

void ProgramLowering::leaveReducedLanes(ReducedLanesView &view) {
  for (auto [tile, lowered] : view.outside)
    mapping.map(tile, lowered);
  reducedLanes = {};
  extents.pop_back();
  base.pop_back();
  --rank;
  valueShape = view.shape;
  tileShape = view.tile;
}

Value ProgramLowering::reduceAcrossLanes(Value total, alg::ReductionKind kind,
                                         VectorType type) {
  Value result = reductionIdentity(b, loc, kind, type);
  SmallVector<int64_t> position(type.getRank(), 0);
  for (int64_t r = 0; r < type.getNumElements(); ++r) {
    for (int64_t d = type.getRank() - 1, rest = r; d >= 0; --d) {
      position[d] = rest % type.getDimSize(d);
      rest /= type.getDimSize(d);
    }
    Value row = vector::ExtractOp::create(b, loc, total, position);
    Value folded = vector::ReductionOp::create(
        b, loc, combiningKindOf(kind, type.getElementType()), row);
    result = vector::InsertOp::create(b, loc, folded, result, position);
  }
  return result;
}

SmallVector<Value>
ProgramLowering::foldAlongReducedLanes(ArrayRef<tile::ReduceOp> group,
                                       VectorType type, LogicalResult &status) {
  tile::ReduceOp reduce = group.front();
  alg::ReductionKind kind = reduce.getKind();
  int64_t lanes = reducedLanesOf(type);
  Value extent = mapping.lookup(reduce.getExtents().front());
  auto [first, end] = emitReducedRange(b, loc, reduce, extent, base);
  // [first, fullEnd): whole steps; [fullEnd, end): steps whose lanes past
  // the range or a buffer are masked (one, unless a kernel reads out of
  // range).
  Value fullEnd = wholeStepsEnd(operationsOf(group), first, end, lanes);
  SmallVector<int64_t> laneShape(type.getShape());
  laneShape.push_back(lanes);
  auto laneType = VectorType::get(laneShape, type.getElementType());
  ReducedLanesView view;
  enterReducedLanes(operationsOf(group), laneShape, end, view);

  // Each reduction's term at the step whose lanes start at `at`.
  auto termsAt = [&](Value at, bool masked) {
    base.back() = at;
    reducedLanes.masked = masked;
    SmallVector<Value> terms;
    for (tile::ReduceOp sibling : group) {
      Block &body = sibling.getBody().front();
      if (failed(lowerBlock(body)))
        status = failure();
      auto yield = cast<tile::YieldOp>(body.getTerminator());
      terms.push_back(mapping.lookup(yield.getValue()));
    }
    reducedLanes.masked = false;
    return terms;
  };
  // The masked steps first: their lanes past the range fold the
  // identity; their totals start the whole steps'.
  Value identity = reductionIdentity(b, loc, kind, laneType);
  auto masked = scf::ForOp::create(b, loc, fullEnd, end, cIndex(lanes),
                                   SmallVector<Value>(group.size(), identity));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(masked.getBody());
    Value at = masked.getInductionVar();
    Value inRange = vector::BroadcastOp::create(
        b, loc, VectorType::get(laneShape, b.getI1Type()),
        lanesInside(at, lanes, end));
    SmallVector<Value> next;
    for (auto [acc, term] :
         llvm::zip(masked.getRegionIterArgs(), termsAt(at, /*masked=*/true)))
      next.push_back(combineReduction(
          b, loc, kind, acc,
          arith::SelectOp::create(b, loc, inRange, term, identity)));
    scf::YieldOp::create(b, loc, next);
  }
  // The whole steps, `lanes` indices at a time.
  auto loopOver = [&](Value from, Value to, ValueRange accs) {
    auto loop = scf::ForOp::create(b, loc, from, to, cIndex(lanes), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next;
    for (auto [acc, term] :
         llvm::zip(loop.getRegionIterArgs(),
                   termsAt(loop.getInductionVar(), /*masked=*/false)))
      next.push_back(foldTerm(kind, acc, term));
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(loop.getResults());
  };
  // A float sum in blocks of kSumBlock indices (a whole number of steps),
  // each block's partials added to the totals with Kahan's compensation.
  SmallVector<Value> totals =
      isFloatSum(kind, type)
          ? emitBlockedSum(b, loc, first, fullEnd, masked.getResults(),
                           [&](Value start, Value stop, ValueRange zeros) {
                             return loopOver(start, stop, zeros);
                           })
          : loopOver(first, fullEnd, masked.getResults());
  leaveReducedLanes(view);
  SmallVector<Value> results;
  for (Value total : totals)
    results.push_back(reduceAcrossLanes(total, kind, type));
  return results;
}

Value ProgramLowering::broadcastAlongLanes(Value v, int64_t lanes) {
  auto type = cast<VectorType>(v.getType());
  SmallVector<int64_t> column(type.getShape()), wide(type.getShape());
  column.push_back(1);
  wide.push_back(lanes);
  Value shaped = vector::ShapeCastOp::create(
      b, loc, VectorType::get(column, type.getElementType()), v);
  return vector::BroadcastOp::create(
      b, loc, VectorType::get(wide, type.getElementType()), shaped);
}

int64_t ProgramLowering::streamLanesOf(tile::OnlineReduceOp op,
                                       ValueRange init) {
  if (keys || !reducedIVs.empty() ||
      !tile::tileFoldsAlongReducedLanes(tileShape) ||
      !tile::streamFoldsAlongReducedLanes(op))
    return 0;
  for (Value tile : tilesFromOutside({op.getOperation()})) {
    auto lowered = dyn_cast<VectorType>(mapping.lookup(tile).getType());
    if (!lowered || lowered.getRank() != rank)
      return 0;
  }
  int64_t lanes = 0;
  for (Value acc : init) {
    int64_t accLanes = reducedLanesOf(cast<VectorType>(acc.getType()));
    if (!accLanes)
      return 0;
    lanes = lanes ? std::min(lanes, accLanes) : accLanes;
  }
  return lanes;
}

SmallVector<Value>
ProgramLowering::foldStreamAlongLanes(tile::OnlineReduceOp op, ValueRange init,
                                      Value first, Value fullEnd, int64_t lanes,
                                      LogicalResult &status) {
  SmallVector<Value> lanesInit;
  for (auto [i, acc] : llvm::enumerate(init)) {
    auto type = cast<VectorType>(acc.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(lanes);
    lanesInit.push_back(
        reductionIdentity(b, loc, op.getAccumulatorKind(i),
                          VectorType::get(shape, type.getElementType())));
  }
  SmallVector<int64_t> laneShape(tileShape);
  laneShape.push_back(lanes);
  ReducedLanesView view;
  enterReducedLanes({op.getOperation()}, laneShape, fullEnd, view);
  // What each value varies along, the lanes among the dimensions.
  auto outerVaries = std::move(streamVaries);
  streamVaries.clear();
  inferStreamVaries(op);
  // A step: kLaneStreamBlock vectors of keys, a key of each lane's
  // stream, folded as a block (the repairs once a block).
  streamKeyStride = lanes;
  auto loop =
      scf::ForOp::create(b, loc, first, fullEnd,
                         cIndex(lanes * tile::kLaneStreamBlock), lanesInit);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    base.back() = loop.getInductionVar();
    SmallVector<Value> next =
        stepOnlineReduce(op, loop.getRegionIterArgs(), loop.getInductionVar(),
                         tile::kLaneStreamBlock, status);
    scf::YieldOp::create(b, loc, next);
  }
  streamKeyStride = 1;
  // Each lane streamed the same number of keys.
  Value count = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, fullEnd, first), cIndex(lanes));
  SmallVector<Value> merged =
      mergeStreamLanes(op, loop.getResults(), init, count, lanes, status);
  leaveReducedLanes(view);
  streamVaries = std::move(outerVaries);
  return merged;
}

SmallVector<Value> ProgramLowering::mergeStreamLanes(tile::OnlineReduceOp op,
                                                     ValueRange lanesAcc,
                                                     ValueRange init,
                                                     Value count, int64_t lanes,
                                                     LogicalResult &status) {
  unsigned numAccumulators = lanesAcc.size();
  SmallVector<Value> merged(numAccumulators), oldSafe, newSafe;
  Value keysBefore;
  for (unsigned i = 0; i < numAccumulators; ++i) {
    if (!op.isLeader(i))
      continue;
    auto type = cast<VectorType>(init[i].getType());
    auto laneType = cast<VectorType>(lanesAcc[i].getType());
    Type element = type.getElementType();
    if (op.isMean(i)) {
      // The lanes' counts are equal: the mean of their means.
      Value sum = reduceAcrossLanes(lanesAcc[i], alg::ReductionKind::sum, type);
      merged[i] = arith::DivFOp::create(
          b, loc, sum,
          arith::ConstantOp::create(
              b, loc, type,
              DenseElementsAttr::get(type,
                                     b.getFloatAttr(element, double(lanes)))));
      Value asInteger =
          arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
      keysBefore = vector::BroadcastOp::create(
          b, loc, laneType,
          arith::SIToFPOp::create(b, loc, element, asInteger));
      oldSafe.push_back(lanesAcc[i]);
      newSafe.push_back(broadcastAlongLanes(merged[i], lanes));
      continue;
    }
    alg::ReductionKind kind = op.getAccumulatorKind(i);
    merged[i] = reduceAcrossLanes(lanesAcc[i], kind, type);
    // (A lane's leader still at its identity repairs by 1: its followers
    // are still 0.)
    auto [oldLeader, newLeader] =
        safeLeaders(kind, lanesAcc[i], broadcastAlongLanes(merged[i], lanes));
    oldSafe.push_back(oldLeader);
    newSafe.push_back(newLeader);
  }
  SmallVector<Value> factors(numAccumulators), addends(numAccumulators);
  lowerRepairs(op, oldSafe, newSafe, keysBefore, factors, addends, status);
  for (unsigned i = 0; i < numAccumulators; ++i) {
    if (op.isLeader(i))
      continue;
    Value repaired = lanesAcc[i];
    auto laneType = cast<VectorType>(repaired.getType());
    auto wide = [&](Value v) -> Value {
      return v.getType() == laneType
                 ? v
                 : vector::BroadcastOp::create(b, loc, laneType, v).getResult();
    };
    if (factors[i])
      repaired = arith::MulFOp::create(b, loc, repaired, wide(factors[i]));
    if (addends[i])
      repaired = arith::AddFOp::create(b, loc, repaired, wide(addends[i]));
    merged[i] = reduceAcrossLanes(repaired, op.getAccumulatorKind(i),
                                  cast<VectorType>(init[i].getType()));
  }
  return merged;
}
