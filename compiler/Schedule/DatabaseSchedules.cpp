//===- DatabaseSchedules.cpp - Schedules from a tuning database -----------===//
#include "compiler/Schedule/DatabaseSchedules.h"
#include "compiler/Schedule/ScheduleFile.h"
#include "dialects/Alg/KernelSignature.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace nautilus;

namespace {

std::string sizesText(const std::map<std::string, int64_t> &sizes) {
  return sizes.empty() ? "(no sizes)" : formatShapeList(sizes);
}

/// The program names the record's schedule file gives.
std::vector<std::string> namedPrograms(const std::string &scheduleText) {
  std::vector<std::string> names;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(scheduleText);
  if (!json) {
    llvm::consumeError(json.takeError());
    return names;
  }
  if (const llvm::json::Object *top = json->getAsObject())
    if (const llvm::json::Object *programs = top->getObject("programs"))
      for (const auto &entry : *programs)
        names.push_back(entry.first.str());
  return names;
}

} // namespace

std::shared_ptr<DatabaseSchedules>
DatabaseSchedules::open(const autosched::TuningDatabase &database,
                        const std::string &path, const TuningKey &key,
                        std::shared_ptr<ScheduleProvider> next) {
  std::shared_ptr<DatabaseSchedules> provider(
      new DatabaseSchedules(path, next));
  if (auto found =
          database.lookup(key.kernelHash, key.target, key.sizes, key.machine)) {
    provider->record = *found->first;
    provider->match = found->second;
    provider->recordSchedules = std::make_shared<ScheduleFile>(
        path, next, provider->record->schedule, provider->origin());
  }
  return provider;
}

std::shared_ptr<ScheduleProvider>
DatabaseSchedules::withStructure(std::vector<StructurePrediction> predictions,
                                 size_t chosen) const {
  std::shared_ptr<ScheduleProvider> chosenNext =
      next->withStructure(std::move(predictions), chosen);
  if (!chosenNext)
    return nullptr;
  // (No record: see choosesStructure.)
  return std::shared_ptr<DatabaseSchedules>(
      new DatabaseSchedules(path, chosenNext));
}

const char *DatabaseSchedules::staleRecordUse() const {
  // Its rewrite choices shaped the kernel before its programs (and so its
  // staleness) were known.
  std::optional<autosched::RewriteChoice> rewrites =
      recordSchedules->statedRewrites();
  return rewrites && !rewrites->isDefault()
             ? "its schedules are ignored (its rewrite choices, applied "
               "before the programs existed, are kept)"
             : "the record is ignored";
}

std::string DatabaseSchedules::origin() const {
  if (!record)
    return next->origin();
  return "tuning database '" + path + "' (the record at " +
         sizesText(record->sizes) + ")";
}

bool DatabaseSchedules::fusesReductions(const TargetInfo &target,
                                        std::string &why) {
  return recordSchedules ? recordSchedules->fusesReductions(target, why)
                         : next->fusesReductions(target, why);
}

bool DatabaseSchedules::recomputesInStreams(const TargetInfo &target,
                                            std::string &why) {
  return recordSchedules ? recordSchedules->recomputesInStreams(target, why)
                         : next->recomputesInStreams(target, why);
}

bool DatabaseSchedules::fusesSharedOperands(const TargetInfo &target,
                                            std::string &why) {
  return recordSchedules ? recordSchedules->fusesSharedOperands(target, why)
                         : next->fusesSharedOperands(target, why);
}

bool DatabaseSchedules::sweepsRowConsumers(const TargetInfo &target,
                                           std::string &why) {
  return recordSchedules ? recordSchedules->sweepsRowConsumers(target, why)
                         : next->sweepsRowConsumers(target, why);
}

bool DatabaseSchedules::recomputesOperands(const TargetInfo &target,
                                           std::string &why) {
  return recordSchedules ? recordSchedules->recomputesOperands(target, why)
                         : next->recomputesOperands(target, why);
}

tile::ScheduleAttr DatabaseSchedules::sweepableRows(tile::ProgramOp rows,
                                                    const TargetInfo &target) {
  return recordSchedules ? recordSchedules->sweepableRows(rows, target)
                         : next->sweepableRows(rows, target);
}

LogicalResult DatabaseSchedules::beginReplacing(ModuleOp module) {
  if (!record)
    return next->beginReplacing(module);
  for (const std::string &name : namedPrograms(record->schedule)) {
    if (module.lookupSymbol<tile::ProgramOp>(name))
      continue;
    emitWarning(module.getLoc())
        << "tuning database '" << path << "': the record for this kernel "
        << "names program '" << name
        << "', which it no longer has (tuned by another version of "
           "nautc?); "
        << staleRecordUse() << ": run `nautc tune` again";
    stale = true;
    return next->beginReplacing(module);
  }
  return recordSchedules->beginReplacing(module);
}

FailureOr<tile::ScheduleAttr>
DatabaseSchedules::replacement(tile::ProgramOp program,
                               const TargetInfo &target) {
  if (!record || stale)
    return next->replacement(program, target);
  return recordSchedules->replacement(program, target);
}

void DatabaseSchedules::explain(llvm::raw_ostream &os) const {
  if (!record) {
    os << "explain: tuning database '" << path
       << "' has no record for this kernel, target and sizes (nor sizes in "
          "their bucket)\n";
  } else if (stale) {
    os << "explain: tuning database '" << path
       << "': the record for this kernel is stale: " << staleRecordUse()
       << "\n";
  } else {
    os << "explain: tuning database '" << path << "': the record at "
       << sizesText(record->sizes)
       << (match == autosched::RecordMatch::Exact ? " (these sizes)"
                                                  : " (sizes in their bucket)")
       << " gives the programs it names their measured schedules: "
       << llvm::format("%.1f", record->measuredNs * 1e-3)
       << " us, against the heuristics' "
       << llvm::format("%.1f", record->baselineNs * 1e-3) << " us, "
       << record->candidates << " candidates measured on "
       << (record->machine.empty() ? "an unnamed machine" : record->machine)
       << "\n";
    // A CPU record is the host's it was measured on.
    std::optional<TargetInfo> target = getTarget(record->target);
    std::string host = hostDescription();
    if (target && target->isCPU() && !record->machine.empty() &&
        record->machine != host)
      os << "explain: that is not this host (" << host
         << "): run `nautc tune` here for its own record\n";
  }
  next->explain(os);
}

ModelCalibration
nautilus::modelCalibrationOf(const autosched::TuningDatabase &database,
                             const std::string &path, const TargetInfo &target,
                             const std::string &machine, bool used) {
  ModelCalibration calibration;
  calibration.database = path;
  calibration.used = used;
  if (target.isCPU()) {
    std::vector<autosched::CpuSample> samples = database.cpuSamples(machine);
    calibration.measurements = samples.size();
    calibration.cpuRefit = autosched::refitCpuModel(samples);
    return calibration;
  }
  std::string gpu =
      machine.empty() ? database.mostMeasuredGpu(target.name) : machine;
  std::vector<autosched::GpuSample> samples =
      database.gpuSamples(target.name, gpu);
  calibration.machine = gpu.empty() ? "any GPU" : gpu;
  calibration.measurements = samples.size();
  calibration.gpuRefit = autosched::refitGpuModel(samples);
  return calibration;
}
