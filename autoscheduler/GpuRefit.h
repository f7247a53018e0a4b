//===- GpuRefit.h - The GPU models refit to one GPU's measurements -*- C++
//-*-===//
//
// The GPU models' constants come from the parts' data sheets and the
// papers docs/autoscheduler.md cites; a GPU measured runs its kernels
// faster or slower than they say, term by term. `nautc tune --device
// cuda` measures whole kernels under the schedules it tries; each
// measurement, with the models' terms (GpuTerms.h) for each program under
// those schedules, is a sample. A refit finds the scales of the three
// terms (a wave's compute, its DRAM traffic, the latencies) that best
// predict one GPU's samples (ScaleFit.h's least squares of the log
// error), and `--schedule auto --db --refit` ranks with them, as the CPU
// refit does (CpuRefit.h). bench/gpu/tuning.py fits the contraction
// model's compute and memory to its own measurements in the same way.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_GPUREFIT_H
#define NAUTILUS_AUTOSCHEDULER_GPUREFIT_H

#include "autoscheduler/GpuTerms.h"
#include "autoscheduler/ScaleFit.h"

#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// One measured kernel: its time and each of its programs' terms
/// (unscaled) under the schedules it ran with.
struct GpuSample {
  double measuredUs = 0;
  std::vector<GpuTerms> programs;
};

/// The kernel's time the models predict for `programs` under `scales`:
/// the sum of their scaledUs.
double predictedUs(const std::vector<GpuTerms> &programs,
                   const GpuModelScales &scales);

using GpuRefit = ModelRefit<GpuModelScales>;

/// "compute x1.25, memory x1.60, latency x1.00 (root-mean-square log
/// error 0.40 unscaled, 0.10 refit)".
std::string describe(const GpuRefit &refit);

/// The scales that best predict `samples`; std::nullopt with fewer than
/// kMinRefitSamples usable samples (a time and a prediction above zero).
std::optional<GpuRefit> refitGpuModel(const std::vector<GpuSample> &samples);

} // namespace nautilus::autosched

#endif
