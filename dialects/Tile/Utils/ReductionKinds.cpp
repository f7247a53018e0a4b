//===- ReductionKinds.cpp -------------------------------------------------===//
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;

Value nautilus::reductionIdentity(OpBuilder &b, Location loc,
                                  alg::ReductionKind kind, Type type) {
  Type e = getElementTypeOrSelf(type);
  TypedAttr value;
  if (auto f = dyn_cast<FloatType>(e)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    switch (kind) {
    case alg::ReductionKind::sum: value = b.getFloatAttr(e, 0.0); break;
    case alg::ReductionKind::prod: value = b.getFloatAttr(e, 1.0); break;
    case alg::ReductionKind::max:
      value = b.getFloatAttr(e, llvm::APFloat::getInf(sem, /*Negative=*/true));
      break;
    case alg::ReductionKind::min:
      value = b.getFloatAttr(e, llvm::APFloat::getInf(sem));
      break;
    }
  } else {
    unsigned w = e.getIntOrFloatBitWidth();
    switch (kind) {
    case alg::ReductionKind::sum: value = b.getIntegerAttr(e, 0); break;
    case alg::ReductionKind::prod: value = b.getIntegerAttr(e, 1); break;
    case alg::ReductionKind::max:
      value = b.getIntegerAttr(e, llvm::APInt::getSignedMinValue(w));
      break;
    case alg::ReductionKind::min:
      value = b.getIntegerAttr(e, llvm::APInt::getSignedMaxValue(w));
      break;
    }
  }
  if (auto vec = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, vec,
                                     DenseElementsAttr::get(vec, value));
  return arith::ConstantOp::create(b, loc, value);
}

Value nautilus::combineReduction(OpBuilder &b, Location loc,
                                 alg::ReductionKind kind, Value a, Value c) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(a.getType()));
  switch (kind) {
  case alg::ReductionKind::sum:
    return isFloat ? arith::AddFOp::create(b, loc, a, c).getResult()
                   : arith::AddIOp::create(b, loc, a, c).getResult();
  case alg::ReductionKind::prod:
    return isFloat ? arith::MulFOp::create(b, loc, a, c).getResult()
                   : arith::MulIOp::create(b, loc, a, c).getResult();
  case alg::ReductionKind::max:
    return isFloat ? arith::MaximumFOp::create(b, loc, a, c).getResult()
                   : arith::MaxSIOp::create(b, loc, a, c).getResult();
  case alg::ReductionKind::min:
    return isFloat ? arith::MinimumFOp::create(b, loc, a, c).getResult()
                   : arith::MinSIOp::create(b, loc, a, c).getResult();
  }
  llvm_unreachable("unknown reduction kind");
}

/// [0, extent), or chunk s = origin[splitDim]'s [s x C, min(extent, (s + 1) x
/// C)) (with `clamp`, its first index at most `extent`: a part past the extent
/// streams [extent, extent)).
static std::pair<Value, Value> chunkRange(OpBuilder &b, Location loc,
                                          std::optional<uint64_t> splitDim,
                                          Value chunk, Value extent,
                                          ArrayRef<Value> origin,
                                          bool clamp = false) {
  if (!splitDim)
    return {arith::ConstantIndexOp::create(b, loc, 0), extent};
  Value first = arith::MulIOp::create(b, loc, origin[*splitDim], chunk);
  if (clamp)
    first = arith::MinSIOp::create(b, loc, first, extent);
  Value end = arith::MinSIOp::create(
      b, loc, extent, arith::AddIOp::create(b, loc, first, chunk));
  return {first, end};
}

std::pair<Value, Value>
nautilus::emitReducedRange(OpBuilder &b, Location loc, tile::ReduceOp reduce,
                           Value extent, ArrayRef<Value> origin) {
  Value chunk;
  if (reduce.isSplit())
    chunk = arith::ConstantIndexOp::create(b, loc, *reduce.getSplitChunk());
  return chunkRange(b, loc, reduce.getSplitDim(), chunk, extent, origin);
}

std::pair<Value, Value>
nautilus::emitStreamedRange(OpBuilder &b, Location loc,
                            tile::OnlineReduceOp stream, Value extent,
                            ArrayRef<Value> origin) {
  Value chunk;
  if (stream.isSplit())
    chunk = emitStreamChunk(b, loc, stream, extent);
  return chunkRange(b, loc, stream.getSplitDim(), chunk, extent, origin,
                    stream.getSplitParts().has_value());
}

Value nautilus::emitStreamChunk(OpBuilder &b, Location loc,
                                tile::OnlineReduceOp stream, Value extent) {
  int64_t granule = *stream.getSplitChunk();
  Value fixed = arith::ConstantIndexOp::create(b, loc, granule);
  if (!stream.getSplitParts())
    return fixed;
  // ceil(ceil(extent / P) / C) x C, at least C: a chunk of whole granules.
  Value parts = arith::ConstantIndexOp::create(b, loc, *stream.getSplitParts());
  Value even = arith::CeilDivUIOp::create(b, loc, extent, parts);
  Value granules = arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, even, fixed),
      arith::ConstantIndexOp::create(b, loc, 1));
  return arith::MulIOp::create(b, loc, granules, fixed);
}

bool nautilus::isFloatSum(alg::ReductionKind kind, Type element) {
  if (auto vec = dyn_cast<VectorType>(element))
    element = vec.getElementType();
  return kind == alg::ReductionKind::sum && isa<FloatType>(element);
}

SmallVector<Value> nautilus::emitBlockedSum(
    OpBuilder &b, Location loc, Value first, Value end, ValueRange totals,
    function_ref<SmallVector<Value>(Value, Value, ValueRange)> block) {
  SmallVector<Value> carried(totals), zeros;
  for (Value total : totals)
    zeros.push_back(
        reductionIdentity(b, loc, alg::ReductionKind::sum, total.getType()));
  carried.append(zeros); // the compensations: what the totals lost
  Value step = arith::ConstantIndexOp::create(b, loc, kSumBlock);
  auto blocks = scf::ForOp::create(b, loc, first, end, step, carried);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(blocks.getBody());
  Value start = blocks.getInductionVar();
  Value stop = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, step), end);
  SmallVector<Value> partial = block(start, stop, zeros);
  ValueRange args = blocks.getRegionIterArgs();
  unsigned count = totals.size();
  SmallVector<Value> next(2 * count);
  for (unsigned j = 0; j < count; ++j) {
    Value total = args[j], lost = args[count + j];
    Value y = arith::SubFOp::create(b, loc, partial[j], lost);
    Value t = arith::AddFOp::create(b, loc, total, y);
    next[j] = t;
    next[count + j] = arith::SubFOp::create(
        b, loc, arith::SubFOp::create(b, loc, t, total), y);
  }
  scf::YieldOp::create(b, loc, next);
  return SmallVector<Value>(blocks.getResults().take_front(count));
}
