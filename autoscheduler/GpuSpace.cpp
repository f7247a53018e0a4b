//===- GpuSpace.cpp - GPU programs without tensor cores, and their model --===//
#include "autoscheduler/GpuSpace.h"
#include "autoscheduler/GpuConstants.h"
#include "autoscheduler/WarpAccess.h"
#include "dialects/Tile/Utils/HeldRows.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// The bytes of a sector, the unit a load moves between L1 and L2.
constexpr int64_t kSectorBytes = 32;
/// Cycles of a shuffle step of the groups' combination, and of the step
/// through shared memory (a store, a barrier, a load) beyond a warp.
constexpr double kShuffleCycles = 30;
constexpr double kSharedStepCycles = 100;
/// Instructions a reduction's loop iteration costs besides its loads and
/// operations (the index, the compare, the branch).
constexpr int64_t kLoopInstructions = 3;
/// What a program instance costs besides its work: warp instructions a
/// thread runs before its first load (its indices, the addresses), and
/// cycles of its multiprocessor to dispatch it and retire it.
constexpr double kPrologueInstructions = 16;
constexpr double kProgramCycles = 32;
/// Registers a thread needs besides its tile's values (indices, pointers,
/// the loop).
constexpr int64_t kBaseRegisters = 24;
/// The space's bounds: tile elements (outputs) a program, and elements a
/// thread holds. (A program has at least a warp of threads: the hardware
/// runs no fewer.)
constexpr int64_t kMaxTileElements = 4096;
/// The loads a shared reduction's thread keeps in flight a step, as copies
/// of its loop body (the GPU lowering's kSharedReductionCopies).
constexpr int64_t kSharedReductionCopies = 4;
constexpr int64_t kMaxElementsPerThread = 32;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// `n` rounded up to a power of two.
int64_t powerOf2Ceil(int64_t n) {
  return static_cast<int64_t>(llvm::PowerOf2Ceil(static_cast<uint64_t>(n)));
}

bool isReduction(const GpuProgram &p) {
  return p.kind != GpuProgramKind::Elementwise;
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t n = 1;
  for (int64_t x : v)
    n *= x;
  return n;
}

/// The points of its rows a thread of `c` keeps in registers for the
/// sweep (dialects/Tile/Utils/HeldRows.h); 0 where it keeps none.
int64_t keptRowPoints(const GpuProgram &p, const GpuCandidate &c,
                      const TargetInfo &target) {
  if (!p.sweep || p.kind != GpuProgramKind::RowReduction || !p.reducedBound)
    return 0;
  int64_t elements = product(c.tile) / (c.threads / c.reduceThreads);
  tile::GroupSplitShape shape = tile::sweepSplitShape(
      c.reduceThreads, c.reduceThreads > 1 ? c.vector : 1, elements);
  if (!tile::holdsRows(p.reduced, shape, elements, c.split,
                       p.sweep->keptBytesPerPoint, c.threads,
                       target.registerFile))
    return 0;
  return tile::heldRowPoints(p.reduced, shape, elements);
}

/// What one program instance of `c` does, per thread and in all.
struct ProgramWork {
  int64_t groups = 1;        // threads / reduce_threads
  int64_t heldPerThread = 1; // tile elements a thread holds
  int64_t iterations = 1;    // a thread's reduction steps (1: none)
  double loads = 0;          // load instructions a thread
  double instructions = 0;   // every instruction a thread
  double lanes = 0;          // f32 operations a thread
  double specials = 0;       // special functions a thread
  double bytesInFlight = 0;  // a thread's loads outstanding at once
  /// 32-byte sectors a warp's load touches (filled by estimateGpu only:
  /// the space's pruning needs no layouts).
  double sectorsPerWarpLoad = 0;
  int64_t registers = 0;
  int64_t keptPoints = 0; // of its rows, for a sweep (keptRowPoints)
};

/// The tensor a program's loads read, as its distribution addresses it: an
/// element-wise program's outputs, a row reduction's [outputs.., reduced],
/// a column reduction's [reduced, outputs..] (row-major, of the narrowest
/// element).
StridedTensor loadedTensor(const GpuProgram &p, const GpuCandidate &c) {
  std::vector<int64_t> extents = p.extents;
  if (p.kind == GpuProgramKind::RowReduction)
    extents.push_back(p.reduced);
  if (p.kind == GpuProgramKind::ColumnReduction)
    extents.insert(extents.begin(), p.reduced);
  StridedTensor t = StridedTensor::rowMajor(std::move(extents), p.elementBytes);
  // A shared reduction's loads run ahead in copies where a thread holds
  // fewer outputs than the lowering's copies a step (4, Reductions.cpp), or
  // in runs; those are clamped: a lane of a row past the output's edge
  // reads the first element (along the reduced index the loop's bound
  // stops it). Others are guarded: such a lane loads nothing.
  int64_t held = product(c.tile) / (c.threads / c.reduceThreads);
  if (isReduction(p) && c.reduceThreads > 1 &&
      (held < kSharedReductionCopies || c.vector > 1)) {
    t.clampedDims.assign(t.extents.size(), true);
    t.clampedDims[p.kind == GpuProgramKind::RowReduction ? t.extents.size() - 1
                                                         : 0] = false;
  }
  return t;
}

ProgramWork programWork(const GpuProgram &p, const GpuCandidate &c,
                        const TargetInfo &target) {
  ProgramWork w;
  w.groups = c.threads / c.reduceThreads;
  w.heldPerThread = std::max<int64_t>(1, product(c.tile) / w.groups);
  double bytesPerPoint = p.uniqueBytesPerPoint + p.sharedBytesPerPoint;
  if (isReduction(p)) {
    // Runs are of a shared row's iterations (with groups; without, a
    // schedule's `vector` is of the tile, which a reduction reads once).
    int64_t run = c.reduceThreads > 1 ? c.vector : 1;
    // A split's chunks are whole runs (reductionChunks).
    int64_t chunk = llvm::alignTo(ceilDiv(p.reduced, c.split), run);
    w.iterations = ceilDiv(chunk, c.reduceThreads * run);
    double perIteration = w.heldPerThread * p.loadsPerPoint;
    w.loads = w.iterations * perIteration;
    // (The SIMT lanes have no f32 vectors: a run's elements are an
    // operation each.)
    w.lanes =
        static_cast<double>(w.iterations) * w.heldPerThread * run * p.work;
    w.specials = static_cast<double>(w.iterations) * w.heldPerThread * run *
                 p.specialFunctions;
    // Rows kept in registers: the reduction and the sweep are unrolled (no
    // loop), the sweep does not load the kept points again, and every
    // point's loads are in flight at once.
    int64_t kept = w.keptPoints = keptRowPoints(p, c, target);
    double loops = kept ? 0 : w.iterations * kLoopInstructions;
    w.instructions = w.loads + w.lanes + w.specials + loops + w.heldPerThread;
    if (p.sweep) {
      // The sweep visits the reduction's points again, in the same split:
      // its loads, work and a store a point.
      double points = static_cast<double>(w.iterations) * w.heldPerThread;
      double sweepLoads = points * (p.sweep->loadsPerPoint -
                                    (kept ? p.sweep->keptLoadsPerPoint : 0));
      double lanes = points * run * p.sweep->work;
      double specials = points * run * p.sweep->specialFunctions;
      w.loads += sweepLoads;
      w.lanes += lanes;
      w.specials += specials;
      w.instructions += sweepLoads + lanes + specials + points + loops;
    }
    // The loop carries the accumulators: one iteration's loads in flight.
    w.bytesInFlight = std::max<double>(w.heldPerThread * run * bytesPerPoint,
                                       kept * bytesPerPoint);
    // (A kept point: a 32-bit register a load the sweep reads again, two
    // for a 64-bit element.)
    w.registers = kBaseRegisters + 2 * w.heldPerThread +
                  run * p.loadsPerPoint * w.heldPerThread +
                  (kept ? ceilDiv(kept * p.sweep->keptBytesPerPoint, 4) : 0);
  } else {
    w.loads = static_cast<double>(w.heldPerThread) / c.vector * p.loadsPerPoint;
    w.lanes = static_cast<double>(w.heldPerThread) * p.work;
    w.specials = static_cast<double>(w.heldPerThread) * p.specialFunctions;
    w.instructions =
        w.loads + w.heldPerThread / c.vector + w.lanes + w.specials;
    // Straight-line code: every load issued before the first use.
    w.bytesInFlight = w.heldPerThread * bytesPerPoint;
    w.registers = kBaseRegisters + w.heldPerThread * (1 + p.loadsPerPoint);
  }
  return w;
}

/// Cycles the groups of a program take to combine their partial results:
/// shuffles among the threads of a group within a warp of `lanes` (the
/// lanes the kernels assume), then a step through shared memory for the
/// warps a group spans. Interleaved groups of a warp's width or more share
/// no warp: they combine through shared memory alone.
double combineCycles(const GpuCandidate &c, int64_t lanes) {
  if (c.reduceThreads <= 1)
    return 0;
  int64_t groups = c.threads / c.reduceThreads;
  int64_t inWarp =
      c.interleaved
          ? (groups >= lanes ? 1 : std::min(c.reduceThreads, lanes / groups))
          : std::min(c.reduceThreads, lanes);
  double cycles = llvm::Log2_64_Ceil(inWarp) * kShuffleCycles;
  if (c.reduceThreads > inWarp)
    cycles += kSharedStepCycles +
              llvm::Log2_64_Ceil(c.reduceThreads / inWarp) * kShuffleCycles;
  return cycles;
}

/// Cycles one wave of `programs` programs takes, each doing `w`, on
/// `target`.
struct WaveCycles {
  double memory = 0, cache = 0, compute = 0, combine = 0;
  /// A wave lasts at least a DRAM round trip (its programs wait for their
  /// loads; `latencyScale` the refit's), and its groups combine after
  /// their loops.
  double total(double latencyScale) const {
    return std::max(
               {memory, cache, compute, latencyScale * kDramLatencyCycles}) +
           combine;
  }
};

WaveCycles waveCycles(const GpuCandidate &c, const ProgramWork &w,
                      int64_t programs, double bytesPerProgram,
                      const TargetInfo &target) {
  WaveCycles cycles;
  double sms = static_cast<double>(target.multiprocessors);
  double perSm = std::ceil(programs / sms);
  double warps = static_cast<double>(c.threads) / target.warpSize;
  // DRAM: the wave's bytes at the bandwidth its threads keep in flight.
  double peakPerCycle = target.dramBytesPerSecond / (target.clockGHz * 1e9);
  double inFlight = programs * static_cast<double>(c.threads) * w.bytesInFlight;
  double busy = std::min(sms, static_cast<double>(programs));
  double bandwidth =
      std::min({peakPerCycle, busy * kMultiprocessorL2BytesPerCycle,
                inFlight / kDramLatencyCycles});
  cycles.memory = programs * bytesPerProgram / std::max(bandwidth, 1e-9);
  // L1: every sector a warp's loads touch, hit or miss.
  double sectors = perSm * warps * w.loads * w.sectorsPerWarpLoad;
  cycles.cache = sectors * kSectorBytes / target.sharedBytesPerCycle;
  // Issue, f32 lanes and special functions of the multiprocessor.
  double threads = perSm * c.threads;
  cycles.compute = std::max(
      {perSm *
           (warps * (w.instructions + kPrologueInstructions) / kWarpSchedulers +
            kProgramCycles),
       threads * w.lanes / std::max<int64_t>(1, target.simtLanesPerCycle),
       threads * w.specials /
           std::max<int64_t>(1, target.specialFunctionsPerCycle)});
  cycles.combine = combineCycles(c, target.kernelLanes);
  return cycles;
}

} // namespace

std::string GpuCandidate::describe() const {
  std::ostringstream os;
  os << "tile ";
  for (size_t i = 0; i < tile.size(); ++i)
    os << (i ? "x" : "") << tile[i];
  os << " threads " << threads;
  if (reduceThreads > 1)
    os << " groups of " << reduceThreads << (interleaved ? " interleaved" : "");
  if (vector > 1)
    os << " runs of " << vector;
  if (split > 1)
    os << " split " << split;
  return os.str();
}

bool GpuCandidate::operator==(const GpuCandidate &other) const {
  return tile == other.tile && threads == other.threads &&
         reduceThreads == other.reduceThreads && vector == other.vector &&
         split == other.split && interleaved == other.interleaved;
}

std::optional<layout::LinearLayout>
autosched::simtDistribution(const GpuProgram &p, const GpuCandidate &c) {
  // Where tile::ScheduleAttr::getDistribution has none, nor has this.
  int64_t groups = c.threads / std::max<int64_t>(1, c.reduceThreads);
  int64_t tileRun = c.reduceThreads > 1 ? 1 : c.vector;
  if (!layout::isPowerOfTwoShape(c.tile) || !llvm::isPowerOf2_64(groups) ||
      !llvm::isPowerOf2_64(c.reduceThreads) || !llvm::isPowerOf2_64(c.vector) ||
      product(c.tile) % (groups * tileRun) != 0)
    return std::nullopt;
  if (!isReduction(p))
    return layout::rowMajorBlockedLayout(c.tile, int32_t(c.threads),
                                         int32_t(c.vector));
  int64_t run = c.reduceThreads > 1 ? c.vector : 1;
  layout::LinearLayout blocked =
      layout::rowMajorBlockedLayout(c.tile, int32_t(groups), int32_t(tileRun));
  bool reducedFirst = p.kind == GpuProgramKind::ColumnReduction;
  auto withReduced = [&](std::vector<int32_t> tileCoords, int32_t reduced) {
    tileCoords.insert(reducedFirst ? tileCoords.begin() : tileCoords.end(),
                      reduced);
    return tileCoords;
  };
  std::vector<std::vector<int32_t>> groupBits(
      blocked.getInDimBases("lane").begin(),
      blocked.getInDimBases("lane").end());
  for (const auto &b : blocked.getInDimBases("warp"))
    groupBits.push_back(b);
  std::vector<std::vector<int32_t>> groupCoords, memberCoords, registers;
  std::vector<int32_t> noTile(c.tile.size(), 0);
  for (const auto &b : groupBits)
    groupCoords.push_back(withReduced(b, 0));
  for (int64_t bit = 1; bit < c.reduceThreads; bit *= 2)
    memberCoords.push_back(withReduced(noTile, int32_t(bit * run)));
  for (int64_t bit = 1; bit < run; bit *= 2)
    registers.push_back(withReduced(noTile, int32_t(bit)));
  for (const auto &b : blocked.getInDimBases("register"))
    registers.push_back(withReduced(b, 0));
  // The thread's bits, low first; the low five are its lane.
  std::vector<std::vector<int32_t>> threadBits =
      c.interleaved ? groupCoords : memberCoords;
  for (const auto &b : c.interleaved ? memberCoords : groupCoords)
    threadBits.push_back(b);
  size_t laneBits = std::min<size_t>(5, threadBits.size());
  layout::LinearLayout::InDim lane{"lane", {}}, warp{"warp", {}};
  lane.bases.assign(threadBits.begin(), threadBits.begin() + laneBits);
  warp.bases.assign(threadBits.begin() + laneBits, threadBits.end());
  std::vector<layout::LinearLayout::OutDim> outs;
  for (size_t d = 0; d < c.tile.size(); ++d)
    outs.push_back({"dim" + std::to_string(d), int32_t(c.tile[d])});
  outs.insert(reducedFirst ? outs.begin() : outs.end(),
              {"reduced", int32_t(c.reduceThreads * run)});
  return layout::LinearLayout({{"register", registers}, lane, warp}, outs);
}

WarpAccessCost autosched::gpuLoadSectors(const GpuProgram &p,
                                         const GpuCandidate &c,
                                         const TargetInfo &target) {
  int64_t lanes = std::max<int64_t>(1, target.warpSize);
  // A load moves a run of the reduced index with groups; without, a run of
  // the tile where that lies along memory (an element-wise program's rows,
  // a column reduction's outputs), else an element (a row reduction's
  // outputs are rows apart).
  int64_t run = p.kind == GpuProgramKind::RowReduction && c.reduceThreads == 1
                    ? 1
                    : c.vector;
  std::optional<layout::LinearLayout> distribution = simtDistribution(p, c);
  if (!distribution) {
    WarpAccessCost coalesced;
    coalesced.perInstruction = coalesced.ideal =
        std::ceil(double(lanes * run * p.elementBytes) / kSectorBytes);
    coalesced.instructions = 1;
    return coalesced;
  }
  return globalSectors(*distribution, int32_t(run), loadedTensor(p, c), lanes);
}

GpuCost autosched::estimateGpu(const GpuProgram &p, const GpuCandidate &c,
                               const TargetInfo &target) {
  GpuCost cost;
  ProgramWork w = programWork(p, c, target);
  // Coalescing, from the lowering's layout: one load moves a run of the
  // reduced index with groups, of the tile without.
  WarpAccessCost loads = gpuLoadSectors(p, c, target);
  // Runs that fall back to element-by-element loads issue a load each.
  w.instructions += w.loads * (loads.requests - 1);
  w.loads *= loads.requests;
  w.sectorsPerWarpLoad = loads.perRequest();
  cost.sectorsPerLoad = loads.perRequest();
  cost.fewestSectorsPerLoad = loads.ideal / std::max(loads.requests, 1e-9);
  cost.requestsPerLoad = loads.requests;
  cost.registers = w.registers;
  int64_t byRegisters =
      target.registerFile /
      (std::max<int64_t>(1,
                         std::min(w.registers, target.maxRegistersPerThread)) *
       c.threads);
  cost.blocksPerMultiprocessor = std::max<int64_t>(
      1, std::min({target.maxThreadsPerMultiprocessor / c.threads,
                   kMaxBlocksPerMultiprocessor, byRegisters}));
  int64_t outputsPrograms = 1, outputs = product(p.extents);
  for (size_t i = 0; i < p.extents.size(); ++i)
    outputsPrograms *= ceilDiv(p.extents[i], c.tile[i]);
  cost.programs = outputsPrograms * c.split;
  int64_t slots = target.multiprocessors * cost.blocksPerMultiprocessor;
  cost.waves = ceilDiv(cost.programs, slots);
  // The problem's DRAM bytes, spread evenly over its programs.
  double points = static_cast<double>(outputs) *
                  (isReduction(p) ? static_cast<double>(p.reduced) : 1.0);
  double bytes = points * p.uniqueBytesPerPoint +
                 static_cast<double>(outputs) * p.bytesPerOutput;
  if (p.sweep)
    bytes +=
        points * (p.sweep->uniqueBytesPerPoint + p.sweep->storeBytesPerPoint);
  if (p.sweep && w.keptPoints) {
    cost.sweepRereads = "registers";
  } else if (p.sweep) {
    // The sweep reads again what its multiprocessor's programs read last:
    // from L1 where their rows fit in half of it, else from DRAM.
    double resident =
        std::min<double>(cost.blocksPerMultiprocessor,
                         ceilDiv(cost.programs, target.multiprocessors));
    double rowBytes =
        static_cast<double>(p.reduced) * p.sweep->rereadBytesPerPoint;
    bool fromL1 = resident * product(c.tile) * rowBytes <=
                  target.sharedBytesPerMultiprocessor / 2.0;
    if (!fromL1)
      bytes += points * p.sweep->rereadBytesPerPoint;
    cost.sweepRereads = fromL1 ? "L1" : "DRAM";
  }
  double bytesPerProgram = bytes / cost.programs;
  double cyclesPerUs = target.clockGHz * 1e3;
  // Each term summed over the waves; a wave costs the longest of its
  // memory, cache and compute (at least a round trip), plus its groups'
  // combination.
  // (Each term under the refit's scale: GpuTerms.h; the cache's with
  // compute's, both on the multiprocessor.)
  const GpuModelScales &scales = target.gpuModelScales;
  double waveTotal = 0;
  auto addWave = [&](int64_t programs, int64_t count) {
    WaveCycles wave = waveCycles(c, w, programs, bytesPerProgram, target);
    cost.terms.addWaves(
        {count, std::max(wave.compute, wave.cache) / cyclesPerUs,
         wave.memory / cyclesPerUs, kDramLatencyCycles / cyclesPerUs,
         wave.combine / cyclesPerUs});
    wave.memory *= scales.memory;
    wave.cache *= scales.compute;
    wave.compute *= scales.compute;
    wave.combine *= scales.latency;
    cost.memoryUs += count * wave.memory / cyclesPerUs;
    cost.cacheUs += count * wave.cache / cyclesPerUs;
    cost.computeUs += count * wave.compute / cyclesPerUs;
    cost.latencyUs += count * wave.combine / cyclesPerUs;
    waveTotal += count * wave.total(scales.latency) / cyclesPerUs;
  };
  int64_t fullWaves = cost.programs / slots;
  if (fullWaves)
    addWave(slots, fullWaves);
  if (int64_t rest = cost.programs % slots)
    addWave(rest, 1);
  // A launch, and the last wave's stores draining (a round trip).
  double latency = kLaunchUs + kDramLatencyCycles / cyclesPerUs, splitSum = 0;
  if (c.split > 1) {
    // The combining program: a launch, a round trip, and the partial
    // results (f32 each, value and whatever the fold keeps) read once.
    double partialBytes = static_cast<double>(outputs) * c.split * 8;
    splitSum = kLaunchUs + kDramLatencyCycles / cyclesPerUs +
               partialBytes / target.dramBytesPerSecond * 1e6;
  }
  cost.terms.fixedUs = latency + splitSum;
  cost.latencyUs += scales.latency * latency;
  cost.splitSumUs = scales.latency * splitSum;
  // (`latency` summed term by term: the order that keeps a prediction at
  // scale 1 what it was, to the bit.)
  cost.totalUs = waveTotal + scales.latency * kLaunchUs +
                 scales.latency * kDramLatencyCycles / cyclesPerUs +
                 cost.splitSumUs;
  return cost;
}

namespace {

/// The tiles of `p` of `elements` outputs, the innermost dimension filled
/// first (up to its extent rounded up to a power of two).
std::vector<int64_t> tileOf(const GpuProgram &p, int64_t elements) {
  std::vector<int64_t> tile(p.extents.size(), 1);
  for (size_t i = tile.size(); i-- > 0 && elements > 1;) {
    int64_t take = std::min(elements, powerOf2Ceil(p.extents[i]));
    tile[i] = take;
    elements /= take;
  }
  return tile;
}

void addElementwise(const GpuProgram &p, const TargetInfo &target,
                    std::vector<GpuCandidate> &space) {
  size_t rank = p.extents.size();
  int64_t innerCap = powerOf2Ceil(p.extents.back());
  int64_t outerCap = rank >= 2 ? powerOf2Ceil(p.extents[rank - 2]) : 1;
  for (int64_t inner = std::min<int64_t>(innerCap, 16);
       inner <= std::min<int64_t>(innerCap, 1024); inner *= 2) {
    for (int64_t outer = 1; outer <= std::min(outerCap, kMaxOuterTile);
         outer *= 2) {
      int64_t elements = inner * outer;
      if (elements > kMaxTileElements)
        continue;
      for (int64_t threads = target.warpSize;
           threads <= target.maxThreadsPerProgram && threads <= elements;
           threads *= 2) {
        if (elements / threads > kMaxElementsPerThread)
          continue;
        for (int64_t vector = 1; vector <= p.maxVector; vector *= 2) {
          if (inner % vector || (elements / threads) % vector)
            break;
          GpuCandidate c;
          c.tile.assign(rank, 1);
          c.tile.back() = inner;
          if (rank >= 2)
            c.tile[rank - 2] = outer;
          c.threads = threads;
          c.vector = vector;
          space.push_back(std::move(c));
        }
      }
    }
  }
}

void addReduction(const GpuProgram &p, const TargetInfo &target,
                  std::vector<GpuCandidate> &space) {
  bool columns = p.kind == GpuProgramKind::ColumnReduction;
  int64_t outputs = 1;
  for (int64_t e : p.extents)
    outputs *= powerOf2Ceil(e);
  int64_t reducedCap = powerOf2Ceil(p.reduced);
  for (int64_t elements = 1;
       elements <=
       std::min<int64_t>(outputs, columns ? kMaxReductionOutputs : 64);
       elements *= 2) {
    std::vector<int64_t> tile = tileOf(p, elements);
    for (int64_t shared = 1;
         shared <= p.maxReduceThreads &&
         shared <= target.maxThreadsPerProgram && shared <= reducedCap;
         shared *= 2) {
      for (int64_t held = 1; held <= 4 && held <= elements; held *= 2) {
        int64_t threads = elements / held * shared;
        if (threads < target.warpSize || threads > target.maxThreadsPerProgram)
          continue;
        // Runs of a shared row's iterations: one output a group. Runs of
        // a thread's outputs where it folds their columns alone (a
        // program whose maxVector is along its outputs: maxReduceThreads
        // 1).
        int64_t maxVector = 1;
        if (!columns && shared > 1 && held == 1)
          maxVector = p.maxVector;
        else if (columns && p.maxReduceThreads == 1)
          maxVector = std::min(p.maxVector, held);
        // (A thread's outputs' runs divide the tile's row.)
        for (int64_t vector = 1;
             vector <= maxVector && (!columns || tile.back() % vector == 0);
             vector *= 2)
          for (int64_t split : p.splits) {
            if (split > 1 && p.reduced / split < shared * vector)
              continue;
            GpuCandidate c;
            c.tile = tile;
            c.threads = threads;
            c.reduceThreads = shared;
            c.interleaved = columns && shared > 1;
            c.vector = vector;
            c.split = split;
            space.push_back(std::move(c));
          }
      }
    }
  }
}

} // namespace

std::vector<GpuCandidate> autosched::gpuSpace(const GpuProgram &p,
                                              const TargetInfo &target) {
  std::vector<GpuCandidate> space;
  if (p.extents.empty() || !target.isGPU())
    return space;
  if (isReduction(p))
    addReduction(p, target, space);
  else
    addElementwise(p, target, space);
  space.erase(std::remove_if(space.begin(), space.end(),
                             [&](const GpuCandidate &c) {
                               return !fitsGpuTarget(p, c, target);
                             }),
              space.end());
  return space;
}

bool autosched::fitsGpuTarget(const GpuProgram &p, const GpuCandidate &c,
                              const TargetInfo &target) {
  // A thread's registers beyond what it may address, or a block's beyond
  // the register file, do not fit (the code would spill: ptxas caps a
  // block of 1024 threads at 64 registers a thread).
  int64_t registers = programWork(p, c, target).registers;
  return registers <= target.maxRegistersPerThread &&
         registers * c.threads <= target.registerFile;
}

std::vector<RankedGpuCandidate>
autosched::rankGpuSchedules(const GpuProgram &p, const TargetInfo &target,
                            size_t keep, size_t *spaceSize,
                            const SearchOptions &options, size_t *predicted) {
  std::vector<GpuCandidate> space = gpuSpace(p, target);
  if (spaceSize)
    *spaceSize = space.size();
  std::vector<std::vector<int64_t>> parameters;
  for (const GpuCandidate &c : space) {
    std::vector<int64_t> values = c.tile;
    values.insert(values.end(), {c.threads, c.reduceThreads, c.vector, c.split,
                                 c.interleaved});
    parameters.push_back(std::move(values));
  }
  std::vector<GpuCost> costs(space.size());
  auto predict = [&](size_t i) {
    costs[i] = estimateGpu(p, space[i], target);
    return double(std::llround(costs[i].totalUs * 100));
  };
  // Predictions equal to 10 ns are ties, which go to the larger tile (fewer
  // programs, each amortising its own costs), then more threads, then
  // longer runs (fewer instructions for the same bytes), then the first
  // enumerated.
  auto before = [&](size_t a, size_t b) {
    auto key = [&](size_t i) {
      return std::make_tuple(-product(space[i].tile), -space[i].threads,
                             -space[i].vector, i);
    };
    return key(a) < key(b);
  };
  SpaceSearchOutcome outcome = searchSpace(
      ParameterSpace(std::move(parameters)), predict, before, options, keep);
  if (predicted)
    *predicted = outcome.predicted;
  std::vector<RankedGpuCandidate> ranked;
  for (size_t i : outcome.ranked)
    ranked.push_back({space[i], costs[i]});
  return ranked;
}
