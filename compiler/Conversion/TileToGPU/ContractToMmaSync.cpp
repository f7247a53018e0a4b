//===- ContractToMmaSync.cpp - tile.contract on sm_80 tensor cores --------===//
//
// The pipeline, per program instance (a thread block of 32 x warps
// threads):
//
//  - Shared memory holds `stages` buffers of each operand's tile: the lhs
//    [tile M x tile K] and the rhs [tile K x tile N], each stored with its
//    innermost global dimension innermost (K-major or M/N-major), as rows of
//    16-byte chunks XOR-swizzled by the schedule's `swizzle`
//    (layout::SharedSwizzle): with the default 128 bytes, chunk c of row r
//    is stored at chunk c ^ (r % 8) for rows of 8 or more chunks and
//    c ^ ((r / (8 / n)) % n) for rows of n < 8 chunks, so that the 8 rows an
//    ldmatrix reads fall in 8 distinct bank groups (the address pattern of
//    TMA's and wgmma's swizzles for rows of up to 128 bytes).
//  - Thread t copies chunks t, t + threads, ... of a stage with 16-byte
//    cp.async (consecutive threads take consecutive chunks of a row:
//    coalesced). A stage tile wholly inside its tensor (the interior of a
//    large problem) copies without any bound check; at the edges, a chunk
//    that runs past the tensor's edge copies only its elements inside (the
//    rest is zero-filled), one wholly outside copies nothing. Rows whose
//    innermost extent is not a multiple of 8 elements cannot be copied 16 bytes
//    at a time; their chunks are read element by element (a branch on the
//    extent, folded away when sizes are bound).
//  - The main loop keeps `stages - 1` tiles of K in flight: at step kt it
//    waits for tile kt, synchronises the block, issues the copy of tile
//    kt + stages - 1 into the stage consumed at step kt - 1 (the stage,
//    kt % stages, is carried by the loop and wraps with a select: a
//    division by a stage count that is not a power of two cost some 30
//    instructions a step in the SASS), then for each
//    16 of K loads the warp's A and B fragments with ldmatrix (.trans for an
//    operand stored with K outermost) and issues mma.sync m16n8k16 for
//    each 16 x 8 accumulator tile of the warp's part.
//  - Sibling contractions (tile::siblingContracts: a gated MLP's gate and
//    up projections) run in one pipeline: a stage holds the shared lhs
//    tile once, then each sibling's rhs tile; each 16 of K loads the A
//    fragments once for all siblings, and each sibling multiplies them
//    into accumulators of its own.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "dialects/Tile/Layout/LinearLayout.h"
#include "dialects/Tile/Utils/OperandMaps.h"
#include "dialects/Tile/Utils/PipelineProtocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// One operand of the contraction as the pipeline sees it.
struct Operand {
  Value buffer;       // the global memref
  AffineMap map;      // (output dims..., k)[sizes] -> buffer indices
  unsigned rowDim;    // the output dimension it reads (M or N)
  int64_t rowTile;    // tile M or tile N
  bool kInnermost;    // K is its innermost (contiguous) index
  Value shared;       // stages x (rowTile x tile K) elements
  Value innerExtent;  // the buffer's innermost extent, from the sizes
  // An offset table's entry for this tile, added to buffer index
  // `offsetPosition` (null: none), and whether that index then lies
  // inside the buffer (i1).
  Value offset, offsetInside;
  unsigned offsetPosition = 0;
  // A computed operand (no buffer): evaluated by the threads and stored
  // K innermost.
  ComputedOperand *computed = nullptr;
  // The stored tile: rows of `columns` elements.
  int64_t rows() const { return kInnermost ? rowTile : tileK; }
  int64_t columns() const { return kInnermost ? tileK : rowTile; }
  int64_t stageElements() const { return rowTile * tileK; }
  int64_t tileK;
};

class MmaSyncLowering {
public:
  MmaSyncLowering(OpBuilder &b, tile::ContractOp contract,
                  const ContractLoweringContext &context)
      : b(b), loc(contract.getLoc()), contract(contract), context(context),
        mma(context.schedule.getMma()) {}

  FailureOr<SmallVector<Value>> run();

private:
  /// Sets up lhs and rhs: their stages in dynamic shared memory (the lhs's
  /// then the rhs's), and their offset tables' entries for this tile.
  void setUpOperands(unsigned rank);
  /// The matrix multiplies of one K tile, from `stage`, into the
  /// accumulators `acc`: each warp's mTiles x nTiles blocks of 16 x 8.
  void multiplyStage(MutableArrayRef<Value> acc, Value stage);
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The lhs, then each rhs.
  SmallVector<const Operand *, 3> operands() const {
    SmallVector<const Operand *, 3> out = {&lhs};
    for (const Operand &op : rhs)
      out.push_back(&op);
    return out;
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  /// The first k of step `kTile` (counted from the program's first K tile).
  Value kStart(Value kTile) { return mul(add(kTile, firstKTile), c(tileK)); }

  /// `op`'s stages as the shared helpers see them.
  StagedTile staged(const Operand &op) const {
    return StagedTile{op.shared, element, op.columns(), op.stageElements(),
                      op.kInnermost, mma.getSwizzle()};
  }
  /// The element offset in `op`'s shared buffer of stored row `row`, chunk
  /// `chunk` (index values), in stage `stage`.
  Value sharedOffset(const Operand &op, Value stage, Value row, Value chunk);
  /// Issues the copy of K tile `kTile` of `op` into `stage`.
  void copyTile(const Operand &op, Value kTile, Value stage);
  void copyTileInterior(const Operand &op, Value kTile, Value stage);
  /// `aligned`: whether rows are 16-byte aligned (else element by element).
  void copyTileGuarded(const Operand &op, Value kTile, Value stage,
                       Value aligned);
  SmallVector<Value> chunkIndex(const Operand &op, Value kTile, Value row,
                                Value chunk);
  /// The four 32-bit fragment registers ldmatrix.x4 gives this lane of the
  /// 16 x 16 block at (row `rowBase`, k `kBase`) of `op`; `isLhs` orders
  /// the four 8 x 8 matrices as the A fragment (rows, then K) or as two B
  /// fragments (K, then rows). With `oneRhsTile`, the two registers of one
  /// B fragment (8 rows, 16 of K) by ldmatrix.x2: a warp 8 columns wide.
  SmallVector<Value, 4> loadFragment(const Operand &op, Value stage,
                                     Value rowBase, Value kBase, bool isLhs,
                                     bool oneRhsTile = false);
  /// A computed operand's elements for one K tile, between the phases.
  struct PendingRuns {
    Value kTile, stage;
    SmallVector<std::tuple<Value, Value, Value, ComputedRun>> runs; // guard, row, chunk
  };
  /// Evaluates the reads of `op`'s K tile `kTile` (bound for `stage`) for
  /// this thread's chunks.
  PendingRuns readComputed(const Operand &op, Value kTile, Value stage);
  /// Finishes them and stores them, 16 bytes a chunk, into their stage.
  void storeComputed(const Operand &op, PendingRuns &pending, Value numK);
  /// Starts filling `stage` with K tile `kTile`: the copies of loaded
  /// operands (one cp.async group a step, empty or not), the reads of
  /// computed ones; finishCopies completes the computed ones.
  SmallVector<PendingRuns, 2> startCopies(Value kTile, Value stage,
                                          Value numK);
  void finishCopies(SmallVector<PendingRuns, 2> &pending, Value numK);

  OpBuilder &b;
  Location loc;
  tile::ContractOp contract;
  const ContractLoweringContext &context;
  tile::MmaAttr mma;
  Operand lhs;
  /// The contraction's rhs, then its siblings'.
  SmallVector<Operand, 1> rhs;
  Type element;
  Value lane, warpM, warpN;
  Value firstKTile; // the program's first K tile (a split's chunk's)
  int64_t tileM = 0, tileN = 0, tileK = 0, stages = 0, threads = 0;
  /// The main loop's synchronisation (proved by compiler/Verify).
  tile::PipelineProtocol protocol;
  // A warp's part of the tile, in 16 x 8 blocks.
  int64_t warpRows = 0, warpColumns = 0, mTiles = 0, nTiles = 0;
};

} // namespace

Value MmaSyncLowering::sharedOffset(const Operand &op, Value stage, Value row,
                                    Value chunk) {
  return emitStagedOffset(b, loc, staged(op), stage, row, chunk);
}

void MmaSyncLowering::copyTile(const Operand &op, Value kTile, Value stage) {
  // The common case, a stage tile wholly inside its tensor with 16-byte
  // aligned rows, copies without a bound check; the tiles at the edges
  // take the guarded copies. (Alignment needs the innermost extent to be a
  // multiple of 8 elements: known at compile time when sizes are bound.)
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, op.innerExtent, c(8)), c(0));
  Value rowsInside = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sle,
      add(context.tileOrigin[op.rowDim], c(op.rowTile)),
      context.outputExtents[op.rowDim]);
  Value kInside = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sle, kStart(add(kTile, c(1))),
      context.extent);
  Value interior = arith::AndIOp::create(
      b, loc, aligned, arith::AndIOp::create(b, loc, rowsInside, kInside));
  if (op.offset)
    interior = arith::AndIOp::create(b, loc, interior, op.offsetInside);
  auto ifInterior = scf::IfOp::create(b, loc, interior, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifInterior.getThenRegion().front());
  copyTileInterior(op, kTile, stage);
  b.setInsertionPointToStart(&ifInterior.getElseRegion().front());
  copyTileGuarded(op, kTile, stage, aligned);
}

/// The global indices of the 8 elements at stored `row`, `chunk` of `op`'s
/// stage tile for K tile `kTile`.
SmallVector<Value> MmaSyncLowering::chunkIndex(const Operand &op, Value kTile,
                                               Value row, Value chunk) {
  Value column = mul(chunk, c(8));
  Value rowIndex = op.kInnermost ? row : column;
  Value kIndex = add(kStart(kTile), op.kInnermost ? column : row);
  // The program's dims: the tile origin, this operand's row and k.
  SmallVector<Value> dims(context.tileOrigin.begin(), context.tileOrigin.end());
  dims[op.rowDim] = add(dims[op.rowDim], rowIndex);
  dims.push_back(kIndex);
  SmallVector<Value> index;
  for (AffineExpr e : op.map.getResults())
    index.push_back(
        expandAffine(b, loc, e, b.getIndexType(), dims, context.sizeArgs));
  if (op.offset)
    index[op.offsetPosition] = add(index[op.offsetPosition], op.offset);
  return index;
}

void MmaSyncLowering::copyTileInterior(const Operand &op, Value kTile,
                                       Value stage) {
  int64_t rowChunks = op.columns() / 8;
  int64_t chunks = op.rows() * rowChunks;
  for (int64_t first = 0; first < chunks; first += threads) {
    Value q = add(context.threadId, c(first));
    OpBuilder::InsertionGuard guard(b);
    if (first + threads > chunks) {
      auto some = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, q, c(chunks)),
          /*withElse=*/false);
      b.setInsertionPointToStart(&some.getThenRegion().front());
    }
    Value row = arith::DivUIOp::create(b, loc, q, c(rowChunks));
    Value chunk = arith::RemUIOp::create(b, loc, q, c(rowChunks));
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), op.shared,
        ValueRange{sharedOffset(op, stage, row, chunk)}, op.buffer,
        chunkIndex(op, kTile, row, chunk), b.getIndexAttr(8),
        /*srcElements=*/Value(), /*bypassL1=*/UnitAttr::get(b.getContext()));
  }
}

void MmaSyncLowering::copyTileGuarded(const Operand &op, Value kTile,
                                      Value stage, Value aligned) {
  int64_t rowChunks = op.columns() / 8;
  int64_t chunks = op.rows() * rowChunks;
  auto memType = cast<MemRefType>(op.buffer.getType());
  int64_t rank = memType.getRank();
  SmallVector<Value> extents;
  for (int64_t j = 0; j < rank; ++j)
    extents.push_back(memref::DimOp::create(b, loc, op.buffer, j));
  Value zero = c(0);
  for (int64_t first = 0; first < chunks; first += threads) {
    Value q = add(context.threadId, c(first));
    auto emitChunk = [&] {
      Value row = arith::DivUIOp::create(b, loc, q, c(rowChunks));
      Value chunk = arith::RemUIOp::create(b, loc, q, c(rowChunks));
      SmallVector<Value> index = chunkIndex(op, kTile, row, chunk);
      Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
      for (int64_t j = 0; j + 1 < rank; ++j)
        inside = arith::AndIOp::create(
            b, loc, inside,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index[j],
                                  extents[j]));
      Value left = arith::SubIOp::create(b, loc, extents.back(), index.back());
      Value count = arith::MaxSIOp::create(
          b, loc, c(0), arith::MinSIOp::create(b, loc, c(8), left));
      count = arith::SelectOp::create(b, loc, inside, count, c(0));
      Value destination = sharedOffset(op, stage, row, chunk);
      // Nothing to read: point at the buffer's start, read 0 elements.
      Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        count, c(0));
      SmallVector<Value> source;
      for (Value i : index)
        source.push_back(arith::SelectOp::create(b, loc, any, i, zero));
      auto ifAligned = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifAligned.getThenRegion().front());
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()),
            op.shared, ValueRange{destination}, op.buffer, source,
            b.getIndexAttr(8), count, /*bypassL1=*/UnitAttr::get(b.getContext()));
        // An unaligned row: element by element, zeros past the edge.
        b.setInsertionPointToStart(&ifAligned.getElseRegion().front());
        Value zeroElement = arith::ConstantOp::create(
            b, loc, element, b.getZeroAttr(element));
        for (int64_t e = 0; e < 8; ++e) {
          Value within = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                               count, c(e));
          auto ifIn = scf::IfOp::create(b, loc, TypeRange{element}, within,
                                        /*withElse=*/true);
          {
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(&ifIn.getThenRegion().front());
            SmallVector<Value> at = source;
            at.back() = add(at.back(), c(e));
            scf::YieldOp::create(
                b, loc, ValueRange{memref::LoadOp::create(b, loc, op.buffer, at)});
            b.setInsertionPointToStart(&ifIn.getElseRegion().front());
            scf::YieldOp::create(b, loc, ValueRange{zeroElement});
          }
          memref::StoreOp::create(b, loc, ifIn.getResult(0), op.shared,
                                  ValueRange{add(destination, c(e))});
        }
      }
    };
    if (first + threads <= chunks) {
      emitChunk();
      continue;
    }
    Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, q,
                                       c(chunks));
    auto guard = scf::IfOp::create(b, loc, some, /*withElse=*/false);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    emitChunk();
  }
}

MmaSyncLowering::PendingRuns MmaSyncLowering::readComputed(const Operand &op,
                                                           Value kTile,
                                                           Value stage) {
  // Thread t evaluates chunks t, t + threads, ... of the stage tile (rows
  // of tile K, K innermost): 8 consecutive elements along K a chunk.
  PendingRuns pending;
  pending.kTile = kTile;
  pending.stage = stage;
  int64_t rowChunks = op.columns() / 8;
  int64_t chunks = op.rows() * rowChunks;
  for (int64_t first = 0; first < chunks; first += threads) {
    Value q = add(context.threadId, c(first));
    Value row = arith::DivUIOp::create(b, loc, q, c(rowChunks));
    Value chunk = arith::RemUIOp::create(b, loc, q, c(rowChunks));
    Value some = arith::ConstantIntOp::create(b, loc, 1, 1);
    if (first + threads > chunks) {
      // Threads past the last chunk evaluate row 0 and store nothing.
      some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, q,
                                   c(chunks));
      row = arith::SelectOp::create(b, loc, some, row, c(0));
    }
    SmallVector<Value> dims(context.tileOrigin.begin(),
                            context.tileOrigin.end());
    dims[op.rowDim] = add(dims[op.rowDim], row);
    Value k = add(kStart(kTile), mul(chunk, c(8)));
    pending.runs.emplace_back(some, row, chunk,
                              op.computed->read(b, loc, dims, k, 8));
  }
  return pending;
}

void MmaSyncLowering::storeComputed(const Operand &op, PendingRuns &pending,
                                    Value numK) {
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                    pending.kTile, numK);
  auto ifAny = scf::IfOp::create(b, loc, any, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifAny.getThenRegion().front());
  Value stage = pending.stage;
  for (auto &[some, row, chunk, run] : pending.runs) {
    SmallVector<Value> dims(context.tileOrigin.begin(),
                            context.tileOrigin.end());
    dims[op.rowDim] = add(dims[op.rowDim], row);
    Value rowInside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, dims[op.rowDim],
        context.outputExtents[op.rowDim]);
    Value k = add(kStart(pending.kTile), mul(chunk, c(8)));
    SmallVector<Value> elements = op.computed->finishInside(
        b, loc, dims, run, rowInside, k, context.extent);
    auto ifSome = scf::IfOp::create(b, loc, some, /*withElse=*/false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&ifSome.getThenRegion().front());
    Value chunkValue = vector::FromElementsOp::create(
        b, loc, VectorType::get({8}, element), elements);
    vector::StoreOp::create(b, loc, chunkValue, op.shared,
                            ValueRange{sharedOffset(op, stage, row, chunk)},
                            /*nontemporal=*/false, b.getI64IntegerAttr(16));
  }
}

SmallVector<MmaSyncLowering::PendingRuns, 2>
MmaSyncLowering::startCopies(Value kTile, Value stage, Value numK) {
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, kTile,
                                    numK);
  auto ifAny = scf::IfOp::create(b, loc, any, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAny.getThenRegion().front());
    for (const Operand *op : operands())
      if (!op->computed)
        copyTile(*op, kTile, stage);
  }
  // One group per step, empty or not, so that waits count steps.
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  // A computed operand's reads (guarded by the buffers' bounds, so a step
  // past the last reads nothing and its stores are skipped).
  SmallVector<PendingRuns, 2> pending;
  for (const Operand *op : operands())
    if (op->computed)
      pending.push_back(readComputed(*op, kTile, stage));
  return pending;
}

void MmaSyncLowering::finishCopies(SmallVector<PendingRuns, 2> &pending,
                                   Value numK) {
  unsigned next = 0;
  for (const Operand *op : operands())
    if (op->computed)
      storeComputed(*op, pending[next++], numK);
}

SmallVector<Value, 4> MmaSyncLowering::loadFragment(const Operand &op,
                                                    Value stage, Value rowBase,
                                                    Value kBase, bool isLhs,
                                                    bool oneRhsTile) {
  return emitLdmatrixFragment(b, loc, staged(op), lane, stage, rowBase, kBase,
                              isLhs, oneRhsTile);
}

void MmaSyncLowering::setUpOperands(unsigned rank) {
  // The stages in dynamic shared memory (requested at launch: a block's
  // static shared memory stops at 48 KiB), the lhs's then the rhs's.
  Value sharedBase = emitDynamicSharedBase(b, loc, context.func);
  int64_t sharedOffset = 0;
  auto makeOperand = [&](Value buffer, AffineMap map, unsigned rowDim,
                         int64_t rowTile, ComputedOperand *computed) {
    Operand op;
    op.buffer = buffer;
    op.map = map;
    op.rowDim = rowDim;
    op.rowTile = rowTile;
    op.tileK = tileK;
    op.computed = computed;
    op.kInnermost = computed || isKInnermost(map);
    int64_t elements = stages * rowTile * tileK;
    op.shared = emitDynamicSharedBuffer(b, loc, sharedBase, sharedOffset, elements,
                                    element);
    sharedOffset += elements * element.getIntOrFloatBitWidth() / 8;
    return op;
  };
  lhs = makeOperand(context.lhs, contract.getOperandMap(0), rank - 2, tileM,
                    context.lhsComputed);
  lhs.innerExtent = context.lhsInnerExtent;
  // (Only the contraction's own rhs may be computed: siblings load both.)
  for (const ContractLoweringContext::RhsOperand &operand :
       context.rhsOperands(contract)) {
    rhs.push_back(makeOperand(operand.buffer, operand.map, rank - 1, tileN,
                              rhs.empty() ? context.rhsComputed : nullptr));
    rhs.back().innerExtent = operand.innerExtent;
  }
  // Offset tables: their entries for this tile, read once for each
  // operand (siblings' rhs share the first's table: tile::shareLhsTile).
  SmallVector<std::tuple<unsigned, Operand *, Value>> tables = {
      {0u, &lhs, context.lhsOffsets}};
  for (Operand &operand : rhs)
    tables.push_back({1u, &operand, context.rhsOffsets});
  for (auto [side, op, table] : tables) {
    if (!table)
      continue;
    op->offsetPosition = contract.getOperandOffsetsPosition(side);
    op->offset = emitOperandOffset(b, loc, contract, side, table,
                                   context.tileOrigin, context.sizeArgs);
    SmallVector<Value> dims(context.tileOrigin.begin(),
                            context.tileOrigin.end());
    dims.push_back(c(0));
    Value index = add(expandAffine(b, loc,
                                   op->map.getResult(op->offsetPosition),
                                   b.getIndexType(), dims, context.sizeArgs),
                      op->offset);
    op->offsetInside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, index,
        memref::DimOp::create(b, loc, op->buffer, op->offsetPosition));
  }
}

void MmaSyncLowering::multiplyStage(MutableArrayRef<Value> acc, Value stage) {
  Value rowBaseM = mul(warpM, c(warpRows));
  Value rowBaseN = mul(warpN, c(warpColumns));
  Type f32 = b.getF32Type();
  MLIRContext *ctx = b.getContext();
  auto resultType = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  NVVM::MMATypes ptxType =
      element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  int64_t perContract = mTiles * nTiles * 4;
  for (int64_t kk = 0; kk < tileK; kk += 16) {
    SmallVector<SmallVector<Value, 4>> a;
    for (int64_t i = 0; i < mTiles; ++i)
      a.push_back(loadFragment(lhs, stage, add(rowBaseM, c(16 * i)), c(kk),
                               /*isLhs=*/true));
    for (auto [s, operand] : llvm::enumerate(rhs)) {
      SmallVector<SmallVector<Value, 4>> bFrag(nTiles);
      for (int64_t j = 0; j < nTiles; j += 2) {
        bool last = j + 1 == nTiles; // an odd count: the last one alone
        SmallVector<Value, 4> r =
            loadFragment(operand, stage, add(rowBaseN, c(8 * j)), c(kk),
                         /*isLhs=*/false, /*oneRhsTile=*/last);
        bFrag[j] = {r[0], r[1]};
        if (!last)
          bFrag[j + 1] = {r[2], r[3]};
      }
      for (int64_t i = 0; i < mTiles; ++i)
        for (int64_t j = 0; j < nTiles; ++j) {
          int64_t first = s * perContract + 4 * (i * nTiles + j);
          ValueRange cRegs(ArrayRef<Value>(acc).slice(first, 4));
          auto op = NVVM::MmaOp::create(
              b, loc, resultType, a[i], bFrag[j], cRegs,
              ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          for (int64_t r = 0; r < 4; ++r)
            acc[first + r] = LLVM::ExtractValueOp::create(b, loc, op, r);
        }
    }
  }
}

FailureOr<SmallVector<Value>> MmaSyncLowering::run() {
  ArrayRef<int64_t> tile = context.schedule.getTile();
  unsigned rank = tile.size();
  tileM = tile[rank - 2];
  tileN = tile[rank - 1];
  tileK = mma.getTileK();
  stages = mma.getStages();
  protocol = tile::pipelineProtocol(mma);
  threads = context.schedule.getThreads();
  int64_t warpsM = mma.getWarps()[0], warpsN = mma.getWarps()[1];
  element = contract.getOperandElementType();
  setUpOperands(rank);

  lane = arith::RemUIOp::create(b, loc, context.threadId,
                               c(context.target->kernelLanes));
  Value warp = arith::DivUIOp::create(b, loc, context.threadId,
                                      c(context.target->kernelLanes));
  warpM = arith::DivUIOp::create(b, loc, warp, c(warpsN));
  warpN = arith::RemUIOp::create(b, loc, warp, c(warpsN));
  warpRows = tileM / warpsM;
  warpColumns = tileN / warpsN;
  mTiles = warpRows / 16;
  nTiles = warpColumns / 8;

  firstKTile = emitFirstKTile(b, loc, contract, tileK, context.tileOrigin);
  Value numK = emitKTileCount(b, loc, contract, context.extent, tileK);
  for (int64_t s = 0; s < protocol.prefetch; ++s) {
    SmallVector<PendingRuns, 2> pending = startCopies(c(s), c(s), numK);
    finishCopies(pending, numK);
  }

  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getZeroAttr(f32));
  // The loop carries the accumulators and, last, the stage kt % stages.
  SmallVector<Value> init(mTiles * nTiles * 4 * rhs.size(), zero);
  init.push_back(c(0));
  auto loop = scf::ForOp::create(b, loc, c(0), numK, c(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    SmallVector<Value> acc(loop.getRegionIterArgs().begin(),
                           loop.getRegionIterArgs().end());
    Value stage = acc.pop_back_val();
    auto wrapsTo = [&](Value atEdge, Value edgeValue, Value otherwise) {
      return arith::SelectOp::create(b, loc, atEdge, edgeValue, otherwise);
    };
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          stage, c(0));
    Value previousStage =
        wrapsTo(isFirst, c(stages - 1), arith::SubIOp::create(b, loc, stage, c(1)));
    Value following = add(stage, c(1));
    Value nextStage = wrapsTo(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, following,
                              c(stages)),
        c(0), following);
    NVVM::CpAsyncWaitGroupOp::create(b, loc, protocol.copyWaitPending);
    if (protocol.barrierBeforeIssue)
      gpu::BarrierOp::create(b, loc);
    // The stage consumed at step kt - 1 (free: every thread has passed the
    // barrier) starts filling with K tile kt + stages - 1; a computed
    // operand's reads are issued now and its elements finished and stored
    // after this step's matrix multiplies.
    SmallVector<PendingRuns, 2> pending =
        startCopies(add(kt, c(protocol.prefetch)), previousStage, numK);
    multiplyStage(acc, stage);
    finishCopies(pending, numK);
    acc.push_back(nextStage);
    scf::YieldOp::create(b, loc, acc);
  }
  // No wait after the loop: each step waited for its own copies, and the
  // groups still pending after the last step's wait are those of steps past
  // the last, which copy nothing (startCopies). scripts/mutate_sync.py
  // found the cp.async.wait_group 0 once here redundant.
  return SmallVector<Value>(loop.getResults().begin(),
                            std::prev(loop.getResults().end()));
}

FailureOr<SmallVector<Value>>
nautilus::lowerContractToMmaSync(OpBuilder &b, tile::ContractOp contract,
                                 const ContractLoweringContext &context) {
  return MmaSyncLowering(b, contract, context).run();
}
