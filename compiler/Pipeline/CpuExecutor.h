//===- CpuExecutor.h - Running compiled kernels on the host ----*- C++ -*-===//
//
// JIT-compiles a kernel's host programs (ORC, through MLIR's ExecutionEngine)
// and launches them as the launch plan says: buffers allocated, workspaces
// zeroed, each program's grid split among host threads.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_CPUEXECUTOR_H
#define NAUTILUS_PIPELINE_CPUEXECUTOR_H

#include "mlir/IR/BuiltinOps.h"
#include "runtime/HostPrograms.h"
#include "runtime/HostTensor.h"
#include "runtime/LaunchPlan.h"
#include "runtime/Timing.h"

#include <memory>
#include <optional>

namespace mlir {
class ExecutionEngine;
}

namespace nautilus {

class LaunchBuffers;

class CpuExecutor {
public:
  /// `module` is in the LLVM dialect (lowerTileToHostLLVM); `plan` its plan.
  static std::unique_ptr<CpuExecutor> create(mlir::ModuleOp module,
                                             rt::LaunchPlan plan,
                                             std::string &error);
  ~CpuExecutor();

  /// Runs the kernel. `inputs` follow the plan's input and scalar buffers in
  /// order (scalars as 0-d tensors); `outputs` receive the outputs in order.
  /// Returns "" or the error, and sets `kernelFault` when a launch failed
  /// (the generated code's error, not the run's).
  std::string run(const rt::SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs, unsigned threads = 0,
                  bool *kernelFault = nullptr);

  /// Times the kernel's launches over `inputs` (rt::timeRuns, for up to
  /// `budgetSeconds`): the buffers allocated, the inputs copied and the
  /// programs looked up once, then each run a launch alone, as an
  /// application's launch of a loaded kernel. std::nullopt with `error`
  /// when it cannot launch.
  std::optional<rt::Timing>
  timeLaunches(const rt::SizeValues &sizes,
               const std::vector<rt::HostTensor> &inputs, double budgetSeconds,
               std::string &error);

  /// Writes the compiled host object code to `path`.
  std::string dumpObject(const std::string &path);

  const rt::LaunchPlan &getPlan() const { return plan; }

private:
  CpuExecutor() = default;
  /// What a launch needs: `buffers` allocated for `sizes` (the inputs
  /// copied in) and each program's packed entry point, in plan order; ""
  /// or the error (`kernelFault` set where a program is missing).
  std::string prepareLaunch(const rt::SizeValues &sizes,
                            const std::vector<rt::HostTensor> &inputs,
                            LaunchBuffers &buffers,
                            std::vector<rt::PackedProgram> &programs,
                            bool *kernelFault);
  std::unique_ptr<mlir::ExecutionEngine> engine;
  rt::LaunchPlan plan;
};

} // namespace nautilus

#endif
