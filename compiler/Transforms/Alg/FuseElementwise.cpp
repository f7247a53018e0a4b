//===- FuseElementwise.cpp - Inline elementwise definitions ---------------===//
#include "compiler/Transforms/Alg/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGFUSEELEMENTWISE
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

bool isFusible(alg::DefineOp def, alg::ReturnOp ret) {
  if (def.isReduction() || llvm::is_contained(ret.getOutputs(), def.getResult()))
    return false;
  for (Operation *user : def.getResult().getUsers()) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (!load || !load.getIndirect().empty())
      return false;
  }
  return true;
}

/// Merges the reads of `producer` that are the same element: in one block, a
/// load with the map of an earlier load is replaced by it. Without this, a
/// definition read twice at one index would be inlined twice, and a chain of
/// such definitions would grow as 2^depth. Returns the reads that remain.
SmallVector<alg::LoadOp> mergeIdenticalReads(alg::DefineOp producer) {
  SmallVector<alg::LoadOp> reads;
  for (Operation *user : producer.getResult().getUsers())
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

/// Replaces `load` (a read of `producer`) by a copy of the producer's body.
void inlineAt(alg::DefineOp producer, alg::LoadOp load) {
  OpBuilder builder(load);
  AffineMap at = load.getMap(); // consumer domain -> producer domain
  unsigned numSyms = at.getNumSymbols();
  unsigned consumerDims = at.getNumDims();
  SmallVector<AffineExpr> symbols;
  for (unsigned i = 0; i < numSyms; ++i)
    symbols.push_back(builder.getAffineSymbolExpr(i));
  auto substitute = [&](AffineMap map) {
    return map.replaceDimsAndSymbols(at.getResults(), symbols, consumerDims,
                                     numSyms);
  };

  Block &body = producer.getBody().front();
  IRMapping mapping;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    // Index maps do not use block arguments; any use is an index used as a
    // value, which becomes the matching result of the load's map.
    if (arg.use_empty())
      continue;
    AffineMap single = AffineMap::get(consumerDims, numSyms, at.getResult(i));
    mapping.map(arg, alg::ApplyOp::create(builder, load.getLoc(),
                                          builder.getIndexType(),
                                          AffineMapAttr::get(single))
                         .getResult());
  }
  for (Operation &op : body.without_terminator()) {
    Operation *copy = builder.clone(op, mapping);
    if (auto inner = dyn_cast<alg::LoadOp>(copy))
      inner.setMap(substitute(inner.getMap()));
    if (auto apply = dyn_cast<alg::ApplyOp>(copy))
      apply.setMap(substitute(apply.getMap()));
  }
  Value result = mapping.lookup(
      cast<alg::YieldOp>(body.getTerminator()).getValue());
  load.getResult().replaceAllUsesWith(result);
  load.erase();
}

struct AlgFuseElementwisePass
    : public nautilus::impl::AlgFuseElementwiseBase<AlgFuseElementwisePass> {
  void runOnOperation() override {
    alg::KernelOp kernel = getOperation();
    alg::ReturnOp ret = kernel.getReturn();
    SmallVector<alg::DefineOp> defines(
        kernel.getBody().getOps<alg::DefineOp>());
    // Last first: a chain of elementwise definitions collapses into the
    // first definition that reduces or is an output.
    for (alg::DefineOp def : llvm::reverse(defines)) {
      if (!isFusible(def, ret))
        continue;
      for (alg::LoadOp load : mergeIdenticalReads(def))
        inlineAt(def, load);
      def.erase();
    }
  }
};

} // namespace
