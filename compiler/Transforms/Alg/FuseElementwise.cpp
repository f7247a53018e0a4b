//===- FuseElementwise.cpp - Inline elementwise definitions ---------------===//
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/Inlining.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

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
  // One that computes reductions of its own (alg-fuse-shared-operands'
  // gated MLP) is stored: recomputed at every point of its readers, its
  // reductions would be too.
  bool nested = false;
  def.walk([&](alg::ReduceOp) { nested = true; });
  if (nested)
    return false;
  for (Operation *user : def.getResult().getUsers()) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (!load || !load.getIndirect().empty())
      return false;
  }
  return true;
}

/// Replaces `load` (a read of `producer`) by a copy of the producer's body.
void inlineAt(alg::DefineOp producer, alg::LoadOp load) {
  OpBuilder builder(load);
  IRMapping mapping;
  FailureOr<SmallVector<Value>> result =
      inlineBlock(builder, producer.getBody().front(), load.getMap(), mapping);
  assert(succeeded(result) && "a definition's body holds no nested reduce");
  load.getResult().replaceAllUsesWith(result->front());
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
      for (alg::LoadOp load : mergeIdenticalReads(def.getResult()))
        inlineAt(def, load);
      def.erase();
    }
  }
};

} // namespace
