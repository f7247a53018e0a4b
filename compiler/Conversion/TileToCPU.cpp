//===- TileToCPU.cpp - tile programs to host vector code ------------------===//
//
// Each tile.program becomes a func.func that runs a range of program ids:
//
//   func @P(buffers..., sizes..., %first: index, %last: index)
//     for %pid = %first to %last: the program at %pid
//
// so the runtime can split the grid among host threads. A tile stays a
// vector. A tile.load reads only along the output dimensions its index map
// depends on and broadcasts along the others (A[m, k] is a column, B[k, n] a
// row); along a contiguous innermost dimension it is one masked vector load
// per row, otherwise a masked gather. tile.reduce is a loop nest carrying the
// accumulator tile; tile.store is a masked vector store per row.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "compiler/Conversion/Passes.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {
#define GEN_PASS_DEF_CONVERTTILETOCPU
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// A tile.load being lowered: the buffer it reads and the part of the tile
/// its values depend on.
struct TileLoad {
  tile::LoadOp op;
  Value buffer;
  MemRefType memType;
  VectorType fullType; // the loaded tile
  AffineMap map;
  bool indirect = false; // some buffer indices are read from tiles
  /// The tile extent along the output dimensions the map involves (all if
  /// indirect), 1 along the others; and its number of elements.
  SmallVector<int64_t> shape;
  int64_t count = 1;
};

class ProgramLowering {
public:
  ProgramLowering(tile::ProgramOp program)
      : program(program), b(program.getContext()),
        tileShape(program.getSchedule().getTile()), rank(program.getRank()) {}

  LogicalResult run();

private:
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation &op);
  Value lowerLoad(tile::LoadOp op);
  // The forms of a load, from the cheapest (see lowerLoad).
  /// The element for the whole tile (or of a rank-0 buffer), broadcast.
  Value loadOneElement(const TileLoad &load);
  /// Whether along the innermost output dimension the load reads
  /// consecutive elements of the buffer's innermost dimension.
  bool hasContiguousRows(const TileLoad &load);
  /// One masked vector load per row of the dependent shape.
  Value loadRows(const TileLoad &load, ArrayRef<Value> stride, Value flat);
  /// One clamped scalar load per element of the dependent shape.
  Value loadElements(const TileLoad &load);
  /// The one element of a rank-0 tile read at gathered indices.
  Value loadGatheredElement(const TileLoad &load);
  /// The buffer indices `load` reads at: a gathered position's from
  /// `gathered` (given the gathered value), the others from `mapped`
  /// (given their map result).
  SmallVector<Value>
  loadIndices(const TileLoad &load, function_ref<Value(Value)> gathered,
              function_ref<Value(AffineExpr)> mapped);
  /// A masked gather over the dependent shape.
  Value loadGather(const TileLoad &load, ArrayRef<Value> stride, Value flat);
  /// The buffer indices of the element at `offset` from the program's base
  /// (at the current reduction indices).
  SmallVector<Value> loadIndices(const TileLoad &load,
                                 ArrayRef<int64_t> offset);
  /// `v` (a tile of the dependent shape) broadcast to `fullType`.
  Value broadcastToTile(Value v, VectorType fullType);
  void lowerStore(tile::StoreOp store);
  Value lowerReduce(tile::ReduceOp reduce, LogicalResult &status);
  /// The loops of `reduce`, folding tiles of `type`.
  Value foldReduce(tile::ReduceOp reduce, VectorType type,
                   LogicalResult &status);
  /// A streamed reduction: a loop carrying the running leaders and the
  /// partial sums (see tile.online_reduce); its results.
  /// The shape `reduce`'s body is computed at (see valueShape).
  SmallVector<int64_t> narrowShape(tile::ReduceOp reduce);
  /// `copy` (of an op inside a narrowed reduction) retyped to valueShape.
  void narrowCopy(Operation *copy);
  SmallVector<Value> lowerOnlineReduce(tile::OnlineReduceOp op,
                                       LogicalResult &status);
  /// One step of it at the current index: the new accumulators.
  SmallVector<Value> stepOnlineReduce(tile::OnlineReduceOp op,
                                      ValueRange accumulators,
                                      LogicalResult &status);

  Value cIndex(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// Global index along output dimension `d` of each element of a tile of
  /// `shape` (a sub-shape of the tile where some dims are 1).
  Value indexVector(unsigned d, ArrayRef<int64_t> shape);
  /// Elements of a tile of `shape` inside the output.
  Value maskVector(ArrayRef<int64_t> shape);
  /// Row-major strides of `buffer`.
  SmallVector<Value> strides(Value buffer);
  Value flatView(Value buffer);
  /// `index` clamped into [0, size of dimension `dim` of `buffer`).
  Value clampInto(Value buffer, unsigned dim, Value index);
  /// Whether the scalar `indices` (all but the last `skipLast`) lie inside
  /// `buffer`.
  Value insideBuffer(Value buffer, ArrayRef<Value> indices, bool skipLast);

  tile::ProgramOp program;
  OpBuilder b;
  Location loc = program.getLoc();
  ArrayRef<int64_t> tileShape;
  /// The shape values are computed at: the tile's, or inside a reduction
  /// whose body does not vary along some output dimensions, 1 along those
  /// (narrowShape); the reduction's result is broadcast to the tile.
  SmallVector<int64_t> valueShape{tileShape};
  unsigned rank;
  IRMapping mapping;
  SmallVector<Value> sizeArgs, extents, base, reducedIVs;
};

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
static SmallVector<int64_t> dependentShape(AffineMap map,
                                           ArrayRef<int64_t> tile,
                                           bool indirect) {
  SmallVector<int64_t> shape(tile.begin(), tile.end());
  if (indirect)
    return shape;
  for (unsigned d = 0; d < tile.size(); ++d) {
    bool used = llvm::any_of(map.getResults(), [&](AffineExpr e) {
      return e.isFunctionOfDim(d);
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
  SmallVector<Value> idx;
  for (AffineExpr e : load.map.getResults())
    idx.push_back(expandAffine(b, loc, e, b.getIndexType(), dims, sizeArgs));
  return idx;
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

bool ProgramLowering::hasContiguousRows(const TileLoad &load) {
  unsigned last = rank - 1;
  if (load.indirect || rank == 0 || load.shape[last] <= 1 ||
      load.map.getNumResults() !=
          static_cast<unsigned>(load.memType.getRank()))
    return false;
  AffineExpr inner = load.map.getResults().back();
  AffineExpr rest = inner - getAffineDimExpr(last, b.getContext());
  bool contiguous = !rest.isFunctionOfDim(last);
  for (AffineExpr e : load.map.getResults().drop_back())
    contiguous &= !e.isFunctionOfDim(last);
  return contiguous;
}

Value ProgramLowering::loadRows(const TileLoad &load, ArrayRef<Value> stride,
                                Value flat) {
  auto linear = [&](ArrayRef<Value> idx) {
    Value l = cIndex(0);
    for (auto [i, s] : llvm::zip(idx, stride))
      l = arith::AddIOp::create(b, loc, l, arith::MulIOp::create(b, loc, i, s));
    return l;
  };
  unsigned last = rank - 1;
  ArrayRef<int64_t> shape = load.shape;
  Type element = load.fullType.getElementType();
  auto rowType = VectorType::get({shape[last]}, element);
  auto rowMaskType = VectorType::get({shape[last]}, b.getI1Type());
  auto laneType = VectorType::get({shape[last]}, b.getIndexType());
  Value lanes = vector::StepOp::create(b, loc, laneType);
  Value lastSize = memref::DimOp::create(b, loc, load.buffer,
                                         load.memType.getRank() - 1);
  Value zero = arith::ConstantOp::create(
      b, loc, rowType, DenseElementsAttr::get(rowType, b.getZeroAttr(element)));
  auto resultType = VectorType::get(shape, element);
  Value result = arith::ConstantOp::create(
      b, loc, resultType,
      DenseElementsAttr::get(resultType, b.getZeroAttr(element)));
  // Every row: each combination of the leading coordinates. A lane is
  // read only inside the buffer.
  SmallVector<int64_t> offset(rank, 0);
  int64_t rows = load.count / shape[last];
  for (int64_t r = 0; r < rows; ++r) {
    delinearize(r, shape.take_front(last), offset);
    offset[last] = 0;
    SmallVector<Value> idx = loadIndices(load, offset);
    Value start = linear(idx);
    Value column = arith::AddIOp::create(
        b, loc, lanes,
        vector::BroadcastOp::create(b, loc, laneType, idx.back()));
    Value rowMask = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, column,
            vector::BroadcastOp::create(b, loc, laneType, cIndex(0))),
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, column,
            vector::BroadcastOp::create(b, loc, laneType, lastSize)));
    rowMask = arith::AndIOp::create(
        b, loc, rowMask,
        vector::BroadcastOp::create(
            b, loc, rowMaskType,
            insideBuffer(load.buffer, idx, /*skipLast=*/true)));
    Value row = vector::MaskedLoadOp::create(b, loc, rowType, flat, start,
                                             rowMask, zero);
    if (rank == 1) {
      result = row;
      break;
    }
    SmallVector<int64_t> position(offset.begin(), offset.end() - 1);
    result = vector::InsertOp::create(b, loc, row, result, position);
  }
  return broadcastToTile(result, load.fullType);
}

Value ProgramLowering::loadElements(const TileLoad &load) {
  SmallVector<Value> elements;
  SmallVector<int64_t> offset(rank, 0);
  for (int64_t i = 0; i < load.count; ++i) {
    delinearize(i, load.shape, offset);
    SmallVector<Value> idx = loadIndices(load, offset);
    for (auto [j, i] : llvm::enumerate(idx))
      i = clampInto(load.buffer, j, i);
    elements.push_back(memref::LoadOp::create(b, loc, load.buffer, idx));
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
  Value passThru = arith::ConstantOp::create(
      b, loc, resultType,
      DenseElementsAttr::get(resultType, b.getZeroAttr(element)));
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

Value ProgramLowering::lowerLoad(tile::LoadOp op) {
  TileLoad load;
  load.op = op;
  load.buffer = mapping.lookup(op.getBuffer());
  load.memType = cast<MemRefType>(load.buffer.getType());
  load.fullType = VectorType::get(valueShape, op.getType().getElementType());
  load.map = op.getMap();
  load.indirect = !op.getIndirect().empty();
  load.shape = dependentShape(load.map, tileShape, load.indirect);
  for (int64_t s : load.shape)
    load.count *= s;

  // One element for the whole tile (or a rank-0 buffer): a scalar load.
  if (load.memType.getRank() == 0 || (load.count == 1 && !load.indirect))
    return loadOneElement(load);

  SmallVector<Value> stride = strides(load.buffer);
  Value flat = flatView(load.buffer);
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

void ProgramLowering::lowerStore(tile::StoreOp store) {
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
  Value columnsInside =
      vector::ShapeCastOp::create(b, loc, rowMaskType, maskVector(rowShape));
  int64_t rows = 1;
  for (unsigned d = 0; d < last; ++d)
    rows *= tileShape[d];
  SmallVector<int64_t> offset(rank, 0);
  for (int64_t r = 0; r < rows; ++r) {
    delinearize(r, tileShape.take_front(last), offset);
    Value start = cIndex(0);
    Value rowMask = columnsInside;
    for (unsigned d = 0; d < rank; ++d) {
      Value idx = offset[d] ? arith::AddIOp::create(b, loc, base[d],
                                                    cIndex(offset[d]))
                                  .getResult()
                            : base[d];
      start = arith::AddIOp::create(
          b, loc, start, arith::MulIOp::create(b, loc, idx, stride[d]));
      if (d < last && tileShape[d] > 1) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             idx, extents[d]);
        rowMask = arith::AndIOp::create(
            b, loc, rowMask,
            vector::BroadcastOp::create(b, loc, rowMaskType, inside));
      }
    }
    Value row = value;
    if (rank > 1) {
      SmallVector<int64_t> position(offset.begin(), offset.end() - 1);
      row = vector::ExtractOp::create(b, loc, value, position);
    }
    vector::MaskedStoreOp::create(b, loc, flat, start, rowMask, row);
  }
}

Value ProgramLowering::lowerReduce(tile::ReduceOp reduce,
                                   LogicalResult &status) {
  // A body that does not vary along some output dimensions folds a
  // narrower tile, broadcast at the end (attention's scores, recomputed in
  // a stream whose tile spans the head dimension).
  SmallVector<int64_t> outer = valueShape;
  valueShape = narrowShape(reduce);
  auto type = VectorType::get(valueShape, reduce.getType().getElementType());
  Value folded = foldReduce(reduce, type, status);
  valueShape = outer;
  return broadcastToTile(folded,
                         VectorType::get(outer, type.getElementType()));
}

Value ProgramLowering::foldReduce(tile::ReduceOp reduce, VectorType type,
                                  LogicalResult &status) {
  Value init = reductionIdentity(b, loc, reduce.getKind(), type);
  Block &body = reduce.getBody().front();
  // A loop per reduced dimension, the accumulator carried through all.
  std::function<Value(unsigned, Value)> nest = [&](unsigned level,
                                                   Value acc) -> Value {
    if (level == reduce.getExtents().size()) {
      if (failed(lowerBlock(body))) {
        status = failure();
        return acc;
      }
      auto yield = cast<tile::YieldOp>(body.getTerminator());
      Value folded = mapping.lookup(yield.getValue());
      // A sum of products accumulates with fused multiply-adds.
      auto product = folded.getDefiningOp<arith::MulFOp>();
      if (reduce.getKind() == alg::ReductionKind::sum && product &&
          product->use_empty()) {
        Value fma = math::FmaOp::create(b, loc, product.getLhs(),
                                        product.getRhs(), acc);
        product.erase();
        return fma;
      }
      return combineReduction(b, loc, reduce.getKind(), acc, folded);
    }
    Value extent = mapping.lookup(reduce.getExtents()[level]);
    Value first = cIndex(0), end = extent;
    if (level == 0)
      std::tie(first, end) = emitReducedRange(b, loc, reduce, extent, base);
    auto loop = scf::ForOp::create(b, loc, first, end, cIndex(1),
                                   ValueRange{acc});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value iv = loop.getInductionVar();
    mapping.map(body.getArgument(level), iv);
    reducedIVs.push_back(iv);
    Value next = nest(level + 1, loop.getRegionIterArg(0));
    reducedIVs.pop_back();
    scf::YieldOp::create(b, loc, next);
    return loop.getResult(0);
  };
  return nest(0, init);
}

LogicalResult ProgramLowering::lowerOp(Operation &op) {
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    mapping.map(index.getResult(), indexVector(index.getDim(), valueShape));
    return success();
  }
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    mapping.map(load.getResult(), lowerLoad(load));
    return success();
  }
  if (auto store = dyn_cast<tile::StoreOp>(op)) {
    lowerStore(store);
    return success();
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    LogicalResult status = success();
    mapping.map(reduce.getResult(), lowerReduce(reduce, status));
    return status;
  }
  if (auto online = dyn_cast<tile::OnlineReduceOp>(op)) {
    LogicalResult status = success();
    SmallVector<Value> results = lowerOnlineReduce(online, status);
    for (auto [from, to] : llvm::zip(online.getResults(), results))
      mapping.map(from, to);
    return status;
  }
  if (isa<tile::ReturnOp, tile::YieldOp>(op))
    return success();
  if (isa<tile::SkipIfNegativeOp>(op))
    return success(); // around the whole tile (run)
  if (isa<tile::TileDialect>(op.getDialect()) || op.getNumRegions())
    return op.emitOpError("has no CPU lowering");
  Operation *copy = b.clone(op, mapping);
  if (ArrayRef<int64_t>(valueShape) != tileShape)
    narrowCopy(copy);
  return success();
}

LogicalResult ProgramLowering::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lowerOp(op)))
      return failure();
  return success();
}

/// The output dimensions the values of `reduce`'s body vary along: those
/// its loads' maps and index tiles read; all of them when it uses a tile
/// from outside that is not a splat constant.
static SmallVector<bool> variesAlong(tile::ReduceOp reduce, unsigned rank) {
  SmallVector<bool> varies(rank, false);
  auto all = [&] { varies.assign(rank, true); };
  reduce.getBody().walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      if (!load.getIndirect().empty())
        return all();
      for (unsigned d = 0; d < rank; ++d)
        varies[d] = varies[d] || llvm::any_of(load.getMap().getResults(),
                                              [&](AffineExpr e) {
                                                return e.isFunctionOfDim(d);
                                              });
    }
    if (auto index = dyn_cast<tile::IndexOp>(op))
      varies[index.getDim()] = true;
    for (Value operand : op->getOperands()) {
      if (!isa<VectorType>(operand.getType()) ||
          reduce->isProperAncestor(operand.getParentBlock()->getParentOp()) ||
          operand.getParentRegion() == &reduce.getBody())
        continue;
      auto constant = operand.getDefiningOp<arith::ConstantOp>();
      if (!constant || !isa<SplatElementsAttr>(constant.getValue()))
        all();
    }
  });
  return varies;
}

SmallVector<int64_t> ProgramLowering::narrowShape(tile::ReduceOp reduce) {
  SmallVector<bool> varies = variesAlong(reduce, rank);
  SmallVector<int64_t> shape(valueShape);
  for (unsigned d = 0; d < rank; ++d)
    if (!varies[d])
      shape[d] = 1;
  return shape;
}

void ProgramLowering::narrowCopy(Operation *copy) {
  auto narrowed = [&](Type t) -> Type {
    auto vec = dyn_cast<VectorType>(t);
    if (!vec || vec.getRank() != static_cast<int64_t>(valueShape.size()))
      return t;
    return VectorType::get(valueShape, vec.getElementType());
  };
  // Splat constants from outside (hoisted there) at the narrow shape.
  for (OpOperand &operand : copy->getOpOperands()) {
    Type want = narrowed(operand.get().getType());
    if (want == operand.get().getType())
      continue;
    auto constant = operand.get().getDefiningOp<arith::ConstantOp>();
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    operand.set(arith::ConstantOp::create(
        b, loc, cast<ShapedType>(want),
        SplatElementsAttr::get(cast<ShapedType>(want),
                               splat.getSplatValue<Attribute>())));
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(copy))
    if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
      constant.setValueAttr(SplatElementsAttr::get(
          cast<ShapedType>(narrowed(splat.getType())),
          splat.getSplatValue<Attribute>()));
  for (Value r : copy->getResults())
    r.setType(narrowed(r.getType()));
}

/// The ops of `block` that read any of `args`, directly or through others.
static llvm::SmallPtrSet<Operation *, 16>
readersOf(Block &block, ValueRange args) {
  llvm::SmallPtrSet<Operation *, 16> readers;
  llvm::SmallPtrSet<Value, 16> tainted(args.begin(), args.end());
  for (Operation &op : block.without_terminator()) {
    bool reads = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        reads |= tainted.contains(v);
    });
    if (!reads)
      continue;
    readers.insert(&op);
    tainted.insert(op.result_begin(), op.result_end());
  }
  return readers;
}

SmallVector<Value>
ProgramLowering::stepOnlineReduce(tile::OnlineReduceOp op,
                                  ValueRange accumulators,
                                  LogicalResult &status) {
  Block &body = op.getBody().front();
  auto yield = cast<tile::YieldOp>(body.getTerminator());
  unsigned count = accumulators.size();
  ValueRange leaderArgs = body.getArguments().drop_front();
  llvm::SmallPtrSet<Operation *, 16> late = readersOf(body, leaderArgs);
  auto lowerOps = [&](bool wantLate) {
    for (Operation &inner : body.without_terminator())
      if (late.contains(&inner) == wantLate && failed(lowerOp(inner)))
        status = failure();
  };
  // The leaders' terms read no leader: fold them first.
  lowerOps(false);
  VectorType type = cast<VectorType>(accumulators.front().getType());
  Value zero = arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), 0.0)));
  // A leader still at its identity (no finite term yet) reads as 0.
  auto safe = [&](Value v, alg::ReductionKind kind) {
    Value identity = reductionIdentity(b, loc, kind, type);
    Value unset = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                                        identity);
    return arith::SelectOp::create(b, loc, unset, zero, v).getResult();
  };
  SmallVector<Value> next(count), oldSafe, newSafe;
  for (unsigned i = 0, j = 0; i < count; ++i) {
    if (!op.isLeader(i))
      continue;
    alg::ReductionKind kind = op.getAccumulatorKind(i);
    next[i] = combineReduction(b, loc, kind, accumulators[i],
                               mapping.lookup(yield.getValues()[i]));
    newSafe.push_back(safe(next[i], kind));
    // A repair from the identity is 1: no term has read that leader yet.
    Value unset = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, accumulators[i],
        reductionIdentity(b, loc, kind, type));
    oldSafe.push_back(
        arith::SelectOp::create(b, loc, unset, newSafe.back(), accumulators[i]));
    mapping.map(leaderArgs[j++], newSafe.back());
  }
  lowerOps(true);
  // Each follower: its partial sum repaired to the new leaders, plus its
  // term.
  SmallVector<Value> factors(count);
  for (auto [j, repair] : llvm::enumerate(op.getRepairs())) {
    Block &block = repair.front();
    mapping.map(block.getArgument(0), oldSafe[j]);
    mapping.map(block.getArgument(1), newSafe[j]);
    if (failed(lowerBlock(block)))
      status = failure();
    auto yielded = cast<tile::YieldOp>(block.getTerminator()).getValues();
    for (unsigned i = 0, f = 0; i < count; ++i) {
      if (op.isLeader(i))
        continue;
      Value factor = mapping.lookup(yielded[f++]);
      factors[i] = factors[i] ? arith::MulFOp::create(b, loc, factors[i], factor)
                              : factor;
    }
  }
  for (unsigned i = 0; i < count; ++i) {
    if (op.isLeader(i))
      continue;
    Value repaired = arith::MulFOp::create(b, loc, accumulators[i], factors[i]);
    next[i] = arith::AddFOp::create(b, loc, repaired,
                                    mapping.lookup(yield.getValues()[i]));
  }
  return next;
}

SmallVector<Value>
ProgramLowering::lowerOnlineReduce(tile::OnlineReduceOp op,
                                   LogicalResult &status) {
  SmallVector<Value> init;
  for (unsigned i = 0; i < op.getAccumulators().size(); ++i)
    init.push_back(reductionIdentity(
        b, loc, op.getAccumulatorKind(i),
        cast<VectorType>(op.getResult(i).getType())));
  auto loop = scf::ForOp::create(b, loc, cIndex(0),
                                 mapping.lookup(op.getExtent()), cIndex(1),
                                 init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar();
  mapping.map(op.getBody().getArgument(0), iv);
  reducedIVs.push_back(iv);
  SmallVector<Value> next =
      stepOnlineReduce(op, loop.getRegionIterArgs(), status);
  reducedIVs.pop_back();
  scf::YieldOp::create(b, loc, next);
  return SmallVector<Value>(loop.getResults());
}

LogicalResult ProgramLowering::run() {
  Block &entry = program.getBody().front();
  SmallVector<Type> argTypes(entry.getArgumentTypes());
  argTypes.push_back(b.getIndexType()); // first program id
  argTypes.push_back(b.getIndexType()); // one past the last
  b.setInsertionPoint(program);
  auto func = func::FuncOp::create(b, loc, program.getSymName(),
                                   b.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  for (auto [from, to] : llvm::zip(entry.getArguments(),
                                   body->getArguments().drop_back(2)))
    mapping.map(from, to);
  unsigned numBuffers = program.getArgNames().size();
  for (unsigned i = numBuffers; i < entry.getNumArguments(); ++i)
    sizeArgs.push_back(body->getArgument(i));

  // Grid extents, then the loop over this call's program ids.
  SmallVector<Value> grid;
  for (unsigned d = 0; d < rank; ++d) {
    Value extent = mapping.lookupOrDefault(program.getOutputExtent(b, loc, d));
    extents.push_back(extent);
    grid.push_back(arith::CeilDivSIOp::create(b, loc, extent,
                                              cIndex(tileShape[d])));
  }
  Value first = body->getArgument(body->getNumArguments() - 2);
  Value last = body->getArgument(body->getNumArguments() - 1);
  auto loop = scf::ForOp::create(b, loc, first, last, cIndex(1));
  func::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(loop.getBody());
  Value rest = loop.getInductionVar();
  base.assign(rank, Value());
  for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
    Value coord = arith::RemSIOp::create(b, loc, rest, grid[d]);
    rest = arith::DivSIOp::create(b, loc, rest, grid[d]);
    base[d] = arith::MulIOp::create(b, loc, coord, cIndex(tileShape[d]));
  }
  if (auto skip = tile::SkipIfNegativeOp::find(program)) {
    Value tableEntry = loadTableEntry(
        b, loc, mapping.lookup(skip.getTable()), skip.getMap(), base,
        sizeArgs, /*outside=*/-1);
    auto ifRuns = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, tableEntry,
                              cIndex(0)),
        /*withElse=*/false);
    b.setInsertionPointToStart(&ifRuns.getThenRegion().front());
  }
  if (failed(lowerBlock(entry)))
    return failure();
  program.erase();
  return success();
}

struct ConvertTileToCPUPass
    : public nautilus::impl::ConvertTileToCPUBase<ConvertTileToCPUPass> {
  void runOnOperation() override {
    SmallVector<tile::ProgramOp> programs(
        getOperation().getOps<tile::ProgramOp>());
    for (tile::ProgramOp p : programs)
      if (failed(ProgramLowering(p).run()))
        return signalPassFailure();
  }
};

} // namespace
