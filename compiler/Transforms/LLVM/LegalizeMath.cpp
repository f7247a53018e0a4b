//===- LegalizeMath.cpp - Math every backend can lower --------------------===//
#include "compiler/Transforms/LLVM/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

/// A float or integer constant of `type`'s shape (scalar or vector).
Value splat(PatternRewriter &rewriter, Location loc, Type type,
            Attribute element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(vector, element));
  return arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(element));
}

/// 2^x in f32 where no instruction computes it: x = n + f with n = floor(x)
/// and f in [0, 1) exactly, 2^f by a degree-6 polynomial (fitted to the
/// relative error, at most 1.2 units in the last place), and 2^n made in
/// the exponent field. x is clamped to [-127, 128]: n = 128 makes the
/// field of infinity, n = -127 that of zero, so results below 2^-126 are
/// flushed to 0 as math's exp approximation does. Fewer operations than
/// that approximation, which is what alg-exp-to-exp2 counts on.
struct Exp2Approximation : public OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type ints = i32;
    if (auto vector = dyn_cast<VectorType>(type))
      ints = vector.clone(i32);
    auto f = [&](float v) {
      return splat(rewriter, loc, type, rewriter.getF32FloatAttr(v));
    };
    auto i = [&](int32_t v) {
      return splat(rewriter, loc, ints, rewriter.getI32IntegerAttr(v));
    };
    auto clamp = [&](Value v, arith::CmpFPredicate keep, float bound) {
      Value b = f(bound);
      Value inside = arith::CmpFOp::create(rewriter, loc, keep, v, b);
      return arith::SelectOp::create(rewriter, loc, inside, v, b);
    };
    // Unordered comparisons keep a NaN.
    Value x = clamp(op.getOperand(), arith::CmpFPredicate::UGE, -127.0f);
    x = clamp(x, arith::CmpFPredicate::ULE, 128.0f);
    Value n = math::FloorOp::create(rewriter, loc, x);
    Value frac = arith::SubFOp::create(rewriter, loc, x, n);
    const float coefficients[] = {0.000212775427f, 0.0012559332f,
                                  0.00966627803f,  0.0554893836f,
                                  0.240228534f,    0.693147063f, 1.0f};
    Value p = f(coefficients[0]);
    for (float c : llvm::ArrayRef(coefficients).drop_front())
      p = math::FmaOp::create(rewriter, loc, p, frac, f(c));
    Value biased = arith::AddIOp::create(
        rewriter, loc, arith::FPToSIOp::create(rewriter, loc, ints, n), i(127));
    Value bits = arith::ShLIOp::create(rewriter, loc, biased, i(23));
    Value scale = arith::BitcastOp::create(rewriter, loc, type, bits);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, p, scale);
    return success();
  }
};

/// f64 rounded to a 16-bit float (bf16, f16) without the compiler-rt call
/// LLVM makes of it (__truncdfbf2, which a JIT does not find; found by
/// test/oracle): rounded to f32 *to odd* (towards zero, then the last bit
/// set if anything was lost), then to the 16-bit type to nearest even.
/// f32 keeps at least two more bits than the 16-bit type, so the two
/// roundings give the correctly rounded result.
struct TruncateF64ViaRoundToOdd : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!from.isF64() || !isNarrowFloat(to))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getIn();
    Type f32 = widened(op.getType());
    Type i32 = rewriter.getI32Type();
    if (auto vector = dyn_cast<VectorType>(f32))
      i32 = vector.clone(i32);
    auto splat = [&](Type type, Attribute value) -> Value {
      if (auto vector = dyn_cast<VectorType>(type))
        return arith::ConstantOp::create(
            rewriter, loc, type, DenseElementsAttr::get(vector, value));
      return arith::ConstantOp::create(rewriter, loc, type,
                                       cast<TypedAttr>(value));
    };
    Value nearest = arith::TruncFOp::create(rewriter, loc, f32, x);
    Value back = arith::ExtFOp::create(rewriter, loc, x.getType(), nearest);
    Value inexact = arith::CmpFOp::create(rewriter, loc,
                                          arith::CmpFPredicate::ONE, back, x);
    // Rounded away from zero: one step back towards it (the magnitude's
    // bits, below the sign, count down by one).
    Value away = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT,
        math::AbsFOp::create(rewriter, loc, back),
        math::AbsFOp::create(rewriter, loc, x));
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, nearest);
    Value one = splat(i32, rewriter.getI32IntegerAttr(1));
    Value towardsZero = arith::SelectOp::create(
        rewriter, loc, away, arith::SubIOp::create(rewriter, loc, bits, one),
        bits);
    Value odd = arith::SelectOp::create(
        rewriter, loc, inexact,
        arith::OrIOp::create(rewriter, loc, towardsZero, one), towardsZero);
    Value f32Odd = arith::BitcastOp::create(rewriter, loc, f32, odd);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), f32Odd);
    return success();
  }
};

struct LegalizeMathPass
    : public nautilus::impl::LegalizeMathBase<LegalizeMathPass> {
  using LegalizeMathBase::LegalizeMathBase;

  void runOnOperation() override {
    auto all = [](StringRef) { return true; };
    {
      // 16-bit float arithmetic, one rounding an op.
      RewritePatternSet patterns(&getContext());
      patterns.add<WidenNarrowArith, TruncateF64ViaRoundToOdd>(&getContext());
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      // Composite ops first (rsqrt, powf, ...), then approximations of
      // what they expand into.
      RewritePatternSet patterns(&getContext());
      // Not exp2: into exp, it would cost a multiplication and the whole of
      // exp's range reduction (it is kept for a target's instruction, or
      // approximated, below).
      math::populateExpansionPatterns(patterns, {"powf", "rsqrt", "sinh",
                                                 "cosh", "ceil", "round",
                                                 "fpowi", "ipowi"});
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, all);
    populateMathPolynomialApproximationPatterns(patterns, all);
    // exp2 (of f32, and of 16-bit floats in f32) stays for a target's
    // instruction, or is approximated.
    if (!exp2Instruction)
      patterns.add<Exp2Approximation>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
