//===- ComputedOperand.cpp - A contraction operand evaluated in place -----===//
#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace nautilus;

/// Whether `indices` lie inside `buffer` (an i1).
static Value insideBuffer(OpBuilder &b, Location loc, Value buffer,
                          ValueRange indices) {
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
  return ok;
}

static Value zeroOf(OpBuilder &b, Location loc, Value buffer) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  return arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
}

Value nautilus::emitGuardedLoad(OpBuilder &b, Location loc, Value buffer,
                                ValueRange indices) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  Value ok = insideBuffer(b, loc, buffer, indices);
  auto ifOk = scf::IfOp::create(b, loc, TypeRange{element}, ok,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOk.getThenRegion().front());
  scf::YieldOp::create(
      b, loc, ValueRange{memref::LoadOp::create(b, loc, buffer, indices)});
  b.setInsertionPointToStart(&ifOk.getElseRegion().front());
  scf::YieldOp::create(b, loc, ValueRange{zeroOf(b, loc, buffer)});
  return ifOk.getResult(0);
}

/// A row-major buffer: the identity layout, or (a buffer the GPU lowering
/// views at its bound sizes, `memref.reinterpret_cast`) strides that are
/// the shape's row-major ones.
static bool isRowMajor(MemRefType type) {
  return type.getLayout().isIdentity() ||
         type.areTrailingDimsContiguous(type.getRank());
}

Value nautilus::emitClampedLoad(OpBuilder &b, Location loc, Value buffer,
                                ValueRange indices) {
  Value ok = insideBuffer(b, loc, buffer, indices);
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() > 1 && isRowMajor(type)) {
    // A row-major buffer: clamp the linear offset rather than each index.
    // The outer indices' part of the offset then stays loop-invariant when
    // only the innermost index moves (a row reduction), and LLVM computes
    // it once; clamping each index made every element multiply its row by
    // the row's length again (24 SASS instructions an element).
    Value offset = indices.front();
    for (int64_t j = 1; j < type.getRank(); ++j)
      offset = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, offset,
                                memref::DimOp::create(b, loc, buffer, j)),
          indices[j]);
    SmallVector<ReassociationIndices, 1> all(1);
    for (int64_t j = 0; j < type.getRank(); ++j)
      all.front().push_back(j);
    Value flat = memref::CollapseShapeOp::create(b, loc, buffer, all);
    Value value = memref::LoadOp::create(
        b, loc, flat,
        ValueRange{arith::SelectOp::create(b, loc, ok, offset, zeroIndex)});
    return arith::SelectOp::create(b, loc, ok, value, zeroOf(b, loc, buffer));
  }
  SmallVector<Value> clamped;
  for (Value i : indices)
    clamped.push_back(arith::SelectOp::create(b, loc, ok, i, zeroIndex));
  Value value = memref::LoadOp::create(b, loc, buffer, clamped);
  return arith::SelectOp::create(b, loc, ok, value, zeroOf(b, loc, buffer));
}

Value nautilus::emitNonEmpty(OpBuilder &b, Location loc, Value buffer) {
  Value nonEmpty = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto type = cast<MemRefType>(buffer.getType());
  for (int64_t j = 0; j < type.getRank(); ++j)
    nonEmpty = arith::AndIOp::create(
        b, loc, nonEmpty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                              memref::DimOp::create(b, loc, buffer, j),
                              arith::ConstantIndexOp::create(b, loc, 0)));
  return nonEmpty;
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
  // A gather's indices are computed in this phase, from the reads they
  // depend on (the rows of a grouped GEMM, say).
  llvm::SetVector<Operation *> indexOps;
  for (auto load : body.getOps<tile::LoadOp>())
    for (Value index : load.getIndirect()) {
      SmallVector<Value> work = {index};
      while (!work.empty()) {
        Operation *def = work.pop_back_val().getDefiningOp();
        if (!def || def->getParentRegion() != &region ||
            isa<tile::LoadOp>(def) || !indexOps.insert(def))
          continue;
        work.append(def->operand_begin(), def->operand_end());
      }
    }
  for (Operation &op : body.without_terminator()) {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load) {
      if (indexOps.contains(&op))
        evaluate(b, loc, dims, op, run);
      continue;
    }
    Value buffer = outer.lookup(load.getBuffer());
    // Per buffer position: the map's result, or a gathered index.
    unsigned rank = cast<MemRefType>(buffer.getType()).getRank();
    ArrayRef<int64_t> gathered = load.getIndirectPositions();
    SmallVector<SmallVector<Value, 8>> gatheredScalars;
    bool gatheredAlongK = false;
    for (Value index : load.getIndirect()) {
      gatheredScalars.push_back(run.values.lookup(index));
      gatheredAlongK |= gatheredScalars.back().size() > 1;
    }
    bool alongK = gatheredAlongK ||
                  llvm::any_of(load.getMap().getResults(), [&](AffineExpr e) {
                    return involvesDim(e, kDim);
                  });
    auto indicesAt = [&](int64_t e) {
      SmallVector<Value> at(dims.begin(), dims.end());
      at.push_back(ks[e]);
      SmallVector<Value> indices;
      unsigned mapped = 0;
      for (unsigned j = 0; j < rank; ++j) {
        const int64_t *g = llvm::find(gathered, static_cast<int64_t>(j));
        if (g != gathered.end()) {
          const SmallVector<Value, 8> &scalars =
              gatheredScalars[g - gathered.begin()];
          indices.push_back(scalars[scalars.size() == 1 ? 0 : e]);
          continue;
        }
        indices.push_back(expandAffine(b, loc, load.getMap().getResult(mapped++),
                                       b.getIndexType(), at, sizeArgs));
      }
      return indices;
    };
    auto elementByElement = [&](int64_t count) {
      SmallVector<Value, 8> elements;
      for (int64_t e = 0; e < count; ++e)
        elements.push_back(emitGuardedLoad(b, loc, buffer, indicesAt(e)));
      return elements;
    };
    bool innermostGathered = llvm::is_contained(gathered, rank - 1);
    if (!alongK) {
      run.values[load.getResult()] = elementByElement(1);
      continue;
    }
    if (gatheredAlongK || innermostGathered ||
        !readsRunContiguously(load.getMap(), kDim, length, buffer)) {
      run.values[load.getResult()] = elementByElement(length);
      continue;
    }
    run.values[load.getResult()] =
        loadRun(b, loc, buffer, indicesAt(0), length,
                [&] { return elementByElement(length); });
  }
  return run;
}

bool nautilus::readsRunContiguously(AffineMap map, unsigned kDim,
                                    int64_t length, Value buffer) {
  // The innermost index is the reduced one itself, no other index reads
  // it, the buffer is row-major, and the run fills whole 16-byte vectors.
  // (Not bools: a vector of i1 is bits, where each bool is a byte; and
  // their width in bytes, 0, left loadRun dividing by zero.)
  auto memType = cast<MemRefType>(buffer.getType());
  if (!memType.getElementType().isIntOrFloat())
    return false;
  int64_t bytes = memType.getElementTypeBitWidth() / 8;
  return isContiguousAlong(map, kDim) && isRowMajor(memType) && bytes >= 1 &&
         bytes <= 16 && (length * bytes) % 16 == 0;
}

SmallVector<Value, 8>
nautilus::loadRun(OpBuilder &b, Location loc, Value buffer,
                  ValueRange first, int64_t length,
                  function_ref<SmallVector<Value, 8>()> elementByElement) {
  // Inside the buffer, with rows a multiple of a vector and the run's
  // start on a vector's boundary (its elements are aligned as a whole
  // vector's: the buffer's base is), vector loads of 16 bytes (or the
  // whole run, if shorter); otherwise element by element, each guarded.
  auto memType = cast<MemRefType>(buffer.getType());
  Type element = memType.getElementType();
  int64_t bytes = memType.getElementTypeBitWidth() / 8;
  assert(bytes >= 1 && "a run of whole bytes (not bools)");
  int64_t perVector = std::min<int64_t>(16 / bytes, length);
  assert(length % perVector == 0 && llvm::isPowerOf2_64(perVector) &&
         "a run of whole vectors");
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  unsigned rank = memType.getRank();
  for (unsigned j = 0; j < rank; ++j) {
    Value size = memref::DimOp::create(b, loc, buffer, j);
    Value last = j + 1 == rank
                     ? arith::AddIOp::create(b, loc, first[j], c(length - 1))
                     : first[j];
    ok = arith::AndIOp::create(
        b, loc, ok,
        arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, first[j],
                                  c(0)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, last,
                                  size)));
    if (j + 1 == rank) {
      Value aligned = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq,
              arith::RemUIOp::create(b, loc, size, c(perVector)), c(0)),
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq,
              arith::RemUIOp::create(b, loc, first[j], c(perVector)), c(0)));
      ok = arith::AndIOp::create(b, loc, ok, aligned);
    }
  }
  SmallVector<Type> types(length, element);
  auto ifWhole = scf::IfOp::create(b, loc, types, ok, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifWhole.getThenRegion().front());
    SmallVector<Value> elements;
    for (int64_t v = 0; v < length; v += perVector) {
      SmallVector<Value> at(first.begin(), first.end());
      at.back() = arith::AddIOp::create(b, loc, at.back(), c(v));
      Value vector = vector::LoadOp::create(
          b, loc, VectorType::get({perVector}, element), buffer, at,
          /*nontemporal=*/false, b.getI64IntegerAttr(perVector * bytes));
      for (int64_t e = 0; e < perVector; ++e)
        elements.push_back(vector::ExtractOp::create(b, loc, vector, e));
    }
    scf::YieldOp::create(b, loc, elements);
    b.setInsertionPointToStart(&ifWhole.getElseRegion().front());
    scf::YieldOp::create(b, loc, ValueRange(elementByElement()));
  }
  return SmallVector<Value, 8>(ifWhole.getResults().begin(),
                               ifWhole.getResults().end());
}

SmallVector<Value, 8> ComputedOperand::scalarsOf(Value v,
                                                 const ComputedRun &run) {
  auto it = run.values.find(v);
  if (it != run.values.end())
    return it->second;
  return {outer.lookup(v)};
}

void ComputedOperand::evaluate(OpBuilder &b, Location loc,
                               ArrayRef<Value> dims, Operation &op,
                               ComputedRun &run) {
  Value result = op.getResult(0);
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    run.values[result] = {dims[index.getDim()]};
    return;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    run.values[result] = {arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()))};
    return;
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    run.values[result] = scalarsOf(broadcast.getSource(), run);
    return;
  }
  // Element-wise: once when every operand is uniform over the run.
  SmallVector<SmallVector<Value, 8>> operands;
  int64_t count = 1;
  for (Value operand : op.getOperands()) {
    operands.push_back(scalarsOf(operand, run));
    count = std::max<int64_t>(count, operands.back().size());
  }
  Type element = getElementTypeOrSelf(result.getType());
  SmallVector<Value, 8> elements;
  for (int64_t e = 0; e < count; ++e) {
    IRMapping map;
    for (auto [operand, scalars] : llvm::zip(op.getOperands(), operands))
      map.map(operand, scalars[scalars.size() == 1 ? 0 : e]);
    Operation *copy = b.clone(op, map);
    copy->getResult(0).setType(element);
    elements.push_back(copy->getResult(0));
  }
  run.values[result] = std::move(elements);
}

SmallVector<Value> ComputedOperand::finish(OpBuilder &b, Location loc,
                                           ArrayRef<Value> dims,
                                           ComputedRun &run) {
  Block &body = region.front();
  for (Operation &op : body.without_terminator())
    if (!isa<tile::LoadOp>(op) && !run.values.count(op.getResult(0)))
      evaluate(b, loc, dims, op, run); // not computed in phase one
  SmallVector<Value, 8> yielded =
      scalarsOf(cast<tile::YieldOp>(body.getTerminator()).getValue(), run);
  SmallVector<Value> out;
  for (int64_t e = 0; e < run.length; ++e)
    out.push_back(yielded[yielded.size() == 1 ? 0 : e]);
  return out;
}

SmallVector<Value> ComputedOperand::finishInside(OpBuilder &b, Location loc,
                                                 ArrayRef<Value> dims,
                                                 ComputedRun &run,
                                                 Value rowInside, Value k,
                                                 Value extent) {
  // The other operand is zero there too, but a computed value need not be
  // finite (exp(0 - Mx) is inf for a very negative Mx), and inf x 0 is NaN.
  SmallVector<Value> elements = finish(b, loc, dims, run);
  Type element = elements.front().getType();
  Value zero =
      arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  for (size_t e = 0; e < elements.size(); ++e) {
    Value ke = arith::AddIOp::create(
        b, loc, k, arith::ConstantIndexOp::create(b, loc, e));
    Value inside = arith::AndIOp::create(
        b, loc, rowInside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ke, extent));
    elements[e] = arith::SelectOp::create(b, loc, inside, elements[e], zero);
  }
  return elements;
}
