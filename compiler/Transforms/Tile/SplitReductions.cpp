//===- SplitReductions.cpp - a reduction split across programs ------------===//
//
// A program whose schedule asks for `reduce_split = S` becomes two
// (TileSplitReductions in Passes.td):
//
//  - `<program>_partial`, over [the program's output dims, S'], folds chunk
//    s of the reduction's outermost index for each s (`tile.reduce ...
//    chunks(C along rank)`) and stores the results to a workspace
//    `<program>.partial` [dims..., S']: the chunk index innermost, so that
//    a row's partials lie side by side;
//  - the program itself then folds the S' partials with the same kind where
//    it had the reduction and runs its epilogue as before, a thread of a
//    group to each partial.
//
// Every kind (sum, product, max, min) is associative up to rounding, so the
// folded partials are the whole reduction in another order.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Tile/SplitReductions.h"
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "compiler/Transforms/Tile/Passes.h"
#include "compiler/Transforms/Tile/SplitStreams.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {
#define GEN_PASS_DEF_TILESPLITREDUCTIONS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

tile::ReduceOp nautilus::topLevelReduce(tile::ProgramOp program) {
  return onlyTopLevel<tile::ReduceOp>(program);
}

tile::ScheduleAttr nautilus::withReduceSplit(tile::ScheduleAttr schedule,
                                             ArrayRef<int64_t> tile,
                                             int64_t split) {
  return tile::ScheduleAttr::get(
      schedule.getContext(), tile, schedule.getThreads(), schedule.getMma(),
      schedule.getReduceThreads(), split, schedule.getReduceInterleaved(),
      schedule.getVector(), schedule.getPack());
}

/// The reduction's outermost extent, when bound at compile time.
static std::optional<int64_t> knownOuterExtent(tile::ProgramOp program,
                                               tile::ReduceOp reduce) {
  if (reduce.getExtents().empty())
    return std::nullopt;
  return program.getKnownExtent(reduce.getExtents().front());
}

ReductionChunks nautilus::reductionChunks(int64_t extent, int64_t split,
                                          int64_t align) {
  int64_t chunk =
      std::max<int64_t>(1, llvm::divideCeil(extent, std::max<int64_t>(split, 1)));
  chunk = llvm::alignTo(chunk, std::max<int64_t>(align, 1));
  return {chunk, std::max<int64_t>(1, llvm::divideCeil(extent, chunk))};
}

std::string nautilus::splitReductionRefusal(tile::ProgramOp program,
                                            int64_t split) {
  if (tile::onlyTopLevelStream(program))
    return splitStreamRefusal(program, split);
  bool other = false;
  program.walk([&](Operation *op) {
    if (isa<tile::ContractOp, tile::RouteOp, tile::SkipIfNegativeOp>(op))
      other = true;
  });
  if (other)
    return "a program with a contraction, routing or skipped tiles is not "
           "split this way";
  tile::ReduceOp reduce = topLevelReduce(program);
  if (!reduce)
    return "the program must have exactly one reduction at its top level";
  if (reduce.getExtents().empty())
    return "the reduction has no reduced index";
  // The partials go to a workspace buffer of the accumulator's type.
  Type element = reduce.getType().getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32() &&
      !element.isF64() && !element.isInteger(1) && !element.isInteger(8) &&
      !element.isInteger(32) && !element.isInteger(64)) {
    std::string type;
    llvm::raw_string_ostream os(type);
    os << element;
    return "its partial results (" + type +
           ") would need a workspace of a type buffers do not have";
  }
  std::optional<int64_t> extent = knownOuterExtent(program, reduce);
  if (!extent)
    return "the reduced extent must be bound at compile time (--shape)";
  ReductionChunks chunks =
      reductionChunks(*extent, split, program.getSchedule().getReductionRun());
  if (chunks.splits == 1)
    return "";
  return partialWorkspaceRefusal(
      program, chunks.splits,
      llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
}

namespace {

/// `map` (over the output dims, then the reduced indices) with a new
/// output dimension after the program's `rank`: reduced index j moves from
/// dimension rank + j to rank + 1 + j.
AffineMap withDimAfterOutputs(AffineMap map, unsigned rank) {
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    dims.push_back(getAffineDimExpr(d < rank ? d : d + 1, map.getContext()));
  return map.replaceDimsAndSymbols(dims, {}, map.getNumDims() + 1,
                                   map.getNumSymbols());
}

class Splitter {
public:
  Splitter(ModuleOp module, tile::PlanOp plan, const TargetInfo &target,
           ScheduleProvider &schedules)
      : module(module), plan(plan), target(target), schedules(schedules) {}

  LogicalResult run(tile::ProgramOp program) {
    tile::ScheduleAttr schedule = program.getSchedule();
    if (schedule.getReduceSplit() == 1)
      return success();
    std::string refusal =
        splitReductionRefusal(program, schedule.getReduceSplit());
    if (!refusal.empty())
      return program.emitError("cannot split the reduction ")
             << schedule.getReduceSplit() << " ways: " << refusal;
    if (tile::onlyTopLevelStream(program)) {
      // The partials (a flash kernel's, or a row stream's: a handful of
      // chunks each) are combined by a plain stream, each thread its
      // elements: the schedule of an element-wise program (a group's
      // threads would mostly hold no chunk).
      tile::ScheduleAttr combining;
      if (target.isGPU()) {
        SmallVector<std::optional<int64_t>> extents;
        for (Attribute dim : program.getOutputDims())
          extents.push_back(program.getKnownExtent(dim));
        combining =
            schedules.elementwise(module.getContext(), extents, target);
      }
      splitStream(module, plan, program, combining);
      return success();
    }
    tile::ReduceOp reduce = topLevelReduce(program);
    auto [chunk, splits] =
        reductionChunks(*knownOuterExtent(program, reduce),
                        schedule.getReduceSplit(), schedule.getReductionRun());
    if (splits == 1) { // one chunk: nothing to split
      program.retile(withReduceSplit(schedule, program.getSchedule().getTile(), 1));
      return success();
    }
    MLIRContext *ctx = module.getContext();
    unsigned rank = program.getRank();
    SmallVector<Attribute> dims(program.getOutputDims().begin(),
                                program.getOutputDims().end());
    dims.push_back(IntegerAttr::get(IntegerType::get(ctx, 64), splits));
    std::string name = (program.getSymName() + ".partial").str();
    unsigned workspace = addKernelBuffer(
        module, plan, name, "workspace",
        MemRefType::get(SmallVector<int64_t>(rank + 1, ShapedType::kDynamic),
                        reduce.getType().getElementType()),
        dims, program.getLaunchRangesAttr());
    buildPartialProgram(program, reduce, chunk, workspace, dims);
    foldPartials(program, reduce, splits, workspace);
    return success();
  }

private:

  /// `<program>_partial`: the reduction over each chunk, stored.
  void buildPartialProgram(tile::ProgramOp program, tile::ReduceOp reduce,
                           int64_t chunk, unsigned workspace,
                           ArrayRef<Attribute> dims) {
    MLIRContext *ctx = module.getContext();
    Location loc = program.getLoc();
    unsigned rank = program.getRank();
    SmallVector<int64_t> partialTile(program.getSchedule().getTile());
    partialTile.push_back(1);
    std::string symbol = partialProgramName(program.getSymName());
    OpBuilder b(ctx);
    IRMapping mapping;
    tile::ProgramOp partial =
        createSiblingProgram(b, program, symbol, dims, mapping);
    Block *entry = &partial.getBody().front();
    cloneUsedFromOutside(reduce, mapping, b);
    auto split = cast<tile::ReduceOp>(b.clone(*reduce, mapping));
    // The chunk index is a new output dimension after the others: every
    // map takes it (the reduced indices move past it), the reduction's and
    // those of the loads cloned from outside it.
    partial.walk([&](tile::LoadOp load) {
      load.setMapAttr(AffineMapAttr::get(withDimAfterOutputs(load.getMap(), rank)));
    });
    split.setSplitDimAttr(b.getI64IntegerAttr(rank));
    split.setSplitChunkAttr(b.getI64IntegerAttr(chunk));
    tile::StoreOp::create(b, loc, split, entry->getArgument(workspace));
    tile::ReturnOp::create(b, loc);
    partial.retile(withReduceSplit(program.getSchedule(), partialTile, 1));
    launchBefore(plan, symbol, program.getSymName());
  }

  /// The program folds the partials where it had the reduction, each of a
  /// group's threads a partial.
  void foldPartials(tile::ProgramOp program, tile::ReduceOp reduce,
                    int64_t splits, unsigned workspace) {
    MLIRContext *ctx = module.getContext();
    Location loc = reduce.getLoc();
    unsigned rank = program.getRank();
    OpBuilder b(reduce);
    Value count = arith::ConstantIndexOp::create(b, loc, splits);
    auto folded = tile::ReduceOp::create(b, loc, reduce.getType(),
                                         ValueRange{count}, reduce.getKind());
    Block *body = b.createBlock(&folded.getBody());
    body->addArgument(b.getIndexType(), loc);
    // (dims..., s) -> (dims..., s)
    auto map = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
    map = AffineMap::get(rank + 1, program.getSizes().size(), map.getResults(),
                         ctx);
    Value partials = program.getBody().front().getArgument(workspace);
    Value read = tile::LoadOp::create(b, loc, reduce.getType(), partials,
                                      ValueRange{}, AffineMapAttr::get(map),
                                      b.getDenseI64ArrayAttr({}));
    tile::YieldOp::create(b, loc, read);
    reduce.getResult().replaceAllUsesWith(folded.getResult());
    reduce.erase();
    SmallVector<std::optional<int64_t>> extents;
    for (Attribute d : program.getOutputDims())
      extents.push_back(program.getKnownExtent(d));
    ReductionScheduleOptions options;
    options.stepsPerThread = 1;
    options.minShared = 2;
    options.splittable = false;
    program.retile(schedules.reduction(ctx, extents, splits,
                                       ReductionShape::Rows, target, options));
  }

  ModuleOp module;
  tile::PlanOp plan;
  const TargetInfo &target;
  ScheduleProvider &schedules;
};

struct TileSplitReductionsPass
    : public SchedulingPass<
          nautilus::impl::TileSplitReductionsBase<TileSplitReductionsPass>> {
  using SchedulingPass::SchedulingPass;

  void runOnOperation() override {
    std::optional<TargetInfo> info = moduleTarget();
    if (!info)
      return;
    ModuleOp module = getOperation();
    if (failed(editPlanPrograms(
            module, [&](tile::PlanOp plan, tile::ProgramOp program) {
              return Splitter(module, plan, *info, *schedules).run(program);
            })))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createTileSplitReductions(
    std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<TileSplitReductionsPass>(std::move(schedules));
}
