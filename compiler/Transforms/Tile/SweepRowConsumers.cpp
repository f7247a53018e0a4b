//===- SweepRowConsumers.cpp - An element-wise program in its rows' program
//===//
//
// tile-sweep-row-consumers (Passes.td): a program that reduces rows and the
// element-wise program right after it that reads the rows' results become
// one program, the second's body a tile.sweep over the reduced index at the
// end of the first.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Tile/Passes.h"

#include "compiler/Schedule/GpuPrograms.h"
#include "compiler/Schedule/Heuristics.h"
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Tile/KernelEditing.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

namespace nautilus {
#define GEN_PASS_DEF_TILESWEEPROWCONSUMERS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// What a program that reduces rows leaves: the one index its reductions
/// run over, and the value it stores into each buffer (by argument number).
struct RowReduction {
  Value extent;
  llvm::SmallDenseMap<unsigned, tile::StoreOp> stores;
};

unsigned argNumberOf(Value buffer) {
  return cast<BlockArgument>(buffer).getArgNumber();
}

/// Whether `program` loads from its buffer argument `arg`.
bool readsArgument(tile::ProgramOp program, unsigned arg) {
  return program
      .walk([&](tile::LoadOp load) {
        return argNumberOf(load.getBuffer()) == arg ? WalkResult::interrupt()
                                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` computes element by element: values of the tile at each
/// point from the same point's (loads in the schedule's layout, indices,
/// constants, arithmetic).
bool isPointwise(Operation &op) {
  if (op.getNumRegions())
    return false;
  if (auto load = dyn_cast<tile::LoadOp>(op))
    return load.getIndirect().empty() && !load.getLayoutAttr();
  if (auto index = dyn_cast<tile::IndexOp>(op))
    return !index.getLayoutAttr();
  // (A constant tile of several values would need its elements laid out
  // anew for the rows' tile.)
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return !isa<ShapedType>(constant.getType()) ||
           isa<SplatElementsAttr>(constant.getValue());
  return isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
         isa<vector::BroadcastOp>(op);
}

/// Whether `program` holds an op no sweep may join: a contraction, routed
/// rows, skipped tiles, a layout conversion, a sweep already.
bool holdsUnsweepable(tile::ProgramOp program) {
  return program
      .walk([](Operation *op) {
        return isa<tile::ContractOp, tile::RouteOp, tile::SkipIfNegativeOp,
                   tile::ConvertLayoutOp, tile::SweepOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// `program` as a program that reduces rows: over at least one output
/// dimension, at its top level only reductions (or a stream) of rows over
/// one index, not split yet, point-wise ops and stores of its tile. (Its
/// schedule must also share the rows: sharesRowsForSweep. A column
/// reduction's reads run across X's rows.)
std::optional<RowReduction> rowReductionOf(tile::ProgramOp program) {
  if (program.getSchedule().getMma() || program.getRank() == 0 ||
      holdsUnsweepable(program))
    return std::nullopt;
  RowReduction rows;
  auto reducesOver = [&](Value extent) {
    if (rows.extent && rows.extent != extent)
      return false;
    rows.extent = extent;
    return true;
  };
  for (Operation &op : program.getBody().front()) {
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      if (reduce.isSplit() || reduce.getExtents().size() != 1 ||
          !reducesOver(reduce.getExtents()[0]) ||
          reductionShapeOf(program, reduce) != ReductionShape::Rows)
        return std::nullopt;
    } else if (auto stream = dyn_cast<tile::OnlineReduceOp>(op)) {
      if (stream.isSplit() || !reducesOver(stream.getExtent()) ||
          reductionShapeOf(program, stream) != ReductionShape::Rows)
        return std::nullopt;
    } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
      if (store.getAlong())
        return std::nullopt;
      rows.stores[argNumberOf(store.getBuffer())] = store;
    } else if (!isa<tile::ReturnOp>(op) && !isPointwise(op)) {
      return std::nullopt;
    }
  }
  if (!rows.extent || !program.getExtentDim(rows.extent))
    return std::nullopt;
  return rows;
}

/// Why `schedule` does not share its rows for a sweep (sharesRowsForSweep).
std::string unsharedRows(tile::ScheduleAttr schedule) {
  if (schedule.getReduceSplit() != 1)
    return llvm::formatv("the rows' schedule splits each row {0} ways",
                         schedule.getReduceSplit());
  if (schedule.getReduceThreads() == 1)
    return "the rows' schedule gives each row one thread";
  return "the rows' schedule interleaves its groups of threads";
}

/// Whether `map` (output dimensions, then the swept index) reads the row's
/// value: the first `rank` dimensions in order.
bool readsRowValue(AffineMap map, unsigned rank) {
  if (map.getNumResults() != rank || map.getNumDims() != rank + 1)
    return false;
  for (auto [d, e] : llvm::enumerate(map.getResults()))
    if (e != getAffineDimExpr(d, map.getContext()))
      return false;
  return true;
}

/// The element-wise program `consumer`'s one store, when `consumer` can be
/// swept in `rows`'s program: over its output dimensions and then the
/// reduced one, point-wise, reading `rows`'s results, and only as the
/// row's value, and writing what neither program reads.
tile::StoreOp sweepableStore(tile::ProgramOp consumer, tile::ProgramOp rows,
                             const RowReduction &reduction) {
  ArrayAttr rowDims = rows.getOutputDims(), dims = consumer.getOutputDims();
  if (dims.size() != rowDims.size() + 1 ||
      dims[rowDims.size()] != rows.getExtentDim(reduction.extent) ||
      consumer.getSchedule().getMma() || holdsUnsweepable(consumer))
    return {};
  for (auto [mine, theirs] : llvm::zip(rowDims, dims))
    if (mine != theirs)
      return {};
  tile::StoreOp store;
  bool readsRowResult = false;
  for (Operation &op : consumer.getBody().front()) {
    if (auto s = dyn_cast<tile::StoreOp>(op)) {
      if (store || s.getAlong())
        return {};
      store = s;
    } else if (!isa<tile::ReturnOp>(op) && !isPointwise(op)) {
      return {};
    }
    if (auto load = dyn_cast<tile::LoadOp>(op);
        load && reduction.stores.count(argNumberOf(load.getBuffer()))) {
      if (!readsRowValue(load.getMap(), rows.getRank()))
        return {};
      readsRowResult = true;
    }
  }
  if (!store || !readsRowResult)
    return {};
  // Neither program reads what the consumer writes.
  unsigned written = argNumberOf(store.getBuffer());
  if (readsArgument(rows, written) || readsArgument(consumer, written))
    return {};
  return store;
}

/// Whether a program of `plan` other than `except` reads argument `arg`.
bool readByOthers(tile::PlanOp plan, unsigned arg,
                  ArrayRef<tile::ProgramOp> except) {
  return llvm::any_of(plan.getProgramOps(), [&](tile::ProgramOp program) {
    return !llvm::is_contained(except, program) && readsArgument(program, arg);
  });
}

/// Moves `consumer`'s body into a sweep at the end of `rows` (see the
/// pass), drops the stores only `consumer` read, and gives `rows` the
/// consumer's name and place in `plan`.
void sweep(tile::PlanOp plan, tile::ProgramOp rows, RowReduction &reduction,
           tile::ProgramOp consumer, tile::StoreOp store) {
  MLIRContext *ctx = rows.getContext();
  Block &rowsBody = rows.getBody().front();
  Block &consumerBody = consumer.getBody().front();
  unsigned rank = rows.getRank();
  OpBuilder b(ctx);
  b.setInsertionPoint(rowsBody.getTerminator());
  Location loc = consumer.getLoc();
  auto map = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  map = AffineMap::get(rank + 1, rows.getSizes().size(), map.getResults(), ctx);
  unsigned written = argNumberOf(store.getBuffer());
  auto sweepOp = tile::SweepOp::create(b, loc, reduction.extent,
                                       rowsBody.getArgument(written), map);
  Block *body =
      b.createBlock(&sweepOp.getBody(), {}, {b.getIndexType()}, {loc});
  IRMapping mapping;
  for (auto [mine, theirs] :
       llvm::zip(consumerBody.getArguments(), rowsBody.getArguments()))
    mapping.map(mine, theirs);
  ArrayRef<int64_t> rowTile = rows.getSchedule().getTile();
  for (Operation &op : consumerBody.without_terminator()) {
    if (&op == store.getOperation())
      continue;
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      auto stored = reduction.stores.find(argNumberOf(load.getBuffer()));
      if (stored != reduction.stores.end()) {
        mapping.map(load.getResult(), stored->second.getValue());
        continue;
      }
    }
    if (auto index = dyn_cast<tile::IndexOp>(op);
        index && index.getDim() == static_cast<int64_t>(rank)) {
      mapping.map(index.getResult(),
                  vector::BroadcastOp::create(
                      b, loc, VectorType::get(rowTile, b.getIndexType()),
                      body->getArgument(0)));
      continue;
    }
    b.clone(op, mapping);
  }
  tile::YieldOp::create(b, loc, mapping.lookup(store.getValue()));
  tile::retileTiles(sweepOp, consumer.getSchedule().getTile(), rowTile);
  // The row results only the consumer read stay in registers.
  SmallVector<unsigned> unstored;
  for (auto &[arg, rowStore] : reduction.stores)
    if (rows.getBufferRole(arg) == "workspace" &&
        !readByOthers(plan, arg, {rows, consumer})) {
      rowStore.erase();
      unstored.push_back(arg);
    }
  // The merged program takes the consumer's name and the rows' place.
  // (Schedule files that name the rows' program still find it:
  // tile::kSweptRowsAttrName.)
  auto name = StringAttr::get(ctx, consumer.getSymName());
  auto rowsName = StringAttr::get(ctx, rows.getSymName());
  eraseProgram(plan, consumer);
  if (failed(
          SymbolTable::replaceAllSymbolUses(rows, name, rows->getParentOp())))
    llvm_unreachable("a plan's program references are symbol uses");
  rows->setAttr(tile::kSweptRowsAttrName, rowsName);
  rows.setSymName(name);
  // Their workspaces go (the last first: positions after it shift).
  llvm::sort(unstored, std::greater<unsigned>());
  for (unsigned arg : unstored)
    (void)removeUnusedKernelBuffer(plan, arg);
}

struct TileSweepRowConsumersPass
    : public SchedulingPass<nautilus::impl::TileSweepRowConsumersBase<
          TileSweepRowConsumersPass>> {
  using SchedulingPass::SchedulingPass;

  void setExplain(bool value) { explain = value; }

  /// Whether `rows`' schedule shares its rows for a sweep
  /// (sharesRowsForSweep), re-scheduled where it did not and the provider
  /// asks for the sweep (`rescheduled` then says so, for the remark);
  /// where not, under --explain, why `consumer` stays apart (`rowLength`:
  /// the swept extent).
  bool shareRows(tile::ProgramOp rows, tile::ProgramOp consumer,
                 Value rowLength, const TargetInfo &target,
                 std::string &rescheduled) {
    if (sharesRowsForSweep(rows.getSchedule()))
      return true;
    tile::ScheduleAttr shared = schedules->sweepableRows(rows, target);
    if (!shared || !sharesRowsForSweep(shared)) {
      // (Over rows of unbound length the GPU model offers none:
      // sweepableRowsSchedule.)
      if (explain && !rows.getKnownExtent(rowLength))
        consumer.emitRemark()
            << "'" << consumer.getSymName() << "' stays a program apart from '"
            << rows.getSymName() << "': " << unsharedRows(rows.getSchedule())
            << ", and the rows' length is not bound at compile time: a "
               "sweep over rows of unbound length is not made (the "
               "checker's proof of its loops may not finish; --shape binds "
               "the length)";
      else if (explain)
        consumer.emitRemark()
            << "'" << consumer.getSymName() << "' stays a program apart from '"
            << rows.getSymName() << "': " << unsharedRows(rows.getSchedule())
            << "; none that shares them comes from " << schedules->origin()
            << " (a schedule file's \"sweep_row_consumers\": true asks the "
               "GPU model for one)";
      return false;
    }
    rows.retile(shared);
    rows->setAttr(tile::kRowsRescheduledAttrName,
                  UnitAttr::get(rows.getContext()));
    rescheduled = llvm::formatv(" (its rows re-scheduled unsplit, each shared "
                                "by {0} threads, as {1} asks)",
                                shared.getReduceThreads(), schedules->origin());
    return true;
  }

  void runOnOperation() override {
    std::optional<TargetInfo> target = moduleTarget();
    if (!target)
      return;
    std::string why;
    if (!schedules->sweepsRowConsumers(*target, why))
      return;
    for (auto plan : getOperation().getOps<tile::PlanOp>()) {
      SmallVector<tile::ProgramOp, 8> programs = plan.getProgramOps();
      for (size_t i = 0; i + 1 < programs.size(); ++i) {
        std::optional<RowReduction> rows = rowReductionOf(programs[i]);
        if (!rows)
          continue;
        tile::StoreOp store =
            sweepableStore(programs[i + 1], programs[i], *rows);
        if (!store)
          continue;
        std::string rescheduled;
        if (!shareRows(programs[i], programs[i + 1], rows->extent, *target,
                       rescheduled))
          continue;
        if (explain)
          programs[i + 1].emitRemark()
              << "'" << programs[i + 1].getSymName()
              << "' swept in the program of '" << programs[i].getSymName()
              << "'" << rescheduled
              << ": the threads that reduce a row write its elements, "
                 "the row's results in registers";
        sweep(plan, programs[i], *rows, programs[i + 1], store);
        programs.erase(programs.begin() + i + 1);
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createTileSweepRowConsumers(
    std::shared_ptr<ScheduleProvider> schedules, bool explain) {
  auto pass = std::make_unique<TileSweepRowConsumersPass>(std::move(schedules));
  pass->setExplain(explain);
  return pass;
}
