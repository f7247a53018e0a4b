//===- DropVectorUnitDims.cpp - Element-wise ops without unit dims --------===//
#include "compiler/Transforms/LLVM/Passes.h"

#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nautilus {
#define GEN_PASS_DEF_DROPVECTORUNITDIMS
#include "compiler/Transforms/LLVM/Passes.h.inc"
} // namespace nautilus

using namespace mlir;

namespace {

struct DropVectorUnitDimsPass
    : public nautilus::impl::DropVectorUnitDimsBase<DropVectorUnitDimsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateDropUnitDimWithShapeCastPatterns(patterns);
    vector::ShapeCastOp::getCanonicalizationPatterns(patterns, &getContext());
    vector::BroadcastOp::getCanonicalizationPatterns(patterns, &getContext());
    // An optimisation only: patterns left unapplied (no fixed point within
    // the driver's limit) leave correct code.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
