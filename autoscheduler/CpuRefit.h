//===- CpuRefit.h - The CPU model refit to a host's measurements -*- C++
//-*-===//
//
// The CPU model's rates were fitted on the machines this project ran on
// (docs/autoscheduler.md, "The CPU"). `nautc tune` measures whole kernels
// under the schedules it tries; each measurement, with the model's terms
// for each program under those schedules, is a sample. A refit finds the
// scales of the model's four terms (CpuSpace.h: an instance's time is
// max(compute, memory) + overhead + packing) that best predict a host's
// samples: the least squares of log(predicted / measured), every kernel
// the sum of its programs' times, with a weak pull of each scale towards
// 1 (so that a term the samples do not exercise keeps its documented
// value): ScaleFit.h's search, which the GPU models' refit shares
// (GpuRefit.h).
//
// The scales change the ranking where the measurements say a term is
// off: a host that copies panels faster than the model thinks makes
// packing cheaper, one whose memory is slower makes memory-bound tiles
// dearer. They cannot mend a term's shape (how it grows with the tile).
// Measured (bench/README.md, "The refit column"), four scales for every
// kind of program have not yet ranked held-out kernels better than the
// unscaled model, so ranking with them is opt-in (`--refit`).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CPUREFIT_H
#define NAUTILUS_AUTOSCHEDULER_CPUREFIT_H

#include "autoscheduler/CpuSpace.h"
#include "autoscheduler/ScaleFit.h"

#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// One measured kernel: its time and each of its programs' terms
/// (CpuSpace.h's, unscaled) under the schedules it ran with.
struct CpuSample {
  double measuredUs = 0;
  std::vector<CpuTerms> programs;
};

/// The kernel's time the model predicts for `programs` under `scales`:
/// the sum of their scaledUs.
double predictedUs(const std::vector<CpuTerms> &programs,
                   const CpuTermScales &scales);

using CpuRefit = ModelRefit<CpuTermScales>;

/// "compute x2.00, memory x1.00, overhead x1.00, packing x1.00
/// (root-mean-square log error 0.65 unscaled, 0.00 refit)".
std::string describe(const CpuRefit &refit);

/// The scales that best predict `samples` (see the file comment);
/// std::nullopt with fewer than kMinRefitSamples usable samples (a time
/// and a prediction above zero).
std::optional<CpuRefit> refitCpuModel(const std::vector<CpuSample> &samples);

} // namespace nautilus::autosched

#endif
