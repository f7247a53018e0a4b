//===- CpuRefitTest.cpp - The CPU model refit to measurements, alone ------===//
#include "autoscheduler/CpuRefit.h"
#include "autoscheduler/TuningDatabase.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// Kernels of one or two programs whose terms vary independently (some
/// compute-bound, some memory-bound, some packing), each "measured" as
/// the model under `truth` predicts it, off by `noise` (alternating
/// signs, relative).
std::vector<CpuSample> samplesUnder(const CpuTermScales &truth,
                                    double noise = 0, size_t count = 24) {
  std::vector<CpuSample> samples;
  for (size_t i = 0; i < count; ++i) {
    double x = double(i);
    CpuTerms a{40 + 9 * x, 30 + std::fmod(37 * x, 200), 2 + std::fmod(x, 5),
               i % 3 ? 0 : 4 + x};
    CpuSample s;
    s.programs.push_back(a);
    if (i % 4 == 0)
      s.programs.push_back({5 + x, 60 - x, 1, 0});
    s.measuredUs =
        predictedUs(s.programs, truth) * (1 + (i % 2 ? noise : -noise));
    samples.push_back(s);
  }
  return samples;
}

} // namespace

// The model's time is max(compute, memory) + overhead + packing, each
// scaled; a kernel's is the sum of its programs'.
TEST(CpuRefit, PredictsWithScaledTerms) {
  std::vector<CpuTerms> kernel{{10, 20, 1, 2}, {30, 5, 1, 0}};
  EXPECT_DOUBLE_EQ(predictedUs(kernel, {}), 20 + 3 + 30 + 1);
  EXPECT_DOUBLE_EQ(predictedUs(kernel, {3, 1, 2, 0.5}), 30 + 3 + 90 + 2);
}

// Measurements the model would predict under known scales give those
// scales back, and the error falls to nothing.
TEST(CpuRefit, RecoversTheScalesOfItsMeasurements) {
  CpuTermScales truth{1.6, 0.7, 2.5, 0.5};
  std::optional<CpuRefit> refit = refitCpuModel(samplesUnder(truth));
  ASSERT_TRUE(refit);
  EXPECT_EQ(refit->samples, 24u);
  EXPECT_NEAR(refit->scales.compute, truth.compute, 0.03 * truth.compute);
  EXPECT_NEAR(refit->scales.memory, truth.memory, 0.03 * truth.memory);
  EXPECT_NEAR(refit->scales.overhead, truth.overhead, 0.05 * truth.overhead);
  EXPECT_NEAR(refit->scales.pack, truth.pack, 0.05 * truth.pack);
  EXPECT_GT(refit->errorBefore, 0.2);
  EXPECT_LT(refit->errorAfter, 0.01);
  // With noise the scales stay near, the error near the noise's.
  std::optional<CpuRefit> noisy = refitCpuModel(samplesUnder(truth, 0.05));
  ASSERT_TRUE(noisy);
  EXPECT_NEAR(noisy->scales.compute, truth.compute, 0.1 * truth.compute);
  EXPECT_NEAR(noisy->scales.memory, truth.memory, 0.1 * truth.memory);
  EXPECT_LT(noisy->errorAfter, 0.06);
  // The same samples, the same scales.
  std::optional<CpuRefit> again = refitCpuModel(samplesUnder(truth, 0.05));
  EXPECT_EQ(again->scales.compute, noisy->scales.compute);
  EXPECT_EQ(again->scales.pack, noisy->scales.pack);
}

// A term no measurement exercises keeps its scale; the model as it stands
// fits measurements it predicts exactly.
TEST(CpuRefit, LeavesAloneWhatItCannotSee) {
  std::vector<CpuSample> samples = samplesUnder({2, 2, 2, 2});
  for (CpuSample &s : samples) {
    for (CpuTerms &t : s.programs)
      t.pack = 0;
    s.measuredUs = predictedUs(s.programs, {2, 2, 2, 1});
  }
  std::optional<CpuRefit> refit = refitCpuModel(samples);
  ASSERT_TRUE(refit);
  EXPECT_EQ(refit->scales.pack, 1);
  EXPECT_NEAR(refit->scales.compute, 2, 0.06);
  std::optional<CpuRefit> exact = refitCpuModel(samplesUnder({}));
  ASSERT_TRUE(exact);
  EXPECT_NEAR(exact->scales.compute, 1, 0.01);
  EXPECT_NEAR(exact->scales.memory, 1, 0.01);
  EXPECT_LT(exact->errorAfter, 1e-3);
}

// Too few usable measurements (a time and a prediction above zero) refit
// nothing; scales stay within [1/8, 8] whatever the measurements say.
TEST(CpuRefit, NeedsEnoughMeasurementsAndBoundsTheScales) {
  std::vector<CpuSample> few = samplesUnder({}, 0, kMinRefitSamples - 1);
  EXPECT_FALSE(refitCpuModel(few));
  few.push_back(CpuSample{0, {{1, 1, 1, 0}}});
  few.push_back(CpuSample{5, {}});
  EXPECT_FALSE(refitCpuModel(few));
  std::vector<CpuSample> slow = samplesUnder({100, 100, 100, 100});
  std::optional<CpuRefit> refit = refitCpuModel(slow);
  ASSERT_TRUE(refit);
  EXPECT_LE(refit->scales.compute, 8 * (1 + 1e-9));
  EXPECT_LE(refit->scales.overhead, 8 * (1 + 1e-9));
}

// A record keeps its samples (in nanoseconds) and the model's version;
// the samples of one machine under the current model are what refit it.
TEST(CpuRefit, TheDatabaseKeepsEachHostsSamples) {
  TuningDatabase db;
  auto record = [](std::string hash, std::string machine, int64_t version) {
    TuningRecord r;
    r.kernelHash = std::move(hash);
    r.target = "cpu";
    r.machine = std::move(machine);
    r.schedule = "{\"programs\":{}}";
    r.modelVersion = version;
    r.samples = {{12.5, {{10.25, 3, 0.5, 1}, {2, 4, 0, 0}}},
                 {9, {{8, 1, 1, 0}}}};
    return r;
  };
  db.insert(record("k0", "here", kCpuModelVersion));
  db.insert(record("k1", "here", kCpuModelVersion - 1));
  db.insert(record("k2", "there", kCpuModelVersion));
  TuningDatabase read;
  ASSERT_EQ(read.parse(db.text()), "");
  EXPECT_EQ(read.text(), db.text());
  std::vector<CpuSample> here = read.cpuSamples("here");
  ASSERT_EQ(here.size(), 2u);
  EXPECT_DOUBLE_EQ(here[0].measuredUs, 12.5);
  ASSERT_EQ(here[0].programs.size(), 2u);
  EXPECT_DOUBLE_EQ(here[0].programs[0].compute, 10.25);
  EXPECT_DOUBLE_EQ(here[0].programs[0].overhead, 0.5);
  EXPECT_DOUBLE_EQ(here[0].programs[1].memory, 4);
  EXPECT_EQ(read.cpuSamples("there").size(), 2u);
  EXPECT_TRUE(read.cpuSamples("elsewhere").empty());
  // A record without samples writes no "cpu_model".
  TuningDatabase plain;
  TuningRecord r = record("k3", "here", 0);
  r.samples.clear();
  plain.insert(r);
  EXPECT_EQ(plain.text().find("cpu_model"), std::string::npos);
}

TEST(CpuRefit, RefusesMalformedSamples) {
  TuningDatabase db;
  std::string head = "{\"version\": 1, \"records\": [{\"kernel_hash\": \"k\", "
                     "\"target\": \"cpu\", \"sizes\": {}, \"schedule\": {}, "
                     "\"cpu_model\": ";
  EXPECT_NE(db.parse(head + "{\"version\": 1}}]}").find("needs a \"samples\""),
            std::string::npos);
  EXPECT_NE(db.parse(head + "{\"version\": 1, \"samples\": [[5, [1, 2]]]}}]}")
                .find("is not [measured_ns"),
            std::string::npos);
  EXPECT_EQ(db.parse(head + "{\"version\": 1, \"samples\": [[5, [1, 2, 3, "
                            "4]]]}}]}"),
            "");
}

// The CPU model's terms take the scales a refit gives them.
TEST(CpuRefit, ScalesTheCpuModelsTerms) {
  TargetInfo target = *getTarget("cpu");
  target.vectorBits = 512;
  target.multiprocessors = 2;
  CpuProgram gemm;
  gemm.extents = {1024, 1024};
  gemm.reduced = 1024;
  gemm.contraction = true;
  gemm.packable = true;
  CpuCost plain = estimateCpu(gemm, {8, 32}, target, true);
  CpuCost scaled = estimateCpu(gemm, {8, 32}, target, true, {2, 3, 4, 5});
  EXPECT_GT(plain.packUs, 0);
  EXPECT_DOUBLE_EQ(scaled.computeUs, 2 * plain.computeUs);
  EXPECT_DOUBLE_EQ(scaled.memoryUs, 3 * plain.memoryUs);
  EXPECT_DOUBLE_EQ(scaled.overheadUs, 4 * plain.overheadUs);
  EXPECT_DOUBLE_EQ(scaled.packUs, 5 * plain.packUs);
  EXPECT_DOUBLE_EQ(scaled.totalUs,
                   predictedUs({CpuTerms::of(plain)}, {2, 3, 4, 5}));
}
