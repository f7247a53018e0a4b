//===- ReferenceCudaTest.cpp - The CUDA C++ reference kernels -------------===//
//
// The generator's refusals (each names what it does not support), the shape
// of what it generates, its f16 and bf16 conversions against the runtime's
// (compiled for the host), and NVRTC: absent (a clear error naming what was
// tried) and, where installed, present.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/AlgEmitter.h"
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/Nvrtc.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/ReferenceCuda.h"
#include "compiler/Pipeline/ReferenceHost.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstdlib>
#include "test/unit/HostTensorUtil.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

struct Kernel {
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string messages;

  Kernel() {
    registerPipelineDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }
  /// Alg IR, parsed.
  alg::KernelOp parse(llvm::StringRef ir) {
    module = mlir::parseSourceString<mlir::ModuleOp>(ir, context.get());
    return module ? *module->getOps<alg::KernelOp>().begin() : nullptr;
  }
  /// A .tensor kernel, through the frontend.
  alg::KernelOp compile(llvm::StringRef text) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.tensor"),
        llvm::SMLoc());
    llvm::raw_string_ostream os(messages);
    module = frontend::importTensorFile(sourceMgr, *context, os);
    return module ? *module->getOps<alg::KernelOp>().begin() : nullptr;
  }
};

/// A kernel Y[n] = OP(X[n]) over f32 in alg IR, OP being `body` (one op
/// from %x to %y, of type `type`).
std::string elementwise(llvm::StringRef body, llvm::StringRef type = "f32") {
  return (R"(alg.kernel @k sizes ["N"] {
  %in = alg.input "X" dims ["N"] : tensor<?xf32>
  %out = alg.define "Y" dims ["N"] : tensor<?x)" + type + R"(> {
  ^bb0(%n: index):
    %x = alg.load %in[affine_map<(d0)[s0] -> (d0)>] : tensor<?xf32> -> f32
    )" + body + R"(
    alg.yield %y : )" + type + R"(
  }
  alg.return %out : tensor<?x)" + type + R"(>
})").str();
}

/// What the generator says of the alg IR `ir` (which must parse); nothing
/// is generated when it refuses.
std::string refusal(llvm::StringRef ir) {
  Kernel k;
  auto kernel = k.parse(ir);
  if (!kernel)
    return "(the test's IR does not parse)";
  ReferenceProgram program;
  std::string error = generateReferenceCuda(kernel, program);
  if (!error.empty() && (!program.source.empty() || !program.launches.empty()))
    return "(a refusal left a program behind)";
  return error;
}

TEST(ReferenceCuda, RefusesAnOpItDoesNotSupportNamingIt) {
  EXPECT_EQ(refusal(elementwise("%y = math.sin %x : f32")),
            "in 'Y': the reference kernel does not support 'math.sin'");
}

TEST(ReferenceCuda, RefusesATypeItDoesNotSupport) {
  EXPECT_EQ(refusal(elementwise("%y = arith.truncf %x : f32 to f8E4M3FN",
                                "f8E4M3FN")),
            "the reference kernel does not support 'Y' of type "
            "tensor<?xf8E4M3FN>");
}

TEST(ReferenceCuda, RefusesAValueOfATypeItDoesNotSupport) {
  EXPECT_EQ(refusal(elementwise("%i = arith.fptosi %x : f32 to i16\n"
                                "    %y = arith.sitofp %i : i16 to f32")),
            "in 'Y': the reference kernel does not support values of type i16 "
            "(from 'arith.fptosi')");
}

TEST(ReferenceCuda, RefusesAStreamedReduction) {
  EXPECT_EQ(refusal(R"(alg.kernel @s sizes ["R", "C"] {
  %x = alg.input "X" dims ["R", "C"] : tensor<?x?xf32>
  %y = alg.online_reduce "Y" dims ["R"] over ["C"] accumulators ["max", "sum"] : tensor<?xf32> body {
  ^bb0(%r: index, %c: index, %mx: f32):
    %v = alg.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : tensor<?x?xf32> -> f32
    %t = arith.subf %v, %mx : f32
    %p = math.exp %t : f32
    alg.yield %v, %p : f32, f32
  } epilogue {
  ^bb0(%r: index, %m: f32, %l: f32):
    alg.yield %l : f32
  } repairs {
  ^bb0(%old: f32, %new: f32):
    %d = arith.subf %old, %new : f32
    %f = math.exp %d : f32
    alg.yield %f : f32
  }
  alg.return %y : tensor<?xf32>
})"),
            "the reference kernel does not support 'alg.online_reduce' "
            "(generate it from the alg IR before the alg rewrites)");
}

TEST(ReferenceCuda, OneKernelADefinitionInLaunchOrder) {
  Kernel k;
  auto kernel = k.compile(
      "kernel softmax(X: f32[R, C]) -> (Y: bf16[R, C]) {\n"
      "  Mx[r] = max[c](X[r, c])\n"
      "  E[r, c] = exp(X[r, c] - Mx[r])\n"
      "  L[r] = sum[c](E[r, c])\n"
      "  Y[r, c] = bf16(E[r, c] / L[r])\n"
      "}");
  ASSERT_TRUE(kernel) << k.messages;
  ReferenceProgram p;
  ASSERT_EQ(generateReferenceCuda(kernel, p), "");
  ASSERT_EQ(p.buffers.size(), 5u);
  EXPECT_EQ(p.buffers[0].role, ReferenceBuffer::Role::Input);
  EXPECT_EQ(p.buffers[1].role, ReferenceBuffer::Role::Intermediate);
  EXPECT_EQ(p.buffers[4].role, ReferenceBuffer::Role::Output);
  EXPECT_EQ(p.buffers[4].dtype, rt::DType::BF16);
  EXPECT_EQ(p.outputs, std::vector<unsigned>{4});
  EXPECT_EQ(p.sizes, (std::vector<std::string>{"R", "C"}));
  ASSERT_EQ(p.launches.size(), 4u);
  EXPECT_EQ(p.launches[0].kernel, "softmax_0_Mx");
  EXPECT_EQ(p.launches[0].buffers, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(p.launches[3].kernel, "softmax_3_Y");
  EXPECT_EQ(p.launches[3].buffers, (std::vector<unsigned>{2, 3, 4}));
  // One thread an element of what each writes.
  SizeValues sizes = {{"R", 3}, {"C", 300}};
  EXPECT_EQ(p.blocks(p.launches[0], sizes), 1);
  EXPECT_EQ(p.blocks(p.launches[3], sizes), (900 + 255) / 256);
  EXPECT_NE(p.source.find("extern \"C\" __global__ void softmax_3_Y(\n"
                          "    const float *__restrict__ b_E,\n"
                          "    const float *__restrict__ b_L,\n"
                          "    unsigned short *__restrict__ b_Y,\n"
                          "    long long s_R,\n    long long s_C) {"),
            std::string::npos)
      << p.source;
  EXPECT_NE(p.source.find("extern \"C\" void softmax_3_Y_host(void **params"),
            std::string::npos);
}

TEST(ReferenceCuda, ArchitectureOfAChip) {
  EXPECT_EQ(referenceArchitecture("sm_90a"), "--gpu-architecture=compute_90");
  EXPECT_EQ(referenceArchitecture("sm_80"), "--gpu-architecture=compute_80");
}

/// Runs the reference of `kernel`, compiled for the host, on `inputs`;
/// returns "" or the error.
std::string runOnHost(alg::KernelOp kernel, const SizeValues &sizes,
                      const std::vector<rt::HostTensor> &inputs,
                      std::vector<rt::HostTensor> &outputs) {
  std::string error;
  auto executor = ReferenceHostExecutor::create(kernel, error);
  return executor ? executor->run(sizes, inputs, outputs) : error;
}

/// The same for the .tensor kernel `source`.
std::string runOnHost(llvm::StringRef source, const SizeValues &sizes,
                      const std::vector<rt::HostTensor> &inputs,
                      std::vector<rt::HostTensor> &outputs) {
  Kernel k;
  auto kernel = k.compile(source);
  return kernel ? runOnHost(kernel, sizes, inputs, outputs) : k.messages;
}

/// What the frontend never makes and the rewrites do: a reduction nested in
/// a body (alg.reduce), an index as a value (alg.apply), a size, a constant
/// and a scalar input from outside the regions, an epilogue. The reference
/// computes exactly what the interpreter does.
TEST(ReferenceCuda, NestedReductionMatchesTheInterpreter) {
  if (!llvm::sys::findProgramByName("c++"))
    GTEST_SKIP() << "no host C++ compiler";
  Kernel k;
  auto kernel = k.parse(R"(alg.kernel @nested sizes ["M", "N", "K"] {
  %a = alg.input "A" dims ["M", "K"] : tensor<?x?xf32>
  %b = alg.input "B" dims ["K", "N"] : tensor<?x?xbf16>
  %s = alg.input "s" dims [] : f32
  %two = arith.constant 2.5 : f32
  %y = alg.define "Y" dims ["M"] reduce max over ["N"] : tensor<?xf32> {
  ^bb0(%m: index, %n: index):
    %dot = alg.reduce sum over ["K"] : f32 {
    ^bb0(%m2: index, %n2: index, %k: index):
      %x = alg.load %a[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : tensor<?x?xf32> -> f32
      %w = alg.load %b[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : tensor<?x?xbf16> -> bf16
      %we = arith.extf %w : bf16 to f32
      %p = arith.mulf %x, %we : f32
      alg.yield %p : f32
    }
    %i = alg.apply affine_map<(d0, d1)[s0, s1, s2] -> ((d0 * s1 + d1) mod 7)>
    %size = alg.size "K"
    %j = arith.addi %i, %size : index
    %ii = arith.index_cast %j : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %t = arith.mulf %dot, %two : f32
    %u = arith.subf %t, %f : f32
    alg.yield %u : f32
  } epilogue {
  ^bb0(%m: index, %mx: f32):
    %r = arith.mulf %mx, %s : f32
    alg.yield %r : f32
  }
  alg.return %y : tensor<?xf32>
})");
  ASSERT_TRUE(kernel);
  SizeValues sizes = {{"M", 5}, {"N", 6}, {"K", 7}};
  rt::HostTensor a = rt::HostTensor::zeros(rt::DType::F32, {5, 7});
  rt::HostTensor b = rt::HostTensor::zeros(rt::DType::BF16, {7, 6});
  rt::HostTensor s = rt::HostTensor::zeros(rt::DType::F32, {});
  for (size_t i = 0; i < a.numElements(); ++i)
    a.setFromDouble(i, std::sin(double(i)) / 3);
  for (size_t i = 0; i < b.numElements(); ++i)
    b.setFromDouble(i, std::cos(double(i)));
  s.setFromDouble(0, -0.75);
  std::vector<rt::HostTensor> expected, got;
  ASSERT_EQ(interpretKernel(kernel, sizes, {a, b, s}, expected), "");
  ASSERT_EQ(runOnHost(kernel, sizes, {a, b, s}, got), "");
  ASSERT_EQ(got.size(), 1u);
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(got[0].getAsDouble(i), expected[0].getAsDouble(i)) << i;
}

/// The generated f16 and bf16 conversions, compiled for the host, round
/// exactly as the runtime's (runtime/DType.h): ties to even, subnormals,
/// overflow to infinity, NaN.
TEST(ReferenceCuda, HalfConversionsMatchTheRuntime) {
  if (!llvm::sys::findProgramByName("c++"))
    GTEST_SKIP() << "no host C++ compiler";
  std::vector<double> values = {
      0.0, -0.0, 1.0, -2.5, 1.0 / 3, 65504, 65519.99, 65520, 1e6, -1e6,
      std::ldexp(1.0, -14), std::ldexp(1.0, -24), std::ldexp(1.0, -25),
      std::ldexp(1.5, -25), std::ldexp(1.0, -126), std::ldexp(1.0, -133),
      std::ldexp(3.0, -140), 3.3895313892515355e38, 3.4e38, 1 + std::ldexp(1.0, -11),
      1 + std::ldexp(3.0, -11), 1 + std::ldexp(1.0, -8), 1 + std::ldexp(3.0, -8),
      INFINITY, -INFINITY, NAN, 0.1, 1e-30, -7.0e-6};
  rt::HostTensor x =
      test::tensorOf(rt::DType::F64, {int64_t(values.size())}, values);
  std::vector<rt::HostTensor> out;
  ASSERT_EQ(runOnHost("kernel h(X: f64[N]) -> (A: f16[N], B: bf16[N]) {\n"
                      "  A[n] = f16(X[n])\n  B[n] = bf16(X[n])\n}",
                      {{"N", int64_t(values.size())}}, {x}, out),
            "");
  ASSERT_EQ(out.size(), 2u);
  for (size_t i = 0; i < values.size(); ++i) {
    auto bits = [&](const rt::HostTensor &t) {
      return static_cast<const uint16_t *>(t.data())[i];
    };
    EXPECT_EQ(bits(out[0]), rt::doubleToF16Bits(values[i]))
        << "f16 of " << values[i];
    EXPECT_EQ(bits(out[1]), rt::doubleToBF16Bits(values[i]))
        << "bf16 of " << values[i];
  }
}

/// Every f16 and bf16 encoding the generated code reads decodes to the
/// runtime's value.
TEST(ReferenceCuda, HalfReadsMatchTheRuntime) {
  if (!llvm::sys::findProgramByName("c++"))
    GTEST_SKIP() << "no host C++ compiler";
  rt::HostTensor a = rt::HostTensor::zeros(rt::DType::F16, {65536});
  rt::HostTensor b = rt::HostTensor::zeros(rt::DType::BF16, {65536});
  for (unsigned i = 0; i < 65536; ++i) {
    static_cast<uint16_t *>(a.data())[i] = uint16_t(i);
    static_cast<uint16_t *>(b.data())[i] = uint16_t(i);
  }
  std::vector<rt::HostTensor> out;
  ASSERT_EQ(runOnHost("kernel w(A: f16[N], B: bf16[N]) -> "
                      "(C: f64[N], D: f64[N]) {\n"
                      "  C[n] = f64(A[n])\n  D[n] = f64(B[n])\n}",
                      {{"N", 65536}}, {a, b}, out),
            "");
  unsigned wrong = 0;
  for (unsigned i = 0; i < 65536; ++i) {
    double f16 = rt::f16BitsToFloat(uint16_t(i)), bf16 = rt::bf16BitsToFloat(uint16_t(i));
    double c = out[0].getAsDouble(i), d = out[1].getAsDouble(i);
    bool same = (std::isnan(f16) ? std::isnan(c) : c == f16 && std::signbit(c) == std::signbit(f16)) &&
                (std::isnan(bf16) ? std::isnan(d) : d == bf16 && std::signbit(d) == std::signbit(bf16));
    if (!same && wrong++ < 5)
      ADD_FAILURE() << "encoding " << i << ": " << c << " and " << d
                    << ", expected " << f16 << " and " << bf16;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(Nvrtc, AbsentIsAnErrorNamingWhatWasTried) {
  NvrtcResult result =
      compileCudaToPtx("extern \"C\" __global__ void k() {}", "k.cu", {},
                       {"/nonexistent/libnvrtc.so", "/nonexistent/lib64/libnvrtc.so.13"});
  EXPECT_FALSE(result.succeeded());
  EXPECT_TRUE(result.unavailable);
  EXPECT_TRUE(result.ptx.empty());
  EXPECT_EQ(result.error,
            "NVRTC (libnvrtc, from the CUDA toolkit) was not found: tried "
            "/nonexistent/libnvrtc.so, /nonexistent/lib64/libnvrtc.so.13 (set "
            "NAUTILUS_NVRTC to the library's path)");
}

TEST(Nvrtc, TheEnvironmentNamesTheLibrary) {
  const char *saved = std::getenv("NAUTILUS_NVRTC");
  std::string old = saved ? saved : "";
  setenv("NAUTILUS_NVRTC", "/opt/somewhere/libnvrtc.so", 1);
  EXPECT_EQ(nvrtcLibraries(),
            std::vector<std::string>{"/opt/somewhere/libnvrtc.so"});
  if (saved)
    setenv("NAUTILUS_NVRTC", old.c_str(), 1);
  else
    unsetenv("NAUTILUS_NVRTC");
  std::vector<std::string> defaults = nvrtcLibraries();
  ASSERT_FALSE(defaults.empty());
  EXPECT_EQ(defaults.front(), saved ? old : "libnvrtc.so");
}

/// Where NVRTC is installed: the reference of a GEMM compiles to PTX with
/// its kernel as an entry, and a broken source gives NVRTC's log.
TEST(Nvrtc, CompilesTheReferenceWhereInstalled) {
  NvrtcResult probe = compileCudaToPtx("", "probe.cu", {});
  if (probe.unavailable)
    GTEST_SKIP() << probe.error;
  Kernel k;
  auto kernel = k.compile("kernel gemm(A: f16[M, K], B: f16[K, N]) -> "
                          "(C: f32[M, N]) { C[m, n] = sum[k](A[m, k] * B[k, n]) }");
  ASSERT_TRUE(kernel) << k.messages;
  ReferenceProgram p;
  ASSERT_EQ(generateReferenceCuda(kernel, p), "");
  NvrtcResult ptx = compileCudaToPtx(
      p.source, "gemm.cu", {referenceArchitecture("sm_90a"), "--fmad=false"});
  ASSERT_TRUE(ptx.succeeded()) << ptx.error;
  EXPECT_NE(ptx.ptx.find(".entry gemm_0_C("), std::string::npos);
  EXPECT_NE(ptx.ptx.find(".target sm_90"), std::string::npos);

  NvrtcResult broken = compileCudaToPtx(
      "extern \"C\" __global__ void k() { undeclared(); }", "broken.cu",
      {"--gpu-architecture=compute_90"});
  EXPECT_FALSE(broken.succeeded());
  EXPECT_FALSE(broken.unavailable);
  EXPECT_NE(broken.error.find("broken.cu"), std::string::npos) << broken.error;
  EXPECT_NE(broken.error.find("undeclared"), std::string::npos) << broken.error;
}

} // namespace
