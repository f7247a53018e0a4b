//===- KernelMeasurer.cpp - Timing a kernel under candidate schedules -----===//
#include "compiler/Pipeline/KernelMeasurer.h"
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/Precision.h"
#include "compiler/Schedule/ScheduleFile.h"
#include "runtime/Timing.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

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

} // namespace

CpuKernelMeasurer::CpuKernelMeasurer(ModuleOp kernel, TargetInfo target,
                                     SizeValues sizes,
                                     const std::vector<rt::HostTensor> &inputs,
                                     bool verify)
    : kernel(kernel), target(std::move(target)), sizes(std::move(sizes)),
      inputs(inputs), verify(verify) {}

std::unique_ptr<CpuExecutor>
CpuKernelMeasurer::compile(const ScheduleAssignment &assignment,
                           std::string &why) {
  OwningOpRef<ModuleOp> copy = kernel.clone();
  std::shared_ptr<ScheduleProvider> schedules = heuristicSchedules();
  if (!assignment.empty())
    schedules = std::make_shared<ScheduleFile>(
        "candidate", heuristicSchedules(), scheduleFileText(assignment));
  FirstError errors(copy->getContext());
  Compilation compilation(*copy, target, schedules);
  compilation.setVerification(verify);
  auto failedHere = [&]() -> std::unique_ptr<CpuExecutor> {
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
        CheckPath::Host);
  if (failed(compilation.lowerTo(Stage::HostLLVM)))
    return failedHere();
  std::unique_ptr<CpuExecutor> executor =
      CpuExecutor::create(compilation.module(), compilation.launchPlan(), why);
  return executor;
}

std::optional<std::vector<rt::HostTensor>>
CpuKernelMeasurer::compileAndRun(const ScheduleAssignment &assignment,
                                 std::string &why,
                                 std::unique_ptr<CpuExecutor> &executor) {
  executor = compile(assignment, why);
  if (!executor)
    return std::nullopt;
  std::vector<rt::HostTensor> outputs;
  if (std::string e = executor->run(sizes, inputs, outputs); !e.empty()) {
    why = "it failed to run: " + e;
    return std::nullopt;
  }
  return outputs;
}

std::optional<std::vector<rt::HostTensor>>
CpuKernelMeasurer::outputsOf(const ScheduleAssignment &assignment,
                             std::string &why) {
  std::unique_ptr<CpuExecutor> executor;
  return compileAndRun(assignment, why, executor);
}

std::optional<Measurement>
CpuKernelMeasurer::measure(const ScheduleAssignment &assignment,
                           std::string &why) {
  std::unique_ptr<CpuExecutor> executor;
  std::optional<std::vector<rt::HostTensor>> outputs =
      compileAndRun(assignment, why, executor);
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
      executor->timeLaunches(sizes, inputs, timingSeconds, e);
  if (!timing) {
    why = "it failed to run: " + e;
    return std::nullopt;
  }
  return Measurement{timing->medianSeconds * 1e6, timing->runs};
}
