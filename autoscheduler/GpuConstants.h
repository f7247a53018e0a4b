//===- GpuConstants.h - What the GPU models share -------------*- C++ -*-===//
//
// The constants every GPU model of the auto-scheduler uses (contractions,
// element-wise programs and reductions, flash kernels), stated once:
// docs/autoscheduler.md gives their sources.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_GPUCONSTANTS_H
#define NAUTILUS_AUTOSCHEDULER_GPUCONSTANTS_H

#include <cstdint>

namespace nautilus::autosched {

/// The latency of a kernel launch, microseconds.
inline constexpr double kLaunchUs = 3.0;
/// A DRAM round trip under load, cycles: what a copy issued for a later
/// stage takes to land, what a wave's first loads wait, and what Little's
/// law divides the bytes in flight by.
inline constexpr double kDramLatencyCycles = 1000;
/// The share of the tensor cores' peak a main loop reaches at best: wgmma
/// fed by TMA, and mma.sync fed by ldmatrix, whose issue competes with the
/// copies and the address arithmetic.
inline constexpr double kWgmmaEfficiency = 0.85;
inline constexpr double kMmaSyncEfficiency = 0.70;
/// Cycles a K step costs besides its products: the wait for its stage,
/// the barrier that releases it, the first fragment loads' latency
/// (mma.sync); the mbarrier wait and the issue (wgmma).
inline constexpr double kMmaSyncStepOverhead = 150;
inline constexpr double kWgmmaStepOverhead = 80;
/// Bytes a cycle one multiprocessor moves to and from L2 at most (A100's
/// L2 serves 5,120 bytes a cycle to 108 SMs, 47 each; a multiprocessor's
/// requests reach about 64).
inline constexpr double kMultiprocessorL2BytesPerCycle = 64;
/// Warp schedulers a multiprocessor has (its four sub-partitions), each
/// issuing a warp instruction a cycle.
inline constexpr double kWarpSchedulers = 4;
/// Blocks a multiprocessor holds at most (sm_80, sm_90; a CU's 32 waves).
inline constexpr int64_t kMaxBlocksPerMultiprocessor = 32;

} // namespace nautilus::autosched

#endif
