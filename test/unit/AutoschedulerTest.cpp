//===- AutoschedulerTest.cpp - Space, cost model and search, each alone ---===//
#include "ExampleKernelUtil.h"
#include "LaunchRangesCheck.h"

#include "autoscheduler/ContractionSamples.h"
#include "autoscheduler/Search.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/Structures.h"
#include "compiler/Schedule/AutoSchedules.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

ContractionProblem gemm(int64_t m, int64_t n, std::optional<int64_t> k,
                        bool wgmma = true) {
  ContractionProblem p;
  p.m = m, p.n = n, p.k = k;
  p.splittable = k.has_value();
  p.wgmmaAllowed = wgmma;
  return p;
}

} // namespace

// Every candidate of the space is within the target's limits, and the
// space holds wgmma candidates only where wgmma may run.
TEST(ContractionSpace, CandidatesRespectTheTargetsLimits) {
  for (const char *name : {"sm_80", "sm_90"}) {
    TargetInfo target = *getTarget(name);
    for (bool computed : {false, true}) {
      ContractionProblem p = gemm(1000, 3000, 4096);
      p.computedLhs = computed;
      p.wgmmaAllowed = target.hasWgmma();
      std::vector<ContractionCandidate> space =
          enumerateCandidates(p, target);
      ASSERT_FALSE(space.empty()) << name;
      for (const ContractionCandidate &c : space) {
        SCOPED_TRACE(c.describe());
        EXPECT_EQ(resourceRefusal(c, p, target), "");
        EXPECT_LE(c.threads(), target.maxThreadsPerProgram);
        EXPECT_TRUE(!c.wgmma || target.hasWgmma());
        EXPECT_TRUE(!computed || c.wgmma || c.tileK == 32);
        EXPECT_TRUE(!computed || c.tileN != 256);
      }
    }
  }
  ContractionProblem unaligned = gemm(1000, 3000, 4096, /*wgmma=*/false);
  for (const ContractionCandidate &c :
       enumerateCandidates(unaligned, *getTarget("sm_90")))
    EXPECT_FALSE(c.wgmma);
  EXPECT_TRUE(enumerateCandidates(gemm(64, 64, 64), *getTarget("cpu")).empty());
  EXPECT_TRUE(
      enumerateCandidates(gemm(64, 64, 64), *getTarget("gfx942")).empty());
}

// What breaks a limit is refused, with the reason.
TEST(ContractionSpace, RefusesWhatBreaksALimit) {
  TargetInfo h100 = *getTarget("sm_90");
  ContractionCandidate wide{true, 128, 256, 64, 8, 1, 5, 1, true};
  EXPECT_EQ(resourceRefusal(wide, gemm(4096, 4096, 4096), h100),
            "its stages exceed the shared memory of a block");
  ContractionCandidate crowded{false, 128, 128, 64, 2, 1, 2, 1, false};
  EXPECT_EQ(resourceRefusal(crowded, gemm(4096, 4096, 4096), h100),
            "its accumulators exceed a thread's registers");
}

// More work takes longer; one program past a full wave costs a wave.
TEST(CostModel, GrowsWithWorkAndQuantisesWaves) {
  TargetInfo h100 = *getTarget("sm_90");
  ContractionCandidate c{true, 128, 128, 64, 8, 1, 4, 1, true};
  double small = estimate(gemm(1024, 1024, 1024), c, h100).totalUs;
  double large = estimate(gemm(4096, 4096, 1024), c, h100).totalUs;
  double deep = estimate(gemm(1024, 1024, 8192), c, h100).totalUs;
  EXPECT_LT(small, large);
  EXPECT_LT(small, deep);
  // 132 tiles of 128 x 128 fill one wave of H200's 132 SMs; 133 take two.
  CostBreakdown full = estimate(gemm(128 * 132, 128, 4096), c, h100);
  CostBreakdown over = estimate(gemm(128 * 133, 128, 4096), c, h100);
  EXPECT_EQ(full.waves, 1);
  EXPECT_EQ(over.waves, 2);
  EXPECT_GT(over.totalUs, 1.5 * full.totalUs);
  EXPECT_NEAR(over.lastWaveFill, 1.0 / 132, 1e-9);
}

// Sibling contractions (a gated MLP's gate and up projections sharing
// their lhs tile): mma.sync only, never split; each sibling's rhs takes
// stages and each its accumulators, against the limits; the model charges
// each sibling's products and B reads, and A once.
TEST(ContractionSpace, SiblingsShareTheLhsTileAndKeepTheirOwnAccumulators) {
  TargetInfo h100 = *getTarget("sm_90");
  ContractionProblem one = gemm(4096, 11008, 4096, /*wgmma=*/false);
  ContractionProblem two = one;
  two.siblings = 2;
  two.splittable = false;
  std::vector<ContractionCandidate> space = enumerateCandidates(two, h100);
  ASSERT_FALSE(space.empty());
  for (const ContractionCandidate &c : space) {
    EXPECT_FALSE(c.wgmma);
    EXPECT_EQ(c.splitK, 1);
    EXPECT_EQ(c.sharedBytes(two),
              c.stages * (c.tileM + 2 * c.tileN) * c.tileK * 2);
    EXPECT_EQ(c.accumulatorsPerThread(two), 2 * c.accumulatorsPerThread(one));
  }
  // 128 x 128 over 8 warps keeps 64 accumulators for one, 128 for two:
  // two fit (at most 128), and 128 x 128 over 4 warps does not.
  ContractionCandidate wide{false, 128, 128, 32, 2, 2, 3, 1, false};
  EXPECT_EQ(resourceRefusal(wide, one, h100), "");
  EXPECT_EQ(resourceRefusal(wide, two, h100),
            "its accumulators exceed a thread's registers");
  ContractionCandidate c{false, 128, 64, 64, 2, 4, 3, 1, false};
  CostBreakdown single = estimate(one, c, h100);
  CostBreakdown siblings = estimate(two, c, h100);
  // Twice the products, fewer resident programs (each keeps twice the
  // accumulators), and A's shared-memory reads once for both: more than
  // one contraction's time, less than two.
  EXPECT_GT(siblings.computeUs, single.computeUs);
  EXPECT_LT(siblings.computeUs, 2 * single.computeUs);
  EXPECT_LT(siblings.blocksPerMultiprocessor,
            single.blocksPerMultiprocessor);
  EXPECT_GT(siblings.memoryUs, single.memoryUs);
  EXPECT_LT(siblings.memoryUs, 2 * single.memoryUs); // A read once
  // On wgmma too: a stage holds each sibling's rhs, never split, and tile
  // N stays at most 128 (two of 256 would keep 256 accumulators a
  // consumer thread).
  ContractionProblem twoWgmma = two;
  twoWgmma.wgmmaAllowed = true;
  int64_t wgmmaCandidates = 0;
  for (const ContractionCandidate &w : enumerateCandidates(twoWgmma, h100)) {
    if (!w.wgmma)
      continue;
    ++wgmmaCandidates;
    EXPECT_LE(w.tileN, 128);
    EXPECT_EQ(w.splitK, 1);
    EXPECT_EQ(w.sharedBytes(twoWgmma),
              w.stages * (w.tileM + 2 * w.tileN) * w.tileK * 2 +
                  8 * w.stages * 2);
  }
  EXPECT_GT(wgmmaCandidates, 0);
}

// The search is deterministic and its best is the space's minimum.
TEST(Search, FindsTheModelsOptimumDeterministically) {
  TargetInfo a100 = *getTarget("sm_80");
  ContractionProblem p = gemm(2048, 512, 1024, /*wgmma=*/false);
  SearchResult first = searchContraction(p, a100);
  SearchResult again = searchContraction(p, a100);
  ASSERT_FALSE(first.ranked.empty());
  EXPECT_EQ(first.ranked.front().candidate.describe(),
            again.ranked.front().candidate.describe());
  double best = first.ranked.front().cost.totalUs;
  for (const ContractionCandidate &c : enumerateCandidates(p, a100))
    EXPECT_GE(estimate(p, c, a100).totalUs, best);
  for (size_t i = 1; i < first.ranked.size(); ++i)
    EXPECT_LE(first.ranked[i - 1].cost.totalUs, first.ranked[i].cost.totalUs);
  SearchOptions evolve;
  evolve.mode = SearchOptions::Mode::Evolutionary;
  evolve.candidates = 10;
  SearchResult few = searchContraction(p, a100, 5, evolve);
  EXPECT_EQ(few.predicted, 10u);
  EXPECT_EQ(few.ranked.size(), 5u);
}

// Every candidate of the space is a #tile.schedule the dialect accepts.
TEST(AutoSchedules, EveryCandidateIsAValidSchedule) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<tile::TileDialect>();
  for (const char *name : {"sm_80", "sm_90"}) {
    TargetInfo target = *getTarget(name);
    ContractionProblem p = gemm(3000, 3000, 8192);
    p.wgmmaAllowed = target.hasWgmma();
    for (const ContractionCandidate &c : enumerateCandidates(p, target)) {
      SCOPED_TRACE(c.describe());
      std::string errors;
      mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
        errors += d.str();
        return mlir::success();
      });
      tile::ScheduleAttr s = scheduleOf(&ctx, 3, c);
      auto emit = [&] { return mlir::emitError(mlir::UnknownLoc::get(&ctx)); };
      tile::MmaAttr mma = s.getMma();
      EXPECT_TRUE(mlir::succeeded(tile::MmaAttr::verify(
          emit, mma.getInstr(), mma.getTileK(), mma.getWarps(), mma.getStages(),
          mma.getGroupM(), mma.getProducers(), mma.getPersistent(),
          mma.getSwizzle(), mma.getSplitK(), mma.getPingPong(),
          mma.getOverlapSoftmax())));
      EXPECT_TRUE(mlir::succeeded(tile::ScheduleAttr::verify(
          emit, s.getTile(), s.getThreads(), mma, 1, 1, false, 1, false, 0)));
      EXPECT_EQ(errors, "");
      EXPECT_EQ(mma.getSplitK(), c.splitK);
    }
  }
}

// A choice the verifier refutes is passed over: the next round takes the
// model's next candidate for that problem, lists the refuted one, and
// after kMaxRounds the heuristics schedule instead. A refuted program
// whose schedule was not a choice of the model goes to the heuristics
// at once.
TEST(AutoSchedules, PassesOverRefutedChoices) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<tile::TileDialect>();
  TargetInfo target = *getTarget("sm_80");
  ContractionExtents extents{512, 512, std::nullopt};
  auto ask = [&](ScheduleProvider &provider) {
    return provider.contraction(&ctx, 2, extents, /*wgmma=*/false,
                                ComputedSides(), target, int64_t(512));
  };
  std::shared_ptr<ScheduleProvider> provider =
      std::make_shared<AutoSchedules>(heuristicSchedules());
  ASSERT_TRUE(provider->canFallBack());
  std::vector<tile::ScheduleAttr> chosen;
  for (unsigned round = 0; round < AutoSchedules::kMaxRounds; ++round) {
    SCOPED_TRACE(round);
    tile::ScheduleAttr schedule = ask(*provider);
    EXPECT_EQ(llvm::count(chosen, schedule), 0) << "chosen again";
    chosen.push_back(schedule);
    EXPECT_EQ(provider->origin(), round ? "the auto-scheduler's next candidates"
                                        : "the auto-scheduler");
    std::string explained;
    llvm::raw_string_ostream os(explained);
    provider->explain(os);
    EXPECT_EQ(llvm::StringRef(explained).count("  refuted:   "), round)
        << explained;
    provider = provider->fallback({{"gemm_C", schedule}});
    ASSERT_TRUE(provider);
  }
  EXPECT_EQ(provider->origin(), heuristicSchedules()->origin());
  // The model's first choice, refuted by a program it did not schedule.
  auto fresh = std::make_shared<AutoSchedules>(heuristicSchedules());
  tile::ScheduleAttr first = ask(*fresh);
  EXPECT_EQ(first, chosen.front());
  tile::ScheduleAttr other = ask(*heuristicSchedules());
  ASSERT_NE(other, first);
  EXPECT_EQ(fresh->fallback({{"other", other}})->origin(),
            heuristicSchedules()->origin());
}

// On a GPU, a refuted choice of the GPU model is passed over in the next
// lowering (matched by its program's schedule, or by the split's partial
// program that runs it); a refuted program the model did not schedule as
// it chose sends the kernel to the heuristics.
TEST(AutoSchedules, PassesOverRefutedGpuChoices) {
  test::ExampleKernel softmax("norms.tensor", "softmax",
                              {{"R", 4}, {"C", 50000}});
  ASSERT_TRUE(softmax.loaded());
  TargetInfo target = *getTarget("sm_90");
  // The schedule of program `name` when the kernel is lowered by `provider`.
  auto lower = [&](std::shared_ptr<ScheduleProvider> provider,
                   llvm::StringRef name) {
    mlir::OwningOpRef<mlir::ModuleOp> module = softmax.module().clone();
    EXPECT_TRUE(succeeded(lowerAlgToTile(*module, target, provider)));
    for (auto program : module->getOps<tile::ProgramOp>())
      if (program.getSymName() == name)
        return program.getSchedule();
    ADD_FAILURE() << "no program " << name.str();
    return tile::ScheduleAttr();
  };
  auto provider = std::make_shared<AutoSchedules>(heuristicSchedules());
  tile::ScheduleAttr first = lower(provider, "softmax_L_partial");
  ASSERT_TRUE(first);
  ASSERT_GT(first.getReduceThreads(), 256) << "not the model's choice";
  std::shared_ptr<ScheduleProvider> retry =
      provider->fallback({{"softmax_L_partial", first}});
  EXPECT_EQ(retry->origin(), "the auto-scheduler's next candidates");
  tile::ScheduleAttr second = lower(retry, "softmax_L_partial");
  EXPECT_NE(second, first);
  std::string explained;
  llvm::raw_string_ostream os(explained);
  retry->explain(os);
  EXPECT_NE(explained.find("  refuted:   "), std::string::npos) << explained;
  // The combining program keeps the heuristics' fold, not a model choice.
  tile::ScheduleAttr combining = lower(provider, "softmax_L");
  EXPECT_EQ(provider->fallback({{"softmax_L", combining}})->origin(),
            heuristicSchedules()->origin());
}

// The structures (the alg rewrites) on the CPU: the model prefers the
// least predicted of those it predicts, and keeps the default rewrites
// where it cannot predict them; the provider under a chosen structure answers
// the rewrites' questions with it, with the model's reason.
TEST(AutoSchedules, ChoosesTheStructureTheModelPredictsFastest) {
  RewriteChoice fused, stored{true, false}, apart{false, true};
  std::vector<StructurePrediction> predictions{
      {fused, 30.0, ""}, {stored, 25.0, ""}, {apart, 20.0, ""}};
  EXPECT_EQ(preferredStructure(predictions), 2u);
  predictions[0].predictedUs = 20.0; // a tie goes to the earlier
  EXPECT_EQ(preferredStructure(predictions), 0u);
  predictions[0].predictedUs = 30.0;
  predictions[2] = {apart, std::nullopt, "attention_Y"}; // left out
  EXPECT_EQ(preferredStructure(predictions), 1u);
  predictions[0] = {fused, std::nullopt, "attention_O"};
  EXPECT_EQ(preferredStructure(predictions), 0u);

  TargetInfo cpu = *getTarget("cpu"), sm80 = *getTarget("sm_80");
  auto provider = std::make_shared<AutoSchedules>(heuristicSchedules());
  EXPECT_TRUE(provider->choosesStructure(cpu));
  EXPECT_TRUE(provider->choosesStructure(sm80)); // by the GPU models
  EXPECT_FALSE(heuristicSchedules()->choosesStructure(cpu));
  std::vector<StructurePrediction> apartFastest{{fused, 30.0, ""},
                                                {apart, 20.0, ""}};
  std::shared_ptr<ScheduleProvider> chosen =
      provider->withStructure(apartFastest, 1);
  ASSERT_TRUE(chosen);
  EXPECT_FALSE(chosen->choosesStructure(cpu));
  std::string why;
  EXPECT_FALSE(chosen->fusesReductions(cpu, why));
  EXPECT_EQ(why, "the auto-scheduler's CPU model predicts 20.0 us with the "
                 "reductions not fused, 30.0 us with the reductions fused");
  why.clear();
  EXPECT_TRUE(chosen->recomputesInStreams(cpu, why));
  std::string explained;
  llvm::raw_string_ostream os(explained);
  chosen->explain(os);
  EXPECT_NE(explained.find("  chosen:    reductions not fused: 20.0 us"),
            std::string::npos)
      << explained;
  // Falling back on the heuristics (a refuted program the model did not
  // schedule) keeps the structure: the same programs, the heuristics'
  // schedules.
  mlir::MLIRContext ctx;
  ctx.loadDialect<tile::TileDialect>();
  std::vector<RefutedProgram> refuted{
      {"other", tile::ScheduleAttr::get(&ctx, {4, 16}, 1)}};
  std::shared_ptr<ScheduleProvider> fallen = chosen->fallback(refuted);
  ASSERT_TRUE(fallen);
  EXPECT_EQ(fallen->origin(),
            heuristicSchedules()->origin() +
                " in the auto-scheduler's structure (the reductions not "
                "fused)");
  EXPECT_FALSE(fallen->fusesReductions(cpu, why));
  EXPECT_FALSE(fallen->choosesStructure(cpu));
  // The default structure chosen is kept too (it answers as the
  // heuristics), and so is one with shared operands apart, where sm_90's
  // heuristics fuse them.
  std::shared_ptr<ScheduleProvider> fallenDefault =
      provider->withStructure(apartFastest, 0)->fallback(refuted);
  ASSERT_TRUE(fallenDefault);
  EXPECT_TRUE(fallenDefault->fusesReductions(cpu, why));
  TargetInfo h100 = *getTarget("sm_90");
  EXPECT_TRUE(fallenDefault->fusesSharedOperands(h100, why));
  RewriteChoice sharedApart;
  sharedApart.fuseSharedOperands = false;
  std::vector<StructurePrediction> sharedApartFastest{{fused, 30.0, ""},
                                                      {sharedApart, 20.0, ""}};
  std::shared_ptr<ScheduleProvider> fallenApart =
      provider->withStructure(sharedApartFastest, 1)->fallback(refuted);
  ASSERT_TRUE(fallenApart);
  EXPECT_FALSE(fallenApart->fusesSharedOperands(h100, why));
  EXPECT_TRUE(heuristicSchedules()->fusesSharedOperands(h100, why));
  // The default structure chosen: the heuristics' answers.
  EXPECT_TRUE(
      provider->withStructure(apartFastest, 0)->fusesReductions(cpu, why));
}

// A contraction whose M and N are unbound is viewed at every sample
// shape, and its candidates ranked by their regrets there: the first has
// the least geometric-mean regret, each sample's best time is the bound
// search's best there, and the same inputs give the same ranking.
TEST(ContractionSamples, RanksOverEverySampleShape) {
  TargetInfo h100 = *getTarget("sm_90");
  ContractionProblem p = gemm(0, 0, std::nullopt);
  std::vector<ContractionProblem> samples = contractionSamples(p, true, true);
  ASSERT_EQ(samples.size(), 9u);
  EXPECT_EQ(samples[1].m, kUnboundSizeSamples[0]);
  EXPECT_EQ(samples[1].n, kUnboundSizeSamples[1]);
  EXPECT_EQ(samples.back().m, kUnboundSizeSamples.back());
  EXPECT_EQ(contractionSamples(gemm(100, 0, 64), false, true).front().m, 100);
  std::vector<double> bestUs;
  std::vector<SampledContraction> ranked =
      rankContractionOverSamples(samples, h100, 0, &bestUs);
  ASSERT_FALSE(ranked.empty());
  ASSERT_EQ(bestUs.size(), samples.size());
  for (size_t s = 0; s < samples.size(); ++s)
    EXPECT_DOUBLE_EQ(
        bestUs[s],
        searchContraction(samples[s], h100, 1).ranked.front().cost.totalUs);
  for (const SampledContraction &c : ranked) {
    EXPECT_GE(c.regrets.mean, 1.0);
    EXPECT_GE(c.regrets.worst, c.regrets.mean);
    EXPECT_GE(c.regrets.mean, ranked.front().regrets.mean);
  }
  std::vector<SampledContraction> again =
      rankContractionOverSamples(samples, h100, 3);
  ASSERT_EQ(again.size(), 3u);
  for (size_t i = 0; i < again.size(); ++i)
    EXPECT_EQ(parametersOf(again[i].candidate),
              parametersOf(ranked[i].candidate));
  // A candidate's regrets against the same best times.
  SampledContraction first =
      sampledContraction(samples, bestUs, ranked.front().candidate, h100);
  EXPECT_DOUBLE_EQ(first.regrets.mean, ranked.front().regrets.mean);
  EXPECT_DOUBLE_EQ(first.atLargest.totalUs, ranked.front().atLargest.totalUs);
}

// `--schedule auto` schedules a contraction of unbound M and N with the
// candidate ranked first over the samples, explains its regrets beside
// the heuristics', and passes over it once refuted.
TEST(AutoSchedules, SamplesAContractionOfUnboundSizes) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<tile::TileDialect>();
  TargetInfo target = *getTarget("sm_90");
  ContractionExtents extents{std::nullopt, std::nullopt, std::nullopt};
  auto ask = [&](ScheduleProvider &provider) {
    return provider.contraction(&ctx, 2, extents, /*wgmma=*/true,
                                ComputedSides(), target, std::nullopt);
  };
  std::shared_ptr<ScheduleProvider> provider =
      std::make_shared<AutoSchedules>(heuristicSchedules());
  tile::ScheduleAttr chosen = ask(*provider);
  ContractionProblem p = gemm(kUnboundSizeSamples.back(),
                              kUnboundSizeSamples.back(), std::nullopt);
  p.splittable = false;
  std::vector<SampledContraction> ranked =
      rankContractionOverSamples(contractionSamples(p, true, true), target, 2);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(chosen, scheduleOf(&ctx, 2, ranked.front().candidate));
  EXPECT_NE(chosen, ask(*heuristicSchedules()));
  std::string explained;
  llvm::raw_string_ostream os(explained);
  provider->explain(os);
  EXPECT_NE(explained.find("explain: contraction M x N x K (unbound) over 9 "
                           "sample shapes (M, N unbound, each at 32, 512 "
                           "and 4096)"),
            std::string::npos)
      << explained;
  EXPECT_NE(explained.find("  heuristics: wgmma 128x128x64"), std::string::npos)
      << explained;
  provider = provider->fallback({{"gemm_C", chosen}});
  tile::ScheduleAttr next = ask(*provider);
  EXPECT_NE(next, chosen);
  explained.clear();
  provider->explain(os);
  EXPECT_EQ(llvm::StringRef(explained).count("  refuted:   "), 1u) << explained;
}

// A linear layer's M unbound (N and K bound) on sm_90: no one schedule
// serves a decoding step's few rows and thousands of rows alike, so the
// model divides M into ranges, each with its own schedule, covering every
// value in order, at a mean regret below the one schedule's by more than
// each extra copy's toll; a refuted schedule is never a range's.
TEST(ContractionSamples, DividesAnUnboundMIntoLaunchRanges) {
  TargetInfo h100 = *getTarget("sm_90");
  ContractionProblem p = gemm(kUnboundSizeSamples.back(), 512, 512);
  p.splittable = false;
  std::vector<SampledContraction> ranked =
      rankContractionOverSamples(contractionSamples(p, true, false), h100, 1);
  ASSERT_EQ(ranked.size(), 1u);
  std::optional<ContractionLaunchRanges> ranges = chooseContractionLaunchRanges(
      p, true, false, ranked.front().candidate, h100);
  ASSERT_TRUE(ranges);
  const LaunchRanges &division = ranges->division;
  nautilus::test::expectRangesInOrder(division);
  EXPECT_EQ(division.size, 0u);
  for (size_t r = 0; r < division.ranges.size(); ++r) {
    const LaunchRange &range = division.ranges[r];
    ASSERT_LT(range.candidate, ranges->candidates.size());
    if (r)
      EXPECT_NE(
          parametersOf(ranges->candidates[range.candidate]),
          parametersOf(ranges->candidates[division.ranges[r - 1].candidate]));
  }
  // The first range's schedule refuted: no range takes it.
  ContractionCandidate refuted =
      ranges->candidates[division.ranges.front().candidate];
  std::optional<ContractionLaunchRanges> again = chooseContractionLaunchRanges(
      p, true, false, ranked.front().candidate, h100,
      [&](const ContractionCandidate &c) {
        return parametersOf(c) != parametersOf(refuted);
      });
  ASSERT_TRUE(again);
  for (const LaunchRange &range : again->division.ranges)
    EXPECT_NE(parametersOf(again->candidates[range.candidate]),
              parametersOf(refuted));
}
