//===- GpuTerms.h - The GPU models' terms, kept for a refit -----*- C++ -*-===//
//
// Every GPU model (CostModel.h: contractions on tensor cores; FlashSpace.h:
// flash kernels; GpuSpace.h: element-wise programs and reductions)
// predicts a program's time as a sum over its waves of the longest of the
// wave's compute, its DRAM traffic and (GpuSpace's) a round trip, plus
// what adds to a wave (a reduction's groups combining) and to the whole
// (the launch, pipeline fills, the last stores, a split's summing
// program). GpuTerms keep those parts unscaled, so that a refit to one
// GPU's measurements (GpuRefit.h) can weigh them anew without the
// program. Under scales s a program takes
//
//   sum over waves w of count_w * (max(s.compute * compute_w,
//                                      s.memory * memory_w,
//                                      s.latency * floor_w)
//                                  + s.latency * added_w)
//   + s.latency * fixed,
//
// which with every scale 1 is the model's own prediction. The models
// apply TargetInfo::gpuModelScales the same way as they predict.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_GPUTERMS_H
#define NAUTILUS_AUTOSCHEDULER_GPUTERMS_H

#include "compiler/Target/Target.h"

#include <cstdint>
#include <vector>

namespace nautilus::autosched {

/// One kind of wave (microseconds, unscaled) and how many of it a program
/// takes.
struct GpuWaveTerms {
  int64_t count = 1;
  double computeUs = 0;
  double memoryUs = 0;
  double floorUs = 0; // the least a wave lasts (a round trip)
  double addedUs = 0; // after the longest of the others (groups combining)

  bool sameTermsAs(const GpuWaveTerms &o) const {
    return computeUs == o.computeUs && memoryUs == o.memoryUs &&
           floorUs == o.floorUs && addedUs == o.addedUs;
  }
};

struct GpuTerms {
  std::vector<GpuWaveTerms> waves;
  double fixedUs = 0; // latencies and split sums, once a program

  /// Adds `count` waves of `wave`'s terms (to the last kind where equal).
  void addWaves(GpuWaveTerms wave) {
    if (!waves.empty() && waves.back().sameTermsAs(wave))
      waves.back().count += wave.count;
    else
      waves.push_back(wave);
  }
};

/// A wave's time under `scales`.
inline double scaledWaveUs(const GpuWaveTerms &w, const GpuModelScales &s) {
  double longest = s.compute * w.computeUs;
  if (double memory = s.memory * w.memoryUs; memory > longest)
    longest = memory;
  if (double floor = s.latency * w.floorUs; floor > longest)
    longest = floor;
  return longest + s.latency * w.addedUs;
}

/// A program's time under `scales` (the file comment's sum).
inline double scaledUs(const GpuTerms &t, const GpuModelScales &s) {
  double total = 0;
  for (const GpuWaveTerms &w : t.waves)
    total += double(w.count) * scaledWaveUs(w, s);
  return total + s.latency * t.fixedUs;
}

/// The bump that marks a change of the GPU models' terms: a refit uses
/// only the measurements whose terms the same models gave (GpuRefit.h).
/// 3: an element-wise program's or reduction's reads of one element
/// counted once (the pipeline's CSE now runs before the schedules are
/// chosen; they were counted at each use of an operand).
constexpr int64_t kGpuModelVersion = 3;

} // namespace nautilus::autosched

#endif
