//===- Inlining.cpp - Copying alg bodies into other domains ---------------===//
#include "compiler/Transforms/Alg/Inlining.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace nautilus;

FailureOr<SmallVector<Value>> nautilus::inlineBlock(OpBuilder &builder,
                                                    Block &body, AffineMap at,
                                                    IRMapping &mapping) {
  unsigned numSyms = at.getNumSymbols();
  unsigned domain = at.getNumDims();
  SmallVector<AffineExpr> symbols;
  for (unsigned i = 0; i < numSyms; ++i)
    symbols.push_back(builder.getAffineSymbolExpr(i));
  auto substitute = [&](AffineMap map) {
    return map.replaceDimsAndSymbols(at.getResults(), symbols, domain,
                                     numSyms);
  };
  unsigned index = 0;
  for (BlockArgument arg : body.getArguments()) {
    if (!arg.getType().isIndex())
      continue;
    unsigned position = index++;
    // Index maps do not use block arguments; any use is an index used as a
    // value, which becomes the matching result of `at`.
    if (arg.use_empty() || mapping.contains(arg))
      continue;
    AffineMap single = AffineMap::get(domain, numSyms, at.getResult(position));
    mapping.map(arg, alg::ApplyOp::create(builder, arg.getLoc(),
                                          builder.getIndexType(),
                                          AffineMapAttr::get(single))
                         .getResult());
  }
  for (Operation &op : body.without_terminator()) {
    if (llvm::all_of(op.getResults(),
                     [&](Value v) { return mapping.contains(v); }) &&
        op.getNumResults() != 0)
      continue;
    if (isa<alg::ReduceOp>(op))
      return failure();
    Operation *copy = builder.clone(op, mapping);
    if (auto inner = dyn_cast<alg::LoadOp>(copy))
      inner.setMap(substitute(inner.getMap()));
    if (auto apply = dyn_cast<alg::ApplyOp>(copy))
      apply.setMap(substitute(apply.getMap()));
  }
  SmallVector<Value> yielded;
  for (Value v : cast<alg::YieldOp>(body.getTerminator()).getValues())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
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
