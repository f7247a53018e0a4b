//===- Tune.cpp - nautc tune ----------------------------------------------===//
//
// Measures a kernel's programs under the schedules the auto-scheduler's
// CPU model ranks best (autoscheduler/CpuSpace.h), searches them with the
// tuner (autoscheduler/Tuner.h) and writes what it found: a record of the
// tuning database --db names (autoscheduler/TuningDatabase.h), or else
// the schedule file, for --schedule.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/TuningDatabase.h"
#include "compiler/Pipeline/Check.h"
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/KernelMeasurer.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "tools/nautc/Commands.h"
#include "tools/nautc/RunInputs.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::autosched;

namespace {

int usageError(const std::string &message) {
  llvm::errs() << "nautc: " << message << "\n";
  return kExitUsage;
}

int userError(const std::string &message) {
  llvm::errs() << "nautc: error: " << message << "\n";
  return kExitUserError;
}

/// Each program of the heuristics' compilation of `module` the CPU model
/// can rank, with its best `keep` tiles other than its own.
std::vector<ProgramCandidates>
candidatesOf(ModuleOp module, const TargetInfo &target, size_t keep) {
  OwningOpRef<ModuleOp> copy = module.clone();
  Compilation compilation(*copy, target, heuristicSchedules());
  compilation.setVerification(false);
  std::vector<ProgramCandidates> programs;
  if (failed(compilation.lowerTo(Stage::Tile)))
    return programs;
  for (auto program : compilation.module().getOps<tile::ProgramOp>()) {
    std::optional<CpuProgram> facts = cpuProgramOf(program);
    if (!facts)
      continue;
    ProgramCandidates candidates{program.getSymName().str(), {}};
    for (const CpuCandidate &c : rankCpuTiles(*facts, target)) {
      if (llvm::ArrayRef<int64_t>(c.tile) == program.getSchedule().getTile() &&
          c.pack == program.getSchedule().getPack())
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << Attribute(cpuScheduleWithTile(program, c.tile, c.pack));
      candidates.schedules.push_back(text);
      if (candidates.schedules.size() == keep)
        break;
    }
    programs.push_back(std::move(candidates));
  }
  return programs;
}

/// --check: the tuned schedules' outputs against the reference interpreter.
int checkBest(ModuleOp module, const RunInputs &run,
              CpuKernelMeasurer &measurer, const ScheduleAssignment &best) {
  std::string why;
  std::optional<std::vector<rt::HostTensor>> outputs =
      measurer.outputsOf(best, why);
  if (!outputs)
    return userError("the tuned schedules failed on a second run: " + why);
  alg::KernelOp kernel = *module.getOps<alg::KernelOp>().begin();
  std::vector<OutputCheck> checks;
  if (std::string e = checkOutputs(kernel, run.sizes, run.tensors, *outputs,
                                   *measurer.hostTolerance(), checks);
      !e.empty())
    return userError("the reference interpreter failed: " + e);
  for (const OutputCheck &check : checks) {
    llvm::outs() << "tune: --check: " << check.name << " "
                 << (check.comparison.pass() ? "PASS" : "FAIL") << "\n";
    if (!check.comparison.pass())
      return kExitMismatch;
  }
  return kExitSuccess;
}

/// Writes the result: a record of --db, or the schedule file on stdout.
int writeResult(const Options &opts, const LoadedKernel &loaded,
                const TargetInfo &target, const RunInputs &run,
                const TuneResult &result) {
  std::string file = scheduleFileText(result.best);
  if (opts.db.empty()) {
    llvm::outs() << file << "\n";
    return kExitSuccess;
  }
  TuningDatabase database;
  if (std::string e = database.load(opts.db); !e.empty())
    return userError("--db: " + e);
  auto ns = [](double us) { return int64_t(std::llround(us * 1e3)); };
  database.insert(TuningRecord{loaded.structuralHash, run.sig.name, target.name,
                               hostDescription(), run.sizes, file,
                               ns(result.bestUs), ns(result.baselineUs),
                               int64_t(result.trials.size())});
  if (std::string e = database.save(opts.db); !e.empty())
    return userError("--db: " + e);
  llvm::outs() << "tune: wrote the record to " << opts.db << "\n";
  return kExitSuccess;
}

} // namespace

int nautilus::runTune(const Options &opts) {
  std::optional<TargetInfo> target =
      getTarget(opts.target, opts.multiprocessors);
  if (!target->isCPU() || opts.device != "cpu")
    return usageError(
        "nautc tune measures on the host CPU (--target cpu, --device cpu); "
        "measuring on a GPU is not built yet: --schedule auto ranks GPU "
        "schedules by the cost model alone");
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts.source(), context, sourceMgr,
                          /*bindShape=*/false, loaded))
    return rc;
  RunInputs run;
  if (int rc = prepareInputs(opts, loaded.kernel, run))
    return rc;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  if (failed(bindSizes(*loaded.module, run.sizes)))
    return kExitUserError;

  std::vector<ProgramCandidates> programs =
      candidatesOf(*loaded.module, *target, opts.perProgram);
  size_t total = 0;
  for (const ProgramCandidates &p : programs)
    total += p.schedules.size();
  llvm::outs() << "tune: kernel " << run.sig.name << " on " << hostDescription()
               << ": " << programs.size() << " programs to tune, " << total
               << " candidates\n";
  CpuKernelMeasurer measurer(*loaded.module, *target, run.sizes, run.tensors,
                             !opts.noVerify);
  std::string why;
  std::optional<TuneResult> result = tune(
      programs, measurer, TuneBudget{opts.budgetSeconds, opts.budgetCandidates},
      &llvm::errs(), why);
  if (!result)
    return userError("cannot measure the kernel: " + why);
  llvm::outs() << "tune: best " << llvm::format("%.1f us", result->bestUs)
               << ", heuristics " << llvm::format("%.1f us", result->baselineUs)
               << " ("
               << llvm::format("%.2fx", result->baselineUs / result->bestUs)
               << "), " << result->trials.size() << " measured"
               << (result->budgetSpent ? " (the budget ran out)" : "")
               << (result->confirmed ? "; the fastest measured again, by "
                                       "medians"
                                     : "")
               << "\n";
  if (opts.check)
    if (int rc = checkBest(*loaded.module, run, measurer, result->best))
      return rc;
  return writeResult(opts, loaded, *target, run, *result);
}
