//===- CheckTest.cpp - --check's comparison and tolerance -----------------===//
//
// The comparison of `nautc run --check` must accept a kernel that computes
// right and rounds (here the example rmsnorm, computed in f32 as the CPU
// does) and reject one that is off by a uniform factor, even one that its
// output's rounding hides from every element: an rmsnorm dividing by
// D + 2 where it should divide by D is off by about 1 / D, a sixteenth of
// a unit of its bf16 output at D = 4096.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/Check.h"
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/RandomInputs.h"
#include "runtime/Compare.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include "test/unit/HostTensorUtil.h"

#include <gtest/gtest.h>
#include <random>

using namespace nautilus;

namespace {

using test::tensorOf;

TEST(Compare, UnitInLastPlace) {
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::BF16, 1.0), std::ldexp(1.0, -7));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::BF16, -1.99), std::ldexp(1.0, -7));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::BF16, 0.75), std::ldexp(1.0, -8));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::F16, 1.0), std::ldexp(1.0, -10));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::F16, 0.0), std::ldexp(1.0, -24));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::F32, 3.0), std::ldexp(1.0, -22));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::F32, 1e-45), std::ldexp(1.0, -149));
  EXPECT_EQ(rt::unitInLastPlace(rt::DType::I32, 5.0), 0.0);
}

TEST(Compare, ToleranceIsAUnitAndRelativeToTheScale) {
  auto reference = tensorOf(rt::DType::F32, {3}, {1.0, -2.0, 0.0});
  rt::Tolerance tolerance{/*ulps=*/1, /*relative=*/1e-3};
  auto close = tensorOf(rt::DType::F32, {3}, {1.0001, -2.0001, 0.0001});
  EXPECT_TRUE(rt::compareTensors(close, reference, tolerance).pass());
  auto far = tensorOf(rt::DType::F32, {3}, {1.1, -2.0, 0.0});
  rt::Comparison c = rt::compareTensors(far, reference, tolerance);
  EXPECT_FALSE(c.elementsPass);
  EXPECT_EQ(c.worst, 0u);
}

/// bf16 values spread over [-2, 2), and the same rounded after `error`
/// moved them (a relative error of `factor` - 1, then a unit's rounding).
struct RoundedPair {
  rt::HostTensor reference, actual;
  RoundedPair(size_t n, double factor, unsigned seed)
      : reference(rt::HostTensor::zeros(rt::DType::BF16, {int64_t(n)})),
        actual(rt::HostTensor::zeros(rt::DType::BF16, {int64_t(n)})) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-2, 2);
    for (size_t i = 0; i < n; ++i) {
      double exact = value(rng);
      reference.setFromDouble(i, exact);
      actual.setFromDouble(i, exact * factor);
    }
  }
};

TEST(Compare, AUniformErrorOfTwoUnitsFailsTheElements) {
  double u = rt::unitRoundoff(rt::DType::BF16);
  rt::Tolerance tolerance{1, /*relative=*/1e-6}; // an f32 computation's
  RoundedPair twoUnits(1000, 1 + 4 * u, 1);
  rt::Comparison c =
      rt::compareTensors(twoUnits.actual, twoUnits.reference, tolerance);
  EXPECT_FALSE(c.elementsPass) << c.worstRatio;
  RoundedPair exact(1000, 1, 1);
  EXPECT_TRUE(
      rt::compareTensors(exact.actual, exact.reference, tolerance).pass());
}

TEST(Compare, ASixteenthOfAUnitEverywhereFailsTheMean) {
  double u = rt::unitRoundoff(rt::DType::BF16);
  rt::Tolerance tolerance{1, 1e-6};
  RoundedPair biased(32768, 1 + u / 16, 2);
  rt::Comparison c =
      rt::compareTensors(biased.actual, biased.reference, tolerance);
  EXPECT_TRUE(c.elementsPass) << "each element is within a unit";
  EXPECT_FALSE(c.meanPasses) << c.meanError << " within " << c.meanErrorBound;
  EXPECT_NEAR(c.meanError, u / 16, u / 64);
}

TEST(Compare, UnbiasedRoundingPassesTheMean) {
  // Values computed with independent errors of up to 1e-5 relative (much
  // more than an f32 computation's), then rounded to bf16: some elements
  // round the other way, as many up as down.
  rt::Tolerance tolerance{1, 1e-5};
  for (unsigned seed = 0; seed < 20; ++seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-2, 2), noise(-1e-5, 1e-5);
    auto reference = rt::HostTensor::zeros(rt::DType::BF16, {65536});
    auto actual = rt::HostTensor::zeros(rt::DType::BF16, {65536});
    for (size_t i = 0; i < 65536; ++i) {
      double exact = value(rng);
      reference.setFromDouble(i, exact);
      actual.setFromDouble(i, exact * (1 + noise(rng)));
    }
    rt::Comparison c = rt::compareTensors(actual, reference, tolerance);
    EXPECT_TRUE(c.pass()) << "seed " << seed << ": mean error " << c.meanError
                          << " within " << c.meanErrorBound;
  }
}

/// The example rmsnorm at T x D, its drawn inputs and the interpreter's
/// output.
class Rmsnorm : public ::testing::TestWithParam<int64_t> {
protected:
  void SetUp() override {
    registerPipelineDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    sizes = {{"T", kRows}, {"D", GetParam()}};
    KernelSource source{NAUTILUS_EXAMPLES "/norms.tensor", "rmsnorm", sizes};
    ASSERT_EQ(
        loadKernel(source, *context, sourceMgr, /*bindShape=*/true, loaded), 0);
    kernel = *loaded.module->getOps<alg::KernelOp>().begin();
    KernelSignature sig = getSignature(kernel);
    for (auto [i, p] : llvm::enumerate(sig.inputs))
      inputs.push_back(drawInput(p, sig, sizes, /*seed=*/5, i));
    ASSERT_EQ(interpretKernel(kernel, sizes, inputs, expected), "");
  }

  /// The rmsnorm as the CPU computes it, in f32, but dividing the sum of
  /// squares by `divisor`.
  rt::HostTensor computeInF32(int64_t divisor) const {
    int64_t d = GetParam();
    const rt::HostTensor &x = inputs[0], &g = inputs[1];
    auto y = rt::HostTensor::zeros(rt::DType::BF16, {kRows, d});
    for (int64_t t = 0; t < kRows; ++t) {
      float sum = 0;
      for (int64_t i = 0; i < d; ++i) {
        float v = float(x.getAsDouble(t * d + i));
        sum += v * v;
      }
      float r = 1.0f / std::sqrt(sum / float(divisor) + 1e-6f);
      for (int64_t i = 0; i < d; ++i)
        y.setFromDouble(t * d + i, float(float(x.getAsDouble(t * d + i)) * r) *
                                       float(g.getAsDouble(i)));
    }
    return y;
  }

  rt::Comparison compare(const rt::HostTensor &y, CheckPath path) {
    rt::Tolerance tolerance =
        checkTolerance(roundingSources(kernel, sizes, std::nullopt), path);
    return rt::compareTensors(y, expected[0], tolerance);
  }

  static constexpr int64_t kRows = 8;
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  alg::KernelOp kernel;
  SizeValues sizes;
  std::vector<rt::HostTensor> inputs, expected;
};

TEST_P(Rmsnorm, ComputedRightPasses) {
  for (CheckPath path : {CheckPath::Host, CheckPath::Emulator}) {
    rt::Comparison c = compare(computeInF32(GetParam()), path);
    EXPECT_TRUE(c.pass()) << "worst element at " << c.worstRatio
                          << ", mean error " << c.meanError << " within "
                          << c.meanErrorBound;
  }
}

TEST_P(Rmsnorm, DividingByDPlusTwoFails) {
  for (CheckPath path : {CheckPath::Host, CheckPath::Emulator}) {
    rt::Comparison c = compare(computeInF32(GetParam() + 2), path);
    EXPECT_FALSE(c.pass()) << "worst element at " << c.worstRatio
                           << ", mean error " << c.meanError << " within "
                           << c.meanErrorBound;
    // The factor found is the one applied: sqrt((D + 2) / D).
    double factor = std::sqrt(double(GetParam() + 2) / double(GetParam()));
    EXPECT_NEAR(c.meanError, factor - 1, (factor - 1) / 4);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Rmsnorm, ::testing::Values(64, 512, 4096));

TEST(CheckTolerance, EachPathScalesItsSources) {
  RoundingSources gemm; // f32 sums of 4096 f16 products
  gemm.accumulation = rt::unitRoundoff(rt::DType::F32) * 64;
  gemm.truncation = rt::unitRoundoff(rt::DType::F32) * 4096;
  gemm.arithmetic = rt::unitRoundoff(rt::DType::F32);
  rt::Tolerance host = checkTolerance(gemm, CheckPath::Host);
  rt::Tolerance gpu = checkTolerance(gemm, CheckPath::Gpu);
  EXPECT_EQ(host.ulps, 1);
  EXPECT_DOUBLE_EQ(host.relative, (3 * 64 + 8) * std::ldexp(1.0, -24));
  EXPECT_GT(gpu.relative, 2 * host.relative) << "tensor cores truncate";
  RoundingSources attention = gemm; // P rounded to bf16 for tensor cores
  attention.narrowed = rt::unitRoundoff(rt::DType::BF16);
  EXPECT_GT(checkTolerance(attention, CheckPath::Emulator).relative,
            100 * host.relative);
}

} // namespace
