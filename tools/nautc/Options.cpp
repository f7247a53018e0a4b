//===- Options.cpp --------------------------------------------------------===//
#include "tools/nautc/Options.h"

#include "compiler/Schedule/DatabaseSchedules.h"
#include "compiler/Schedule/ScheduleProvider.h"

#include "llvm/Support/raw_ostream.h"

using namespace nautilus;

std::string Options::schedulePath() const {
  return namesScheduleFile(schedule) ? schedule : std::string();
}

bool nautilus::blameScheduleFile(const Options &opts) {
  std::string source = opts.schedulePath();
  if (source.empty())
    source = opts.db;
  if (source.empty())
    return false;
  llvm::errs() << "nautc: error: the schedules of '" << source
               << "' cannot be lowered (see above)\n";
  return true;
}

/// The search options, with a progress line where errors go to a
/// terminal.
static autosched::SearchOptions searchOptionsOf(const Options &opts) {
  autosched::SearchOptions search = opts.search;
  search.progress = llvm::errs().is_displayed();
  return search;
}

std::shared_ptr<ScheduleProvider>
nautilus::scheduleProviderOf(const Options &opts, const std::string &kernelHash,
                             const TargetInfo &target,
                             const std::map<std::string, int64_t> &sizes) {
  if (opts.db.empty())
    return scheduleProviderFor(opts.schedule, target, opts.explainCandidates,
                               std::nullopt, searchOptionsOf(opts));
  autosched::TuningDatabase database;
  if (std::string e = database.load(opts.db); !e.empty()) {
    llvm::errs() << "nautc: error: --db: " << e << "\n";
    return nullptr;
  }
  // The host's measurements (a GPU's, for a GPU target: the one measured
  // most) refit the model `--schedule auto` ranks with, under --refit.
  ModelCalibration calibration =
      modelCalibrationOf(database, opts.db, target,
                         target.isCPU() ? hostDescription() : "", opts.refit);
  // (Where machines have a record each: this host's, the GPU's the
  // refit is to.)
  std::string machine = target.isCPU() ? hostDescription()
                                       : database.mostMeasuredGpu(target.name);
  return DatabaseSchedules::open(
      database, opts.db, TuningKey{kernelHash, target.name, sizes, machine},
      scheduleProviderFor(opts.schedule, target, opts.explainCandidates,
                          calibration, searchOptionsOf(opts)));
}
