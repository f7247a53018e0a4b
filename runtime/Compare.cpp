//===- Compare.cpp --------------------------------------------------------===//
#include "runtime/Compare.h"

#include <algorithm>
#include <cmath>

using namespace nautilus::rt;

double nautilus::rt::unitRoundoff(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return std::ldexp(1.0, -8);
  case DType::F16:
    return std::ldexp(1.0, -11);
  case DType::F32:
    return std::ldexp(1.0, -24);
  case DType::F64:
    return std::ldexp(1.0, -53);
  default:
    return 0;
  }
}

double nautilus::rt::unitInLastPlace(DType dtype, double value) {
  // The significand's bits (with the implicit one) and the exponent of the
  // smallest normal number, as frexp counts it (0.5 <= significand < 1).
  int bits, minExponent;
  switch (dtype) {
  case DType::BF16:
    bits = 8, minExponent = -125;
    break;
  case DType::F16:
    bits = 11, minExponent = -13;
    break;
  case DType::F32:
    bits = 24, minExponent = -125;
    break;
  case DType::F64:
    bits = 53, minExponent = -1021;
    break;
  default:
    return 0;
  }
  int exponent = minExponent;
  if (std::isfinite(value) && value != 0)
    std::frexp(value, &exponent);
  return std::ldexp(1.0, std::max(exponent, minExponent) - bits);
}

namespace {

/// The sums the mean error and its bound are made of, over the finite
/// elements.
struct MeanErrorSums {
  double signedError = 0;  // sum sign(r) (a - r)
  double magnitude = 0;    // sum |r|
  double computation = 0;  // sum of the elements' computation bounds
  double flipVariance = 0; // sum ulp min(ulp, computation bound)
  double largestUlp = 0;

  /// Counts an element: `actual` against `reference`, its computation
  /// bound and its unit in the last place.
  void add(double actual, double reference, double computation, double ulp) {
    signedError += reference > 0   ? actual - reference
                   : reference < 0 ? reference - actual
                                   : 0;
    magnitude += std::fabs(reference);
    this->computation += computation;
    flipVariance += ulp * std::min(ulp, computation);
    largestUlp = std::max(largestUlp, ulp);
  }

  double bound() const {
    double x = std::log(2 / kMeanErrorFalseAlarm);
    double noise = std::sqrt(2 * x * flipVariance) + x * largestUlp / 3;
    return (computation + noise) / magnitude;
  }
};

double meanMagnitude(const HostTensor &reference) {
  size_t n = reference.numElements();
  double sum = 0;
  for (size_t i = 0; i < n; ++i)
    if (double r = reference.getAsDouble(i); std::isfinite(r))
      sum += std::fabs(r);
  return n ? sum / n : 0;
}

} // namespace

Comparison nautilus::rt::compareTensors(const HostTensor &actual,
                                        const HostTensor &reference,
                                        Tolerance tolerance,
                                        const std::vector<double> *excess) {
  Comparison c;
  c.tolerance = tolerance;
  if (actual.shape() != reference.shape()) {
    c.elementsPass = false;
    return c;
  }
  DType dtype = reference.dtype();
  double scale = meanMagnitude(reference);
  MeanErrorSums sums;
  double worstScore = -1;
  for (size_t i = 0, n = reference.numElements(); i < n; ++i) {
    double a = actual.getAsDouble(i), r = reference.getAsDouble(i);
    double extra = excess && i < excess->size() ? (*excess)[i] : 0;
    double score;
    if (!std::isfinite(a) || !std::isfinite(r)) {
      bool same = (std::isnan(a) && std::isnan(r)) || a == r;
      score = same ? 0 : HUGE_VAL;
      if (!same)
        c.maxAbsError = c.maxRelError = HUGE_VAL;
    } else {
      double error = std::fabs(a - r);
      c.maxAbsError = std::max(c.maxAbsError, error);
      if (r != 0)
        c.maxRelError = std::max(c.maxRelError, error / std::fabs(r));
      double ulp = unitInLastPlace(dtype, std::max(std::fabs(a), std::fabs(r)));
      double computation = tolerance.relative * (std::fabs(r) + scale);
      double unwidened = tolerance.ulps * ulp + computation;
      double bound =
          unwidened + tolerance.relative * std::min(extra, kLargestExcess);
      score = bound > 0 ? error / bound : (error == 0 ? 0 : HUGE_VAL);
      c.widened += error <= bound && error > unwidened;
      // An element whose excess outweighs its own scale carries the error
      // of a sum that cancelled, which the elements it reaches share (a
      // row's variance): no independent rounding to count in the mean.
      if (extra > std::fabs(r) + scale)
        ++c.leftOutOfMean;
      else
        sums.add(a, r, computation, ulp);
    }
    if (score > worstScore) {
      worstScore = score;
      c.worstRatio = score;
      c.worst = i;
      c.worstActual = a;
      c.worstReference = r;
      c.worstExcess = extra;
    }
    if (score > 1)
      c.elementsPass = false;
  }
  if (sums.magnitude > 0) {
    c.meanError = sums.signedError / sums.magnitude;
    c.meanErrorBound = sums.bound();
    c.meanPasses = std::fabs(c.meanError) <= c.meanErrorBound;
  }
  return c;
}
