//===- TileToGPU.cpp - tile programs to GPU kernels -----------------------===//
//
// Each tile.program becomes a gpu.func kernel; a program instance is a thread
// block (a CTA), and the block index is the program id. The threads of a
// block share each tile: thread t of T holds the E = |tile| / T elements at
// row-major tile positions t, t + T, t + 2T, ..., so consecutive threads
// hold consecutive elements of the innermost dimension: loads and stores
// along it coalesce. With `vector = V` thread t holds runs of V
// consecutive elements instead (positions tV .. tV + V - 1, then
// (t + T)V, ...), which it reads and writes as 16-byte vectors.
// Each thread then holds E scalars of every tile, and every tile op becomes
// E scalar ops: loads are guarded scalar loads at each element's indices
// (or, for a run of consecutive elements of a row inside the buffer, one
// vector load), reductions a loop nest carrying the E accumulators in
// registers, stores guarded scalar stores (or vector stores of runs). The code is target-neutral (gpu, scf, memref,
// arith, math); the NVVM or ROCDL lowering follows.
//
// With `reduce_threads = R` the tiles are distributed so over the T / R
// groups of R threads instead (consecutive threads, or for columns
// interleaved ones): every thread of a group holds its elements, the
// group's threads split each top-level reduction (strided, 4 iterations a
// step with their loads first) and combine by shuffles and shared memory
// (lowerReduce, combineAcrossGroup), and only a group's first thread
// stores. A split reduction (`chunks(C along d)`)
// folds its program's chunk (emitReducedRange).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "compiler/Conversion/Passes.h"
#include "dialects/Tile/Utils/ReductionKinds.h"
#include "compiler/Conversion/TileToGPU/RouteLowering.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"
#include "dialects/Tile/Layout/LinearLayout.h"
#include "runtime/SharedBanks.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <map>
#include "compiler/Target/NamedBarriers.h"

namespace nautilus {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

#include <limits>

using namespace mlir;
using namespace nautilus;

namespace {

/// The E scalars one thread holds of a tile.
using Fragment = SmallVector<Value, 8>;

/// The iterations of a reduction shared by a group of threads
/// (reduce_threads) that each thread evaluates in one step of its loop.
constexpr int64_t kSharedReductionCopies = 4;

class KernelLowering {
public:
  KernelLowering(tile::ProgramOp program, gpu::GPUModuleOp gpuModule,
                 const TargetInfo &target)
      : program(program), gpuModule(gpuModule), target(target),
        barriers(target), b(program.getContext()),
        tileShape(program.getSchedule().getTile()), rank(program.getRank()),
        threads(program.getSchedule().getThreads() /
                program.getSchedule().getReduceThreads()),
        reduceThreads(program.getSchedule().getReduceThreads()),
        perThread(program.getSchedule().getElementsPerThread()),
        endElement(perThread) {}

  LogicalResult run();

private:
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation &op);
  void lowerLoad(tile::LoadOp load, Fragment &result);
  /// The elements of `load` read as one vector: a run of its layout's
  /// consecutive registers along a row, when they read consecutive
  /// elements of the buffer (at most 16 bytes); 1 otherwise.
  int64_t loadRunLength(tile::LoadOp load);
  /// Stores the elements firstElement to endElement of the stored tile.
  void lowerStore(tile::StoreOp store);
  /// The elements a store of `value` writes as one vector.
  int64_t storeWidth(Value value);
  Fragment lowerReduce(tile::ReduceOp reduce, LogicalResult &status);
  /// Combines each thread's partial results `acc` of a reduction of `kind`
  /// with those of the other threads of its group (reduce_threads): by
  /// butterfly shuffles within a warp, then through shared memory across
  /// the group's warps. Every thread of the group ends with the whole.
  Fragment combineAcrossGroup(alg::ReductionKind kind, Fragment acc);
  FailureOr<Fragment> lowerContract(tile::ContractOp contract);
  /// What the contraction's lowering takes from the program's (creating
  /// the evaluators of computed operands).
  ContractLoweringContext contractContext(tile::ContractOp contract);
  /// Each element's position in the tile along each dimension (per dim, per
  /// element) for the schedule's distribution of the tile over threads.
  SmallVector<Fragment> tilePositions(Value tid);
  /// Makes the sizes the plan binds constants, and bound buffers static.
  void specialiseBoundSizes(Block &body);
  /// Whether `load` (no gathers) reads map dimension `dim` as its
  /// buffer's contiguous index and nowhere else: a run of iterations of
  /// that dimension reads consecutive elements.
  bool readsRunOf(tile::LoadOp load, unsigned dim);
  /// The elements `load` reads for element 0 of the tile at the reduced
  /// indices `ivs` (consecutive values of the innermost one): one vector
  /// load where the run lies inside the buffer, aligned; else each element
  /// with a branch-free clamped load (in a main loop whose buffers are not
  /// empty).
  SmallVector<Value, 8> loadRunAlongReduction(tile::LoadOp load,
                                              ArrayRef<Value> ivs);
  /// The innermost extent of program argument `buffer` as the kernel's
  /// sizes give it.
  Value innermostExtent(Value buffer);
  /// The tile coordinates (per output dim) of program `pid` over `grid`.
  SmallVector<Value> programCoordinates(Value pid, ArrayRef<Value> grid);
  /// Each element's position in the tile (per dim, per element) under
  /// layout `l` (outputs: the tile's last dims).
  SmallVector<Fragment> layoutPositions(const layout::LinearLayout &l);
  /// Global indices and in-bounds flags of elements at `within`.
  void locate(ArrayRef<Fragment> within, SmallVector<Fragment> &globalIndex,
              Fragment &inside);
  /// Where the elements of a value converted to a layout are.
  struct Placement {
    SmallVector<Fragment> within, globalIndex;
    Fragment inside;
  };
  Placement &placementOf(tile::LinearLayoutAttr layout);
  /// Each element's global index (per dim) in `layout`, or in the
  /// program's distribution for a null one.
  ArrayRef<Fragment> globalIndexIn(tile::LinearLayoutAttr layout) {
    return layout ? ArrayRef<Fragment>(placementOf(layout).globalIndex)
                  : ArrayRef<Fragment>(globalIndex);
  }
  /// Lowers the element-local ops of `feed` (which feed only `convert`),
  /// `convert`, then those of `tail` (the program's epilogue after it,
  /// which alone uses its result): where the layouts allow, each element
  /// of `feed` is computed just before it is written to shared memory and
  /// the tail runs band by band as the converted elements are read back,
  /// so that a band's elements are live at a time rather than the whole
  /// tile's twice.
  LogicalResult lowerConvert(tile::ConvertLayoutOp convert,
                             llvm::iterator_range<Block::iterator> feed,
                             llvm::iterator_range<Block::iterator> tail);
  /// What a conversion's staging bands split: rows or columns.
  enum class BandAxis { Rows, Columns };
  /// The band of `bandExtent` rows or columns each register of `layout`
  /// lies in, when that does not depend on the lane or warp; none
  /// otherwise.
  std::optional<SmallVector<int64_t>>
  registerBands(tile::LinearLayoutAttr layout, int64_t bandExtent,
                BandAxis axis);
  /// The elements a store among `ops` writes as one vector (1 if none).
  int64_t elementRun(llvm::iterator_range<Block::iterator> ops);
  /// Lowers element-local ops `ops` element by element, in runs of `step`
  /// elements (those a store writes as one vector: elementRun): all of a
  /// run's ops before the next run's. Only the runs `selected` takes (by
  /// first element), each between `prepare(first, end)` and
  /// `finish(first, end)`.
  LogicalResult
  lowerElementwise(llvm::iterator_range<Block::iterator> ops, int64_t step,
                   llvm::function_ref<bool(int64_t)> selected = nullptr,
                   llvm::function_ref<void(int64_t, int64_t)> prepare = nullptr,
                   llvm::function_ref<void(int64_t, int64_t)> finish = nullptr);
  /// The origin (first element's index) of the tile at `coords`.
  SmallVector<Value> originOf(ArrayRef<Value> coords);
  /// Sets the tile's origin, and each element's global index and whether it
  /// is inside the output, for the tile at `origin`.
  void placeTile(ArrayRef<Value> origin);
  /// A persistent program: loops over its tiles around the pipeline.
  LogicalResult runPersistent(ArrayRef<Value> grid);
  /// Whether the tile at `origin` runs (an i1), for a program that skips
  /// tiles (`tile.skip_if_negative`); null for one that runs them all.
  Value tileRuns(ArrayRef<Value> origin);
  /// A loop over `count` tiles, the i-th at program id `tileAt(i)` of
  /// `grid`, emitting `body(run, origin)` for each tile that runs: `run`
  /// counts the tiles run before it, so that a pipeline numbering its
  /// steps by it carries its stages and phases over skipped tiles.
  LogicalResult
  loopOverTiles(Value count, llvm::function_ref<Value(Value)> tileAt,
                ArrayRef<Value> grid,
                llvm::function_ref<LogicalResult(Value, ArrayRef<Value>)> body);
  Value cIndex(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The fragment of `v`: its per-element scalars, or `v` itself E times
  /// for a scalar defined outside any tile (a size, a loop index).
  Fragment lookup(Value v) {
    auto it = fragments.find(v);
    if (it != fragments.end())
      return it->second;
    return Fragment(perThread, scalars.lookup(v));
  }

  tile::ProgramOp program;
  gpu::GPUModuleOp gpuModule;
  const TargetInfo &target;
  /// The kernel's named barriers (a warp-specialised program's groups).
  NamedBarriers barriers;
  OpBuilder b;
  Location loc = program.getLoc();
  ArrayRef<int64_t> tileShape;
  unsigned rank;
  /// `threads`: the holders the tiles are distributed over (the block's
  /// threads, or its groups of threads that share reductions); each thread
  /// holds `perThread` elements.
  int64_t threads, reduceThreads, perThread;
  /// The elements the op lowerings emit code for: all of them, or one at a
  /// time for an epilogue lowered element by element (lowerBlock).
  int64_t firstElement = 0, endElement;
  /// The fragment of tile value `v`, to be filled element by element.
  Fragment &slot(Value v) {
    Fragment &f = fragments[v];
    if (f.empty())
      f.assign(perThread, Value());
    return f;
  }
  llvm::DenseMap<Value, Fragment> fragments; // tile values
  IRMapping scalars;                          // non-tile values
  SmallVector<Value> sizeArgs, extents, reducedIVs;
  SmallVector<Fragment> globalIndex; // per output dim
  SmallVector<Value> tileOrigin;     // per output dim
  Fragment inside; // this thread's elements that fall inside the output
  gpu::GPUFuncOp func;
  /// The thread's index among the holders of tile elements (its group's
  /// with reduce_threads), and with reduce_threads, its place in its group.
  Value threadId, laneInGroup;
  SmallVector<Fragment> programWithin; // the program layout's positions
  llvm::DenseMap<Attribute, Placement> placements;
  Value lhsTensorMap, rhsTensorMap; // wgmma programs' TMA tensor maps
  // A persistent program's pipeline, and the consumer loop's state.
  std::unique_ptr<ContractLoweringContext> persistentContext;
  std::unique_ptr<PersistentWgmma> persistent;
  Value persistentWarpgroup, persistentLocalTile;
  std::array<std::unique_ptr<ComputedOperand>, 2> computedOperands;
  /// Elements already loaded: (load, insertion block, the Values of the
  /// dims its map reads, its gathered indices) -> the element.
  std::map<std::vector<const void *>, Value> loadedElements;
  /// Ops whose fragments are already set for the code being emitted (a
  /// shared reduction's loads, emitted ahead of the body's other ops).
  llvm::DenseSet<Operation *> lowered;
  /// Whether loads are emitted without branches (emitClampedLoad): their
  /// buffers are known not to be empty.
  bool clampedLoads = false;
};

/// `then` under `cond`, yielding its value or `otherwise`.
static Value ifThenElse(OpBuilder &b, Location loc, Value cond, Type type,
                        function_ref<Value()> then, Value otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, otherwise);
  }
  return ifOp.getResult(0);
}

int64_t KernelLowering::loadRunLength(tile::LoadOp load) {
  // Consecutive registers of the load's layout along the tile's rows
  // (innermostRun) read consecutive elements of the buffer's rows when
  // the buffer's innermost index is the tile's innermost dimension itself
  // and no other index reads that dimension.
  auto memType = cast<MemRefType>(load.getBuffer().getType());
  if (!load.getIndirect().empty() || !memType.getElementType().isIntOrFloat())
    return 1;
  int64_t bytes = memType.getElementTypeBitWidth() / 8;
  if (!memType.getLayout().isIdentity() || bytes == 0 || bytes > 16 ||
      !isContiguousAlong(load.getMap(), rank - 1))
    return 1;
  std::optional<layout::LinearLayout> l =
      load.getLayoutAttr() ? load.getLayoutAttr().getLayout()
                           : program.getSchedule().getDistribution();
  if (!l)
    return 1;
  int64_t run = std::min<int64_t>(layout::innermostRun(*l), 16 / bytes);
  if (firstElement % run || (endElement - firstElement) % run)
    return 1;
  return run;
}

bool KernelLowering::readsRunOf(tile::LoadOp load, unsigned dim) {
  auto memType = cast<MemRefType>(load.getBuffer().getType());
  return load.getIndirect().empty() &&
         memType.getElementType().isIntOrFloat() &&
         memType.getElementTypeBitWidth() >= 8 &&
         memType.getLayout().isIdentity() &&
         isContiguousAlong(load.getMap(), dim);
}

SmallVector<Value, 8>
KernelLowering::loadRunAlongReduction(tile::LoadOp load, ArrayRef<Value> ivs) {
  Value buffer = scalars.lookup(load.getBuffer());
  ArrayRef<Fragment> at = globalIndexIn(load.getLayoutAttr());
  auto indicesAt = [&](Value iv) {
    SmallVector<Value> dims;
    for (unsigned d = 0; d < rank; ++d)
      dims.push_back(at[d][0]);
    dims.append(reducedIVs.begin(), reducedIVs.end());
    dims.push_back(iv);
    SmallVector<Value> indices;
    for (AffineExpr e : load.getMap().getResults())
      indices.push_back(
          expandAffine(b, loc, e, b.getIndexType(), dims, sizeArgs));
    return indices;
  };
  return loadRun(b, loc, buffer, indicesAt(ivs.front()), ivs.size(), [&] {
    SmallVector<Value, 8> elements;
    for (Value iv : ivs)
      elements.push_back(emitClampedLoad(b, loc, buffer, indicesAt(iv)));
    return elements;
  });
}

void KernelLowering::lowerLoad(tile::LoadOp load, Fragment &result) {
  Value buffer = scalars.lookup(load.getBuffer());
  auto memType = cast<MemRefType>(buffer.getType());
  ArrayRef<int64_t> positions = load.getIndirectPositions();
  SmallVector<Fragment> indirect;
  for (Value v : load.getIndirect())
    indirect.push_back(lookup(v));
  // The dims the map reads: elements that agree on them (the same Values:
  // layoutPositions shares them) read the same element, once per block.
  SmallVector<unsigned> read;
  for (unsigned d = 0; d < load.getMap().getNumDims(); ++d)
    if (llvm::any_of(load.getMap().getResults(),
                     [&](AffineExpr e) { return involvesDim(e, d); }))
      read.push_back(d);
  // Each element's output index, in the load's layout.
  ArrayRef<Fragment> at = globalIndexIn(load.getLayoutAttr());
  auto dimsOf = [&](int64_t e) {
    SmallVector<Value> dims;
    for (unsigned d = 0; d < rank; ++d)
      dims.push_back(at[d][e]);
    dims.append(reducedIVs.begin(), reducedIVs.end());
    return dims;
  };
  auto loadedAt = [&](int64_t e) -> Value & {
    SmallVector<Value> dims = dimsOf(e);
    std::vector<const void *> key = {load.getOperation(),
                                     b.getInsertionBlock()};
    for (unsigned d : read)
      key.push_back(dims[d].getAsOpaquePointer());
    for (const Fragment &f : indirect)
      key.push_back(f[e].getAsOpaquePointer());
    return loadedElements[key];
  };
  auto indicesOf = [&](int64_t e) {
    SmallVector<Value> dims = dimsOf(e), idx;
    unsigned mapped = 0, gathered = 0;
    for (int64_t j = 0; j < memType.getRank(); ++j) {
      if (gathered < positions.size() && positions[gathered] == j)
        idx.push_back(indirect[gathered++][e]);
      else
        idx.push_back(expandAffine(b, loc, load.getMap().getResult(mapped++),
                                   b.getIndexType(), dims, sizeArgs));
    }
    return idx;
  };
  // A run of elements consecutive in memory is one vector load where it
  // lies inside the buffer, aligned (loadRun); elements read before in
  // this block are reused.
  int64_t run = clampedLoads ? 1 : loadRunLength(load);
  for (int64_t e = firstElement; e < endElement; e += run) {
    SmallVector<Value *> loaded;
    for (int64_t k = e; k < e + run; ++k)
      loaded.push_back(&loadedAt(k));
    if (llvm::all_of(loaded, [](Value *v) { return bool(*v); })) {
      for (int64_t k = e; k < e + run; ++k)
        result[k] = *loaded[k - e];
      continue;
    }
    SmallVector<Value, 8> values;
    if (run == 1)
      values.push_back(clampedLoads
                           ? emitClampedLoad(b, loc, buffer, indicesOf(e))
                           : emitGuardedLoad(b, loc, buffer, indicesOf(e)));
    else
      values = loadRun(b, loc, buffer, indicesOf(e), run, [&] {
        SmallVector<Value, 8> elements;
        for (int64_t k = e; k < e + run; ++k)
          elements.push_back(emitGuardedLoad(b, loc, buffer, indicesOf(k)));
        return elements;
      });
    for (int64_t k = e; k < e + run; ++k)
      result[k] = *loaded[k - e] = values[k - e];
  }
}

int64_t KernelLowering::storeWidth(Value value) {
  // Consecutive registers of a thread holding consecutive elements of a
  // row (the mma layout's register pairs; 16 bytes in a coalesced layout),
  // at most 16 bytes.
  int64_t run = 1;
  if (tile::LinearLayoutAttr layoutAttr = tile::layoutOf(value))
    run = layout::innermostRun(layoutAttr.getLayout());
  else if (program.getSchedule().getMma())
    run = 2;
  else
    run = program.getSchedule().getTileRun();
  int64_t bytes = cast<VectorType>(value.getType()).getElementTypeBitWidth() / 8;
  if (bytes == 0)
    return 1; // i1 tiles: element by element
  run = std::min<int64_t>(run, std::max<int64_t>(1, 16 / bytes));
  return perThread % run == 0 ? run : 1;
}

void KernelLowering::lowerStore(tile::StoreOp store) {
  Value buffer = scalars.lookup(store.getBuffer());
  Fragment value = lookup(store.getValue());
  tile::LinearLayoutAttr layoutAttr = tile::layoutOf(store.getValue());
  ArrayRef<Fragment> index = globalIndexIn(layoutAttr);
  ArrayRef<Value> in = layoutAttr ? ArrayRef<Value>(placementOf(layoutAttr).inside)
                                  : ArrayRef<Value>(inside);
  auto storeOne = [&](int64_t e) {
    SmallVector<Value> at;
    for (unsigned d = 0; d < rank; ++d)
      at.push_back(index[d][e]);
    auto ifIn = scf::IfOp::create(b, loc, in[e], /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    memref::StoreOp::create(b, loc, value[e], buffer, at);
  };
  // Runs of `width` elements of a row in consecutive registers are stored
  // as one aligned vector when all are inside the output and the row
  // length keeps the run aligned; at ragged edges, element by element.
  int64_t width = storeWidth(store.getValue());
  if (width == 1 || firstElement % width || (endElement - firstElement) % width) {
    for (int64_t e = firstElement; e < endElement; ++e)
      storeOne(e);
    return;
  }
  Type element = cast<VectorType>(store.getValue().getType()).getElementType();
  Value rowLength = innermostExtent(store.getBuffer());
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, rowLength, cIndex(width)), cIndex(0));
  for (int64_t e = firstElement; e < endElement; e += width) {
    Value all = aligned;
    for (int64_t k = e; k < e + width; ++k)
      all = arith::AndIOp::create(b, loc, all, in[k]);
    auto ifAll = scf::IfOp::create(b, loc, all, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAll.getThenRegion().front());
    SmallVector<Value> at;
    for (unsigned d = 0; d < rank; ++d)
      at.push_back(index[d][e]);
    Value run = vector::FromElementsOp::create(
        b, loc, VectorType::get({width}, element),
        ValueRange(ArrayRef<Value>(value).slice(e, width)));
    vector::StoreOp::create(
        b, loc, run, buffer, at, /*nontemporal=*/false,
        b.getI64IntegerAttr(width * element.getIntOrFloatBitWidth() / 8));
    b.setInsertionPointToStart(&ifAll.getElseRegion().front());
    for (int64_t k = e; k < e + width; ++k)
      storeOne(k);
  }
}

Fragment KernelLowering::lowerReduce(tile::ReduceOp reduce,
                                     LogicalResult &status) {
  Type element = reduce.getType().getElementType();
  Block &body = reduce.getBody().front();
  // With reduce_threads, the threads of a group split the outermost extent
  // of a reduction at the program's top level (whose code all threads
  // run, as the combination's barrier needs), each taking every R-th
  // iteration: consecutive threads (or, interleaved, consecutive groups)
  // read consecutive elements.
  bool shared = reduceThreads > 1 && reduce->getParentOp() == program &&
                !reduce.getExtents().empty();
  // The body's loads that read only indices (not values the body computes).
  SmallVector<tile::LoadOp> leadingLoads;
  for (Operation &op : body.without_terminator())
    if (auto load = dyn_cast<tile::LoadOp>(op); load && load.getIndirect().empty())
      leadingLoads.push_back(load);
  std::function<Fragment(unsigned, Fragment)> nest =
      [&](unsigned level, Fragment acc) -> Fragment {
    if (level == reduce.getExtents().size()) {
      if (failed(lowerBlock(body))) {
        status = failure();
        return acc;
      }
      Fragment folded =
          lookup(cast<tile::YieldOp>(body.getTerminator()).getValue());
      for (int64_t e = 0; e < perThread; ++e)
        acc[e] = combineReduction(b, loc, reduce.getKind(), acc[e], folded[e]);
      return acc;
    }
    Value extent = scalars.lookup(reduce.getExtents()[level]);
    // A loop from `lower` to `upper` whose body runs `copies` iterations
    // (iv, iv + step, ...; all below `upper`) one after the other, in
    // steps of `stride` (step x copies when 0). With step 1 and copies
    // the schedule's reduction run, each leading load reading a run of a
    // row reads it as one vector (runLoads).
    auto loop = [&](Value lower, Value upper, int64_t step, int64_t copies,
                    Fragment acc, int64_t stride = 0) {
      auto forOp = scf::ForOp::create(
          b, loc, lower, upper, cIndex(stride ? stride : step * copies), acc);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(forOp.getBody());
      Fragment carried(forOp.getRegionIterArgs().begin(),
                       forOp.getRegionIterArgs().end());
      SmallVector<Value> ivs;
      for (int64_t j = 0; j < copies; ++j)
        ivs.push_back(j == 0 ? forOp.getInductionVar()
                             : arith::AddIOp::create(
                                   b, loc, forOp.getInductionVar(),
                                   cIndex(j * step))
                                   .getResult());
      // With several copies of the body (the innermost loop), every copy's
      // loads that read only indices come first, then the rest of each
      // copy: no load waits behind another's use.
      SmallVector<SmallVector<std::pair<Value, Fragment>>> loaded(copies);
      // (The main loop runs only when their buffers are not empty: the
      // loads need no branch.)
      bool runs = copies > 1 && step == 1 &&
                  copies == program.getSchedule().getReductionRun();
      SmallVector<tile::LoadOp> elementLoads;
      for (tile::LoadOp load : leadingLoads)
        if (runs && readsRunOf(load, rank + level))
          for (auto [j, value] :
               llvm::enumerate(loadRunAlongReduction(load, ivs)))
            loaded[j].push_back({load.getResult(), Fragment{value}});
        else
          elementLoads.push_back(load);
      if (copies > 1)
        for (int64_t j = 0; j < copies; ++j) {
          scalars.map(body.getArgument(level), ivs[j]);
          reducedIVs.push_back(ivs[j]);
          clampedLoads = true;
          for (tile::LoadOp load : elementLoads)
            lowerLoad(load, slot(load.getResult()));
          clampedLoads = false;
          for (tile::LoadOp load : elementLoads)
            loaded[j].push_back({load.getResult(), fragments[load.getResult()]});
          reducedIVs.pop_back();
        }
      for (int64_t j = 0; j < copies; ++j) {
        scalars.map(body.getArgument(level), ivs[j]);
        reducedIVs.push_back(ivs[j]);
        // The body is lowered again for each copy and loop: none of its
        // values' fragments (a broadcast or a constant made once, elsewhere)
        // may come from another.
        body.walk([&](Operation *op) {
          for (Value result : op->getResults())
            fragments.erase(result);
        });
        for (auto &[value, fragment] : loaded[j]) {
          fragments[value] = fragment;
          lowered.insert(value.getDefiningOp());
        }
        carried = nest(level + 1, carried);
        for (auto &[value, fragment] : loaded[j])
          lowered.erase(value.getDefiningOp());
        reducedIVs.pop_back();
      }
      scf::YieldOp::create(b, loc, ValueRange(carried));
      return Fragment(forOp.getResults().begin(), forOp.getResults().end());
    };
    Value first = cIndex(0), end = extent;
    if (level == 0)
      std::tie(first, end) =
          emitReducedRange(b, loc, reduce, extent, tileOrigin);
    if (!(shared && level == 0))
      return loop(first, end, 1, 1, acc);
    // The group's split: thread r takes r, r + R, ... Each step of the main
    // loop evaluates kSharedReductionCopies of them, so that their loads
    // are in flight together rather than one after the other (the
    // iterations are independent but for the fold); the rest, one at a
    // time.
    // (Over several indices the body is a loop nest: one at a time. With
    // several elements a thread, fewer copies: as many loads in flight and
    // fewer live.)
    int64_t step = reduceThreads,
            copies = reduce.getExtents().size() == 1
                         ? std::max<int64_t>(1, kSharedReductionCopies / perThread)
                         : 1;
    // Runs (`vector` with reduce_threads): thread r takes V consecutive
    // iterations, V r .. V r + V - 1, then V R further on, ...: a step of
    // the main loop is one run (its loads of a row one vector), and what
    // is left, run by run, one iteration at a time.
    int64_t run = program.getSchedule().getReductionRun();
    bool runs = run > 1 && perThread == 1 && reduce.getExtents().size() == 1;
    // A main-loop step: `copies` iterations `spacing` apart; the loop
    // strides `stride`.
    int64_t spacing = runs ? 1 : step;
    if (runs)
      copies = run;
    int64_t stride = runs ? run * reduceThreads : step * copies;
    Value start = arith::AddIOp::create(
        b, loc, first,
        runs ? arith::MulIOp::create(b, loc, laneInGroup, cIndex(run))
                   .getResult()
             : laneInGroup);
    if (copies == 1)
      return loop(start, end, step, 1, acc);
    // The main loop runs only where every buffer its leading loads read has
    // elements (else all iterations go to the rest, loads guarded).
    Value nonEmpty = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (tile::LoadOp load : leadingLoads)
      nonEmpty = arith::AndIOp::create(
          b, loc, nonEmpty,
          emitNonEmpty(b, loc, scalars.lookup(load.getBuffer())));
    Value mainEnd = arith::SelectOp::create(
        b, loc, nonEmpty,
        arith::SubIOp::create(b, loc, end, cIndex((copies - 1) * spacing)),
        start);
    acc = loop(start, mainEnd, spacing, copies, acc, stride);
    Value mainSteps = arith::MaxSIOp::create(
        b, loc, cIndex(0),
        arith::CeilDivSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, mainEnd, start),
            cIndex(stride)));
    Value rest = arith::AddIOp::create(
        b, loc, start,
        arith::MulIOp::create(b, loc, mainSteps, cIndex(stride)));
    if (!runs)
      return loop(rest, end, step, 1, acc);
    auto runsLeft = scf::ForOp::create(b, loc, rest, end, cIndex(stride), acc);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(runsLeft.getBody());
    Value runStart = runsLeft.getInductionVar();
    Value runEnd = arith::MinSIOp::create(
        b, loc, end, arith::AddIOp::create(b, loc, runStart, cIndex(run)));
    Fragment carried(runsLeft.getRegionIterArgs().begin(),
                     runsLeft.getRegionIterArgs().end());
    scf::YieldOp::create(b, loc,
                         ValueRange(loop(runStart, runEnd, 1, 1, carried)));
    return Fragment(runsLeft.getResults().begin(), runsLeft.getResults().end());
  };
  Value init = reductionIdentity(b, loc, reduce.getKind(), element);
  Fragment acc = nest(0, Fragment(perThread, init));
  if (!shared || failed(status))
    return acc;
  return combineAcrossGroup(reduce.getKind(), acc);
}

/// `value` as the 32-bit words a shuffle moves (two for a 64-bit type),
/// and back.
static SmallVector<Value, 2> toWords(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  if (width == 64) {
    Value bits = arith::BitcastOp::create(b, loc, b.getI64Type(), value);
    Value high = arith::ShRUIOp::create(
        b, loc, bits, arith::ConstantIntOp::create(b, loc, 32, 64));
    return {arith::TruncIOp::create(b, loc, i32, bits),
            arith::TruncIOp::create(b, loc, i32, high)};
  }
  if (isa<FloatType>(type))
    return {width == 32 ? value
                        : arith::ExtFOp::create(b, loc, b.getF32Type(), value)
                              .getResult()};
  return {width == 32 ? value
                      : arith::ExtUIOp::create(b, loc, i32, value).getResult()};
}

static Value fromWords(OpBuilder &b, Location loc, ArrayRef<Value> words,
                       Type type) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 64) {
    Type i64 = b.getI64Type();
    Value low = arith::ExtUIOp::create(b, loc, i64, words[0]);
    Value high = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64, words[1]),
        arith::ConstantIntOp::create(b, loc, 32, 64));
    return arith::BitcastOp::create(b, loc, type,
                                    arith::OrIOp::create(b, loc, low, high));
  }
  if (width == 32)
    return words[0];
  if (isa<FloatType>(type)) // (exact: the value came from this type)
    return arith::TruncFOp::create(b, loc, type, words[0]);
  return arith::TruncIOp::create(b, loc, type, words[0]);
}

Fragment KernelLowering::combineAcrossGroup(alg::ReductionKind kind,
                                            Fragment acc) {
  // A group's threads within one warp (`inWarp` of them, `stride` lanes
  // apart): consecutive ones, or with interleaved groups, one every G
  // lanes (all in different warps once G >= 32).
  bool interleaved = program.getSchedule().getReduceInterleaved();
  int64_t stride = interleaved ? threads : 1;
  int64_t lanes = target.kernelLanes;
  int64_t inWarp =
      stride >= lanes ? 1 : std::min<int64_t>(reduceThreads, lanes / stride);
  // Within a warp: log2(inWarp) butterfly steps; lanes that differ in the
  // low bits of their place in the group exchange and combine, so all of
  // them end with the same value.
  Value width = arith::ConstantIntOp::create(b, loc, lanes, 32);
  for (int64_t offset = 1; offset < inWarp; offset *= 2) {
    Value mask = arith::ConstantIntOp::create(b, loc, offset * stride, 32);
    for (int64_t e = 0; e < perThread; ++e) {
      SmallVector<Value> words;
      for (Value w : toWords(b, loc, acc[e]))
        words.push_back(gpu::ShuffleOp::create(b, loc, w, mask, width,
                                               gpu::ShuffleMode::XOR)
                            .getShuffleResult());
      acc[e] = combineReduction(b, loc, kind, acc[e],
                                fromWords(b, loc, words, acc[e].getType()));
    }
  }
  if (inWarp == reduceThreads)
    return acc;
  // Across the group's warps: in each, the group's first lane writes the
  // warp's result, and after a barrier every thread combines its group's,
  // in the same order (so all agree to the bit).
  int64_t warps = reduceThreads / inWarp;
  Type element = acc.front().getType();
  Type stored = element.isInteger(1) ? b.getI8Type() : element;
  Value partials = func.addWorkgroupAttribution(
      MemRefType::get({perThread * threads * warps}, stored, AffineMap(),
                      b.getI64IntegerAttr(3)),
      loc);
  Value warpInGroup =
      arith::DivUIOp::create(b, loc, laneInGroup, cIndex(inWarp));
  Value firstLane = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, laneInGroup, cIndex(inWarp)), cIndex(0));
  auto slotOf = [&](int64_t e, Value warp) {
    // [element][warp][group]: the groups of a warp's lanes (consecutive
    // group ids) write and read consecutive words, no two in one bank
    // ([group][warp] put them `warps` words apart: 8-way conflicts with 8
    // warps a group).
    Value row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, warp, cIndex(threads)),
        cIndex(e * warps * threads));
    return arith::AddIOp::create(b, loc, row, threadId);
  };
  {
    auto ifFirst = scf::IfOp::create(b, loc, firstLane, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    for (int64_t e = 0; e < perThread; ++e) {
      Value v = stored == element
                    ? acc[e]
                    : arith::ExtUIOp::create(b, loc, stored, acc[e]).getResult();
      memref::StoreOp::create(b, loc, v, partials,
                              ValueRange{slotOf(e, warpInGroup)});
    }
  }
  gpu::BarrierOp::create(b, loc);
  Fragment whole(perThread);
  for (int64_t e = 0; e < perThread; ++e)
    for (int64_t w = 0; w < warps; ++w) {
      Value v = memref::LoadOp::create(b, loc, partials,
                                       ValueRange{slotOf(e, cIndex(w))});
      if (stored != element)
        v = arith::TruncIOp::create(b, loc, element, v);
      whole[e] = w == 0 ? v : combineReduction(b, loc, kind, whole[e], v);
    }
  return whole;
}

LogicalResult KernelLowering::lowerOp(Operation &op) {
  if (lowered.contains(&op))
    return success(); // (its fragment is set)
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    fragments[index.getResult()] =
        globalIndexIn(index.getLayoutAttr())[index.getDim()];
    return success();
  }
  if (isa<tile::SkipIfNegativeOp>(op))
    return success(); // around the whole tile (tileRuns)
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    lowerLoad(load, slot(load.getResult()));
    return success();
  }
  if (auto store = dyn_cast<tile::StoreOp>(op)) {
    lowerStore(store);
    return success();
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    LogicalResult status = success();
    fragments[reduce.getResult()] = lowerReduce(reduce, status);
    return status;
  }
  if (auto contract = dyn_cast<tile::ContractOp>(op)) {
    FailureOr<Fragment> acc = lowerContract(contract);
    if (failed(acc))
      return failure();
    fragments[contract.getResult()] = *acc;
    // Producer warpgroups hold no part of the tile: what follows (the
    // epilogue) runs on the computing threads only (already so in a
    // persistent program's consumer loop).
    if (int64_t producers = program.getSchedule().getMma().getProducers();
        producers && !persistent) {
      Value computing = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::uge, threadId,
          cIndex(target.warpgroupThreads * producers));
      auto ifComputing = scf::IfOp::create(b, loc, computing, /*withElse=*/false);
      b.setInsertionPointToStart(&ifComputing.getThenRegion().front());
    }
    return success();
  }
  if (auto route = dyn_cast<tile::RouteOp>(op)) {
    lowerRouteOnBlock(b, route, scalars, threadId, threads);
    return success();
  }
  if (auto convert = dyn_cast<tile::ConvertLayoutOp>(op)) {
    Block::iterator end = op.getBlock()->end(); // (no epilogue with it)
    return lowerConvert(convert, llvm::make_range(end, end),
                        llvm::make_range(end, end));
  }
  if (isa<tile::ReturnOp, tile::YieldOp>(op))
    return success();
  if (isa<tile::TileDialect>(op.getDialect()) || op.getNumRegions())
    return op.emitOpError("has no GPU lowering");
  if (op.getNumResults() != 1)
    return op.emitOpError("has no GPU lowering");
  auto vec = dyn_cast<VectorType>(op.getResult(0).getType());
  if (!vec) { // a scalar op outside the tiles (sizes, extents)
    b.clone(op, scalars);
    return success();
  }
  // A splat constant tile is one scalar constant.
  if (fragments.count(op.getResult(0)) &&
      isa<arith::ConstantOp, vector::BroadcastOp>(op))
    return success(); // the same value for every element: made once
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense)
      return op.emitOpError("non-splat constant tiles have no GPU lowering");
    Value c = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    fragments[constant.getResult()] = Fragment(perThread, c);
    return success();
  }
  // A broadcast of a scalar to a tile: the scalar, E times.
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isa<VectorType>(broadcast.getSource().getType()))
      return op.emitOpError("only scalar broadcasts have a GPU lowering");
    fragments[broadcast.getResult()] =
        Fragment(perThread, scalars.lookup(broadcast.getSource()));
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
    operands.push_back(lookup(operand));
  Fragment &result = slot(op.getResult(0));
  for (int64_t e = firstElement; e < endElement; ++e) {
    IRMapping elementMap;
    for (auto [operand, fragment] : llvm::zip(op.getOperands(), operands))
      elementMap.map(operand, fragment[e]);
    Operation *copy = b.clone(op, elementMap);
    copy->getResult(0).setType(vec.getElementType());
    result[e] = copy->getResult(0);
  }
  return success();
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

ContractLoweringContext
KernelLowering::contractContext(tile::ContractOp contract) {
  tile::sinkIntoComputedOperands(contract);
  ContractLoweringContext context{func,
                                  // (null when computed or absent)
                                  scalars.lookupOrNull(contract.getLhs()),
                                  scalars.lookupOrNull(contract.getRhs()),
                                  scalars.lookup(contract.getExtent()),
                                  scalars.lookupOrNull(contract.getLhsOffsets()),
                                  scalars.lookupOrNull(contract.getRhsOffsets()),
                                  sizeArgs,
                                  tileOrigin,
                                  extents,
                                  threadId,
                                  program.getSchedule(),
                                  Value(),
                                  Value(),
                                  lhsTensorMap,
                                  rhsTensorMap,
                                  nullptr,
                                  nullptr,
                                  &target,
                                  &barriers};
  for (unsigned side : {0u, 1u}) {
    if (contract.isComputed(side)) {
      computedOperands[side] = std::make_unique<ComputedOperand>(
          contract.getOperandBody(side), scalars, sizeArgs);
      (side == 0 ? context.lhsComputed : context.rhsComputed) =
          computedOperands[side].get();
      continue;
    }
    (side == 0 ? context.lhsInnerExtent : context.rhsInnerExtent) =
        innermostExtent(contract.getOperandBuffer(side));
  }
  return context;
}

FailureOr<Fragment> KernelLowering::lowerContract(tile::ContractOp contract) {
  tile::ScheduleAttr schedule = program.getSchedule();
  if (!schedule.getMma())
    return contract.emitOpError(
        "needs a tensor-core schedule (#tile.mma) on the GPU");
  if (contract.isSplit() &&
      *contract.getSplitChunk() % schedule.getMma().getTileK() != 0)
    return contract.emitOpError("splits K into chunks of ")
           << *contract.getSplitChunk() << ", not a multiple of tile_k = "
           << schedule.getMma().getTileK();
  // What the target allows: shared memory per block (static for the
  // mma.sync pipeline; dynamic, opted into at launch, for wgmma's), and the
  // accumulators must leave registers for the fragments and addresses.
  constexpr int64_t kAccumulatorLimit = 128;
  bool wgmma = schedule.getMma().getInstr() == "wgmma";
  int64_t shared = wgmma ? planWgmma(contract, schedule).sharedBytes
                         : contractSharedMemoryBytes(contract, schedule);
  int64_t sharedLimit = wgmma ? kSm90SharedLimit : kSm80SharedLimit;
  if (shared > sharedLimit)
    return contract.emitOpError("needs ")
           << shared << " bytes of shared memory for its pipeline; a block "
           << "may use " << sharedLimit << " bytes of shared memory "
           << (wgmma ? "on sm_90" : "with mma.sync (an A100's)")
           << " (use fewer stages, a smaller tile_k or a smaller tile)";
  // The registers a computing thread has: an even split of the register
  // file (at most 255), or on a wgmma schedule that reallocates, the
  // consumers' count; about kOtherRegisters of them go to addresses,
  // operand fragments and the epilogue (measured: 161 - 64 on mma.sync,
  // 137 - 64 on wgmma at 128 x 128).
  constexpr int64_t kOtherRegisters = 96;
  int64_t registers = evenRegisterSplit(schedule.getThreads());
  bool reallocated = false;
  if (wgmma)
    if (int64_t given = planWgmma(contract, schedule).consumerRegisters) {
      registers = given;
      reallocated = true;
    }
  int64_t accumulatorLimit =
      std::min(kAccumulatorLimit, registers - kOtherRegisters);
  if (perThread > accumulatorLimit)
    return contract.emitOpError("keeps ")
           << perThread << " accumulators per thread; at most "
           << accumulatorLimit << " leave room in the " << registers
           << " registers of a thread (use more warps or a smaller tile"
           << (wgmma && !reallocated
                   ? "; only a persistent producer warpgroup that just "
                     "copies gives its registers to the consumers"
                   : "")
           << ")";
  if (wgmma && (contract.isComputed(0) || contract.isComputed(1)) &&
      !schedule.getMma().getProducers())
    return contract.emitOpError(
        "has a computed operand, which a wgmma schedule evaluates in its "
        "producer warpgroup (use producers = 1)");
  ContractLoweringContext context = contractContext(contract);
  if (persistent) // in the consumers' loop over tiles (runPersistent)
    return Fragment(llvm::to_vector(
        persistent->consumeTile(persistentLocalTile, persistentWarpgroup)));
  FailureOr<SmallVector<Value>> acc =
      wgmma ? lowerContractToWgmma(b, contract, context)
            : lowerContractToMmaSync(b, contract, context);
  if (failed(acc))
    return failure();
  return Fragment(acc->begin(), acc->end());
}

SmallVector<Value> KernelLowering::programCoordinates(Value pid,
                                                     ArrayRef<Value> grid) {
  // Row-major over the grid (the last dimension fastest), except that a
  // tensor-core schedule with group_m > 1 walks the last two dimensions in
  // groups of group_m rows of tiles, down each column of a group before the
  // next: consecutive programs reuse rows of A and columns of B in L2.
  SmallVector<Value> coords(rank);
  tile::MmaAttr mma = program.getSchedule().getMma();
  int64_t group = mma && rank >= 2 ? mma.getGroupM() : 1;
  unsigned rowMajorDims = group > 1 ? rank - 2 : rank;
  Value rest = pid;
  if (group > 1) {
    Value rows = grid[rank - 2], columns = grid[rank - 1];
    Value perMatrix = arith::MulIOp::create(b, loc, rows, columns);
    Value within = arith::RemSIOp::create(b, loc, rest, perMatrix);
    rest = arith::DivSIOp::create(b, loc, rest, perMatrix);
    Value perGroup = arith::MulIOp::create(b, loc, cIndex(group), columns);
    Value groupId = arith::DivSIOp::create(b, loc, within, perGroup);
    Value firstRow = arith::MulIOp::create(b, loc, groupId, cIndex(group));
    Value groupRows = arith::MinSIOp::create(
        b, loc, cIndex(group), arith::SubIOp::create(b, loc, rows, firstRow));
    Value inGroup = arith::RemSIOp::create(b, loc, within, perGroup);
    coords[rank - 2] = arith::AddIOp::create(
        b, loc, firstRow, arith::RemSIOp::create(b, loc, inGroup, groupRows));
    coords[rank - 1] = arith::DivSIOp::create(b, loc, inGroup, groupRows);
  }
  for (int64_t d = static_cast<int64_t>(rowMajorDims) - 1; d >= 0; --d) {
    coords[d] = arith::RemSIOp::create(b, loc, rest, grid[d]);
    rest = arith::DivSIOp::create(b, loc, rest, grid[d]);
  }
  return coords;
}

Value KernelLowering::innermostExtent(Value buffer) {
  // The plan names each buffer's dimensions: a literal, or a size (bound at
  // compile time, or the program's size argument).
  if (ArrayAttr dims = program.getBufferDims(
          cast<BlockArgument>(buffer).getArgNumber());
      dims && !dims.empty()) {
    Attribute inner = dims[dims.size() - 1];
    if (std::optional<int64_t> known = program.getKnownExtent(inner))
      return cIndex(*known);
    if (Value size = program.getSizeArg(cast<StringAttr>(inner).getValue()))
      return scalars.lookup(size);
  }
  Value mapped = scalars.lookup(buffer);
  return memref::DimOp::create(
      b, loc, mapped, cast<MemRefType>(mapped.getType()).getRank() - 1);
}

SmallVector<Fragment>
KernelLowering::layoutPositions(const layout::LinearLayout &l) {
  // Register e's coordinates (constants) XOR the thread's (from its lane
  // and warp bits). Producer warpgroups come first and hold no elements.
  int64_t producers =
      program.getSchedule().getMma() ? program.getSchedule().getMma().getProducers() : 0;
  Value computing =
      arith::SubIOp::create(b, loc, threadId,
                            cIndex(target.warpgroupThreads * producers));
  Value lane =
      arith::RemUIOp::create(b, loc, computing, cIndex(target.kernelLanes));
  Value warp =
      arith::DivUIOp::create(b, loc, computing, cIndex(target.kernelLanes));
  unsigned dims = l.getOutDims().size(), lead = rank - dims;
  SmallVector<Value> threadPart(dims, cIndex(0));
  for (auto [name, value] :
       {std::make_pair("lane", lane), std::make_pair("warp", warp)})
    for (const auto &in : l.getInDims()) {
      if (in.name != name)
        continue;
      for (auto [bit, basis] : llvm::enumerate(in.bases)) {
        Value set = arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, value, cIndex(bit)),
            cIndex(1));
        for (unsigned d = 0; d < dims; ++d)
          if (basis[d])
            threadPart[d] = arith::XOrIOp::create(
                b, loc, threadPart[d],
                arith::MulIOp::create(b, loc, set, cIndex(basis[d])));
      }
    }
  // Elements at the same coordinate along a dimension share its value (a
  // load that reads only that dimension is then made once: lowerLoad).
  SmallVector<Fragment> within(rank);
  llvm::DenseMap<std::pair<unsigned, int32_t>, Value> coordinates;
  for (int64_t e = 0; e < perThread; ++e) {
    auto regPart = l.apply({{"register", int32_t(e)}});
    for (unsigned d = 0; d < lead; ++d)
      within[d].push_back(cIndex(0));
    for (unsigned d = 0; d < dims; ++d) {
      Value &at = coordinates[{d, regPart[d]}];
      if (!at)
        at = arith::XOrIOp::create(b, loc, threadPart[d], cIndex(regPart[d]));
      within[lead + d].push_back(at);
    }
  }
  return within;
}

SmallVector<Fragment> KernelLowering::tilePositions(Value tid) {
  if (tile::MmaAttr mma = program.getSchedule().getMma())
    // The mma accumulator layout over the last two dimensions (the others
    // are tiled by 1).
    return layoutPositions(layout::mmaAccumulatorLayout(
        tileShape[rank - 2], tileShape[rank - 1], mma.getWarps()[0],
        mma.getWarps()[1]));
  SmallVector<Fragment> within(rank);
  // Thread t's element e sits at row-major tile position e * T + t, or in
  // runs of V (`vector`): ((e / V) * T + t) * V + e % V.
  int64_t run = program.getSchedule().getTileRun();
  Value runStart =
      run == 1 ? tid : arith::MulIOp::create(b, loc, tid, cIndex(run));
  // A run lies in one row (V divides the innermost extent): its elements
  // share their outer coordinates, and their innermost ones step by 1 from
  // the run's first; shared Values let their loads of a row's broadcast
  // operand be one (lowerLoad reuses what equal indices read).
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
    llvm::DenseMap<int64_t, Value> ofRun;
    for (int64_t e = 0; e < perThread; ++e) {
      Value &start = ofRun[e / run];
      if (!start) {
        Value position = arith::AddIOp::create(
            b, loc, runStart, cIndex((e / run) * threads * run));
        start = arith::RemUIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, position, cIndex(stride)),
            cIndex(tileShape[d]));
      }
      bool innermost = d + 1 == static_cast<int64_t>(rank);
      within[d].push_back(innermost && e % run != 0
                              ? arith::AddIOp::create(b, loc, start,
                                                      cIndex(e % run))
                              : start);
    }
    stride *= tileShape[d];
  }
  return within;
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  // The program's epilogue (the longest tail of element-local ops) is
  // lowered element by element, all of one element's ops before the
  // next's, so that one element's intermediates are live at a time rather
  // than a whole fragment of each (what keeps a GELU epilogue over 64
  // accumulators out of spills).
  Block::iterator tail = block.end();
  if (&block == &program.getBody().front())
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
    if (failed(lowerOp(op)))
      return failure();
  if (feed != tail)
    return lowerConvert(convert,
                        llvm::make_range(feed, convert->getIterator()),
                        llvm::make_range(tail, block.end()));
  return lowerElementwise(llvm::make_range(tail, block.end()),
                          elementRun(llvm::make_range(tail, block.end())));
}

int64_t KernelLowering::elementRun(llvm::iterator_range<Block::iterator> ops) {
  // Elements go in runs that the store writes as one vector (the mma
  // layout's register pairs, a coalesced layout's 16 bytes), or a
  // schedule's whole runs (`vector`), which its loads read at once even
  // where the store's vectors are shorter (i8 in, i32 out).
  int64_t step = program.getSchedule().getTileRun();
  for (Operation &op : ops)
    if (auto store = dyn_cast<tile::StoreOp>(op))
      step = std::max(step, storeWidth(store.getValue()));
  return step;
}

LogicalResult KernelLowering::lowerElementwise(
    llvm::iterator_range<Block::iterator> ops, int64_t step,
    llvm::function_ref<bool(int64_t)> selected,
    llvm::function_ref<void(int64_t, int64_t)> prepare,
    llvm::function_ref<void(int64_t, int64_t)> finish) {
  if (ops.empty())
    return success();
  for (int64_t e = 0; e < perThread; e += step) {
    if (selected && !selected(e))
      continue;
    firstElement = e;
    endElement = e + step;
    if (prepare)
      prepare(e, e + step);
    for (Operation &op : ops)
      if (failed(lowerOp(op)))
        return failure();
    if (finish)
      finish(e, e + step);
  }
  firstElement = 0;
  endElement = perThread;
  return success();
}

LogicalResult KernelLowering::run() {
  Block &entry = program.getBody().front();
  b.setInsertionPointToEnd(gpuModule.getBody());
  // A wgmma program also takes a pointer to the TMA tensor map of each
  // loaded contraction operand (lhs, then rhs), after the sizes (see
  // WgmmaPlan.h).
  SmallVector<Type> argTypes(entry.getArgumentTypes());
  tile::MmaAttr mma = program.getSchedule().getMma();
  tile::ContractOp contract = findContract(program);
  // A warp-specialised program's groups meet apart: the consumers (in
  // layout conversions of the epilogue), then the producer warpgroup.
  if (mma && mma.getProducers()) {
    barriers.reserve(BarrierGroup::Consumers);
    barriers.reserve(BarrierGroup::Producer);
  }
  SmallVector<unsigned> mappedSides;
  if (mma && mma.getInstr() == "wgmma" && contract)
    for (unsigned side : {0u, 1u})
      if (!contract.isComputed(side))
        mappedSides.push_back(side);
  argTypes.append(mappedSides.size(),
                  LLVM::LLVMPointerType::get(b.getContext()));
  func = gpu::GPUFuncOp::create(b, loc, program.getSymName(),
                                b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(program.getSchedule().getThreads()), 1, 1}));
  // With every output extent bound, the launch's grid (a block a tile; a
  // persistent program takes fewer) is known too: LLVM then knows the
  // block index's range, and bounds checks that tiles dividing the output
  // always pass fold away.
  tile::MmaAttr scheduleMma = program.getSchedule().getMma();
  if (!scheduleMma || !scheduleMma.getPersistent()) {
    int64_t blocks = 1;
    for (auto [dim, t] : llvm::zip(program.getOutputDims(),
                                   program.getSchedule().getTile())) {
      std::optional<int64_t> extent = program.getKnownExtent(dim);
      blocks = extent && blocks ? blocks * llvm::divideCeil(*extent, t) : 0;
    }
    if (blocks > 0 && blocks <= std::numeric_limits<int32_t>::max())
      func.setKnownGridSizeAttr(
          b.getDenseI32ArrayAttr({static_cast<int32_t>(blocks), 1, 1}));
  }
  // A program that reallocates registers between warpgroups starts from a
  // known count, which the reallocation balances (WgmmaPlan.h).
  if (mma && mma.getInstr() == "wgmma" && contract)
    if (int64_t start =
            planWgmma(contract, program.getSchedule()).launchRegisters)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(start));
  // An mma.sync pipeline's tile and stages are sized for one block a
  // multiprocessor, its accumulators and fragments held in registers.
  // Without saying so (`.minnctapersm 1`), ptxas may squeeze the kernel to
  // 128 registers to fit a second block, spilling: it did for bmm_nt at
  // 4096^3 once the pipeline's stage index left the loop's divisions.
  if (mma && mma.getInstr() == "mma_sync" && contract)
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(1));
  Block &body = func.getBody().front();
  b.setInsertionPointToStart(&body);
  for (auto [from, to] : llvm::zip(entry.getArguments(), body.getArguments()))
    scalars.map(from, to);
  unsigned numBuffers = program.getArgNames().size();
  for (unsigned i = numBuffers; i < entry.getNumArguments(); ++i)
    sizeArgs.push_back(body.getArgument(i));
  specialiseBoundSizes(body);
  for (auto [i, side] : llvm::enumerate(mappedSides))
    (side == 0 ? lhsTensorMap : rhsTensorMap) =
        body.getArgument(entry.getNumArguments() + i);

  // The program id, delinearised over the grid, gives the tile's origin;
  // the schedule's distribution of the tile gives each element's place in
  // it.
  SmallVector<Value> grid;
  for (unsigned d = 0; d < rank; ++d) {
    Value extent = scalars.lookupOrDefault(program.getOutputExtent(b, loc, d));
    extents.push_back(extent);
    grid.push_back(
        arith::CeilDivSIOp::create(b, loc, extent, cIndex(tileShape[d])));
  }
  Value pid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (reduceThreads > 1) {
    // Groups of threads share the reductions: the tiles are distributed
    // over the groups.
    bool reducesOnly = true;
    program.walk([&](Operation *op) {
      if (isa<tile::ContractOp, tile::RouteOp>(op)) {
        op->emitOpError("has no lowering under reduce_threads (use a "
                        "schedule without it)");
        reducesOnly = false;
      }
    });
    if (!reducesOnly)
      return failure();
    if (program.getSchedule().getReduceInterleaved()) {
      // Interleaved: thread t is thread t / G of group t % G (G groups).
      laneInGroup = arith::DivUIOp::create(b, loc, threadId, cIndex(threads));
      threadId = arith::RemUIOp::create(b, loc, threadId, cIndex(threads));
    } else {
      laneInGroup =
          arith::RemUIOp::create(b, loc, threadId, cIndex(reduceThreads));
      threadId = arith::DivUIOp::create(b, loc, threadId, cIndex(reduceThreads));
    }
  }
  if (tile::MmaAttr mma = program.getSchedule().getMma();
      mma && mma.getPersistent()) {
    if (failed(runPersistent(grid)))
      return failure();
  } else {
    placeTile(originOf(programCoordinates(pid, grid)));
    if (Value runs = tileRuns(tileOrigin)) {
      auto ifRuns = scf::IfOp::create(b, loc, runs, /*withElse=*/false);
      b.setInsertionPointToStart(&ifRuns.getThenRegion().front());
    }
    if (failed(lowerBlock(entry)))
      return failure();
  }
  b.setInsertionPointToEnd(&body);
  gpu::ReturnOp::create(b, loc);
  program.erase();
  return success();
}

SmallVector<Value> KernelLowering::originOf(ArrayRef<Value> coords) {
  SmallVector<Value> origin;
  for (unsigned d = 0; d < rank; ++d)
    origin.push_back(
        arith::MulIOp::create(b, loc, coords[d], cIndex(tileShape[d])));
  return origin;
}

void KernelLowering::specialiseBoundSizes(Block &body) {
  // Sizes the plan binds (--shape) are constants in the kernel, and a
  // buffer whose dimensions are all bound is seen through a view of its
  // static shape and row-major strides (memref.reinterpret_cast; its
  // identity layout says its offset is 0; a memref.cast would fold back
  // into its loads): grid sizes, strides, bounds and alignment checks then
  // fold.
  // (The arguments stay: the launch passes them as for any kernel, and the
  // runtime checks that the tensors have the bound shapes.)
  unsigned numBuffers = program.getArgNames().size();
  for (auto [i, size] : llvm::enumerate(program.getSizes()))
    if (std::optional<int64_t> bound = program.getKnownExtent(size)) {
      Value constant = cIndex(*bound);
      sizeArgs[i] = constant;
      scalars.map(program.getBody().front().getArgument(numBuffers + i),
                  constant);
    }
  for (unsigned i = 0; i < numBuffers; ++i) {
    auto type = dyn_cast<MemRefType>(body.getArgument(i).getType());
    ArrayAttr dims = program.getBufferDims(i);
    if (!type || !dims || dims.size() != type.getShape().size() ||
        !type.getLayout().isIdentity())
      continue;
    SmallVector<int64_t> shape;
    for (Attribute dim : dims)
      if (std::optional<int64_t> bound = program.getKnownExtent(dim))
        shape.push_back(*bound);
    if (shape.size() != dims.size() || type.hasStaticShape())
      continue;
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int64_t j = static_cast<int64_t>(shape.size()) - 2; j >= 0; --j)
      strides[j] = strides[j + 1] * shape[j + 1];
    Value buffer = body.getArgument(i);
    auto viewType = MemRefType::get(
        shape, type.getElementType(),
        StridedLayoutAttr::get(b.getContext(), /*offset=*/0, strides),
        type.getMemorySpace());
    SmallVector<OpFoldResult> sizes, strideValues;
    for (auto [extent, stride] : llvm::zip(shape, strides)) {
      sizes.push_back(b.getIndexAttr(extent));
      strideValues.push_back(b.getIndexAttr(stride));
    }
    scalars.map(program.getBody().front().getArgument(i),
                memref::ReinterpretCastOp::create(
                    b, loc, viewType, buffer, OpFoldResult(b.getIndexAttr(0)),
                    sizes, strideValues)
                    .getResult());
  }
}

void KernelLowering::placeTile(ArrayRef<Value> origin) {
  tileOrigin.assign(origin.begin(), origin.end());
  placements.clear();
  programWithin = tilePositions(threadId);
  locate(programWithin, globalIndex, inside);
}

void KernelLowering::locate(ArrayRef<Fragment> within,
                            SmallVector<Fragment> &globalIndex,
                            Fragment &inside) {
  globalIndex.assign(rank, Fragment());
  inside.assign(perThread, Value());
  for (unsigned d = 0; d < rank; ++d) {
    llvm::DenseMap<Value, Value> indices; // shared positions share indices
    for (int64_t e = 0; e < perThread; ++e) {
      Value &index = indices[within[d][e]];
      if (!index)
        index = arith::AddIOp::create(b, loc, tileOrigin[d], within[d][e]);
      globalIndex[d].push_back(index);
      Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       index, extents[d]);
      inside[e] = inside[e] ? arith::AndIOp::create(b, loc, inside[e], in)
                                  .getResult()
                            : in;
    }
  }
  for (int64_t e = 0; e < perThread; ++e)
    if (!inside[e]) // rank 0: only the first element of the first thread
      inside[e] = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::AddIOp::create(b, loc, threadId, cIndex(e * threads)),
          cIndex(0));
  // The threads of a group hold the same elements: the first one stores.
  if (laneInGroup) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        laneInGroup, cIndex(0));
    for (Value &in : inside)
      in = arith::AndIOp::create(b, loc, in, first);
  }
}

KernelLowering::Placement &
KernelLowering::placementOf(tile::LinearLayoutAttr layoutAttr) {
  auto it = placements.find(layoutAttr);
  if (it != placements.end())
    return it->second;
  Placement &p = placements[layoutAttr];
  p.within = layoutPositions(layoutAttr.getLayout());
  locate(p.within, p.globalIndex, p.inside);
  return p;
}

/// The longest run (a power of two, at most `maxRun`) of a row's
/// consecutive elements that `l` puts in consecutive registers of a thread
/// and that starts at a column multiple of it: each such run moves through
/// shared memory as one aligned vector.
static int64_t alignedRun(const layout::LinearLayout &l, int64_t maxRun) {
  int64_t run = std::min<int64_t>(layout::innermostRun(l), maxRun);
  size_t inner = l.getOutDims().size() - 1;
  auto aligned = [&](int64_t r) {
    for (const auto &in : l.getInDims())
      for (auto [bit, basis] : llvm::enumerate(in.bases))
        if (!(in.name == "register" && (int64_t(1) << bit) < r) &&
            basis[inner] % r != 0)
          return false;
    return true;
  };
  while (run > 1 && !aligned(run))
    run /= 2;
  return run;
}

namespace {
/// How a layout conversion lays its staging rows out in shared memory:
/// `width` columns a row (the tile's, or a band's), `pad` elements after
/// each, and the row's chunks of `unit` elements XOR-swizzled, chunk c of
/// row r stored at c ^ ((r / perPhase) % maxPhase) (maxPhase 1: none).
struct StagingRows {
  int64_t width, pad = 0, unit = 1, perPhase = 1, maxPhase = 1;

  int64_t pitch() const { return width + pad; }
  /// Where element (`row`, `column`) of the staging lies, in elements.
  int64_t offset(int64_t row, int64_t column) const {
    int64_t chunk = column / unit ^ (row / perPhase) % maxPhase;
    return row * pitch() + chunk * unit + column % unit;
  }
};
} // namespace

/// The bank wavefronts warp 0 takes to write a tile through `from` in runs
/// of `writeRun` elements and read it back through `to` in runs of
/// `readRun`, in staging rows laid out as `rows` says (rt::bankWavefronts):
/// what the layout of the rows is chosen by.
static uint64_t stagingWavefronts(const layout::LinearLayout *from,
                                  int64_t writeRun,
                                  const layout::LinearLayout &to,
                                  int64_t readRun, ArrayRef<int64_t> tileShape,
                                  const StagingRows &rows,
                                  int64_t elementBytes) {
  uint64_t total = 0;
  auto requests = [&](const layout::LinearLayout &l, int64_t run) {
    int32_t lanes = std::min<int32_t>(32, l.getInDimSize("lane"));
    for (int32_t e = 0; e < l.getInDimSize("register"); e += run) {
      std::vector<nautilus::rt::LaneAccess> request;
      for (int32_t lane = 0; lane < lanes; ++lane) {
        SmallVector<int32_t> at = l.apply({{"register", e}, {"lane", lane}});
        int64_t row = 0;
        for (size_t d = 0; d + 1 < at.size(); ++d)
          row = row * tileShape[d] + at[d];
        int64_t offset =
            rows.offset(row, at.back() % rows.width) * elementBytes;
        request.push_back({uint32_t(lane), uint32_t(offset),
                           uint32_t(run * elementBytes)});
      }
      total += nautilus::rt::bankWavefronts(request).wavefronts;
    }
  };
  if (from)
    requests(*from, writeRun);
  requests(to, readRun);
  return total;
}

LogicalResult
KernelLowering::lowerConvert(tile::ConvertLayoutOp convert,
                             llvm::iterator_range<Block::iterator> feed,
                             llvm::iterator_range<Block::iterator> tail) {
  // Through shared memory: every thread writes its elements where the
  // source distribution puts them in a row-major copy of the tile (runs of
  // a row in consecutive registers as one vector; rows swizzled or padded
  // as the bank conflicts of warp 0's writes and reads say), the
  // threads that hold the tile synchronise, and each reads the elements
  // the new layout gives it (runs as vectors too).
  // A tile larger than the static shared memory left moves in bands, one
  // after the other: of columns where both layouts put every register in
  // a band whatever the lane and warp (each element is then written and
  // read in a band known at compile time, and a register is free once
  // written), else of rows (each thread checks each element's band).
  Type element = convert.getType().getElementType();
  // (i1 elements take a byte)
  int64_t elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  int64_t columns = tileShape.back(), rows = 1;
  for (int64_t t : tileShape.drop_back())
    rows *= t;
  tile::LinearLayoutAttr from = tile::layoutOf(convert.getSource());
  tile::LinearLayoutAttr to = convert.getLayout();
  if (!from)
    if (std::optional<layout::LinearLayout> l =
            program.getSchedule().getDistribution())
      from = tile::LinearLayoutAttr::get(b.getContext(), *l, tileShape);
  // Runs of a row's consecutive elements in a thread's registers move as
  // one aligned vector of at most 16 bytes each way (bytes, not i1's bits);
  // the rows are laid out (StagingRows: plain, their chunks of both runs
  // XOR-swizzled, or padded) as warp 0's writes and reads take the fewest
  // bank wavefronts (stagingWavefronts).
  bool wholeBytes = element.getIntOrFloatBitWidth() % 8 == 0;
  int64_t maxRun = wholeBytes ? std::max<int64_t>(1, 16 / elementBytes) : 1;
  int64_t writeRun = from ? alignedRun(from.getLayout(), maxRun) : 1;
  int64_t readRun = alignedRun(to.getLayout(), maxRun);
  int64_t unit = std::max({writeRun, readRun, int64_t(1)});
  std::optional<layout::LinearLayout> fromLayout;
  if (from)
    fromLayout = from.getLayout();
  // The layout of staging rows `width` columns wide: the fewest
  // wavefronts, and of layouts as good, the first of: plain rows, rows
  // whose chunks are XOR-swizzled (no memory added), padded rows.
  auto bestRows = [&](int64_t width) {
    StagingRows plain{width};
    plain.unit = unit;
    if (unit == 1) { // element by element: a word of padding, as always
      plain.pad = std::max<int64_t>(1, 4 / elementBytes);
      return plain;
    }
    SmallVector<StagingRows> candidates = {plain};
    for (int64_t maxPhase = 2; maxPhase <= width / unit; maxPhase *= 2)
      for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2) {
        StagingRows swizzled = plain;
        swizzled.maxPhase = maxPhase;
        swizzled.perPhase = perPhase;
        candidates.push_back(swizzled);
      }
    for (int64_t pad = unit; pad * elementBytes <= 128; pad += unit) {
      StagingRows padded = plain;
      padded.pad = pad;
      candidates.push_back(padded);
    }
    StagingRows best = plain;
    uint64_t fewest = std::numeric_limits<uint64_t>::max();
    for (const StagingRows &c : candidates) {
      uint64_t cost =
          stagingWavefronts(fromLayout ? &*fromLayout : nullptr, writeRun,
                            to.getLayout(), readRun, tileShape, c, elementBytes);
      if (cost < fewest) {
        fewest = cost;
        best = c;
      }
    }
    return best;
  };
  StagingRows staged = bestRows(columns);
  // Static shared memory in use (the mma.sync stages, other conversions'
  // staging), within the static limit and, on sm_90, what the wgmma
  // pipeline's dynamic stages leave of the block's 227 KiB.
  int64_t used = 0;
  for (BlockArgument a : func.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(a.getType()); // (i1 elements take a byte)
    used += type.getNumElements() *
            std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }
  int64_t limit = staticSharedBudget(program);
  int64_t bands =
      stagingBands(rows, staged.pitch() * elementBytes, limit - used);
  if (bands == 0)
    return convert.emitOpError("needs ")
           << staged.pitch() * elementBytes
           << " bytes of shared memory a row to move the tile, with " << used
           << " already in use; a block may use " << limit
           << " bytes of static shared memory beside its pipeline";
  BandAxis axis = BandAxis::Rows;
  int64_t bandExtent = rows / bands;
  std::optional<SmallVector<int64_t>> fromBands, toBands;
  if (bands > 1 && columns % bands == 0 &&
      (columns / bands) % unit == 0 &&
      rows * (columns / bands + staged.pad) * elementBytes <= limit - used) {
    fromBands = from ? registerBands(from, columns / bands, BandAxis::Columns)
                     : std::nullopt;
    toBands = registerBands(to, columns / bands, BandAxis::Columns);
    if (fromBands && toBands) {
      axis = BandAxis::Columns;
      bandExtent = columns / bands;
      // Rows a band wide may want another layout, if it fits.
      StagingRows band = bestRows(bandExtent);
      if (rows * band.pitch() * elementBytes > limit - used)
        band = StagingRows{bandExtent, staged.pad, unit};
      staged = band;
    }
  }
  if (axis == BandAxis::Rows) {
    fromBands = from ? registerBands(from, bandExtent, axis) : std::nullopt;
    toBands = registerBands(to, bandExtent, axis);
  }
  // Where an element's band is not known at compile time it is written or
  // read alone, under a test of its row.
  if (bands > 1 && !fromBands)
    writeRun = 1;
  if (bands > 1 && !toBands)
    readRun = 1;
  int64_t bufferElements =
      (axis == BandAxis::Rows ? bandExtent : rows) * staged.pitch();
  Value staging = func.addWorkgroupAttribution(
      MemRefType::get({bufferElements}, element, AffineMap(),
                      b.getI64IntegerAttr(3)),
      loc);
  if (unit > 1) // 16-byte aligned, for the vectors
    func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                     LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(16));
  auto rowOf = [&](ArrayRef<Fragment> within, int64_t e) {
    Value row = cIndex(0);
    for (unsigned d = 0; d + 1 < rank; ++d)
      row = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, row, cIndex(tileShape[d])),
          within[d][e]);
    return row;
  };
  // Where element `e` (at `row`, `column` of the tile) lies in band `band`'s
  // staging, and whether it lies in that band at all (null: known).
  auto offsetOf = [&](Value row, Value column, int64_t band) -> Value {
    int64_t first = band * bandExtent;
    if (axis == BandAxis::Rows)
      row = arith::SubIOp::create(b, loc, row, cIndex(first));
    else
      column = arith::SubIOp::create(b, loc, column, cIndex(first));
    if (staged.maxPhase > 1) { // StagingRows::offset, as IR
      Value chunk = arith::XOrIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, column, cIndex(staged.unit)),
          arith::RemUIOp::create(
              b, loc,
              arith::DivUIOp::create(b, loc, row, cIndex(staged.perPhase)),
              cIndex(staged.maxPhase)));
      column = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, chunk, cIndex(staged.unit)),
          arith::RemUIOp::create(b, loc, column, cIndex(staged.unit)));
    }
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, cIndex(staged.pitch())),
        column);
  };
  auto inBand = [&](Value row, int64_t band) -> Value {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::DivUIOp::create(b, loc, row, cIndex(bandExtent)),
        cIndex(band));
  };
  // The threads that hold the tile: all of them, or the consumers of a
  // warp-specialised program (a named barrier for just those).
  auto synchronise = [&] {
    tile::MmaAttr mma = program.getSchedule().getMma();
    if (!mma || !mma.getProducers()) {
      gpu::BarrierOp::create(b, loc);
      return;
    }
    NVVM::BarrierOp::create(
        b, loc, Type(),
        arith::ConstantIntOp::create(
            b, loc, barriers.of(BarrierGroup::Consumers), 32),
        arith::ConstantIntOp::create(b, loc,
                                     program.getSchedule().getTileThreads(), 32),
        nullptr, Value());
  };
  // The feed's elements: each just before it is written where the band of
  // every register is known, else all before the first band's writes
  // (element by element, in runs of the source layout's consecutive
  // registers along a row).
  int64_t feedStep =
      from ? std::min<int64_t>(layout::innermostRun(from.getLayout()), perThread)
           : 1;
  bool feedInBands = !feed.empty() && fromBands;
  for (int64_t e = 0; feedInBands && e < perThread; ++e)
    if ((*fromBands)[e] != (*fromBands)[e - e % feedStep])
      feedInBands = false;
  if (!feed.empty() && !feedInBands &&
      failed(lowerElementwise(feed, feedStep)))
    return failure();
  SmallVector<Fragment> fromWithin(
      tile::layoutOf(convert.getSource())
          ? placementOf(tile::layoutOf(convert.getSource())).within
          : programWithin);
  SmallVector<Fragment> toWithin(placementOf(to).within);
  SmallVector<Value> fromRows, toRows;
  for (int64_t e = 0; e < perThread; ++e) {
    fromRows.push_back(rowOf(fromWithin, e));
    toRows.push_back(rowOf(toWithin, e));
  }
  Fragment result(perThread, Value());
  Value zero = arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  // Where each register's band is known and each run of the epilogue's
  // elements lies in one band, the epilogue runs band by band as soon as
  // a band is written, each element read back just before its run: only a
  // band's elements are live at a time, not the whole tile's twice.
  bool withTail = !tail.empty() && toBands;
  if (withTail) {
    int64_t step = elementRun(tail);
    for (int64_t e = 0; e < perThread; ++e)
      if ((*toBands)[e] != (*toBands)[e - e % step])
        withTail = false;
  }
  auto readBack = [&](int64_t e, int64_t band) -> Value {
    return memref::LoadOp::create(
        b, loc, staging,
        ValueRange{offsetOf(toRows[e], toWithin[rank - 1][e], band)});
  };
  // Reads elements [first, end) of `band` into `into`: whole runs of
  // `readRun` as one vector each, the rest one by one. (Only where each
  // element's band is known: `readRun` is 1 otherwise.)
  auto readRange = [&](int64_t first, int64_t end, int64_t band,
                       Fragment &into) {
    for (int64_t e = first; e < end;) {
      if (readRun == 1 || e % readRun || e + readRun > end) {
        into[e] = readBack(e, band);
        ++e;
        continue;
      }
      Value run = vector::LoadOp::create(
          b, loc, VectorType::get({readRun}, element), staging,
          ValueRange{offsetOf(toRows[e], toWithin[rank - 1][e], band)},
          /*nontemporal=*/false, b.getI64IntegerAttr(readRun * elementBytes));
      for (int64_t k = 0; k < readRun; ++k)
        into[e + k] = vector::ExtractOp::create(b, loc, run, k);
      e += readRun;
    }
  };
  if (withTail)
    slot(convert.getResult()) = result;
  auto write = [&](int64_t e, int64_t band) {
    Value value = lookup(convert.getSource())[e];
    OpBuilder::InsertionGuard guard(b);
    if (bands > 1 && !fromBands) {
      auto ifIn = scf::IfOp::create(b, loc, inBand(fromRows[e], band),
                                    /*withElse=*/false);
      b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    }
    memref::StoreOp::create(
        b, loc, value, staging,
        ValueRange{offsetOf(fromRows[e], fromWithin[rank - 1][e], band)});
  };
  // Writes elements [first, end) to `band`: whole runs of `writeRun` as one
  // vector each, the rest one by one.
  auto writeRange = [&](int64_t first, int64_t end, int64_t band) {
    for (int64_t e = first; e < end;) {
      if (writeRun == 1 || e % writeRun || e + writeRun > end) {
        write(e, band);
        ++e;
        continue;
      }
      Value run = vector::FromElementsOp::create(
          b, loc, VectorType::get({writeRun}, element),
          ValueRange(ArrayRef<Value>(lookup(convert.getSource()))
                         .slice(e, writeRun)));
      vector::StoreOp::create(
          b, loc, run, staging,
          ValueRange{offsetOf(fromRows[e], fromWithin[rank - 1][e], band)},
          /*nontemporal=*/false, b.getI64IntegerAttr(writeRun * elementBytes));
      e += writeRun;
    }
  };
  for (int64_t band = 0; band < bands; ++band) {
    auto fromBand = [&](int64_t e) {
      return !fromBands || (*fromBands)[e] == band;
    };
    if (feedInBands) {
      if (failed(lowerElementwise(feed, feedStep, fromBand, nullptr,
                                  [&](int64_t first, int64_t end) {
                                    writeRange(first, end, band);
                                  })))
        return failure();
    } else {
      // The band's elements, in ranges of consecutive registers.
      for (int64_t e = 0; e < perThread;) {
        int64_t end = e;
        while (end < perThread && fromBand(end))
          ++end;
        writeRange(e, end, band);
        e = std::max(end, e + 1);
      }
    }
    synchronise();
    if (withTail) {
      if (failed(lowerElementwise(
              tail, elementRun(tail),
              [&](int64_t e) { return (*toBands)[e] == band; },
              [&](int64_t first, int64_t end) {
                readRange(first, end, band, slot(convert.getResult()));
              })))
        return failure();
    } else if (toBands) {
      for (int64_t e = 0; e < perThread;) {
        int64_t end = e;
        while (end < perThread && (*toBands)[end] == band)
          ++end;
        readRange(e, end, band, result);
        e = std::max(end, e + 1);
      }
    } else {
      for (int64_t e = 0; e < perThread; ++e) {
        result[e] = bands > 1 ? ifThenElse(
                                    b, loc, inBand(toRows[e], band), element,
                                    [&] { return readBack(e, band); },
                                    result[e] ? result[e] : zero)
                              : readBack(e, band);
      }
    }
    // The staging buffer is written again by the next band, the next tile
    // of a persistent program, or another pass through a loop.
    synchronise();
  }
  if (withTail)
    return success();
  slot(convert.getResult()) = result;
  return lowerElementwise(tail, elementRun(tail));
}

std::optional<SmallVector<int64_t>>
KernelLowering::registerBands(tile::LinearLayoutAttr layout,
                              int64_t bandExtent, BandAxis axis) {
  // The coordinate banded: the column, or the flattened row. Tile extents
  // are powers of two: a flattened row concatenates the bits of the
  // leading coordinates, so XOR composes it as it does them.
  auto coordinate = [&](ArrayRef<int32_t> basis) {
    if (axis == BandAxis::Columns)
      return int64_t(basis[rank - 1]);
    int64_t row = 0;
    for (unsigned d = 0; d + 1 < rank; ++d)
      row = row * tileShape[d] + basis[d];
    return row;
  };
  layout::LinearLayout l = layout.getLayout();
  SmallVector<int64_t> registerCoordinates;
  for (const layout::LinearLayout::InDim &in : l.getInDims()) {
    for (const std::vector<int32_t> &basis : in.bases) {
      int64_t c = coordinate(basis);
      if (in.name == "register")
        registerCoordinates.push_back(c);
      else if (c >= bandExtent)
        return std::nullopt; // the band depends on the lane or warp
    }
  }
  SmallVector<int64_t> bands(perThread, 0);
  for (int64_t e = 0; e < perThread; ++e) {
    int64_t c = 0;
    for (auto [bit, r] : llvm::enumerate(registerCoordinates))
      if (e >> bit & 1)
        c ^= r;
    bands[e] = c / bandExtent;
  }
  return bands;
}

LogicalResult KernelLowering::runPersistent(ArrayRef<Value> grid) {
  // One program per multiprocessor, each looping over the tiles block id +
  // i x grid size (in the rasterised order): the producer warpgroup's
  // thread 0 copies for all of them in turn, the consumers run the whole
  // tile program (main loop, then epilogue) for each.
  tile::ContractOp contract = findContract(program);
  if (!contract || contract->getBlock() != &program.getBody().front())
    return program.emitOpError(
        "a persistent schedule needs a tile.contract at the program's top "
        "level");
  Value tiles = cIndex(1);
  for (Value g : grid)
    tiles = arith::MulIOp::create(b, loc, tiles, g);
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value blocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value localTiles = arith::CeilDivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, tiles, block), blocks);
  auto tileAt = [&](Value i) {
    return arith::AddIOp::create(b, loc, block,
                                 arith::MulIOp::create(b, loc, i, blocks));
  };
  // The context's tile origin is unused here: each tile's origin goes to
  // produceTile, and the consumers never need it.
  persistentContext =
      std::make_unique<ContractLoweringContext>(contractContext(contract));
  persistent = std::make_unique<PersistentWgmma>(b, contract, *persistentContext);
  persistentWarpgroup = persistent->setup();
  Value isProducer = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, persistentWarpgroup,
      arith::ConstantIntOp::create(b, loc, 0, 32));
  auto split = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&split.getThenRegion().front());
    persistent->enterProducer();
    Value producing = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, threadId,
        cIndex(persistent->producerThreads()));
    auto ifProducing = scf::IfOp::create(b, loc, producing, /*withElse=*/false);
    b.setInsertionPointToStart(&ifProducing.getThenRegion().front());
    if (failed(loopOverTiles(localTiles, tileAt, grid,
                             [&](Value run, ArrayRef<Value> origin) {
                               persistent->produceTile(run, origin);
                               return success();
                             })))
      return failure();
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&split.getElseRegion().front());
  persistent->enterConsumer();
  return loopOverTiles(localTiles, tileAt, grid,
                       [&](Value run, ArrayRef<Value> origin) {
                         persistentLocalTile = run;
                         placeTile(origin);
                         return lowerBlock(program.getBody().front());
                       });
}

Value KernelLowering::tileRuns(ArrayRef<Value> origin) {
  auto skip = tile::SkipIfNegativeOp::find(program);
  if (!skip)
    return {};
  Value entry = loadTableEntry(b, loc, scalars.lookup(skip.getTable()),
                               skip.getMap(), origin, sizeArgs,
                               /*outside=*/-1);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, entry,
                               cIndex(0));
}

LogicalResult KernelLowering::loopOverTiles(
    Value count, llvm::function_ref<Value(Value)> tileAt, ArrayRef<Value> grid,
    llvm::function_ref<LogicalResult(Value, ArrayRef<Value>)> body) {
  bool skips = static_cast<bool>(tile::SkipIfNegativeOp::find(program));
  SmallVector<Value> initial;
  if (skips)
    initial.push_back(cIndex(0));
  auto loop = scf::ForOp::create(b, loc, cIndex(0), count, cIndex(1), initial);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> origin =
      originOf(programCoordinates(tileAt(loop.getInductionVar()), grid));
  if (!skips)
    return body(loop.getInductionVar(), origin);
  Value runs = tileRuns(origin);
  Value run = loop.getRegionIterArg(0);
  auto ifRuns = scf::IfOp::create(b, loc, runs, /*withElse=*/false);
  b.setInsertionPointToStart(&ifRuns.getThenRegion().front());
  if (failed(body(run, origin)))
    return failure();
  b.setInsertionPointAfter(ifRuns);
  Value next = arith::AddIOp::create(
      b, loc, run, arith::SelectOp::create(b, loc, runs, cIndex(1), cIndex(0)));
  scf::YieldOp::create(b, loc, next);
  return success();
}

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
    for (tile::ProgramOp p : programs)
      if (failed(KernelLowering(p, gpuModule, *target).run()))
        return signalPassFailure();
  }
};

} // namespace
