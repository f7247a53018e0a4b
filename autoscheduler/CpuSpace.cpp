//===- CpuSpace.cpp - CPU programs' register blocks and their model -------===//
#include "autoscheduler/CpuSpace.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

// The host's core, as the model assumes it (Intel's optimisation manual
// for Skylake-SP and later, and AMD's Zen 4 guide, agree on these): two
// FMA and two load ports, an FMA latency of 4 cycles, 64 bytes a cycle
// from L2 in theory and about half of that sustained.
constexpr double kFmaPorts = 2;
constexpr double kLoadPorts = 2;
constexpr double kFmaLatency = 4;
constexpr double kL2BytesPerCycle = 32;
/// Vector registers the compiled loop needs besides the tile's values
/// (LLVM's temporaries): a tile that leaves fewer spills (measured: on a
/// 32-register host, 14 x 32 with 31 live values ran 1.6x slower than
/// 12 x 32 with 27).
constexpr int64_t kReservedRegisters = 4;
/// Cache lines one step may touch before the hardware's prefetchers lose
/// track of them: each row of the broadcast operand is its own stream
/// (measured: 24 x 16 ran 2.7x slower than 8 x 32).
constexpr double kPrefetchStreams = 12;
/// Where an unpacked rhs comes from when it does not fit in the half of
/// L2 (1 MiB, Skylake-SP's and Zen 4's per core) that A's rows and C's
/// tiles leave it (packing ran 1.3x faster at 512^3, B 1 MiB, and at
/// 1000 x 700 x 300, B 0.84 MiB): the last-level cache a thread may count
/// on, then memory. Its rows are N elements apart (for a
/// power-of-two N a page or more, and all in one set of the L1 cache), so
/// a step's lines arrive at much less than the caches' bandwidth: the
/// rates are fitted to f32 GEMM on a 2-thread Zen 4 (1024^3 with B in the
/// last-level cache ran 1.55x slower unpacked than packed, 2048^3 with B
/// from memory 6.5x).
constexpr double kL2Bytes = 512 << 10;
constexpr double kLastLevelBytes = 8 << 20;
constexpr double kLastLevelBytesPerCycle = 5;
constexpr double kMemoryBytesPerCycle = 1.2;
/// What starting a program instance costs (the runtime's dispatch, the
/// index arithmetic), cycles.
constexpr double kProgramOverhead = 200;
/// The clock the model counts in when the target names none: only the
/// ranking matters on the CPU, which is measured to be timed.
constexpr double kNominalGHz = 2.5;

/// Rows of a tile the space tries (the product of the outer tile extents).
constexpr int64_t kRowChoices[] = {1, 2, 4, 6, 8, 12, 14, 16, 24, 32};
/// Vectors a tile row may hold (powers of two: a tile that does not divide
/// a power-of-two extent masks every access of its edge, measured 20x
/// slower).
constexpr int64_t kVectorChoices[] = {1, 2, 4, 8};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t lanesOf(const CpuProgram &program, const TargetInfo &target) {
  return std::max<int64_t>(1, std::max<int64_t>(target.vectorBits, 128) /
                                  std::max<int64_t>(program.elementBits, 8));
}

int64_t product(const std::vector<int64_t> &v, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i)
    p *= v[i];
  return p;
}

} // namespace

int64_t nautilus::autosched::cpuVectorRegisters(const TargetInfo &target) {
  return target.vectorBits >= 512 ? 32 : 16;
}

std::string CpuCandidate::describe() const {
  std::string s;
  for (int64_t t : tile)
    s += (s.empty() ? "" : "x") + std::to_string(t);
  return pack ? s + " packed" : s;
}

CpuCost nautilus::autosched::estimateCpu(const CpuProgram &program,
                                         const std::vector<int64_t> &tile,
                                         const TargetInfo &target, bool pack) {
  CpuCost cost;
  size_t rank = program.extents.size();
  int64_t lanes = lanesOf(program, target);
  int64_t vectors = rank ? ceilDiv(tile.back(), lanes) : 1;
  int64_t rows = rank ? product(tile, 0, rank - 1) : 1;
  int64_t steps = std::max<int64_t>(program.reduced, 1);
  double bytes = double(program.elementBits) / 8;
  double stepCycles, memoryCycles = 0, packCycles = 0;
  if (program.contraction) {
    double fmas = double(rows * vectors);
    double loads = double(rows + vectors);
    double computed = double(rows * program.broadcastWork);
    cost.registers = rows * vectors + vectors + 1;
    stepCycles = std::max(
        {(fmas + computed) / kFmaPorts, loads / kLoadPorts, kFmaLatency});
    // A packed panel is one stream of consecutive lines.
    double lines =
        double(rows) +
        (pack ? 1.0 : std::ceil(double(vectors * lanes) * bytes / 64));
    stepCycles += std::max(0.0, lines - kPrefetchStreams);
    memoryCycles =
        double(rows + (rank ? tile.back() : 1)) * bytes / kL2BytesPerCycle;
    // The rhs, K x N: an instance's panel row a step, from beyond L2
    // unless packed (then from L2, copied once a column of tiles).
    double rhsBytes = double(steps) * double(program.extents.back()) * bytes;
    double outerRate = rhsBytes <= kL2Bytes          ? kL2BytesPerCycle
                       : rhsBytes <= kLastLevelBytes ? kLastLevelBytesPerCycle
                                                     : kMemoryBytesPerCycle;
    double panelRow = double(rank ? tile.back() : 1) * bytes;
    if (pack)
      packCycles = double(steps) * (panelRow / outerRate + double(vectors));
    else
      memoryCycles = std::max(memoryCycles, panelRow / outerRate);
  } else {
    // A reduction keeps its accumulators and the value it folds in live
    // across its steps; an element-wise program streams its values.
    cost.registers = program.reduced ? 2 * rows * vectors : 0;
    stepCycles = double(rows * vectors) / kLoadPorts;
    memoryCycles =
        double(rows * (rank ? tile.back() : 1)) * bytes / kL2BytesPerCycle;
  }
  cost.spilled = std::max<int64_t>(
      0, cost.registers - (cpuVectorRegisters(target) - kReservedRegisters));
  // A spilled value is stored and reloaded once a step.
  stepCycles += double(cost.spilled) / kLoadPorts * 2;
  double storeCycles = double(rows * vectors);
  cost.programs = 1;
  for (size_t d = 0; d < rank; ++d)
    cost.programs *= ceilDiv(program.extents[d], tile[d]);
  int64_t threads = std::max<int64_t>(target.multiprocessors, 1);
  cost.waves = ceilDiv(cost.programs, threads);
  double ghz = target.clockGHz > 0 ? target.clockGHz : kNominalGHz;
  double toUs = double(cost.waves) / (ghz * 1e3);
  cost.computeUs = double(steps) * stepCycles * toUs;
  cost.memoryUs = double(steps) * memoryCycles * toUs;
  cost.overheadUs = (kProgramOverhead + storeCycles) * toUs;
  if (pack) {
    // Each thread copies the panel of every column of tiles its run of
    // program ids (down the columns) enters: about its share of the
    // columns, and one more.
    int64_t columns = rank ? ceilDiv(program.extents.back(), tile.back()) : 1;
    cost.overheadUs +=
        double(ceilDiv(columns, threads) + 1) * packCycles / (ghz * 1e3);
  }
  cost.totalUs = std::max(cost.computeUs, cost.memoryUs) + cost.overheadUs;
  return cost;
}

std::vector<CpuCandidate>
nautilus::autosched::rankCpuTiles(const CpuProgram &program,
                                  const TargetInfo &target, size_t keep) {
  size_t rank = program.extents.size();
  std::vector<CpuCandidate> all;
  if (rank == 0)
    return all;
  int64_t lanes = lanesOf(program, target);
  auto within = [](int64_t want, int64_t extent) {
    return want <= std::max<int64_t>(1, int64_t(llvm::PowerOf2Ceil(extent)));
  };
  for (int64_t rows : kRowChoices) {
    if (rank < 2 && rows > 1)
      break;
    if (rank >= 2 && !within(rows, program.extents[rank - 2]))
      continue;
    for (int64_t vectors : kVectorChoices) {
      int64_t inner = vectors * lanes;
      // A row narrower than a vector where the extent is.
      if (!within(inner, program.extents.back()) &&
          (vectors > 1 || program.extents.back() >= lanes))
        continue;
      std::vector<int64_t> tile(rank, 1);
      tile.back() = std::min<int64_t>(
          inner,
          std::max<int64_t>(1, llvm::PowerOf2Ceil(program.extents.back())));
      if (rank >= 2)
        tile[rank - 2] = rows;
      if (llvm::any_of(all,
                       [&](const CpuCandidate &c) { return c.tile == tile; }))
        continue;
      all.push_back({tile, estimateCpu(program, tile, target)});
      if (program.packable && rank >= 2)
        all.push_back({tile, estimateCpu(program, tile, target, true), true});
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const CpuCandidate &a, const CpuCandidate &b) {
                     if (a.cost.totalUs != b.cost.totalUs)
                       return a.cost.totalUs < b.cost.totalUs;
                     return product(a.tile, 0, a.tile.size()) >
                            product(b.tile, 0, b.tile.size());
                   });
  if (keep && all.size() > keep)
    all.resize(keep);
  return all;
}
