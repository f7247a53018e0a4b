//===- ElementStreams.cpp - A stream each thread runs on its elements -----===//
//
// A tile.online_reduce in a program without a tensor-core schedule: each
// thread streams its own elements, one point of the streamed index at a
// time, as the CPU's stream does a key (TileToCPU/StreamLowering.cpp). This
// is how a flash kernel's split partials are combined (tile-split-
// reductions: flash-decoding's (max, sum, O) triples): a stream over a
// handful of chunks whose terms are loads of the partials.
//
// A step: the body's ops that read no leader, then each leader folds its
// term; the repairs from the old leaders to the new (a leader at its
// identity read as 0, the repair from it 1); the ops that read a leader at
// the new leaders; each follower repaired plus its term.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "compiler/Conversion/TileToGPU/Streams.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

/// Forgets the fragments of `region`'s values (lowered again for another
/// point), so that none comes from a previous lowering.
static void forgetFragments(KernelContext &kernel, Region &region) {
  region.walk([&](Operation *op) {
    for (Value result : op->getResults())
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

FailureOr<SmallVector<Fragment>>
tiletogpu::lowerElementStream(KernelContext &kernel,
                              tile::OnlineReduceOp stream) {
  if (stream.isSplit())
    return stream.emitOpError("a split stream has no GPU lowering without "
                              "a flash schedule");
  OpBuilder &b = kernel.b;
  Location loc = stream.getLoc();
  Block &body = stream.getBody().front();
  unsigned count = stream.getNumResults();
  int64_t elements = kernel.perThread;
  auto f32 = cast<VectorType>(stream.getResult(0).getType()).getElementType();
  ValueRange leaderArgs = body.getArguments().drop_front();
  // Which ops read a leader (lowered after the leaders move).
  llvm::SmallPtrSet<Value, 8> tainted(leaderArgs.begin(), leaderArgs.end());
  SmallVector<Operation *> early, late;
  for (Operation &op : body.without_terminator()) {
    bool reads = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        reads |= tainted.contains(v);
    });
    if (reads)
      tainted.insert(op.result_begin(), op.result_end());
    (reads ? late : early).push_back(&op);
  }

  SmallVector<Value> init;
  for (unsigned i = 0; i < count; ++i) {
    Value start =
        stream.isLeader(i)
            ? reductionIdentity(b, loc, stream.getAccumulatorKind(i), f32)
            : arith::ConstantOp::create(b, loc, f32, b.getZeroAttr(f32))
                  .getResult();
    init.append(elements, start);
  }
  Value extent = kernel.scalars.lookupOrDefault(stream.getExtent());
  auto loop = scf::ForOp::create(b, loc, kernel.cIndex(0), extent,
                                 kernel.cIndex(1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value point = loop.getInductionVar();
  kernel.scalars.map(body.getArgument(0), point);
  kernel.reducedIVs.push_back(point);
  forgetFragments(kernel, stream.getBody());
  ValueRange carried = loop.getRegionIterArgs();
  auto accumulator = [&](unsigned i) {
    return Fragment(carried.begin() + i * elements,
                    carried.begin() + (i + 1) * elements);
  };
  auto yield = cast<tile::YieldOp>(body.getTerminator());
  if (failed(lowerAll(kernel, early)))
    return failure();
  SmallVector<Fragment> next(count), oldSafe, newSafe;
  for (unsigned i = 0, j = 0; i < count; ++i) {
    if (!stream.isLeader(i))
      continue;
    alg::ReductionKind kind = stream.getAccumulatorKind(i);
    Fragment old = accumulator(i), term = kernel.lookup(yield.getValues()[i]);
    Value identity = reductionIdentity(b, loc, kind, f32);
    Value zero = arith::ConstantOp::create(b, loc, f32, b.getZeroAttr(f32));
    Fragment fresh(elements), safeOld(elements), safeNew(elements);
    for (int64_t e = 0; e < elements; ++e) {
      fresh[e] = combineReduction(b, loc, kind, old[e], term[e]);
      auto isIdentity = [&](Value v) {
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                                     identity);
      };
      safeNew[e] =
          arith::SelectOp::create(b, loc, isIdentity(fresh[e]), zero, fresh[e]);
      safeOld[e] = arith::SelectOp::create(b, loc, isIdentity(old[e]),
                                           safeNew[e], old[e]);
    }
    next[i] = fresh;
    oldSafe.push_back(safeOld);
    newSafe.push_back(safeNew);
    kernel.fragments[leaderArgs[j++]] = safeNew;
  }
  if (failed(lowerAll(kernel, late)))
    return failure();
  // The repairs: one factor per follower, the product over the leaders.
  SmallVector<Fragment> factors(count);
  for (auto [j, repair] : llvm::enumerate(stream.getRepairs())) {
    Block &repairBlock = repair.front();
    forgetFragments(kernel, repair);
    kernel.fragments[repairBlock.getArgument(0)] = oldSafe[j];
    kernel.fragments[repairBlock.getArgument(1)] = newSafe[j];
    SmallVector<Operation *> ops;
    for (Operation &op : repairBlock.without_terminator())
      ops.push_back(&op);
    if (failed(lowerAll(kernel, ops)))
      return failure();
    auto yielded = cast<tile::YieldOp>(repairBlock.getTerminator()).getValues();
    for (unsigned i = 0, f = 0; i < count; ++i) {
      if (stream.isLeader(i))
        continue;
      Fragment phi = kernel.lookup(yielded[f++]);
      if (factors[i].empty()) {
        factors[i] = phi;
        continue;
      }
      for (int64_t e = 0; e < elements; ++e)
        factors[i][e] = arith::MulFOp::create(b, loc, factors[i][e], phi[e]);
    }
  }
  for (unsigned i = 0; i < count; ++i) {
    if (stream.isLeader(i))
      continue;
    Fragment acc = accumulator(i), term = kernel.lookup(yield.getValues()[i]);
    next[i].resize(elements);
    for (int64_t e = 0; e < elements; ++e) {
      Value repaired =
          factors[i].empty()
              ? acc[e]
              : arith::MulFOp::create(b, loc, acc[e], factors[i][e])
                    .getResult();
      next[i][e] = arith::AddFOp::create(b, loc, repaired, term[e]);
    }
  }
  kernel.reducedIVs.pop_back();
  SmallVector<Value> yielded;
  for (const Fragment &f : next)
    yielded.append(f.begin(), f.end());
  scf::YieldOp::create(b, loc, yielded);
  SmallVector<Fragment> results(count);
  for (unsigned i = 0; i < count; ++i)
    results[i] = Fragment(loop.getResults().begin() + i * elements,
                          loop.getResults().begin() + (i + 1) * elements);
  return results;
}
