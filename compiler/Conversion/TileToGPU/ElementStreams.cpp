//===- ElementStreams.cpp - A stream each thread runs on its elements -----===//
//
// A tile.online_reduce in a program without a tensor-core schedule: each
// thread streams its own elements, as the CPU's stream does a key
// (TileToCPU/StreamLowering.cpp). Two kinds of programs have one:
//
//  - a row stream (softmax's maximum and denominator in one pass): with
//    `reduce_threads = R` the R threads of a group split the streamed
//    index as they split a reduction (Reductions.cpp: every R-th point, 4
//    a step with their loads first, or runs of `vector` points read as one
//    vector), then merge their states by shuffles and shared memory;
//  - the program that combines a split stream's partials (tile-split-
//    reductions: flash-decoding's (max, sum, O) triples), each thread its
//    elements, a stream over a handful of chunks.
//
// A step folds a few points: the body's ops that read no leader, for each
// point; each leader folds the points' terms; the repairs from the old
// leaders to the new (a leader at its identity read as 0, the repair from
// it 1); the ops that read a leader at the new leaders, for each point;
// each follower repaired once plus the points' terms. Two threads' states
// merge the same way: the leaders combined, each side's sums repaired to
// them and added.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/HeldRows.h"
#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "compiler/Conversion/TileToGPU/Reductions.h"
#include "compiler/Conversion/TileToGPU/Streams.h"
#include "dialects/Tile/Utils/LeadingLoads.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

/// Points of a stream a step folds when a group shares it and its points
/// are not read in runs (as a shared reduction's
/// tile::kSharedReductionCopies).
constexpr int64_t kSharedStreamCopies = 4;

/// Forgets the fragments of the results of `ops` (lowered again for
/// another point), so that none comes from a previous lowering.
static void forgetFragments(KernelContext &kernel, ArrayRef<Operation *> ops) {
  for (Operation *op : ops)
    op->walk([&](Operation *inner) {
      for (Value result : inner->getResults())
        kernel.fragments.erase(result);
    });
}

/// Lowers `ops` (of a stream's body or repairs) for this thread's elements.
static LogicalResult lowerAll(KernelContext &kernel,
                              ArrayRef<Operation *> ops) {
  for (Operation *op : ops)
    if (failed(lowerOp(kernel, *op)))
      return failure();
  return success();
}

namespace {

/// Per accumulator, this thread's elements of it.
using StreamState = SmallVector<Fragment>;

/// `state`'s values, accumulator after accumulator (a loop's carried
/// values).
SmallVector<Value> flatten(const StreamState &state) {
  SmallVector<Value> values;
  for (const Fragment &f : state)
    values.append(f.begin(), f.end());
  return values;
}

/// The state `flatten` made `values` of: `count` accumulators of
/// `elements` each.
StreamState unflatten(ValueRange values, unsigned count, int64_t elements) {
  StreamState state;
  for (unsigned i = 0; i < count; ++i)
    state.push_back(Fragment(values.begin() + i * elements,
                             values.begin() + (i + 1) * elements));
  return state;
}

class ElementStreamLowering {
public:
  ElementStreamLowering(KernelContext &kernel, tile::OnlineReduceOp stream);

  FailureOr<SmallVector<Fragment>> run();

private:
  /// `state` with the points `points` (their leading loads `loaded`, read
  /// ahead, one entry a point) folded in.
  StreamState fold(ArrayRef<Value> points, ArrayRef<LoadedAhead> loaded,
                   StreamState state);
  /// A loop from `lower` to `upper` in steps of `stride`, each step
  /// folding `copies` points `spacing` apart (all below `upper`).
  StreamState loop(Value lower, Value upper, int64_t spacing, int64_t copies,
                   int64_t stride, StreamState state);
  /// The points from `first` to `end`, split over the group's threads.
  StreamState splitAcrossGroup(Value first, Value end, StreamState state);
  /// The points of the rows the program keeps (HeldRows.h), unrolled.
  StreamState heldPoints(StreamState state);
  /// The points from `first` to `end` folded by this thread alone: in
  /// blocks of kSumBlock, each into a fresh state merged into the total,
  /// so that the sums' rounding error is a block's plus a few ulps, not
  /// one that grows with the extent (as a thread's float sum,
  /// emitBlockedSum).
  StreamState blocked(Value first, Value end, StreamState state);
  /// A loop over blocks of `length` points from `first` to `end`, a block
  /// starting every `stride`, each folded into the carried state by
  /// `foldBlock` (given the block's first point and its end).
  StreamState overBlocks(
      Value first, Value end, int64_t stride, int64_t length, StreamState state,
      llvm::function_ref<StreamState(Value, Value, StreamState)> foldBlock);
  /// The state before any point: leaders at their identity, sums 0.
  StreamState initialState();
  /// Per accumulator, what brings a follower's sum from the leaders
  /// `from` to `to` (one fragment a leader, made safe: no identity): the
  /// product of the leaders' factors, or with a mean leader the addend
  /// its repair gives for `folded` points (applyRepair); empty for
  /// leaders and followers no repair touches.
  SmallVector<Fragment> repairs(ArrayRef<Fragment> from, ArrayRef<Fragment> to,
                                const Fragment &folded = {});
  /// A follower's sum `sum` with its repair `repair` applied: times the
  /// factor, or plus a mean's addend.
  Value applyRepair(Value sum, Value repair);
  /// A mean leader `old` over `folded` points moved by `points` more
  /// (`termOf(j)`: point j's term): old + sum(t - old) / (folded + points),
  /// and the points folded then.
  std::pair<Fragment, Fragment>
  foldMean(const Fragment &old, const Fragment &folded, size_t points,
           llvm::function_ref<Fragment(size_t)> termOf);
  /// Element `e` of two threads' states merged (GroupMerge).
  SmallVector<Value> merge(int64_t e, ArrayRef<Value> mine,
                           ArrayRef<Value> theirs);
  /// `fresh`, and `old` (a leader's value before a step or one side of a
  /// merge), safe to repair between: the identity read as 0 in `fresh`,
  /// and as `fresh` in `old` (the repair from it then 1).
  std::pair<Value, Value> safeLeaders(alg::ReductionKind kind, Value old,
                                      Value fresh);

  KernelContext &kernel;
  OpBuilder &b;
  Location loc;
  tile::OnlineReduceOp stream;
  Block &body;
  /// The accumulators.
  unsigned count;
  /// The accumulators' element type (f64 for a mean's stream).
  Type accType;
  bool mean;
  /// The parts of a state: the accumulators, and with a mean leader the
  /// points this thread has folded (as a float) after them.
  unsigned parts() const { return count + (mean ? 1 : 0); }
  /// Whether the group's threads split the stream (reduce_threads).
  bool shared;
  /// The body's ops that read no leader, and those that do.
  SmallVector<Operation *> early, late;
  /// The body's loads that read only indices.
  SmallVector<tile::LoadOp> leadingLoads;
  LogicalResult status = success();
};

} // namespace

ElementStreamLowering::ElementStreamLowering(KernelContext &kernel,
                                             tile::OnlineReduceOp stream)
    : kernel(kernel), b(kernel.b), loc(stream.getLoc()), stream(stream),
      body(stream.getBody().front()), count(stream.getNumResults()),
      accType(cast<VectorType>(stream.getResult(0).getType()).getElementType()),
      mean(stream.hasMeanLeader()),
      shared(kernel.reduceThreads > 1 &&
             stream->getParentOp() == kernel.program) {
  ValueRange leaderArgs = body.getArguments().drop_front();
  llvm::SmallPtrSet<Value, 8> tainted(leaderArgs.begin(), leaderArgs.end());
  for (Operation &op : body.without_terminator()) {
    bool reads = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        reads |= tainted.contains(v);
    });
    if (reads)
      tainted.insert(op.result_begin(), op.result_end());
    (reads ? late : early).push_back(&op);
    if (auto load = dyn_cast<tile::LoadOp>(op);
        load && !reads && tile::isLeadingLoad(load))
      leadingLoads.push_back(load);
  }
}

StreamState ElementStreamLowering::initialState() {
  StreamState state;
  for (unsigned i = 0; i < count; ++i) {
    Value start =
        stream.isLeader(i) && !stream.isMean(i)
            ? reductionIdentity(b, loc, stream.getAccumulatorKind(i), accType)
            : arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType))
                  .getResult();
    state.push_back(Fragment(kernel.perThread, start));
  }
  if (mean) // (no point folded yet)
    state.push_back(Fragment(
        kernel.perThread,
        arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType))));
  return state;
}

FailureOr<SmallVector<Fragment>> ElementStreamLowering::run() {
  StreamState state = initialState();
  Value extent = kernel.scalars.lookupOrDefault(stream.getExtent());
  auto [first, end] =
      emitStreamedRange(b, loc, stream, extent, kernel.tileOrigin);
  // (A stream over at most kSumBlock points, as a split stream's
  // combination over its chunks mostly is, needs no blocks.)
  std::optional<int64_t> points = getConstantIntValue(extent);
  if (kernel.heldRows && kernel.heldRows->visits(stream)) // (shared)
    state = heldPoints(state);
  else if (shared)
    state = splitAcrossGroup(first, end, state);
  else if (points && *points <= kSumBlock)
    state = loop(first, end, 1, 1, 1, state);
  else
    state = blocked(first, end, state);
  if (failed(status))
    return failure();
  if (shared) {
    auto mergeElement = [&](int64_t e, ArrayRef<Value> mine,
                            ArrayRef<Value> theirs) {
      return merge(e, mine, theirs);
    };
    state = combineAcrossGroup(kernel, state, mergeElement);
    if (failed(status))
      return failure();
  }
  state.resize(count); // (a mean's count is not a result)
  return state;
}

StreamState ElementStreamLowering::loop(Value lower, Value upper,
                                        int64_t spacing, int64_t copies,
                                        int64_t stride, StreamState state) {
  int64_t elements = kernel.perThread;
  auto forOp = scf::ForOp::create(b, loc, lower, upper, kernel.cIndex(stride),
                                  flatten(state));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  StreamState current = unflatten(forOp.getRegionIterArgs(), parts(), elements);
  SmallVector<Value> points =
      copyPoints(kernel, forOp.getInductionVar(), copies, spacing);
  SmallVector<LoadedAhead> loaded =
      loadAhead(kernel, body, leadingLoads, 0, points, spacing);
  scf::YieldOp::create(b, loc, flatten(fold(points, loaded, current)));
  return unflatten(forOp.getResults(), parts(), elements);
}

StreamState ElementStreamLowering::splitAcrossGroup(Value first, Value end,
                                                    StreamState state) {
  // As a shared reduction's split (GroupSplit), kSharedStreamCopies points
  // a step without runs.
  int64_t reduceThreads = kernel.reduceThreads;
  int64_t run = kernel.program.getSchedule().getReductionRun();
  GroupSplit split(
      kernel, first, end,
      tile::groupSplitShape(
          reduceThreads, run,
          std::max<int64_t>(1, kSharedStreamCopies / kernel.perThread),
          run > 1 && kernel.perThread == 1),
      leadingLoads);
  if (split.copies == 1)
    return loop(split.start, end, reduceThreads, 1, reduceThreads, state);
  state = loop(split.start, split.mainEnd, split.spacing, split.copies,
               split.stride, state);
  Value rest = split.rest(kernel);
  if (!split.runs)
    return loop(rest, end, reduceThreads, 1, reduceThreads, state);
  // The runs left: from each run's start, its points one at a time.
  return overBlocks(rest, end, split.stride, split.run, state,
                    [&](Value start, Value stop, StreamState carried) {
                      return loop(start, stop, 1, 1, 1, carried);
                    });
}

StreamState ElementStreamLowering::heldPoints(StreamState state) {
  kernel.heldRows->visit(
      kernel, body, leadingLoads, [&](const HeldRows::Points &points) {
        StreamState next = fold(points.ivs, points.loaded, state);
        if (points.inside)
          for (unsigned i = 0; i < parts(); ++i)
            next[i] = keepInside(kernel, points.inside, next[i], state[i]);
        state = std::move(next);
      });
  return state;
}

StreamState ElementStreamLowering::overBlocks(
    Value first, Value end, int64_t stride, int64_t length, StreamState state,
    llvm::function_ref<StreamState(Value, Value, StreamState)> foldBlock) {
  auto blocks = scf::ForOp::create(b, loc, first, end, kernel.cIndex(stride),
                                   flatten(state));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(blocks.getBody());
  Value start = blocks.getInductionVar();
  Value stop = arith::MinSIOp::create(
      b, loc, end, arith::AddIOp::create(b, loc, start, kernel.cIndex(length)));
  StreamState carried =
      unflatten(blocks.getRegionIterArgs(), parts(), kernel.perThread);
  scf::YieldOp::create(b, loc, flatten(foldBlock(start, stop, carried)));
  return unflatten(blocks.getResults(), parts(), kernel.perThread);
}

StreamState ElementStreamLowering::blocked(Value first, Value end,
                                           StreamState state) {
  auto foldBlock = [&](Value start, Value stop, StreamState total) {
    StreamState block = loop(start, stop, 1, 1, 1, initialState());
    for (int64_t e = 0; e < kernel.perThread; ++e) {
      SmallVector<Value> mine, theirs;
      for (unsigned i = 0; i < parts(); ++i) {
        mine.push_back(total[i][e]);
        theirs.push_back(block[i][e]);
      }
      for (auto [i, value] : llvm::enumerate(merge(e, mine, theirs)))
        total[i][e] = value;
    }
    return total;
  };
  return overBlocks(first, end, kSumBlock, kSumBlock, state, foldBlock);
}

std::pair<Value, Value>
ElementStreamLowering::safeLeaders(alg::ReductionKind kind, Value old,
                                   Value fresh) {
  Value identity = reductionIdentity(b, loc, kind, accType);
  Value zero =
      arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
  auto isIdentity = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                                 identity);
  };
  Value safeFresh =
      arith::SelectOp::create(b, loc, isIdentity(fresh), zero, fresh);
  Value safeOld =
      arith::SelectOp::create(b, loc, isIdentity(old), safeFresh, old);
  return {safeOld, safeFresh};
}

Value ElementStreamLowering::applyRepair(Value sum, Value repair) {
  if (mean)
    return arith::AddFOp::create(b, loc, sum, repair);
  return arith::MulFOp::create(b, loc, sum, repair);
}

SmallVector<Fragment> ElementStreamLowering::repairs(ArrayRef<Fragment> from,
                                                     ArrayRef<Fragment> to,
                                                     const Fragment &folded) {
  SmallVector<Fragment> factors(count);
  for (auto [j, repair] : llvm::enumerate(stream.getRepairs())) {
    Block &repairBlock = repair.front();
    SmallVector<Operation *> ops;
    for (Operation &op : repairBlock.without_terminator())
      ops.push_back(&op);
    forgetFragments(kernel, ops);
    kernel.fragments[repairBlock.getArgument(0)] = from[j];
    kernel.fragments[repairBlock.getArgument(1)] = to[j];
    if (mean)
      kernel.fragments[repairBlock.getArgument(2)] = folded;
    if (failed(lowerAll(kernel, ops))) {
      status = failure();
      return factors;
    }
    auto yielded = cast<tile::YieldOp>(repairBlock.getTerminator()).getValues();
    for (unsigned i = 0, f = 0; i < count; ++i) {
      if (stream.isLeader(i))
        continue;
      Fragment phi = kernel.lookup(yielded[f++]);
      if (factors[i].empty()) {
        factors[i] = phi;
        continue;
      }
      for (int64_t e = kernel.firstElement; e < kernel.endElement; ++e)
        factors[i][e] = arith::MulFOp::create(b, loc, factors[i][e], phi[e]);
    }
  }
  return factors;
}

StreamState ElementStreamLowering::fold(ArrayRef<Value> points,
                                        ArrayRef<LoadedAhead> loaded,
                                        StreamState state) {
  int64_t elements = kernel.perThread;
  auto yield = cast<tile::YieldOp>(body.getTerminator());
  ValueRange leaderArgs = body.getArguments().drop_front();
  // Each point's ops that read no leader, their fragments kept for its
  // ops that do.
  SmallVector<DenseMap<Value, Fragment>> pointValues(points.size());
  for (auto [j, point] : llvm::enumerate(points)) {
    kernel.scalars.map(body.getArgument(0), point);
    kernel.reducedIVs.push_back(point);
    forgetFragments(kernel, early);
    forgetFragments(kernel, late);
    for (auto &[value, fragment] : loaded[j]) {
      kernel.fragments[value] = fragment;
      kernel.lowered.insert(value.getDefiningOp());
    }
    if (failed(lowerAll(kernel, early)))
      status = failure();
    for (auto &[value, fragment] : loaded[j])
      kernel.lowered.erase(value.getDefiningOp());
    for (Operation *op : early)
      for (Value result : op->getResults())
        if (auto it = kernel.fragments.find(result);
            it != kernel.fragments.end())
          pointValues[j][result] = it->second;
    kernel.reducedIVs.pop_back();
  }
  if (failed(status))
    return state;
  auto termOf = [&](unsigned i, size_t j) {
    Value term = yield.getValues()[i];
    auto it = pointValues[j].find(term);
    return it != pointValues[j].end() ? it->second : kernel.lookup(term);
  };
  // The leaders fold every point's term; the followers' repairs go from
  // the old leaders to the new.
  StreamState next(parts());
  SmallVector<Fragment> oldSafe, newSafe;
  for (unsigned i = 0, l = 0; i < count; ++i) {
    if (!stream.isLeader(i))
      continue;
    if (stream.isMean(i)) {
      // Welford over the step: the mean moves by the points' gaps from it
      // over the points folded so far, and is safe as it is.
      std::tie(next[i], next[count]) =
          foldMean(state[i], state[count], points.size(),
                   [&](size_t j) { return termOf(i, j); });
      oldSafe.push_back(state[i]);
      newSafe.push_back(next[i]);
      kernel.fragments[leaderArgs[l++]] = next[i];
      continue;
    }
    alg::ReductionKind kind = stream.getAccumulatorKind(i);
    Fragment fresh = state[i], safeOld(elements), safeNew(elements);
    for (size_t j = 0; j < points.size(); ++j) {
      Fragment term = termOf(i, j);
      for (int64_t e = 0; e < elements; ++e)
        fresh[e] = combineReduction(b, loc, kind, fresh[e], term[e]);
    }
    for (int64_t e = 0; e < elements; ++e)
      std::tie(safeOld[e], safeNew[e]) =
          safeLeaders(kind, state[i][e], fresh[e]);
    next[i] = fresh;
    oldSafe.push_back(safeOld);
    newSafe.push_back(safeNew);
    kernel.fragments[leaderArgs[l++]] = safeNew;
  }
  // Each point's ops that read a leader, at the new leaders.
  SmallVector<SmallVector<Fragment>> terms(count);
  for (auto [j, point] : llvm::enumerate(points)) {
    kernel.scalars.map(body.getArgument(0), point);
    kernel.reducedIVs.push_back(point);
    forgetFragments(kernel, late);
    for (auto &[value, fragment] : pointValues[j])
      kernel.fragments[value] = fragment;
    if (failed(lowerAll(kernel, late)))
      status = failure();
    for (unsigned i = 0; i < count; ++i)
      if (!stream.isLeader(i))
        terms[i].push_back(termOf(i, j));
    kernel.reducedIVs.pop_back();
  }
  if (failed(status))
    return state;
  SmallVector<Fragment> factors =
      repairs(oldSafe, newSafe, mean ? state[count] : Fragment());
  for (unsigned i = 0; i < count; ++i) {
    if (stream.isLeader(i))
      continue;
    next[i].resize(elements);
    for (int64_t e = 0; e < elements; ++e) {
      Value sum = factors[i].empty() ? state[i][e]
                                     : applyRepair(state[i][e], factors[i][e]);
      for (const Fragment &term : terms[i])
        sum = arith::AddFOp::create(b, loc, sum, term[e]);
      next[i][e] = sum;
    }
  }
  return next;
}

SmallVector<Value> ElementStreamLowering::merge(int64_t e, ArrayRef<Value> mine,
                                                ArrayRef<Value> theirs) {
  // Element e alone: the repairs are lowered for it (the other elements'
  // slots stay empty).
  int64_t elements = kernel.perThread;
  int64_t savedFirst = kernel.firstElement, savedEnd = kernel.endElement;
  kernel.firstElement = e;
  kernel.endElement = e + 1;
  auto at = [&](Value v) {
    Fragment f(elements);
    f[e] = v;
    return f;
  };
  SmallVector<Value> merged(mine.begin(), mine.end());
  SmallVector<Fragment> mineSafe, theirsSafe, combined;
  Fragment mineFolded, theirFolded;
  for (unsigned i = 0; i < count; ++i) {
    if (!stream.isLeader(i))
      continue;
    if (stream.isMean(i)) {
      // Chan's rule: the mean weighted by the points each side folded,
      // each side's sums moved to it by the repair (an addend for its
      // points). (na ma + nb mb) / n is the same on both sides of a
      // shuffle, bit for bit; no points on either side leave the mean.
      Value na = mine[count], nb = theirs[count];
      Value n = arith::AddFOp::create(b, loc, na, nb);
      Value zero =
          arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
      Value weighted = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, na, mine[i]),
          arith::MulFOp::create(b, loc, nb, theirs[i]));
      merged[i] = arith::SelectOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, n, zero),
          arith::DivFOp::create(b, loc, weighted, n), mine[i]);
      merged[count] = n;
      mineSafe.push_back(at(mine[i]));
      theirsSafe.push_back(at(theirs[i]));
      combined.push_back(at(merged[i]));
      mineFolded = at(na);
      theirFolded = at(nb);
      continue;
    }
    alg::ReductionKind kind = stream.getAccumulatorKind(i);
    merged[i] = combineReduction(b, loc, kind, mine[i], theirs[i]);
    auto [a, both] = safeLeaders(kind, mine[i], merged[i]);
    mineSafe.push_back(at(a));
    theirsSafe.push_back(at(safeLeaders(kind, theirs[i], merged[i]).first));
    combined.push_back(at(both));
  }
  SmallVector<Fragment> mineRepairs = repairs(mineSafe, combined, mineFolded);
  SmallVector<Fragment> theirRepairs =
      repairs(theirsSafe, combined, theirFolded);
  for (unsigned i = 0; i < count; ++i) {
    if (stream.isLeader(i))
      continue;
    Value a = mine[i], c = theirs[i];
    if (!mineRepairs[i].empty()) {
      a = applyRepair(a, mineRepairs[i][e]);
      c = applyRepair(c, theirRepairs[i][e]);
    }
    merged[i] = arith::AddFOp::create(b, loc, a, c);
  }
  kernel.firstElement = savedFirst;
  kernel.endElement = savedEnd;
  return merged;
}

std::pair<Fragment, Fragment>
ElementStreamLowering::foldMean(const Fragment &old, const Fragment &folded,
                                size_t points,
                                llvm::function_ref<Fragment(size_t)> termOf) {
  Value k = arith::ConstantOp::create(b, loc, accType,
                                      b.getFloatAttr(accType, double(points)));
  Fragment moved(old.size());
  for (size_t j = 0; j < points; ++j) {
    Fragment term = termOf(j);
    for (size_t e = 0; e < old.size(); ++e) {
      Value gap = arith::SubFOp::create(b, loc, term[e], old[e]);
      moved[e] = j == 0 ? gap : arith::AddFOp::create(b, loc, moved[e], gap);
    }
  }
  Fragment fresh(old.size()), after(old.size());
  for (size_t e = 0; e < old.size(); ++e) {
    after[e] = arith::AddFOp::create(b, loc, folded[e], k);
    fresh[e] = arith::AddFOp::create(
        b, loc, old[e], arith::DivFOp::create(b, loc, moved[e], after[e]));
  }
  return {fresh, after};
}

FailureOr<SmallVector<Fragment>>
tiletogpu::lowerElementStream(KernelContext &kernel,
                              tile::OnlineReduceOp stream) {
  return ElementStreamLowering(kernel, stream).run();
}
