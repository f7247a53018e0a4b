//===- EmulatorBrokenKernelsTest.cpp - Nautilus's kernels, one sync less --===//
//
// Kernels the compiler emits, with one synchronisation deleted from their
// LLVM IR by hand, as a reviewer would try: the emulator must report the
// race in every fibre order, and the kernels as emitted must pass in
// every order.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/EmuExecutor.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/RandomInputs.h"
#include "compiler/Target/Target.h"
#include "dialects/Alg/KernelSignature.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <gtest/gtest.h>

using namespace nautilus;

namespace {

const emu::FibreOrder kOrders[] = {{emu::FibreOrder::Ascending, 0},
                                   {emu::FibreOrder::Descending, 0},
                                   {emu::FibreOrder::Random, 1},
                                   {emu::FibreOrder::Random, 2}};

/// Sets an environment variable for the life of the object.
class ScopedEnvironment {
public:
  ScopedEnvironment(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (previous)
      setenv(name, previous->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> previous;
};

/// A kernel of an example compiled for a GPU target, its kernels' LLVM IR
/// as text, and its random inputs.
struct CompiledExample {
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  std::unique_ptr<Compilation> compilation;
  std::string kernelsIR;
  rt::SizeValues sizes;
  std::vector<rt::HostTensor> inputs;

  std::string compile(const KernelSource &source, const TargetInfo &target) {
    registerPipelineDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    if (loadKernel(source, *context, sourceMgr, /*bindShape=*/true,
                   loaded) != 0)
      return "the example does not load";
    sizes = source.shape;
    alg::KernelOp kernel = *loaded.module->getOps<alg::KernelOp>().begin();
    KernelSignature sig = getSignature(kernel);
    for (auto [i, p] : llvm::enumerate(sig.inputs))
      inputs.push_back(drawInput(p, sig, sizes, /*seed=*/3, i));
    compilation = std::make_unique<Compilation>(*loaded.module, target);
    if (mlir::failed(compilation->lowerTo(Stage::GpuLLVM)))
      return compilation->failureMessage();
    llvm::LLVMContext llvmContext;
    std::string error;
    std::unique_ptr<llvm::Module> kernels = EmuExecutor::kernelsAsLLVM(
        compilation->module(), llvmContext, error);
    if (!kernels)
      return error;
    llvm::raw_string_ostream os(kernelsIR);
    kernels->print(os, nullptr);
    return "";
  }

  /// Runs `ir` (kernelsIR, perhaps edited) with the compilation's launch
  /// plan in fibre order `order`; returns the run's error.
  std::string run(const std::string &ir, emu::FibreOrder order) {
    auto llvmContext = std::make_unique<llvm::LLVMContext>();
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> kernels =
        llvm::parseAssemblyString(ir, diagnostic, *llvmContext);
    if (!kernels)
      return "the edited IR does not parse: " +
             diagnostic.getMessage().str();
    std::string error;
    std::unique_ptr<EmuExecutor> emulator =
        EmuExecutor::create(std::move(kernels), std::move(llvmContext),
                            compilation->launchPlan(), error);
    if (!emulator)
      return error;
    emulator->setFibreOrder(order);
    std::vector<rt::HostTensor> outputs;
    return emulator->run(sizes, inputs, outputs);
  }
};

std::string orderName(emu::FibreOrder order) {
  return order.kind == emu::FibreOrder::Ascending    ? "ascending"
         : order.kind == emu::FibreOrder::Descending ? "descending"
                                                     : "random:" +
                                                           std::to_string(
                                                               order.seed);
}

// The sm_90 persistent GEMM (a producer warpgroup loading with TMA, two
// consumer warpgroups with wgmma) stages each tile's result in shared
// memory between two `bar.sync 1, 256` of the consumers. Without the
// second, one warpgroup writes the next tile's staging while the other
// still reads this tile's: a race on the GPU, which the emulator reports
// in every fibre order (one block takes all four tiles in turn).
// Without the first, the consumers read the staging buffer back before the
// other warpgroup has written its half.
TEST(EmulatorOnNautilus, PersistentGemmWithoutItsStagingBarriersRaces) {
  ScopedEnvironment oneBlock("NAUTILUS_EMU_MULTIPROCESSORS", "1");
  CompiledExample gemm;
  ASSERT_EQ(gemm.compile({NAUTILUS_EXAMPLES "/gemm.tensor",
                          "gemm_bias_gelu",
                          {{"M", 256}, {"N", 256}, {"K", 256}}},
                         *getTarget("sm_90", 4)),
            "");
  const std::string barrier =
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 256)\n";
  size_t first = gemm.kernelsIR.find(barrier);
  size_t trailing = gemm.kernelsIR.rfind(barrier);
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(first, trailing) << "the consumers have one barrier, not two";
  for (size_t at : {trailing, first}) {
    std::string broken = gemm.kernelsIR;
    broken.erase(at, barrier.size());
    for (emu::FibreOrder order : kOrders) {
      std::string error = gemm.run(broken, order);
      EXPECT_NE(error.find("kernel 'gemm_bias_gelu_C': shared-memory race ("),
                std::string::npos)
          << (at == first ? "first" : "trailing") << " barrier deleted, "
          << orderName(order) << ": " << error;
    }
  }
  for (emu::FibreOrder order : kOrders)
    EXPECT_EQ(gemm.run(gemm.kernelsIR, order), "") << orderName(order);
}

// The sm_80 GEMM's main loop waits for its cp.async group and meets at a
// barrier before the threads read the stage with ldmatrix. Without the
// barrier they read bytes other threads' copies wrote with nothing
// ordering the two (a race); without the wait, bytes a copy in flight
// writes (an async hazard, or a race with the copy's landing).
TEST(EmulatorOnNautilus, PipelinedGemmWithoutItsWaitOrBarrierRaces) {
  CompiledExample gemm;
  ASSERT_EQ(gemm.compile({NAUTILUS_EXAMPLES "/gemm.tensor",
                          "gemm",
                          {{"M", 128}, {"N", 128}, {"K", 256}}},
                         *getTarget("sm_80", 1)),
            "");
  const std::string wait = "  call void @llvm.nvvm.cp.async.wait.group(i32 1)\n";
  const std::string barrier =
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n";
  size_t waitAt = gemm.kernelsIR.find(wait + barrier);
  ASSERT_NE(waitAt, std::string::npos) << "no wait_group 1 then bar.sync";
  for (const std::string *deleted : {&wait, &barrier}) {
    std::string broken = gemm.kernelsIR;
    broken.erase(waitAt + (deleted == &wait ? 0 : wait.size()),
                 deleted->size());
    for (emu::FibreOrder order : kOrders) {
      std::string error = gemm.run(broken, order);
      bool caught = error.find("kernel 'gemm_C': shared-memory race (") == 0 ||
                    (deleted == &wait &&
                     error.find("kernel 'gemm_C': async hazard: ") == 0);
      EXPECT_TRUE(caught) << (deleted == &wait ? "wait" : "barrier")
                          << " deleted, " << orderName(order) << ": "
                          << error;
    }
  }
  for (emu::FibreOrder order : kOrders)
    EXPECT_EQ(gemm.run(gemm.kernelsIR, order), "") << orderName(order);
}

} // namespace
