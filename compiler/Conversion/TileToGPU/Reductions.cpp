//===- Reductions.cpp - tile.reduce across a kernel's threads -------------===//
//
// A reduction is a loop nest carrying the E accumulators of a thread in
// registers. With `reduce_threads = R` the threads of a group split each
// top-level reduction (strided, 4 iterations a step with their loads
// first, or runs of `vector` iterations) and combine by shuffles and
// shared memory (combineAcrossGroup). A split reduction
// (`chunks(C along d)`) folds its program's chunk (emitReducedRange).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/Reductions.h"

#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "compiler/Conversion/TileToGPU/HeldRows.h"
#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "compiler/Conversion/TileToGPU/MemoryAccess.h"
#include "dialects/Tile/Utils/LeadingLoads.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

/// `value` as the 32-bit words a shuffle moves (two for a 64-bit type).
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
    return {
        width == 32
            ? value
            : arith::ExtFOp::create(b, loc, b.getF32Type(), value).getResult()};
  return {width == 32 ? value
                      : arith::ExtUIOp::create(b, loc, i32, value).getResult()};
}

/// The value of `type` that toWords made `words` of.
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

SmallVector<Fragment> tiletogpu::combineAcrossGroup(KernelContext &kernel,
                                                    SmallVector<Fragment> parts,
                                                    GroupMerge merge) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  int64_t threads = kernel.threads, perThread = kernel.perThread;
  int64_t reduceThreads = kernel.reduceThreads;
  // A group's threads within one warp (`inWarp` of them, `stride` lanes
  // apart): consecutive ones, or with interleaved groups, one every G
  // lanes (all in different warps once G >= 32).
  bool interleaved = kernel.program.getSchedule().getReduceInterleaved();
  int64_t stride = interleaved ? threads : 1;
  int64_t lanes = kernel.target.kernelLanes;
  int64_t inWarp =
      stride >= lanes ? 1 : std::min<int64_t>(reduceThreads, lanes / stride);
  auto element = [&](int64_t e) {
    SmallVector<Value> values;
    for (const Fragment &part : parts)
      values.push_back(part[e]);
    return values;
  };
  auto setElement = [&](int64_t e, ArrayRef<Value> values) {
    for (auto [part, value] : llvm::zip(parts, values))
      part[e] = value;
  };
  // Within a warp: log2(inWarp) butterfly steps; lanes that differ in the
  // low bits of their place in the group exchange and merge, so all of
  // them end with the same values.
  Value width = arith::ConstantIntOp::create(b, loc, lanes, 32);
  for (int64_t offset = 1; offset < inWarp; offset *= 2) {
    Value mask = arith::ConstantIntOp::create(b, loc, offset * stride, 32);
    for (int64_t e = 0; e < perThread; ++e) {
      SmallVector<Value> theirs;
      for (Value mine : element(e)) {
        SmallVector<Value> words;
        for (Value w : toWords(b, loc, mine))
          words.push_back(gpu::ShuffleOp::create(b, loc, w, mask, width,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult());
        theirs.push_back(fromWords(b, loc, words, mine.getType()));
      }
      setElement(e, merge(e, element(e), theirs));
    }
  }
  if (inWarp == reduceThreads)
    return parts;
  // Across the group's warps: in each, the group's first lane writes the
  // warp's values, and after a barrier every thread merges its group's,
  // in the same order (so all agree to the bit).
  int64_t warps = reduceThreads / inWarp;
  SmallVector<Value> partials;
  SmallVector<Type> stored;
  for (const Fragment &part : parts) {
    Type type = part.front().getType();
    stored.push_back(type.isInteger(1) ? b.getI8Type() : type);
    partials.push_back(kernel.func.addWorkgroupAttribution(
        MemRefType::get({perThread * threads * warps}, stored.back(),
                        AffineMap(), b.getI64IntegerAttr(3)),
        loc));
  }
  Value warpInGroup =
      arith::DivUIOp::create(b, loc, kernel.laneInGroup, kernel.cIndex(inWarp));
  Value firstLane = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, kernel.laneInGroup, kernel.cIndex(inWarp)),
      kernel.cIndex(0));
  auto slotOf = [&](int64_t e, Value warp) {
    // [element][warp][group]: the groups of a warp's lanes (consecutive
    // group ids) write and read consecutive words, no two in one bank
    // ([group][warp] put them `warps` words apart: 8-way conflicts with 8
    // warps a group).
    Value row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, warp, kernel.cIndex(threads)),
        kernel.cIndex(e * warps * threads));
    return arith::AddIOp::create(b, loc, row, kernel.threadId);
  };
  {
    auto ifFirst = scf::IfOp::create(b, loc, firstLane, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    for (int64_t e = 0; e < perThread; ++e)
      for (auto [p, part] : llvm::enumerate(parts)) {
        Value v = stored[p] == part[e].getType()
                      ? part[e]
                      : arith::ExtUIOp::create(b, loc, stored[p], part[e])
                            .getResult();
        memref::StoreOp::create(b, loc, v, partials[p],
                                ValueRange{slotOf(e, warpInGroup)});
      }
  }
  gpu::BarrierOp::create(b, loc);
  SmallVector<Fragment> whole(parts.size(), Fragment(perThread));
  for (int64_t e = 0; e < perThread; ++e)
    for (int64_t w = 0; w < warps; ++w) {
      SmallVector<Value> theirs;
      for (auto [p, part] : llvm::enumerate(parts)) {
        Value v = memref::LoadOp::create(
            b, loc, partials[p], ValueRange{slotOf(e, kernel.cIndex(w))});
        if (stored[p] != part[e].getType())
          v = arith::TruncIOp::create(b, loc, part[e].getType(), v);
        theirs.push_back(v);
      }
      SmallVector<Value> merged = theirs;
      if (w != 0) {
        SmallVector<Value> mine;
        for (const Fragment &f : whole)
          mine.push_back(f[e]);
        merged = merge(e, mine, theirs);
      }
      for (auto [f, value] : llvm::zip(whole, merged))
        f[e] = value;
    }
  return whole;
}

/// Combines each thread's partial results `acc` of a reduction of `kind`
/// with those of the other threads of its group.
static Fragment combineAcrossGroup(KernelContext &kernel,
                                   alg::ReductionKind kind, Fragment acc) {
  auto merge = [&](int64_t, ArrayRef<Value> mine, ArrayRef<Value> theirs) {
    return SmallVector<Value>{
        combineReduction(kernel.b, kernel.loc, kind, mine[0], theirs[0])};
  };
  return combineAcrossGroup(kernel, {acc}, merge).front();
}

namespace {

/// Lowers one tile.reduce: the loop nest over its extents, and with
/// reduce_threads, the group's split of the outermost one.
class ReduceLowering {
public:
  ReduceLowering(KernelContext &kernel, tile::ReduceOp reduce);

  /// This thread's elements of the result; failure where the body has no
  /// lowering.
  FailureOr<Fragment> run();

private:
  /// The accumulators `acc` folded over the reduction's indices from
  /// `level` inwards.
  Fragment reduceFrom(unsigned level, Fragment acc);
  /// The body lowered once, at the indices bound, folded into `acc`.
  Fragment foldBody(Fragment acc);
  /// A loop from `lower` to `upper` over index `level` whose body runs
  /// `copies` iterations (iv, iv + step, ...; all below `upper`) one after
  /// the other, in steps of `stride` (step x copies when 0).
  Fragment loop(unsigned level, Value lower, Value upper, int64_t step,
                int64_t copies, Fragment acc, int64_t stride = 0);
  /// The leading loads of each copy of the body at indices `ivs` of
  /// `level`, read ahead of the copies: with step 1 and copies the
  /// schedule's reduction run, each load reading a run of a row as one
  /// vector (loadRunAlongReduction), else each copy's element by element.
  SmallVector<LoadedAhead> loadAhead(unsigned level, ArrayRef<Value> ivs,
                                     int64_t step);
  /// One copy of the body at index `iv` of `level`, its leading loads
  /// `loaded` read already, folded into `carried`.
  Fragment foldCopy(unsigned level, Value iv, const LoadedAhead &loaded,
                    Fragment carried);
  /// The outermost index from `first` to `end`, split over the group's
  /// threads.
  Fragment splitAcrossGroup(Value first, Value end, Fragment acc);
  /// The points of the rows the program keeps (HeldRows.h), unrolled.
  Fragment heldPoints(Fragment acc);
  /// The runs of `run` iterations from `rest` to `end`, `stride` apart, that
  /// a group's split leaves after its main loop, one iteration at a time.
  Fragment remainingRuns(Value rest, Value end, int64_t run, int64_t stride,
                         Fragment acc);

  KernelContext &kernel;
  OpBuilder &b;
  Location loc;
  tile::ReduceOp reduce;
  Block &body;
  /// Whether the group's threads split the reduction (reduce_threads).
  bool shared;
  /// The body's loads that read only indices (not values the body
  /// computes).
  SmallVector<tile::LoadOp> leadingLoads;
  LogicalResult status = success();
};

} // namespace

ReduceLowering::ReduceLowering(KernelContext &kernel, tile::ReduceOp reduce)
    : kernel(kernel), b(kernel.b), loc(kernel.loc), reduce(reduce),
      body(reduce.getBody().front()) {
  // With reduce_threads, the threads of a group split the outermost extent
  // of a reduction at the program's top level (whose code all threads
  // run, as the combination's barrier needs), each taking every R-th
  // iteration: consecutive threads (or, interleaved, consecutive groups)
  // read consecutive elements.
  shared = kernel.reduceThreads > 1 &&
           reduce->getParentOp() == kernel.program &&
           !reduce.getExtents().empty();
  leadingLoads = tile::leadingLoadsOf(body);
}

FailureOr<Fragment> ReduceLowering::run() {
  Type element = reduce.getType().getElementType();
  Value init = reductionIdentity(b, loc, reduce.getKind(), element);
  Fragment acc = reduceFrom(0, Fragment(kernel.perThread, init));
  if (failed(status))
    return failure();
  if (!shared)
    return acc;
  return combineAcrossGroup(kernel, reduce.getKind(), acc);
}

Fragment ReduceLowering::reduceFrom(unsigned level, Fragment acc) {
  if (level == reduce.getExtents().size())
    return foldBody(acc);
  // (Only a top-level reduction, shared, visits held rows.)
  if (level == 0 && kernel.heldRows && kernel.heldRows->visits(reduce))
    return heldPoints(acc);
  Value extent = kernel.scalars.lookup(reduce.getExtents()[level]);
  Value first = kernel.cIndex(0), end = extent;
  if (level == 0)
    std::tie(first, end) =
        emitReducedRange(b, loc, reduce, extent, kernel.tileOrigin);
  if (shared && level == 0)
    return splitAcrossGroup(first, end, acc);
  // A thread folding a float sum alone: in blocks of kSumBlock, added to
  // the totals with Kahan's compensation (as on the CPU).
  if (level == 0 && isFloatSum(reduce.getKind(), reduce.getType()))
    return Fragment(llvm::to_vector(emitBlockedSum(
        b, loc, first, end, ValueRange(acc),
        [&](Value start, Value stop, ValueRange zeros) {
          return SmallVector<Value>(
              loop(level, start, stop, 1, 1, Fragment(zeros.begin(), zeros.end())));
        })));
  return loop(level, first, end, 1, 1, acc);
}

Fragment ReduceLowering::foldBody(Fragment acc) {
  if (failed(lowerBlock(kernel, body))) {
    status = failure();
    return acc;
  }
  Fragment folded =
      kernel.lookup(cast<tile::YieldOp>(body.getTerminator()).getValue());
  for (int64_t e = 0; e < kernel.perThread; ++e)
    acc[e] = combineReduction(b, loc, reduce.getKind(), acc[e], folded[e]);
  return acc;
}

Fragment ReduceLowering::loop(unsigned level, Value lower, Value upper,
                              int64_t step, int64_t copies, Fragment acc,
                              int64_t stride) {
  auto forOp =
      scf::ForOp::create(b, loc, lower, upper,
                         kernel.cIndex(stride ? stride : step * copies), acc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  Fragment carried(forOp.getRegionIterArgs().begin(),
                   forOp.getRegionIterArgs().end());
  SmallVector<Value> ivs =
      copyPoints(kernel, forOp.getInductionVar(), copies, step);
  SmallVector<LoadedAhead> loaded = loadAhead(level, ivs, step);
  for (int64_t j = 0; j < copies; ++j)
    carried = foldCopy(level, ivs[j], loaded[j], carried);
  scf::YieldOp::create(b, loc, ValueRange(carried));
  return Fragment(forOp.getResults().begin(), forOp.getResults().end());
}

Fragment ReduceLowering::heldPoints(Fragment acc) {
  kernel.heldRows->visit(
      kernel, body, leadingLoads, [&](const HeldRows::Points &points) {
        Fragment next = acc;
        for (auto [iv, loaded] : llvm::zip(points.ivs, points.loaded))
          next = foldCopy(0, iv, loaded, next);
        acc =
            points.inside ? keepInside(kernel, points.inside, next, acc) : next;
      });
  return acc;
}

SmallVector<LoadedAhead>
ReduceLowering::loadAhead(unsigned level, ArrayRef<Value> ivs, int64_t step) {
  return tiletogpu::loadAhead(kernel, body, leadingLoads, level, ivs, step);
}

SmallVector<LoadedAhead>
tiletogpu::loadAhead(KernelContext &kernel, Block &body,
                     ArrayRef<tile::LoadOp> leadingLoads, unsigned level,
                     ArrayRef<Value> ivs, int64_t step) {
  // With several copies of the body (the innermost loop), every copy's
  // loads that read only indices come first, then the rest of each copy:
  // no load waits behind another's use.
  int64_t copies = ivs.size();
  SmallVector<LoadedAhead> loaded(copies);
  // (The main loop runs only when their buffers are not empty: the loads
  // need no branch.)
  bool runs = copies > 1 && step == 1 &&
              copies == kernel.program.getSchedule().getReductionRun();
  SmallVector<tile::LoadOp> elementLoads;
  for (tile::LoadOp load : leadingLoads)
    if (runs && readsRunOf(load, kernel.rank + level))
      for (auto [j, value] :
           llvm::enumerate(loadRunAlongReduction(kernel, load, ivs)))
        loaded[j].push_back({load.getResult(), Fragment{value}});
    else
      elementLoads.push_back(load);
  if (copies > 1)
    for (int64_t j = 0; j < copies; ++j)
      loaded[j].append(loadAt(kernel, body, elementLoads, level, ivs[j]));
  return loaded;
}

LoadedAhead tiletogpu::loadAt(KernelContext &kernel, Block &body,
                              ArrayRef<tile::LoadOp> loads, unsigned level,
                              Value iv) {
  kernel.scalars.map(body.getArgument(level), iv);
  kernel.reducedIVs.push_back(iv);
  kernel.clampedLoads = true;
  for (tile::LoadOp load : loads)
    lowerLoad(kernel, load, kernel.slot(load.getResult()));
  kernel.clampedLoads = false;
  LoadedAhead loaded;
  for (tile::LoadOp load : loads)
    loaded.push_back({load.getResult(), kernel.fragments[load.getResult()]});
  kernel.reducedIVs.pop_back();
  return loaded;
}

void tiletogpu::beginBodyCopy(KernelContext &kernel, Block &body,
                              unsigned level, Value iv,
                              const LoadedAhead &loaded) {
  kernel.scalars.map(body.getArgument(level), iv);
  kernel.reducedIVs.push_back(iv);
  // The body is lowered again for each copy and loop: none of its values'
  // fragments (a broadcast or a constant made once, elsewhere) may come
  // from another.
  body.walk([&](Operation *op) {
    for (Value result : op->getResults())
      kernel.fragments.erase(result);
  });
  for (auto &[value, fragment] : loaded) {
    kernel.fragments[value] = fragment;
    kernel.lowered.insert(value.getDefiningOp());
  }
}

SmallVector<Value> tiletogpu::copyPoints(KernelContext &kernel, Value first,
                                         int64_t copies, int64_t step) {
  SmallVector<Value> points{first};
  for (int64_t j = 1; j < copies; ++j)
    points.push_back(arith::AddIOp::create(kernel.b, kernel.loc, first,
                                           kernel.cIndex(j * step)));
  return points;
}

void tiletogpu::endBodyCopy(KernelContext &kernel, const LoadedAhead &loaded) {
  for (auto &[value, fragment] : loaded)
    kernel.lowered.erase(value.getDefiningOp());
  kernel.reducedIVs.pop_back();
}

Fragment ReduceLowering::foldCopy(unsigned level, Value iv,
                                  const LoadedAhead &loaded, Fragment carried) {
  beginBodyCopy(kernel, body, level, iv, loaded);
  carried = reduceFrom(level + 1, carried);
  endBodyCopy(kernel, loaded);
  return carried;
}

GroupSplit::GroupSplit(KernelContext &kernel, Value first, Value end,
                       tile::GroupSplitShape shape,
                       ArrayRef<tile::LoadOp> leadingLoads)
    : tile::GroupSplitShape(shape) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  start = arith::AddIOp::create(b, loc, first,
                                runs ? arith::MulIOp::create(b, loc,
                                                             kernel.laneInGroup,
                                                             kernel.cIndex(run))
                                           .getResult()
                                     : kernel.laneInGroup);
  if (this->copies == 1)
    return;
  Value nonEmpty = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (tile::LoadOp load : leadingLoads)
    nonEmpty = arith::AndIOp::create(
        b, loc, nonEmpty,
        emitNonEmpty(b, loc, kernel.scalars.lookup(load.getBuffer())));
  mainEnd = arith::SelectOp::create(
      b, loc, nonEmpty,
      arith::SubIOp::create(b, loc, end,
                            kernel.cIndex((this->copies - 1) * spacing)),
      start);
}

Value GroupSplit::rest(KernelContext &kernel) const {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  Value mainSteps = arith::MaxSIOp::create(
      b, loc, kernel.cIndex(0),
      arith::CeilDivSIOp::create(b, loc,
                                 arith::SubIOp::create(b, loc, mainEnd, start),
                                 kernel.cIndex(stride)));
  return arith::AddIOp::create(
      b, loc, start,
      arith::MulIOp::create(b, loc, mainSteps, kernel.cIndex(stride)));
}

Fragment ReduceLowering::splitAcrossGroup(Value first, Value end,
                                          Fragment acc) {
  // The group's split (GroupSplit), tile::kSharedReductionCopies a step.
  // (Over several indices the body is a loop nest: one at a time, no
  // runs. With several elements a thread, fewer copies: as many loads in
  // flight and fewer live.)
  int64_t step = kernel.reduceThreads;
  bool single = reduce.getExtents().size() == 1;
  int64_t run = kernel.program.getSchedule().getReductionRun();
  GroupSplit split(
      kernel, first, end,
      tile::groupSplitShape(
          kernel.reduceThreads, run,
          single ? tile::sharedReductionCopies(kernel.perThread) : 1,
          run > 1 && kernel.perThread == 1 && single),
      leadingLoads);
  if (split.copies == 1)
    return loop(0, split.start, end, step, 1, acc);
  acc = loop(0, split.start, split.mainEnd, split.spacing, split.copies, acc,
             split.stride);
  Value rest = split.rest(kernel);
  if (!split.runs)
    return loop(0, rest, end, step, 1, acc);
  return remainingRuns(rest, end, split.run, split.stride, acc);
}

Fragment ReduceLowering::remainingRuns(Value rest, Value end, int64_t run,
                                       int64_t stride, Fragment acc) {
  auto runsLeft =
      scf::ForOp::create(b, loc, rest, end, kernel.cIndex(stride), acc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(runsLeft.getBody());
  Value runStart = runsLeft.getInductionVar();
  Value runEnd = arith::MinSIOp::create(
      b, loc, end, arith::AddIOp::create(b, loc, runStart, kernel.cIndex(run)));
  Fragment carried(runsLeft.getRegionIterArgs().begin(),
                   runsLeft.getRegionIterArgs().end());
  scf::YieldOp::create(b, loc,
                       ValueRange(loop(0, runStart, runEnd, 1, 1, carried)));
  return Fragment(runsLeft.getResults().begin(), runsLeft.getResults().end());
}

FailureOr<Fragment> tiletogpu::lowerReduce(KernelContext &kernel,
                                           tile::ReduceOp reduce) {
  return ReduceLowering(kernel, reduce).run();
}
