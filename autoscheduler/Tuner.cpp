//===- Tuner.cpp - Measured search over programs' schedules ---------------===//
#include "autoscheduler/Tuner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <chrono>

using namespace nautilus::autosched;

Measurer::~Measurer() = default;

double Trial::medianUs() const {
  std::vector<double> times(again);
  times.push_back(measurement ? measurement->medianUs : 0);
  return medianOf(std::move(times));
}

double nautilus::autosched::medianOf(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  size_t middle = times.size() / 2;
  return times.size() % 2 ? times[middle]
                          : (times[middle - 1] + times[middle]) / 2;
}

std::string
nautilus::autosched::scheduleFileText(const ScheduleAssignment &assignment,
                                      bool everyRewrite) {
  llvm::json::Object programs;
  for (const auto &[program, schedule] : assignment.programs)
    programs[program] = schedule;
  llvm::json::Object file{{"programs", std::move(programs)}};
  const RewriteChoice &r = assignment.rewrites;
  for (auto [key, kept] :
       {std::make_pair(kFuseReductionsKey, r.fuseReductions),
        std::make_pair(kRecomputeInStreamsKey, r.recomputeInStreams),
        std::make_pair(kFuseSharedOperandsKey, r.fuseSharedOperands),
        std::make_pair(kSweepRowConsumersKey, r.sweepRowConsumers),
        std::make_pair(kRecomputeOperandsKey, r.recomputeOperands)})
    if (everyRewrite || !kept)
      file[key] = kept;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(file));
  return text;
}

std::string nautilus::autosched::measuredScheduleFileText(
    const ScheduleAssignment &assignment) {
  return assignment.empty()
             ? scheduleFileText(assignment)
             : scheduleFileText(assignment, /*everyRewrite=*/true);
}

std::optional<ScheduleAssignment>
nautilus::autosched::scheduleAssignmentOf(const llvm::json::Value &file,
                                          std::string &why) {
  const llvm::json::Object *object = file.getAsObject();
  const llvm::json::Object *programs =
      object ? object->getObject("programs") : nullptr;
  if (!programs) {
    why = "a schedule file is an object with a \"programs\" object";
    return std::nullopt;
  }
  ScheduleAssignment assignment;
  for (const auto &[program, schedule] : *programs) {
    std::optional<llvm::StringRef> text = schedule.getAsString();
    if (!text) {
      why = "program '" + program.str() + "': its schedule is not a string";
      return std::nullopt;
    }
    assignment.programs[program.str()] = text->str();
  }
  RewriteChoice &r = assignment.rewrites;
  std::map<std::string, bool *> rewrites{
      {kFuseReductionsKey, &r.fuseReductions},
      {kRecomputeInStreamsKey, &r.recomputeInStreams},
      {kFuseSharedOperandsKey, &r.fuseSharedOperands},
      {kSweepRowConsumersKey, &r.sweepRowConsumers},
      {kRecomputeOperandsKey, &r.recomputeOperands}};
  for (const auto &[key, value] : *object) {
    if (key == "programs")
      continue;
    auto rewrite = rewrites.find(key.str());
    std::optional<bool> kept = value.getAsBoolean();
    if (rewrite == rewrites.end() || !kept) {
      why = "'" + key.str() +
            "' is not a schedule file's key (programs, or a rewrite "
            "choice's, true or false)";
      return std::nullopt;
    }
    *rewrite->second = *kept;
  }
  return assignment;
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

  /// Whether to stop trying candidates: the budget spent, or, under a
  /// budget in seconds, no more time than the rounds of measuring again
  /// would take (confirm(): its first `budget.confirmations` rounds of the
  /// trials it would measure, at the mean time a measurement took so far).
  bool explorationSpent() {
    if (spent())
      return true;
    if (budget.seconds <= 0 || budget.confirmations == 0 || !measuredCount)
      return false;
    double perMeasurement = measuringSeconds / double(measuredCount);
    double rounds = double(budget.confirmations) *
                    double(confirmedTrials().size()) * perMeasurement;
    return elapsedSeconds() + rounds >= budget.seconds;
  }

  /// Measures `assignment` (once: a repeated one is looked up), and makes
  /// it the best when it is faster.
  void tryAssignment(const ScheduleAssignment &assignment,
                     llvm::StringRef label) {
    for (const Trial &t : result.trials)
      if (t.assignment == assignment)
        return;
    Trial trial{assignment, std::nullopt, ""};
    double began = elapsedSeconds();
    trial.measurement = measurer.measure(assignment, trial.why);
    if (trial.measurement) {
      measuringSeconds += elapsedSeconds() - began;
      ++measuredCount;
    }
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

  /// Measures the fastest trials (`budget.confirmed` of them), the
  /// model's choice and the heuristics' again, in rounds:
  /// `budget.confirmations` of all of them, then, while the budget lasts
  /// and the two fastest medians are close, of those near the fastest (up
  /// to `budget.mostConfirmations` rounds in all); takes the best by
  /// medians.
  void confirm() {
    std::vector<Trial *> top = confirmedTrials();
    if (top.size() < 2 || budget.confirmations == 0)
      return;
    auto byMedian = [](Trial *a, Trial *b) {
      return a->medianUs() < b->medianUs();
    };
    size_t rounds = 0;
    for (; rounds < budget.confirmations; ++rounds)
      measureAgain(top);
    // Then the contenders alone: those within twice kCloseMedians of the
    // least median, while the two least are close.
    for (; rounds < budget.mostConfirmations && !spent(); ++rounds) {
      std::vector<Trial *> ranked(top);
      std::stable_sort(ranked.begin(), ranked.end(), byMedian);
      double least = ranked[0]->medianUs();
      if (ranked[1]->medianUs() > least * (1 + kCloseMedians))
        break;
      llvm::erase_if(ranked, [&](Trial *t) {
        return t->medianUs() > least * (1 + 2 * kCloseMedians);
      });
      measureAgain(ranked);
    }
    // Only a trial measured again may win (one whose every new
    // measurement failed keeps a single timing).
    llvm::erase_if(top, [](Trial *t) { return t->again.empty(); });
    if (top.empty())
      return;
    Trial *best = *std::min_element(top.begin(), top.end(), byMedian);
    result.best = best->assignment;
    result.bestUs = best->medianUs();
    result.baselineUs = result.trials.front().medianUs();
    result.confirmed = true;
    result.confirmations = rounds;
  }

  /// The result, with the model's choice's time.
  TuneResult finish() {
    if (modelChoice)
      result.modelChoiceUs = result.trials[*modelChoice].medianUs();
    return std::move(result);
  }

  /// Records which trial holds the model's choice `choice`, when it was
  /// measured.
  void noteModelChoice(const ScheduleAssignment &choice) {
    for (auto [i, t] : llvm::enumerate(result.trials))
      if (t.assignment == choice && t.measurement)
        modelChoice = i;
  }

  static std::string describe(const ScheduleAssignment &assignment) {
    std::string text = assignment.rewrites.isDefault()
                           ? ""
                           : assignment.rewrites.describe() + ":";
    if (assignment.programs.empty())
      return text + (text.empty() ? "" : " ") + "heuristics";
    for (const auto &[program, schedule] : assignment.programs)
      text += (text.empty() ? "" : " ") + program + " " + schedule;
    return text;
  }

  TuneResult result;

private:
  /// The trial of the model's choice, when it was measured.
  std::optional<size_t> modelChoice;

  double elapsedSeconds() const {
    if (budget.clock)
      return budget.clock();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

  /// The seconds the measured trials took, and how many they are.
  double measuringSeconds = 0;
  size_t measuredCount = 0;

  /// The trials confirm() measures again: the fastest `budget.confirmed`
  /// measured, the model's choice and the heuristics'.
  std::vector<Trial *> confirmedTrials() {
    std::vector<Trial *> top;
    for (Trial &t : result.trials)
      if (t.measurement)
        top.push_back(&t);
    std::stable_sort(top.begin(), top.end(), [](Trial *a, Trial *b) {
      return a->measurement->medianUs < b->measurement->medianUs;
    });
    if (top.size() > budget.confirmed)
      top.resize(budget.confirmed);
    std::vector<Trial *> always{&result.trials.front()};
    if (modelChoice && result.trials[*modelChoice].measurement)
      always.push_back(&result.trials[*modelChoice]);
    for (Trial *t : always)
      if (!llvm::is_contained(top, t))
        top.push_back(t);
    return top;
  }

  /// One round: each of `trials` measured once more.
  void measureAgain(llvm::ArrayRef<Trial *> trials) {
    for (Trial *t : trials) {
      std::string why;
      std::optional<Measurement> m = measurer.measure(t->assignment, why);
      if (!m)
        continue;
      t->again.push_back(m->medianUs);
      if (progress)
        *progress << llvm::format("tune: again  %6.1f s  ", elapsedSeconds())
                  << describe(t->assignment)
                  << llvm::format(": %.1f us\n", m->medianUs);
    }
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

ScheduleAssignment
nautilus::autosched::modelChoiceOf(const StructureCandidates &structure) {
  ScheduleAssignment choice{structure.rewrites, {}};
  for (const ProgramCandidates &p : structure.programs)
    if (!p.schedules.empty() && !p.ownFirst)
      choice.programs[p.program] = p.schedules.front();
  return choice;
}

/// Measures each structure's model choice (its heuristics where the model
/// ranks none of its programs), the model's preferred structure first,
/// then descends a program at a time from the best so far in the structure
/// measured fastest. False when the budget stopped it before every
/// candidate was tried.
static bool explore(Search &search,
                    const std::vector<StructureCandidates> &structures) {
  for (const StructureCandidates &structure : structures) {
    if (search.explorationSpent())
      return false;
    ScheduleAssignment choice = modelChoiceOf(structure);
    search.tryAssignment(choice, "model's choice " + Search::describe(choice));
    // (The first structure's: the one the model prefers. Where it is the
    // heuristics', their trial.)
    if (&structure == &structures.front())
      search.noteModelChoice(choice);
  }
  for (const StructureCandidates &structure : structures) {
    if (structure.rewrites != search.result.best.rewrites)
      continue;
    for (const ProgramCandidates &p : structure.programs) {
      for (const std::string &schedule : p.schedules) {
        if (search.explorationSpent())
          return false;
        ScheduleAssignment next = search.result.best;
        next.programs[p.program] = schedule;
        search.tryAssignment(next,
                             Search::describe(ScheduleAssignment{
                                 next.rewrites, {{p.program, schedule}}}));
      }
    }
  }
  return true;
}

std::optional<TuneResult>
nautilus::autosched::tune(const std::vector<StructureCandidates> &structures,
                          Measurer &measurer, const TuneBudget &budget,
                          llvm::raw_ostream *progress, std::string &why) {
  Search search(measurer, budget, progress);
  search.tryAssignment({}, "heuristics");
  if (!search.result.trials.front().measurement) {
    why = "the heuristics' schedules: " + search.result.trials.front().why;
    return std::nullopt;
  }
  // Each structure's model choice, then the descent (explore), until every
  // candidate was tried or the budget calls a stop; then the rounds of
  // measuring again, unless the budget is spent outright (a budget in
  // candidates, or no time left).
  search.result.budgetSpent = !explore(search, structures);
  if (!search.spent())
    search.confirm();
  return search.finish();
}

std::vector<ScheduleAssignment> nautilus::autosched::plannedAssignments(
    const std::vector<StructureCandidates> &structures) {
  std::vector<ScheduleAssignment> planned{ScheduleAssignment{}};
  auto plan = [&](const ScheduleAssignment &assignment) {
    if (!llvm::is_contained(planned, assignment))
      planned.push_back(assignment);
  };
  for (const StructureCandidates &structure : structures)
    plan(modelChoiceOf(structure));
  if (structures.empty())
    return planned;
  ScheduleAssignment best = modelChoiceOf(structures.front());
  for (const ProgramCandidates &p : structures.front().programs)
    for (const std::string &schedule : p.schedules) {
      ScheduleAssignment next = best;
      next.programs[p.program] = schedule;
      plan(next);
    }
  return planned;
}

std::optional<TuneResult>
nautilus::autosched::tune(const std::vector<ProgramCandidates> &programs,
                          Measurer &measurer, const TuneBudget &budget,
                          llvm::raw_ostream *progress, std::string &why) {
  return tune({StructureCandidates{RewriteChoice{}, programs}}, measurer,
              budget, progress, why);
}
