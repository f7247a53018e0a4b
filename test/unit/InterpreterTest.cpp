//===- InterpreterTest.cpp - The reference interpreter --------------------===//
#include "compiler/Frontend/AlgEmitter.h"
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/LoadKernel.h"

#include "mlir/IR/MLIRContext.h"
#include "test/unit/HostTensorUtil.h"
#include "test/unit/KernelText.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

using Compiled = test::KernelText;

using test::tensorOf;

TEST(Interpreter, MatrixProduct) {
  Compiled c;
  auto kernel = c.compile("kernel g(A: f32[M, K], B: f32[K, N]) -> C: f32[M, N] "
                          "{ C[m, n] = sum[k](A[m, k] * B[k, n]) }");
  ASSERT_TRUE(kernel) << c.messages;
  std::vector<rt::HostTensor> in = {
      tensorOf(rt::DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}),
      tensorOf(rt::DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12})};
  std::vector<rt::HostTensor> out;
  ASSERT_EQ(interpretKernel(kernel, {{"M", 2}, {"K", 3}, {"N", 2}}, in, out),
            "");
  std::vector<double> want = {58, 64, 139, 154};
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(out[0].getAsDouble(i), want[i]);
}

TEST(Interpreter, SoftmaxRowsSumToOne) {
  Compiled c;
  auto kernel = c.compile(
      "kernel s(X: f32[R, C]) -> Y: f32[R, C] {\n"
      "  Mx[r] = max[c](X[r, c])\n  E[r, c] = exp(X[r, c] - Mx[r])\n"
      "  L[r] = sum[c](E[r, c])\n  Y[r, c] = E[r, c] / L[r]\n}");
  ASSERT_TRUE(kernel) << c.messages;
  std::vector<rt::HostTensor> in = {
      tensorOf(rt::DType::F32, {2, 3}, {1, 2, 3, -1, 0, 1000})};
  std::vector<rt::HostTensor> out;
  ASSERT_EQ(interpretKernel(kernel, {{"R", 2}, {"C", 3}}, in, out), "");
  for (int r = 0; r < 2; ++r) {
    double sum = 0;
    for (int col = 0; col < 3; ++col)
      sum += out[0].getAsDouble(r * 3 + col);
    EXPECT_NEAR(sum, 1.0, 1e-6);
  }
  EXPECT_NEAR(out[0].getAsDouble(5), 1.0, 1e-6); // no overflow at 1000
}

TEST(Interpreter, GatherAndOutOfRangeRead) {
  Compiled c;
  auto kernel = c.compile("kernel g(W: f32[E], ids: i32[T]) -> Y: f32[T] "
                          "{ Y[t] = W[ids[t]] }");
  ASSERT_TRUE(kernel) << c.messages;
  std::vector<rt::HostTensor> in = {
      tensorOf(rt::DType::F32, {3}, {10, 20, 30}),
      tensorOf(rt::DType::I32, {2}, {2, 0})};
  std::vector<rt::HostTensor> out;
  ASSERT_EQ(interpretKernel(kernel, {{"E", 3}, {"T", 2}}, in, out), "");
  EXPECT_EQ(out[0].getAsDouble(0), 30);
  EXPECT_EQ(out[0].getAsDouble(1), 10);
  in[1].setFromInt64(0, 3);
  std::string error = interpretKernel(kernel, {{"E", 3}, {"T", 2}}, in, out);
  EXPECT_NE(error.find("out-of-range read W[3]"), std::string::npos) << error;
}

TEST(Interpreter, RequirementsNameTheValues) {
  Compiled c;
  auto kernel = c.compile("kernel g(A: f32[H], B: f32[G]) -> Y: f32[H] "
                          "{ require H % G == 0; Y[h] = A[h] }");
  ASSERT_TRUE(kernel) << c.messages;
  EXPECT_EQ(checkRequirements(kernel, {{"H", 8}, {"G", 4}}), "");
  EXPECT_EQ(checkRequirements(kernel, {{"H", 6}, {"G", 4}}),
            "requirement 'H % G == 0' does not hold (G=4, H=6)");
}

} // namespace
