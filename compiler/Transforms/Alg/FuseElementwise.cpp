//===- FuseElementwise.cpp - Inline elementwise definitions ---------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Alg/Inlining.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/Recomputation.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGFUSEELEMENTWISE
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

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
    : public SchedulingPass<
          nautilus::impl::AlgFuseElementwiseBase<AlgFuseElementwisePass>> {
  using SchedulingPass::SchedulingPass;

  void setExplain(bool value) { explain = value; }

  void runOnOperation() override {
    alg::KernelOp kernel = getOperation();
    SmallVector<alg::DefineOp> defines(
        kernel.getBody().getOps<alg::DefineOp>());
    // Last first: a chain of elementwise definitions collapses into the
    // first definition that reduces, is an output or is stored.
    for (alg::DefineOp def : llvm::reverse(defines)) {
      if (!isRecomputable(def))
        continue;
      std::string why;
      if (isReadAgainByReduction(def) && !recomputesOperands(why)) {
        if (explain)
          def.emitRemark() << "'" << def.getName()
                           << "' is stored, not recomputed where a reduction "
                              "reads it again: "
                           << why;
        continue;
      }
      for (alg::LoadOp load : mergeIdenticalReads(def.getResult()))
        inlineAt(def, load);
      def.erase();
    }
  }

  /// Whether definitions a reduction reads again are recomputed: the
  /// option, then the provider, for the module's target (none: the
  /// heuristics' answer, recomputed).
  bool recomputesOperands(std::string &why) {
    if (!recomputeOperands) {
      why = "the pass's recompute-operands=false";
      return false;
    }
    auto module = getOperation()->getParentOfType<ModuleOp>();
    if (!module || !module->hasAttr(tile::TargetAttr::kModuleAttrName))
      return true;
    std::optional<TargetInfo> target = getModuleTarget(getOperation());
    return !target || schedules->recomputesOperands(*target, why);
  }
};

} // namespace

std::unique_ptr<Pass>
nautilus::createAlgFuseElementwise(std::shared_ptr<ScheduleProvider> schedules,
                                   bool explain) {
  auto pass = std::make_unique<AlgFuseElementwisePass>(std::move(schedules));
  pass->setExplain(explain);
  return pass;
}
