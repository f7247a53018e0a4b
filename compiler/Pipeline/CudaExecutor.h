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
#include "runtime/Timing.h"

#include <memory>
#include <optional>

namespace nautilus {

class CudaExecutor {
public:
  /// Builds `compilation`'s bundle and loads it on `device`, or on cuda
  /// device 0 opened for it. Null with `error` set (no driver, no device, a
  /// bundle the device cannot run); `compilerFault` is set when the
  /// compilation itself failed. (Executors that share a device share its
  /// context: the driver's primary context lives while one holds it.)
  static std::unique_ptr<CudaExecutor>
  create(Compilation &compilation, std::string &error, bool &compilerFault,
         std::shared_ptr<rt::Device> device = nullptr);

  /// Runs the kernel on `inputs` (the plan's inputs and scalars, in order)
  /// with the kernel's `sizes`; fills `outputs`. Returns "" or the error.
  std::string run(const SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs);

  /// Times the kernel's launches over `inputs` (rt::timeRuns, for up to
  /// `budgetSeconds`): the buffers allocated and the inputs copied once,
  /// then each run a launch and the wait for it. std::nullopt with `error`
  /// when a launch fails.
  std::optional<rt::Timing>
  timeLaunches(const SizeValues &sizes,
               const std::vector<rt::HostTensor> &inputs, double budgetSeconds,
               std::string &error);

private:
  /// The device buffers of one run: the inputs copied; the outputs and
  /// workspaces allocated (their host copies, for the outputs, zeroed).
  struct Buffers {
    explicit Buffers(rt::Device &device) : memory(device) {}
    rt::DeviceAllocations memory;
    std::vector<rt::BufferView> views;
    std::vector<std::pair<size_t, rt::HostTensor>> results; // (buffer, host)
  };
  /// Allocates `buffers` for a run at `sizes` (with the derived ones).
  std::string prepare(const rt::SizeValues &sizes,
                      const std::vector<rt::HostTensor> &inputs,
                      Buffers &buffers);

  std::shared_ptr<rt::Device> device;
  std::unique_ptr<rt::LoadedKernel> kernel; // (released before the device)
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
