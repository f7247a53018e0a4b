//===- Options.cpp --------------------------------------------------------===//
#include "tools/nautc/Options.h"

#include "compiler/Schedule/DatabaseSchedules.h"
#include "compiler/Schedule/ScheduleProvider.h"

#include "llvm/Support/raw_ostream.h"

using namespace nautilus;

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

std::shared_ptr<ScheduleProvider>
nautilus::scheduleProviderOf(const Options &opts, const std::string &kernelHash,
                             const TargetInfo &target,
                             const std::map<std::string, int64_t> &sizes) {
  std::shared_ptr<ScheduleProvider> schedules =
      scheduleProviderFor(opts.schedule, opts.explainCandidates);
  if (opts.db.empty())
    return schedules;
  std::string error;
  std::shared_ptr<ScheduleProvider> database = DatabaseSchedules::open(
      opts.db, TuningKey{kernelHash, target.name, sizes}, schedules, error);
  if (!database)
    llvm::errs() << "nautc: error: " << error << "\n";
  return database;
}
