//===- CpuExecutor.cpp ----------------------------------------------------===//
#include "compiler/Pipeline/CpuExecutor.h"
#include "compiler/Pipeline/LaunchBuffers.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/Support/TargetSelect.h"

#include <thread>

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

std::string CpuExecutor::run(const rt::SizeValues &kernelSizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs,
                             unsigned threads, bool *kernelFault) {
  const rt::SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  LaunchBuffers buffers;
  if (std::string e = buffers.allocate(plan, sizes, inputs); !e.empty())
    return e;
  const std::vector<void *> common = buffers.packedArgs();

  unsigned workers =
      threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  for (const rt::ProgramDesc &program : plan.programs) {
    int64_t count = program.numPrograms(sizes);
    auto launch = [&](int64_t first, int64_t last) -> llvm::Error {
      std::vector<void *> args = common;
      args.push_back(&first);
      args.push_back(&last);
      return engine->invokePacked(program.name, args);
    };
    unsigned n = static_cast<unsigned>(
        std::min<int64_t>(workers, std::max<int64_t>(count, 1)));
    std::vector<std::string> errors(n);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < n; ++t) {
      int64_t first = count * t / n, last = count * (t + 1) / n;
      auto body = [&, t, first, last] {
        if (llvm::Error e = launch(first, last))
          errors[t] = llvm::toString(std::move(e));
      };
      if (t + 1 == n)
        body();
      else
        pool.emplace_back(body);
    }
    for (std::thread &th : pool)
      th.join();
    for (const std::string &e : errors)
      if (!e.empty()) {
        if (kernelFault)
          *kernelFault = true;
        return "launch of '" + program.name + "' failed: " + e;
      }
  }
  outputs = buffers.takeOutputs();
  return "";
}
