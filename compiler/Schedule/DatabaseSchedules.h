//===- DatabaseSchedules.h - Schedules from a tuning database --*- C++ -*-===//
//
// `--db PATH.json` on compile and run: when the database (autoscheduler/
// TuningDatabase.h, as `nautc tune` writes it) has a record for the
// kernel, the target and the sizes (or sizes in the same bucket), the
// programs it names take its measured schedules, as a schedule file's
// would; every other question goes to the provider it wraps (the one
// `--schedule` names: by default the model on the CPU, the heuristics on
// GPUs). A record whose programs the
// kernel no longer has (tuned by another version of nautc) is ignored
// with a warning.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_DATABASESCHEDULES_H
#define NAUTILUS_SCHEDULE_DATABASESCHEDULES_H

#include "autoscheduler/TuningDatabase.h"
#include "compiler/Schedule/ScheduleProvider.h"

#include <map>
#include <optional>

namespace nautilus {

class ScheduleFile;

/// The kernel a lookup is for.
struct TuningKey {
  std::string kernelHash; // structuralHash (LoadKernel.h)
  std::string target;
  std::map<std::string, int64_t> sizes;
  /// Whose record comes first where machines have one each (this host;
  /// for a GPU target the GPU measured most).
  std::string machine;
};

/// What `database` (read from `path`) gives `target`'s model: its
/// measurements on `machine` under the current model and their refit,
/// ranked with where `used` (--refit). On the CPU `machine` is this host;
/// on a GPU target the GPU named, or where "" (a compilation, which names
/// none) the GPU with the most samples of the target.
ModelCalibration modelCalibrationOf(const autosched::TuningDatabase &database,
                                    const std::string &path,
                                    const TargetInfo &target,
                                    const std::string &machine, bool used);

class DatabaseSchedules final : public DelegatingScheduleProvider {
public:
  /// Looks `key` up in `database` (read from `path`), which wraps
  /// `next`.
  static std::shared_ptr<DatabaseSchedules>
  open(const autosched::TuningDatabase &database, const std::string &path,
       const TuningKey &key, std::shared_ptr<ScheduleProvider> next);

  /// The record's rewrite choices (a schedule file's keys), when found.
  bool fusesReductions(const TargetInfo &target, std::string &why) override;
  bool recomputesInStreams(const TargetInfo &target, std::string &why) override;
  bool fusesSharedOperands(const TargetInfo &target, std::string &why) override;
  bool sweepsRowConsumers(const TargetInfo &target, std::string &why) override;
  bool recomputesOperands(const TargetInfo &target, std::string &why) override;
  /// The record's rows re-scheduled for its sweep (a record states every
  /// rewrite: nautc tune writes them so).
  tile::ScheduleAttr sweepableRows(tile::ProgramOp rows,
                                   const TargetInfo &target) override;
  /// Without a record, the structure is the wrapped provider's to choose
  /// (`--schedule auto`'s model).
  bool choosesStructure(const TargetInfo &target) const override {
    return !record && next->choosesStructure(target);
  }
  std::shared_ptr<ScheduleProvider>
  withStructure(std::vector<StructurePrediction> predictions,
                size_t chosen) const override;
  mlir::LogicalResult beginReplacing(mlir::ModuleOp module) override;
  mlir::FailureOr<tile::ScheduleAttr>
  replacement(tile::ProgramOp program, const TargetInfo &target) override;
  /// A record's schedules are one for every size (a record is for sizes);
  /// without one, the wrapped provider's copies.
  mlir::FailureOr<std::vector<ScheduleVariant>>
  launchVariants(tile::ProgramOp program, const TargetInfo &target) override {
    if (record && !stale)
      return std::vector<ScheduleVariant>();
    return next->launchVariants(program, target);
  }
  std::string origin() const override;
  /// A record's schedules are the user's (the database's), as a schedule
  /// file's are: one the lowering cannot meet is blamed on the record.
  bool isUsers() const override {
    return (record && !stale) || next->isUsers();
  }
  void explain(llvm::raw_ostream &os) const override;
  /// A record's schedules refuted (tuned by another version of nautc): the
  /// provider it wraps.
  bool canFallBack() const override {
    return (record && !stale) || next->canFallBack();
  }
  std::shared_ptr<ScheduleProvider>
  fallback(llvm::ArrayRef<RefutedProgram> refuted) const override {
    return record && !stale ? next : next->fallback(refuted);
  }

  /// The record used, if any.
  const std::optional<autosched::TuningRecord> &matched() const {
    return record;
  }

private:
  DatabaseSchedules(std::string path, std::shared_ptr<ScheduleProvider> next)
      : DelegatingScheduleProvider(std::move(next)), path(std::move(path)) {}

  std::string path;
  std::optional<autosched::TuningRecord> record;
  autosched::RecordMatch match = autosched::RecordMatch::Exact;
  /// What of a stale record is still used.
  const char *staleRecordUse() const;

  /// The record as a schedule file over `next`.
  std::shared_ptr<ScheduleFile> recordSchedules;
  bool stale = false; // names programs the kernel does not have
};

} // namespace nautilus

#endif
