//===- GpuExecutor.h - A compiled kernel on a GPU ---------------*- C++ -*-===//
//
// `nautc run --device cuda|hip` and `nautc tune`'s GPU measurements: a
// compiled kernel's bundle launched on a GPU through the runtime's device
// (runtime/Device.h): an NVIDIA target's on the cuda device (the driver
// compiles the PTX), an AMD target's on the hip device (HIP loads the code
// object). It copies host tensors to the device and the outputs back.
// Without a driver or HIP runtime, create() says what is missing.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_GPUEXECUTOR_H
#define NAUTILUS_PIPELINE_GPUEXECUTOR_H

#include "compiler/Pipeline/Driver.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/Device.h"
#include "runtime/HostTensor.h"
#include "runtime/Timing.h"

#include <memory>
#include <optional>

namespace nautilus {

class GpuExecutor {
public:
  /// Builds `compilation`'s bundle and loads it on `device`, or on device
  /// 0 of the target's kind (cuda for NVIDIA, hip for AMD) opened for it.
  /// Null with `error` set (no driver, no device, a bundle the device
  /// cannot run); `compilerFault` is set when the compilation itself
  /// failed. (Executors that share a device share its context: the
  /// driver's primary context lives while one holds it.)
  static std::unique_ptr<GpuExecutor>
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

} // namespace nautilus

#endif
