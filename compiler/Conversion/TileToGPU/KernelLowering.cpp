//===- KernelLowering.cpp - tile programs to GPU kernels ------------------===//
//
// Each tile.program becomes a gpu.func kernel; a program instance is a thread
// block (a CTA), and the block index is the program id. The threads of a
// block share each tile: thread t of T holds the E = |tile| / T elements at
// row-major tile positions t, t + T, t + 2T, ..., so consecutive threads
// hold consecutive elements of the innermost dimension: loads and stores
// along it coalesce. With `vector = V` thread t holds runs of V
// consecutive elements instead (positions tV .. tV + V - 1, then
// (t + T)V, ...), which it reads and writes as 16-byte vectors
// (ThreadPlacement.cpp).
// Each thread then holds E scalars of every tile, and every tile op becomes
// E scalar ops: loads are guarded scalar loads at each element's indices
// (or, for a run of consecutive elements of a row inside the buffer, one
// vector load), stores guarded scalar stores (or vector stores of runs)
// (MemoryAccess.cpp), reductions a loop nest carrying the E accumulators in
// registers (Reductions.cpp). Layout conversions go through shared memory
// (LayoutConversion.cpp), contractions to the tensor-core pipelines
// (Contractions.cpp), and a persistent program loops over its tiles
// (PersistentLoops.cpp). The code is target-neutral (gpu, scf, memref,
// arith, math); the NVVM or ROCDL lowering follows.
//
// With `reduce_threads = R` the tiles are distributed so over the T / R
// groups of R threads instead (consecutive threads, or for columns
// interleaved ones): every thread of a group holds its elements, the
// group's threads split each top-level reduction and combine their partial
// results, and only a group's first thread stores.
//
// This file holds the pass, the kernel's creation, and the op-by-op core;
// the parts share the kernel's state through KernelContext.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "dialects/Tile/Utils/SiblingContracts.h"

#include "compiler/Conversion/Passes.h"
#include "compiler/Conversion/TileToGPU/Contractions.h"
#include "compiler/Conversion/TileToGPU/HeldRows.h"
#include "compiler/Conversion/TileToGPU/LayoutConversion.h"
#include "compiler/Conversion/TileToGPU/MemoryAccess.h"
#include "compiler/Conversion/TileToGPU/PersistentLoops.h"
#include "compiler/Conversion/TileToGPU/Reductions.h"
#include "compiler/Conversion/TileToGPU/RouteLowering.h"
#include "compiler/Conversion/TileToGPU/Streams.h"
#include "compiler/Conversion/TileToGPU/Sweeps.h"
#include "compiler/Conversion/TileToGPU/ThreadPlacement.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

namespace nautilus {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

/// Lowers `op`, an op with one result outside the tile dialect: a scalar
/// op (outside the tiles) once, a splat constant tile or a scalar's
/// broadcast as the one scalar of every element, any other op once per
/// element on its operands' scalars.
static LogicalResult lowerValueOp(KernelContext &kernel, Operation &op) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  if (op.getNumResults() != 1)
    return op.emitOpError("has no GPU lowering");
  auto vec = dyn_cast<VectorType>(op.getResult(0).getType());
  if (!vec) { // a scalar op outside the tiles (sizes, extents)
    b.clone(op, kernel.scalars);
    return success();
  }
  // A splat constant tile is one scalar constant.
  if (kernel.fragments.count(op.getResult(0)) &&
      isa<arith::ConstantOp, vector::BroadcastOp>(op))
    return success(); // the same value for every element: made once
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense)
      return op.emitOpError("non-splat constant tiles have no GPU lowering");
    Value c = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    kernel.fragments[constant.getResult()] = Fragment(kernel.perThread, c);
    return success();
  }
  // A broadcast of a scalar to a tile: the scalar, E times.
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isa<VectorType>(broadcast.getSource().getType()))
      return op.emitOpError("only scalar broadcasts have a GPU lowering");
    kernel.fragments[broadcast.getResult()] = Fragment(
        kernel.perThread, kernel.scalars.lookup(broadcast.getSource()));
    return success();
  }
  // Elementwise: the same op once per element, on scalars, its operands
  // in one layout (constants and broadcasts fit any).
  tile::LinearLayoutAttr layoutAttr;
  bool first = true;
  for (Value operand : op.getOperands()) {
    if (!isa<VectorType>(operand.getType()) || tile::isUniformTile(operand))
      continue;
    if (!first && tile::layoutOf(operand) != layoutAttr)
      return op.emitOpError("has operands in different layouts (convert one "
                            "with tile.convert_layout)");
    layoutAttr = tile::layoutOf(operand);
    first = false;
  }
  SmallVector<Fragment> operands;
  for (Value operand : op.getOperands())
    operands.push_back(kernel.lookup(operand));
  Fragment &result = kernel.slot(op.getResult(0));
  for (int64_t e = kernel.firstElement; e < kernel.endElement; ++e) {
    IRMapping elementMap;
    for (auto [operand, fragment] : llvm::zip(op.getOperands(), operands))
      elementMap.map(operand, fragment[e]);
    Operation *copy = b.clone(op, elementMap);
    copy->getResult(0).setType(vec.getElementType());
    result[e] = copy->getResult(0);
  }
  return success();
}

/// Producer warpgroups hold no part of the tile: what follows a
/// warp-specialised contraction (the epilogue) runs on the computing
/// threads only (already so in a persistent program's consumer loop).
static void enterComputingThreads(KernelContext &kernel) {
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  if (!mma || !mma.getProducers() || kernel.persistent)
    return;
  Value computing = arith::CmpIOp::create(
      kernel.b, kernel.loc, arith::CmpIPredicate::uge, kernel.threadId,
      kernel.cIndex(kernel.target.warpgroupThreads * mma.getProducers()));
  auto ifComputing =
      scf::IfOp::create(kernel.b, kernel.loc, computing, /*withElse=*/false);
  kernel.b.setInsertionPointToStart(&ifComputing.getThenRegion().front());
}

LogicalResult tiletogpu::lowerOp(KernelContext &kernel, Operation &op) {
  OpBuilder &b = kernel.b;
  if (kernel.lowered.contains(&op))
    return success(); // (its fragment is set)
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    kernel.fragments[index.getResult()] =
        globalIndexIn(kernel, index.getLayoutAttr())[index.getDim()];
    return success();
  }
  if (isa<tile::SkipIfNegativeOp>(op))
    return success(); // around the whole tile (tileRuns)
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    lowerLoad(kernel, load, kernel.slot(load.getResult()));
    return success();
  }
  if (auto store = dyn_cast<tile::StoreOp>(op)) {
    lowerStore(kernel, store);
    return success();
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    FailureOr<Fragment> result = lowerReduce(kernel, reduce);
    if (failed(result))
      return failure();
    kernel.fragments[reduce.getResult()] = *result;
    return success();
  }
  if (auto contract = dyn_cast<tile::ContractOp>(op)) {
    if (kernel.fragments.count(contract.getResult()))
      return success(); // lowered with its first sibling
    FailureOr<SmallVector<Fragment>> acc = lowerContract(kernel, contract);
    if (failed(acc))
      return failure();
    for (auto [sibling, fragment] :
         llvm::zip(tile::siblingContracts(contract), *acc))
      kernel.fragments[sibling.getResult()] = fragment;
    enterComputingThreads(kernel);
    return success();
  }
  if (auto stream = dyn_cast<tile::OnlineReduceOp>(op)) {
    FailureOr<SmallVector<Fragment>> results = lowerStream(kernel, stream);
    if (failed(results))
      return failure();
    for (auto [result, fragment] : llvm::zip(stream.getResults(), *results))
      kernel.fragments[result] = fragment;
    // (A flash kernel with a producer warpgroup leaves the builder in its
    // consumers' branch: FlashLowering::warpSpecialized.)
    return success();
  }
  if (auto sweep = dyn_cast<tile::SweepOp>(op))
    return lowerSweep(kernel, sweep);
  if (auto route = dyn_cast<tile::RouteOp>(op)) {
    lowerRouteOnBlock(b, route, kernel.scalars, kernel.threadId,
                      kernel.threads);
    return success();
  }
  if (auto convert = dyn_cast<tile::ConvertLayoutOp>(op)) {
    Block::iterator end = op.getBlock()->end(); // (no epilogue with it)
    return lowerConvert(kernel, convert, llvm::make_range(end, end),
                        llvm::make_range(end, end));
  }
  if (isa<tile::ReturnOp, tile::YieldOp>(op))
    return success();
  if (isa<tile::TileDialect>(op.getDialect()) || op.getNumRegions())
    return op.emitOpError("has no GPU lowering");
  return lowerValueOp(kernel, op);
}

/// Ops whose element e depends only on element e of their operands (and
/// the element's indices), so they can be lowered one element at a time.
static bool isElementLocal(Operation &op) {
  if (isa<tile::LoadOp, tile::StoreOp, tile::IndexOp, tile::ReturnOp>(op))
    return true;
  if (op.getNumRegions() || op.getNumResults() != 1 ||
      isa<tile::TileDialect>(op.getDialect()))
    return false;
  return isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
         isa<vector::BroadcastOp>(op);
}

LogicalResult tiletogpu::lowerBlock(KernelContext &kernel, Block &block) {
  // The program's epilogue (the longest tail of element-local ops) is
  // lowered element by element, all of one element's ops before the
  // next's, so that one element's intermediates are live at a time rather
  // than a whole fragment of each (what keeps a GELU epilogue over 64
  // accumulators out of spills).
  Block::iterator tail = block.end();
  if (&block == &kernel.program.getBody().front())
    while (tail != block.begin() && isElementLocal(*std::prev(tail)))
      --tail;
  // A conversion just before the epilogue, used only in it, is lowered
  // with it, and with the element-local ops before it that feed only it
  // (the part of the epilogue before the move: a GELU, a rounding).
  Block::iterator feed = tail;
  tile::ConvertLayoutOp convert;
  if (tail != block.end() && tail != block.begin())
    if ((convert = dyn_cast<tile::ConvertLayoutOp>(*std::prev(tail))) &&
        llvm::all_of(convert->getUsers(), [&](Operation *user) {
          return user->getBlock() == &block;
        })) {
      feed = std::prev(tail);
      auto feedsOnlyTheConversion = [&](Operation &op) {
        return op.getNumResults() == 1 && isElementLocal(op) &&
               llvm::all_of(op.getUsers(), [&](Operation *user) {
                 return user == convert.getOperation() ||
                        (user->getBlock() == &block &&
                         !user->isBeforeInBlock(&*feed) &&
                         user->isBeforeInBlock(convert));
               });
      };
      while (feed != block.begin() && feedsOnlyTheConversion(*std::prev(feed)))
        --feed;
    }
  for (Operation &op : llvm::make_range(block.begin(), feed))
    if (failed(lowerOp(kernel, op)))
      return failure();
  if (feed != tail)
    return lowerConvert(kernel, convert,
                        llvm::make_range(feed, convert->getIterator()),
                        llvm::make_range(tail, block.end()));
  return lowerElementwise(
      kernel, llvm::make_range(tail, block.end()),
      elementRun(kernel, llvm::make_range(tail, block.end())));
}

int64_t tiletogpu::elementRun(KernelContext &kernel,
                              llvm::iterator_range<Block::iterator> ops) {
  // Elements go in runs that the store writes as one vector (the mma
  // layout's register pairs, a coalesced layout's 16 bytes), or a
  // schedule's whole runs (`vector`), which its loads read at once even
  // where the store's vectors are shorter (i8 in, i32 out).
  int64_t step = kernel.program.getSchedule().getTileRun();
  for (Operation &op : ops)
    if (auto store = dyn_cast<tile::StoreOp>(op))
      step = std::max(step, storeWidth(kernel, store.getValue()));
  return step;
}

LogicalResult tiletogpu::lowerElementwise(
    KernelContext &kernel, llvm::iterator_range<Block::iterator> ops,
    int64_t step, llvm::function_ref<bool(int64_t)> selected,
    llvm::function_ref<void(int64_t, int64_t)> prepare,
    llvm::function_ref<void(int64_t, int64_t)> finish) {
  if (ops.empty())
    return success();
  for (int64_t e = 0; e < kernel.perThread; e += step) {
    if (selected && !selected(e))
      continue;
    kernel.firstElement = e;
    kernel.endElement = e + step;
    if (prepare)
      prepare(e, e + step);
    for (Operation &op : ops)
      if (failed(lowerOp(kernel, op)))
        return failure();
    if (finish)
      finish(e, e + step);
  }
  kernel.firstElement = 0;
  kernel.endElement = kernel.perThread;
  return success();
}

/// The contraction operands a wgmma program reads through TMA tensor
/// maps, which the kernel takes as pointers after the sizes (see
/// WgmmaPlan.h).
static SmallVector<TensorMappedOperand>
programTensorMaps(tile::ProgramOp program) {
  tile::MmaAttr mma = program.getSchedule().getMma();
  tile::ContractOp contract = findContract(program);
  if (mma && mma.getInstr() == "wgmma" && contract)
    return tensorMappedOperands(contract);
  return {};
}

/// Creates the program's gpu.func at the end of the gpu module, with a
/// pointer argument for each tensor map (`mapped`), and the launch
/// bounds and register hints the schedule allows.
static void createKernel(KernelContext &kernel,
                         ArrayRef<TensorMappedOperand> mapped) {
  OpBuilder &b = kernel.b;
  tile::ProgramOp program = kernel.program;
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::MmaAttr mma = schedule.getMma();
  tile::ContractOp contract = findContract(program);
  b.setInsertionPointToEnd(kernel.gpuModule.getBody());
  SmallVector<Type> argTypes(program.getBody().front().getArgumentTypes());
  argTypes.append(mapped.size() + flashTensorMaps(program).size(),
                  LLVM::LLVMPointerType::get(b.getContext()));
  gpu::GPUFuncOp func = gpu::GPUFuncOp::create(
      b, kernel.loc, program.getSymName(), b.getFunctionType(argTypes, {}));
  kernel.func = func;
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(schedule.getThreads()), 1, 1}));
  // With every output extent bound, the launch's grid (a block a tile; a
  // persistent program takes fewer) is known too: LLVM then knows the
  // block index's range, and bounds checks that tiles dividing the output
  // always pass fold away.
  if (!mma || !mma.getPersistent()) {
    int64_t blocks = 1;
    for (auto [dim, t] :
         llvm::zip(program.getOutputDims(), schedule.getTile())) {
      std::optional<int64_t> extent = program.getKnownExtent(dim);
      blocks = extent && blocks ? blocks * llvm::divideCeil(*extent, t) : 0;
    }
    if (blocks > 0 && blocks <= std::numeric_limits<int32_t>::max())
      func.setKnownGridSizeAttr(
          b.getDenseI32ArrayAttr({static_cast<int32_t>(blocks), 1, 1}));
  }
  // A program that reallocates registers between warpgroups starts from a
  // known count, whose pool the reallocation stays within (WgmmaPlan.h).
  bool streams = !program.getBody().getOps<tile::OnlineReduceOp>().empty();
  if (mma && mma.getInstr() == "wgmma" && (contract || streams))
    if (int64_t start = contract
                            ? planWgmma(contract, schedule).registers.launch
                            : planFlashWgmma(program).registers.launch)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(start));
  // An mma.sync pipeline's tile and stages are sized for one block a
  // multiprocessor, its accumulators and fragments held in registers.
  // Without saying so (`.minnctapersm 1`), ptxas may squeeze the kernel to
  // 128 registers to fit a second block, spilling: it did for bmm_nt at
  // 4096^3 once the pipeline's stage index left the loop's divisions.
  if (mma && ((mma.getInstr() == "mma_sync" && contract) || streams))
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(1));
}

/// Maps the program's arguments to the kernel's (`body`: its entry block),
/// the sizes the plan binds to constants, and the tensor maps of
/// `mapped` to the arguments after the sizes.
static void bindArguments(KernelContext &kernel, Block &body,
                          ArrayRef<TensorMappedOperand> mapped) {
  Block &entry = kernel.program.getBody().front();
  for (auto [from, to] : llvm::zip(entry.getArguments(), body.getArguments()))
    kernel.scalars.map(from, to);
  unsigned numBuffers = kernel.program.getArgNames().size();
  for (unsigned i = numBuffers; i < entry.getNumArguments(); ++i)
    kernel.sizeArgs.push_back(body.getArgument(i));
  specialiseBoundSizes(kernel, body);
  for (auto [i, operand] : llvm::enumerate(mapped)) {
    Value map = body.getArgument(entry.getNumArguments() + i);
    if (operand.operand == 0) {
      kernel.lhsTensorMap = map;
      continue;
    }
    kernel.rhsTensorMaps.resize(
        std::max<size_t>(kernel.rhsTensorMaps.size(), operand.operand));
    kernel.rhsTensorMaps[operand.operand - 1] = map;
  }
  for (size_t i = 0; i < flashTensorMaps(kernel.program).size(); ++i)
    kernel.flashTensorMaps.push_back(
        body.getArgument(entry.getNumArguments() + mapped.size() + i));
}

/// With reduce_threads, splits the thread index into the group's index
/// (the holder of the tile's elements) and the thread's place in its
/// group; fails for programs whose ops have no lowering under it.
static LogicalResult groupThreads(KernelContext &kernel) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  // Groups of threads share the reductions: the tiles are distributed
  // over the groups.
  bool reducesOnly = true;
  kernel.program.walk([&](Operation *op) {
    if (isa<tile::ContractOp, tile::RouteOp>(op)) {
      op->emitOpError("has no lowering under reduce_threads (use a "
                      "schedule without it)");
      reducesOnly = false;
    }
  });
  if (!reducesOnly)
    return failure();
  Value threadId = kernel.threadId;
  if (kernel.program.getSchedule().getReduceInterleaved()) {
    // Interleaved: thread t is thread t / G of group t % G (G groups).
    kernel.laneInGroup =
        arith::DivUIOp::create(b, loc, threadId, kernel.cIndex(kernel.threads));
    kernel.threadId =
        arith::RemUIOp::create(b, loc, threadId, kernel.cIndex(kernel.threads));
  } else {
    kernel.laneInGroup = arith::RemUIOp::create(
        b, loc, threadId, kernel.cIndex(kernel.reduceThreads));
    kernel.threadId = arith::DivUIOp::create(
        b, loc, threadId, kernel.cIndex(kernel.reduceThreads));
  }
  return success();
}

/// Lowers the program to its kernel, then erases it.
static LogicalResult lowerProgram(KernelContext &kernel) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  tile::ProgramOp program = kernel.program;
  // A warp-specialised program's groups meet apart: the consumers (in
  // layout conversions of the epilogue), then the producer warpgroup.
  if (tile::MmaAttr mma = program.getSchedule().getMma();
      mma && mma.getProducers()) {
    kernel.barriers.reserve(BarrierGroup::Consumers);
    kernel.barriers.reserve(BarrierGroup::Producer);
  }
  SmallVector<TensorMappedOperand> mapped = programTensorMaps(program);
  createKernel(kernel, mapped);
  Block &body = kernel.func.getBody().front();
  b.setInsertionPointToStart(&body);
  bindArguments(kernel, body, mapped);

  // The program id, delinearised over the grid, gives the tile's origin;
  // the schedule's distribution of the tile gives each element's place in
  // it.
  SmallVector<Value> grid;
  for (unsigned d = 0; d < kernel.rank; ++d) {
    Value extent =
        kernel.scalars.lookupOrDefault(program.getOutputExtent(b, loc, d));
    kernel.extents.push_back(extent);
    grid.push_back(arith::CeilDivSIOp::create(
        b, loc, extent, kernel.cIndex(kernel.tileShape[d])));
  }
  Value pid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  kernel.threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (kernel.reduceThreads > 1 && failed(groupThreads(kernel)))
    return failure();
  kernel.heldRows = HeldRows::plan(kernel);
  if (tile::MmaAttr mma = program.getSchedule().getMma();
      mma && mma.getPersistent()) {
    if (failed(runPersistent(kernel, grid)))
      return failure();
  } else {
    placeTile(kernel, originOf(kernel, programCoordinates(kernel, pid, grid)));
    if (Value runs = tileRuns(kernel, kernel.tileOrigin)) {
      auto ifRuns = scf::IfOp::create(b, loc, runs, /*withElse=*/false);
      b.setInsertionPointToStart(&ifRuns.getThenRegion().front());
    }
    if (failed(lowerBlock(kernel, program.getBody().front())))
      return failure();
  }
  b.setInsertionPointToEnd(&body);
  gpu::ReturnOp::create(b, loc);
  program.erase();
  return success();
}

namespace {

/// convert-tile-to-gpu: each tile.program of the module becomes a kernel
/// of its gpu.module `nautilus_kernels`.
struct ConvertTileToGPUPass
    : public nautilus::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tile::ProgramOp> programs(module.getOps<tile::ProgramOp>());
    if (programs.empty())
      return;
    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), "nautilus_kernels");
    std::optional<TargetInfo> target = getModuleTarget(module);
    if (!target)
      return signalPassFailure();
    for (tile::ProgramOp p : programs) {
      KernelContext kernel(p, gpuModule, *target);
      if (failed(lowerProgram(kernel)))
        return signalPassFailure();
    }
  }
};

} // namespace
