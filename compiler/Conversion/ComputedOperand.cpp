//===- ComputedOperand.cpp - A contraction operand evaluated in place -----===//
#include "compiler/Conversion/ComputedOperand.h"
#include "compiler/Conversion/AffineExpansion.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;

Value nautilus::emitGuardedLoad(OpBuilder &b, Location loc, Value buffer,
                                ValueRange indices) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [j, i] : llvm::enumerate(indices)) {
    Value size = memref::DimOp::create(b, loc, buffer, j);
    ok = arith::AndIOp::create(
        b, loc, ok,
        arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                  zeroIndex),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, size)));
  }
  auto ifOk = scf::IfOp::create(b, loc, TypeRange{element}, ok,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOk.getThenRegion().front());
  scf::YieldOp::create(
      b, loc, ValueRange{memref::LoadOp::create(b, loc, buffer, indices)});
  b.setInsertionPointToStart(&ifOk.getElseRegion().front());
  scf::YieldOp::create(
      b, loc,
      ValueRange{arith::ConstantOp::create(b, loc, element,
                                           b.getZeroAttr(element))});
  return ifOk.getResult(0);
}

ComputedRun ComputedOperand::read(OpBuilder &b, Location loc,
                                  ArrayRef<Value> dims, Value k,
                                  int64_t length) {
  ComputedRun run;
  run.length = length;
  Block &body = region.front();
  unsigned kDim = dims.size();
  SmallVector<Value, 8> ks;
  for (int64_t e = 0; e < length; ++e)
    ks.push_back(e == 0 ? k
                        : arith::AddIOp::create(
                              b, loc, k,
                              arith::ConstantIndexOp::create(b, loc, e)));
  run.values[body.getArgument(0)] = ks;
  for (auto load : body.getOps<tile::LoadOp>()) {
    bool alongK = llvm::any_of(load.getMap().getResults(), [&](AffineExpr e) {
      return involvesDim(e, kDim);
    });
    Value buffer = outer.lookup(load.getBuffer());
    SmallVector<Value, 8> &elements = run.values[load.getResult()];
    for (int64_t e = 0; e < (alongK ? length : 1); ++e) {
      SmallVector<Value> at(dims.begin(), dims.end());
      at.push_back(ks[e]);
      SmallVector<Value> indices;
      for (AffineExpr expr : load.getMap().getResults())
        indices.push_back(
            expandAffine(b, loc, expr, b.getIndexType(), at, sizeArgs));
      elements.push_back(emitGuardedLoad(b, loc, buffer, indices));
    }
  }
  return run;
}

SmallVector<Value> ComputedOperand::finish(OpBuilder &b, Location loc,
                                           ArrayRef<Value> dims,
                                           ComputedRun &run) {
  Block &body = region.front();
  // A value: its scalars in the run (one when uniform), or an outer scalar.
  auto scalarsOf = [&](Value v) -> SmallVector<Value, 8> {
    auto it = run.values.find(v);
    if (it != run.values.end())
      return it->second;
    return {outer.lookup(v)};
  };
  for (Operation &op : body.without_terminator()) {
    if (isa<tile::LoadOp>(op))
      continue; // read in phase one
    Value result = op.getResult(0);
    if (auto index = dyn_cast<tile::IndexOp>(op)) {
      run.values[result] = {dims[index.getDim()]};
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      run.values[result] = {arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()))};
      continue;
    }
    if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
      run.values[result] = scalarsOf(broadcast.getSource());
      continue;
    }
    // Element-wise: once when every operand is uniform over the run.
    SmallVector<SmallVector<Value, 8>> operands;
    int64_t count = 1;
    for (Value operand : op.getOperands()) {
      operands.push_back(scalarsOf(operand));
      count = std::max<int64_t>(count, operands.back().size());
    }
    Type element = getElementTypeOrSelf(result.getType());
    SmallVector<Value, 8> &elements = run.values[result];
    for (int64_t e = 0; e < count; ++e) {
      IRMapping map;
      for (auto [operand, scalars] : llvm::zip(op.getOperands(), operands))
        map.map(operand, scalars[scalars.size() == 1 ? 0 : e]);
      Operation *copy = b.clone(op, map);
      copy->getResult(0).setType(element);
      elements.push_back(copy->getResult(0));
    }
  }
  SmallVector<Value, 8> yielded =
      scalarsOf(cast<tile::YieldOp>(body.getTerminator()).getValue());
  SmallVector<Value> out;
  for (int64_t e = 0; e < run.length; ++e)
    out.push_back(yielded[yielded.size() == 1 ? 0 : e]);
  return out;
}
