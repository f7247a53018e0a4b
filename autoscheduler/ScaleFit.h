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

} // namespace nautilus::autosched

#endif
