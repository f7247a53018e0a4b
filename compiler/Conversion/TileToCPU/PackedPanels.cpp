//===- PackedPanels.cpp - A contraction's rhs panel packed on the CPU -----===//
//
// With `pack` in its schedule, a contraction program on the CPU (a sum
// over k of a product with an operand B read along the output's innermost
// index n, as a GEMM's rhs; or contractions side by side over the same k,
// each with its own B: a panel each) copies the panel of B its tile reads,
// B[k, n0 : n0 + tile] for every k, into a buffer of its own, contiguous
// and padded with zeros, and walks the grid down the columns of tiles, so
// that the program instances that follow read the same panel: every step
// of the contraction then reads consecutive cache lines instead of one
// line in each row of B (rows a page apart, all in one set of the L1
// cache when N is a power of two), and the panel is copied once a column
// of tiles per thread rather than read from memory by every tile. B may
// be batched (B[z, k, n]: a panel a batch and column) and transposed
// (B[n, k], A B^T's and a linear layer's weight stored [out, in]): the
// copy then gathers each panel row across B's rows, once, where every
// step of the unpacked contraction would gather its row.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "dialects/Tile/Utils/PackedPanel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <numeric>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

LogicalResult ProgramLowering::findPackedPanels() {
  if (!program.getSchedule().getPack())
    return success();
  SmallVector<tile::LoadOp> loads = tile::packablePanelLoads(program);
  if (loads.empty())
    return program.emitError()
           << "its schedule asks to pack, but '" << program.getSymName()
           << "' has no contraction operand to pack: one load, in each of "
              "its reductions over one same index, of a buffer at [..., k, "
              "n] or [..., n, k] (k the reduced index, n the output's "
              "innermost index, the others batch dimensions; not of "
              "bools); drop `pack`";
  // Siblings that read the same B (sharing their rhs, not their lhs)
  // share its panel.
  for (tile::LoadOp load : loads) {
    auto same = llvm::find_if(packed, [&](PackedPanel &p) {
      return p.load.getBuffer() == load.getBuffer() &&
             p.load.getMap() == load.getMap();
    });
    panelOfLoad[load] = same - packed.begin();
    if (same == packed.end())
      packed.push_back({load, *tile::panelLayoutOf(load, rank), Value()});
  }
  packedExtent =
      cast<tile::ReduceOp>(loads.front()->getParentOp()).getExtents()[0];
  return success();
}

void ProgramLowering::allocatePackedPanels() {
  if (packed.empty())
    return;
  // (packablePanelLoads: the extent is a size or a literal.) Blocked, a
  // panel holds a block's rows.
  packedRows = extentAtStart(packedExtent);
  if (blocks.size) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(instanceLoop);
    packedRows = cIndex(blocks.size);
  }
  for (PackedPanel &p : packed) {
    Value buffer = mapping.lookup(p.load.getBuffer());
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    p.panel = allocateScratch(
        MemRefType::get({ShapedType::kDynamic, tileShape[rank - 1]}, element),
        packedRows);
  }
  // The column of tiles (and batch) the panels hold (-1: none yet).
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(instanceLoop);
  packedKey =
      memref::AllocaOp::create(b, loc, MemRefType::get({}, b.getIndexType()));
  memref::StoreOp::create(b, loc, cIndex(-1), packedKey, ValueRange{});
}

void ProgramLowering::packPanelsIfNew() {
  if (packed.empty())
    return;
  // The instance's tile coordinates but its rows, linearised: the panels
  // depend on its column of tiles and its batch, and the grid walks the
  // rows of tiles fastest (walksDownColumns).
  Value key = cIndex(0);
  for (unsigned d = 0; d < rank; ++d)
    if (d != rank - 2)
      key = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, key, extents[d]), base[d]);
  // Blocked, the panels hold a block of the reduction's rows too.
  if (blocks.size)
    key = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, key, blocks.count), blocks.index);
  Value held = memref::LoadOp::create(b, loc, packedKey, ValueRange{});
  auto ifNew = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, held, key),
      /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifNew.getThenRegion().front());
  memref::StoreOp::create(b, loc, key, packedKey, ValueRange{});
  for (PackedPanel &p : packed)
    copyPanel(p);
}

void ProgramLowering::copyPanel(PackedPanel &p) {
  OpBuilder::InsertionGuard guard(b);
  unsigned last = rank - 1;
  Value buffer = mapping.lookup(p.load.getBuffer());
  auto type = cast<MemRefType>(buffer.getType());
  unsigned bufferRank = type.getRank();
  // The buffer's dimensions along k (the panel's rows) and along n.
  unsigned kDim = bufferRank - (p.layout.transposed ? 1 : 2);
  unsigned nDim = bufferRank - (p.layout.transposed ? 2 : 1);
  Value rows = packedRows;
  Value bufferRows = memref::DimOp::create(b, loc, buffer, kDim);
  // Blocked, the panel's first row is the block's first.
  Value firstRow = blocks.size ? blocks.start : cIndex(0);
  Value columns = memref::DimOp::create(b, loc, buffer, nDim);
  Value column = base[last];
  // The batch indices, clamped into the buffer (a batch past the buffer
  // is never stored).
  SmallVector<Value> batch;
  for (auto [i, d] : llvm::enumerate(p.layout.batchDims))
    batch.push_back(clampInto(buffer, i, base[d]));
  // A row of the panel for each point of the reduction, in vectors of (at
  // most) 16 elements that divide its width, masked to the buffer: zeros
  // outside, as the load it replaces reads.
  int64_t width = tileShape[last];
  int64_t chunk = std::gcd<int64_t>(width, 16);
  auto chunkType = VectorType::get({chunk}, type.getElementType());
  auto maskType = VectorType::get({chunk}, b.getI1Type());
  auto laneType = VectorType::get({chunk}, b.getIndexType());
  auto splat = [&](Value v) {
    return vector::BroadcastOp::create(b, loc, laneType, v);
  };
  Value zero = arith::ConstantOp::create(
      b, loc, chunkType,
      DenseElementsAttr::get(chunkType, b.getZeroAttr(type.getElementType())));
  Value lanes = vector::StepOp::create(b, loc, laneType);
  SmallVector<Value> masks;
  for (int64_t c = 0; c < width; c += chunk) {
    Value first = arith::AddIOp::create(b, loc, column, cIndex(c));
    masks.push_back(arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt,
        arith::AddIOp::create(b, loc, lanes, splat(first)), splat(columns)));
  }
  // A transposed B's lanes are rows of the buffer apart.
  SmallVector<Value> stride = strides(buffer);
  Value flat = p.layout.transposed ? flatView(buffer) : Value();
  auto loop = scf::ForOp::create(b, loc, cIndex(0), rows, cIndex(1));
  b.setInsertionPointToStart(loop.getBody());
  Value panelRow = loop.getInductionVar();
  Value row = arith::AddIOp::create(b, loc, firstRow, panelRow);
  Value rowInside = vector::BroadcastOp::create(
      b, loc, maskType,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row,
                            bufferRows));
  Value clampedRow = arith::MinSIOp::create(
      b, loc, row, arith::SubIOp::create(b, loc, bufferRows, cIndex(1)));
  for (auto [i, mask] : llvm::enumerate(masks)) {
    int64_t c = static_cast<int64_t>(i) * chunk;
    Value first = arith::AddIOp::create(b, loc, column, cIndex(c));
    Value inside = arith::AndIOp::create(b, loc, mask, rowInside);
    SmallVector<Value> at(batch);
    Value values;
    if (!p.layout.transposed) {
      at.append({clampedRow, first});
      values = vector::MaskedLoadOp::create(b, loc, chunkType, buffer, at,
                                            inside, zero);
    } else {
      // B[..., first + lane, row]: a lane a row of the buffer.
      at.append({first, clampedRow});
      Value start = cIndex(0);
      for (auto [index, s] : llvm::zip(at, stride))
        start = arith::AddIOp::create(b, loc, start,
                                      arith::MulIOp::create(b, loc, index, s));
      Value offsets = arith::AddIOp::create(
          b, loc, splat(start),
          arith::MulIOp::create(b, loc, lanes, splat(stride[nDim])));
      values = vector::GatherOp::create(b, loc, chunkType, flat,
                                        ValueRange{cIndex(0)}, offsets, inside,
                                        zero);
    }
    vector::StoreOp::create(b, loc, values, p.panel,
                            ValueRange{panelRow, cIndex(c)});
  }
}

Value ProgramLowering::loadPackedPanel(size_t index, VectorType fullType) {
  unsigned last = rank - 1;
  Value row = reducedIVs.back();
  if (blocks.size)
    row = arith::SubIOp::create(b, loc, row, blocks.start);
  auto rowType = VectorType::get({tileShape[last]}, fullType.getElementType());
  Value values = vector::LoadOp::create(b, loc, rowType, packed[index].panel,
                                        ValueRange{row, cIndex(0)});
  SmallVector<int64_t> shape(rank, 1);
  shape[last] = tileShape[last];
  Value tile = vector::ShapeCastOp::create(
      b, loc, VectorType::get(shape, fullType.getElementType()), values);
  return broadcastToTile(tile, fullType);
}
