//===- Compare.h - Comparing a result with its reference -------*- C++ -*-===//
//
// A result passes when every element is within its bound of the reference
// and the mean error is within what rounding explains: a kernel off by a
// uniform factor smaller than its output's rounding (an rmsnorm dividing by
// D + 2 where it should divide by D, with bf16 outputs) moves few elements
// by a unit each, which no element-wise bound can tell from rounding, but
// every one of them the same way.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_COMPARE_H
#define NAUTILUS_RUNTIME_COMPARE_H

#include "runtime/HostTensor.h"

#include <string>
#include <vector>

namespace nautilus::rt {

/// How far a result may stray from its reference. An element passes when
///   |actual - reference| <= ulps * ulp + relative * (|reference| + scale)
/// where ulp is the unit in the last place of the output's dtype at the
/// larger of the two values, and scale is the mean |reference|: rounding
/// errors in sums of mixed signs are relative to the magnitude of the
/// partial sums, not to the (perhaps cancelled) result.
struct Tolerance {
  /// The output's own rounding: the kernel's value and the reference's,
  /// both rounded to the output's dtype, are one unit apart at most when
  /// the values before rounding are closer than the computation's error.
  double ulps = 1;
  /// The computation's error before the output's rounding.
  double relative = 0;
};

/// The mean error's bound: the comparison passes when the mean error
///   sum sign(reference) * (actual - reference) / sum |reference|
/// (a uniform relative error e gives e) is within
///   systematic + noise.
/// systematic is what the computation's error allows as a bias,
/// relative * (1 + scale / mean |reference|). noise is what the output's
/// rounding adds: rounding the same value twice agrees, and rounding values
/// `d` apart flips one unit in about d / ulp of the elements, either way as
/// often for values that fall anywhere in their unit; with each element's
/// rounding independent, Bernstein's inequality bounds the sum of the
/// flips, except with probability kMeanErrorFalseAlarm, by
///   sqrt(2 x sum ulp_i min(ulp_i, d_i)) + x max ulp_i / 3,
/// x = ln(2 / kMeanErrorFalseAlarm), d_i the element's computation bound.
constexpr double kMeanErrorFalseAlarm = 1e-9;

struct Comparison {
  double maxAbsError = 0; // largest |actual - reference|
  double maxRelError = 0; // largest |actual - reference| / |reference|
  Tolerance tolerance;
  /// The worst element's error as a fraction of its bound (at most 1 to
  /// pass), its flat index and values.
  double worstRatio = 0;
  size_t worst = 0;
  double worstActual = 0, worstReference = 0;
  /// Elements within their bounds only as their excesses widened them
  /// (sums that cancelled on the way to them), and the worst element's
  /// excess.
  size_t widened = 0;
  double worstExcess = 0;
  /// Elements left out of the mean error: their excess outweighs |expected|
  /// + mean |expected| (their error is mostly a cancelled sum's, shared by
  /// the elements it reaches, not a rounding of their own).
  size_t leftOutOfMean = 0;
  /// The mean error and its bound (see kMeanErrorFalseAlarm).
  double meanError = 0;
  double meanErrorBound = 0;
  bool elementsPass = true;
  bool meanPasses = true;
  bool pass() const { return elementsPass && meanPasses; }
};

/// Compares `actual` with `reference` (same shape and dtype) within
/// `tolerance`: each element within its bound, or both the same infinity,
/// or both NaN, and the mean error within its bound. An element's bound is
///   ulps x its unit in the last place
///     + relative x (|reference| + excess + mean |reference|),
/// `excess` (where given, one an element) what the reference's sums that
/// cancelled add to its error scale (the interpreter's, compiler/
/// Interpreter/CancellationExcess.h); 0 elsewhere.
/// The mean error's bound (kMeanErrorFalseAlarm) takes the unwidened
/// bounds: one element's large excess (a quotient by a sum that cancelled
/// to near 0) would otherwise switch off the check of a bias over every
/// element. An element whose excess exceeds |reference| + mean
/// |reference| is left out of the mean instead: its error is mostly the
/// cancelled sum's, which every element it reaches shares (a row's
/// variance that cancelled to noise scales the whole row), so the errors
/// are not independent roundings the bound assumes; where every element
/// is so, the mean is not checked.
Comparison compareTensors(const HostTensor &actual, const HostTensor &reference,
                          Tolerance tolerance,
                          const std::vector<double> *excess = nullptr);

/// An excess is taken up to this (so that no bound overflows to infinity).
constexpr double kLargestExcess = 1e300;

/// The unit roundoff of a float dtype (2^-8 for bf16, 2^-24 for f32, ...);
/// 0 for integers.
double unitRoundoff(DType dtype);

/// The unit in the last place of `dtype` at |value| (the spacing of the
/// values of its binade; the subnormals' below the normal range); 0 for
/// integers.
double unitInLastPlace(DType dtype, double value);

} // namespace nautilus::rt

#endif
