//===- SplitContractions.cpp - split-K as two programs --------------------===//
//
// A program whose tensor-core schedule asks for `split_k = S` becomes two
// (TileSplitContractions in Passes.td):
//
//  - `<program>_partial`, over [S', the program's output dims], computes
//    the contraction over chunk s of K for each s (`tile.contract ...
//    chunks(C along 0)`) on the tensor cores and stores the f32 partial
//    sums to a workspace `<program>.partial`;
//  - the program itself then sums the S' partials (a `tile.reduce` over
//    them) where it had the contraction, and runs its epilogue as before,
//    on the CUDA cores with the default schedule.
//
// Sums are associative up to rounding: the partials add up, in f32, to
// what the unsplit contraction accumulates in f32, in another order.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Tile/SplitContractions.h"
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "compiler/Transforms/Tile/Passes.h"
#include "dialects/Tile/Utils/ReductionKinds.h"
#include "dialects/Tile/Utils/SiblingContracts.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {
#define GEN_PASS_DEF_TILESPLITCONTRACTIONS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

std::optional<int64_t>
nautilus::knownReducedExtent(tile::ProgramOp program,
                             tile::ContractOp contract) {
  return program.getKnownExtent(contract.getExtent());
}

std::string nautilus::splitKRefusal(tile::ProgramOp program,
                                    tile::ContractOp contract,
                                    tile::MmaAttr requested) {
  if (contract->getBlock() != &program.getBody().front())
    return "its contraction is not at the program's top level";
  if (contract.getOperandOffsets(0) || contract.getOperandOffsets(1))
    return "an operand with an offset table (a grouped GEMM) is not split";
  if (tile::siblingContracts(contract).size() > 1)
    return "contractions that share their lhs tile are not split";
  if (tile::SkipIfNegativeOp::find(program))
    return "a program that skips tiles (a grouped GEMM) is not split";
  std::optional<int64_t> extent = knownReducedExtent(program, contract);
  if (!extent)
    return "the reduced extent must be bound at compile time (--shape)";
  if (!requested || requested.getSplitK() == 1)
    return "";
  // The partial sums are f32.
  SplitKChunks chunks =
      splitKChunks(*extent, requested.getTileK(), requested.getSplitK());
  return partialWorkspaceRefusal(program, chunks.splits, 4);
}

SplitKChunks nautilus::splitKChunks(int64_t extent, int64_t tileK,
                                    int64_t splits) {
  int64_t steps = llvm::divideCeil(extent, tileK);
  if (steps == 0) // nothing to sum: one (empty) chunk
    return {tileK, 1};
  int64_t perChunk = llvm::divideCeil(steps, std::max<int64_t>(splits, 1));
  return {perChunk * tileK, static_cast<int64_t>(llvm::divideCeil(steps, perChunk))};
}

namespace {

/// `mma` with `split_k` = `splits`.
tile::MmaAttr withSplitK(tile::MmaAttr mma, int64_t splits) {
  return tile::MmaAttr::get(
      mma.getContext(), mma.getInstr(), mma.getTileK(), mma.getWarps(),
      mma.getStages(), mma.getGroupM(), mma.getProducers(), mma.getPersistent(),
      mma.getSwizzle(), splits, mma.getPingPong(), mma.getOverlapSoftmax());
}

class Splitter {
public:
  Splitter(ModuleOp module, tile::PlanOp plan, const TargetInfo &target,
           ScheduleProvider &schedules)
      : module(module), plan(plan), target(target), schedules(schedules) {}

  LogicalResult run(tile::ProgramOp program) {
    tile::MmaAttr mma = program.getSchedule().getMma();
    tile::ContractOp contract = findContract(program);
    if (!mma || mma.getSplitK() == 1 || !contract)
      return success();
    std::string refusal = splitKRefusal(program, contract, mma);
    if (!refusal.empty())
      return program.emitError("cannot split the contraction's K ")
             << mma.getSplitK() << " ways: " << refusal;
    MLIRContext *ctx = module.getContext();
    SplitKChunks chunks = splitKChunks(
        *knownReducedExtent(program, contract), mma.getTileK(),
        mma.getSplitK());
    if (chunks.splits == 1) { // K is one chunk: nothing to split
      program.retile(tile::ScheduleAttr::get(
          ctx, program.getSchedule().getTile(),
          program.getSchedule().getThreads(), withSplitK(mma, 1)));
      return success();
    }

    // The workspace: [splits, the output's dims], f32.
    unsigned rank = program.getRank();
    SmallVector<Attribute> dims = {
        IntegerAttr::get(IntegerType::get(ctx, 64), chunks.splits)};
    llvm::append_range(dims, program.getOutputDims());
    std::string name = (program.getSymName() + ".partial").str();
    unsigned workspace = addKernelBuffer(
        module, plan, name, "workspace",
        MemRefType::get(SmallVector<int64_t>(rank + 1, ShapedType::kDynamic),
                        Float32Type::get(ctx)),
        dims, program.getLaunchRangesAttr());
    buildPartialProgram(program, contract, mma, chunks.chunk, workspace,
                        dims);
    sumPartials(program, contract, chunks.splits, workspace);
    return success();
  }

private:
  /// `<program>_partial`: the contraction over each chunk of K, stored.
  void buildPartialProgram(tile::ProgramOp program, tile::ContractOp contract,
                           tile::MmaAttr mma, int64_t chunk, unsigned workspace,
                           ArrayRef<Attribute> dims) {
    MLIRContext *ctx = module.getContext();
    Location loc = program.getLoc();
    ArrayRef<int64_t> tile = program.getSchedule().getTile();
    SmallVector<int64_t> partialTile = {1};
    llvm::append_range(partialTile, tile);
    auto schedule = tile::ScheduleAttr::get(
        ctx, partialTile, program.getSchedule().getThreads(),
        withSplitK(mma, 1));
    std::string symbol = partialProgramName(program.getSymName());
    // Made with the program's schedule and retiled at the end, so that
    // every tile cloned into it (the result, a computed operand's values)
    // takes the new shape.
    OpBuilder b(ctx);
    IRMapping mapping;
    tile::ProgramOp partial =
        createSiblingProgram(b, program, symbol, dims, mapping);
    Block *entry = &partial.getBody().front();
    // A computed operand's region holds what it uses of the program's
    // tiles (sinkIntoComputedOperands); the scalars it and the extent use
    // come first.
    tile::sinkIntoComputedOperands(contract);
    cloneUsedFromOutside(contract, mapping, b);
    auto split = cast<tile::ContractOp>(b.clone(*contract, mapping));
    // Every map and index now has the chunk index first.
    auto shifted = [](AffineMap map) {
      return AffineMapAttr::get(map.shiftDims(1));
    };
    for (unsigned side : {0u, 1u})
      if (AffineMap map = split.getOperandMap(side))
        (side == 0 ? split.setLhsMapAttr(shifted(map))
                   : split.setRhsMapAttr(shifted(map)));
    for (unsigned side : {0u, 1u})
      split.getOperandBody(side).walk([&](Operation *op) {
        if (auto load = dyn_cast<tile::LoadOp>(op))
          load.setMapAttr(shifted(load.getMap()));
        else if (auto index = dyn_cast<tile::IndexOp>(op))
          index.setDim(index.getDim() + 1);
      });
    split.setSplitDimAttr(b.getI64IntegerAttr(0));
    split.setSplitChunkAttr(b.getI64IntegerAttr(chunk));
    tile::StoreOp::create(b, loc, split, entry->getArgument(workspace));
    tile::ReturnOp::create(b, loc);
    partial.retile(schedule);
    launchBefore(plan, symbol, program.getSymName());
  }

  /// The program sums the partials where it had the contraction and takes
  /// the default CUDA-core schedule.
  void sumPartials(tile::ProgramOp program, tile::ContractOp contract,
                   int64_t splits, unsigned workspace) {
    MLIRContext *ctx = module.getContext();
    Location loc = contract.getLoc();
    unsigned rank = program.getRank();
    OpBuilder b(contract);
    Value count = arith::ConstantIndexOp::create(b, loc, splits);
    auto reduce = tile::ReduceOp::create(b, loc, contract.getType(),
                                         ValueRange{count},
                                         alg::ReductionKind::sum);
    Block *body = b.createBlock(&reduce.getBody());
    body->addArgument(b.getIndexType(), loc);
    // (dims..., s) -> (s, dims...)
    SmallVector<AffineExpr> results = {getAffineDimExpr(rank, ctx)};
    for (unsigned d = 0; d < rank; ++d)
      results.push_back(getAffineDimExpr(d, ctx));
    auto map = AffineMap::get(rank + 1, program.getSizes().size(), results,
                              ctx);
    Value partials = program.getBody().front().getArgument(workspace);
    Value read = tile::LoadOp::create(b, loc, contract.getType(), partials,
                                      ValueRange{}, AffineMapAttr::get(map),
                                      b.getDenseI64ArrayAttr({}));
    tile::YieldOp::create(b, loc, read);
    contract.getResult().replaceAllUsesWith(reduce.getResult());
    contract.erase();
    SmallVector<std::optional<int64_t>> extents;
    for (Attribute d : program.getOutputDims())
      extents.push_back(program.getKnownExtent(d));
    program.retile(schedules.splitSum(
        schedules.elementwise(ctx, extents, target), extents, target));
  }

  ModuleOp module;
  tile::PlanOp plan;
  const TargetInfo &target;
  ScheduleProvider &schedules;
};

struct TileSplitContractionsPass
    : public SchedulingPass<nautilus::impl::TileSplitContractionsBase<
          TileSplitContractionsPass>> {
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

std::unique_ptr<Pass> nautilus::createTileSplitContractions(
    std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<TileSplitContractionsPass>(std::move(schedules));
}
