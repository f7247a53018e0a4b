//===- EmuExecutor.h - Running NVIDIA kernels on the emulator --*- C++ -*-===//
#ifndef NAUTILUS_PIPELINE_EMUEXECUTOR_H
#define NAUTILUS_PIPELINE_EMUEXECUTOR_H

#include "runtime/HostTensor.h"
#include "runtime/LaunchPlan.h"
#include "runtime/emulator/SimtEmulator.h"
#include "mlir/IR/BuiltinOps.h"

namespace nautilus {

class EmuExecutor {
public:
  /// `module` holds the kernels at the NVVM level (lowerGPUToLLVM).
  static std::unique_ptr<EmuExecutor> create(mlir::ModuleOp module,
                                             rt::LaunchPlan plan,
                                             std::string &error);

  /// Runs the plan's programs on the emulator: one block per program id,
  /// the schedule's threads per block. Returns "" or the error, and sets
  /// `kernelFault` when the error is a kernel's (a race, an async hazard,
  /// a deadlock, an access out of bounds: a bug in the generated code)
  /// rather than the run's (sizes TMA or the grid cannot take).
  /// With `profiles`, also each program's shared-memory traffic (slower).
  std::string run(const rt::SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs,
                  bool *kernelFault = nullptr,
                  std::vector<std::pair<std::string, emu::MemoryProfile>>
                      *profiles = nullptr);

private:
  std::unique_ptr<emu::SimtEmulator> emulator;
  rt::LaunchPlan plan;
};

} // namespace nautilus

#endif
