//===- Tuner.cpp - Measured search over programs' schedules ---------------===//
#include "autoscheduler/Tuner.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <chrono>

using namespace nautilus::autosched;

Measurer::~Measurer() = default;

std::string
nautilus::autosched::scheduleFileText(const ScheduleAssignment &assignment) {
  llvm::json::Object programs;
  for (const auto &[program, schedule] : assignment)
    programs[program] = schedule;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(
      llvm::json::Object{{"programs", std::move(programs)}});
  return text;
}

namespace {

/// One search: its budget, its clock and what it measured.
class Search {
public:
  Search(Measurer &measurer, const TuneBudget &budget,
         llvm::raw_ostream *progress)
      : measurer(measurer), budget(budget), progress(progress),
        start(std::chrono::steady_clock::now()) {}

  bool spent() const {
    if (budget.candidates && result.trials.size() >= budget.candidates)
      return true;
    return budget.seconds > 0 && elapsedSeconds() >= budget.seconds;
  }

  /// Measures `assignment` (once: a repeated one is looked up), and makes
  /// it the best when it is faster.
  void tryAssignment(const ScheduleAssignment &assignment,
                     llvm::StringRef label) {
    for (const Trial &t : result.trials)
      if (t.assignment == assignment)
        return;
    Trial trial{assignment, std::nullopt, ""};
    trial.measurement = measurer.measure(assignment, trial.why);
    report(trial, label);
    if (trial.measurement && (result.trials.empty() ||
                              trial.measurement->medianUs < result.bestUs)) {
      result.best = assignment;
      result.bestUs = trial.measurement->medianUs;
    }
    if (result.trials.empty() && trial.measurement)
      result.baselineUs = trial.measurement->medianUs;
    result.trials.push_back(std::move(trial));
  }

  TuneResult result;

private:
  double elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

  void report(const Trial &trial, llvm::StringRef label) const {
    if (!progress)
      return;
    *progress << llvm::format("tune: [%3zu] %6.1f s  ",
                              result.trials.size() + 1, elapsedSeconds())
              << label << ": ";
    if (trial.measurement)
      *progress << llvm::format("%.1f us", trial.measurement->medianUs);
    else
      *progress << "not measured (" << trial.why << ")";
    if (trial.measurement && !result.trials.empty() &&
        trial.measurement->medianUs < result.bestUs)
      *progress << "  best so far";
    *progress << "\n";
    progress->flush();
  }

  Measurer &measurer;
  TuneBudget budget;
  llvm::raw_ostream *progress;
  std::chrono::steady_clock::time_point start;
};

} // namespace

std::optional<TuneResult>
nautilus::autosched::tune(const std::vector<ProgramCandidates> &programs,
                          Measurer &measurer, const TuneBudget &budget,
                          llvm::raw_ostream *progress, std::string &why) {
  Search search(measurer, budget, progress);
  search.tryAssignment({}, "heuristics");
  if (!search.result.trials.front().measurement) {
    why = "the heuristics' schedules: " + search.result.trials.front().why;
    return std::nullopt;
  }
  ScheduleAssignment modelChoice;
  for (const ProgramCandidates &p : programs)
    if (!p.schedules.empty())
      modelChoice[p.program] = p.schedules.front();
  std::string label = "model's choice";
  for (const auto &[program, schedule] : modelChoice)
    label += " " + program + " " + schedule;
  if (!search.spent())
    search.tryAssignment(modelChoice, label);
  // Coordinate descent from the best so far, a program at a time.
  for (const ProgramCandidates &p : programs) {
    for (const std::string &schedule : p.schedules) {
      if (search.spent()) {
        search.result.budgetSpent = true;
        return std::move(search.result);
      }
      ScheduleAssignment next = search.result.best;
      next[p.program] = schedule;
      search.tryAssignment(next, p.program + " " + schedule);
    }
  }
  return std::move(search.result);
}
