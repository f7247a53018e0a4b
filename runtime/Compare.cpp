//===- Compare.cpp --------------------------------------------------------===//
#include "runtime/Compare.h"

#include <cmath>

using namespace nautilus::rt;

double nautilus::rt::unitRoundoff(DType dtype) {
  switch (dtype) {
  case DType::BF16: return std::ldexp(1.0, -8);
  case DType::F16: return std::ldexp(1.0, -11);
  case DType::F32: return std::ldexp(1.0, -24);
  case DType::F64: return std::ldexp(1.0, -53);
  default: return 0;
  }
}

Comparison nautilus::rt::compareTensors(const HostTensor &actual,
                                        const HostTensor &reference,
                                        double tolerance) {
  Comparison c;
  c.tolerance = tolerance;
  size_t n = reference.numElements();
  if (actual.shape() != reference.shape()) {
    c.pass = false;
    return c;
  }
  double meanAbs = 0;
  for (size_t i = 0; i < n; ++i) {
    double r = reference.getAsDouble(i);
    if (std::isfinite(r))
      meanAbs += std::fabs(r);
  }
  meanAbs = n ? meanAbs / n : 0;
  double worstScore = -1;
  for (size_t i = 0; i < n; ++i) {
    double a = actual.getAsDouble(i), r = reference.getAsDouble(i);
    double score;
    if (std::isnan(a) || std::isnan(r) || std::isinf(a) || std::isinf(r)) {
      bool same = (std::isnan(a) && std::isnan(r)) || a == r;
      score = same ? 0 : HUGE_VAL;
      if (!same) {
        c.maxAbsError = HUGE_VAL;
        c.maxRelError = HUGE_VAL;
      }
    } else {
      double err = std::fabs(a - r);
      c.maxAbsError = std::max(c.maxAbsError, err);
      if (r != 0)
        c.maxRelError = std::max(c.maxRelError, err / std::fabs(r));
      double bound = tolerance * (std::fabs(r) + meanAbs);
      score = bound > 0 ? err / bound : (err == 0 ? 0 : HUGE_VAL);
    }
    if (score > worstScore) {
      worstScore = score;
      c.worstRatio = score;
      c.worst = i;
      c.worstActual = a;
      c.worstReference = r;
    }
    if (score > 1)
      c.pass = false;
  }
  return c;
}
