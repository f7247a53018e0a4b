//===- TuningTest.cpp - The tuner and the CPU space, alone --------------===//
#include "autoscheduler/CpuSpace.h"
#include "autoscheduler/CpuUnboundSizes.h"
#include "autoscheduler/Tuner.h"
#include "test/unit/CpuModelHost.h"

#include "llvm/ADT/ArrayRef.h"

#include <gtest/gtest.h>

#include <map>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// Times from a table (program schedule -> microseconds, summed over the
/// programs; a program left to the heuristics costs its `heuristic` time),
/// and failures for schedules named "broken".
class TableMeasurer : public Measurer {
public:
  std::map<std::string, double> time;
  std::map<std::string, double> heuristic;
  size_t calls = 0;

  std::optional<Measurement> measure(const ScheduleAssignment &assignment,
                                     std::string &why) override {
    ++calls;
    double total = 0;
    for (const auto &[program, us] : heuristic) {
      auto it = assignment.programs.find(program);
      if (it == assignment.programs.end()) {
        total += us;
        continue;
      }
      if (it->second == "broken") {
        why = "it does not compile";
        return std::nullopt;
      }
      total += time.at(it->second);
    }
    return Measurement{total, 5};
  }
};

} // namespace

// Under a budget in seconds the descent stops while the rounds of
// measuring again still fit, and those rounds choose by medians: a
// candidate measured fast once by chance does not win.
TEST(Tuner, LeavesTimeToMeasureAgain) {
  // Each measurement takes a second of the test's clock; c4 is fast once
  // (its first timing), then as slow as it is; c1 is the fastest.
  class Timed : public Measurer {
  public:
    double now = 0;
    std::map<std::string, int> seen;
    std::optional<Measurement> measure(const ScheduleAssignment &assignment,
                                       std::string &) override {
      now += 1;
      auto it = assignment.programs.find("p");
      std::string s = it == assignment.programs.end() ? "own" : it->second;
      int n = seen[s]++;
      double us = s == "own"            ? 100
                  : s == "c1"           ? 50
                  : s == "c4" && n == 0 ? 40
                                        : 80;
      return Measurement{us, 5};
    }
  } m;
  TuneBudget budget{20, 0};
  budget.clock = [&] { return m.now; };
  std::string why;
  auto result = tune({{"p",
                       {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9",
                        "c10", "c11", "c12"}}},
                     m, budget, nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_TRUE(result->budgetSpent);
  EXPECT_TRUE(result->confirmed);
  EXPECT_EQ(result->best.programs.at("p"), "c1");
  EXPECT_LT(result->trials.size(), 13u); // not every candidate
  EXPECT_LE(m.now, 24); // the budget, and a round's overrun at most
  // Without a budget in seconds every candidate is tried, then confirmed.
  Timed all;
  TuneBudget unlimited{0, 0};
  unlimited.clock = [&] { return all.now; };
  auto every =
      tune({{"p", {"c1", "c2", "c3", "c4"}}}, all, unlimited, nullptr, why);
  ASSERT_TRUE(every) << why;
  EXPECT_FALSE(every->budgetSpent);
  EXPECT_EQ(every->trials.size(), 5u);
  EXPECT_EQ(every->best.programs.at("p"), "c1");
}

// The tuner measures the heuristics, the model's choice, then each
// program's candidates from the best so far, and keeps the fastest.
TEST(Tuner, FindsTheFastestByCoordinateDescent) {
  TableMeasurer m;
  m.heuristic = {{"a", 100}, {"b", 50}};
  m.time = {{"a1", 90}, {"a2", 40}, {"b1", 60}, {"b2", 20}};
  std::string why;
  auto result = tune({{"a", {"a1", "a2"}}, {"b", {"b1", "b2"}}}, m,
                     TuneBudget{0, 0, 0, 0}, nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_EQ(result->baselineUs, 150);
  EXPECT_EQ(result->bestUs, 60);
  EXPECT_EQ(result->best.programs,
            (std::map<std::string, std::string>{{"a", "a2"}, {"b", "b2"}}));
  EXPECT_FALSE(result->budgetSpent);
  // The heuristics, the model's choice (a1, b1: no faster), then a1, a2
  // over the heuristics' b, then b1, b2 with a2; no assignment twice.
  EXPECT_EQ(m.calls, result->trials.size());
  EXPECT_EQ(result->trials.size(), 6u);
}

// With more than one structure (choices of the alg rewrites), each
// structure's model choice is measured, then the descent runs in the
// structure measured fastest; the file written states its rewrites.
TEST(Tuner, ChoosesAStructureThenDescendsInIt) {
  class Structures : public Measurer {
  public:
    std::vector<ScheduleAssignment> seen;
    std::optional<Measurement> measure(const ScheduleAssignment &assignment,
                                       std::string &) override {
      seen.push_back(assignment);
      if (assignment.rewrites.fuseReductions) // one program "s": 100 or 80
        return Measurement{assignment.programs.count("s") ? 80.0 : 100.0, 5};
      // Two programs, each 40 under the heuristics, 30 or 20 otherwise.
      double total = 0;
      for (const char *p : {"m", "e"}) {
        auto it = assignment.programs.find(p);
        total += it == assignment.programs.end() ? 40
                 : it->second.back() == '1'      ? 30
                                                 : 20;
      }
      return Measurement{total, 5};
    }
  } m;
  RewriteChoice unfused{false, true};
  std::vector<StructureCandidates> structures{
      {RewriteChoice{}, {{"s", {"s1"}}}},
      {unfused, {{"m", {"m1", "m2"}}, {"e", {"e1", "e2"}}}}};
  std::string why;
  auto result = tune(structures, m, TuneBudget{0, 0, 0, 0}, nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_EQ(result->baselineUs, 100);
  EXPECT_EQ(result->bestUs, 40);
  EXPECT_EQ(result->best.rewrites, unfused);
  EXPECT_EQ(result->best.programs,
            (std::map<std::string, std::string>{{"e", "e2"}, {"m", "m2"}}));
  // The heuristics, the two model choices, then m2 and e2 (m1 and e1 were
  // the unfused model choice): the fused structure's program is not
  // descended over.
  EXPECT_EQ(m.seen.size(), 5u);
  for (const ScheduleAssignment &a : llvm::ArrayRef(m.seen).drop_front(3))
    EXPECT_EQ(a.rewrites, unfused);
  std::string file = scheduleFileText(result->best);
  EXPECT_NE(file.find("\"fuse_reductions\":false"), std::string::npos);
  EXPECT_EQ(file.find("recompute_in_streams"), std::string::npos);
  EXPECT_EQ(scheduleFileText({}), "{\"programs\":{}}");
  // Every rewrite stated (the structure choice's realisation): true asks.
  EXPECT_NE(scheduleFileText({}, /*everyRewrite=*/true)
                .find("\"fuse_shared_operands\":true"),
            std::string::npos);
}

// The rewrite choices: the reductions' twelve (the default first), each
// again with reused operands stored where the kernel has such operands;
// a stored choice reads back from the schedule file that states it.
TEST(Tuner, RewriteChoicesStoreOperandsWhereAsked) {
  EXPECT_EQ(rewriteChoices(false, false).size(), 1u);
  EXPECT_EQ(rewriteChoices(true, false).size(), 12u);
  std::vector<RewriteChoice> stored = rewriteChoices(false, true);
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_TRUE(stored[0].isDefault());
  EXPECT_FALSE(stored[1].recomputeOperands);
  EXPECT_EQ(stored[1].describe(), "reductions fused, operands stored");
  std::vector<RewriteChoice> all = rewriteChoices();
  ASSERT_EQ(all.size(), 24u);
  EXPECT_TRUE(all.front().isDefault());
  for (size_t i = 0; i < 12; ++i) {
    RewriteChoice twin = all[i];
    twin.recomputeOperands = false;
    EXPECT_EQ(all[12 + i], twin) << all[12 + i].describe();
  }
  ScheduleAssignment assignment{stored[1], {{"p", "s"}}};
  std::string file = scheduleFileText(assignment);
  EXPECT_NE(file.find("\"recompute_operands\":false"), std::string::npos);
  std::string why;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(file);
  ASSERT_TRUE(bool(json));
  std::optional<ScheduleAssignment> back = scheduleAssignmentOf(*json, why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(back->rewrites, stored[1]);
}

// A candidate that fails is reported and skipped; a budget in candidates
// stops the search.
TEST(Tuner, SkipsFailuresAndStopsAtTheBudget) {
  TableMeasurer m;
  m.heuristic = {{"a", 100}};
  m.time = {{"a1", 90}, {"a2", 40}};
  std::string why;
  auto result =
      tune({{"a", {"broken", "a1", "a2"}}}, m, TuneBudget{0, 3}, nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_EQ(result->trials.size(), 3u);
  EXPECT_TRUE(result->budgetSpent);
  EXPECT_FALSE(result->trials[1].measurement);
  EXPECT_EQ(result->trials[1].why, "it does not compile");
  EXPECT_EQ(result->bestUs, 90);
}

// A measurement that came out fast by chance does not win: the fastest
// few are measured again and compared by their medians.
TEST(Tuner, ConfirmsTheFastestByMedians) {
  class Noisy : public Measurer {
  public:
    std::map<std::string, int> seen;
    std::optional<Measurement> measure(const ScheduleAssignment &assignment,
                                       std::string &) override {
      std::string key = assignment.empty() ? "" : assignment.programs.at("a");
      int n = seen[key]++;
      if (key == "a1")
        return Measurement{n == 0 ? 10.0 : 100.0, 5}; // lucky once
      return Measurement{key == "a2" ? 40.0 : 100.0, 5};
    }
  } noisy;
  std::string why;
  auto unconfirmed = tune({{"a", {"a1", "a2"}}}, noisy, TuneBudget{0, 0, 0, 0},
                          nullptr, why);
  ASSERT_TRUE(unconfirmed);
  EXPECT_EQ(unconfirmed->best.programs.at("a"), "a1");
  noisy.seen.clear();
  auto result = tune({{"a", {"a1", "a2"}}}, noisy, TuneBudget{0, 0, 3, 2},
                     nullptr, why);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->confirmed);
  EXPECT_EQ(result->best.programs.at("a"), "a2");
  EXPECT_EQ(result->bestUs, 40);
  EXPECT_EQ(result->baselineUs, 100);
  // The heuristics, a1 and a2 once, then each of them twice more.
  EXPECT_EQ(noisy.seen[""] + noisy.seen["a1"] + noisy.seen["a2"], 9);
}

/// Times from a table (the heuristics' under ""), counting the measurements
/// of each.
class CountingMeasurer : public Measurer {
public:
  std::map<std::string, std::vector<double>>
      times; // one a measurement, the last repeated
  std::map<std::string, size_t> seen;
  std::optional<Measurement> measure(const ScheduleAssignment &assignment,
                                     std::string &) override {
    std::string key = assignment.empty() ? "" : assignment.programs.at("a");
    const std::vector<double> &t = times.at(key);
    size_t n = seen[key]++;
    return Measurement{t[std::min(n, t.size() - 1)], 5};
  }
};

// Near equals are measured again while the two least medians are within
// kCloseMedians (up to mostConfirmations rounds); a clear lead stops after
// the rounds asked for.
TEST(Tuner, MeasuresNearEqualsAgain) {
  std::string why;
  CountingMeasurer close;
  close.times = {{"", {100}}, {"a1", {50}}, {"a2", {51}}};
  auto result = tune({{"a", {"a1", "a2"}}}, close, TuneBudget{0, 0, 3, 2, 6},
                     nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_EQ(result->confirmations, 6u);
  EXPECT_EQ(close.seen["a2"], 7u);
  EXPECT_EQ(close.seen[""], 3u); // not near the fastest
  EXPECT_EQ(result->best.programs.at("a"), "a1");
  CountingMeasurer apart;
  apart.times = {{"", {100}}, {"a1", {50}}, {"a2", {60}}};
  result = tune({{"a", {"a1", "a2"}}}, apart, TuneBudget{0, 0, 3, 2, 6},
                nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_EQ(result->confirmations, 2u);
  EXPECT_EQ(apart.seen["a2"], 3u);
}

// The model's choice is measured again even when its first timing put it
// behind the fastest few, so that one unlucky timing does not lose it.
TEST(Tuner, MeasuresTheModelsChoiceAgain) {
  std::string why;
  CountingMeasurer m;
  m.times = {{"", {100}}, {"a1", {70, 40}}, {"a2", {50}}, {"a3", {55}}};
  auto result = tune({{"a", {"a1", "a2", "a3"}}}, m, TuneBudget{0, 0, 1, 2},
                     nullptr, why);
  ASSERT_TRUE(result) << why;
  EXPECT_EQ(result->best.programs.at("a"), "a1");
  EXPECT_EQ(result->bestUs, 40);
  EXPECT_EQ(m.seen["a3"], 1u); // not among the fastest one
}

// A program whose own (the heuristics') schedule the model ranks first is
// left to the heuristics in the model's choice; its other candidates are
// still tried.
TEST(Tuner, TheModelsChoiceKeepsAnOwnScheduleRankedFirst) {
  std::string why;
  CountingMeasurer m;
  m.times = {{"", {100}}, {"a1", {90}}};
  ProgramCandidates a{"a", {"a1"}, /*ownFirst=*/true};
  auto result = tune({a}, m, TuneBudget{0, 0, 3, 0}, nullptr, why);
  ASSERT_TRUE(result) << why;
  ASSERT_EQ(result->trials.size(), 2u); // the heuristics (the model's), a1
  EXPECT_EQ(result->trials[1].assignment.programs.at("a"), "a1");
  ASSERT_TRUE(result->modelChoiceUs);
  EXPECT_EQ(*result->modelChoiceUs, 100);
  EXPECT_EQ(result->bestUs, 90);
}

// When the heuristics' schedules cannot be measured there is nothing to
// compare with, and the tuner says why.
TEST(Tuner, NeedsTheBaseline) {
  class Failing : public Measurer {
    std::optional<Measurement> measure(const ScheduleAssignment &,
                                       std::string &why) override {
      why = "no inputs";
      return std::nullopt;
    }
  } failing;
  std::string why;
  EXPECT_FALSE(tune(std::vector<ProgramCandidates>{}, failing, TuneBudget{},
                    nullptr, why));
  EXPECT_NE(why.find("no inputs"), std::string::npos);
}

// The host CPU as the CPU model's tests see it: test/unit/CpuModelHost.h.
using nautilus::test::avx512Host;

// The CPU space: register blocks within the extents, rows of whole
// power-of-two vectors, ranked with spilling blocks behind those that fit.
TEST(CpuSpace, RanksRegisterBlocks) {
  TargetInfo target = avx512Host();
  // B (512 x 256 f32) in L2: the block's registers decide, not B's waits.
  CpuProgram gemm{{512, 256}, 512, true, 0, 32};
  std::vector<CpuCandidate> ranked = rankCpuTiles(gemm, target);
  ASSERT_FALSE(ranked.empty());
  for (const CpuCandidate &c : ranked) {
    ASSERT_EQ(c.tile.size(), 2u);
    EXPECT_EQ(c.tile[1] % 16, 0) << c.describe();
    EXPECT_EQ(c.tile[1] & (c.tile[1] - 1), 0) << c.describe();
  }
  EXPECT_EQ(ranked.front().cost.spilled, 0);
  CpuCost spilling = estimateCpu(gemm, {16, 32}, target);
  EXPECT_GT(spilling.spilled, 0);
  EXPECT_GT(spilling.totalUs, ranked.front().cost.totalUs);
  // The same inputs, the same ranking.
  std::vector<CpuCandidate> again = rankCpuTiles(gemm, target);
  ASSERT_EQ(again.size(), ranked.size());
  for (size_t i = 0; i < ranked.size(); ++i)
    EXPECT_EQ(again[i].tile, ranked[i].tile);
  // A short row takes no tile wider than its power of two; a rank-1
  // program has one row.
  for (const CpuCandidate &c : rankCpuTiles({{64, 8}, 0, false, 32}, target))
    EXPECT_LE(c.tile[1], 8) << c.describe();
  for (const CpuCandidate &c : rankCpuTiles({{4096}, 0, false, 32}, target))
    EXPECT_EQ(c.tile.size(), 1u);
}

/// An f32 GEMM of `m` x `n` over `k`, its rhs packable.
static CpuProgram packableGemm(int64_t m, int64_t n, int64_t k) {
  CpuProgram gemm;
  gemm.extents = {m, n};
  gemm.reduced = k;
  gemm.contraction = true;
  gemm.packable = true;
  return gemm;
}

// Packing the rhs is in the space of a packable contraction, beside each
// block unpacked; the model packs where B does not fit in L2, and leaves a
// small B unpacked.
TEST(CpuSpace, PacksTheRhsWhereItPays) {
  TargetInfo target = avx512Host();
  std::vector<CpuCandidate> big =
      rankCpuTiles(packableGemm(2048, 2048, 2048), target);
  ASSERT_FALSE(big.empty());
  EXPECT_TRUE(big.front().pack) << big.front().describe();
  EXPECT_TRUE(llvm::any_of(big, [](const CpuCandidate &c) { return !c.pack; }));
  EXPECT_TRUE(
      rankCpuTiles(packableGemm(1024, 1024, 1024), target).front().pack);
  CpuCost packed = estimateCpu(packableGemm(2048, 2048, 2048), {8, 32}, target,
                               /*pack=*/true);
  CpuCost unpacked = estimateCpu(packableGemm(2048, 2048, 2048), {8, 32},
                                 target, /*pack=*/false);
  EXPECT_LT(packed.totalUs, unpacked.totalUs);
  EXPECT_FALSE(rankCpuTiles(packableGemm(64, 64, 64), target).front().pack);
  // A single row of tiles packs too where B comes from memory: the copy
  // streams each row of B, where an unpacked step waits for it with its
  // FMAs (measured at 16 x 4096 x 2048: packed 2.2x faster), and a block
  // short enough to need a few instances down each column wins.
  std::vector<CpuCandidate> skinny =
      rankCpuTiles(packableGemm(16, 4096, 2048), target);
  EXPECT_TRUE(skinny.front().pack) << skinny.front().describe();
  EXPECT_LT(skinny.front().tile[0], 16) << skinny.front().describe();
  // One row (a decoding step's product): each panel would be used once,
  // and an unpacked step reads B's row as fast as the copy would, so it
  // is not packed (measured, f16 1 x 4096 x 4096 to 1 x 16384 x 16384:
  // 1 x 128 unpacked 1.4-1.7x faster than packed); and a row wider than
  // the other tiles' waits less a byte for B's rows (1 x 2048 1.36x
  // faster than 1 x 128 from memory).
  std::vector<CpuCandidate> row =
      rankCpuTiles(packableGemm(1, 4096, 4096), target);
  EXPECT_FALSE(row.front().pack) << row.front().describe();
  EXPECT_EQ(row.front().tile[0], 1) << row.front().describe();
  EXPECT_GT(row.front().tile[1], 128) << row.front().describe();
  CpuProgram rowF16 = packableGemm(1, 4096, 4096);
  rowF16.operandBits = 16;
  rowF16.widens = true;
  for (const CpuProgram &p : {packableGemm(1, 4096, 4096), rowF16})
    EXPECT_LT(estimateCpu(p, {1, 128}, target).totalUs,
              estimateCpu(p, {1, 128}, target, /*pack=*/true).totalUs)
        << p.operandBits;
  // Such wide rows are one row's alone: not offered where the output has
  // more rows, nor where its one row is a sample of rows that vary.
  CpuProgram sampledRow = packableGemm(1, 4096, 4096);
  sampledRow.rowsVary = true;
  for (const CpuProgram &p : {packableGemm(2, 4096, 4096), sampledRow})
    for (const CpuCandidate &c : rankCpuTiles(p, target))
      EXPECT_LE(c.tile[1], 128) << c.describe();
  for (const CpuCandidate &c : row)
    EXPECT_TRUE(c.tile[1] <= 128 || !c.pack) << c.describe();
  // Nothing to pack: no packed candidate.
  CpuProgram plain = packableGemm(2048, 2048, 2048);
  plain.packable = false;
  for (const CpuCandidate &c : rankCpuTiles(plain, target))
    EXPECT_FALSE(c.pack) << c.describe();
}

// Sizes unbound at compile time: one tile for every shape, ranked over
// sample shapes by the geometric mean of its regrets (its time over the
// best tile's at each).
TEST(CpuSpace, RanksTilesOverSampleShapesWhereSizesAreUnbound) {
  // Every combination, the last size varying fastest.
  EXPECT_EQ(sampleShapesOf(0), 1u);
  EXPECT_EQ(sampleShapesOf(3), 27u);
  EXPECT_EQ(sampleExtentOf(1, 0, 2), kUnboundSizeSamples[0]);
  EXPECT_EQ(sampleExtentOf(1, 1, 2), kUnboundSizeSamples[1]);
  EXPECT_EQ(sampleExtentOf(8, 0, 2), kUnboundSizeSamples.back());
  TargetInfo target = avx512Host();
  // A GEMM with M, N and K unbound.
  std::vector<CpuProgram> samples;
  for (size_t shape = 0; shape < sampleShapesOf(3); ++shape)
    samples.push_back(packableGemm(sampleExtentOf(shape, 0, 3),
                                   sampleExtentOf(shape, 1, 3),
                                   sampleExtentOf(shape, 2, 3)));
  std::vector<double> bestUs;
  std::vector<CpuSampledCandidate> ranked =
      rankCpuTilesOverSamples(samples, target, 0, {}, &bestUs);
  ASSERT_EQ(bestUs.size(), samples.size());
  ASSERT_GT(ranked.size(), 4u);
  const CpuSampledCandidate &best = ranked.front();
  EXPECT_GE(best.meanRegret, 1.0);
  EXPECT_GE(best.worstRegret, best.meanRegret);
  EXPECT_LT(best.worstSample, samples.size());
  for (const CpuSampledCandidate &c : ranked)
    EXPECT_GE(c.meanRegret, best.meanRegret) << c.candidate.describe();
  // The regret at the worst sample is the candidate's time there over the
  // best there.
  double worstUs = estimateCpu(samples[best.worstSample], best.candidate.tile,
                               target, best.candidate.pack)
                       .totalUs;
  double bestThere =
      rankCpuTiles(samples[best.worstSample], target, 1).front().cost.totalUs;
  EXPECT_NEAR(best.worstRegret, worstUs / bestThere, 1e-9);
  // The heuristics' block (16 x 32: it spills on AVX-512) regrets more.
  CpuSampledCandidate heuristics =
      sampledCandidate(samples, bestUs, CpuCandidate{{16, 32}}, target);
  EXPECT_GT(heuristics.meanRegret, best.meanRegret);
  // One sample: the model's own ranking, its powers of two.
  std::vector<CpuSampledCandidate> one =
      rankCpuTilesOverSamples({packableGemm(1024, 1024, 1024)}, target);
  std::vector<CpuCandidate> own =
      rankCpuTiles(packableGemm(1024, 1024, 1024), target);
  auto firstPowerOfTwo = llvm::find_if(own, [](const CpuCandidate &c) {
    return llvm::all_of(c.tile, [](int64_t t) { return (t & (t - 1)) == 0; });
  });
  ASSERT_NE(firstPowerOfTwo, own.end());
  EXPECT_EQ(one.front().candidate.tile, firstPowerOfTwo->tile);
  EXPECT_EQ(one.front().candidate.pack, firstPowerOfTwo->pack);
  EXPECT_DOUBLE_EQ(one.front().meanRegret,
                   firstPowerOfTwo->cost.totalUs / own.front().cost.totalUs);
  for (const CpuSampledCandidate &c : one)
    for (int64_t t : c.candidate.tile)
      EXPECT_EQ(t & (t - 1), 0) << c.candidate.describe();
  // Deterministic.
  std::vector<CpuSampledCandidate> again =
      rankCpuTilesOverSamples(samples, target);
  ASSERT_EQ(again.size(), ranked.size());
  for (size_t i = 0; i < ranked.size(); ++i)
    EXPECT_EQ(again[i].candidate.describe(), ranked[i].candidate.describe());
}

// Contractions side by side (alg-fuse-shared-operands' programs) issue
// each one's FMAs and rhs loads and keep each one's accumulators, but
// share the broadcast operand's loads; a contraction's rhs takes its
// operands' bytes in the caches, not its accumulator's.
TEST(CpuSpace, SiblingContractionsShareTheBroadcastOperand) {
  TargetInfo target = avx512Host();
  CpuProgram one = packableGemm(512, 256, 512);
  one.packable = false;
  CpuProgram two = one;
  two.siblings = 2;
  CpuCost single = estimateCpu(one, {6, 32}, target);
  CpuCost pair = estimateCpu(two, {6, 32}, target);
  EXPECT_EQ(pair.registers - single.registers, 6 * 2);
  EXPECT_GT(pair.computeUs, 1.5 * single.computeUs);
  EXPECT_LE(pair.computeUs, 2 * single.computeUs);
  EXPECT_LT(pair.totalUs, 2 * single.totalUs);
  // A bf16 rhs of 512 x 1024 is 1 MiB stored: in the L2 share of a 2 MiB
  // L2, where counted at 4 bytes an element it would not be.
  target.l2Bytes = 2 << 20;
  CpuProgram narrow = packableGemm(256, 1024, 512);
  narrow.packable = false;
  narrow.widens = true;
  CpuProgram asIfWide = narrow;
  narrow.operandBits = 16;
  EXPECT_LT(estimateCpu(narrow, {6, 32}, target).memoryUs,
            estimateCpu(asIfWide, {6, 32}, target).memoryUs);
}

/// A reduction of `rows` rows of `columns` f32 elements each, one row a
/// lane (softmax's max and sum, a norm's sum of squares): each lane reads
/// its own row, `columns` x 4 bytes after the last.
static CpuProgram rowReduction(int64_t rows, int64_t columns, int64_t work) {
  CpuProgram reduction;
  reduction.extents = {rows};
  reduction.reduced = columns;
  reduction.work = work;
  reduction.gatherStrideBytes = columns * 4;
  return reduction;
}

// A row reduction's lanes gather: the space offers fewer lanes than a
// vector, and the model takes as many as the L1 cache keeps lines for.
// Rows 4 KiB apart all fall in one set, so 8 lanes (its ways); rows 4000
// bytes apart spread over the sets, so as many as the prefetchers follow.
TEST(CpuSpace, RowReductionsGatherWhatTheCacheKeeps) {
  TargetInfo target = avx512Host();
  std::vector<CpuCandidate> aligned =
      rankCpuTiles(rowReduction(4096, 1024, 25), target);
  ASSERT_FALSE(aligned.empty());
  EXPECT_EQ(aligned.front().tile, std::vector<int64_t>{8})
      << aligned.front().describe();
  EXPECT_TRUE(llvm::any_of(aligned, [](const CpuCandidate &c) {
    return c.tile == std::vector<int64_t>{1};
  }));
  EXPECT_EQ(rankCpuTiles(rowReduction(4096, 1000, 25), target).front().tile,
            std::vector<int64_t>{16});
  // A sum without a gather (its lanes read one contiguous run) takes
  // whole vectors.
  CpuProgram contiguous = rowReduction(4096, 1024, 1);
  contiguous.gatherStrideBytes = 0;
  EXPECT_GE(rankCpuTiles(contiguous, target).front().tile[0], 16);
}

// A row reduction the lowering folds along its reduced lanes (at most
// reducedLaneRows rows a tile) reads each row contiguously: no gather, a
// step `lanes` indices; the model takes such a tile, with rows enough to
// hide the FMA's latency, over the gathering ones, and predicts it far
// faster than the same reduction gathering (measured: 3x for bf16 sums of
// squares of 4096^2).
TEST(CpuSpace, RowReductionsFoldAlongTheirLanes) {
  TargetInfo target = avx512Host();
  CpuProgram gathering = rowReduction(4096, 1024, 1);
  CpuProgram folding = gathering;
  folding.reducedLaneRows = 8;
  folding.foldedWork = gathering.work;
  std::vector<CpuCandidate> ranked = rankCpuTiles(folding, target);
  ASSERT_FALSE(ranked.empty());
  EXPECT_LE(ranked.front().tile[0], 8) << ranked.front().describe();
  EXPECT_GE(ranked.front().tile[0], 2) << ranked.front().describe();
  CpuCost folded = estimateCpu(folding, {8}, target);
  CpuCost gathered = estimateCpu(gathering, {8}, target);
  EXPECT_LT(2 * folded.totalUs, gathered.totalUs);
  // Past reducedLaneRows the lanes are the rows again: the same cost.
  EXPECT_EQ(estimateCpu(folding, {16}, target).totalUs,
            estimateCpu(gathering, {16}, target).totalUs);
  // A stream folds whole steps of 4 vectors of keys alone: rows of 48
  // f32 keys (3 vectors) fold nothing, and gather.
  CpuProgram shortStream = rowReduction(4096, 48, 1);
  shortStream.reducedLaneRows = 8;
  shortStream.foldedStepVectors = 4;
  EXPECT_EQ(estimateCpu(shortStream, {8}, target).totalUs,
            estimateCpu(rowReduction(4096, 48, 1), {8}, target).totalUs);
  // The bytes read along the rows, not the accumulator's: bf16 rows
  // stream half the f32 rows' traffic.
  CpuProgram bf16 = folding;
  bf16.streamedBits = 16;
  EXPECT_LT(estimateCpu(bf16, {8}, target).memoryUs, folded.memoryUs);
}

// Attention's fused stream on the CPU (bf16, B = 1, H = 4, N = M = 1024):
// its tile keeps the head dimension whole and its own heads, and the space
// varies its rows. Measured (avx-512, 2 threads; 8, 16, 32, 64 rows): at
// D = 64 10.9, 4.3, 4.3, 7.0 ms; at D = 128 18.1, 10.2, 9.5, 10.2; at
// D = 256 35.0, 18.9, 19.5, 20.8. The model puts 8 rows (a score column
// of half a vector, each key's row of K widened for half as many rows)
// and 64 (their score columns' accumulators past the registers) behind 16
// and 32, and its choice is one of those two.
TEST(CpuSpace, ScoredStreamsVaryTheirRows) {
  TargetInfo target = avx512Host();
  auto attention = [](int64_t d) {
    CpuProgram p;
    p.extents = {1, 4, 1024, d};
    p.reduced = 1024;
    p.stream = true;
    p.accumulators = 3;
    p.scoredPoints = d;
    p.scoresWiden = true;
    p.operandBits = 16;
    p.rowFollowers = 1;
    p.work = 16;
    p.heldTile = {1, 1, 16, d};
    return p;
  };
  for (int64_t d : {64, 128, 256}) {
    CpuProgram p = attention(d);
    std::vector<CpuCandidate> ranked = rankCpuTiles(p, target);
    ASSERT_FALSE(ranked.empty());
    const CpuCandidate &best = ranked.front();
    EXPECT_EQ(best.tile[0], 1) << best.describe();
    EXPECT_EQ(best.tile[1], 1) << best.describe();
    EXPECT_TRUE(best.tile[2] == 16 || best.tile[2] == 32) << best.describe();
    EXPECT_EQ(best.tile[3], d) << best.describe();
    for (const CpuCandidate &c : ranked)
      EXPECT_EQ(c.tile[3], d) << c.describe();
    double rows16 = estimateCpu(p, {1, 1, 16, d}, target).totalUs;
    double rows32 = estimateCpu(p, {1, 1, 32, d}, target).totalUs;
    EXPECT_GT(estimateCpu(p, {1, 1, 8, d}, target).totalUs,
              1.3 * std::max(rows16, rows32));
    EXPECT_GT(estimateCpu(p, {1, 1, 64, d}, target).totalUs,
              std::max(rows16, rows32));
    // The registers are the score columns' accumulators.
    EXPECT_EQ(estimateCpu(p, {1, 1, 16, d}, target).registers, 9);
    // No 24 rows: a column of 24 f32 scores on a 16-lane host is one LLVM
    // splits and rejoins at every point (measured 20x slower).
    for (const CpuCandidate &c : ranked)
      EXPECT_NE(c.tile[2], 24) << c.describe();
  }
  // A group of 3 heads in the tile: its score column is 3 x rows, never
  // past 16 lanes but by a power of two of vectors (3 x 8 = 24 is not).
  CpuProgram grouped = attention(64);
  grouped.extents = {1, 3, 64, 64};
  grouped.heldTile = {1, 3, 16, 64};
  for (const CpuCandidate &c : rankCpuTiles(grouped, target, 100)) {
    int64_t column = c.tile[1] * c.tile[2];
    EXPECT_TRUE(column <= 16 || column == 32 || column == 64) << c.describe();
  }
  // The same stream reading its scores stored (a column of f32 S, rows
  // 4 KiB apart, gathered a key): its own tile (the head dimension split
  // in 32) but for its rows; cheaper a key than recomputing 128 points.
  CpuProgram stored = attention(128);
  stored.scoredPoints = 0;
  stored.scoresWiden = false;
  stored.storedScoresStrideBytes = 1024 * 4;
  stored.heldTile = {1, 1, 16, 32};
  std::vector<CpuCandidate> storedRanked = rankCpuTiles(stored, target);
  ASSERT_FALSE(storedRanked.empty());
  for (const CpuCandidate &c : storedRanked)
    EXPECT_EQ(c.tile[3], 32) << c.describe();
  double storedStep = estimateCpu(stored, {1, 1, 16, 32}, target).computeUs;
  EXPECT_LT(storedStep,
            estimateCpu(attention(128), {1, 1, 16, 32}, target).computeUs);
  // Rows a line apart all stay in the L1; 4 KiB apart, 16 of them share
  // a set of 12 ways, and 4 wait for L2 a key.
  CpuProgram nearRows = stored;
  nearRows.storedScoresStrideBytes = 64;
  EXPECT_LT(estimateCpu(nearRows, {1, 1, 16, 32}, target).computeUs,
            storedStep);
  // A grouped-query decoding step: one query row, its tile's 4 heads of a
  // group kept; the keys split for the idle thread.
  CpuProgram decode = attention(128);
  decode.extents = {1, 8, 1, 128};
  decode.reduced = 32768;
  decode.mostSplit = 4;
  decode.heldTile = {1, 4, 1, 128};
  std::vector<CpuCandidate> ranked = rankCpuTiles(decode, target);
  ASSERT_FALSE(ranked.empty());
  for (const CpuCandidate &c : ranked)
    EXPECT_EQ(c.tile, (std::vector<int64_t>{1, 4, 1, 128})) << c.describe();
}

// An element-wise program's rows are streams: a tile with more rows (of
// its input and its output) than the L1 keeps for a 4 KiB row reads
// them twice, and a tile that spills pays for it beside its memory
// traffic.
// A row stream whose keys may be split across programs (split-KV) is
// ranked split too, up to the host's threads: a split serves threads that
// rows alone leave idle (one row over 32000 keys, 2 threads: split 2 first,
// about half the unsplit time), and costs a combining program (its
// overhead) where the rows already fill the threads (32 rows: unsplit
// first). A split is never offered past mostSplit.
TEST(CpuSpace, SplitsAStreamForIdleThreads) {
  TargetInfo target = avx512Host();
  auto stream = [](int64_t rows) {
    CpuProgram p = rowReduction(rows, 32000, 25);
    p.stream = true;
    p.accumulators = 2;
    p.reducedLaneRows = 8;
    p.foldedWork = 25;
    p.foldedLiveTiles = 6;
    p.foldedStepVectors = 4;
    p.mostSplit = 32;
    return p;
  };
  std::vector<CpuCandidate> one = rankCpuTiles(stream(1), target);
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(one.front().split, 2) << one.front().describe();
  CpuCost unsplit = estimateCpu(stream(1), {1}, target);
  EXPECT_LT(one.front().cost.totalUs, 0.6 * unsplit.totalUs);
  EXPECT_EQ(one.front().cost.programs, 2);
  for (const CpuCandidate &c : one)
    EXPECT_LE(c.split, 2) << c.describe(); // the host's 2 threads
  std::vector<CpuCandidate> many = rankCpuTiles(stream(32), target);
  ASSERT_FALSE(many.empty());
  EXPECT_EQ(many.front().split, 1) << many.front().describe();
  CpuCost split = estimateCpu(stream(32), {4}, target, false, {}, 2);
  CpuCost whole = estimateCpu(stream(32), {4}, target);
  EXPECT_GT(split.overheadUs, whole.overheadUs);
  CpuProgram never = stream(1);
  never.mostSplit = 1;
  for (const CpuCandidate &c : rankCpuTiles(never, target))
    EXPECT_EQ(c.split, 1) << c.describe();
}

TEST(CpuSpace, ElementWiseTilesKeepTheirRowsInL1) {
  TargetInfo target = avx512Host();
  CpuProgram scale;
  scale.extents = {4096, 1024};
  scale.work = 12;
  scale.rowStreams = 2;
  std::vector<CpuCandidate> ranked = rankCpuTiles(scale, target);
  ASSERT_FALSE(ranked.empty());
  EXPECT_LE(ranked.front().tile[0] * scale.rowStreams, 8)
      << ranked.front().describe();
  EXPECT_EQ(ranked.front().cost.spilled, 0) << ranked.front().describe();
  EXPECT_GT(estimateCpu(scale, {14, 16}, target).totalUs,
            estimateCpu(scale, {1, 128}, target).totalUs);
  EXPECT_GT(estimateCpu(scale, {4, 128}, target).totalUs,
            estimateCpu(scale, {1, 128}, target).totalUs);
  // Work on values along the columns alone (a scale g[d] loaded and
  // widened) is done once for a tile's rows: more rows, less of it a
  // point; none of it, the same compute whatever the rows.
  CpuProgram scaled = scale;
  scaled.innerOnlyWork = 4;
  EXPECT_LT(estimateCpu(scaled, {4, 32}, target).computeUs,
            estimateCpu(scaled, {1, 128}, target).computeUs);
  EXPECT_EQ(estimateCpu(scale, {4, 32}, target).computeUs,
            estimateCpu(scale, {1, 128}, target).computeUs);
}

// A contraction whose vector operand is read across its rows (A B^T, B
// stored [n, k]) gathers that row a step: the model narrows the block's
// row to fewer lanes than two vectors, and takes more rows instead
// (measured, bmm_nt 8 x 256^3 bf16: 16 x 16 ran 1.1x faster than 8 x 32,
// 1.2x faster than 12 x 16).
TEST(CpuSpace, ContractionsGatheringAnOperandTakeNarrowRows) {
  TargetInfo target = avx512Host();
  CpuProgram bmm;
  bmm.extents = {8, 256, 256};
  bmm.reduced = 256;
  bmm.contraction = true;
  bmm.gatherStrideBytes = 256 * 2;
  std::vector<CpuCandidate> ranked = rankCpuTiles(bmm, target);
  ASSERT_FALSE(ranked.empty());
  EXPECT_LE(ranked.front().tile.back(), 16) << ranked.front().describe();
  EXPECT_GE(ranked.front().tile[1], 16) << ranked.front().describe();
  CpuProgram contiguous = bmm;
  contiguous.gatherStrideBytes = 0;
  EXPECT_LT(estimateCpu(contiguous, {1, 8, 32}, target).totalUs,
            estimateCpu(bmm, {1, 8, 32}, target).totalUs);
  // The lanes' inserts add to the FMAs' time (the shuffle port is an FMA
  // port), and a spill waits behind the lanes' loads: 1 x 32 x 64, 105
  // registers spilled, ranks behind 1 x 16 x 16 (measured 4.6 against 2.8
  // ms).
  EXPECT_GT(estimateCpu(bmm, {1, 16, 16}, target).computeUs,
            1.5 * estimateCpu(contiguous, {1, 16, 16}, target).computeUs);
  EXPECT_LT(estimateCpu(bmm, {1, 16, 16}, target).totalUs,
            estimateCpu(bmm, {1, 32, 64}, target).totalUs);
}

// A linear layer's X W^T (W stored [out, in]) folds its tiles of at most
// 8 elements along the reduced lanes: each a dot product of contiguous
// rows, X's row shared. At a decoding step's one row the model takes such
// a tile (measured, f32 1 x 4096 x 4096: 1 x 8 folded 1.14 ms, 1 x 32
// gathering 3.66); at many rows the packed blocks.
TEST(CpuSpace, FoldsADecodingStepsDotProducts) {
  TargetInfo target = avx512Host();
  auto linear = [](int64_t rows) {
    CpuProgram p = packableGemm(rows, 4096, 4096);
    p.gatherStrideBytes = 4096 * 4;
    p.reducedLaneRows = 8;
    return p;
  };
  std::vector<CpuCandidate> decode = rankCpuTiles(linear(1), target);
  ASSERT_FALSE(decode.empty());
  const CpuCandidate &best = decode.front();
  EXPECT_FALSE(best.pack) << best.describe();
  EXPECT_LE(best.tile[0] * best.tile[1], 8) << best.describe();
  // A folded tile's step gathers nothing: far ahead of the same tile
  // packed (its lanes then along the columns), and of the best unfolded.
  EXPECT_LT(3 * best.cost.totalUs,
            estimateCpu(linear(1), best.tile, target, /*pack=*/true).totalUs);
  for (const CpuCandidate &c : decode)
    if (c.tile[0] * c.tile[1] > 8) {
      EXPECT_LT(best.cost.totalUs, c.cost.totalUs) << c.describe();
      break;
    }
  // Without the fold (reducedLaneRows 0) no tile that narrow is offered.
  CpuProgram unfolded = linear(1);
  unfolded.reducedLaneRows = 0;
  for (const CpuCandidate &c : rankCpuTiles(unfolded, target))
    EXPECT_GE(c.tile[1], 16) << c.describe();
  std::vector<CpuCandidate> prefill = rankCpuTiles(linear(4096), target);
  EXPECT_TRUE(prefill.front().pack) << prefill.front().describe();
}

// A 16-bit folded reduction short enough to be unrolled whole (the tile's
// FMAs over all its steps at most 64) keeps the broadcast row's widened
// vectors of every step live: at D = 128 a tile of 8 keys (8 steps) then
// holds 8 more and spills, a cost 4 keys do not pay; at D = 512 neither
// is unrolled. f32 (nothing widened) keeps its registers.
TEST(CpuSpace, AWholeUnrolledFoldKeepsItsWidenedRowsLive) {
  TargetInfo target = avx512Host();
  auto scores = [](int64_t d, bool widens) {
    CpuProgram p = packableGemm(1, 4096, d);
    p.reducedLaneRows = 8;
    p.widens = widens;
    p.operandBits = widens ? 16 : 32;
    p.gatherStrideBytes = d * p.operandBits / 8; // K's rows, [m, d]
    return p;
  };
  int64_t registers8 = estimateCpu(scores(128, true), {1, 8}, target).registers;
  EXPECT_EQ(registers8 -
                estimateCpu(scores(128, false), {1, 8}, target).registers,
            8);
  EXPECT_EQ(estimateCpu(scores(512, true), {1, 8}, target).registers,
            estimateCpu(scores(512, false), {1, 8}, target).registers);
  EXPECT_GT(estimateCpu(scores(128, true), {1, 8}, target).spilled, 0);
  // The spills cost the unrolled tile: 8 keys' step is dearer than 4
  // keys' by more than its share of the FMAs (test/nautc/
  // cpu-folded-contraction.test: attention's Q K^T takes 4 keys at D = 128
  // and 8 at D = 512).
  auto stepUs = [&](int64_t d, int64_t keys) {
    return estimateCpu(scores(d, true), {1, keys}, target).computeUs;
  };
  EXPECT_GT(stepUs(128, 8) / stepUs(128, 4), stepUs(512, 8) / stepUs(512, 4));
}

// Narrow operands cost a widening a load on the FMA ports, so a block
// with more FMAs a load wins (f16 GEMMs: 4 x 64 or 6 x 64, not 8 x 32);
// an element-wise program keeping several full-width reads live (a
// layernorm's x, g and b) spills sooner, so its row is narrower.
TEST(CpuSpace, WideningsAndLiveTilesShapeTheBlock) {
  TargetInfo target = avx512Host();
  CpuProgram f16 = packableGemm(1024, 1024, 1024);
  f16.widens = true;
  EXPECT_GT(estimateCpu(f16, {8, 32}, target, true).totalUs,
            estimateCpu(packableGemm(1024, 1024, 1024), {8, 32}, target, true)
                .totalUs);
  EXPECT_NE(rankCpuTiles(f16, target).front().tile,
            (std::vector<int64_t>{8, 32}));
  CpuProgram norm;
  norm.extents = {4096, 1024};
  norm.work = 8;
  norm.rowStreams = 2;
  norm.liveTiles = 4;
  std::vector<CpuCandidate> ranked = rankCpuTiles(norm, target);
  ASSERT_FALSE(ranked.empty());
  EXPECT_EQ(ranked.front().cost.spilled, 0) << ranked.front().describe();
  EXPECT_LE(ranked.front().tile[0] * ranked.front().tile[1], 64)
      << ranked.front().describe();
}

// With AVX-512 a loaded lhs element is broadcast from memory into the FMA
// ({1to16}): a 6 x 64 f32 block keeps its 24 accumulators and 4 rhs
// vectors in the 28 registers left, unspilled; a computed or widened lhs
// needs a register for it.
TEST(CpuSpace, AvxBroadcastsFoldIntoTheFma) {
  TargetInfo target = avx512Host();
  CpuProgram gemm = packableGemm(1024, 1024, 1024);
  CpuCost folded = estimateCpu(gemm, {6, 64}, target, true);
  EXPECT_EQ(folded.registers, 28);
  EXPECT_EQ(folded.spilled, 0);
  CpuProgram computed = gemm;
  computed.broadcastWork = 2;
  EXPECT_EQ(estimateCpu(computed, {6, 64}, target, true).spilled, 1);
  CpuProgram widened = gemm;
  widened.widens = true;
  EXPECT_EQ(estimateCpu(widened, {6, 64}, target, true).registers, 29);
}

// On a host whose integer operations take FMA slots (Intel's), a step's
// loop control costs each FMA less in a bigger step: f32 6 x 64 packed
// goes ahead of 8 x 32, as measured there; on Zen 4's separate pipes the
// two stay within 1% of each other (they ran the same).
TEST(CpuSpace, ScalarOpsOnFmaPortsFavourBiggerSteps) {
  TargetInfo zen = avx512Host();
  TargetInfo intel = zen;
  intel.scalarOpsShareFmaPorts = true;
  CpuProgram gemm = packableGemm(1024, 1024, 1024);
  auto predicted = [&](const TargetInfo &target, std::vector<int64_t> tile) {
    return estimateCpu(gemm, tile, target, true).totalUs;
  };
  EXPECT_LT(predicted(intel, {6, 64}), 0.96 * predicted(intel, {8, 32}));
  EXPECT_LT(predicted(intel, {6, 64}), predicted(intel, {4, 32}));
  EXPECT_NEAR(predicted(zen, {6, 64}) / predicted(zen, {8, 32}), 1.0, 0.01);
  EXPECT_GT(predicted(intel, {8, 32}), predicted(zen, {8, 32}));
}
