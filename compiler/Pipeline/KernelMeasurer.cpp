//===- KernelMeasurer.cpp - Timing a kernel under candidate schedules -----===//
#include "compiler/Pipeline/KernelMeasurer.h"
#include "compiler/Pipeline/CpuExecutor.h"
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/EmuExecutor.h"
#include "compiler/Pipeline/GpuExecutor.h"
#include "compiler/Pipeline/Precision.h"
#include "compiler/Schedule/ScheduleFile.h"
#include "runtime/Timing.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

#include <type_traits>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// The kernel of `module`.
alg::KernelOp kernelOf(ModuleOp module) {
  return *module.getOps<alg::KernelOp>().begin();
}

/// Collects a compilation's first error, instead of printing it.
class FirstError : public ScopedDiagnosticHandler {
public:
  explicit FirstError(MLIRContext *context)
      : ScopedDiagnosticHandler(context, [this](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error && text.empty())
            text = d.str();
          return success();
        }) {}
  std::string text;
};

/// The first output that differs from the reference, as a reason, or "".
std::string mismatch(alg::KernelOp kernel,
                     const std::vector<rt::HostTensor> &expected,
                     const std::vector<rt::HostTensor> &outputs,
                     const rt::Tolerance &tolerance) {
  std::vector<OutputCheck> checks;
  compareOutputs(kernel, expected, outputs, tolerance, checks);
  for (const OutputCheck &check : checks)
    if (!check.comparison.pass())
      return "output '" + check.name +
             "' differs from the reference (max "
             "abs error " +
             llvm::formatv("{0:g}", check.comparison.maxAbsError).str() + ")";
  return "";
}

/// Two results that may each be a computation's error from the exact one
/// are compared within twice the tolerance of one.
rt::Tolerance twice(rt::Tolerance tolerance) {
  tolerance.ulps *= 2;
  tolerance.relative *= 2;
  return tolerance;
}

/// A candidate loaded by `Executor`: on the host CPU (CpuExecutor) or a
/// GPU (GpuExecutor) its launches are timed alone, over buffers
/// allocated once; on the emulator (EmuExecutor) each timed run is a whole
/// run (the emulator's own time).
template <typename Executor>
class ExecutorCandidate final : public LoadedCandidate {
public:
  explicit ExecutorCandidate(std::unique_ptr<Executor> executor)
      : executor(std::move(executor)) {}
  std::string run(const SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs) override {
    return executor->run(sizes, inputs, outputs);
  }
  std::optional<rt::Timing> time(const SizeValues &sizes,
                                 const std::vector<rt::HostTensor> &inputs,
                                 double budgetSeconds,
                                 std::string &error) override {
    if constexpr (!std::is_same_v<Executor, EmuExecutor>) {
      return executor->timeLaunches(sizes, inputs, budgetSeconds, error);
    } else {
      std::vector<rt::HostTensor> outputs;
      rt::Timing timing = rt::timeRuns(
          [&] {
            if (error.empty())
              error = executor->run(sizes, inputs, outputs);
          },
          /*minRuns=*/3, /*maxRuns=*/100, budgetSeconds);
      if (!error.empty())
        return std::nullopt;
      return timing;
    }
  }

private:
  std::unique_ptr<Executor> executor;
};

/// `executor` as a candidate (null where it did not load).
template <typename Executor>
std::unique_ptr<LoadedCandidate> loaded(std::unique_ptr<Executor> executor) {
  if (!executor)
    return nullptr;
  return std::make_unique<ExecutorCandidate<Executor>>(std::move(executor));
}

} // namespace

LoadedCandidate::~LoadedCandidate() = default;

CheckPath nautilus::checkPathOf(MeasuringDevice device) {
  switch (device) {
  case MeasuringDevice::Cpu:
    return CheckPath::Host;
  case MeasuringDevice::Emulator:
    return CheckPath::Emulator;
  case MeasuringDevice::Gpu:
    return CheckPath::Gpu;
  }
  return CheckPath::Host;
}

KernelMeasurer::KernelMeasurer(ModuleOp kernel, TargetInfo target,
                               MeasuringDevice device, SizeValues sizes,
                               const std::vector<rt::HostTensor> &inputs,
                               bool verify, std::shared_ptr<rt::Device> gpu)
    : kernel(kernel), target(std::move(target)), device(device),
      gpu(std::move(gpu)), sizes(std::move(sizes)), inputs(inputs),
      verify(verify) {}

std::unique_ptr<LoadedCandidate>
KernelMeasurer::compile(const ScheduleAssignment &assignment,
                        std::string &why) {
  OwningOpRef<ModuleOp> copy = kernel.clone();
  std::shared_ptr<ScheduleProvider> schedules = heuristicSchedules();
  if (!assignment.empty())
    schedules =
        std::make_shared<ScheduleFile>("candidate", heuristicSchedules(),
                                       measuredScheduleFileText(assignment));
  FirstError errors(copy->getContext());
  Compilation compilation(*copy, target, schedules);
  compilation.setVerification(verify);
  auto failedHere = [&]() -> std::unique_ptr<LoadedCandidate> {
    why = errors.text.empty() ? compilation.failureMessage() : errors.text;
    return nullptr;
  };
  if (failed(compilation.lowerTo(Stage::Tile)))
    return failedHere();
  // What the programs round is the same under every candidate (where
  // they materialise operands, not their tiles): read it once, as `nautc
  // run --check` does, from the tile programs.
  if (!tolerance)
    tolerance = checkTolerance(
        roundingSources(kernelOf(kernel), sizes,
                        roundedIntermediateType(compilation.module())),
        checkPathOf(device));
  switch (device) {
  case MeasuringDevice::Cpu:
    if (failed(compilation.lowerTo(Stage::HostLLVM)))
      return failedHere();
    return loaded(CpuExecutor::create(compilation.module(),
                                      compilation.launchPlan(), why));
  case MeasuringDevice::Emulator:
    if (failed(compilation.lowerTo(Stage::GpuLLVM)))
      return failedHere();
    return loaded(EmuExecutor::create(compilation.module(),
                                      compilation.launchPlan(), why));
  case MeasuringDevice::Gpu: {
    bool compilerFault = false;
    assert(gpu && "a GPU measurer is given its device");
    std::unique_ptr<GpuExecutor> executor =
        GpuExecutor::create(compilation, why, compilerFault, gpu);
    if (compilerFault)
      return failedHere();
    return loaded(std::move(executor));
  }
  }
  return nullptr;
}

std::optional<std::vector<rt::HostTensor>>
KernelMeasurer::compileAndRun(const ScheduleAssignment &assignment,
                              std::string &why,
                              std::unique_ptr<LoadedCandidate> &loaded) {
  loaded = compile(assignment, why);
  if (!loaded)
    return std::nullopt;
  std::vector<rt::HostTensor> outputs;
  if (std::string e = loaded->run(sizes, inputs, outputs); !e.empty()) {
    why = "it failed to run: " + e;
    return std::nullopt;
  }
  return outputs;
}

std::optional<std::vector<rt::HostTensor>>
KernelMeasurer::outputsOf(const ScheduleAssignment &assignment,
                          std::string &why) {
  std::unique_ptr<LoadedCandidate> loaded;
  return compileAndRun(assignment, why, loaded);
}

std::optional<Measurement>
KernelMeasurer::measure(const ScheduleAssignment &assignment,
                        std::string &why) {
  std::unique_ptr<LoadedCandidate> loaded;
  std::optional<std::vector<rt::HostTensor>> outputs =
      compileAndRun(assignment, why, loaded);
  if (!outputs)
    return std::nullopt;
  if (!reference)
    reference = std::move(*outputs);
  else if (std::string e = mismatch(kernelOf(kernel), *reference, *outputs,
                                    twice(*tolerance));
           !e.empty()) {
    why = e;
    return std::nullopt;
  }
  std::string e;
  std::optional<rt::Timing> timing =
      loaded->time(sizes, inputs, timingSeconds, e);
  if (!timing) {
    why = "it failed to run: " + e;
    return std::nullopt;
  }
  return Measurement{timing->medianSeconds * 1e6, timing->runs};
}
