//===- CpuExecutor.cpp ----------------------------------------------------===//
#include "compiler/Pipeline/CpuExecutor.h"

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

namespace {

/// The expanded memref descriptor of a row-major buffer, as the packed
/// calling convention passes it: allocated and aligned pointers, offset,
/// sizes, strides.
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
};

} // namespace

std::string CpuExecutor::run(const rt::SizeValues &sizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs,
                             unsigned threads) {
  // Every buffer: the inputs as given, the others allocated and zeroed.
  std::vector<rt::HostTensor> owned(plan.buffers.size());
  std::vector<const rt::HostTensor *> tensors(plan.buffers.size());
  size_t nextInput = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const rt::BufferDesc &b = plan.buffers[i];
    if (b.role == rt::BufferRole::Input || b.role == rt::BufferRole::Scalar) {
      if (nextInput >= inputs.size())
        return "missing input '" + b.name + "'";
      tensors[i] = &inputs[nextInput++];
      continue;
    }
    std::vector<int64_t> shape;
    for (const rt::Dim &d : b.dims)
      shape.push_back(rt::extentOf(d, sizes));
    owned[i] = rt::HostTensor::zeros(b.dtype, shape);
    tensors[i] = &owned[i];
  }

  std::vector<Descriptor> descriptors(plan.buffers.size());
  std::vector<int64_t> sizeValues;
  for (const std::string &s : plan.sizes)
    sizeValues.push_back(sizes.at(s));
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    Descriptor &d = descriptors[i];
    void *data = const_cast<void *>(tensors[i]->data());
    d.allocated = d.aligned = data;
    d.sizes = tensors[i]->shape();
    d.strides.assign(d.sizes.size(), 1);
    for (int64_t j = static_cast<int64_t>(d.sizes.size()) - 2; j >= 0; --j)
      d.strides[j] = d.strides[j + 1] * d.sizes[j + 1];
  }

  unsigned workers =
      threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  for (const rt::ProgramDesc &program : plan.programs) {
    int64_t count = program.numPrograms(sizes);
    auto launch = [&](int64_t first, int64_t last) -> llvm::Error {
      std::vector<void *> args;
      std::vector<void *> pointers; // storage the args point into
      pointers.reserve(8 * descriptors.size());
      for (size_t i = 0; i < plan.buffers.size(); ++i) {
        Descriptor &d = descriptors[i];
        if (plan.buffers[i].role == rt::BufferRole::Scalar) {
          args.push_back(d.aligned);
          continue;
        }
        args.push_back(&d.allocated);
        args.push_back(&d.aligned);
        args.push_back(&d.offset);
        for (int64_t &s : d.sizes)
          args.push_back(&s);
        for (int64_t &s : d.strides)
          args.push_back(&s);
      }
      for (int64_t &s : sizeValues)
        args.push_back(&s);
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
      if (!e.empty())
        return "launch of '" + program.name + "' failed: " + e;
  }
  outputs.clear();
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    if (plan.buffers[i].role == rt::BufferRole::Output)
      outputs.push_back(std::move(owned[i]));
  return "";
}
