//===- KernelMeasurer.h - Timing a kernel under candidate schedules -*- C++
//-*-===//
//
// The JIT side of the tuner's measurement interface (autosched::Measurer,
// autoscheduler/Tuner.h): on the host CPU, on a GPU through its driver
// (an NVIDIA GPU's cuda, an AMD GPU's HIP), or on the SIMT emulator. Each
// candidate is compiled from the kernel (its sizes bound) with the candidate's
// schedules as a schedule file's, run once on the inputs and compared with the
// reference outputs, then timed by rt::timeRuns (the median of repeated runs
// after a warm-up run), its buffers allocated and its inputs copied once: on
// the CPU and a GPU each timed run a launch (and on a GPU the wait for it), on
// the emulator a whole run. The reference is the heuristics' outputs (the first
// measurement's) unless one is given (the interpreter's, with `nautc tune
// --check`); two compiled results may each be a computation's error from
// the exact one, so they are compared within twice --check's tolerance.
// The emulator's times are the emulator's own, not a GPU's: measuring
// there tests the tuner on a machine without a GPU, and ranks nothing.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_KERNELMEASURER_H
#define NAUTILUS_PIPELINE_KERNELMEASURER_H

#include "autoscheduler/Tuner.h"
#include "compiler/Pipeline/Check.h"
#include "compiler/Target/Target.h"
#include "runtime/Device.h"
#include "runtime/HostTensor.h"
#include "runtime/Timing.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>
#include <vector>

namespace nautilus {

/// Where a kernel's candidates run and are timed.
enum class MeasuringDevice {
  Cpu,      // the host CPU (--target cpu)
  Emulator, // the SIMT emulator (NVIDIA targets; its own times)
  Gpu,      // a GPU, device 0: cuda for NVIDIA targets, hip for AMD
};

/// The check path of a device's results (Check.h): what its tolerance
/// allows for.
CheckPath checkPathOf(MeasuringDevice device);

/// A candidate compiled and loaded on the measuring device.
class LoadedCandidate {
public:
  virtual ~LoadedCandidate();
  /// Runs the kernel once over `inputs`; fills `outputs`. Returns "" or
  /// the error.
  virtual std::string run(const SizeValues &sizes,
                          const std::vector<rt::HostTensor> &inputs,
                          std::vector<rt::HostTensor> &outputs) = 0;
  /// Times the kernel's launches over `inputs` for up to `budgetSeconds`,
  /// or std::nullopt with `error`.
  virtual std::optional<rt::Timing>
  time(const SizeValues &sizes, const std::vector<rt::HostTensor> &inputs,
       double budgetSeconds, std::string &error) = 0;
};

class KernelMeasurer final : public autosched::Measurer {
public:
  /// `kernel`: the module holding the alg kernel with its sizes bound
  /// (not changed: each candidate compiles a copy) for `target`, which
  /// `device` runs (Gpu: on `gpu`, opened by the caller and shared by
  /// every candidate).
  KernelMeasurer(mlir::ModuleOp kernel, TargetInfo target,
                 MeasuringDevice device, SizeValues sizes,
                 const std::vector<rt::HostTensor> &inputs, bool verify,
                 std::shared_ptr<rt::Device> gpu = nullptr);

  /// The outputs every candidate's are compared with.
  void setReference(std::vector<rt::HostTensor> outputs) {
    reference = std::move(outputs);
  }

  /// The kernel's outputs under `assignment` (one run, unchecked), or
  /// std::nullopt and `why`.
  std::optional<std::vector<rt::HostTensor>>
  outputsOf(const autosched::ScheduleAssignment &assignment, std::string &why);

  /// --check's tolerance for the kernel's outputs on the device (against
  /// the interpreter's), once a candidate was compiled.
  const std::optional<rt::Tolerance> &deviceTolerance() const {
    return tolerance;
  }

  /// The seconds each candidate's timing may take (at least 5 runs; 3 on
  /// the emulator, whose runs are slow).
  void setTimingBudget(double seconds) { timingSeconds = seconds; }

  std::optional<autosched::Measurement>
  measure(const autosched::ScheduleAssignment &assignment,
          std::string &why) override;

private:
  /// The candidate compiled and loaded, or null and `why`.
  std::unique_ptr<LoadedCandidate>
  compile(const autosched::ScheduleAssignment &assignment, std::string &why);
  /// The candidate compiled (into `loaded`) and run once: its outputs, or
  /// std::nullopt and `why`.
  std::optional<std::vector<rt::HostTensor>>
  compileAndRun(const autosched::ScheduleAssignment &assignment,
                std::string &why, std::unique_ptr<LoadedCandidate> &loaded);

  mlir::ModuleOp kernel;
  TargetInfo target;
  MeasuringDevice device;
  /// Gpu: the device every candidate runs on.
  std::shared_ptr<rt::Device> gpu;
  SizeValues sizes;
  const std::vector<rt::HostTensor> &inputs;
  bool verify;
  /// --check's (one result against the exact), from the first compile.
  std::optional<rt::Tolerance> tolerance;
  double timingSeconds = 0.5;
  std::optional<std::vector<rt::HostTensor>> reference;
};

} // namespace nautilus

#endif
