//===- FlashSpace.cpp - A flash kernel's schedules and their model --------===//
#include "autoscheduler/FlashSpace.h"
#include "autoscheduler/GpuConstants.h"
#include "autoscheduler/WarpAccess.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// f32 operations a score costs besides its exp (the scale, the running
/// maximum, the subtraction, the row sum, P's conversion, a mask's compare
/// and select), and a row's repair of O a block (its rescale).
constexpr double kSoftmaxOperations = 8;
/// Registers a thread needs besides its accumulators and fragments (its
/// indices, addresses, statistics; fitted so that the estimate of the
/// sm_90 d128 kernel is ptxas's 137).
constexpr int64_t kBaseRegisters = 44;
/// The stages the space tries: FlashAttention-2's two, and a third that
/// covers the round trip over two steps (short steps: few rows, small
/// blocks) for a third more shared memory.
constexpr int64_t kStageChoices[] = {2, 3};
/// Queries from which a tile holds one head (the heuristics' flash rows).
constexpr int64_t kManyQueries = 64;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Shared memory a program's stages take: a K and a V block each (and Q's
/// rows under wgmma, which reads its A operand from shared memory).
int64_t sharedBytesOf(const FlashProblem &p, const FlashCandidate &c) {
  int64_t stages = c.stages * 2 * c.keyBlock * p.headDim * p.operandBytes;
  return stages + (c.wgmma ? c.rows() * p.headDim * p.operandBytes : 0);
}

/// A thread's registers: O's f32 accumulators, S's, and (mma.sync) Q's
/// fragments, packed two 16-bit elements a register.
int64_t registersOf(const FlashProblem &p, const FlashCandidate &c) {
  int64_t threads = c.threads();
  int64_t accumulators = c.rows() * (p.headDim + c.keyBlock) / threads;
  int64_t query =
      c.wgmma ? 0 : c.rows() * p.headDim * p.operandBytes / 4 / threads;
  return kBaseRegisters + accumulators + query;
}

int64_t blocksPerMultiprocessor(const FlashProblem &p, const FlashCandidate &c,
                                const TargetInfo &target) {
  int64_t byShared = target.sharedBytesPerMultiprocessor /
                     std::max<int64_t>(1, sharedBytesOf(p, c));
  int64_t byThreads = target.maxThreadsPerMultiprocessor / c.threads();
  int64_t byRegisters =
      target.registerFile /
      (std::min(registersOf(p, c), target.maxRegistersPerThread) * c.threads());
  return std::max<int64_t>(1, std::min({byShared, byThreads, byRegisters,
                                        kMaxBlocksPerMultiprocessor}));
}

/// The cycles in which `resident` programs sharing a multiprocessor each
/// take one key block; `tensor` and `softmax` receive the multiprocessor's
/// time on the programs' contractions and softmax in that step.
double stepCycles(const FlashProblem &p, const FlashCandidate &c,
                  const TargetInfo &target, int64_t resident, double &tensor,
                  double &softmax) {
  double rows = c.rows(), block = c.keyBlock, dim = p.headDim;
  double efficiency = c.wgmma ? kWgmmaEfficiency : kMmaSyncEfficiency;
  // S = Q K^T and O += P V: 2 rows x block x D multiply-adds each.
  double contractions =
      4 * rows * block * dim / (target.tensorFlopsPerCycle * efficiency);
  // Each warp (mma.sync) or warpgroup (wgmma) reads the K and V blocks;
  // mma.sync's ldmatrix reads take the wavefronts the banks serve them in
  // (K with D innermost, V read with .trans), wgmma's are the hardware's
  // in the swizzle mode the stages are written in.
  double readers = c.wgmma ? c.warps / 4.0 : double(c.warps);
  double excess = 2;
  if (!c.wgmma)
    excess = ldmatrixWavefronts(c.keyBlock, p.headDim, c.swizzleBytes,
                                /*kInnermost=*/true, /*isLhs=*/false)
                 .excess() +
             ldmatrixWavefronts(c.keyBlock, p.headDim, c.swizzleBytes,
                                /*kInnermost=*/false, /*isLhs=*/false)
                 .excess();
  double shared = readers * excess * block * dim * p.operandBytes /
                  target.sharedBytesPerCycle;
  double specials = rows * block / target.specialFunctionsPerCycle;
  double lanes = (rows * block * kSoftmaxOperations + rows * dim) /
                 target.simtLanesPerCycle;
  double scores = specials + lanes;
  double fromL2 =
      2 * block * dim * p.operandBytes / kMultiprocessorL2BytesPerCycle;
  // The multiprocessor's units, shared by the resident programs.
  double throughput =
      resident * std::max({contractions, shared, specials, lanes, fromL2});
  // A warp runs its step's contractions and its softmax in turn, on its
  // scheduler's quarter of the units: a program of fewer warps than
  // schedulers (a decoding step's one warp) does its step's work on their
  // share alone (measured on an H200: one warp's step of 16 rows x 64 keys
  // at d128 took about 2,000 cycles, which the whole multiprocessor's rate
  // put at 550), and as many such programs as fit the schedulers side by
  // side run at once. The step's overhead is latency, not work: it is not
  // scaled.
  double share = std::max(1.0, kWarpSchedulers / c.warps);
  double sideBySide = std::max(1.0, std::floor(kWarpSchedulers / c.warps));
  double rounds = std::ceil(resident / sideBySide);
  double inTurn = (std::max(contractions, shared) + scores) * share +
                  (c.wgmma ? kWgmmaStepOverhead : kMmaSyncStepOverhead);
  // Warps do not overlap one's softmax with another's contractions: on
  // an H200 the d128 prefill kernel (two warpgroups, 128 rows) took 2,240
  // cycles a step, its in-turn time 2,440 without overlap and 1,220 with
  // it (the model that assumed it was 1.8x fast), and two resident
  // programs of 64 rows were no faster than one of 128 (1,276 against
  // 1,252 us). A program's warps run their steps in lockstep (a barrier a
  // step); a ping-pong schedule would arrange the overlap, and the space
  // holds none yet.
  double serial = rounds * inTurn;
  double covered = kDramLatencyCycles / double(c.stages - 1);
  tensor = rounds * share * std::max(contractions, shared);
  softmax = rounds * share * scores;
  return std::max({throughput, serial, covered});
}

} // namespace

std::string FlashCandidate::describe() const {
  std::ostringstream os;
  os << (wgmma ? "wgmma " : "mma_sync ") << rows() << " rows";
  if (heads > 1)
    os << " (" << heads << " heads)";
  os << ", keys " << keyBlock;
  if (stages != 2)
    os << ", " << stages << " stages";
  if (split > 1)
    os << ", split " << split;
  if (swizzleBytes != 128)
    os << ", swizzle " << swizzleBytes;
  return os.str();
}

bool FlashCandidate::operator==(const FlashCandidate &other) const {
  return wgmma == other.wgmma && warps == other.warps &&
         keyBlock == other.keyBlock && stages == other.stages &&
         split == other.split && heads == other.heads &&
         swizzleBytes == other.swizzleBytes;
}

FlashCost autosched::estimateFlash(const FlashProblem &p,
                                   const FlashCandidate &c,
                                   const TargetInfo &target) {
  FlashCost cost;
  cost.registers = registersOf(p, c);
  cost.sharedBytes = sharedBytesOf(p, c);
  cost.blocksPerMultiprocessor = blocksPerMultiprocessor(p, c, target);
  // A tile of several heads loads each K and V block once for them.
  int64_t queryTiles = ceilDiv(p.queries, c.rowsPerHead());
  cost.programs = ceilDiv(p.heads, c.heads) * queryTiles * c.split;
  int64_t slots = target.multiprocessors * cost.blocksPerMultiprocessor;
  cost.waves = ceilDiv(cost.programs, slots);
  int64_t steps = ceilDiv(ceilDiv(p.keys, c.split), c.keyBlock);
  double cyclesPerUs = target.clockGHz * 1e3;
  double bytesPerUs = target.dramBytesPerSecond / 1e6;
  const GpuModelScales &scales = target.gpuModelScales;
  // Every wave but the last is full and costs the same: it is predicted
  // once and counted for each (a program over unbound sizes is predicted at
  // samples of millions of waves).
  auto addWaves = [&](int64_t count, int64_t programs) {
    int64_t resident = std::min(cost.blocksPerMultiprocessor,
                                ceilDiv(programs, target.multiprocessors));
    double tensor = 0, softmax = 0;
    double step = stepCycles(p, c, target, resident, tensor, softmax);
    double compute = steps * step / cyclesPerUs;
    // Q read and O written a program; K and V once for each head (and
    // chunk) the wave covers: its other query tiles find them in L2.
    double heads = std::max(1.0, double(programs) / queryTiles);
    double bytes =
        double(programs) * c.rows() * p.headDim *
            (p.operandBytes + p.outputBytes) +
        heads * 2.0 * ceilDiv(p.keys, c.split) * p.headDim * p.operandBytes;
    // At the DRAM's bandwidth, or what the busy multiprocessors' ports to
    // L2 carry (a decoding step's few programs).
    double busy = std::min<double>(programs, target.multiprocessors);
    double memory =
        bytes / std::min(bytesPerUs,
                         busy * kMultiprocessorL2BytesPerCycle * cyclesPerUs);
    // (Each term under the refit's scale: GpuTerms.h.)
    cost.terms.addWaves({count, compute, memory});
    cost.tensorUs += count * scales.compute * steps * tensor / cyclesPerUs;
    cost.softmaxUs += count * scales.compute * steps * softmax / cyclesPerUs;
    cost.memoryUs += count * scales.memory * memory;
    cost.totalUs +=
        count * std::max(scales.compute * compute, scales.memory * memory);
  };
  if (cost.waves > 1)
    addWaves(cost.waves - 1, slots);
  if (cost.waves > 0)
    addWaves(1, cost.programs - (cost.waves - 1) * slots);
  double latency = kLaunchUs + cost.waves * kDramLatencyCycles / cyclesPerUs;
  double splitSum = 0;
  if (c.split > 1) {
    // The combining program reads each chunk's O (f32) and statistics.
    double bytes = double(p.heads) * p.queries * c.split * (p.headDim + 2) * 4;
    splitSum =
        kLaunchUs + kDramLatencyCycles / cyclesPerUs + bytes / bytesPerUs;
  }
  cost.terms.fixedUs = latency + splitSum;
  cost.latencyUs = scales.latency * latency;
  cost.splitSumUs = scales.latency * splitSum;
  cost.totalUs += cost.latencyUs + cost.splitSumUs;
  return cost;
}

std::vector<FlashCandidate> autosched::flashSpace(const FlashProblem &p,
                                                  const TargetInfo &target) {
  std::vector<FlashCandidate> space;
  if (!target.hasMmaSync())
    return space;
  auto add = [&](bool wgmma, int64_t warps, int64_t block, int64_t heads) {
    for (int64_t stages : kStageChoices)
      for (int64_t split : p.splits) {
        if (split > 1 && ceilDiv(p.keys, split) < block)
          continue;
        FlashCandidate c{wgmma, warps, block, stages, split, heads};
        // (The lowering budgets mma.sync's stages to an A100's block on
        // either target.)
        int64_t sharedLimit =
            wgmma ? target.maxSharedBytes
                  : std::min(target.maxSharedBytes, kSm80SharedLimit);
        if (sharedBytesOf(p, c) > sharedLimit ||
            registersOf(p, c) > target.maxRegistersPerThread)
          continue;
        space.push_back(c);
      }
  };
  if (p.wgmmaAllowed)
    for (int64_t warps : {8, 4})
      add(/*wgmma=*/true, warps, 64, /*heads=*/1);
  // Several heads a tile where the queries are few: each head's rows the
  // queries rounded up to a power of two (more only to fill 16 rows).
  auto headRows = static_cast<int64_t>(
      llvm::PowerOf2Ceil(static_cast<uint64_t>(p.queries)));
  auto heads = [&](int64_t rows) {
    std::vector<int64_t> counts{1};
    if (p.queries >= kManyQueries)
      return counts;
    for (int64_t h = 2; h <= p.maxHeadsPerTile && h <= rows; h *= 2)
      if (rows / h == headRows || (rows == 16 && rows / h > headRows))
        counts.push_back(h);
    return counts;
  };
  for (int64_t warps : {4, 8, 2, 1})
    for (int64_t block : {64, 128, 32})
      if (16 * warps <= block)
        for (int64_t h : heads(16 * warps))
          add(/*wgmma=*/false, warps, block, h);
  return space;
}

std::vector<RankedFlashCandidate>
autosched::rankFlashSchedules(const FlashProblem &p, const TargetInfo &target,
                              size_t keep, size_t *spaceSize,
                              const SearchOptions &options, size_t *predicted) {
  std::vector<FlashCandidate> space = flashSpace(p, target);
  if (spaceSize)
    *spaceSize = space.size();
  std::vector<std::vector<int64_t>> parameters;
  for (const FlashCandidate &c : space)
    parameters.push_back({c.wgmma, c.warps, c.keyBlock, c.stages, c.split,
                          c.heads, c.swizzleBytes});
  std::vector<FlashCost> costs(space.size());
  auto predict = [&](size_t i) {
    costs[i] = estimateFlash(p, space[i], target);
    return double(std::llround(costs[i].totalUs * 100));
  };
  // Predictions equal to 10 ns are ties, which go to the first enumerated.
  auto before = [](size_t a, size_t b) { return a < b; };
  SpaceSearchOutcome outcome = searchSpace(
      ParameterSpace(std::move(parameters)), predict, before, options, keep);
  if (predicted)
    *predicted = outcome.predicted;
  std::vector<RankedFlashCandidate> ranked;
  for (size_t i : outcome.ranked)
    ranked.push_back({space[i], costs[i]});
  return ranked;
}
