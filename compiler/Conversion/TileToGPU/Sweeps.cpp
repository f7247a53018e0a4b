//===- Sweeps.cpp - tile.sweep over a kernel's threads --------------------===//
#include "compiler/Conversion/TileToGPU/Sweeps.h"

#include "compiler/Conversion/TileToGPU/HeldRows.h"
#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "compiler/Conversion/TileToGPU/MemoryAccess.h"
#include "compiler/Conversion/TileToGPU/Reductions.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/LeadingLoads.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

namespace {

class SweepLowering {
public:
  SweepLowering(KernelContext &kernel, tile::SweepOp sweep);
  LogicalResult run();

private:
  /// A loop from `lower` to `upper` whose steps lower the body at
  /// `copies` points `step` apart (the loop's stride `stride`, or step x
  /// copies) and store them.
  void loop(Value lower, Value upper, int64_t step, int64_t copies,
            int64_t stride = 0);
  /// The body's tile at point `iv`, its leading loads `loaded`.
  Fragment lowerCopy(Value iv, const LoadedAhead &loaded);
  /// Stores element `e` of each copy, at consecutive points from `ivs`'s
  /// first when `run`: one vector; where `inside` (an i1, or null for
  /// always) holds.
  void store(ArrayRef<Value> ivs, ArrayRef<Fragment> values, bool run,
             Value inside = {});
  SmallVector<Value> indicesAt(int64_t e, Value iv);

  KernelContext &kernel;
  OpBuilder &b;
  Location loc;
  tile::SweepOp sweep;
  Block &body;
  SmallVector<tile::LoadOp> leadingLoads;
  /// This thread's elements whose row lies inside the output (every thread
  /// of a group stores its own points).
  Fragment rowInside;
  /// Whether a run of points is stored as vectors (of up to 16 bytes):
  /// the buffer's rows run along the swept index, their length a whole
  /// number of runs.
  Value runsAligned;
  bool storesRuns = false;
  LogicalResult status = success();
};

} // namespace

SweepLowering::SweepLowering(KernelContext &kernel, tile::SweepOp sweep)
    : kernel(kernel), b(kernel.b), loc(kernel.loc), sweep(sweep),
      body(sweep.getBody().front()) {
  leadingLoads = tile::leadingLoadsOf(body);
}

SmallVector<Value> SweepLowering::indicesAt(int64_t e, Value iv) {
  SmallVector<Value> dims;
  for (unsigned d = 0; d < kernel.rank; ++d)
    dims.push_back(kernel.globalIndex[d][e]);
  dims.push_back(iv);
  SmallVector<Value> indices;
  for (AffineExpr expr : sweep.getMap().getResults())
    indices.push_back(
        expandAffine(b, loc, expr, b.getIndexType(), dims, kernel.sizeArgs));
  return indices;
}

LogicalResult SweepLowering::run() {
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    Value in = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (unsigned d = 0; d < kernel.rank; ++d)
      in = arith::AndIOp::create(
          b, loc, in,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                kernel.globalIndex[d][e], kernel.extents[d]));
    rowInside.push_back(in);
  }
  Value extent = kernel.scalars.lookupOrDefault(sweep.getExtent());
  Value first = kernel.cIndex(0);
  int64_t run = kernel.program.getSchedule().getReductionRun();
  auto buffer = cast<MemRefType>(sweep.getBuffer().getType());
  int64_t bytes = buffer.getElementTypeBitWidth() / 8;
  storesRuns = run > 1 && kernel.perThread == 1 && bytes > 0 && bytes <= 16 &&
               buffer.getLayout().isIdentity() &&
               isContiguousAlong(sweep.getMap(), kernel.rank);
  if (storesRuns)
    runsAligned = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc,
                               innermostExtent(kernel, sweep.getBuffer()),
                               kernel.cIndex(run)),
        kernel.cIndex(0));
  if (kernel.heldRows && kernel.heldRows->visits(sweep)) {
    // The points of the rows the reductions kept, unrolled.
    kernel.heldRows->visit(
        kernel, body, leadingLoads, [&](const HeldRows::Points &points) {
          SmallVector<Fragment> values;
          for (auto [iv, loaded] : llvm::zip(points.ivs, points.loaded))
            values.push_back(lowerCopy(iv, loaded));
          store(points.ivs, values,
                storesRuns && points.spacing == 1 && points.ivs.size() > 1,
                points.inside);
        });
    return status;
  }
  if (kernel.reduceThreads == 1) {
    loop(first, extent, 1, 1);
    return status;
  }
  // The group's split of the program's reductions (Reductions.cpp), as
  // the verifier proves it covers the points (tile::sweepSplitShape).
  int64_t step = kernel.reduceThreads;
  GroupSplit split(
      kernel, first, extent,
      tile::sweepSplitShape(kernel.reduceThreads, run, kernel.perThread),
      leadingLoads);
  if (split.copies == 1) {
    loop(split.start, extent, step, 1);
    return status;
  }
  loop(split.start, split.mainEnd, split.spacing, split.copies, split.stride);
  Value rest = split.rest(kernel);
  if (!split.runs) {
    loop(rest, extent, step, 1);
    return status;
  }
  // The runs the main loop leaves, a point at a time.
  auto runsLeft =
      scf::ForOp::create(b, loc, rest, extent, kernel.cIndex(split.stride));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(runsLeft.getBody());
  Value runStart = runsLeft.getInductionVar();
  Value runEnd = arith::MinSIOp::create(
      b, loc, extent,
      arith::AddIOp::create(b, loc, runStart, kernel.cIndex(split.run)));
  loop(runStart, runEnd, 1, 1);
  return status;
}

void SweepLowering::loop(Value lower, Value upper, int64_t step, int64_t copies,
                         int64_t stride) {
  auto forOp = scf::ForOp::create(
      b, loc, lower, upper, kernel.cIndex(stride ? stride : step * copies));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forOp.getBody()->getTerminator());
  SmallVector<Value> ivs =
      copyPoints(kernel, forOp.getInductionVar(), copies, step);
  SmallVector<LoadedAhead> loaded =
      loadAhead(kernel, body, leadingLoads, 0, ivs, step);
  SmallVector<Fragment> values;
  for (int64_t j = 0; j < copies; ++j)
    values.push_back(lowerCopy(ivs[j], loaded[j]));
  store(ivs, values, storesRuns && step == 1 && copies > 1);
}

Fragment SweepLowering::lowerCopy(Value iv, const LoadedAhead &loaded) {
  beginBodyCopy(kernel, body, 0, iv, loaded);
  if (failed(lowerBlock(kernel, body)))
    status = failure();
  Fragment value = kernel.lookup(sweep.getYielded());
  endBodyCopy(kernel, loaded);
  return value;
}

void SweepLowering::store(ArrayRef<Value> ivs, ArrayRef<Fragment> values,
                          bool run, Value inside) {
  Value buffer = kernel.scalars.lookup(sweep.getBuffer());
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    auto storeEach = [&] {
      for (auto [iv, value] : llvm::zip(ivs, values))
        memref::StoreOp::create(b, loc, value[e], buffer, indicesAt(e, iv));
    };
    Value in =
        inside ? arith::AndIOp::create(b, loc, rowInside[e], inside).getResult()
               : rowInside[e];
    auto ifIn = scf::IfOp::create(b, loc, in, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    if (!run) {
      storeEach();
      continue;
    }
    // A run inside the buffer's row as aligned vectors of up to 16 bytes
    // (the run starts at a multiple of its length, so each piece at a
    // multiple of its own); where rows are not a whole number of runs,
    // point by point.
    auto ifAligned = scf::IfOp::create(b, loc, runsAligned, /*withElse=*/true);
    b.setInsertionPointToStart(&ifAligned.getThenRegion().front());
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    int64_t bits = element.getIntOrFloatBitWidth();
    int64_t piece = std::min<int64_t>(ivs.size(), 128 / bits);
    for (int64_t first = 0; first < int64_t(ivs.size()); first += piece) {
      SmallVector<Value> elements;
      for (int64_t j = first; j < first + piece; ++j)
        elements.push_back(values[j][e]);
      Value vector = vector::FromElementsOp::create(
          b, loc, VectorType::get({piece}, element), elements);
      vector::StoreOp::create(b, loc, vector, buffer, indicesAt(e, ivs[first]),
                              /*nontemporal=*/false,
                              b.getI64IntegerAttr(piece * bits / 8));
    }
    b.setInsertionPointToStart(&ifAligned.getElseRegion().front());
    storeEach();
  }
}

LogicalResult tiletogpu::lowerSweep(KernelContext &kernel,
                                    tile::SweepOp sweep) {
  return SweepLowering(kernel, sweep).run();
}
