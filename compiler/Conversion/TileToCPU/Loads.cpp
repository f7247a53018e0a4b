//===- Loads.cpp - tile loads and stores as host vector code --------------===//
//
// A tile.load reads only along the output dimensions its index map depends
// on and broadcasts along the others (A[m, k] is a column, B[k, n] a row);
// along a contiguous innermost dimension it is one vector load per row (a
// masked one, its lanes' mask computed, only for a row at the buffer's
// edge), otherwise clamped scalar loads (few elements) or a masked gather.
// A tile.store is a vector store per row (masked at the output's edge).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/ReducedLanes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

Value ProgramLowering::indexVector(unsigned d, ArrayRef<int64_t> shape) {
  auto type = VectorType::get(shape, b.getIndexType());
  if (shape[d] == 1)
    return vector::BroadcastOp::create(b, loc, type, base[d]);
  auto line = VectorType::get({shape[d]}, b.getIndexType());
  Value step = vector::StepOp::create(b, loc, line);
  Value idx = arith::AddIOp::create(
      b, loc, step, vector::BroadcastOp::create(b, loc, line, base[d]));
  SmallVector<int64_t> unit(shape.size(), 1);
  unit[d] = shape[d];
  Value column = vector::ShapeCastOp::create(
      b, loc, VectorType::get(unit, b.getIndexType()), idx);
  return vector::BroadcastOp::create(b, loc, type, column);
}

Value ProgramLowering::allLanesInside(Value first, int64_t lanes, Value size) {
  Value from = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, first,
                                     cIndex(0));
  Value to = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sle,
      arith::AddIOp::create(b, loc, first, cIndex(lanes)), size);
  return arith::AndIOp::create(b, loc, from, to);
}

Value ProgramLowering::maskVector(ArrayRef<int64_t> shape) {
  auto type = VectorType::get(shape, b.getI1Type());
  Value mask;
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue; // the program's base is always inside the output
    auto indexType = VectorType::get(shape, b.getIndexType());
    Value inside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, indexVector(d, shape),
        vector::BroadcastOp::create(b, loc, indexType, extents[d]));
    mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult()
                : inside;
  }
  if (!mask)
    mask = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getBoolAttr(true)));
  return mask;
}

SmallVector<Value> ProgramLowering::strides(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> result(type.getRank());
  Value stride = cIndex(1);
  for (int64_t j = type.getRank() - 1; j >= 0; --j) {
    result[j] = stride;
    if (j > 0)
      stride = arith::MulIOp::create(
          b, loc, stride, memref::DimOp::create(b, loc, buffer, j));
  }
  return result;
}

Value ProgramLowering::flatView(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t j = 0; j < type.getRank(); ++j)
    all[0].push_back(j);
  return memref::CollapseShapeOp::create(b, loc, buffer, all);
}

Value ProgramLowering::clampInto(Value buffer, unsigned dim, Value index) {
  Value last = arith::SubIOp::create(
      b, loc, memref::DimOp::create(b, loc, buffer, dim), cIndex(1));
  return arith::MaxSIOp::create(b, loc, cIndex(0),
                                arith::MinSIOp::create(b, loc, index, last));
}

Value ProgramLowering::insideBuffer(Value buffer, ArrayRef<Value> indices,
                                    bool skipLast) {
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (unsigned j = 0; j + (skipLast ? 1 : 0) < indices.size(); ++j) {
    Value size = memref::DimOp::create(b, loc, buffer, j);
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                     indices[j], cIndex(0));
    Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     indices[j], size);
    ok = arith::AndIOp::create(b, loc, ok,
                               arith::AndIOp::create(b, loc, lo, hi));
  }
  return ok;
}

/// A vector of `type` holding zeros.
static Value zerosOf(OpBuilder &b, Location loc, VectorType type) {
  return arith::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

/// The row-major coordinates of element `index` of `shape`, written to the
/// first shape.size() entries of `offset`.
static void delinearize(int64_t index, ArrayRef<int64_t> shape,
                        MutableArrayRef<int64_t> offset) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    offset[d] = index % shape[d];
    index /= shape[d];
  }
}

/// The shape of the part of a tile a load depends on: the tile extent along
/// the output dimensions its map involves, 1 along the others.
static SmallVector<int64_t>
dependentShape(AffineMap map, ArrayRef<int64_t> tile, bool indirect,
               ArrayRef<std::optional<int64_t>> symbols) {
  SmallVector<int64_t> shape(tile.begin(), tile.end());
  if (indirect)
    return shape;
  // (An index constant over the tile along d, as a grouped-query head's
  // h floordiv group: one load for the tile; tile::isUniformOverTile.)
  for (unsigned d = 0; d < tile.size(); ++d) {
    bool used = llvm::any_of(map.getResults(), [&](AffineExpr e) {
      return !tile::isUniformOverTile(e, d, tile[d], symbols);
    });
    if (!used)
      shape[d] = 1;
  }
  return shape;
}

Value ProgramLowering::broadcastToTile(Value v, VectorType fullType) {
  if (cast<VectorType>(v.getType()).getShape() == fullType.getShape())
    return v;
  return vector::BroadcastOp::create(b, loc, fullType, v);
}

SmallVector<Value> ProgramLowering::loadIndices(const TileLoad &load,
                                                ArrayRef<int64_t> offset) {
  SmallVector<Value> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(offset[d] ? arith::AddIOp::create(b, loc, base[d],
                                                     cIndex(offset[d]))
                                   .getResult()
                             : base[d]);
  dims.append(reducedIVs.begin(), reducedIVs.end());
  auto mapped = [&](AffineExpr e) {
    return expandAffine(b, loc, e, b.getIndexType(), dims, sizeArgs);
  };
  if (!load.indirect) {
    SmallVector<Value> idx;
    for (AffineExpr e : load.map.getResults())
      idx.push_back(mapped(e));
    return idx;
  }
  // A gathered index: its tile's element at `offset` (within the tile's
  // shape: it may be narrower, broadcast along some dimensions).
  auto gathered = [&](Value index) -> Value {
    auto type = cast<VectorType>(index.getType());
    SmallVector<int64_t> at;
    for (auto [d, extent] : llvm::enumerate(type.getShape()))
      at.push_back(std::min<int64_t>(offset[d], extent - 1));
    return vector::ExtractOp::create(b, loc, index, at);
  };
  return loadIndices(load, gathered, mapped);
}

Value ProgramLowering::loadOneElement(const TileLoad &load) {
  SmallVector<Value> idx =
      load.memType.getRank() == 0
          ? SmallVector<Value>{}
          : loadIndices(load, SmallVector<int64_t>(rank, 0));
  // Clamped into the buffer: an unguarded read out of range is undefined
  // (LANGUAGE.md), but never a read outside the buffer.
  for (auto [j, i] : llvm::enumerate(idx))
    i = clampInto(load.buffer, j, i);
  Value v = memref::LoadOp::create(b, loc, load.buffer, idx);
  return vector::BroadcastOp::create(b, loc, load.fullType, v);
}

bool ProgramLowering::isUniformAlong(Value v, unsigned d) {
  if (tile::isUniformTile(v))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (auto load = dyn_cast<tile::LoadOp>(op))
    return load.getIndirect().empty() &&
           llvm::all_of(load.getMap().getResults(), [&](AffineExpr e) {
             return tile::isUniformOverTile(e, d, tileShape[d], knownSymbols);
           });
  if (auto index = dyn_cast<tile::IndexOp>(op))
    return index.getDim() != d;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(
          op))
    return isUniformAlong(op->getOperand(0), d);
  return false;
}

bool ProgramLowering::hasContiguousRows(const TileLoad &load) {
  unsigned last = rank - 1;
  tile::LoadOp op = load.op; // (its accessors are not const)
  unsigned gathered = op.getIndirect().size();
  if (rank == 0 || load.shape[last] <= 1 ||
      load.map.getNumResults() + gathered !=
          static_cast<unsigned>(load.memType.getRank()))
    return false;
  // A gathered load: the buffer's innermost index is mapped, and every
  // gathered index is the same along the row.
  if (gathered && (llvm::is_contained(op.getIndirectPositions(),
                                      load.memType.getRank() - 1) ||
                   llvm::any_of(op.getIndirect(), [&](Value index) {
                     return !isUniformAlong(index, last);
                   })))
    return false;
  AffineExpr inner = load.map.getResults().back();
  AffineExpr rest = inner - getAffineDimExpr(last, b.getContext());
  bool contiguous = !rest.isFunctionOfDim(last);
  for (AffineExpr e : load.map.getResults().drop_back())
    contiguous &= !e.isFunctionOfDim(last);
  return contiguous;
}

Value ProgramLowering::linearIndex(ArrayRef<Value> indices,
                                   ArrayRef<Value> stride) {
  Value l = cIndex(0);
  for (auto [i, s] : llvm::zip(indices, stride))
    l = arith::AddIOp::create(b, loc, l, arith::MulIOp::create(b, loc, i, s));
  return l;
}

Value ProgramLowering::lanesInside(Value first, int64_t lanes, Value size) {
  auto laneType = VectorType::get({lanes}, b.getIndexType());
  Value column = arith::AddIOp::create(
      b, loc, vector::StepOp::create(b, loc, laneType),
      vector::BroadcastOp::create(b, loc, laneType, first));
  return arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::sge, column,
          vector::BroadcastOp::create(b, loc, laneType, cIndex(0))),
      arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, column,
          vector::BroadcastOp::create(b, loc, laneType, size)));
}

Value ProgramLowering::loadRows(const TileLoad &load, ArrayRef<Value> stride,
                                Value flat) {
  unsigned last = rank - 1;
  ArrayRef<int64_t> shape = load.shape;
  Type element = load.fullType.getElementType();
  auto rowType = VectorType::get({shape[last]}, element);
  auto rowMaskType = VectorType::get({shape[last]}, b.getI1Type());
  Value lastSize = memref::DimOp::create(b, loc, load.buffer,
                                         load.memType.getRank() - 1);
  Value zero = zerosOf(b, loc, rowType);
  Value result = zerosOf(b, loc, VectorType::get(shape, element));
  // Every row: each combination of the leading coordinates. A lane is
  // read only inside the buffer.
  SmallVector<int64_t> offset(rank, 0);
  int64_t rows = load.count / shape[last];
  for (int64_t r = 0; r < rows; ++r) {
    delinearize(r, shape.take_front(last), offset);
    offset[last] = 0;
    SmallVector<Value> idx = loadIndices(load, offset);
    Value start = linearIndex(idx, stride);
    Value rowInside = insideBuffer(load.buffer, idx, /*skipLast=*/true);
    // A row inside the buffer whole (every row but those at an edge) is
    // read by a plain load; only a row at an edge computes its lanes' mask
    // (a compare of each lane's index, which cost more than the load).
    Value whole = arith::AndIOp::create(
        b, loc, rowInside, allLanesInside(idx.back(), shape[last], lastSize));
    auto ifWhole = scf::IfOp::create(b, loc, TypeRange{rowType}, whole,
                                     /*addThenBlock=*/true,
                                     /*addElseBlock=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifWhole.getThenRegion().front());
      scf::YieldOp::create(
          b, loc,
          vector::LoadOp::create(b, loc, rowType, flat, ValueRange{start})
              .getResult());
      b.setInsertionPointToStart(&ifWhole.getElseRegion().front());
      Value rowMask = arith::AndIOp::create(
          b, loc, lanesInside(idx.back(), shape[last], lastSize),
          vector::BroadcastOp::create(b, loc, rowMaskType, rowInside));
      scf::YieldOp::create(b, loc,
                           vector::MaskedLoadOp::create(b, loc, rowType, flat,
                                                        start, rowMask, zero)
                               .getResult());
    }
    Value row = ifWhole.getResult(0);
    if (rank == 1) {
      result = row;
      break;
    }
    SmallVector<int64_t> position(offset.begin(), offset.end() - 1);
    result = vector::InsertOp::create(b, loc, row, result, position);
  }
  return broadcastToTile(result, load.fullType);
}

Value ProgramLowering::loadReducedLanes(const TileLoad &load) {
  unsigned last = rank - 1; // the lanes' dimension
  ArrayRef<int64_t> shape = load.shape;
  Type element = load.fullType.getElementType();
  auto rowType = VectorType::get({shape[last]}, element);
  SmallVector<Value> stride = strides(load.buffer);
  Value flat = flatView(load.buffer);
  Value lastSize =
      memref::DimOp::create(b, loc, load.buffer, load.memType.getRank() - 1);
  Value zero = zerosOf(b, loc, rowType);
  Value result = zerosOf(b, loc, VectorType::get(shape, element));
  SmallVector<int64_t> offset(rank, 0);
  for (int64_t r = 0, rows = load.count / shape[last]; r < rows; ++r) {
    delinearize(r, shape.take_front(last), offset);
    offset[last] = 0;
    SmallVector<Value> idx = loadIndices(load, offset);
    // The row's other indices clamped into the buffer (a row past the
    // output's edge reads another, never stored); the lanes inside it but
    // in a masked step (whose mask also leaves out a row outside the
    // buffer: wholeStepsEnd's whole steps end at the buffer's edge, and
    // there are none in a buffer without rows).
    Value rowInside = insideBuffer(load.buffer, idx, /*skipLast=*/true);
    for (unsigned j = 0; j + 1 < idx.size(); ++j)
      idx[j] = clampInto(load.buffer, j, idx[j]);
    Value start = linearIndex(idx, stride);
    auto rowMaskType = VectorType::get({shape[last]}, b.getI1Type());
    Value row =
        reducedLanes.masked
            ? vector::MaskedLoadOp::create(
                  b, loc, rowType, flat, start,
                  arith::AndIOp::create(
                      b, loc, lanesInside(idx.back(), shape[last], lastSize),
                      vector::BroadcastOp::create(b, loc, rowMaskType,
                                                  rowInside)),
                  zero)
                  .getResult()
            : vector::LoadOp::create(b, loc, rowType, flat, ValueRange{start})
                  .getResult();
    SmallVector<int64_t> position(offset.begin(), offset.end() - 1);
    result = vector::InsertOp::create(b, loc, row, result, position);
  }
  return broadcastToTile(result, load.fullType);
}

Value ProgramLowering::loadElements(const TileLoad &load, bool zeroOutside) {
  SmallVector<Value> elements;
  SmallVector<int64_t> offset(rank, 0);
  Type elementType = load.fullType.getElementType();
  for (int64_t i = 0; i < load.count; ++i) {
    delinearize(i, load.shape, offset);
    SmallVector<Value> idx = loadIndices(load, offset);
    Value inside = zeroOutside
                       ? insideBuffer(load.buffer, idx, /*skipLast=*/false)
                       : Value();
    for (auto [j, i] : llvm::enumerate(idx))
      i = clampInto(load.buffer, j, i);
    Value element = memref::LoadOp::create(b, loc, load.buffer, idx);
    if (inside)
      element = arith::SelectOp::create(
          b, loc, inside, element,
          arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType)));
    elements.push_back(element);
  }
  Value v = vector::FromElementsOp::create(
      b, loc, VectorType::get(load.shape, load.fullType.getElementType()),
      elements);
  return broadcastToTile(v, load.fullType);
}

SmallVector<Value>
ProgramLowering::loadIndices(const TileLoad &load,
                             function_ref<Value(Value)> gathered,
                             function_ref<Value(AffineExpr)> mapped) {
  tile::LoadOp op = load.op; // (its accessors are not const)
  SmallVector<Value> idx;
  ArrayRef<int64_t> positions = op.getIndirectPositions();
  unsigned nextMapped = 0, nextGathered = 0;
  for (int64_t j = 0; j < load.memType.getRank(); ++j) {
    if (nextGathered < positions.size() && positions[nextGathered] == j)
      idx.push_back(
          gathered(mapping.lookup(op.getIndirect()[nextGathered++])));
    else
      idx.push_back(mapped(load.map.getResult(nextMapped++)));
  }
  return idx;
}

Value ProgramLowering::loadGatheredElement(const TileLoad &load) {
  SmallVector<Value> idx = loadIndices(
      load,
      [&](Value index) -> Value {
        return vector::ExtractOp::create(b, loc, index, ArrayRef<int64_t>{});
      },
      [&](AffineExpr e) {
        return expandAffine(b, loc, e, b.getIndexType(), reducedIVs,
                            sizeArgs);
      });
  Value inside = insideBuffer(load.buffer, idx, /*skipLast=*/false);
  for (auto [j, i] : llvm::enumerate(idx))
    i = clampInto(load.buffer, j, i);
  Value v = arith::SelectOp::create(
      b, loc, inside, memref::LoadOp::create(b, loc, load.buffer, idx),
      arith::ConstantOp::create(
          b, loc, b.getZeroAttr(load.fullType.getElementType())));
  return vector::BroadcastOp::create(b, loc, load.fullType, v);
}

Value ProgramLowering::loadGather(const TileLoad &load, ArrayRef<Value> stride,
                                  Value flat) {
  ArrayRef<int64_t> shape = load.shape;
  Type element = load.fullType.getElementType();
  auto indexType = VectorType::get(shape, b.getIndexType());
  SmallVector<Value> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(indexVector(d, shape));
  for (Value iv : reducedIVs)
    dims.push_back(vector::BroadcastOp::create(b, loc, indexType, iv));
  SmallVector<Value> syms;
  for (Value s : sizeArgs)
    syms.push_back(vector::BroadcastOp::create(b, loc, indexType, s));
  SmallVector<Value> idx = loadIndices(
      load, [](Value index) { return index; },
      [&](AffineExpr e) {
        return expandAffine(b, loc, e, indexType, dims, syms);
      });
  Value lin;
  for (auto [i, s] : llvm::zip(idx, stride)) {
    Value term = arith::MulIOp::create(
        b, loc, i, vector::BroadcastOp::create(b, loc, indexType, s));
    lin = lin ? arith::AddIOp::create(b, loc, lin, term).getResult() : term;
  }
  auto resultType = VectorType::get(shape, element);
  Value passThru = zerosOf(b, loc, resultType);
  // Elements are read only inside the buffer.
  Value inside;
  for (auto [j, i] : llvm::enumerate(idx)) {
    Value size = vector::BroadcastOp::create(
        b, loc, indexType, memref::DimOp::create(b, loc, load.buffer, j));
    Value zeroIndex = vector::BroadcastOp::create(b, loc, indexType, cIndex(0));
    Value ok = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i, zeroIndex),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, size));
    inside = inside ? arith::AndIOp::create(b, loc, inside, ok).getResult() : ok;
  }
  Value gathered1 = vector::GatherOp::create(
      b, loc, resultType, flat, ValueRange{cIndex(0)}, lin, inside, passThru);
  return broadcastToTile(gathered1, load.fullType);
}

TileLoad ProgramLowering::describeLoad(tile::LoadOp op) {
  TileLoad load;
  load.op = op;
  load.buffer = mapping.lookup(op.getBuffer());
  load.memType = cast<MemRefType>(load.buffer.getType());
  load.fullType = VectorType::get(valueShape, op.getType().getElementType());
  load.map = op.getMap();
  load.indirect = !op.getIndirect().empty();
  load.shape = dependentShape(load.map, tileShape, load.indirect, knownSymbols);
  for (int64_t s : load.shape)
    load.count *= s;
  return load;
}

Value ProgramLowering::lowerLoad(tile::LoadOp op) {
  if (auto panel = panelOfLoad.find(op); panel != panelOfLoad.end())
    return loadPackedPanel(
        panel->second,
        VectorType::get(valueShape, op.getType().getElementType()));
  TileLoad load = describeLoad(op);
  if (reducedLanes.active && tile::readsReducedIndex(op, rank - 1))
    return loadReducedLanes(load);
  // One element for the whole tile (or a rank-0 buffer): a scalar load.
  if (load.memType.getRank() == 0 || (load.count == 1 && !load.indirect))
    return loadOneElement(load);

  SmallVector<Value> stride = strides(load.buffer);
  Value flat = flatView(load.buffer);
  // Bools one element at a time, gathered ones too, false outside the
  // buffer: a vector load of i1 (or a masked load or gather of
  // consecutive lanes, which fold into one where the mask is every lane)
  // reads bits, where each bool is a byte.
  if (load.fullType.getElementType().isInteger(1) && rank > 0)
    return loadElements(load, /*zeroOutside=*/true);
  // Contiguous rows: the last map result is the innermost output index plus
  // something that does not depend on it, and nothing else depends on it.
  if (hasContiguousRows(load))
    return loadRows(load, stride, flat);
  // Few elements and not contiguous (A[m, k] in a GEMM: a column): one
  // scalar load each, at indices clamped into the buffer, so that no load
  // needs a mask (the values read for elements outside the output are
  // never stored).
  if (!load.indirect && load.count <= 64)
    return loadElements(load);
  // A gathered element of a rank-0 tile (a scalar definition reducing
  // W[ids[m]]): one scalar load, zero outside the buffer like the gather's.
  if (rank == 0)
    return loadGatheredElement(load);
  // A masked gather over the dependent shape.
  return loadGather(load, stride, flat);
}

void ProgramLowering::lowerProjectedStore(tile::StoreOp store) {
  Value buffer = mapping.lookup(store.getBuffer());
  auto type = cast<VectorType>(store.getValue().getType());
  Value value =
      broadcastToTile(mapping.lookup(store.getValue()),
                      VectorType::get(tileShape, type.getElementType()));
  // Only the instances at index 0 along the dimensions the buffer leaves
  // out store (the value is the same along them).
  Value first = arith::ConstantIntOp::create(b, loc, 1, 1);
  SmallVector<int64_t> keptShape;
  for (unsigned d = 0; d < rank; ++d) {
    if (store.keepsDim(d)) {
      keptShape.push_back(tileShape[d]);
      continue;
    }
    first = arith::AndIOp::create(
        b, loc, first,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base[d],
                              cIndex(0)));
  }
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
  // Of the tile, the elements at offset 0 along them: one scalar store
  // each, inside the output (a row's few values, once an instance).
  SmallVector<int64_t> kept(keptShape.size(), 0), offset(rank, 0);
  int64_t count = 1;
  for (int64_t t : keptShape)
    count *= t;
  for (int64_t i = 0; i < count; ++i) {
    delinearize(i, keptShape, kept);
    SmallVector<Value> at;
    Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (unsigned d = 0, k = 0; d < rank; ++d) {
      offset[d] = store.keepsDim(d) ? kept[k++] : 0;
      if (!store.keepsDim(d))
        continue;
      Value idx =
          offset[d] ? arith::AddIOp::create(b, loc, base[d], cIndex(offset[d]))
                          .getResult()
                    : base[d];
      inside = arith::AndIOp::create(
          b, loc, inside,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx,
                                extents[d]));
      at.push_back(idx);
    }
    auto ifInside = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    Value element = vector::ExtractOp::create(b, loc, value, offset);
    memref::StoreOp::create(b, loc, element, buffer, at);
  }
}

void ProgramLowering::lowerStore(tile::StoreOp store) {
  if (store.getAlong())
    return lowerProjectedStore(store);
  Value buffer = mapping.lookup(store.getBuffer());
  Value value = mapping.lookup(store.getValue());
  if (rank == 0) {
    Value scalar = vector::ExtractOp::create(b, loc, value, ArrayRef<int64_t>{});
    memref::StoreOp::create(b, loc, scalar, buffer, ValueRange{});
    return;
  }
  unsigned last = rank - 1;
  SmallVector<Value> stride = strides(buffer);
  Value flat = flatView(buffer);
  auto rowMaskType = VectorType::get({tileShape[last]}, b.getI1Type());
  SmallVector<int64_t> rowShape(rank, 1);
  rowShape[last] = tileShape[last];
  // Whether the tile's columns are all inside the output: then a row
  // inside it is stored whole, and only rows at an edge compute a mask.
  // Bools are stored one element at a time (storeEachLane): a vector
  // store of i1, or a masked one whose mask folds to every lane, writes
  // bits where each bool is a byte.
  bool bools = mlir::getElementTypeOrSelf(value.getType()).isInteger(1);
  Value columnsWhole =
      bools ? Value()
            : allLanesInside(base[last], tileShape[last], extents[last]);
  int64_t rows = 1;
  for (unsigned d = 0; d < last; ++d)
    rows *= tileShape[d];
  SmallVector<int64_t> offset(rank, 0);
  for (int64_t r = 0; r < rows; ++r) {
    delinearize(r, tileShape.take_front(last), offset);
    Value start = cIndex(0);
    Value rowInside = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (unsigned d = 0; d < rank; ++d) {
      Value idx = offset[d] ? arith::AddIOp::create(b, loc, base[d],
                                                    cIndex(offset[d]))
                                  .getResult()
                            : base[d];
      start = arith::AddIOp::create(
          b, loc, start, arith::MulIOp::create(b, loc, idx, stride[d]));
      if (d < last && tileShape[d] > 1)
        rowInside = arith::AndIOp::create(
            b, loc, rowInside,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx,
                                  extents[d]));
    }
    Value row = value;
    if (rank > 1) {
      SmallVector<int64_t> position(offset.begin(), offset.end() - 1);
      row = vector::ExtractOp::create(b, loc, value, position);
    }
    auto rowMask = [&] {
      return arith::AndIOp::create(
          b, loc,
          vector::ShapeCastOp::create(b, loc, rowMaskType,
                                      maskVector(rowShape)),
          vector::BroadcastOp::create(b, loc, rowMaskType, rowInside));
    };
    if (bools) {
      storeEachLane(row, flat, start, rowMask());
      continue;
    }
    auto ifWhole = scf::IfOp::create(
        b, loc, arith::AndIOp::create(b, loc, rowInside, columnsWhole),
        /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifWhole.getThenRegion().front());
    vector::StoreOp::create(b, loc, row, flat, ValueRange{start});
    b.setInsertionPointToStart(&ifWhole.getElseRegion().front());
    vector::MaskedStoreOp::create(b, loc, flat, start, rowMask(), row);
  }
}

void ProgramLowering::storeEachLane(Value row, Value flat, Value start,
                                    Value rowMask) {
  int64_t lanes = cast<VectorType>(row.getType()).getNumElements();
  for (int64_t lane = 0; lane < lanes; ++lane) {
    Value inside = vector::ExtractOp::create(b, loc, rowMask, lane);
    auto ifInside = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    memref::StoreOp::create(
        b, loc, vector::ExtractOp::create(b, loc, row, lane), flat,
        ValueRange{arith::AddIOp::create(b, loc, start, cIndex(lane))});
  }
}
