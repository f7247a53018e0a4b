//===- Tuner.h - Measured search over programs' schedules -------*- C++ -*-===//
//
// `nautc tune`'s search. A kernel comes in one or more structures (the
// programs one choice of alg rewrites gives it: Rewrites.h), the model's
// preferred first; each program of a structure comes with its candidate
// schedules, best first by the cost model. A Measurer (the JIT side
// implements it: compiler/Pipeline/KernelMeasurer.h) times the whole
// kernel under an assignment (a structure and schedules for its
// programs), once its outputs matched the reference. The search measures
// the heuristics' schedules (the baseline), the model's first choices in
// each structure, then improves one program at a time in the structure
// measured fastest (coordinate descent: each candidate of a program, in
// the model's order, with the others at their best so far), until every
// candidate was tried or the budget is spent. A single measurement on a
// shared machine can be off by 10% and more, so the fastest few
// assignments, the model's choice and the heuristics' are then measured
// again, in turns (a round each), and the best is chosen by the median of
// each one's measurements; under a budget in seconds the descent stops
// while the rounds still fit (their time estimated from the measurements
// so far), so that the choice rests on medians rather than on one noisy
// timing of each of more candidates (the model ranks them: the best is
// rarely in the tail). After the
// rounds asked for, more rounds of those near the fastest follow while
// the budget lasts and the two fastest medians are close (within
// kCloseMedians), so that a choice between near equals rests on more than
// a few timings. The folder links no device: measurements come only
// through the interface.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_TUNER_H
#define NAUTILUS_AUTOSCHEDULER_TUNER_H

#include "autoscheduler/Rewrites.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// A structure and schedules for its programs.
struct ScheduleAssignment {
  RewriteChoice rewrites;
  /// Program name -> the text of its #tile.schedule. A program not named
  /// keeps the heuristics' schedule.
  std::map<std::string, std::string> programs;

  /// The heuristics' schedules in the default structure.
  bool empty() const { return rewrites.isDefault() && programs.empty(); }
  bool operator==(const ScheduleAssignment &o) const {
    return rewrites == o.rewrites && programs == o.programs;
  }
};

/// The schedule file ({"programs": {...}}, with the rewrites that are not
/// the default: "fuse_reductions": false) that states `assignment`; with
/// `everyRewrite`, those that are too ("fuse_shared_operands": true asks
/// for the siblings whatever the provider beneath would do: the structure
/// choice's realisation of a structure).
std::string scheduleFileText(const ScheduleAssignment &assignment,
                             bool everyRewrite = false);

/// The schedule file a measurement of `assignment` compiles with: every
/// rewrite stated (the structure as kernelStructures lowered it, a sweep's
/// rows re-scheduled where it asked for them); the heuristics' schedules
/// (an empty assignment) name nothing.
std::string measuredScheduleFileText(const ScheduleAssignment &assignment);

/// The assignment a schedule file's JSON states (scheduleFileText's
/// inverse: a rewrite the file does not state is the default), or
/// std::nullopt with `why`.
std::optional<ScheduleAssignment>
scheduleAssignmentOf(const llvm::json::Value &file, std::string &why);

struct Measurement {
  double medianUs = 0;
  size_t runs = 0;
};

class Measurer {
public:
  virtual ~Measurer();
  /// Times the kernel under `assignment`: the median of repeated runs
  /// after a warm-up, counted only once the outputs matched the reference.
  /// std::nullopt with `why` when the candidate does not compile, faults
  /// or computes a wrong result.
  virtual std::optional<Measurement>
  measure(const ScheduleAssignment &assignment, std::string &why) = 0;
};

struct ProgramCandidates {
  std::string program;
  /// Schedules to try other than the program's own (the heuristics'),
  /// best first by the model: the first is the model's choice, unless
  /// `ownFirst`.
  std::vector<std::string> schedules;
  /// The model ranks the program's own schedule first (so the model's
  /// choice leaves the program to the heuristics).
  bool ownFirst = false;
};

/// The programs one choice of rewrites gives a kernel, with their
/// candidates.
struct StructureCandidates {
  RewriteChoice rewrites;
  std::vector<ProgramCandidates> programs;
};

struct TuneBudget {
  double seconds = 60;   // wall time of measuring; 0: no limit
  size_t candidates = 0; // candidates tried; 0: no limit
  /// The fastest assignments measured again at the end (with the model's
  /// choice and the heuristics'), how many more times each at least, and
  /// at most while the two fastest medians are close.
  size_t confirmed = 3, confirmations = 2, mostConfirmations = 8;
  /// Seconds since the search began (null: the steady clock; tests give
  /// their own).
  std::function<double()> clock;
};

/// Two medians this close (the slower over the faster, less one) are
/// measured again while the budget allows: on the machines measured
/// (bench/cpu_tune.py) one kernel's medians spread over 5-10%.
constexpr double kCloseMedians = 0.05;

/// The median of `times` (of an even count, the mean of the middle two).
double medianOf(std::vector<double> times);

struct Trial {
  ScheduleAssignment assignment;
  std::optional<Measurement> measurement;
  std::string why; // when not measured
  /// Its times when measured again (microseconds).
  std::vector<double> again;
  /// The median of its first time and `again` (of an even count, the
  /// mean of the middle two).
  double medianUs() const;
};

struct TuneResult {
  ScheduleAssignment best; // empty: the heuristics' schedules were best
  double bestUs = 0;
  double baselineUs = 0;
  /// The model's choice (the first structure's), when measured.
  std::optional<double> modelChoiceUs;
  std::vector<Trial> trials; // in the order measured, the baseline first
  bool budgetSpent = false;  // stopped before trying every candidate
  bool confirmed = false;    // the best chosen by medians (see above)
  size_t confirmations = 0;  // the rounds of measuring again
};

/// Searches as the file comment says, over `structures` (the model's
/// preferred first; the baseline is the heuristics' schedules under the
/// default rewrites). `progress` (when given) gets a line a measurement.
/// std::nullopt with `why` when the baseline itself cannot be measured.
std::optional<TuneResult>
tune(const std::vector<StructureCandidates> &structures, Measurer &measurer,
     const TuneBudget &budget, llvm::raw_ostream *progress, std::string &why);

/// The model's first choice of every program of `structure` (a program
/// whose own schedule the model ranks first left to the heuristics).
ScheduleAssignment modelChoiceOf(const StructureCandidates &structure);

/// What `tune` measures when every measurement ranks as the model does
/// (the model's choice fastest, each candidate slower than the one before
/// it): the heuristics' schedules, each structure's model choice, then, in
/// the model's preferred structure (the first), each candidate of each
/// program with the others at the model's choice; each once, in that
/// order. `nautc tune --plan` lists them for a device nautc does not run
/// on (its times come back through RecordedMeasurer.h).
std::vector<ScheduleAssignment>
plannedAssignments(const std::vector<StructureCandidates> &structures);

/// One structure: the default rewrites.
std::optional<TuneResult> tune(const std::vector<ProgramCandidates> &programs,
                               Measurer &measurer, const TuneBudget &budget,
                               llvm::raw_ostream *progress, std::string &why);

} // namespace nautilus::autosched

#endif
