//===- CpuRefit.cpp - The CPU model refit to a host's measurements --------===//
#include "autoscheduler/CpuRefit.h"

#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <cmath>

using namespace nautilus::autosched;

namespace {

/// The scales' logarithms: compute, memory, overhead, packing.
using LogScales = std::array<double, 4>;

/// Each scale lies within [1/8, 8].
const double kMaxLogScale = std::log(8.0);
/// The pull of each log scale towards 0, against the mean squared log
/// error: a scale of 2 costs what a 0.2% error on every sample does
/// (enough to hold a scale no sample's error depends on).
constexpr double kPull = 1e-5;
/// The grid each coordinate is first searched on (a step of 9%), then
/// refined between its best point's neighbours.
constexpr int kGridSteps = 48;
constexpr int kRefineSteps = 40;
constexpr int kMaxSweeps = 40;

CpuTermScales scalesOf(const LogScales &x) {
  return {std::exp(x[0]), std::exp(x[1]), std::exp(x[2]), std::exp(x[3])};
}

double termOf(const CpuTerms &t, size_t i) {
  return i == 0 ? t.compute : i == 1 ? t.memory : i == 2 ? t.overhead : t.pack;
}

double meanSquaredLogError(const std::vector<const CpuSample *> &samples,
                           const CpuTermScales &scales) {
  double sum = 0;
  for (const CpuSample *s : samples) {
    double r = std::log(predictedUs(s->programs, scales) / s->measuredUs);
    sum += r * r;
  }
  return sum / double(samples.size());
}

double objective(const std::vector<const CpuSample *> &samples,
                 const LogScales &x) {
  double pull = 0;
  for (double xi : x)
    pull += xi * xi;
  return meanSquaredLogError(samples, scalesOf(x)) + kPull * pull;
}

/// Minimises the objective along coordinate `i`, the others held.
void minimiseAlong(const std::vector<const CpuSample *> &samples, size_t i,
                   LogScales &x) {
  double step = 2 * kMaxLogScale / kGridSteps;
  double bestAt = x[i], best = objective(samples, x);
  LogScales trial = x;
  for (int g = 0; g <= kGridSteps; ++g) {
    trial[i] = -kMaxLogScale + g * step;
    if (double f = objective(samples, trial); f < best) {
      best = f;
      bestAt = trial[i];
    }
  }
  // Golden-section search between the best grid point's neighbours.
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double lo = std::max(-kMaxLogScale, bestAt - step);
  double hi = std::min(kMaxLogScale, bestAt + step);
  for (int r = 0; r < kRefineSteps; ++r) {
    double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
    trial[i] = a;
    double fa = objective(samples, trial);
    trial[i] = b;
    double fb = objective(samples, trial);
    (fa < fb ? hi : lo) = fa < fb ? b : a;
  }
  trial[i] = (lo + hi) / 2;
  if (objective(samples, trial) < best)
    bestAt = trial[i];
  x[i] = bestAt;
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
  std::vector<const CpuSample *> usable;
  for (const CpuSample &s : samples)
    if (s.measuredUs > 0 && predictedUs(s.programs, {}) > 0)
      usable.push_back(&s);
  if (usable.size() < kMinRefitSamples)
    return std::nullopt;
  // A term no sample has keeps its scale of 1.
  std::array<bool, 4> present{};
  for (const CpuSample *s : usable)
    for (const CpuTerms &t : s->programs)
      for (size_t i = 0; i < 4; ++i)
        present[i] = present[i] || termOf(t, i) > 0;
  LogScales x{};
  double last = objective(usable, x);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    for (size_t i = 0; i < 4; ++i)
      if (present[i])
        minimiseAlong(usable, i, x);
    double now = objective(usable, x);
    if (last - now < 1e-9)
      break;
    last = now;
  }
  CpuRefit refit;
  refit.scales = scalesOf(x);
  refit.samples = usable.size();
  refit.errorBefore = std::sqrt(meanSquaredLogError(usable, {}));
  refit.errorAfter = std::sqrt(meanSquaredLogError(usable, refit.scales));
  return refit;
}
