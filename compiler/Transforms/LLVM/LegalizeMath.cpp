//===- LegalizeMath.cpp - Math every backend can lower --------------------===//
#include "compiler/Transforms/LLVM/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nautilus {
#define GEN_PASS_DEF_LEGALIZEMATH
#include "compiler/Transforms/LLVM/Passes.h.inc"
} // namespace nautilus

using namespace mlir;

namespace {

bool isNarrowFloat(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// `type` with f32 elements in place of 16-bit floats.
Type widened(Type type) {
  if (!isNarrowFloat(type))
    return type;
  Type f32 = Float32Type::get(type.getContext());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(f32);
  return f32;
}

/// An arith op on 16-bit floats, computed in f32 and rounded back to its
/// type. Each op rounds, as the source's types say: emulating the types
/// instead (arith-emulate-unsupported-floats) computes a whole chain of
/// such ops in f32 and rounds once, a unit of the 16-bit type away from
/// the stated result (enough to flip a comparison).
struct WidenNarrowArith : public RewritePattern {
  explicit WidenNarrowArith(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect>(op->getDialect()) ||
        !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::SelectOp,
            arith::BitcastOp>(op) ||
        !llvm::any_of(op->getOperandTypes(), isNarrowFloat))
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(
          isNarrowFloat(operand.getType())
              ? arith::ExtFOp::create(rewriter, loc,
                                      widened(operand.getType()), operand)
                    .getResult()
              : operand);
    Type resultType = op->getResult(0).getType();
    OperationState state(loc, op->getName().getStringRef(), operands,
                         {widened(resultType)}, op->getAttrs());
    Value result = rewriter.create(state)->getResult(0);
    if (isNarrowFloat(resultType))
      result = arith::TruncFOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LegalizeMathPass
    : public nautilus::impl::LegalizeMathBase<LegalizeMathPass> {
  void runOnOperation() override {
    auto all = [](StringRef) { return true; };
    {
      // 16-bit float arithmetic, one rounding an op.
      RewritePatternSet patterns(&getContext());
      patterns.add<WidenNarrowArith>(&getContext());
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
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
