//===- Tune.cpp - nautc tune ----------------------------------------------===//
//
// Measures a kernel's structures (the alg rewrites: Pipeline/Structures.h)
// and their programs under the schedules the auto-scheduler's model ranks
// best (on the CPU its CPU model, autoscheduler/CpuSpace.h; on an NVIDIA
// target the GPU models, Structures.h's rankedGpuSchedules), on the
// device --device names (the host CPU, an NVIDIA GPU, or the emulator,
// whose times are its own), searches them with the tuner
// (autoscheduler/Tuner.h) and writes what it found: a record of the tuning
// database --db names (autoscheduler/TuningDatabase.h), or else the schedule
// file, for --schedule.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/RecordedMeasurer.h"
#include "autoscheduler/TuningDatabase.h"
#include "compiler/Pipeline/Check.h"
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/KernelMeasurer.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/Structures.h"
#include "compiler/Schedule/AutoSchedules.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Schedule/DatabaseSchedules.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "runtime/Bundle.h"
#include "tools/nautc/Commands.h"
#include "tools/nautc/RunInputs.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
namespace json = llvm::json;
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

/// The model's terms (unscaled: the CPU model's, CpuTerms, or the GPU
/// models', GpuTerms) for the schedules one program may run with: what a
/// measurement's sample records (autoscheduler/CpuRefit.h, GpuRefit.h).
template <typename Terms> struct ProgramTermsOf {
  std::string program;
  std::optional<Terms> heuristics;         // none: the model cannot cost it
  std::map<std::string, Terms> candidates; // by schedule text
};
using ProgramTerms = ProgramTermsOf<CpuTerms>;
using GpuProgramTerms = ProgramTermsOf<GpuTerms>;

struct StructureTerms {
  RewriteChoice rewrites;
  std::vector<ProgramTerms> programs;       // on the CPU
  std::vector<GpuProgramTerms> gpuPrograms; // on a GPU
};

/// `schedule` as a schedule file holds it.
std::string textOf(tile::ScheduleAttr schedule) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Attribute(schedule);
  return text;
}

/// Each program of `programs` (a structure's, with the heuristics'
/// schedules) the CPU model can rank, with its best `keep` tiles other
/// than its own, ranked by the model under `scales`; each program's terms
/// go to `terms`. A program it cannot rank keeps the heuristics' tile
/// (the structure is measured with it).
std::vector<ProgramCandidates>
candidatesOf(ModuleOp programs, const TargetInfo &target, size_t keep,
             const CpuTermScales &scales, std::vector<ProgramTerms> &terms) {
  std::vector<ProgramCandidates> candidates;
  for (auto program : programs.getOps<tile::ProgramOp>()) {
    ProgramTerms &costs = terms.emplace_back();
    costs.program = program.getSymName().str();
    std::optional<CpuProgram> facts = cpuProgramOf(program);
    if (!facts)
      continue;
    CpuCandidate own = cpuCandidateOf(program.getSchedule());
    costs.heuristics = CpuTerms::of(estimateCpu(
        *facts, own.tile, target, own.pack, {}, own.split, own.reduceBlock));
    ProgramCandidates tiles{costs.program, {}};
    bool first = true;
    for (const CpuCandidate &c : rankCpuTiles(*facts, target, 0, scales)) {
      bool isOwn = c.sameSchedule(own);
      tiles.ownFirst |= first && isOwn;
      first = false;
      if (isOwn)
        continue;
      std::string text = textOf(
          cpuScheduleWithTile(program, c.tile, c.pack, c.split, c.reduceBlock));
      costs.candidates[text] = CpuTerms::of(estimateCpu(
          *facts, c.tile, target, c.pack, {}, c.split, c.reduceBlock));
      tiles.schedules.push_back(text);
      if (tiles.schedules.size() == keep)
        break;
    }
    candidates.push_back(std::move(tiles));
  }
  return candidates;
}

/// Each program of `programs` (a structure's, with the heuristics'
/// schedules) the GPU models can rank, with its best `keep` schedules
/// other than its own; its own counts as the model's choice as `--schedule
/// auto` counts it (first, or within the heuristics' tie of the best).
/// Each program's terms go to `terms`.
std::vector<ProgramCandidates>
gpuCandidatesOf(ModuleOp programs, const TargetInfo &target, size_t keep,
                std::vector<GpuProgramTerms> &terms) {
  std::vector<ProgramCandidates> candidates;
  for (auto program : programs.getOps<tile::ProgramOp>()) {
    GpuProgramTerms &costs = terms.emplace_back();
    costs.program = program.getSymName().str();
    std::optional<GpuScheduleRanking> ranking =
        rankedGpuSchedules(program, target, /*keep=*/0);
    // (A routing program: its own terms, nothing to tune.)
    costs.heuristics = ranking ? ranking->ownTerms : std::nullopt;
    if (!ranking || ranking->ranked.empty())
      continue;
    const std::vector<RankedGpuSchedule> &ranked = ranking->ranked;
    auto own = llvm::find_if(ranked, [&](const RankedGpuSchedule &r) {
      return r.schedule == program.getSchedule();
    });
    ProgramCandidates schedules{program.getSymName().str(), {}};
    // (The tie rule of AutoSchedules::recordGpuChoice.) Rows re-scheduled
    // for a sweep have no heuristics' schedule to be left to: their own is
    // named like any other.
    bool ownIsHeuristics = !program->hasAttr(tile::kRowsRescheduledAttrName);
    schedules.ownFirst =
        ownIsHeuristics &&
        (own == ranked.begin() ||
         (own != ranked.end() && ranking->heuristicsTie &&
          own->predictedUs <= ranked.front().predictedUs *
                                  (1 + AutoSchedules::kHeuristicsTie)));
    for (const RankedGpuSchedule &r : ranked) {
      if (schedules.schedules.size() == keep)
        break;
      if (!ownIsHeuristics || r.schedule != program.getSchedule()) {
        schedules.schedules.push_back(textOf(r.schedule));
        costs.candidates[schedules.schedules.back()] = r.terms;
      }
    }
    candidates.push_back(std::move(schedules));
  }
  return candidates;
}

/// The kernel's structures (Pipeline/Structures.h) with their programs'
/// candidates, the model's preferred first; where there are several, a
/// line describing each goes to `described`. Each structure's programs'
/// terms go to `terms`.
std::vector<StructureCandidates>
structuresOf(ModuleOp module, const TargetInfo &target, size_t keep,
             const CpuTermScales &scales, llvm::raw_ostream &described,
             std::vector<StructureTerms> &terms) {
  std::vector<KernelStructure> kernel =
      kernelStructures(module, target, scales);
  size_t preferred = preferredStructure(predictionsOf(kernel));
  std::vector<StructureCandidates> structures;
  for (size_t i = 0; i < kernel.size(); ++i) {
    const StructurePrediction &p = kernel[i].prediction;
    StructureTerms &costs = terms.emplace_back();
    costs.rewrites = p.rewrites;
    StructureCandidates structure{
        p.rewrites, target.isCPU()
                        ? candidatesOf(*kernel[i].programs, target, keep,
                                       scales, costs.programs)
                        : gpuCandidatesOf(*kernel[i].programs, target, keep,
                                          costs.gpuPrograms)};
    if (kernel.size() > 1) {
      described << "tune: structure " << p.rewrites.describe() << ": "
                << structure.programs.size() << " programs to tune, ";
      if (p.predictedUs)
        described << "the model predicts "
                  << llvm::format("%.1f us", *p.predictedUs);
      else
        described << "not predicted (the model cannot cost '" << p.uncosted
                  << "')";
      described << (i == preferred ? " (the model's choice)" : "") << "\n";
    }
    structures.insert(i == preferred ? structures.begin() : structures.end(),
                      std::move(structure));
  }
  return structures;
}

/// The model's terms for each program of `assignment` under its
/// schedules, read from each structure's `programs` (StructureTerms' list
/// of that model's); std::nullopt when the model cannot cost one of them.
template <typename Terms>
std::optional<std::vector<Terms>>
termsOf(const ScheduleAssignment &assignment,
        const std::vector<StructureTerms> &terms,
        std::vector<ProgramTermsOf<Terms>> StructureTerms::*programs) {
  auto structure = llvm::find_if(terms, [&](const StructureTerms &s) {
    return s.rewrites == assignment.rewrites;
  });
  if (structure == terms.end() || ((*structure).*programs).empty())
    return std::nullopt;
  std::vector<Terms> costs;
  for (const ProgramTermsOf<Terms> &program : (*structure).*programs) {
    auto named = assignment.programs.find(program.program);
    std::optional<Terms> cost = program.heuristics;
    if (named != assignment.programs.end()) {
      auto candidate = program.candidates.find(named->second);
      cost = candidate == program.candidates.end()
                 ? std::nullopt
                 : std::optional<Terms>(candidate->second);
    }
    if (!cost)
      return std::nullopt;
    costs.push_back(*cost);
  }
  return costs;
}

/// What `trial` measured, with the model's terms (`Sample`'s, termsOf);
/// std::nullopt when it was not measured or the model cannot cost one of
/// its programs.
template <typename Sample, typename Terms>
std::optional<Sample>
sampleOf(const Trial &trial, const std::vector<StructureTerms> &terms,
         std::vector<ProgramTermsOf<Terms>> StructureTerms::*programs) {
  if (!trial.measurement)
    return std::nullopt;
  std::optional<std::vector<Terms>> costs =
      termsOf(trial.assignment, terms, programs);
  if (!costs)
    return std::nullopt;
  return Sample{trial.medianUs(), std::move(*costs)};
}

/// --check: the tuned schedules' outputs against the reference interpreter.
int checkBest(ModuleOp module, const RunInputs &run, KernelMeasurer &measurer,
              const ScheduleAssignment &best) {
  std::string why;
  std::optional<std::vector<rt::HostTensor>> outputs =
      measurer.outputsOf(best, why);
  if (!outputs)
    return userError("the tuned schedules failed on a second run: " + why);
  alg::KernelOp kernel = *module.getOps<alg::KernelOp>().begin();
  std::vector<OutputCheck> checks;
  if (std::string e = checkOutputs(kernel, run.sizes, run.tensors, *outputs,
                                   *measurer.deviceTolerance(), checks);
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

/// The refit the measurements in `database` on `machine` give the
/// target's model, as a line.
void printRefit(const TuningDatabase &database, const TargetInfo &target,
                const std::string &machine) {
  ModelCalibration calibration =
      modelCalibrationOf(database, "", target, machine, /*used=*/false);
  std::string refit = calibration.describeRefit();
  llvm::outs() << "tune: the database holds " << calibration.measurements
               << " measurements on this " << (target.isCPU() ? "host" : "GPU");
  if (refit.empty()) {
    llvm::outs() << ", fewer than " << kMinRefitSamples << ": the "
                 << (target.isCPU() ? "CPU model is" : "GPU models are")
                 << " not refit yet\n";
    return;
  }
  llvm::outs() << "; the " << (target.isCPU() ? "CPU model's" : "GPU models'")
               << " terms refit to them (--refit ranks with these): " << refit
               << "\n";
}

/// The trials of `result` as samples of the model whose terms each
/// structure keeps in `programs`.
template <typename Sample, typename Terms>
std::vector<Sample>
samplesOf(const TuneResult &result, const std::vector<StructureTerms> &terms,
          std::vector<ProgramTermsOf<Terms>> StructureTerms::*programs) {
  std::vector<Sample> samples;
  for (const Trial &trial : result.trials)
    if (std::optional<Sample> sample = sampleOf<Sample>(trial, terms, programs))
      samples.push_back(std::move(*sample));
  return samples;
}

/// How --plan names a planned assignment (plannedAssignments' order):
/// the heuristics, a structure's model choice, or a program's candidate
/// by the model's rank (1: its first) with the others at its choice.
std::string planLabel(const ScheduleAssignment &assignment,
                      const std::vector<StructureCandidates> &structures) {
  if (assignment.empty())
    return modelChoiceOf(structures.front()).empty()
               ? "heuristics (the model's choice)"
               : "heuristics";
  for (const StructureCandidates &s : structures)
    if (modelChoiceOf(s) == assignment)
      return structures.size() > 1 ? "model's choice, " + s.rewrites.describe()
                                   : std::string("model's choice");
  ScheduleAssignment choice = modelChoiceOf(structures.front());
  for (const ProgramCandidates &p : structures.front().programs) {
    auto named = assignment.programs.find(p.program);
    auto chosen = choice.programs.find(p.program);
    if (named == assignment.programs.end() ||
        (chosen != choice.programs.end() && chosen->second == named->second))
      continue;
    size_t rank = llvm::find(p.schedules, named->second) - p.schedules.begin();
    return p.program + ", candidate " + std::to_string(rank + 1);
  }
  return "model's choice";
}

/// --plan: the assignments the search would measure (plannedAssignments)
/// as schedule files, with their labels and what the GPU models predict
/// of them, written to opts.plan for a GPU nautc does not run on.
int writePlan(const Options &opts, const RunInputs &run,
              const TargetInfo &target,
              const std::vector<StructureCandidates> &structures,
              const std::vector<StructureTerms> &terms) {
  json::Array entries;
  std::vector<ScheduleAssignment> planned = plannedAssignments(structures);
  for (const ScheduleAssignment &assignment : planned) {
    json::Object entry{
        {"label", planLabel(assignment, structures)},
        {"schedule",
         cantFail(json::parse(measuredScheduleFileText(assignment)))}};
    if (assignment == modelChoiceOf(structures.front()))
      entry["model_choice"] = true;
    if (auto costs = termsOf(assignment, terms, &StructureTerms::gpuPrograms))
      entry["predicted_us"] = predictedUs(*costs, target.gpuModelScales);
    entries.push_back(std::move(entry));
  }
  json::Object sizes;
  for (const auto &[name, value] : run.sizes)
    sizes[name] = value;
  json::Value plan = json::Object{{"kernel", run.sig.name},
                                  {"target", target.name},
                                  {"sizes", std::move(sizes)},
                                  {"assignments", std::move(entries)}};
  std::error_code ec;
  llvm::raw_fd_ostream os(opts.plan, ec);
  if (ec)
    return userError("--plan: cannot write '" + opts.plan +
                     "': " + ec.message());
  os << llvm::formatv("{0:1}", plan) << "\n";
  llvm::outs() << "tune: planned " << planned.size()
               << " assignments (the heuristics', the model's choices and "
                  "the candidates around them) in "
               << opts.plan
               << ": time each on the device, then nautc tune --measured\n";
  return kExitSuccess;
}

/// --measured: a schedule's text as the candidates print it.
RecordedMeasurer::Normalize scheduleNormalizer(MLIRContext &context) {
  return [&context](const std::string &text,
                    std::string &why) -> std::optional<std::string> {
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &d) {
      why = d.str();
      return success();
    });
    auto schedule = llvm::dyn_cast_or_null<tile::ScheduleAttr>(
        parseAttribute(text, &context));
    if (!schedule) {
      why = "'" + text + "' is not a #tile.schedule" +
            (why.empty() ? "" : ": " + why);
      return std::nullopt;
    }
    return textOf(schedule);
  };
}

/// The trials of `result` that were measured (a candidate that does not
/// compile, faults or computes a wrong result is a trial, not measured).
size_t measuredCount(const TuneResult &result) {
  return llvm::count_if(
      result.trials, [](const Trial &t) { return t.measurement.has_value(); });
}

/// Writes the result: a record of --db (with the samples `terms` give
/// its trials), or the schedule file on stdout.
int writeResult(const Options &opts, TuningDatabase &database,
                const LoadedKernel &loaded, const TargetInfo &target,
                const std::string &machine, const RunInputs &run,
                const TuneResult &result,
                const std::vector<StructureTerms> &terms) {
  // Where the kernel has several structures, every rewrite stated, as the
  // candidates were measured: the file reproduces the structure (a sweep's
  // rows re-scheduled where it asks); the heuristics' own (nothing
  // assigned) asks for nothing.
  std::string file = scheduleFileText(result.best,
                                      /*everyRewrite=*/!result.best.empty() &&
                                          terms.size() > 1);
  std::vector<GpuSample> gpuSamples =
      target.isGPU()
          ? samplesOf<GpuSample>(result, terms, &StructureTerms::gpuPrograms)
          : std::vector<GpuSample>{};
  if (target.isGPU())
    llvm::outs() << "tune: the GPU models cost " << gpuSamples.size()
                 << " of the " << measuredCount(result)
                 << " assignments measured (samples of a record of --db, "
                    "measured on --device cuda or hip, refit them)\n";
  if (opts.db.empty()) {
    llvm::outs() << file << "\n";
    return kExitSuccess;
  }
  auto ns = [](double us) { return int64_t(std::llround(us * 1e3)); };
  TuningRecord record{loaded.structuralHash,
                      run.sig.name,
                      target.name,
                      machine,
                      run.sizes,
                      file,
                      ns(result.bestUs),
                      ns(result.baselineUs),
                      int64_t(measuredCount(result))};
  if (target.isCPU())
    record.samples =
        samplesOf<CpuSample>(result, terms, &StructureTerms::programs);
  record.modelVersion = record.samples.empty() ? 0 : kCpuModelVersion;
  record.gpuSamples = std::move(gpuSamples);
  record.gpuModelVersion = record.gpuSamples.empty() ? 0 : kGpuModelVersion;
  if (std::string e = database.addToFile(opts.db, std::move(record));
      !e.empty()) {
    // The measurements are not lost with the file: the schedule they chose.
    llvm::outs() << file << "\n";
    return userError("--db: " + e);
  }
  llvm::outs() << "tune: wrote the record to " << opts.db << "\n";
  printRefit(database, target, machine);
  return kExitSuccess;
}

/// The device --device names for `target`'s kernels, and the machine it
/// is (a record's "machine"); or std::nullopt and the reason it cannot
/// measure there in `error`, `usage` set where the options are wrong
/// (rather than the machine: no driver). For a GPU, `gpu` is device 0 of
/// the target's kind (cuda for NVIDIA, hip for AMD), checked to run the
/// target's code.
std::optional<MeasuringDevice>
measuringDevice(const Options &opts, const TargetInfo &target,
                std::string &machine, std::string &error, bool &usage,
                std::shared_ptr<rt::Device> &gpu) {
  usage = true;
  if (target.isCPU()) {
    if (opts.device != "cpu") {
      error = "nautc tune measures --target cpu kernels on --device cpu";
      return std::nullopt;
    }
    machine = hostDescription();
    return MeasuringDevice::Cpu;
  }
  if (target.isNVIDIA() && opts.device == "emu") {
    machine = "the SIMT emulator (" + target.name + "; its own times)";
    return MeasuringDevice::Emulator;
  }
  std::string kind = target.isNVIDIA() ? "cuda" : "hip";
  if (opts.device != kind) {
    error = target.isNVIDIA()
                ? "nautc tune measures " + target.name +
                      " kernels on --device cuda (an NVIDIA GPU), or on "
                      "--device emu (the emulator, whose times are its own: "
                      "a test of the tuner, not a tuning)"
                : "nautc tune measures " + target.name +
                      " kernels on --device hip (an AMD GPU)";
    return std::nullopt;
  }
  std::unique_ptr<rt::Device> opened;
  if (std::string e = rt::openDevice(kind, 0, opened); !e.empty()) {
    error = "cannot measure on " + kind + ": " + e;
    usage = false;
    return std::nullopt;
  }
  // Whether the GPU runs the target's code, before any candidate compiles.
  rt::Bundle probe;
  probe.target = target.name;
  probe.chip = target.chip;
  probe.code[target.isNVIDIA() ? "ptx" : "hsaco"] = "";
  if (std::string e = opened->accepts(probe); !e.empty()) {
    error = "cannot measure on " + kind + ": " + e;
    usage = false;
    return std::nullopt;
  }
  machine = opened->description();
  gpu = std::move(opened);
  return MeasuringDevice::Gpu;
}

/// Under --refit, the scales the measurements in `database` on `machine`
/// refit the target's model to: the CPU model's returned, the GPU models'
/// set on `target` (where too few, none).
CpuTermScales refitOf(const Options &opts, const TuningDatabase &database,
                      const std::string &machine, TargetInfo &target) {
  ModelCalibration calibration =
      modelCalibrationOf(database, opts.db, target, machine, opts.refit);
  target.gpuModelScales = calibration.gpuScales();
  return calibration.cpuScales();
}

/// The search's outcome, as a line.
void printResult(const TuneResult &result) {
  size_t measured = measuredCount(result);
  llvm::outs() << "tune: best " << llvm::format("%.1f us", result.bestUs)
               << ", heuristics " << llvm::format("%.1f us", result.baselineUs)
               << " ("
               << llvm::format("%.2fx", result.baselineUs / result.bestUs)
               << ")";
  if (result.modelChoiceUs)
    llvm::outs() << ", the model's choice "
                 << llvm::format("%.1f us", *result.modelChoiceUs) << " ("
                 << llvm::format("%.2fx", *result.modelChoiceUs / result.bestUs)
                 << ")";
  llvm::outs() << ", " << measured << " measured"
               << (result.budgetSpent ? " (the budget ran out)" : "")
               << (result.confirmed ? "; the fastest measured again (" +
                                          std::to_string(result.confirmations) +
                                          " rounds), by medians"
                                    : "")
               << "\n";
}

/// The usage error of tune's options for `target`, or "".
std::string tuneUsageError(const Options &opts, const TargetInfo &target) {
  if (!opts.plan.empty() && !opts.measured.empty())
    return "--plan lists what to measure and --measured reads the times "
           "back: give one of them";
  // (The CPU model describes this host, which measures itself.)
  if ((!opts.plan.empty() || !opts.measured.empty()) && target.isCPU())
    return "--plan and --measured are for a GPU nautc does not run on: the "
           "host CPU measures its own kernels (--device cpu)";
  if ((!opts.plan.empty() || !opts.measured.empty()) && opts.check)
    return "--check compares a device's outputs with the interpreter's: "
           "with --plan or --measured nothing runs here (each measurement "
           "was checked where it ran)";
  if (!opts.plan.empty() && !opts.db.empty() && !opts.refit)
    return "--plan writes no record: --db takes the record tune --measured "
           "writes (with --refit, --plan ranks with the database's refit)";
  if (opts.device == "emu" && !opts.db.empty() && opts.measured.empty())
    return "the emulator's times rank nothing on a GPU: tune --device emu "
           "prints the schedule file (a test of the tuner), and --db keeps "
           "measurements of --device cuda, hip or cpu";
  return "";
}

} // namespace

int nautilus::runTune(const Options &opts) {
  TargetInfo target = targetForDevice(opts);
  // (Usage first: a bad command line is told so whatever the machine.)
  if (std::string e = tuneUsageError(opts, target); !e.empty())
    return usageError(e);
  // --plan and --measured measure nothing here: no device is opened.
  bool offline = !opts.plan.empty() || !opts.measured.empty();
  std::string machine, error;
  bool usage = true;
  std::shared_ptr<rt::Device> gpu; // a GPU: shared by every candidate
  std::optional<MeasuringDevice> device;
  if (!offline) {
    device = measuringDevice(opts, target, machine, error, usage, gpu);
    if (!device)
      return usage ? usageError(error) : userError(error);
  }
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts.source(), context, sourceMgr,
                          /*bindShape=*/false, loaded))
    return rc;
  RunInputs run;
  if (int rc = prepareInputs(opts, loaded.kernel, run, /*draw=*/!offline))
    return rc;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  if (failed(bindSizes(*loaded.module, run.sizes)))
    return kExitUserError;
  RecordedMeasurer recorded;
  if (!opts.measured.empty()) {
    if (std::string e =
            recorded.load(opts.measured, scheduleNormalizer(context));
        !e.empty())
      return userError("--measured: " + e);
    if (std::string e = recorded.mismatch(run.sig.name, target.name, run.sizes);
        !e.empty())
      return userError("--measured: '" + opts.measured + "': " + e);
    machine = recorded.machine();
  }

  // Under --refit, the database's records of this host refit the model
  // that ranks the candidates.
  TuningDatabase database;
  if (!opts.db.empty()) {
    if (std::string e = database.load(opts.db); !e.empty())
      return userError("--db: " + e);
    // (Before measuring for minutes, not after.)
    if (std::string e = TuningDatabase::unwritable(opts.db);
        !e.empty() && opts.plan.empty())
      return userError("--db: " + e);
  }
  CpuTermScales cpuScales = refitOf(opts, database, machine, target);
  std::string described;
  llvm::raw_string_ostream describedOs(described);
  std::vector<StructureTerms> terms;
  std::vector<StructureCandidates> structures = structuresOf(
      *loaded.module, target, opts.perProgram, cpuScales, describedOs, terms);
  size_t programs = 0, total = 0;
  for (const StructureCandidates &s : structures)
    for (const ProgramCandidates &p : s.programs) {
      ++programs;
      total += p.schedules.size();
    }
  llvm::outs() << "tune: kernel " << run.sig.name << " "
               << (machine.empty() ? "for " + target.name : "on " + machine)
               << ": " << structures.size()
               << (structures.size() == 1 ? " structure, " : " structures, ")
               << programs << " programs to tune, " << total << " candidates\n"
               << described;
  if (offline && structures.empty())
    return userError("the kernel's programs do not lower for " + target.name +
                     " in any structure: nothing to plan or search");
  if (!opts.plan.empty())
    return writePlan(opts, run, target, structures, terms);
  // The device's measurements, or --measured's (each time recorded once,
  // as many runs' median: nothing to measure again).
  std::unique_ptr<KernelMeasurer> live;
  Measurer *measurer = &recorded;
  TuneBudget budget{opts.budgetSeconds, opts.budgetCandidates};
  if (opts.measured.empty()) {
    live = std::make_unique<KernelMeasurer>(*loaded.module, target, *device,
                                            run.sizes, run.tensors,
                                            !opts.noVerify, gpu);
    measurer = live.get();
  } else {
    budget.seconds = 0;
    budget.confirmations = 0;
  }
  std::string why;
  std::optional<TuneResult> result =
      tune(structures, *measurer, budget, &llvm::errs(), why);
  if (!result)
    return userError("cannot measure the kernel: " + why);
  if (!opts.measured.empty())
    llvm::outs() << "tune: the search asked for " << recorded.used()
                 << " of the " << recorded.size()
                 << " assignments --measured holds\n";
  printResult(*result);
  // (--check is refused with --measured: `live` measured.)
  if (opts.check)
    if (int rc = checkBest(*loaded.module, run, *live, result->best))
      return rc;
  return writeResult(opts, database, loaded, target, machine, run, *result,
                     terms);
}
