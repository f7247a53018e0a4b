//===- ScaleFit.h - Scales of a model's terms fit to measurements -*- C++
//-*-===//
//
// What the CPU and GPU refits share (CpuRefit.h, GpuRefit.h): the scales
// of a model's terms that best predict measured times, as the least
// squares of log(predicted / measured), with a weak pull of each scale
// towards 1 (so that a term the samples do not exercise keeps its
// documented value). The search is a deterministic coordinate descent
// over the scales' logarithms, each between 1/8 and 8: a grid along one
// coordinate, then a golden-section refinement, sweeps until the
// objective stops falling.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_SCALEFIT_H
#define NAUTILUS_AUTOSCHEDULER_SCALEFIT_H

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace nautilus::autosched {

/// The fewest samples a refit takes.
constexpr size_t kMinRefitSamples = 8;

/// The prediction of sample `i` under `scales`.
using ScaledPrediction =
    std::function<double(const std::vector<double> &scales, size_t i)>;

struct ScaleFit {
  std::vector<double> scales;
  /// The root mean square of log(predicted / measured), every scale 1
  /// (before) and at `scales` (after).
  double errorBefore = 0, errorAfter = 0;
};

/// The scales (as many as `exercised` has; one not exercised stays 1)
/// that best predict `measured` (every time and prediction above zero).
ScaleFit fitScales(const std::vector<double> &measured,
                   const std::vector<bool> &exercised,
                   const ScaledPrediction &predict);

/// A model's scales (`Scales`: CpuTermScales, GpuModelScales) refit to
/// measurements.
template <typename Scales> struct ModelRefit {
  Scales scales;
  size_t samples = 0;
  /// The root mean square of log(predicted / measured) before (unscaled)
  /// and after.
  double errorBefore = 0, errorAfter = 0;
};

/// The refit of a model of `terms` scales to `samples` (each a
/// `measuredUs` and the `programs` that `predictedUs(programs, scales)`
/// predicts): the usable ones (a time and an unscaled prediction above
/// zero), at least kMinRefitSamples of them, else std::nullopt.
/// `markExercised(sample, flags)` sets the flags of the terms a sample
/// has; `scalesOf` reads fitted values as Scales.
template <typename Scales, typename Sample, typename Mark>
std::optional<ModelRefit<Scales>>
refitModel(const std::vector<Sample> &samples, size_t terms, Mark markExercised,
           Scales (*scalesOf)(const std::vector<double> &)) {
  std::vector<const Sample *> usable;
  for (const Sample &s : samples)
    if (s.measuredUs > 0 && predictedUs(s.programs, Scales{}) > 0)
      usable.push_back(&s);
  if (usable.size() < kMinRefitSamples)
    return std::nullopt;
  // A term no sample has keeps its scale of 1.
  std::vector<bool> exercised(terms, false);
  std::vector<double> measured;
  for (const Sample *s : usable) {
    measured.push_back(s->measuredUs);
    markExercised(*s, exercised);
  }
  ScaleFit fit = fitScales(
      measured, exercised, [&](const std::vector<double> &scales, size_t i) {
        return predictedUs(usable[i]->programs, scalesOf(scales));
      });
  return ModelRefit<Scales>{scalesOf(fit.scales), usable.size(),
                            fit.errorBefore, fit.errorAfter};
}

} // namespace nautilus::autosched

#endif
