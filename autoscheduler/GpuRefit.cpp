//===- GpuRefit.cpp - The GPU models refit to one GPU's measurements ------===//
#include "autoscheduler/GpuRefit.h"

#include "llvm/Support/FormatVariadic.h"

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

GpuModelScales scalesOf(const std::vector<double> &s) {
  return {s[0], s[1], s[2]};
}

} // namespace

double autosched::predictedUs(const std::vector<GpuTerms> &programs,
                              const GpuModelScales &scales) {
  double total = 0;
  for (const GpuTerms &t : programs)
    total += scaledUs(t, scales);
  return total;
}

std::string autosched::describe(const GpuRefit &refit) {
  return llvm::formatv("compute x{0:f2}, memory x{1:f2}, latency x{2:f2} "
                       "(root-mean-square log error {3:f2} unscaled, {4:f2} "
                       "refit)",
                       refit.scales.compute, refit.scales.memory,
                       refit.scales.latency, refit.errorBefore,
                       refit.errorAfter)
      .str();
}

std::optional<GpuRefit>
autosched::refitGpuModel(const std::vector<GpuSample> &samples) {
  return refitModel<GpuModelScales>(
      samples, 3,
      [](const GpuSample &s, std::vector<bool> &exercised) {
        for (const GpuTerms &t : s.programs) {
          exercised[2] = exercised[2] || t.fixedUs > 0;
          for (const GpuWaveTerms &w : t.waves) {
            exercised[0] = exercised[0] || w.computeUs > 0;
            exercised[1] = exercised[1] || w.memoryUs > 0;
            exercised[2] = exercised[2] || w.floorUs > 0 || w.addedUs > 0;
          }
        }
      },
      scalesOf);
}
