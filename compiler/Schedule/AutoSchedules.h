//===- AutoSchedules.h - Schedules the auto-scheduler chooses --*- C++ -*-===//
//
// `--schedule auto`: on a GPU, a contraction whose M and N are bound takes
// the schedule the auto-scheduler's model ranks first over its whole space
// (autoscheduler/), and one whose M or N is not, the schedule it ranks
// first over sample shapes (autoscheduler/ContractionSamples.h); on the
// CPU, each program whose extents are bound takes the tile the CPU model
// ranks first (autoscheduler/CpuSpace.h; `nautc tune` measures every
// program's), and one whose sizes are not, the tile it ranks first over
// sample shapes (autoscheduler/CpuUnboundSizes.h); on a GPU, each
// element-wise program and reduction of rows or columns whose extents are
// bound takes the tile, threads, groups, runs and split the GPU model
// ranks first (autoscheduler/GpuSpace.h), and each flash kernel its
// instructions, warps, key block and split (autoscheduler/FlashSpace.h).
// On the CPU it also chooses the kernel's structure (the alg rewrites:
// autoscheduler/Rewrites.h): the compilation predicts each structure's
// programs (Pipeline/Structures.h) and schedules with `withStructure`'s
// provider, which answers the rewrites' questions with the structure the
// model predicts fastest. Every other question goes to the provider it
// wraps (the heuristics).
// Each choice is recorded, with the model's breakdown and the runners-up,
// for `--explain`. A choice the verifier refutes is passed over: the
// kernel is lowered again with the next candidate for that problem (or
// program), and after kMaxRounds such rounds with the heuristics.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_AUTOSCHEDULES_H
#define NAUTILUS_SCHEDULE_AUTOSCHEDULES_H

#include "autoscheduler/ContractionSamples.h"
#include "autoscheduler/CpuLaunchRanges.h"
#include "autoscheduler/CpuSpace.h"
#include "autoscheduler/CpuUnboundSizes.h"
#include "autoscheduler/GpuUnboundSizes.h"
#include "autoscheduler/Search.h"
#include "compiler/Schedule/SampledViews.h"
#include "compiler/Schedule/ScheduleProvider.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <mutex>

namespace nautilus {

/// `--explain`'s lines for a division of unbound sizes into launch ranges
/// (the CPU's tiles, a GPU contraction's or other program's schedules,
/// `what`), each range's candidate described by `describe`.
void printLaunchDivision(llvm::raw_ostream &os,
                         const autosched::LaunchRanges &division,
                         const std::vector<std::string> &unbound,
                         llvm::StringRef what,
                         llvm::function_ref<std::string(size_t)> describe);

class AutoSchedules final : public RewriteStatingProvider {
public:
  /// `listed`: the candidates each search keeps (and --explain lists)
  /// besides those refuted; 0: the default (kListed), kAllCandidates: all.
  /// `calibration`: a tuning database's refit of the CPU model on this
  /// host, or of the GPU models on one GPU (its scales rank programs'
  /// schedules and the structures).
  /// `search`: how the models' spaces are searched (a CPU program's over
  /// unbound sizes, exhaustively over each sample).
  explicit AutoSchedules(std::shared_ptr<ScheduleProvider> next,
                         size_t listed = 0,
                         std::optional<ModelCalibration> calibration = {},
                         autosched::SearchOptions search = {})
      : RewriteStatingProvider(std::move(next)), listed(listed),
        calibration(std::move(calibration)), searchOptions(search) {}
  static constexpr size_t kListed = 5;
  /// How much better than the heuristics' schedule the model's best must
  /// be predicted for the model to depart from it, for a GPU program
  /// without a contraction (an element-wise program, a reduction, a flash
  /// kernel): the models rank many schedules of a memory-bound program
  /// within a percent of each other.
  static constexpr double kHeuristicsTie = 0.01;
  static constexpr size_t kAllCandidates = ~size_t(0);

  tile::ScheduleAttr contraction(mlir::MLIRContext *ctx, unsigned rank,
                                 const ContractionExtents &extents, bool wgmma,
                                 ComputedSides computed,
                                 const TargetInfo &target,
                                 std::optional<int64_t> splittableK) override;

  /// On the CPU: the CPU model's best tile for `program`; on a GPU, the
  /// GPU models' best schedule for an element-wise program, a reduction or
  /// a flash kernel (GpuPrograms.h); when it is not the program's own.
  mlir::FailureOr<tile::ScheduleAttr>
  replacement(tile::ProgramOp program, const TargetInfo &target) override;
  /// For a program whose sizes are unbound: a copy for each range of one
  /// size where the model divides its values, or for each range of
  /// another size within it (autoscheduler/LaunchRanges.h): a CPU
  /// program's, or a GPU's tensor-core contraction's.
  mlir::FailureOr<std::vector<ScheduleVariant>>
  launchVariants(tile::ProgramOp program, const TargetInfo &target) override;

  autosched::CpuTermScales cpuModelScales() const override {
    return calibration ? calibration->cpuScales() : autosched::CpuTermScales{};
  }
  GpuModelScales gpuModelScales() const override {
    return calibration ? calibration->gpuScales() : GpuModelScales{};
  }
  /// The rows a sweep re-schedules, ranked as every GPU program is (with
  /// the refit's scales under --refit).
  tile::ScheduleAttr sweepableRows(tile::ProgramOp rows,
                                   const TargetInfo &target) override {
    return RewriteStatingProvider::sweepableRows(rows, modelled(target));
  }
  /// `target` with the GPU models' scales this provider ranks with.
  TargetInfo modelled(const TargetInfo &target) const {
    TargetInfo scaled = target;
    scaled.gpuModelScales = gpuModelScales();
    return scaled;
  }

  bool choosesStructure(const TargetInfo &target) const override {
    return structures.empty();
  }
  std::shared_ptr<ScheduleProvider>
  withStructure(std::vector<StructurePrediction> predictions,
                size_t chosen) const override;
  /// The chosen structure's rewrites, once chosen; else the wrapped
  /// provider's.
  std::optional<autosched::RewriteChoice> statedRewrites() const override;

  std::string origin() const override {
    return refutedContractions.empty() && refutedCpu.empty() &&
                   refutedGpu.empty()
               ? "the auto-scheduler"
               : "the auto-scheduler's next candidates";
  }
  bool isUsers() const override { return false; }
  bool canFallBack() const override { return true; }
  /// The model's choices for the `refuted` programs refuted: an
  /// auto-scheduler that passes over them (and those refuted before), or
  /// the provider it wraps (the heuristics) when a refuted program's
  /// schedule is not one of its choices as chosen (a split-K partial
  /// program's, say) or kMaxRounds have been refuted.
  std::shared_ptr<ScheduleProvider>
  fallback(llvm::ArrayRef<RefutedProgram> refuted) const override;

  /// The lowerings with the model's candidates before the heuristics.
  static constexpr unsigned kMaxRounds = 3;

  /// Prints each choice made so far: the problem, the chosen schedule and
  /// the model's breakdown, and the runners-up.
  void explain(llvm::raw_ostream &os) const override;

  /// A division of a GPU program's unbound sizes into launch ranges (its
  /// element-wise or reduction schedules', or a flash kernel's): the
  /// schedule and description of each candidate the ranges name.
  struct GpuRangeCopies {
    autosched::LaunchRanges division;
    std::vector<tile::ScheduleAttr> schedules;
    std::vector<std::string> descriptions;
  };

private:
  struct Choice {
    autosched::ContractionProblem problem;
    autosched::SearchResult search;
    /// The candidate chosen: the first of `search.ranked` not refuted.
    size_t chosen = 0;
    /// For comparison, under the same model: the hand-written heuristics'
    /// schedule (when the space holds it) and a wave heuristic's.
    std::optional<autosched::RankedCandidate> heuristics, fewestWaves;
    /// What scheduleOf needs to print a candidate as a #tile.schedule.
    mlir::MLIRContext *ctx = nullptr;
    unsigned rank = 2;
    /// M or N unbound ("M", "N": those sampled, in order; `problem` is the
    /// largest sample, each cost at it): each ranked candidate's regrets
    /// over the sample shapes, then the heuristics'.
    std::vector<std::string> unbound;
    std::vector<autosched::SampleRegrets> regrets;
    std::optional<autosched::SampleRegrets> heuristicsRegrets;
    /// M or N unbound: the model's division of their values, each leaf a
    /// copy of the program with its own schedule; and the copies' names,
    /// once made.
    std::optional<autosched::ContractionLaunchRanges> launchRanges;
    std::vector<std::string> copies;
  };
  struct CpuChoice {
    std::string program;
    autosched::CpuProgram facts; // sizes unbound: at the largest sample
    std::vector<autosched::CpuCandidate> ranked;
    autosched::CpuCandidate heuristics;
    size_t chosen = 0; // the first of `ranked` not refuted
    size_t spaceSize = 0, predicted = 0; // sizes bound: the search's
    /// Sizes unbound: those sampled, the sample shapes, and each ranked
    /// candidate's (then the heuristics') regrets over them.
    std::vector<std::string> unbound;
    size_t sampleShapes = 0;
    std::vector<autosched::CpuSampledCandidate> regrets;
    /// Sizes unbound: the model's division of one size's values (its
    /// ranges perhaps divided again by another size), each leaf a copy of
    /// the program with its own tile; and the copies' names, once made.
    std::optional<autosched::CpuLaunchRanges> launchRanges;
    std::vector<std::string> copies;
  };
  /// The contraction problem of `extents` (M and N bound) as the search
  /// takes it.
  static autosched::ContractionProblem
  problemOf(const ContractionExtents &extents, bool wgmma,
            ComputedSides computed, std::optional<int64_t> splittableK);
  /// Records a contraction's choice (replacing the same program's first).
  void recordContraction(Choice choice);
  /// AutoSchedulesSampled.cpp: a contraction whose M or N is unbound, its
  /// schedule ranked over sample shapes (autoscheduler/ContractionSamples.h).
  tile::ScheduleAttr sampledContraction(mlir::MLIRContext *ctx, unsigned rank,
                                        const ContractionExtents &extents,
                                        bool wgmma, ComputedSides computed,
                                        const TargetInfo &target,
                                        std::optional<int64_t> splittableK);
  void explainSampledContraction(llvm::raw_ostream &os,
                                 const Choice &choice) const;
  /// A copy of a contraction program for each of its choice's launch
  /// ranges (none where its choice made none).
  std::vector<ScheduleVariant> contractionVariants(tile::ProgramOp program);
  /// A copy of `program` for each leaf of `division` (of the unbound
  /// `sizes`, by name), each with its candidate's schedule; the copies'
  /// names added to `copies`.
  static std::vector<ScheduleVariant> rangeVariants(
      tile::ProgramOp program, const autosched::LaunchRanges &division,
      const std::vector<std::string> &sizes,
      llvm::function_ref<tile::ScheduleAttr(size_t)> scheduleOfCandidate,
      std::vector<std::string> &copies);
  /// The CPU model's ranking of `program`'s tiles (at bound extents, or
  /// over samples of its unbound sizes), its heuristics' tile among them;
  /// std::nullopt where the model cannot view it.
  std::optional<CpuChoice> rankCpuProgram(tile::ProgramOp program,
                                          const TargetInfo &target) const;
  /// A schedule of a GPU program without a contraction problem (an
  /// element-wise program, a reduction, a flash kernel) as ranked, with
  /// the candidate and the model's terms as `--explain` prints them.
  struct RankedSchedule {
    tile::ScheduleAttr schedule;
    std::string description;
    double predictedUs = 0;
  };
  struct GpuChoice {
    std::string program;
    std::string what; // "over 4, a reduction of rows of 50000"
    size_t spaceSize = 0, predicted = 0;
    std::vector<RankedSchedule> ranked;
    RankedSchedule heuristics;
    bool heuristicsInSpace = false; // within the target's limits
    size_t chosen = 0; // the first of `ranked` not refuted
    /// Sizes unbound: those sampled; the model's division of one size's
    /// values (perhaps again by another), each leaf a copy of the program
    /// with its own schedule; and the copies' names, once made.
    std::vector<std::string> unbound;
    std::optional<GpuRangeCopies> launchRanges;
    std::vector<std::string> copies;
  };
  /// A schedule the verifier refuted for a contraction problem (GPU) or a
  /// program (CPU; on a GPU, a program without a contraction problem).
  struct RefutedContraction {
    autosched::ContractionProblem problem;
    tile::ScheduleAttr schedule;
  };
  struct RefutedCpuProgram {
    std::string program;
    autosched::CpuCandidate schedule; // (its cost aside)
  };
  struct RefutedGpuProgram {
    std::string program;
    tile::ScheduleAttr schedule;
  };
  bool isRefuted(const autosched::ContractionProblem &problem,
                 tile::ScheduleAttr schedule) const;
  bool isRefuted(llvm::StringRef program,
                 const autosched::CpuCandidate &candidate) const;
  bool isRefuted(llvm::StringRef program, tile::ScheduleAttr schedule) const;
  /// AutoSchedulesGpu.cpp: the GPU model's choice for a program without a
  /// contraction problem, and the choice recorded.
  mlir::FailureOr<tile::ScheduleAttr> gpuReplacement(tile::ProgramOp program,
                                                     const TargetInfo &target);
  /// The same where some of the program's sizes are unbound: one schedule
  /// for every shape, ranked over sample shapes (`choice` named, the
  /// ranking keeping `keep`).
  mlir::FailureOr<tile::ScheduleAttr>
  sampledGpuReplacement(tile::ProgramOp program, const TargetInfo &target,
                        GpuChoice choice, size_t keep);
  /// Fills `choice` from `ranked` (a sampled space, best first: its size,
  /// the best `keep` listed) and the heuristics' schedule `own` (`mine`
  /// over the same samples): each candidate's schedule from `scheduleOf`,
  /// its description from `describe`, its mean regret standing for its
  /// prediction (the heuristics' kept within kHeuristicsTie of the best's).
  template <typename Sampled, typename ScheduleOf, typename Describe>
  static void fillSampledChoice(GpuChoice &choice, std::vector<Sampled> ranked,
                                const Sampled &mine, tile::ScheduleAttr own,
                                size_t keep, size_t shapes,
                                ScheduleOf scheduleOf, Describe describe);
  /// A flash kernel's, over `samples` (one schedule; copies for ranges of
  /// up to three unbound sizes, which may split the keys).
  mlir::FailureOr<tile::ScheduleAttr>
  sampledFlashReplacement(tile::ProgramOp program, const TargetInfo &target,
                          GpuChoice choice, size_t keep,
                          const SampledViews<autosched::FlashProblem> &samples);
  /// The copies of a GPU program without a contraction problem for the
  /// launch ranges its choice divided its sizes into (none where it did
  /// not).
  std::vector<ScheduleVariant> gpuProgramVariants(tile::ProgramOp program);
  /// Adds `copies` to the latest choice recorded for `program`.
  void recordLaunchRanges(tile::ProgramOp program, GpuRangeCopies copies);
  /// Records `choice` and returns its schedule (null: the program's own),
  /// or, where no ranked schedule is live, the next provider's, recording
  /// nothing (`recorded`, when given, says which).
  mlir::FailureOr<tile::ScheduleAttr> recordGpuChoice(tile::ProgramOp program,
                                                      GpuChoice choice,
                                                      const TargetInfo &target,
                                                      bool *recorded = nullptr);
  void explainCpu(llvm::raw_ostream &os) const;
  void explainCalibration(llvm::raw_ostream &os) const;
  void explainGpu(llvm::raw_ostream &os) const;
  void explainStructures(llvm::raw_ostream &os) const;
  /// Why the chosen structure leaves a rewrite out: the model's
  /// predictions of it and of the default.
  std::string refusalOf(llvm::StringRef key) const override;

  /// The ranked candidates a search keeps when `refuted` of its own were
  /// refuted: enough to hold the best candidate not refuted (0: all).
  /// The refuted schedules of CPU program `program`.
  size_t cpuRefutations(llvm::StringRef program) const {
    return llvm::count_if(refutedCpu, [&](const RefutedCpuProgram &r) {
      return r.program == program;
    });
  }
  /// A CPU tile's variants the ranking keeps for each listed (unblocked,
  /// and in each of at most 8 blocks of K: CpuSpace.cpp's
  /// kReduceBlockChoices and kShortReduceBlockChoices).
  static constexpr size_t kCpuVariantsPerTile = 9;
  size_t keepWith(size_t refuted) const {
    if (listed == kAllCandidates)
      return 0;
    return (listed ? listed : kListed) + refuted;
  }

  /// The search options for a search of `what`: with a terminal line that
  /// follows an evolution, where the options ask for one; endProgress
  /// clears it.
  autosched::SearchOptions optionsFor(const std::string &what) const;
  void endProgress(size_t spaceSize) const;
  static std::mutex &progressMutex();
  /// `--explain`'s note of how a space was searched: "" where it was
  /// searched exhaustively.
  std::string searchedText(size_t spaceSize, size_t predicted) const;

  size_t listed = 0;
  std::optional<ModelCalibration> calibration;
  autosched::SearchOptions searchOptions;
  mutable std::mutex mutex; // passes may run in parallel
  std::vector<Choice> choices;
  std::vector<CpuChoice> cpuChoices;
  std::vector<GpuChoice> gpuChoices;
  /// Carried from round to round: what every earlier round refuted.
  std::vector<RefutedContraction> refutedContractions;
  std::vector<RefutedCpuProgram> refutedCpu;
  std::vector<RefutedGpuProgram> refutedGpu;
  unsigned round = 0;
  /// The kernel's structures as the model predicted them, and the one
  /// chosen (empty: not chosen here).
  std::vector<StructurePrediction> structures;
  size_t structureChosen = 0;
};

/// The schedule `candidate` stands for, for a contraction program of
/// `rank` output dimensions.
tile::ScheduleAttr
scheduleOf(mlir::MLIRContext *ctx, unsigned rank,
           const autosched::ContractionCandidate &candidate);

/// The candidate a tensor-core schedule stands for, if it is one the
/// space describes.
std::optional<autosched::ContractionCandidate>
candidateOf(tile::ScheduleAttr schedule);

} // namespace nautilus

#endif
