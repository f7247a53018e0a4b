//===- Inlining.cpp - Copying alg bodies into other domains ---------------===//
#include "compiler/Transforms/Alg/Inlining.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace nautilus;

/// `map` with its dims replaced by `at`'s results (both over the kernel's
/// sizes as symbols).
static AffineMap composeWith(AffineMap map, AffineMap at) {
  SmallVector<AffineExpr> symbols;
  for (unsigned i = 0; i < at.getNumSymbols(); ++i)
    symbols.push_back(getAffineSymbolExpr(i, at.getContext()));
  return map.replaceDimsAndSymbols(at.getResults(), symbols, at.getNumDims(),
                                   at.getNumSymbols());
}

/// The index argument at `position` of a domain mapped by `at`, as a value.
static Value indexAsValue(OpBuilder &builder, Location loc, unsigned position,
                          AffineMap at) {
  AffineMap single = AffineMap::get(at.getNumDims(), at.getNumSymbols(),
                                    at.getResult(position));
  return alg::ApplyOp::create(builder, loc, builder.getIndexType(),
                              AffineMapAttr::get(single));
}

/// Clones `op` through `mapping`, its index maps composed with `at`.
static void copyOp(OpBuilder &builder, Operation &op, AffineMap at,
                   IRMapping &mapping) {
  Operation *copy = builder.clone(op, mapping);
  if (auto inner = dyn_cast<alg::LoadOp>(copy))
    inner.setMap(composeWith(inner.getMap(), at));
  if (auto apply = dyn_cast<alg::ApplyOp>(copy))
    apply.setMap(composeWith(apply.getMap(), at));
}

FailureOr<SmallVector<Value>> nautilus::inlineBlock(OpBuilder &builder,
                                                    Block &body, AffineMap at,
                                                    IRMapping &mapping) {
  unsigned index = 0;
  for (BlockArgument arg : body.getArguments()) {
    if (!arg.getType().isIndex())
      continue;
    unsigned position = index++;
    // Index maps do not use block arguments; any use is an index used as a
    // value, which becomes the matching result of `at`.
    if (arg.use_empty() || mapping.contains(arg))
      continue;
    mapping.map(arg, indexAsValue(builder, arg.getLoc(), position, at));
  }
  for (Operation &op : body.without_terminator()) {
    if (llvm::all_of(op.getResults(),
                     [&](Value v) { return mapping.contains(v); }) &&
        op.getNumResults() != 0)
      continue;
    if (isa<alg::ReduceOp>(op))
      return failure();
    copyOp(builder, op, at, mapping);
  }
  SmallVector<Value> yielded;
  for (Value v : cast<alg::YieldOp>(body.getTerminator()).getValues())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}

Value nautilus::inlineValue(OpBuilder &builder, Block &body, Value value,
                            AffineMap at, IRMapping &mapping) {
  if (Value done = mapping.lookupOrNull(value))
    return done;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &body)
      return value;
    unsigned position = llvm::count_if(
        body.getArguments().take_front(arg.getArgNumber()),
        [](BlockArgument a) { return a.getType().isIndex(); });
    Value index = indexAsValue(builder, arg.getLoc(), position, at);
    mapping.map(arg, index);
    return index;
  }
  Operation *op = value.getDefiningOp();
  if (op->getBlock() != &body)
    return value;
  for (Value operand : op->getOperands())
    inlineValue(builder, body, operand, at, mapping);
  copyOp(builder, *op, at, mapping);
  return mapping.lookup(value);
}
SmallVector<alg::LoadOp> nautilus::mergeIdenticalReads(Value producer) {
  SmallVector<alg::LoadOp> reads;
  for (Operation *user : producer.getUsers())
    reads.push_back(cast<alg::LoadOp>(user));
  // The earliest read of each element in its block dominates the others.
  llvm::DenseMap<std::pair<Block *, AffineMap>, alg::LoadOp> earliest;
  for (alg::LoadOp read : reads) {
    auto [it, inserted] =
        earliest.try_emplace({read->getBlock(), read.getMap()}, read);
    if (!inserted && read->isBeforeInBlock(it->second))
      it->second = read;
  }
  SmallVector<alg::LoadOp> kept;
  for (alg::LoadOp read : reads) {
    alg::LoadOp same = earliest.lookup({read->getBlock(), read.getMap()});
    if (same == read) {
      kept.push_back(read);
      continue;
    }
    read.getResult().replaceAllUsesWith(same.getResult());
    read.erase();
  }
  return kept;
}
