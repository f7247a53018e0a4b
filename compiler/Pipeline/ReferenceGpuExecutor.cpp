//===- ReferenceGpuExecutor.cpp - Reference kernels on a GPU --------------===//
#include "compiler/Pipeline/ReferenceGpuExecutor.h"
#include "compiler/Pipeline/Nvrtc.h"
#include "runtime/CudaDriver.h"

#include <climits>

using namespace nautilus;

std::unique_ptr<ReferenceGpuExecutor>
ReferenceGpuExecutor::create(alg::KernelOp kernel, const std::string &chip,
                             std::string &error) {
  auto executor =
      std::unique_ptr<ReferenceGpuExecutor>(new ReferenceGpuExecutor());
  if (std::string e = rt::openCudaDevice(0, executor->device); !e.empty())
    return error = e, nullptr;
  if (std::string e = generateReferenceCuda(kernel, executor->reference);
      !e.empty())
    return error = "no reference kernels: " + e, nullptr;
  NvrtcResult ptx =
      compileCudaToPtx(executor->reference.source, executor->reference.name,
                       {referenceArchitecture(chip), "--fmad=false"});
  if (!ptx.succeeded())
    return error = "the reference kernels: " + ptx.error, nullptr;
  const rt::cuda::Driver *driver = rt::cuda::load(error);
  auto *context = reinterpret_cast<rt::cuda::CUcontext *>(&executor->context);
  auto *module = reinterpret_cast<rt::cuda::CUmodule *>(&executor->module);
  if (rt::cuda::CUresult r = driver->cuDevicePrimaryCtxRetain(context, 0);
      r != rt::cuda::CUDA_SUCCESS)
    return error = rt::cuda::describe(*driver, r), nullptr;
  rt::cuda::ScopedContext scope(*driver, *context);
  if (rt::cuda::CUresult r = driver->cuModuleLoadDataEx(module, ptx.ptx.c_str(),
                                                        0, nullptr, nullptr);
      r != rt::cuda::CUDA_SUCCESS)
    return error = "the driver cannot load the reference kernels: " +
                   rt::cuda::describe(*driver, r),
           nullptr;
  return executor;
}

ReferenceGpuExecutor::~ReferenceGpuExecutor() {
  std::string ignored;
  const rt::cuda::Driver *driver = rt::cuda::load(ignored);
  if (!driver || !context)
    return;
  rt::cuda::ScopedContext scope(*driver,
                                static_cast<rt::cuda::CUcontext>(context));
  if (module)
    driver->cuModuleUnload(static_cast<rt::cuda::CUmodule>(module));
  driver->cuDevicePrimaryCtxRelease(0);
}

std::string ReferenceGpuExecutor::run(const SizeValues &sizes,
                                      const std::vector<rt::HostTensor> &inputs,
                                      std::vector<rt::HostTensor> &outputs) {
  std::string error;
  const rt::cuda::Driver *driver = rt::cuda::load(error);
  rt::cuda::ScopedContext scope(*driver,
                                static_cast<rt::cuda::CUcontext>(context));
  const ReferenceProgram &p = reference;
  std::vector<rt::HostTensor> hosts;
  if (std::string e = referenceBuffers(p, sizes, inputs, hosts); !e.empty())
    return e;
  rt::DeviceAllocations memory(*device);
  std::vector<void *> pointers(p.buffers.size());
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    bool input = p.buffers[b].role == ReferenceBuffer::Role::Input;
    if (std::string e =
            memory.add(hosts[b].numBytes(), input ? hosts[b].data() : nullptr,
                       pointers[b]);
        !e.empty())
      return "reference buffer '" + p.buffers[b].name + "': " + e;
  }
  std::vector<long long> sizeValues = referenceSizeValues(p, sizes);
  for (const ReferenceLaunch &launch : p.launches) {
    rt::cuda::CUfunction function = nullptr;
    driver->cuModuleGetFunction(&function,
                                static_cast<rt::cuda::CUmodule>(module),
                                launch.kernel.c_str());
    std::vector<void *> params;
    for (unsigned b : launch.buffers)
      params.push_back(&pointers[b]);
    for (long long &value : sizeValues)
      params.push_back(&value);
    int64_t blocks = p.blocks(launch, sizes);
    if (!function || blocks > INT_MAX)
      return "cannot launch the reference kernel " + launch.kernel;
    if (rt::cuda::CUresult r =
            driver->cuLaunchKernel(function, static_cast<unsigned>(blocks), 1,
                                   1, ReferenceProgram::kBlockThreads, 1, 1, 0,
                                   nullptr, params.data(), nullptr);
        r != rt::cuda::CUDA_SUCCESS)
      return "launch of the reference kernel " + launch.kernel +
             " failed: " + rt::cuda::describe(*driver, r);
  }
  outputs.clear();
  for (unsigned b : p.outputs) {
    if (std::string e = device->copyToHost(hosts[b].data(), pointers[b],
                                           hosts[b].numBytes());
        !e.empty())
      return e;
    outputs.push_back(std::move(hosts[b]));
  }
  return "";
}
