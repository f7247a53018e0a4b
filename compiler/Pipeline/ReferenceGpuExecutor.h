//===- ReferenceGpuExecutor.h - Reference kernels on a GPU ------*- C++ -*-===//
//
// `nautc run --device cuda --check`: the kernel's reference kernels
// (ReferenceCuda.h) compiled by NVRTC and run on the same NVIDIA GPU, at
// sizes the CPU interpreter could not handle. Without a driver or NVRTC,
// create() says what is missing.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_REFERENCEGPUEXECUTOR_H
#define NAUTILUS_PIPELINE_REFERENCEGPUEXECUTOR_H

#include "compiler/Pipeline/ReferenceCuda.h"
#include "runtime/Device.h"
#include "runtime/HostTensor.h"

#include <memory>

namespace nautilus {

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
