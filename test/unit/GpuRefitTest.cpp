//===- GpuRefitTest.cpp - The GPU models refit to measurements, alone -----===//
#include "autoscheduler/GpuRefit.h"
#include "autoscheduler/CostModel.h"
#include "autoscheduler/FlashSpace.h"
#include "autoscheduler/GpuSpace.h"
#include "autoscheduler/TuningDatabase.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

const GpuModelScales kSkewed{1.7, 0.6, 2.5};

/// `target` with the GPU models' terms scaled by `scales`.
TargetInfo scaled(const char *name, const GpuModelScales &scales) {
  TargetInfo target = *getTarget(name);
  target.gpuModelScales = scales;
  return target;
}

/// Whether the terms a model keeps for one candidate (`costOn(target)`:
/// its cost on that target) are the same on `target` as it is and on
/// `skewed` (under kSkewed), and predict the model's own times on each.
template <typename CostOn>
void expectTermsPredict(const TargetInfo &target, const TargetInfo &skewed,
                        CostOn costOn) {
  auto cost = costOn(target), skewedCost = costOn(skewed);
  const GpuTerms &unscaled = cost.terms;
  EXPECT_NEAR(scaledUs(unscaled, {}), cost.totalUs, 1e-9 * cost.totalUs);
  EXPECT_NEAR(scaledUs(unscaled, kSkewed), skewedCost.totalUs,
              1e-9 * skewedCost.totalUs);
  ASSERT_EQ(unscaled.waves.size(), skewedCost.terms.waves.size());
  EXPECT_EQ(unscaled.fixedUs, skewedCost.terms.fixedUs);
  for (size_t i = 0; i < unscaled.waves.size(); ++i) {
    EXPECT_EQ(unscaled.waves[i].count, skewedCost.terms.waves[i].count);
    EXPECT_TRUE(unscaled.waves[i].sameTermsAs(skewedCost.terms.waves[i]));
  }
}

/// Kernels of one or two programs whose waves are bound by compute, by
/// memory or by a round trip, each "measured" as the models under `truth`
/// predict it, off by `noise` (alternating signs, relative).
std::vector<GpuSample> samplesUnder(const GpuModelScales &truth,
                                    double noise = 0, size_t count = 24) {
  std::vector<GpuSample> samples;
  for (size_t i = 0; i < count; ++i) {
    double x = double(i);
    GpuTerms a;
    a.addWaves({int64_t(2 + i % 3), 30 + 7 * x, 10 + std::fmod(23 * x, 60), 2,
                i % 2 ? 0.5 : 0});
    a.addWaves({int64_t(1 + (i / 2) % 3), 3 + x, 40 + 5 * x, 2, 0});
    a.fixedUs = 4 + std::fmod(x, 5);
    GpuSample s{0, {a}};
    if (i % 4 == 0) {
      GpuTerms b;
      b.addWaves({1, 0.5, 0.5, 2, 1});
      b.fixedUs = 5;
      s.programs.push_back(b);
    }
    s.measuredUs =
        predictedUs(s.programs, truth) * (1 + (i % 2 ? noise : -noise));
    samples.push_back(s);
  }
  return samples;
}

} // namespace

// Every model keeps terms that, under any scales, give its own prediction
// under those scales: over whole spaces of contractions, flash kernels,
// reductions and element-wise programs on both NVIDIA targets.
TEST(GpuRefit, EachModelsTermsGiveItsPrediction) {
  for (const char *name : {"sm_80", "sm_90"}) {
    TargetInfo target = *getTarget(name), skewed = scaled(name, kSkewed);
    ContractionProblem gemm;
    gemm.m = 1000, gemm.n = 3000, gemm.k = 4096;
    gemm.splittable = true;
    gemm.wgmmaAllowed = target.hasWgmma();
    for (const ContractionCandidate &c : enumerateCandidates(gemm, target)) {
      SCOPED_TRACE(std::string(name) + " contraction " + c.describe());
      expectTermsPredict(target, skewed, [&](const TargetInfo &on) {
        return estimate(gemm, c, on);
      });
    }
    FlashProblem flash;
    flash.heads = 32, flash.queries = 1000, flash.keys = 3000;
    flash.headDim = 128;
    flash.wgmmaAllowed = target.hasWgmma();
    flash.splits = {1, 2, 4};
    for (const FlashCandidate &c : flashSpace(flash, target)) {
      SCOPED_TRACE(std::string(name) + " flash " + c.describe());
      expectTermsPredict(target, skewed, [&](const TargetInfo &on) {
        return estimateFlash(flash, c, on);
      });
    }
    GpuProgram rows;
    rows.kind = GpuProgramKind::RowReduction;
    rows.extents = {4096};
    rows.reduced = 1000;
    rows.uniqueBytesPerPoint = rows.bytesPerOutput = 4;
    rows.work = 1;
    rows.maxVector = 4;
    rows.maxReduceThreads = 1024;
    rows.splits = {1, 2, 4}; // (a split's summing program is latency)
    GpuProgram elementwise;
    elementwise.extents = {300, 1000};
    elementwise.uniqueBytesPerPoint = elementwise.bytesPerOutput = 4;
    elementwise.work = 2;
    elementwise.maxVector = 4;
    for (const GpuProgram &p : {rows, elementwise})
      for (const GpuCandidate &c : gpuSpace(p, target)) {
        SCOPED_TRACE(std::string(name) + " " + c.describe());
        expectTermsPredict(target, skewed, [&](const TargetInfo &on) {
          return estimateGpu(p, c, on);
        });
      }
  }
}

// A wave takes the longest of its scaled compute, memory and floor, plus
// its scaled additions; a program adds its scaled fixed latencies.
TEST(GpuRefit, PredictsWithScaledTerms) {
  GpuTerms t;
  t.addWaves({3, 10, 20, 2, 1});
  t.addWaves({1, 10, 20, 2, 1}); // the same terms: one kind, 4 waves
  t.addWaves({1, 1, 1, 5, 0});
  t.fixedUs = 7;
  ASSERT_EQ(t.waves.size(), 2u);
  EXPECT_EQ(t.waves[0].count, 4);
  EXPECT_DOUBLE_EQ(scaledUs(t, {}), 4 * (20 + 1) + 5 + 7);
  EXPECT_DOUBLE_EQ(scaledUs(t, {3, 1, 2}), 4 * (30 + 2) + 10 + 14);
}

// Measurements the models would predict under known scales give those
// scales back, and the error falls to nothing; with noise they stay near.
TEST(GpuRefit, RecoversTheScalesOfItsMeasurements) {
  GpuModelScales truth{1.6, 0.7, 2.5};
  std::optional<GpuRefit> refit = refitGpuModel(samplesUnder(truth));
  ASSERT_TRUE(refit);
  EXPECT_EQ(refit->samples, 24u);
  EXPECT_NEAR(refit->scales.compute, truth.compute, 0.03 * truth.compute);
  EXPECT_NEAR(refit->scales.memory, truth.memory, 0.03 * truth.memory);
  EXPECT_NEAR(refit->scales.latency, truth.latency, 0.05 * truth.latency);
  EXPECT_GT(refit->errorBefore, 0.2);
  EXPECT_LT(refit->errorAfter, 0.01);
  std::optional<GpuRefit> noisy = refitGpuModel(samplesUnder(truth, 0.05));
  ASSERT_TRUE(noisy);
  EXPECT_NEAR(noisy->scales.compute, truth.compute, 0.1 * truth.compute);
  EXPECT_NEAR(noisy->scales.memory, truth.memory, 0.1 * truth.memory);
  EXPECT_LT(noisy->errorAfter, 0.06);
  std::optional<GpuRefit> again = refitGpuModel(samplesUnder(truth, 0.05));
  EXPECT_EQ(again->scales.compute, noisy->scales.compute);
  EXPECT_EQ(again->scales.latency, noisy->scales.latency);
  EXPECT_EQ(describe(GpuRefit{{2, 1, 0.5}, 9, 0.65, 0}),
            "compute x2.00, memory x1.00, latency x0.50 (root-mean-square "
            "log error 0.65 unscaled, 0.00 refit)");
}

// Too few usable measurements refit nothing; a term no measurement has
// keeps its scale; scales stay within [1/8, 8].
TEST(GpuRefit, NeedsEnoughMeasurementsAndLeavesAloneWhatItCannotSee) {
  std::vector<GpuSample> few = samplesUnder({}, 0, kMinRefitSamples - 1);
  EXPECT_FALSE(refitGpuModel(few));
  few.push_back(GpuSample{0, {GpuTerms{{{1, 1, 1, 0, 0}}, 1}}});
  few.push_back(GpuSample{5, {}});
  EXPECT_FALSE(refitGpuModel(few));
  std::vector<GpuSample> noLatency = samplesUnder({2, 2, 2});
  for (GpuSample &s : noLatency) {
    for (GpuTerms &t : s.programs) {
      t.fixedUs = 0;
      for (GpuWaveTerms &w : t.waves)
        w.floorUs = w.addedUs = 0;
    }
    s.measuredUs = predictedUs(s.programs, {2, 2, 5});
  }
  std::optional<GpuRefit> refit = refitGpuModel(noLatency);
  ASSERT_TRUE(refit);
  EXPECT_EQ(refit->scales.latency, 1);
  EXPECT_NEAR(refit->scales.compute, 2, 0.06);
  std::optional<GpuRefit> slow = refitGpuModel(samplesUnder({100, 100, 100}));
  ASSERT_TRUE(slow);
  EXPECT_LE(slow->scales.compute, 8 * (1 + 1e-9));
  EXPECT_LE(slow->scales.latency, 8 * (1 + 1e-9));
}

// A record keeps its GPU samples (in nanoseconds) and the models'
// version; the samples of one target on one GPU under the current models
// refit them, and a compilation, which names no GPU, takes the GPU with
// the most.
TEST(GpuRefit, TheDatabaseKeepsEachGpusSamples) {
  auto record = [](std::string hash, std::string target, std::string machine,
                   int64_t version, size_t samples) {
    TuningRecord r;
    r.kernelHash = std::move(hash);
    r.target = std::move(target);
    r.machine = std::move(machine);
    r.schedule = "{\"programs\":{}}";
    r.gpuModelVersion = version;
    GpuTerms terms{{{3, 10.25, 4.5, 0.75, 0.125}, {1, 2, 8, 0.75, 0}}, 6.5};
    r.gpuSamples.assign(samples, GpuSample{40.5, {terms, terms}});
    return r;
  };
  TuningDatabase db;
  db.insert(record("k0", "sm_90", "NVIDIA H100", kGpuModelVersion, 2));
  db.insert(record("k1", "sm_90", "NVIDIA H200", kGpuModelVersion, 3));
  db.insert(record("k2", "sm_90", "NVIDIA H100", kGpuModelVersion - 1, 5));
  db.insert(record("k3", "sm_80", "NVIDIA A100", kGpuModelVersion, 9));
  TuningDatabase read;
  ASSERT_EQ(read.parse(db.text()), "");
  EXPECT_EQ(read.text(), db.text());
  std::vector<GpuSample> h100 = read.gpuSamples("sm_90", "NVIDIA H100");
  ASSERT_EQ(h100.size(), 2u);
  EXPECT_DOUBLE_EQ(h100[0].measuredUs, 40.5);
  ASSERT_EQ(h100[0].programs.size(), 2u);
  const GpuTerms &t = h100[0].programs[1];
  EXPECT_DOUBLE_EQ(t.fixedUs, 6.5);
  ASSERT_EQ(t.waves.size(), 2u);
  EXPECT_EQ(t.waves[0].count, 3);
  EXPECT_DOUBLE_EQ(t.waves[0].computeUs, 10.25);
  EXPECT_DOUBLE_EQ(t.waves[0].addedUs, 0.125);
  EXPECT_DOUBLE_EQ(t.waves[1].memoryUs, 8);
  EXPECT_EQ(read.mostMeasuredGpu("sm_90"), "NVIDIA H200");
  EXPECT_EQ(read.mostMeasuredGpu("sm_80"), "NVIDIA A100");
  EXPECT_EQ(read.mostMeasuredGpu("gfx942"), "");
  EXPECT_TRUE(read.gpuSamples("sm_80", "NVIDIA H200").empty());
  // A sample that is not [measured, [fixed, [count, c, m, f, a]...]...].
  TuningDatabase bad;
  std::string text = db.text();
  size_t at = text.find("[3,10250,");
  ASSERT_NE(at, std::string::npos);
  std::string fractional = text, noWaves = text;
  fractional.replace(at, 9, "[3,10250.5,");
  noWaves.replace(at, 9, "[0,10250,");
  for (const std::string &t : {fractional, noWaves})
    EXPECT_NE(bad.parse(t).find("a \"gpu_model\" sample is not"),
              std::string::npos);
}
