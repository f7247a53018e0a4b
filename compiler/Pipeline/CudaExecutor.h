//===- CudaExecutor.h - Kernels and their references on a GPU --*- C++ -*-===//
//
// `nautc run --device cuda`: a compiled kernel's bundle launched on an
// NVIDIA GPU through the runtime's cuda device (runtime/Device.h), and, for
// --check, the kernel's reference kernels (ReferenceCuda.h) compiled by
// NVRTC and run on the same GPU, at sizes the CPU interpreter could not
// handle. Both copy host tensors to the device and the outputs back.
// Without a driver (or NVRTC), create() says what is missing.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_CUDAEXECUTOR_H
#define NAUTILUS_PIPELINE_CUDAEXECUTOR_H

#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/ReferenceCuda.h"
#include "runtime/Device.h"
#include "runtime/HostTensor.h"

#include <memory>

namespace nautilus {

class CudaExecutor {
public:
  /// Builds `compilation`'s bundle and loads it on cuda device 0. Null with
  /// `error` set (no driver, no device, a bundle the device cannot run);
  /// `compilerFault` is set when the compilation itself failed.
  static std::unique_ptr<CudaExecutor>
  create(Compilation &compilation, std::string &error, bool &compilerFault);

  /// Runs the kernel on `inputs` (the plan's inputs and scalars, in order)
  /// with the kernel's `sizes`; fills `outputs`. Returns "" or the error.
  std::string run(const SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs);

private:
  std::unique_ptr<rt::Device> device;
  std::unique_ptr<rt::LoadedKernel> kernel;
  rt::LaunchPlan plan;
};

/// The reference kernels of an alg kernel (its sizes bound), on cuda device
/// 0.
class ReferenceGpuExecutor {
public:
  /// Generates the reference for `chip`, compiles it with NVRTC and loads
  /// it. Null with `error` set.
  static std::unique_ptr<ReferenceGpuExecutor>
  create(alg::KernelOp kernel, const std::string &chip, std::string &error);
  ~ReferenceGpuExecutor();

  /// Runs the launches in order over `inputs` (signature order); fills
  /// `outputs` (signature order). Returns "" or the error.
  std::string run(const SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs);

private:
  ReferenceGpuExecutor() = default;
  ReferenceProgram reference;
  std::unique_ptr<rt::Device> device; // memory and copies
  void *module = nullptr;             // CUmodule
  void *context = nullptr;            // CUcontext (the device's primary)
};

} // namespace nautilus

#endif
