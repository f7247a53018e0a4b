//===- FuseReductionsTest.cpp - Streamed reductions keep their meaning ----===//
//
// alg-fuse-reductions against the reference semantics: each kernel, fused
// by a provider that streams and recomputes on the CPU, is interpreted (the
// interpreter runs a stream online, so the derived repairs are what is
// tested) and run on the CPU, and both match the interpreter on the
// unfused kernel.
//
//===----------------------------------------------------------------------===//
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/Check.h"
#include "compiler/Pipeline/CpuExecutor.h"
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/RandomInputs.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "compiler/Target/Target.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "runtime/Compare.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

/// The heuristics, but streaming and recomputing what streams read on
/// every target (the heuristics do not recompute on the CPU today).
class StreamEverything final : public DelegatingScheduleProvider {
public:
  StreamEverything() : DelegatingScheduleProvider(heuristicSchedules()) {}
  bool fusesReductions(const TargetInfo &, std::string &) override {
    return true;
  }
  bool recomputesInStreams(const TargetInfo &, std::string &) override {
    return true;
  }
  bool fusesSharedOperands(const TargetInfo &, std::string &) override {
    return true;
  }
};

struct Case {
  const char *file;
  const char *kernel;
  rt::SizeValues sizes;
  bool needsAlgebra = false; // streams only once a factor is moved out
  bool dynamic = false;      // sizes left unbound when compiling
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.kernel; }

class FuseReductions : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    registerPipelineDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    const Case &c = GetParam();
    KernelSource source{c.file, c.kernel, c.sizes};
    ASSERT_EQ(loadKernel(source, *context, sourceMgr,
                         /*bindShape=*/!c.dynamic,
                         loaded),
              0);
    reference = loaded.module->clone();
    alg::KernelOp kernel = *reference->getOps<alg::KernelOp>().begin();
    KernelSignature sig = getSignature(kernel);
    for (auto [i, p] : llvm::enumerate(sig.inputs))
      inputs.push_back(drawInput(p, sig, c.sizes, /*seed=*/7, i));
    ASSERT_EQ(interpretKernel(kernel, c.sizes, inputs, expected), "");
  }

  /// Each output of `outputs` within the --check tolerance of `expected`.
  void expectMatches(const std::vector<rt::HostTensor> &outputs) {
    alg::KernelOp kernel = *reference->getOps<alg::KernelOp>().begin();
    std::vector<OutputCheck> checks;
    rt::Tolerance tolerance =
        checkTolerance(roundingSources(kernel, GetParam().sizes, std::nullopt),
                       CheckPath::Host);
    ASSERT_EQ(checkOutputs(kernel, GetParam().sizes, inputs, outputs, tolerance,
                           checks),
              "");
    for (const OutputCheck &check : checks)
      EXPECT_TRUE(check.comparison.pass())
          << check.name << ": max abs error " << check.comparison.maxAbsError
          << ", worst element at " << check.comparison.worstRatio
          << " of its bound, mean error " << check.comparison.meanError
          << " of at most " << check.comparison.meanErrorBound;
  }

  /// Streams the kernel (after the algebraic rewrites, with `algebra`) and
  /// interprets the stream.
  void interpretStreamed(bool algebra) {
    mlir::ModuleOp module = *loaded.module;
    setModuleTarget(module, *getTarget("cpu", 1));
    mlir::PassManager pm(context.get());
    pm.addNestedPass<alg::KernelOp>(createAlgFuseElementwise());
    if (algebra) {
      pm.addNestedPass<alg::KernelOp>(createAlgFactorReductions());
      pm.addNestedPass<alg::KernelOp>(createAlgSinkScales());
      pm.addNestedPass<alg::KernelOp>(createAlgExpToExp2());
    }
    pm.addPass(createAlgFuseReductions(streams, /*explain=*/false));
    ASSERT_TRUE(mlir::succeeded(pm.run(module)));
    alg::KernelOp kernel = *module.getOps<alg::KernelOp>().begin();
    ASSERT_FALSE(kernel.getBody().getOps<alg::OnlineReduceOp>().empty())
        << "nothing was streamed";
    std::vector<rt::HostTensor> outputs;
    ASSERT_EQ(interpretKernel(kernel, GetParam().sizes, inputs, outputs), "");
    expectMatches(outputs);
  }

  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  mlir::OwningOpRef<mlir::ModuleOp> reference;
  std::vector<rt::HostTensor> inputs, expected;
  std::shared_ptr<ScheduleProvider> streams =
      std::make_shared<StreamEverything>();
};


TEST_P(FuseReductions, InterpretedStreamMatchesTheReference) {
  if (GetParam().needsAlgebra)
    GTEST_SKIP() << "streams only after alg-factor-reductions";
  interpretStreamed(/*algebra=*/false);
}

// With exp2 (an FMA in the exponent), scales sunk and factors moved out: the
// repairs derived from that form, interpreted.
TEST_P(FuseReductions, InterpretedStreamAfterTheAlgebraMatchesTheReference) {
  interpretStreamed(/*algebra=*/true);
}

TEST_P(FuseReductions, StreamOnTheCpuMatchesTheReference) {
  Compilation compilation(*loaded.module, *getTarget("cpu", 1), streams);
  ASSERT_TRUE(mlir::succeeded(compilation.lowerTo(Stage::HostLLVM)));
  std::string error;
  std::unique_ptr<CpuExecutor> cpu =
      CpuExecutor::create(*loaded.module, compilation.launchPlan(), error);
  ASSERT_TRUE(cpu) << error;
  std::vector<rt::HostTensor> outputs;
  ASSERT_EQ(cpu->run(GetParam().sizes, inputs, outputs), "");
  expectMatches(outputs);
}

const char *const kChains =
    NAUTILUS_SOURCE_ROOT "/test/Transforms/Inputs/reduction-chains.tensor";
const char *const kAlgebra =
    NAUTILUS_SOURCE_ROOT "/test/Transforms/Inputs/algebra.tensor";

INSTANTIATE_TEST_SUITE_P(
    Chains, FuseReductions,
    ::testing::Values(
        Case{NAUTILUS_EXAMPLES "/attention.tensor", "attention",
             {{"B", 1}, {"H", 2}, {"N", 13}, {"M", 37}, {"D", 16}}},
        Case{NAUTILUS_EXAMPLES "/attention.tensor", "attention_causal",
             {{"B", 1}, {"H", 2}, {"N", 13}, {"M", 37}, {"D", 16}}},
        Case{NAUTILUS_EXAMPLES "/attention.tensor", "attention_causal",
             {{"B", 1}, {"H", 1}, {"N", 21}, {"M", 9}, {"D", 8}}},
        Case{NAUTILUS_EXAMPLES "/attention.tensor", "attention_gqa",
             {{"B", 1}, {"H", 4}, {"G", 2}, {"N", 5}, {"M", 33}, {"D", 8}}},
        Case{NAUTILUS_EXAMPLES "/attention.tensor", "attention",
             {{"B", 2}, {"H", 1}, {"N", 1}, {"M", 300}, {"D", 16}}},
        Case{NAUTILUS_EXAMPLES "/norms.tensor", "softmax",
             {{"R", 7}, {"C", 131}}},
        Case{kChains, "logsumexp", {{"R", 7}, {"C", 131}}},
        Case{kChains, "two_softmaxes", {{"R", 5}, {"C", 40}}},
        Case{kChains, "min_leader", {{"R", 5}, {"C", 40}}},
        Case{kChains, "size_scaled", {{"R", 5}, {"C", 40}}},
        Case{kChains, "attention_sink", {{"N", 9}, {"M", 23}, {"D", 8}}},
        Case{kChains, "attention_window", {{"N", 19}, {"M", 23}, {"D", 8}}},
        Case{kAlgebra, "softmax_matmul", {{"N", 9}, {"M", 23}, {"D", 8}}, true},
        Case{kAlgebra, "attention_softcap", {{"N", 9}, {"M", 23}, {"D", 8}}},
        Case{kAlgebra, "attention_masked", {{"N", 9}, {"M", 23}, {"D", 8}}},
        // Coefficients of unbound sizes (rsqrt(D) log2 e, log2 e / C) are
        // computed in the kernel, in the terms and in the repairs.
        Case{NAUTILUS_EXAMPLES "/attention.tensor", "attention",
             {{"B", 1}, {"H", 2}, {"N", 13}, {"M", 37}, {"D", 16}}, false,
             true},
        Case{kChains, "size_scaled", {{"R", 5}, {"C", 40}}, false, true},
        // Led by a mean (Welford/Chan): additive repairs, in f64; layernorm
        // stores its mean beside its variance (Y reads it too).
        Case{NAUTILUS_EXAMPLES "/norms.tensor", "layernorm",
             {{"T", 7}, {"D", 131}}},
        Case{kChains, "variance", {{"R", 5}, {"C", 40}}, false, true},
        Case{kChains, "shifted_square", {{"R", 5}, {"C", 40}}},
        Case{kChains, "mean_product", {{"R", 5}, {"C", 40}}},
        Case{kChains, "variance_bf16", {{"R", 5}, {"C", 40}}}),
    [](const ::testing::TestParamInfo<Case> &info) {
      return std::string(info.param.kernel) + "_" +
             std::to_string(info.index);
    });

} // namespace
