//===- HeldRows.cpp - A swept program's rows kept in registers ------------===//
#include "compiler/Conversion/TileToGPU/HeldRows.h"

#include "dialects/Tile/Utils/HeldRows.h"
#include "dialects/Tile/Utils/LeadingLoads.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <set>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

namespace {

/// What a load reads, the point aside: its buffer, map and type.
using ReadOf = std::tuple<const void *, const void *, const void *>;

ReadOf readOf(tile::LoadOp load) {
  return {load.getBuffer().getAsOpaquePointer(),
          load.getMapAttr().getAsOpaquePointer(),
          load.getType().getAsOpaquePointer()};
}

int64_t elementBytes(tile::LoadOp load) {
  return getElementTypeOrSelf(load.getType()).getIntOrFloatBitWidth() / 8;
}

} // namespace

std::shared_ptr<HeldRows> HeldRows::plan(KernelContext &kernel) {
  tile::ScheduleAttr schedule = kernel.program.getSchedule();
  if (kernel.reduceThreads <= 1 || schedule.getMma())
    return nullptr;
  Block &top = kernel.program.getBody().front();
  auto sweeps = top.getOps<tile::SweepOp>();
  if (sweeps.empty())
    return nullptr;
  tile::SweepOp sweep = *sweeps.begin();
  Value over = sweep.getExtent();
  std::optional<int64_t> extent =
      getConstantIntValue(kernel.scalars.lookupOrDefault(over));
  if (!extent)
    return nullptr;
  std::shared_ptr<HeldRows> held(new HeldRows(
      tile::sweepSplitShape(kernel.reduceThreads, schedule.getReductionRun(),
                            kernel.perThread),
      *extent));
  // The reductions over the swept index, unsplit, and what they read.
  std::set<ReadOf> reduced;
  for (Operation &op : top) {
    Block *body = nullptr;
    if (auto reduce = dyn_cast<tile::ReduceOp>(op);
        reduce && reduce.getExtents().size() == 1 &&
        reduce.getExtents().front() == over && !reduce.getSplitDim())
      body = &reduce.getBody().front();
    if (auto stream = dyn_cast<tile::OnlineReduceOp>(op);
        stream && stream.getExtent() == over && !stream.getSplitDim())
      body = &stream.getBody().front();
    if (!body)
      continue;
    held->visitors.insert(&op);
    for (tile::LoadOp load : tile::leadingLoadsOf(*body))
      reduced.insert(readOf(load));
  }
  // What the sweep reads again is what the thread keeps.
  int64_t bytesPerPoint = 0;
  for (tile::LoadOp load : tile::leadingLoadsOf(sweep.getBody().front()))
    if (reduced.count(readOf(load)))
      bytesPerPoint += tile::keptBytesOf(elementBytes(load));
  if (!tile::holdsRows(*extent, held->shape, kernel.perThread,
                       schedule.getReduceSplit(), bytesPerPoint,
                       schedule.getThreads(), kernel.target.registerFile))
    return nullptr;
  held->visitors.insert(sweep);
  return held;
}

void HeldRows::visit(KernelContext &kernel, Block &body,
                     ArrayRef<tile::LoadOp> leadingLoads,
                     function_ref<void(const Points &)> each) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  Value start = shape.runs ? arith::MulIOp::create(b, loc, kernel.laneInGroup,
                                                   kernel.cIndex(shape.run))
                                 .getResult()
                           : kernel.laneInGroup;
  auto pointAt = [&](int64_t offset) -> Value {
    return arith::AddIOp::create(b, loc, start, kernel.cIndex(offset));
  };
  for (int64_t s = 0, steps = tile::heldRowSteps(extent, shape); s < steps;
       ++s) {
    int64_t offset = s * shape.stride;
    if (tile::isWholeHeldStep(extent, shape, s)) {
      Points points;
      points.spacing = shape.spacing;
      for (int64_t j = 0; j < shape.copies; ++j)
        points.ivs.push_back(pointAt(offset + j * shape.spacing));
      points.loaded = load(kernel, body, leadingLoads, s * shape.copies,
                           points.ivs, shape.spacing, /*together=*/true);
      each(points);
      continue;
    }
    // A step whose points pass the row's end for some threads. A run is
    // still loaded as one vector where it lies in the buffer's row
    // (loadRun checks; else element by element, clamped); each point is
    // then folded on its own, where it may lie past the row guarded and
    // clamped into it (for the body's other reads).
    SmallVector<LoadedAhead> run;
    if (shape.runs) {
      SmallVector<Value> ivs;
      for (int64_t j = 0; j < shape.copies; ++j)
        ivs.push_back(pointAt(offset + j));
      run = load(kernel, body, leadingLoads, s * shape.copies, ivs, 1,
                 /*together=*/true);
    }
    for (int64_t j = 0; j < shape.copies; ++j) {
      int64_t at = offset + j * shape.spacing;
      tile::HeldPoint where = tile::heldPointAt(extent, shape, at);
      if (where == tile::HeldPoint::Past)
        continue;
      Points point;
      Value iv = pointAt(at);
      if (where == tile::HeldPoint::Guarded) {
        point.inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             iv, kernel.cIndex(extent));
        iv = arith::MinSIOp::create(b, loc, iv, kernel.cIndex(extent - 1));
      }
      point.ivs = {iv};
      point.loaded =
          shape.runs ? SmallVector<LoadedAhead>{run[j]}
                     : load(kernel, body, leadingLoads, s * shape.copies + j,
                            point.ivs, 1, /*together=*/false);
      each(point);
    }
  }
}

SmallVector<LoadedAhead> HeldRows::load(KernelContext &kernel, Block &body,
                                        ArrayRef<tile::LoadOp> leadingLoads,
                                        int64_t ordinal, ArrayRef<Value> ivs,
                                        int64_t spacing, bool together) {
  auto readAt = [](tile::LoadOp load, int64_t point) {
    auto [buffer, map, type] = readOf(load);
    return Read{buffer, map, type, point};
  };
  SmallVector<LoadedAhead> loaded(ivs.size());
  SmallVector<tile::LoadOp> fresh;
  for (tile::LoadOp load : leadingLoads) {
    if (!kept.count(readAt(load, ordinal))) {
      fresh.push_back(load);
      continue;
    }
    for (size_t j = 0; j < ivs.size(); ++j)
      loaded[j].push_back(
          {load.getResult(), kept.at(readAt(load, ordinal + j))});
  }
  if (fresh.empty())
    return loaded;
  // (Several points of a step whose every thread's lie in the row: a run
  // as one vector where the schedule moves runs.)
  SmallVector<LoadedAhead> got;
  if (together && ivs.size() > 1)
    got = loadAhead(kernel, body, fresh, 0, ivs, spacing);
  else
    for (Value iv : ivs)
      got.push_back(loadAt(kernel, body, fresh, 0, iv));
  for (size_t j = 0; j < ivs.size(); ++j)
    for (auto &[value, fragment] : got[j]) {
      loaded[j].push_back({value, fragment});
      kept[readAt(value.getDefiningOp<tile::LoadOp>(), ordinal + j)] = fragment;
    }
  return loaded;
}

Fragment tiletogpu::keepInside(KernelContext &kernel, Value inside,
                               const Fragment &next, const Fragment &old) {
  Fragment kept(next.size());
  for (size_t e = 0; e < next.size(); ++e)
    kept[e] =
        arith::SelectOp::create(kernel.b, kernel.loc, inside, next[e], old[e]);
  return kept;
}
