//===- RouteLowering.cpp - tile.route on the threads of one block ---------===//
#include "compiler/Conversion/TileToGPU/RouteLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;

namespace {

class RouteEmitter {
public:
  RouteEmitter(OpBuilder &b, tile::RouteOp route, const IRMapping &scalars,
               Value threadId, int64_t threads)
      : b(b), loc(route.getLoc()), threadId(threadId),
        threads(index(threads)), ids(scalars.lookup(route.getIds())),
        order(scalars.lookup(route.getOrder())),
        slot(scalars.lookup(route.getSlot())),
        blockExperts(scalars.lookup(route.getBlockExperts())),
        starts(scalars.lookup(route.getStarts())),
        experts(scalars.lookup(route.getExperts())), block(route.getBlock()) {}

  void emit() {
    Value rows = index(1);
    for (int64_t d = 0, r = memrefRank(ids); d < r; ++d)
      rows = arith::MulIOp::create(b, loc, rows, dim(ids, d));
    Value capacity = dim(order, 0);
    Value blocks = dim(blockExperts, 0);
    Value noRow = toI32(rows), noSlot = toI32(capacity);

    // Nothing placed yet; no rows counted.
    strided(capacity, [&](Value q) { store(noRow, order, q); });
    strided(blocks, [&](Value q) { store(i32(-1), blockExperts, q); });
    strided(experts, [&](Value e) { store(i32(0), starts, e); });
    gpu::BarrierOp::create(b, loc);

    // Count each expert's rows.
    strided(rows, [&](Value p) {
      Value e = expertOf(p);
      ifValid(e, [&] { atomicAdd(starts, toIndex(e)); });
    });
    gpu::BarrierOp::create(b, loc);

    // One thread turns counts into the starts of whole blocks and names
    // each block's expert.
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, index(0));
    auto ifFirst = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
      auto loop = scf::ForOp::create(b, loc, index(0), experts, index(1),
                                     ValueRange{index(0)});
      b.setInsertionPointToStart(loop.getBody());
      Value e = loop.getInductionVar(), running = loop.getRegionIterArg(0);
      Value count = toIndex(memref::LoadOp::create(b, loc, starts, e));
      store(toI32(running), starts, e);
      Value expertBlocks =
          arith::CeilDivUIOp::create(b, loc, count, index(block));
      Value firstBlock = arith::DivUIOp::create(b, loc, running, index(block));
      auto fill = scf::ForOp::create(b, loc, index(0), expertBlocks, index(1));
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(fill.getBody());
        Value at =
            arith::AddIOp::create(b, loc, firstBlock, fill.getInductionVar());
        Value fits =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at, blocks);
        auto ifFits = scf::IfOp::create(b, loc, fits, /*withElse=*/false);
        b.setInsertionPointToStart(&ifFits.getThenRegion().front());
        store(toI32(e), blockExperts, at);
      }
      Value next = arith::AddIOp::create(
          b, loc, running,
          arith::MulIOp::create(b, loc, expertBlocks, index(block)));
      scf::YieldOp::create(b, loc, next);
    }
    gpu::BarrierOp::create(b, loc);

    // Each row takes the next position of its expert's.
    strided(rows, [&](Value p) {
      Value e = expertOf(p);
      Value valid = isExpert(e);
      auto ifValid = scf::IfOp::create(b, loc, b.getI32Type(), valid,
                                       /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifValid.getThenRegion().front());
        Value q = toIndex(atomicAdd(starts, toIndex(e)));
        Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           q, capacity);
        auto ifFits = scf::IfOp::create(b, loc, fits, /*withElse=*/false);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(&ifFits.getThenRegion().front());
          store(toI32(p), order, q);
        }
        scf::YieldOp::create(
            b, loc, arith::SelectOp::create(b, loc, fits, toI32(q), noSlot)
                        .getResult());
        b.setInsertionPointToStart(&ifValid.getElseRegion().front());
        scf::YieldOp::create(b, loc, noSlot);
      }
      memref::StoreOp::create(b, loc, ifValid.getResult(0), slot,
                              rowIndices(slot, p));
    });
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value toI32(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  }
  Value toIndex(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  static int64_t memrefRank(Value m) {
    return cast<MemRefType>(m.getType()).getRank();
  }
  Value dim(Value m, int64_t d) { return memref::DimOp::create(b, loc, m, d); }
  void store(Value v, Value m, Value i) {
    memref::StoreOp::create(b, loc, v, m, ValueRange{i});
  }
  Value atomicAdd(Value m, Value i) {
    return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                       i32(1), m, ValueRange{i});
  }
  /// The indices of row `p` (row-major) in a buffer of ids' shape.
  SmallVector<Value> rowIndices(Value m, Value p) {
    int64_t rank = memrefRank(m);
    SmallVector<Value> indices(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      Value extent = dim(m, d);
      indices[d] = d == 0 ? p : arith::RemUIOp::create(b, loc, p, extent);
      p = arith::DivUIOp::create(b, loc, p, extent);
    }
    return indices;
  }
  Value expertOf(Value p) {
    return memref::LoadOp::create(b, loc, ids, rowIndices(ids, p));
  }
  Value isExpert(Value e) {
    return arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, e, i32(0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, e,
                              toI32(experts)));
  }
  void ifValid(Value e, function_ref<void()> then) {
    auto ifOp = scf::IfOp::create(b, loc, isExpert(e), /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    then();
  }
  /// `body(i)` for i = threadId, threadId + threads, ... below `count`.
  void strided(Value count, function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, loc, threadId, count, threads);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }

  OpBuilder &b;
  Location loc;
  Value threadId, threads, ids, order, slot, blockExperts, starts, experts;
  int64_t block;
};

} // namespace

void nautilus::lowerRouteOnBlock(OpBuilder &b, tile::RouteOp route,
                                 const IRMapping &scalars, Value threadId,
                                 int64_t threads) {
  RouteEmitter(b, route, scalars, threadId, threads).emit();
}
