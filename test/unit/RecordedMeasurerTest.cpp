//===- RecordedMeasurerTest.cpp - Tuning with times measured elsewhere ---===//
//
// `nautc tune --plan` and `--measured`, alone: the plan is what the search
// measures when the model ranks right, a schedule file reads back as the
// assignment it states, and a search over recorded times finds what a
// search measuring them would.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/RecordedMeasurer.h"
#include "autoscheduler/Tuner.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace nautilus::autosched;

namespace {

/// A measured time for each assignment of `measured`, as `nautc tune
/// --measured` reads them: `us(i)` for the i-th.
std::string measurementsFile(const std::vector<ScheduleAssignment> &measured,
                             const std::function<double(size_t)> &us) {
  llvm::json::Array entries;
  for (size_t i = 0; i < measured.size(); ++i)
    entries.push_back(llvm::json::Object{
        {"schedule",
         cantFail(llvm::json::parse(scheduleFileText(measured[i], true)))},
        {"us", llvm::json::Array{us(i)}}});
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(
      llvm::json::Object{{"machine", "cuda:0: a GPU (sm_90)"},
                         {"measurements", std::move(entries)}});
  return text;
}

/// Two programs of one structure, a second structure of one program; the
/// model leaves "b" to the heuristics (its own ranked first).
std::vector<StructureCandidates> twoStructures() {
  RewriteChoice unfused{false, true};
  return {{RewriteChoice{}, {{"a", {"a1", "a2"}}, {"b", {"b1"}, true}}},
          {unfused, {{"s", {"s1", "s2"}}}}};
}

/// The search over `structures` with its plan's times read back through
/// `recorded`: plan[fastest] 10 us, the i-th other 20 + i.
std::optional<TuneResult>
searchPlan(const std::vector<StructureCandidates> &structures, size_t fastest,
           RecordedMeasurer &recorded) {
  std::vector<ScheduleAssignment> plan = plannedAssignments(structures);
  std::string error = recorded.parse(measurementsFile(
      plan, [&](size_t i) { return i == fastest ? 10.0 : 20.0 + i; }));
  EXPECT_EQ(error, "");
  std::string why;
  std::optional<TuneResult> result =
      tune(structures, recorded, TuneBudget{0, 0, 0, 0}, nullptr, why);
  EXPECT_TRUE(result) << why;
  return result;
}

} // namespace

// The plan: the heuristics', each structure's model choice, then each
// candidate of the preferred structure's programs with the others at the
// model's choice; once each.
TEST(RecordedMeasurer, PlansWhatTheSearchMeasuresWhenTheModelIsRight) {
  std::vector<StructureCandidates> structures = twoStructures();
  std::vector<ScheduleAssignment> plan = plannedAssignments(structures);
  RewriteChoice unfused{false, true};
  std::vector<ScheduleAssignment> expected{
      {},
      {RewriteChoice{}, {{"a", "a1"}}},
      {unfused, {{"s", "s1"}}},
      {RewriteChoice{}, {{"a", "a2"}}},
      {RewriteChoice{}, {{"a", "a1"}, {"b", "b1"}}}};
  EXPECT_EQ(plan, expected);
  // A search whose times rank as the model does asks for nothing else.
  RecordedMeasurer recorded;
  std::optional<TuneResult> result = searchPlan(structures, 1, recorded);
  ASSERT_TRUE(result);
  EXPECT_EQ(recorded.used(), plan.size());
  EXPECT_EQ(result->trials.size(), plan.size());
  EXPECT_EQ(result->best, expected[1]);
  EXPECT_EQ(result->bestUs, 10);
}

// Where the times disagree with the model the search asks for
// assignments the plan lacks: they are not measured, and the rest is
// searched as measured.
TEST(RecordedMeasurer, SearchesOnWithoutWhatWasNotMeasured) {
  std::vector<StructureCandidates> structures = twoStructures();
  std::vector<ScheduleAssignment> plan = plannedAssignments(structures);
  RecordedMeasurer recorded;
  // a2 (plan[3]) fastest: the search then tries b1 beside a2, unplanned.
  std::optional<TuneResult> result = searchPlan(structures, 3, recorded);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->best, plan[3]);
  const Trial &last = result->trials.back();
  EXPECT_EQ(last.assignment.programs,
            (std::map<std::string, std::string>{{"a", "a2"}, {"b", "b1"}}));
  EXPECT_FALSE(last.measurement);
  EXPECT_EQ(last.why, "the measurements hold no time for it");
  // (plan[4], a1 beside b1, the search never reaches.)
  EXPECT_EQ(recorded.used(), plan.size() - 1);
}

// Without the heuristics' time there is no baseline: the search stops.
TEST(RecordedMeasurer, NeedsTheHeuristicsTime) {
  RecordedMeasurer recorded;
  ASSERT_EQ(recorded.parse(measurementsFile({{RewriteChoice{}, {{"a", "a1"}}}},
                                            [](size_t) { return 5.0; })),
            "");
  std::string why;
  EXPECT_FALSE(tune(std::vector<ProgramCandidates>{{"a", {"a1"}}}, recorded,
                    TuneBudget{}, nullptr, why));
  EXPECT_EQ(why, "the heuristics' schedules: the measurements hold no time "
                 "for it");
}

// A schedule file reads back as the assignment it states: a rewrite not
// stated is the default, whether written with every rewrite or not.
TEST(RecordedMeasurer, ReadsScheduleFilesBackAsAssignments) {
  ScheduleAssignment a{RewriteChoice{true, false, true, false},
                       {{"p", "#tile.schedule<tile = [4]>"}}};
  for (bool every : {false, true}) {
    std::string why;
    auto back = scheduleAssignmentOf(
        cantFail(llvm::json::parse(scheduleFileText(a, every))), why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(*back, a);
  }
  std::string why;
  EXPECT_FALSE(scheduleAssignmentOf(
      cantFail(llvm::json::parse(R"({"programs": {}, "fuse": true})")), why));
  EXPECT_NE(why.find("'fuse' is not a schedule file's key"), std::string::npos);
  EXPECT_FALSE(scheduleAssignmentOf(
      cantFail(llvm::json::parse(R"({"programs": {"p": 4}})")), why));
  EXPECT_FALSE(scheduleAssignmentOf(cantFail(llvm::json::parse("[]")), why));
}

// Times: the median of an assignment's, those of a repeated assignment
// joined; each schedule normalised as the candidates print it.
TEST(RecordedMeasurer, TakesTheMedianOfEachAssignmentsTimes) {
  RecordedMeasurer recorded;
  RecordedMeasurer::Normalize upper =
      [](const std::string &text,
         std::string &why) -> std::optional<std::string> {
    if (text == "bad") {
      why = "not a schedule";
      return std::nullopt;
    }
    std::string up = text;
    for (char &c : up)
      c = char(toupper(c));
    return up;
  };
  ASSERT_EQ(recorded.parse(R"({"machine": "m", "measurements": [
      {"schedule": {"programs": {}}, "us": [3, 1, 2]},
      {"schedule": {"programs": {"p": "x"}}, "us": [8]},
      {"schedule": {"programs": {"p": "X"}}, "us": [4, 6]}]})",
                           upper),
            "");
  EXPECT_EQ(recorded.machine(), "m");
  EXPECT_EQ(recorded.size(), 2u);
  std::string why;
  auto heuristics = recorded.measure({}, why);
  ASSERT_TRUE(heuristics);
  EXPECT_EQ(heuristics->medianUs, 2);
  EXPECT_EQ(heuristics->runs, 3u);
  auto x = recorded.measure({RewriteChoice{}, {{"p", "X"}}}, why);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->medianUs, 6);
  EXPECT_EQ(x->runs, 3u);
  EXPECT_FALSE(recorded.measure({RewriteChoice{}, {{"p", "x"}}}, why));
  EXPECT_EQ(recorded.parse(R"({"machine": "m", "measurements": [
      {"schedule": {"programs": {"p": "bad"}}, "us": [1]}]})",
                           upper),
            "measurement 0: program 'p': not a schedule");
}

// A file that states what it measured is refused for another kernel,
// target or sizes; one that states nothing is taken as given.
TEST(RecordedMeasurer, RefusesAnotherKernelsMeasurements) {
  RecordedMeasurer recorded;
  ASSERT_EQ(recorded.parse(R"({"machine": "m", "kernel": "gemm",
      "target": "sm_90", "sizes": {"K": 64, "M": 32},
      "measurements": []})"),
            "");
  std::map<std::string, int64_t> sizes{{"K", 64}, {"M", 32}};
  EXPECT_EQ(recorded.mismatch("gemm", "sm_90", sizes), "");
  EXPECT_EQ(recorded.mismatch("mlp", "sm_90", sizes),
            "its measurements are of kernel 'gemm', not 'mlp'");
  EXPECT_EQ(recorded.mismatch("gemm", "sm_80", sizes),
            "its measurements are for sm_90, not sm_80");
  EXPECT_EQ(recorded.mismatch("gemm", "sm_90", {{"K", 64}, {"M", 64}}),
            "its measurements are at K=64,M=32, not these sizes");
  ASSERT_EQ(recorded.parse(R"({"machine": "m", "measurements": []})"), "");
  EXPECT_EQ(recorded.mismatch("mlp", "sm_80", {}), "");
  EXPECT_NE(recorded.parse(R"({"machine": "m", "sizes": {"K": "8"},
      "measurements": []})"),
            "");
}

// What is not a measurements file is refused, saying why.
TEST(RecordedMeasurer, RefusesWhatIsNotAMeasurementsFile) {
  RecordedMeasurer recorded;
  EXPECT_NE(recorded.parse("{").find("not JSON"), std::string::npos);
  EXPECT_NE(recorded.parse(R"({"measurements": []})").find("\"machine\""),
            std::string::npos);
  for (const char *us : {"[]", "[0]", "[-1]", "\"1\""})
    EXPECT_NE(
        recorded
            .parse(std::string(R"({"machine": "m", "measurements": [)"
                               R"({"schedule": {"programs": {}}, "us": )") +
                   us + "}]}")
            .find("measurement 0: needs"),
        std::string::npos)
        << us;
  EXPECT_NE(recorded.load("/nonexistent/measured.json").find("cannot read"),
            std::string::npos);
}
