//===- ScheduleProvider.h - The one place schedules are decided -*- C++ -*-===//
//
// Every schedule a program gets is decided by a ScheduleProvider: the passes
// that form programs (convert-alg-to-tile, tile-group-routed-contractions,
// tile-form-contractions, tile-materialize-computed-operands, the split
// passes) ask it, with the facts they derived, and write its answer on the
// program as `#tile.schedule`; every later pass only reads that attribute.
// After the programs are formed, tile-apply-schedules asks the provider
// whether it replaces any program's schedule as a whole (a schedule file, a
// tuning database, the auto-scheduler), and checks what it gets.
//
// Providers:
//   - heuristicSchedules(): the hand-written rules of Heuristics.h;
//   - ScheduleFile (ScheduleFile.h): a user's schedules by program name,
//     the heuristics for everything else;
//   - AutoSchedules (AutoSchedules.h): the cost model's choices
//     (`--schedule auto`);
//   - DatabaseSchedules (DatabaseSchedules.h): a tuning database's
//     measured record (`--db`), over either of the others.
// A provider that answers some questions delegates the others to the
// provider it wraps (DelegatingScheduleProvider).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_SCHEDULEPROVIDER_H
#define NAUTILUS_SCHEDULE_SCHEDULEPROVIDER_H

#include "autoscheduler/CpuRefit.h"
#include "autoscheduler/GpuRefit.h"
#include "autoscheduler/Rewrites.h"
#include "autoscheduler/SpaceSearch.h"
#include "compiler/Schedule/Heuristics.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nautilus {

/// The output extents of a program (std::nullopt where not bound).
using Extents = llvm::ArrayRef<std::optional<int64_t>>;

/// A tile program whose invariants the verifier refuted, and the schedule
/// it had.
struct RefutedProgram {
  std::string name;
  tile::ScheduleAttr schedule;
};

/// One structure of a kernel (the programs one choice of the alg rewrites
/// gives it: autoscheduler/Rewrites.h) as the target's model predicts it.
struct StructurePrediction {
  autosched::RewriteChoice rewrites;
  /// The sum of the model's best time of each of its programs, when the
  /// model can cost every one.
  std::optional<double> predictedUs;
  std::string uncosted; // when not: the first program it cannot cost
  std::string model = "CPU"; // the target's model: "CPU" or "GPU"
};

/// What a tuning database (`--db`) gives the target's model: the
/// measurements of this host (the CPU model) or of one GPU (the GPU
/// models) under the current model, and the scales they refit
/// (autoscheduler/CpuRefit.h, GpuRefit.h) when there are enough of them.
struct ModelCalibration {
  std::string database; // its path
  /// Where the measurements were made: "this host", or the GPU's name.
  std::string machine = "this host";
  size_t measurements = 0;
  std::optional<autosched::CpuRefit> cpuRefit; // a CPU target's
  std::optional<autosched::GpuRefit> gpuRefit; // a GPU target's
  bool used = false; // `--refit`: rank with it (else reported only)
  autosched::CpuTermScales cpuScales() const {
    return cpuRefit && used ? cpuRefit->scales : autosched::CpuTermScales{};
  }
  GpuModelScales gpuScales() const {
    return gpuRefit && used ? gpuRefit->scales : GpuModelScales{};
  }
  /// The refit's scales and errors ("compute x1.27, ..."); "" where too
  /// few measurements refit nothing.
  std::string describeRefit() const {
    return cpuRefit   ? autosched::describe(*cpuRefit)
           : gpuRefit ? autosched::describe(*gpuRefit)
                      : "";
  }
};

/// A copy of a program with its own schedule, launched where each of
/// `ranges`' sizes (one or two) is in its range.
struct ScheduleVariant {
  std::vector<tile::SizeRangeAttr> ranges;
  tile::ScheduleAttr schedule;
};

class ScheduleProvider {
public:
  virtual ~ScheduleProvider();

  /// A program with no reduction, or one remade over new output
  /// dimensions, over `extents`.
  virtual tile::ScheduleAttr elementwise(mlir::MLIRContext *ctx,
                                         Extents extents,
                                         const TargetInfo &target) = 0;

  /// A program whose output is a reduction over an outermost extent of
  /// `reduced`, read in `shape` (see defaultReductionSchedule).
  virtual tile::ScheduleAttr
  reduction(mlir::MLIRContext *ctx, Extents extents,
            std::optional<int64_t> reduced, ReductionShape shape,
            const TargetInfo &target,
            const ReductionScheduleOptions &options) = 0;

  /// `program`'s schedule refined once its body is final: the runs of
  /// consecutive elements its threads move at a time (`vector`).
  virtual tile::ScheduleAttr vectorRuns(tile::ProgramOp program,
                                        const TargetInfo &target) = 0;

  /// The tensor-core schedule of a contraction program (see
  /// defaultContractionSchedule for the facts).
  virtual tile::ScheduleAttr
  contraction(mlir::MLIRContext *ctx, unsigned rank,
              const ContractionExtents &extents, bool wgmma,
              ComputedSides computed, const TargetInfo &target,
              std::optional<int64_t> splittableK) = 0;

  /// The schedule of the program that sums a split contraction's partials,
  /// starting from `schedule`, over `extents`.
  virtual tile::ScheduleAttr splitSum(tile::ScheduleAttr schedule,
                                      Extents extents,
                                      const TargetInfo &target) = 0;

  /// Whether alg-fuse-reductions streams chains of reductions over one
  /// index on `target` (see defaultFusesReductions); when not, `why`.
  virtual bool fusesReductions(const TargetInfo &target, std::string &why) = 0;
  /// Whether a stream recomputes the reductions its body reads point by
  /// point (see defaultRecomputesInStreams); when not, `why`.
  virtual bool recomputesInStreams(const TargetInfo &target,
                                   std::string &why) = 0;
  /// Whether alg-fuse-shared-operands computes contractions that share an
  /// operand in the definition that reads them (see
  /// defaultFusesSharedOperands); when not, `why`.
  virtual bool fusesSharedOperands(const TargetInfo &target,
                                   std::string &why) = 0;
  /// Whether tile-sweep-row-consumers writes an element-wise program
  /// that reads a program's row results in that program (see
  /// defaultSweepsRowConsumers); when not, `why`.
  virtual bool sweepsRowConsumers(const TargetInfo &target,
                                  std::string &why) = 0;
  /// Whether alg-fuse-elementwise recomputes an element-wise definition
  /// that a reduction reads again for several of its points (a
  /// contraction's computed operand) where it is read (see
  /// defaultRecomputesOperands); when not, it is stored, and `why`.
  virtual bool recomputesOperands(const TargetInfo &target,
                                  std::string &why) = 0;
  /// A schedule for `rows`, a program that reduces rows under a schedule
  /// tile-sweep-row-consumers cannot sweep its consumer in (it splits the
  /// rows, or gives each to one thread or to interleaved groups), under
  /// which it can (sharesRowsForSweep); null, the default, keeps the rows'
  /// schedule and their consumer apart.
  virtual tile::ScheduleAttr sweepableRows(tile::ProgramOp rows,
                                           const TargetInfo &target) {
    return tile::ScheduleAttr();
  }
  /// Called by tile-apply-schedules before it asks `replacement` of each
  /// program of `module`; a provider that names programs checks its names
  /// here. Failure: reported.
  virtual mlir::LogicalResult beginReplacing(mlir::ModuleOp module) {
    return mlir::success();
  }

  /// The schedule that replaces `program`'s as a whole, or a null
  /// attribute to keep it; failure when the provider's schedule for it is
  /// malformed (reported on the program).
  virtual mlir::FailureOr<tile::ScheduleAttr>
  replacement(tile::ProgramOp program, const TargetInfo &target) {
    return tile::ScheduleAttr();
  }

  /// Asked by tile-apply-schedules after `replacement(program)`: copies of
  /// `program` that replace it, each with its own schedule for ranges of
  /// sizes it leaves unbound (the choice at launch among schedules): their
  /// first ranges cover one size in order, and copies that share a first
  /// range have second ranges that cover another size in order; empty,
  /// the program stays one. Failure: reported.
  virtual mlir::FailureOr<std::vector<ScheduleVariant>>
  launchVariants(tile::ProgramOp program, const TargetInfo &target) {
    return std::vector<ScheduleVariant>();
  }

  /// Where the schedules come from, for diagnostics ("schedule file 'F'",
  /// "the hand-written heuristics").
  virtual std::string origin() const = 0;

  /// Whether the schedules are a user's (a schedule file's): a lowering
  /// that cannot meet them is then the user's to change, not a bug.
  virtual bool isUsers() const { return false; }

  /// `--explain`: how the schedules were decided, and for a searching
  /// provider, each choice with its predicted cost and the runners-up.
  virtual void explain(llvm::raw_ostream &os) const;

  /// The scales of the CPU model's terms this provider ranks with (a
  /// refit from a tuning database's measurements; 1 where there is none),
  /// for the structures the compilation predicts.
  virtual autosched::CpuTermScales cpuModelScales() const { return {}; }
  /// The GPU models' scales the provider ranks with (a refit's, under
  /// --refit; TargetInfo::gpuModelScales).
  virtual GpuModelScales gpuModelScales() const { return {}; }

  /// Whether this provider's model chooses the kernel's structure on
  /// `target` (the auto-scheduler's, without a tuning record):
  /// the compilation then predicts each structure (Pipeline/Structures.h)
  /// and schedules with `withStructure`'s provider instead.
  virtual bool choosesStructure(const TargetInfo &target) const {
    return false;
  }
  /// This provider under the rewrites of `predictions[chosen]`, which
  /// it keeps for --explain; null where it does not choose.
  virtual std::shared_ptr<ScheduleProvider>
  withStructure(std::vector<StructurePrediction> predictions,
                size_t chosen) const {
    return nullptr;
  }

  /// Whether `fallback` may give a provider to schedule with instead
  /// (the compilation then keeps what it needs to lower again).
  virtual bool canFallBack() const { return false; }
  /// The provider to schedule with instead when the verifier refutes an
  /// invariant of the `refuted` programs of this one's (a chosen schedule
  /// the compiler cannot realise correctly): null when there is none to
  /// fall back on (the heuristics', a schedule file's).
  virtual std::shared_ptr<ScheduleProvider>
  fallback(llvm::ArrayRef<RefutedProgram> refuted) const {
    return nullptr;
  }
};

/// Answers every question as the provider it wraps does; a provider that
/// answers some of them itself derives from this.
class DelegatingScheduleProvider : public ScheduleProvider {
public:
  explicit DelegatingScheduleProvider(std::shared_ptr<ScheduleProvider> next)
      : next(std::move(next)) {}

  tile::ScheduleAttr elementwise(mlir::MLIRContext *ctx, Extents extents,
                                 const TargetInfo &target) override {
    return next->elementwise(ctx, extents, target);
  }
  tile::ScheduleAttr reduction(mlir::MLIRContext *ctx, Extents extents,
                               std::optional<int64_t> reduced,
                               ReductionShape shape, const TargetInfo &target,
                               const ReductionScheduleOptions &options) override {
    return next->reduction(ctx, extents, reduced, shape, target, options);
  }
  tile::ScheduleAttr vectorRuns(tile::ProgramOp program,
                                const TargetInfo &target) override {
    return next->vectorRuns(program, target);
  }
  tile::ScheduleAttr contraction(mlir::MLIRContext *ctx, unsigned rank,
                                 const ContractionExtents &extents, bool wgmma,
                                 ComputedSides computed,
                                 const TargetInfo &target,
                                 std::optional<int64_t> splittableK) override {
    return next->contraction(ctx, rank, extents, wgmma, computed, target,
                             splittableK);
  }
  tile::ScheduleAttr splitSum(tile::ScheduleAttr schedule, Extents extents,
                              const TargetInfo &target) override {
    return next->splitSum(schedule, extents, target);
  }
  bool fusesReductions(const TargetInfo &target, std::string &why) override {
    return next->fusesReductions(target, why);
  }
  bool recomputesInStreams(const TargetInfo &target,
                           std::string &why) override {
    return next->recomputesInStreams(target, why);
  }
  bool fusesSharedOperands(const TargetInfo &target,
                           std::string &why) override {
    return next->fusesSharedOperands(target, why);
  }
  bool sweepsRowConsumers(const TargetInfo &target, std::string &why) override {
    return next->sweepsRowConsumers(target, why);
  }
  bool recomputesOperands(const TargetInfo &target, std::string &why) override {
    return next->recomputesOperands(target, why);
  }
  tile::ScheduleAttr sweepableRows(tile::ProgramOp rows,
                                   const TargetInfo &target) override {
    return next->sweepableRows(rows, target);
  }
  mlir::LogicalResult beginReplacing(mlir::ModuleOp module) override {
    return next->beginReplacing(module);
  }
  mlir::FailureOr<tile::ScheduleAttr>
  replacement(tile::ProgramOp program, const TargetInfo &target) override {
    return next->replacement(program, target);
  }
  mlir::FailureOr<std::vector<ScheduleVariant>>
  launchVariants(tile::ProgramOp program, const TargetInfo &target) override {
    return next->launchVariants(program, target);
  }
  std::string origin() const override { return next->origin(); }
  bool isUsers() const override { return next->isUsers(); }
  void explain(llvm::raw_ostream &os) const override { next->explain(os); }
  autosched::CpuTermScales cpuModelScales() const override {
    return next->cpuModelScales();
  }
  GpuModelScales gpuModelScales() const override {
    return next->gpuModelScales();
  }

protected:
  std::shared_ptr<ScheduleProvider> next;
};

/// A provider that states which alg rewrites it wants (a schedule file's
/// keys, the structure the auto-scheduler chose) answers the rewrite
/// questions from them, giving its reason for each it leaves out, and
/// every other question as the provider it wraps.
class RewriteStatingProvider : public DelegatingScheduleProvider {
public:
  using DelegatingScheduleProvider::DelegatingScheduleProvider;

  bool fusesReductions(const TargetInfo &target, std::string &why) override {
    if (refuses(&autosched::RewriteChoice::fuseReductions,
                autosched::kFuseReductionsKey, why))
      return false;
    return next->fusesReductions(target, why);
  }
  bool recomputesInStreams(const TargetInfo &target,
                           std::string &why) override {
    if (refuses(&autosched::RewriteChoice::recomputeInStreams,
                autosched::kRecomputeInStreamsKey, why))
      return false;
    return next->recomputesInStreams(target, why);
  }
  bool fusesSharedOperands(const TargetInfo &target,
                           std::string &why) override {
    if (refuses(&autosched::RewriteChoice::fuseSharedOperands,
                autosched::kFuseSharedOperandsKey, why))
      return false;
    // Asked for, they are fused wherever the target's lowering can run
    // them, even where the provider it wraps would keep them apart.
    if (asksFor(&autosched::RewriteChoice::fuseSharedOperands,
                autosched::kFuseSharedOperandsKey))
      return canFuseSharedOperands(target, why);
    return next->fusesSharedOperands(target, why);
  }
  bool sweepsRowConsumers(const TargetInfo &target, std::string &why) override {
    if (refuses(&autosched::RewriteChoice::sweepRowConsumers,
                autosched::kSweepRowConsumersKey, why))
      return false;
    return next->sweepsRowConsumers(target, why);
  }
  bool recomputesOperands(const TargetInfo &target, std::string &why) override {
    if (refuses(&autosched::RewriteChoice::recomputeOperands,
                autosched::kRecomputeOperandsKey, why))
      return false;
    return next->recomputesOperands(target, why);
  }
  /// Asked for, a sweep re-schedules the rows it needs shared
  /// (sweepableRowsSchedule: the GPU model's best such schedule), even
  /// where the provider it wraps would keep them apart.
  tile::ScheduleAttr sweepableRows(tile::ProgramOp rows,
                                   const TargetInfo &target) override;

  /// The rewrites it states; std::nullopt: the wrapped provider's.
  virtual std::optional<autosched::RewriteChoice> statedRewrites() const = 0;
  /// Whether it asks for `rewrite` (a schedule file's `key`), not merely
  /// leaves it to the provider it wraps: a structure it states that
  /// makes it (the auto-scheduler's choice); a schedule file only where it
  /// says `key: true` (ScheduleFile). Asked for are contractions that share
  /// an operand fused, and row consumers swept, wherever the lowering can.
  virtual bool asksFor(bool autosched::RewriteChoice::*rewrite,
                       llvm::StringRef key) const {
    std::optional<autosched::RewriteChoice> stated = statedRewrites();
    return stated && (*stated).*rewrite;
  }

protected:
  /// Why it leaves out the rewrite a schedule file names `key`.
  virtual std::string refusalOf(llvm::StringRef key) const = 0;

private:
  bool refuses(bool autosched::RewriteChoice::*rewrite, llvm::StringRef key,
               std::string &why) const {
    std::optional<autosched::RewriteChoice> stated = statedRewrites();
    if (!stated || (*stated).*rewrite)
      return false;
    why = refusalOf(key);
    return true;
  }
};

/// The hand-written rules of Heuristics.h (one shared instance).
std::shared_ptr<ScheduleProvider> heuristicSchedules();

/// What `--schedule default` (and a JIT request that names no schedules)
/// means on `target`: "auto" on the CPU, where the model's choice ran no
/// slower than the heuristics' on every workload of bench/cpu_tune.py;
/// "heuristics" on GPUs, where bench/gpu's tuning mode has measured the
/// model's choices behind the heuristics' (a decoding step's split).
llvm::StringRef defaultScheduleOn(const TargetInfo &target);

/// Whether a `--schedule` value is a schedule file's path (not one of
/// "default", "heuristics" and "auto"; "" is the default).
bool namesScheduleFile(llvm::StringRef schedule);

/// The provider `--schedule` names on `target`: "heuristics" (the
/// hand-written rules), "auto" (AutoSchedules.h, each search keeping
/// `listedCandidates` for --explain: 0 its default,
/// AutoSchedules::kAllCandidates all; its CPU model refit by
/// `calibration` where given, its spaces searched as `search` says, a CPU
/// program over unbound sizes exhaustively over its samples),
/// "default" or "" (the target's: defaultScheduleOn) or the path of a
/// schedule file (ScheduleFile.h: its programs, the heuristics for the
/// others).
std::shared_ptr<ScheduleProvider>
scheduleProviderFor(llvm::StringRef schedule, const TargetInfo &target,
                    size_t listedCandidates = 0,
                    std::optional<ModelCalibration> calibration = {},
                    const autosched::SearchOptions &search = {});

} // namespace nautilus

#endif
