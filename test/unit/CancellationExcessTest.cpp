//===- CancellationExcessTest.cpp - What cancelling sums add to errors ----===//
#include "compiler/Interpreter/CancellationExcess.h"
#include "compiler/Frontend/AlgEmitter.h"
#include "compiler/Interpreter/AlgInterpreter.h"
#include "runtime/Compare.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "test/unit/HostTensorUtil.h"
#include "test/unit/KernelText.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nautilus;

namespace {

using Compiled = test::KernelText;

/// The excess of a sum of `terms` folded in order.
double sumExcess(const std::vector<double> &terms) {
  FoldExcess fold;
  double sum = 0;
  for (double t : terms) {
    double before = sum;
    sum += t;
    fold.add(alg::ReductionKind::sum, t, 0, before, sum);
  }
  return fold.finish(alg::ReductionKind::sum, sum);
}

} // namespace

// A sum whose partial sums stay within its result has no excess; one that
// cancels has the excess of its partial sums' root mean square over it.
TEST(CancellationExcess, ASumExceedsItselfOnlyWhereItCancels) {
  EXPECT_EQ(sumExcess({1, 2, 3, 4}), 0);
  EXPECT_EQ(sumExcess({1e4, 1e4 + 1, 1e4 - 1}), 0);
  // Partial sums that level off (a tail of zeros) reach the result, never
  // pass it: no excess, though their rounded root mean square may.
  for (int zeros = 1; zeros < 60; ++zeros) {
    std::vector<double> terms{0.1, 0.2};
    terms.resize(2 + zeros, 0.0);
    EXPECT_EQ(sumExcess(terms), 0) << zeros << " zeros";
  }
  // Partial sums 10, 20, 10, 0.5: root mean square sqrt(600.25 / 4).
  EXPECT_NEAR(sumExcess({10, 10, -10, -9.5}), std::sqrt(600.25 / 4) - 0.5,
              1e-12);
  // A term's excess adds to the sum's.
  FoldExcess fold;
  fold.add(alg::ReductionKind::sum, 2, 0.5, 0, 2);
  fold.add(alg::ReductionKind::sum, 3, 0.25, 2, 5);
  EXPECT_EQ(fold.finish(alg::ReductionKind::sum, 5), 0.75);
  // A maximum keeps the excess of the term it keeps.
  FoldExcess max;
  max.add(alg::ReductionKind::max, 1, 7, -HUGE_VAL, 1);
  max.add(alg::ReductionKind::max, 3, 2, 1, 3);
  max.add(alg::ReductionKind::max, 2, 9, 3, 3);
  EXPECT_EQ(max.finish(alg::ReductionKind::max, 3), 2);
  // A tie may go either way in the compiled code: the larger excess.
  max.add(alg::ReductionKind::max, 3, 5, 3, 3);
  EXPECT_EQ(max.finish(alg::ReductionKind::max, 3), 5);
}

// Operations pass their operands' excesses on as first-order errors do.
TEST(CancellationExcess, OperationsPassExcessesOn) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::arith::ArithDialect, mlir::math::MathDialect>();
  mlir::OpBuilder b(&context);
  mlir::Location loc = b.getUnknownLoc();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  mlir::Value x = mlir::arith::ConstantOp::create(b, loc, b.getF32FloatAttr(2));
  mlir::Value y = mlir::arith::ConstantOp::create(b, loc, b.getF32FloatAttr(4));
  auto excessOf = [&](mlir::Operation *op, std::vector<double> values,
                      std::vector<double> excesses, double result) {
    return propagatedExcess(op, values, excesses, result);
  };
  mlir::Operation *add = mlir::arith::AddFOp::create(b, loc, x, y);
  mlir::Operation *mul = mlir::arith::MulFOp::create(b, loc, x, y);
  mlir::Operation *div = mlir::arith::DivFOp::create(b, loc, x, y);
  mlir::Operation *min = mlir::arith::MinimumFOp::create(b, loc, x, y);
  mlir::Operation *exp = mlir::math::ExpOp::create(b, loc, x);
  mlir::Operation *sqrt = mlir::math::SqrtOp::create(b, loc, y);
  EXPECT_EQ(excessOf(add, {2, 4}, {0, 0}, 6), 0);
  EXPECT_EQ(excessOf(add, {2, 4}, {0.5, 0.25}, 6), 0.75);
  EXPECT_EQ(excessOf(mul, {2, 4}, {0.5, 0.25}, 8), 0.5 * 4 + 0.25 * 2);
  EXPECT_EQ(excessOf(div, {2, 4}, {0.5, 0.25}, 0.5), (0.5 + 0.5 * 0.25) / 4);
  EXPECT_EQ(excessOf(min, {2, 4}, {0.5, 0.25}, 2), 0.5);
  EXPECT_EQ(excessOf(min, {2, 4}, {0.5, 0.25}, 4), 0.25);
  EXPECT_EQ(excessOf(min, {2, 2}, {0.5, 0.75}, 2), 0.75);
  EXPECT_NEAR(excessOf(exp, {2}, {0.5}, std::exp(2.0)), std::exp(2.0) * 0.5,
              1e-12);
  EXPECT_EQ(excessOf(sqrt, {4}, {0.5}, 2), 0.5 / 4);
  // At 0 a root's derivative is infinite; a value 0.25 off has a root 0.5
  // off.
  EXPECT_EQ(excessOf(sqrt, {0}, {0.25}, 0), 0.5);
}

// The interpreter carries the excess of a sum that cancels through what
// is computed from it (a minimum picking it, an exact value added), and
// none where nothing cancels: a layernorm's rows near 10^4 keep the check
// as strict as it was. The excess widens the bound of an element whose
// error a reordered sum explains.
TEST(CancellationExcess, TheInterpreterCarriesItToTheOutputs) {
  Compiled c;
  auto kernel = c.compile(
      "kernel k(X: f32[N, M], u: f32[N]) -> (O: f32[N], L: f32[N, M]) {\n"
      "  T[n] = sum[m](X[n, m])\n"
      "  O[n] = min(abs(T[n]), 1.5) + u[n]\n"
      "  Mu[n] = sum[m](X[n, m] + 10000.0) / 4.0\n"
      "  L[n, m] = X[n, m] + 10000.0 - Mu[n]\n}");
  ASSERT_TRUE(kernel) << c.messages;
  // Row 0 cancels (10, 10, -10, -9.5 sum to 0.5); row 1 does not.
  std::vector<rt::HostTensor> in = {
      test::tensorOf(rt::DType::F32, {2, 4}, {10, 10, -10, -9.5, 1, 2, 3, 4}),
      test::tensorOf(rt::DType::F32, {2}, {0.25, 0.5})};
  std::vector<rt::HostTensor> out;
  std::vector<std::vector<double>> excesses;
  ASSERT_EQ(interpretKernel(kernel, {{"N", 2}, {"M", 4}}, in, out, &excesses),
            "");
  ASSERT_EQ(excesses.size(), 2u);
  ASSERT_EQ(excesses[0].size(), 2u);
  EXPECT_NEAR(excesses[0][0], std::sqrt(600.25 / 4) - 0.5, 1e-9);
  EXPECT_EQ(excesses[0][1], 0);
  EXPECT_TRUE(excesses[1].empty()) << "nothing cancels near 10^4";
  // O[0] = 0.75 expected; an error of 5e-5 is past the bound of
  // 200 * 2^-24 (|0.75| + mean) without the excess, within it with.
  rt::Tolerance tolerance{1, 200 * std::ldexp(1.0, -24)};
  rt::HostTensor off = out[0];
  off.setFromDouble(0, out[0].getAsDouble(0) + 5e-5);
  EXPECT_FALSE(rt::compareTensors(off, out[0], tolerance).pass());
  rt::Comparison widened =
      rt::compareTensors(off, out[0], tolerance, &excesses[0]);
  EXPECT_TRUE(widened.pass());
  EXPECT_EQ(widened.widened, 1u);
  // Ten times the widened bound still fails.
  double bound = tolerance.relative * (0.75 + excesses[0][0] + 1.375);
  off.setFromDouble(0, out[0].getAsDouble(0) + 10 * bound);
  EXPECT_FALSE(rt::compareTensors(off, out[0], tolerance, &excesses[0]).pass());
}

// Elements whose error is a cancelled sum's (an excess beyond their own
// scale: a row's variance that cancelled to noise scales the whole row)
// are left out of the mean error, whose bound assumes independent
// roundings; without excess the same uniform error is a bias, and fails.
TEST(CancellationExcess, SharedErrorsAreLeftOutOfTheMean) {
  // bf16 values in [1, 2) (a unit 2^-7), one in twenty a unit up: every
  // element within its bound, the mean a bias.
  std::vector<double> values(1024);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 1 + double(i % 7) / 8;
  rt::HostTensor expected = test::tensorOf(rt::DType::BF16, {1024}, values);
  rt::HostTensor moved = expected;
  for (size_t i = 0; i < values.size(); i += 20)
    moved.setFromDouble(i, values[i] + std::ldexp(1.0, -7));
  rt::Tolerance tolerance{1, 4 * std::ldexp(1.0, -24)};
  rt::Comparison bias = rt::compareTensors(moved, expected, tolerance);
  EXPECT_TRUE(bias.elementsPass);
  EXPECT_FALSE(bias.meanPasses);
  EXPECT_EQ(bias.leftOutOfMean, 0u);
  // Each element's excess 100 (its scale under 4): out of the mean, which
  // is then not checked.
  std::vector<double> excess(1024, 100);
  rt::Comparison shared =
      rt::compareTensors(moved, expected, tolerance, &excess);
  EXPECT_TRUE(shared.pass());
  EXPECT_EQ(shared.leftOutOfMean, 1024u);
  // The moved elements (even) without excess: they still make the bias.
  for (size_t i = 0; i < excess.size(); i += 2)
    excess[i] = 0;
  rt::Comparison half = rt::compareTensors(moved, expected, tolerance, &excess);
  EXPECT_FALSE(half.meanPasses);
  EXPECT_EQ(half.leftOutOfMean, 512u);
  // An excess within the element's scale keeps it in the mean.
  std::vector<double> small(1024, 1);
  EXPECT_FALSE(
      rt::compareTensors(moved, expected, tolerance, &small).meanPasses);
}
