//===- CpuExecutor.cpp ----------------------------------------------------===//
#include "compiler/Pipeline/CpuExecutor.h"
#include "runtime/HostPrograms.h"
#include "runtime/LaunchBuffers.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace nautilus;

CpuExecutor::~CpuExecutor() = default;

std::unique_ptr<CpuExecutor> CpuExecutor::create(ModuleOp module,
                                                 rt::LaunchPlan plan,
                                                 std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto transformer = makeOptimizingTransformer(3, 0, nullptr);
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableObjectDump = true;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine) {
    error = "cannot JIT-compile the host code: " +
            llvm::toString(engine.takeError());
    return nullptr;
  }
  std::unique_ptr<CpuExecutor> executor(new CpuExecutor());
  executor->engine = std::move(*engine);
  executor->plan = std::move(plan);
  return executor;
}

std::string CpuExecutor::dumpObject(const std::string &path) {
  engine->dumpToObjectFile(path);
  return "";
}

std::string CpuExecutor::prepareLaunch(
    const rt::SizeValues &sizes, const std::vector<rt::HostTensor> &inputs,
    LaunchBuffers &buffers, std::vector<rt::PackedProgram> &programs,
    bool *kernelFault) {
  if (std::string e = buffers.allocate(plan, sizes, inputs); !e.empty())
    return e;
  for (const rt::ProgramDesc &program : plan.programs) {
    auto entry = engine->lookupPacked(program.name);
    if (!entry) {
      if (kernelFault)
        *kernelFault = true;
      return "launch of '" + program.name +
             "' failed: " + llvm::toString(entry.takeError());
    }
    programs.push_back(*entry);
  }
  return "";
}

std::string CpuExecutor::run(const rt::SizeValues &kernelSizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs,
                             unsigned threads, bool *kernelFault) {
  const rt::SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  LaunchBuffers buffers;
  std::vector<rt::PackedProgram> programs;
  if (std::string e =
          prepareLaunch(sizes, inputs, buffers, programs, kernelFault);
      !e.empty())
    return e;
  rt::runHostPrograms(plan, sizes, buffers.packedArgs(), programs, threads);
  outputs = buffers.takeOutputs();
  return "";
}

std::optional<rt::Timing>
CpuExecutor::timeLaunches(const rt::SizeValues &kernelSizes,
                          const std::vector<rt::HostTensor> &inputs,
                          double budgetSeconds, std::string &error) {
  const rt::SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  LaunchBuffers buffers;
  std::vector<rt::PackedProgram> programs;
  if (std::string e = prepareLaunch(sizes, inputs, buffers, programs, nullptr);
      !e.empty())
    return error = e, std::nullopt;
  // (Each launch writes what it reads: the plan's outputs and workspaces
  // start as garbage, so launching again over them is a launch like the
  // first.)
  return rt::timeRuns(
      [&] { rt::runHostPrograms(plan, sizes, buffers.packedArgs(), programs); },
      /*minRuns=*/5, /*maxRuns=*/100, budgetSeconds);
}
