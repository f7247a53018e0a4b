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

/// The vector tiles `group`'s bodies read from outside them, each once.
static SmallVector<Value> tilesFromOutside(ArrayRef<tile::ReduceOp> group) {
  SmallVector<Value> tiles;
  for (tile::ReduceOp reduce : group)
    reduce.getBody().walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (isa<VectorType>(operand.getType()) &&
            !reduce->isAncestor(operand.getParentBlock()->getParentOp()) &&
            !llvm::is_contained(tiles, operand))
          tiles.push_back(operand);
    });
  return tiles;
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
  for (Value tile : tilesFromOutside(group)) {
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

Value ProgramLowering::wholeStepsEnd(ArrayRef<tile::ReduceOp> group,
                                     Value first, Value end, int64_t lanes) {
  // Inside every buffer read along the reduced index: its extent is
  // theirs, unless a kernel reads out of range (as X[r, c + 0] may).
  Value insideEnd = end;
  for (tile::ReduceOp sibling : group)
    sibling.getBody().walk([&](tile::LoadOp load) {
      if (!tile::readsReducedIndex(load, rank))
        return;
      Value buffer = mapping.lookup(load.getBuffer());
      unsigned last = cast<MemRefType>(buffer.getType()).getRank() - 1;
      insideEnd = arith::MinSIOp::create(
          b, loc, insideEnd, memref::DimOp::create(b, loc, buffer, last));
    });
  Value whole = arith::MaxSIOp::create(
      b, loc, cIndex(0), arith::SubIOp::create(b, loc, insideEnd, first));
  return arith::AddIOp::create(
      b, loc, first,
      arith::MulIOp::create(
          b, loc, arith::DivSIOp::create(b, loc, whole, cIndex(lanes)),
          cIndex(lanes)));
}

void ProgramLowering::enterReducedLanes(ArrayRef<tile::ReduceOp> group,
                                        VectorType laneType, Value end,
                                        ReducedLanesView &view) {
  view.tile = tileShape;
  view.shape = valueShape;
  view.laneTile.assign(tileShape.begin(), tileShape.end());
  view.laneTile.push_back(laneType.getShape().back());
  tileShape = view.laneTile;
  valueShape.assign(laneType.getShape().begin(), laneType.getShape().end());
  ++rank;
  base.push_back(Value()); // each step's first index
  extents.push_back(end);
  // The tiles from outside, as columns broadcast along the lanes.
  for (Value tile : tilesFromOutside(group)) {
    Value lowered = mapping.lookup(tile);
    auto vec = cast<VectorType>(lowered.getType());
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
  extents.pop_back();
  base.pop_back();
  --rank;
  valueShape = view.shape;
  tileShape = view.tile;
}

/// Each row of `total` ([rows..., lanes]) reduced across its lanes by
/// `kind`: a tile of `type`.
static Value reduceAcrossLanes(OpBuilder &b, Location loc, Value total,
                               alg::ReductionKind kind, VectorType type) {
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
  Value fullEnd = wholeStepsEnd(group, first, end, lanes);
  SmallVector<int64_t> laneShape(type.getShape());
  laneShape.push_back(lanes);
  auto laneType = VectorType::get(laneShape, type.getElementType());
  ReducedLanesView view;
  enterReducedLanes(group, laneType, end, view);

  // Each reduction's term at the step whose lanes start at `at`.
  auto termsAt = [&](Value at, bool masked) {
    base.back() = at;
    reducedLanes = {true, masked};
    SmallVector<Value> terms;
    for (tile::ReduceOp sibling : group) {
      Block &body = sibling.getBody().front();
      if (failed(lowerBlock(body)))
        status = failure();
      auto yield = cast<tile::YieldOp>(body.getTerminator());
      terms.push_back(mapping.lookup(yield.getValue()));
    }
    reducedLanes = {};
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
    results.push_back(reduceAcrossLanes(b, loc, total, kind, type));
  return results;
}
