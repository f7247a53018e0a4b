//===- CostModel.cpp - An analytic model of a contraction's time ----------===//
#include "autoscheduler/CostModel.h"
#include "autoscheduler/GpuConstants.h"
#include "autoscheduler/WarpAccess.h"

#include <algorithm>
#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// Filling a pipeline's first stage from DRAM (a global load's round
/// trip and the first tile's copy), microseconds.
constexpr double kPipelineFillUs = 1.0;
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Blocks of `c` a multiprocessor holds at once; a persistent wgmma
/// program takes a multiprocessor by design.
int64_t blocksPerMultiprocessor(const ContractionCandidate &c,
                                const ContractionProblem &problem,
                                const TargetInfo &target) {
  if (c.wgmma && c.producer)
    return 1;
  int64_t bySharedMemory =
      target.sharedBytesPerMultiprocessor / std::max<int64_t>(1, c.sharedBytes(problem));
  int64_t byThreads = target.maxThreadsPerMultiprocessor / c.threads();
  int64_t registersPerThread = std::min<int64_t>(
      target.maxRegistersPerThread,
      c.accumulatorsPerThread(problem) + 96); // the lowering's estimate
  int64_t byRegisters =
      target.registerFile / (c.threads() * registersPerThread);
  return std::max<int64_t>(
      1, std::min({bySharedMemory, byThreads, byRegisters}));
}

/// Cycles one K step (tile_k) of one program takes on a multiprocessor
/// shared by `resident` programs: its tensor-core work, or the shared
/// memory reads that feed it, whichever is longer.
double stepCycles(const ContractionCandidate &c,
                  const ContractionProblem &problem, const TargetInfo &target,
                  int64_t resident) {
  double flops = 2.0 * c.tileM * c.tileN * c.tileK * problem.siblings;
  double efficiency = c.wgmma ? kWgmmaEfficiency : kMmaSyncEfficiency;
  double compute =
      flops / (target.tensorFlopsPerCycle * efficiency) * resident;
  // Shared memory: each warp (mma.sync) or warpgroup (wgmma) reads its rows
  // of A and its columns of B (of each sibling's B) once a step.
  double readers = c.wgmma ? c.warpsM / 4.0 : double(c.warpsM * c.warpsN);
  double rowsA = double(c.tileM) / (c.wgmma ? c.warpsM / 4.0 : c.warpsM);
  double colsB = double(c.tileN) / (c.wgmma ? 1 : c.warpsN);
  // mma.sync's ldmatrix reads of the swizzled stages (A with K innermost,
  // B [K, N]) take the wavefronts the banks serve them in; wgmma reads
  // through descriptors of the swizzle mode the stages are written in,
  // which the hardware serves without conflicts.
  double excessA = 1, excessB = 1;
  if (!c.wgmma) {
    excessA = ldmatrixWavefronts(c.tileM, c.tileK, c.swizzleBytes,
                                 /*kInnermost=*/true, /*isLhs=*/true)
                  .excess();
    excessB = ldmatrixWavefronts(c.tileK, c.tileN, c.swizzleBytes,
                                 /*kInnermost=*/false, /*isLhs=*/false)
                  .excess();
  }
  double bytes = readers *
                 (rowsA * excessA + problem.siblings * colsB * excessB) *
                 c.tileK * problem.operandBytes;
  double shared = bytes / target.sharedBytesPerCycle * resident;
  // The copy of a stage is issued `stages - 1` steps ahead: steps shorter
  // than the copy's latency over those wait for it.
  double work = std::max(compute, shared) +
                (c.wgmma ? kWgmmaStepOverhead : kMmaSyncStepOverhead);
  double covered = kDramLatencyCycles / double(c.stages - 1);
  return std::max(work, covered);
}

/// DRAM bytes one wave of `slots` programs moves: the rows of A and the
/// columns of B its rasterised block of tiles covers (L2 keeps what
/// several of its programs read; each sibling's B), over the wave's K
/// chunk, and its outputs. The walk takes group_m rows of tiles across every
/// column before the next group: a wave within a group covers group_m rows and
/// slots / group_m columns, a wider one whole bands of every column, and
/// one wider than a matrix's grid covers several matrices (or K chunks of
/// a split), each with operands of its own.
double waveBytes(const ContractionCandidate &c,
                 const ContractionProblem &problem, int64_t slots,
                 int64_t kChunk) {
  int64_t tilesM = problem.busyTilesM(c.tileM);
  int64_t tilesN = ceilDiv(problem.n, c.tileN);
  int64_t matrices =
      std::min(ceilDiv(slots, tilesM * tilesN), problem.batch * c.splitK);
  int64_t perMatrix = std::min(slots, tilesM * tilesN);
  int64_t group = std::min(c.groupM, tilesM);
  int64_t groupCols = std::min(tilesN, ceilDiv(perMatrix, group));
  int64_t groupRows =
      std::min(tilesM, std::max(group, ceilDiv(perMatrix, tilesN)));
  // A grouped GEMM's band of rows reads the B of every group it spans.
  double spanned = problem.groupsSpanned(groupRows * c.tileM, c.tileM);
  double operands = double(matrices) *
                    (double(groupRows * c.tileM) +
                     spanned * double(problem.siblings * groupCols * c.tileN)) *
                    kChunk * problem.operandBytes;
  double outputs = double(slots) * c.tileM * c.tileN *
                   (c.splitK > 1 ? 4 : problem.outputBytes);
  return operands + outputs;
}

} // namespace

CostBreakdown autosched::estimate(const ContractionProblem &problem,
                                  const ContractionCandidate &c,
                                  const TargetInfo &target) {
  CostBreakdown cost;
  int64_t k = problem.k.value_or(kUnboundK);
  int64_t kChunk = ceilDiv(ceilDiv(k, c.splitK), c.tileK) * c.tileK;
  // (A grouped GEMM's programs past its last group's rows end at once:
  // not counted.)
  cost.programs = problem.busyTilesM(c.tileM) * ceilDiv(problem.n, c.tileN) *
                  problem.batch * c.splitK;
  cost.blocksPerMultiprocessor = blocksPerMultiprocessor(c, problem, target);
  int64_t slots = target.multiprocessors * cost.blocksPerMultiprocessor;
  cost.waves = ceilDiv(cost.programs, slots);
  int64_t last = cost.programs - (cost.waves - 1) * slots;
  cost.lastWaveFill = double(last) / double(slots);
  double cyclesPerUs = target.clockGHz * 1e3;
  int64_t resident =
      std::min(cost.blocksPerMultiprocessor, ceilDiv(cost.programs,
                                                     target.multiprocessors));
  double waveCompute =
      stepCycles(c, problem, target, resident) * (kChunk / c.tileK) /
      cyclesPerUs;
  double fullWaveBytes = waveBytes(c, problem, slots, kChunk);
  double lastWaveBytes = waveBytes(c, problem, last, kChunk);
  double bytesPerUs = target.dramBytesPerSecond / 1e6;
  // Each wave overlaps its copies with its products (the pipeline): the
  // longer of the two, the shorter hidden.
  // (Each term under the refit's scale: GpuTerms.h.)
  const GpuModelScales &scales = target.gpuModelScales;
  for (int64_t w = 0; w < cost.waves; ++w) {
    double bytes = w + 1 == cost.waves ? lastWaveBytes : fullWaveBytes;
    double memory = bytes / bytesPerUs;
    cost.terms.addWaves({1, waveCompute, memory});
    cost.computeUs += scales.compute * waveCompute;
    cost.memoryUs += scales.memory * memory;
    cost.totalUs +=
        std::max(scales.compute * waveCompute, scales.memory * memory);
  }
  double latency = kLaunchUs + kPipelineFillUs * cost.waves, splitSum = 0;
  if (c.splitK > 1) {
    // The summing program reads the f32 partials and writes the output.
    double bytes = double(problem.m) * problem.n * problem.batch *
                   (4.0 * c.splitK + problem.outputBytes);
    splitSum = kLaunchUs + bytes / bytesPerUs;
  }
  cost.terms.fixedUs = latency + splitSum;
  cost.latencyUs = scales.latency * latency;
  cost.splitSumUs = scales.latency * splitSum;
  cost.totalUs += cost.latencyUs + cost.splitSumUs;
  return cost;
}
