//===- CpuRefit.cpp - The CPU model refit to a host's measurements --------===//
#include "autoscheduler/CpuRefit.h"
#include "autoscheduler/ScaleFit.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace nautilus::autosched;

namespace {

double termOf(const CpuTerms &t, size_t i) {
  return i == 0 ? t.compute : i == 1 ? t.memory : i == 2 ? t.overhead : t.pack;
}

CpuTermScales scalesOf(const std::vector<double> &s) {
  return {s[0], s[1], s[2], s[3]};
}

} // namespace

double nautilus::autosched::predictedUs(const std::vector<CpuTerms> &programs,
                                        const CpuTermScales &scales) {
  double total = 0;
  for (const CpuTerms &t : programs)
    total += scaledUs(t, scales);
  return total;
}

std::string nautilus::autosched::describe(const CpuRefit &refit) {
  return llvm::formatv("compute x{0:f2}, memory x{1:f2}, overhead x{2:f2}, "
                       "packing x{3:f2} (root-mean-square log error {4:f2} "
                       "unscaled, {5:f2} refit)",
                       refit.scales.compute, refit.scales.memory,
                       refit.scales.overhead, refit.scales.pack,
                       refit.errorBefore, refit.errorAfter)
      .str();
}

std::optional<CpuRefit>
nautilus::autosched::refitCpuModel(const std::vector<CpuSample> &samples) {
  return refitModel<CpuTermScales>(
      samples, 4,
      [](const CpuSample &s, std::vector<bool> &exercised) {
        for (const CpuTerms &t : s.programs)
          for (size_t i = 0; i < 4; ++i)
            exercised[i] = exercised[i] || termOf(t, i) > 0;
      },
      scalesOf);
}
