//===- Compare.h - Comparing a result with its reference -------*- C++ -*-===//
#ifndef NAUTILUS_RUNTIME_COMPARE_H
#define NAUTILUS_RUNTIME_COMPARE_H

#include "runtime/HostTensor.h"
#include <string>

namespace nautilus::rt {

struct Comparison {
  double maxAbsError = 0;  // largest |actual - reference|
  double maxRelError = 0;  // largest |actual - reference| / |reference|
  double tolerance = 0;
  /// The worst element's error as a fraction of what it is allowed (PASS
  /// when at most 1).
  double worstRatio = 0;
  bool pass = true;
  size_t worst = 0;        // flat index of the worst element
  double worstActual = 0, worstReference = 0;
};

/// Compares elementwise: an element passes when
///   |actual - reference| <= tolerance * (|reference| + mean |reference|),
/// or both are the same infinity, or both are NaN. Shapes must match.
Comparison compareTensors(const HostTensor &actual,
                          const HostTensor &reference, double tolerance);

/// The unit roundoff of a float dtype (2^-8 for bf16, 2^-24 for f32, ...);
/// 0 for integers.
double unitRoundoff(DType dtype);

} // namespace nautilus::rt

#endif
