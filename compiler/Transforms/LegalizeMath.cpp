//===- LegalizeMath.cpp - Math every backend can lower --------------------===//
#include "compiler/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nautilus {
#define GEN_PASS_DEF_LEGALIZEMATH
#include "compiler/Transforms/Passes.h.inc"
} // namespace nautilus

using namespace mlir;

namespace {

struct LegalizeMathPass
    : public nautilus::impl::LegalizeMathBase<LegalizeMathPass> {
  void runOnOperation() override {
    auto all = [](StringRef) { return true; };
    {
      // Composite ops first (rsqrt, powf, exp2, ...), then approximations of
      // what they expand into.
      RewritePatternSet patterns(&getContext());
      math::populateExpansionPatterns(patterns, {"powf", "rsqrt", "exp2",
                                                 "sinh", "cosh", "ceil",
                                                 "round", "fpowi", "ipowi"});
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, all);
    populateMathPolynomialApproximationPatterns(patterns, all);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
