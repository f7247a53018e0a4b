//===- ScaleFit.cpp - Scales of a model's terms fit to measurements -------===//
#include "autoscheduler/ScaleFit.h"

#include <cmath>

using namespace nautilus::autosched;

namespace {

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

class Fit {
public:
  Fit(const std::vector<double> &measured, const ScaledPrediction &predict)
      : measured(measured), predict(predict) {}

  double meanSquaredLogError(const std::vector<double> &scales) const {
    double sum = 0;
    for (size_t i = 0; i < measured.size(); ++i) {
      double r = std::log(predict(scales, i) / measured[i]);
      sum += r * r;
    }
    return sum / double(measured.size());
  }

  /// The objective at the log scales `x`.
  double objective(const std::vector<double> &x) const {
    double pull = 0;
    for (double xi : x)
      pull += xi * xi;
    return meanSquaredLogError(scalesOf(x)) + kPull * pull;
  }

  static std::vector<double> scalesOf(const std::vector<double> &x) {
    std::vector<double> scales;
    for (double xi : x)
      scales.push_back(std::exp(xi));
    return scales;
  }

  /// Minimises the objective along coordinate `i`, the others held.
  void minimiseAlong(size_t i, std::vector<double> &x) const {
    double step = 2 * kMaxLogScale / kGridSteps;
    double bestAt = x[i], best = objective(x);
    std::vector<double> trial = x;
    for (int g = 0; g <= kGridSteps; ++g) {
      trial[i] = -kMaxLogScale + g * step;
      if (double f = objective(trial); f < best) {
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
      double fa = objective(trial);
      trial[i] = b;
      double fb = objective(trial);
      (fa < fb ? hi : lo) = fa < fb ? b : a;
    }
    trial[i] = (lo + hi) / 2;
    if (objective(trial) < best)
      bestAt = trial[i];
    x[i] = bestAt;
  }

private:
  const std::vector<double> &measured;
  const ScaledPrediction &predict;
};

} // namespace

ScaleFit nautilus::autosched::fitScales(const std::vector<double> &measured,
                                        const std::vector<bool> &exercised,
                                        const ScaledPrediction &predict) {
  Fit fit(measured, predict);
  std::vector<double> x(exercised.size(), 0.0);
  double last = fit.objective(x);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    for (size_t i = 0; i < x.size(); ++i)
      if (exercised[i])
        fit.minimiseAlong(i, x);
    double now = fit.objective(x);
    if (last - now < 1e-9)
      break;
    last = now;
  }
  ScaleFit result;
  result.scales = Fit::scalesOf(x);
  result.errorBefore =
      std::sqrt(fit.meanSquaredLogError(std::vector<double>(x.size(), 1.0)));
  result.errorAfter = std::sqrt(fit.meanSquaredLogError(result.scales));
  return result;
}
