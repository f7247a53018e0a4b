//===- GpuExecutor.cpp - A compiled kernel on a GPU ----------------------===//
#include "compiler/Pipeline/GpuExecutor.h"
#include "compiler/Pipeline/Bundle.h"
#include "runtime/LaunchChecks.h"

using namespace nautilus;

std::unique_ptr<GpuExecutor>
GpuExecutor::create(Compilation &compilation, std::string &error,
                    bool &compilerFault, std::shared_ptr<rt::Device> device) {
  compilerFault = false;
  auto executor = std::unique_ptr<GpuExecutor>(new GpuExecutor());
  if (!device) {
    std::unique_ptr<rt::Device> opened;
    std::string kind = compilation.target().isNVIDIA() ? "cuda" : "hip";
    if (std::string e = rt::openDevice(kind, 0, opened); !e.empty())
      return error = e, nullptr;
    device = std::move(opened);
  }
  executor->device = std::move(device);
  rt::Bundle bundle;
  if (failed(buildBundle(compilation, bundle))) {
    compilerFault = true;
    return error = compilation.failureMessage(), nullptr;
  }
  if (std::string e = executor->device->load(bundle, executor->kernel);
      !e.empty())
    return error = e, nullptr;
  executor->plan = bundle.plan;
  return executor;
}

std::string GpuExecutor::prepare(const rt::SizeValues &sizes,
                                 const std::vector<rt::HostTensor> &inputs,
                                 Buffers &buffers) {
  std::vector<rt::BufferView> &views = buffers.views;
  size_t next = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const rt::BufferDesc &b = plan.buffers[i];
    std::vector<int64_t> shape = rt::extentsOf(b, sizes);
    if (b.role == rt::BufferRole::Scalar) { // by value, from the host
      views.push_back({const_cast<void *>(inputs[next++].data()), shape});
      continue;
    }
    rt::HostTensor host = b.role == rt::BufferRole::Input
                              ? inputs[next++]
                              : rt::HostTensor::zeros(b.dtype, shape);
    void *at = nullptr;
    if (std::string e = buffers.memory.add(
            host.numBytes(),
            b.role == rt::BufferRole::Input ? host.data() : nullptr, at);
        !e.empty())
      return "buffer '" + b.name + "': " + e;
    views.push_back({at, shape});
    if (b.role == rt::BufferRole::Output)
      buffers.results.emplace_back(i, std::move(host));
  }
  return "";
}

std::string GpuExecutor::run(const SizeValues &kernelSizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs) {
  const rt::SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  Buffers buffers(*device);
  if (std::string e = prepare(sizes, inputs, buffers); !e.empty())
    return e;
  if (std::string e = kernel->launch(buffers.views, sizes, nullptr); !e.empty())
    return e;
  outputs.clear();
  for (auto &[i, host] : buffers.results) {
    if (std::string e = device->copyToHost(host.data(), buffers.views[i].data,
                                           host.numBytes());
        !e.empty())
      return e;
    outputs.push_back(std::move(host));
  }
  return "";
}

std::optional<rt::Timing>
GpuExecutor::timeLaunches(const SizeValues &kernelSizes,
                          const std::vector<rt::HostTensor> &inputs,
                          double budgetSeconds, std::string &error) {
  const rt::SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  Buffers buffers(*device);
  if (std::string e = prepare(sizes, inputs, buffers); !e.empty())
    return error = e, std::nullopt;
  rt::Timing timing = rt::timeRuns(
      [&] {
        if (!error.empty())
          return;
        error = kernel->launch(buffers.views, sizes, nullptr);
        if (error.empty())
          error = device->synchronize(nullptr);
      },
      /*minRuns=*/5, /*maxRuns=*/100, budgetSeconds);
  if (!error.empty())
    return std::nullopt;
  return timing;
}
