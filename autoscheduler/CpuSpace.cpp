//===- CpuSpace.cpp - CPU programs' register blocks and their model -------===//
#include "autoscheduler/CpuSpace.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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
/// A contraction step's scalar operations: the loop's increment, compare
/// and branch, the rhs pointer's bump and the lhs index's clamp (counted
/// in the generated loop of an 8 x 32 block). On a host whose integer
/// operations share the FMA ports (TargetInfo::scalarOpsShareFmaPorts:
/// Intel's, 2 of 5 integer ports on Golden Cove), kScalarShareOfFmaPorts
/// of them take FMA slots, so that a bigger step pays less of them an
/// FMA (fitted: f32 1024^3 on a 2-thread Intel host, 6 x 64 packed ran
/// 1.13x faster than 8 x 32, 6 x 32 1.21x slower and 4 x 32 1.31x slower
/// than 6 x 64; f16 8 x 32 1.25x slower. On Zen 4, whose integer pipes
/// are their own, f32 8 x 32 and 6 x 64 ran the same).
constexpr double kStepScalarOps = 10;
constexpr double kScalarShareOfFmaPorts = 0.4;
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
/// the host core's L2 (HostCaches) that A's rows and C's tiles leave it
/// (on a 1 MiB L2, packing ran 1.3x faster at 512^3, B 1 MiB, and at
/// 1000 x 700 x 300, B 0.84 MiB): the last-level cache a thread may count
/// on (a fixed figure: a virtual machine does not see its share of a
/// shared cache), then memory. Its rows are N elements apart (for a
/// power-of-two N a page or more, and all in one set of the L1 cache), so
/// a step's lines arrive at much less than the caches' bandwidth: the
/// rates are fitted to f32 GEMM on a 2-thread Zen 4 (1024^3 with B in the
/// last-level cache ran 1.55x slower unpacked than packed, 2048^3 with B
/// from memory 6.5x).
constexpr double kL2StridedLineCycles = 0.75;
constexpr double kLastLevelBytes = 8 << 20;
constexpr double kLastLevelBytesPerCycle = 5;
/// From memory, B's rows stream at one rate whether the FMAs' loads or a
/// panel's copy read them (fitted to the copy: below). Until model
/// version 9 an unpacked step read them at 1.2 bytes a cycle, slower than
/// the copy of the same lines, and a single row of tiles, whose panels
/// are used once, was packed: f16 M = 1, N = K = 4096, 8192 and 16384,
/// 1 x 128 unpacked ran 1.65x, 1.36x and 1.47x faster than packed (an
/// Intel host, 2 threads), where the model put packing 1.3x ahead.
constexpr double kMemoryBytesPerCycle = 1.86;
/// An unpacked step of more than one row whose rhs row comes from beyond
/// L2 waits for it with its FMAs, loads and spills (a step of one row does
/// not: contractionCycles): they fill the core's window, so the more
/// of them a step, the fewer steps overlap their waits, and the wait grows
/// with them, cycles an instruction (fitted: f32 16 x 4096 x 2048, B 32 MiB
/// from memory, unpacked tiles from 2 x 128 to 16 x 128 took 8 to 10 cycles an
/// FMA a step, packed ones 2.2x less time; 1024^3, B in the last-level cache, 8
/// x 32 unpacked 1.55x the packed time).
constexpr double kLastLevelWaitPerInstruction = 1.6;
constexpr double kMemoryWaitPerInstruction = 9;
/// A step's row of B from beyond L2, read by the step (or copied into a
/// panel from memory), that is a part of B's row (the others' parts
/// between it and the next, a page or more for a wide N), begins where
/// the prefetchers have not run ahead: its first lines wait, cycles, on
/// top of its bytes at the rate of where B lives (each sibling's row its
/// own). Fitted on a 2-thread Intel host, f32 1 x N x N (B 1 GiB, from
/// memory), 1 x W tiles: 124, 420 and 1461 cycles a step at 2.5 GHz for
/// rows of 512, 2048 and 8192 bytes: 35 cycles and 10.5 a line between the two
/// ends (the least squares of the three: 49 and 11.1); f16 30. (The rates the
/// model counts B's bytes at are slower than this host's, so that the
/// wait weighs less against them: 1 x 2048 0.90x 1 x 128's time a byte
/// predicted, 0.74x measured.)
constexpr double kRowChunkWait = 32;
/// What starting a program instance costs (the index arithmetic of its
/// loop), cycles: measured small (an element-wise program of 4096 x 1024
/// ran as fast with 1 x 16 tiles as with 1 x 128, 8x the instances).
constexpr double kProgramOverhead = 5;
/// What each row of an element-wise tile costs each buffer it reads or
/// writes along its rows, cycles: the row's address, and the test that
/// it lies inside the buffer whole (then a plain load or store; a masked
/// one at an edge). Measured (softmax's and layernorm's Y over 4096 x
/// 1024 f32, timed in turns): 6 x 32 and 6 x 16 tiles ran 1.09x and 1.16x
/// slower than 1 x 128 and 4 x 64, which the terms above put within 2%.
constexpr double kRowAccessCycles = 4;
/// Vector registers beyond the file that `live` values need.
int64_t spilledOf(int64_t live, const TargetInfo &target) {
  return std::max<int64_t>(
      0, live - (cpuVectorRegisters(target) - kReservedRegisters));
}

/// Copying a row of an rhs panel from memory waits for the row's lines
/// (rows N elements apart, a page or more for a power-of-two N) or streams
/// its bytes (kMemoryBytesPerCycle), whichever takes longer: the copy's loads
/// of successive rows overlap their waits. (Measured, f32 16 x 4096 x 2048, B
/// 32 MiB, packed: 8 x 32, 8 x 64 and 4 x 64 ran alike, 2.6 ms, while 4 x 128,
/// 12 registers spilled, ran 4.0. Until model version 3 the wait and the stream
/// added up, fitted when 8 x 64 ran 1.3x faster than 8 x 32, and the model took
/// 4 x 128 for its fewer, wider copies.)
constexpr double kCopyRowWait = 80;
/// A packed panel (K x tile width x bytes; a block's rows with
/// `reduce_block`) counts on a quarter of the host core's L2 (HostCaches):
/// the rest holds A's rows, the tiles' stores and the rows of B being
/// copied. Beyond that, a step's row of it comes partly from L2 (the
/// quarter's fraction of the panel) and the rest from beyond at this rate
/// (fitted on a 2-thread Intel host, 2 MiB L2, f32, against the same tile
/// with the reduction in blocks of 2048, a 512 KiB panel at 6 x 64:
/// unblocked, 6 x 64 ran 1.57x its time at 1024^2 x 8192 (a 2 MiB
/// panel), 2.0x at 512^2 x 16384 (4 MiB) and 256^2 x 65536 (16 MiB), and
/// 1.96x at 128^2 x 16384, where 8 x 32 unblocked (2 MiB) ran 1.62x; 6.7
/// to 10 bytes a cycle. The model puts them at 1.8x, 1.93x, 1.95x, 1.91x
/// and 1.30x. It over-counts a panel of 1 MiB: 1.40x at K = 4096, where
/// it ran 1.04x, and blocks of 4096 1.40x 2048's at 1024^2 x 8192, where
/// they ran 1.05x: blocks whose panels fit are then chosen, as measured
/// best). Since model version 12: until then a packed panel was read from
/// L2 whatever its size, and nothing was blocked.
constexpr double kPanelBeyondL2BytesPerCycle = 8;
/// What each block of a blocked reduction (a schedule's `reduce_block`)
/// costs an instance besides its steps, cycles: the loop's entry, and its
/// accumulators reloaded from the scratch and stored back (a load and a
/// store a vector, at kLoadPorts loads and one store a cycle).
constexpr double kBlockEntryCycles = 10;

/// A contraction's broadcast operand read across its rows (A[k, m] of A^T
/// B, CpuProgram::lhsStrideBytes, a line or more between a step's rows):
/// each step reads a line of its own, `stride` bytes from the last; the
/// instances down a column share them, so the fewer bytes of A a block
/// spans (rows x stride) the more stay in the caches and the TLB. A step
/// waits kStridedLhsCycles x sqrt(span / kStridedLhsSpanBytes) cycles
/// more, up to kStridedLhsCycles, x stride / kStridedLhsFullStride where
/// the rows are closer than that (several steps share a page). Fitted on
/// a 2-thread Intel host, f32, at strides of 8, 4, 2 and 0.5 KiB
/// (docs/autoscheduler.md, "Blocking K"; until version 15, by rows).
constexpr double kStridedLhsCycles = 22;
constexpr double kStridedLhsSpanBytes = 16 << 20;
constexpr double kStridedLhsFullStride = 2048;
constexpr int64_t kLineBytes = 64;

/// The host core's caches as the model reads them (TargetInfo's, from the
/// machine): the L1's bytes, ways and sets (of 64-byte lines; rows a
/// multiple of sets x 64 bytes apart all fall in one set), and the share
/// of L2 an unpacked rhs may count on (half), and a packed panel (a
/// quarter: kPanelBeyondL2BytesPerCycle).
struct HostCaches {
  double l1Bytes, l2RhsBytes, l2PanelBytes;
  int64_t l1Ways, l1Sets;
};

HostCaches cachesOf(const TargetInfo &target) {
  int64_t l1 = target.l1DataBytes > 0 ? target.l1DataBytes : 32 << 10;
  int64_t ways = target.l1Ways > 0 ? target.l1Ways : 8;
  int64_t l2 = target.l2Bytes > 0 ? target.l2Bytes : 1 << 20;
  return {double(l1), double(l2) / 2, double(l2) / 4, ways,
          std::max<int64_t>(1, l1 / (ways * 64))};
}

/// The bytes a cycle an operand of `operandBytes` streams at from where it
/// lives: half of L2, the last-level cache, or memory.
double rhsRateOf(double operandBytes, const HostCaches &caches) {
  return operandBytes <= caches.l2RhsBytes ? kL2BytesPerCycle
         : operandBytes <= kLastLevelBytes ? kLastLevelBytesPerCycle
                                           : kMemoryBytesPerCycle;
}

/// Copying one row of `panelRow` bytes of an rhs of `rhsBytes` into its
/// panel, `vectors` vector stores; `partWait`: what the row's first lines
/// wait from memory where it is a part of B's row (kRowChunkWait), as an
/// unpacked step's read of the same row waits. (Not from the last-level
/// cache: there narrow copies ran fast, f32 128 x 128 x 16384, B 8 MiB, 8
/// x 32 packed 1.19x faster than 6 x 64, which the wait would have put
/// first for its fewer copies.)
double copyRowCycles(double panelRow, double rhsBytes, int64_t vectors,
                     double partWait, const HostCaches &caches) {
  double read =
      rhsBytes <= caches.l2RhsBytes ? panelRow / kL2BytesPerCycle
      : rhsBytes <= kLastLevelBytes
          ? panelRow / kLastLevelBytesPerCycle
          : std::max(kCopyRowWait, panelRow / kMemoryBytesPerCycle + partWait);
  return read + double(vectors);
}

/// A row reduction whose lanes read rows far apart (a gather): each
/// element is inserted into its vector on its own, and each lane's row is
/// a stream. The L1 cache holds its ways' lines of a set (HostCaches:
/// 8 on Skylake and Zen 4, 12 on Ice Lake and later; 64 sets of 64-byte
/// lines, so rows a multiple of 4 KiB apart all fall in one set). A lane
/// whose line is not kept (beyond the ways of its set, or the kGatherStreams
/// the prefetchers follow) waits for L2 each step (fitted, f32 row sums and
/// log-sum-exps of 4096 rows on a 2-thread Zen 4: at 1024 columns 8 lanes
/// ran 2.4x faster than 16, at 1000 columns 16 lanes ran 1.3x faster than
/// 8 and than 32).
constexpr double kInsertsPerCycle = 1;
/// What a spilled register costs a gathering contraction's step
/// (contractionCycles) beyond the store and reload every step pays
/// (estimateCpu's spill cycles).
constexpr double kGatherSpillCycles = 1;
constexpr int64_t kGatherStreams = 16;
constexpr double kL1MissCycles = 3;
/// Data streamed in by the prefetchers from beyond L2 (the last-level
/// cache, where a kernel timed again and again finds its inputs), bytes a
/// cycle and a thread (fitted: f32 row sums folded along their reduced
/// lanes, 2 threads, of 16 MiB in 0.34 ms and 64 MiB in 1.22: 10 and 11
/// bytes a cycle at kNominalGHz; 3.5 was fitted before, to row sums
/// whose lanes gathered).
constexpr double kStreamedBytesPerCycle = 10;
/// The same from the last-level cache, where the data fits it
/// (kLastLevelBytes; since model version 7, fitted on a 2-thread Zen 4: a
/// row max over 4 MiB in 41 us, two folded passes over 2 MiB in 36).
constexpr double kLastLevelStreamedBytesPerCycle = 20;
/// An element-wise program's: its traffic is counted once an element at
/// its widest type, so this rate also carries its stores (a write
/// allocates its line: read, then written back) and its rows' refetches
/// (elementWiseRefetched weighs them against it: 14 x 16 f32 tiles of a
/// 1024-wide softmax ran 1.2x slower than 1 x 128, which the rate of
/// reads above, 10, put at 2% apart). Fitted with the element-wise terms,
/// before the reductions' rate was measured anew.
constexpr double kElementWiseBytesPerCycle = 3.5;
/// The clock the model counts in when the target names none: only the
/// ranking matters on the CPU, which is measured to be timed.
constexpr double kNominalGHz = 2.5;

/// Rows of a tile the space tries (the product of the outer tile extents).
constexpr int64_t kRowChoices[] = {1, 2, 4, 6, 8, 12, 14, 16, 24, 32};
/// Vectors a tile row may hold (powers of two: a tile that does not divide
/// a power-of-two extent masks every access of its edge, measured 20x
/// slower).
constexpr int64_t kVectorChoices[] = {1, 2, 4, 8};
/// The blocks a packed contraction's reduction may be folded in (a
/// schedule's `reduce_block`, BLIS's kc), each shorter than the whole;
/// and where its broadcast operand is read across its rows, shorter ones
/// (kStridedLhsCycles).
constexpr int64_t kReduceBlockChoices[] = {512, 1024, 2048, 4096};
constexpr int64_t kShortReduceBlockChoices[] = {32, 64, 128, 256};
/// And where a contraction's output is one row (a decoding step's M = 1:
/// oneRowContraction), unpacked, wider: its accumulators spill, but its
/// step waits for B's row, and a wider row waits less a byte (kRowChunkWait).
constexpr int64_t kOneRowVectorChoices[] = {16, 32, 64, 128};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Whether `program` is a contraction whose output is one row for every
/// launch (its outer extents 1 and bound), its rhs read along its rows.
bool oneRowContraction(const CpuProgram &program) {
  return program.contraction && !program.rowsVary &&
         !program.gatherStrideBytes && !program.extents.empty() &&
         std::all_of(program.extents.begin(), program.extents.end() - 1,
                     [](int64_t e) { return e == 1; });
}

/// The elements a tile row may hold: whole vectors (kVectorChoices, and
/// kOneRowVectorChoices for a oneRowContraction); a program that is not a
/// contraction, or one that folds along reduced lanes, also a part of one,
/// down to one element (a row reduction whose lanes gather: fewer lanes,
/// fewer lines; a folded tile: a few dot products).
std::vector<int64_t> innerWidths(const CpuProgram &program, int64_t lanes) {
  std::vector<int64_t> widths;
  if (!program.contraction || program.reducedLaneRows)
    for (int64_t w = 1; w < lanes; w *= 2)
      widths.push_back(w);
  for (int64_t vectors : kVectorChoices)
    widths.push_back(vectors * lanes);
  if (oneRowContraction(program))
    for (int64_t vectors : kOneRowVectorChoices)
      widths.push_back(vectors * lanes);
  return widths;
}

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

/// Lines of `lanes` rows `stride` bytes apart that the L1 cache keeps
/// from one step to the next: the ways of each set they fall in, and no
/// more than the prefetchers follow.
int64_t residentLanes(int64_t lanes, int64_t stride, const HostCaches &caches) {
  int64_t sets = lanes;
  if (stride % 64 == 0) {
    int64_t lines = stride / 64;
    sets = std::min<int64_t>(
        lanes, caches.l1Sets /
                   std::gcd<int64_t>(caches.l1Sets, lines % caches.l1Sets));
  }
  return std::min<int64_t>({lanes, sets * caches.l1Ways, kGatherStreams});
}

/// A step of `cycles` that also gathers `lanes` elements `stride` bytes
/// apart: an insert each, and an L2 access for each lane whose line the
/// L1 does not keep.
double withGather(double cycles, int64_t lanes, int64_t stride,
                  const HostCaches &caches) {
  return std::max(cycles, double(lanes) / kInsertsPerCycle) +
         double(lanes - residentLanes(lanes, stride, caches)) * kL1MissCycles;
}

/// The share of an element-wise tile's `rows` whose lines are read twice:
/// its rows (of each buffer it reads or writes along them, which a
/// power-of-two row puts in the same L1 sets) are streams a row of the
/// output apart, and the lines the prefetchers bring for the rows beyond
/// those the L1 keeps are evicted before they are read (measured: 14 x 16 f32
/// tiles of a 1024-wide output ran 1.5x slower than 1 x 128).
double elementWiseRefetched(const CpuProgram &program, int64_t rows,
                            const HostCaches &caches) {
  if (program.reduced || program.extents.size() < 2)
    return 0;
  int64_t stride = program.extents.back() * program.elementBits / 8;
  int64_t streams = rows * std::max<int64_t>(1, program.rowStreams);
  return double(streams - residentLanes(streams, stride, caches)) /
         double(streams);
}

/// A step (an element for an element-wise program) of a program that is
/// not a contraction, `rows` x `vectors` vectors of `inner` elements a row
/// (`folded`: along reduced lanes): its work on two ports, its loads, a
/// reduction's latency and gathers; sets `registers` to the values it
/// keeps live.
double otherStepCycles(const CpuProgram &program, int64_t rows, int64_t vectors,
                       int64_t inner, bool folded, const HostCaches &caches,
                       int64_t &registers) {
  int64_t live = folded ? program.foldedLiveTiles : program.liveTiles;
  int64_t work = folded ? program.foldedWork : program.work;
  registers = std::max<int64_t>(1, live) * rows * vectors;
  // An element-wise program's widest point of its body (a tile at least).
  if (!program.reduced && !program.livePoints.empty()) {
    registers = rows * vectors;
    for (const LivePoint &point : program.livePoints)
      registers = std::max(registers, point.registers(rows, vectors));
  }
  double ops = double(rows * vectors) * double(std::max<int64_t>(1, work)) +
               double(vectors) * double(program.innerOnlyWork);
  double cycles =
      std::max(ops / kFmaPorts, double(rows * vectors) / kLoadPorts);
  if (program.reduced)
    cycles = std::max(cycles, kFmaLatency);
  if (program.gatherStrideBytes && !folded)
    cycles =
        withGather(cycles, rows * inner, program.gatherStrideBytes, caches);
  return cycles;
}

} // namespace

int64_t nautilus::autosched::cpuVectorRegisters(const TargetInfo &target) {
  return target.vectorBits >= 512 ? 32 : 16;
}

std::string CpuCandidate::describe() const {
  std::string s;
  for (int64_t t : tile)
    s += (s.empty() ? "" : "x") + std::to_string(t);
  if (split > 1)
    s += " split " + std::to_string(split);
  if (pack)
    s += " packed";
  if (reduceBlock)
    s += " in k blocks of " + std::to_string(reduceBlock);
  return s;
}

namespace {

/// A point's cycles (a step of the reduced index, or the program's one
/// point), its memory traffic's cycles, and a packed panel row's copy.
struct PointCycles {
  double step = 0, memory = 0, pack = 0;
};

/// A tile's register block: `vectors` vectors of `lanes` along the
/// innermost dimension by `rows` rows (the others), for `steps` steps of
/// the reduced index, of elements of `bytes`.
struct RegisterBlock {
  size_t rank;
  int64_t lanes, vectors, rows, steps;
  double bytes;
};

/// Whether `program`'s reduction folds with its lanes along the reduced
/// index at `tile` (CpuProgram::reducedLaneRows), its rhs not packed (a
/// packed panel's reads keep the lanes along the columns).
bool foldsAlongReducedLanes(const CpuProgram &program,
                            const std::vector<int64_t> &tile,
                            const TargetInfo &target, bool pack) {
  // (A stream folds whole steps of foldedStepVectors vectors of keys
  // alone: a shorter one takes its keys one at a time.)
  return !pack && program.reducedLaneRows &&
         product(tile, 0, tile.size()) <= program.reducedLaneRows &&
         program.reduced >= lanesOf(program, target) *
                                std::max<int64_t>(1, program.foldedStepVectors);
}

RegisterBlock registerBlockOf(const CpuProgram &program,
                              const std::vector<int64_t> &tile,
                              const TargetInfo &target, bool pack) {
  size_t rank = program.extents.size();
  int64_t lanes = lanesOf(program, target);
  // Folded along reduced lanes: every element of the tile a row of one
  // vector, a step `lanes` reduced indices.
  if (foldsAlongReducedLanes(program, tile, target, pack))
    return {rank,
            lanes,
            1,
            product(tile, 0, rank),
            ceilDiv(std::max<int64_t>(program.reduced, 1), lanes),
            double(program.elementBits) / 8};
  return {rank,
          lanes,
          rank ? ceilDiv(tile.back(), lanes) : 1,
          rank ? product(tile, 0, rank - 1) : 1,
          std::max<int64_t>(program.reduced, 1),
          double(program.elementBits) / 8};
}

/// The FMAs (a folded tile's elements times its steps) up to which LLVM
/// unrolls a folded reduction whole: it then widens each 16-bit vector of
/// the broadcast rows once and keeps them live across the reduction.
/// Observed: bf16 Q K^T at a decoding step (B = 1, H = 8, M = 4096), tiles
/// of 8, 4 and 2 keys over D = 64 to 512 unrolled exactly where this
/// holds; D = 128 at 8 keys spilled 8 vectors and ran 1.46x slower than 4
/// keys, D = 512 at 2 keys (unrolled, 32 vectors of Q) 1.17x slower than
/// 8 keys (a loop).
constexpr double kWholeUnrollFmas = 64;

/// A contraction folded along reduced lanes (X W^T's small tiles: each
/// element a dot product of two rows, a vector of the reduced index a
/// step): the tile's rows of the broadcast operand (outer) and of the
/// other (inner, each sibling's) loaded once a step, an FMA an element,
/// each accumulated in a blocked sum (3 registers: CpuProgram's
/// foldedLiveTiles); the broadcast rows from L2, the others streamed whole
/// from where that operand lives (both at operandBits' width, the inner
/// operand's: a mixed f32 x bf16 product is counted at one). A tile spans
/// one batch (the space's batch tiles are 1), so its elements are the
/// outer rows times the inner.
PointCycles foldedContractionCycles(const CpuProgram &program,
                                    const std::vector<int64_t> &tile,
                                    const RegisterBlock &block,
                                    const TargetInfo &target,
                                    int64_t &registers) {
  HostCaches caches = cachesOf(target);
  int64_t siblings = std::max<int64_t>(1, program.siblings);
  int64_t inner = tile.back(), outer = block.rows / std::max<int64_t>(1, inner);
  double operandBytes =
      program.operandBits ? double(program.operandBits) / 8 : block.bytes;
  double fmas = double(block.rows * siblings);
  double loads = double(outer + inner * siblings);
  // (A computed broadcast operand: its operations once an outer row.)
  double computed =
      (program.widens ? loads : 0.0) + double(outer * program.broadcastWork);
  if (target.scalarOpsShareFmaPorts)
    computed += kStepScalarOps * kScalarShareOfFmaPorts;
  registers = program.foldedLiveTiles * block.rows * siblings + 1;
  // A reduction short enough to be unrolled whole keeps the broadcast
  // rows' widened vectors of every step live across it (model version 11).
  int64_t steps = ceilDiv(std::max<int64_t>(program.reduced, 1), block.lanes);
  if (program.widens && double(steps) * fmas <= kWholeUnrollFmas)
    registers += outer * steps;
  PointCycles c;
  c.step = std::max(
      {(fmas + computed) / kFmaPorts, loads / kLoadPorts, kFmaLatency});
  c.step += std::max(0.0, loads - kPrefetchStreams);
  // The broadcast operand's rows from L2, as an unfolded contraction's
  // (a limitation of both: Y[f, t] = X[t, d] W[f, d], which broadcasts the
  // weight, is predicted far faster than it runs; folded or packed alike,
  // so that their ranking holds: 8 x 1 folded 1.10 ms, packed 2.32); the
  // other's streamed whole from where it lives.
  double vectorBytes = double(block.lanes) * operandBytes;
  double innerBytes =
      double(program.reduced) * double(program.extents.back()) * operandBytes;
  double innerRate = rhsRateOf(innerBytes, caches);
  c.memory = double(outer) * vectorBytes / kL2BytesPerCycle +
             double(inner * siblings) * vectorBytes / innerRate;
  return c;
}

/// A contraction's: its register block's FMAs and loads, the lines it
/// streams, its rhs from where it lives (packed or not), and the
/// registers it keeps (`registers`).
PointCycles contractionCycles(const CpuProgram &program,
                              const std::vector<int64_t> &tile,
                              const RegisterBlock &block,
                              const TargetInfo &target, bool pack,
                              int64_t reduceBlock, int64_t &registers) {
  if (foldsAlongReducedLanes(program, tile, target, pack))
    return foldedContractionCycles(program, tile, block, target, registers);
  auto [rank, lanes, vectors, rows, steps, bytes] = block;
  HostCaches caches = cachesOf(target);
  PointCycles c;
  // Siblings share the broadcast operand's loads, and nothing else.
  int64_t siblings = std::max<int64_t>(1, program.siblings);
  // The operands' bytes as stored (f16 and bf16 are widened in registers).
  double operandBytes =
      program.operandBits ? double(program.operandBits) / 8 : bytes;
  // Routed, each row of the tile loads and streams its own rhs row.
  int64_t rhsRows = program.routedRhs ? rows : 1;
  double fmas = double(rows * vectors * siblings);
  double loads = double(rows + rhsRows * vectors * siblings);
  // Narrow operands are widened a load at a time, on the FMA ports
  // (Zen 4's conversions share them; measured: f16 and bf16 GEMMs ran
  // fastest with 6 x 64 blocks, 1.15x faster than 8 x 32, where f32 ran
  // 8 x 32 as fast).
  double computed =
      double(rows * program.broadcastWork) + (program.widens ? loads : 0.0);
  // The accumulators, a step's row of the rhs, and the broadcast lhs
  // element, which AVX-512 folds into the FMA as a memory operand
  // ({1to16}) where it is loaded as it is (not computed, not widened).
  bool foldedBroadcast = target.vectorBits >= 512 &&
                         program.broadcastWork == 0 && !program.widens;
  registers = rows * vectors * siblings + vectors + (foldedBroadcast ? 0 : 1);
  if (target.scalarOpsShareFmaPorts)
    computed += kStepScalarOps * kScalarShareOfFmaPorts;
  c.step = std::max(
      {(fmas + computed) / kFmaPorts, loads / kLoadPorts, kFmaLatency});
  // A packed panel is one stream of consecutive lines (each sibling's
  // panel one).
  double lines =
      double(rows) +
      double(rhsRows) *
          (pack ? double(siblings)
                : double(siblings) *
                      std::ceil(double(vectors * lanes) * operandBytes / 64));
  c.step += std::max(0.0, lines - kPrefetchStreams);
  // An operand read across its rows (B[n, k] of A B^T) gathers its row
  // of the step: each lane a load and an insert, on the shuffle port, one
  // of the FMA ports (Intel's port 5; Zen 4's FP pipes), so the inserts
  // add to the FMAs' time rather than overlap it; and a spilled
  // register's reload queues behind the lanes' loads (kGatherSpillCycles
  // more). Measured (bf16 8 x 256^3, on Zen 4 and on an Intel host alike):
  // a step costs its FMAs' cycles plus about a cycle a lane; 1 x 16 x 32
  // ran 2.6 ms, 1 x 16 x 16 2.8, 1 x 12 x 16 3.4, and 1 x 32 x 64, 105
  // registers spilled, 4.6.
  if (program.gatherStrideBytes && rank && !pack) {
    int64_t lanes = tile.back() * rhsRows; // (routed, each row its own)
    c.step += double(lanes) / kInsertsPerCycle +
              double(lanes -
                     residentLanes(lanes, program.gatherStrideBytes, caches)) *
                  kL1MissCycles +
              double(spilledOf(registers, target)) * kGatherSpillCycles;
  }
  if (program.lhsStrideBytes >= kLineBytes) {
    double stride = double(program.lhsStrideBytes);
    double span =
        double(reduceBlock ? std::min(reduceBlock, steps) : steps) * stride;
    c.step += kStridedLhsCycles *
              std::sqrt(std::min(span, kStridedLhsSpanBytes) /
                        kStridedLhsSpanBytes) *
              std::min(stride, kStridedLhsFullStride) / kStridedLhsFullStride;
  }
  c.memory = double(rows + (rank ? tile.back() : 1) * siblings * rhsRows) *
             operandBytes / kL2BytesPerCycle;
  // The rhs, K x N: an instance's panel row a step, from beyond L2 unless
  // packed (then from L2, copied once a column of tiles). Siblings each
  // stream their own rhs as a program of its own would (where it lives is
  // each one's size).
  double rhsBytes =
      double(steps) * double(program.extents.back()) * operandBytes;
  double outerRate = rhsRateOf(rhsBytes, caches);
  double panelRow = double(rank ? tile.back() : 1) * operandBytes *
                    double(siblings * rhsRows);
  // Where the step's row of B is a part of B's row (B's rows a page or
  // more apart for a wide N), its first lines wait, read by the step or
  // copied into a panel alike (kRowChunkWait).
  bool wholeRows = rank && tile.back() >= program.extents.back();
  double partWait =
      wholeRows ? 0.0 : kRowChunkWait * double(siblings * rhsRows);
  if (pack) {
    c.pack =
        double(steps) *
        copyRowCycles(panelRow, rhsBytes, vectors * siblings, partWait, caches);
    // A transposed rhs (read across its rows) is gathered once, into the
    // panel: a lane an insert, a row of the panel a step.
    if (program.gatherStrideBytes && rank)
      c.pack +=
          double(steps) * double(tile.back() * siblings) / kInsertsPerCycle;
    // The panel (a block's rows, blocked) beyond the share of L2 it may
    // count on: the rest of it from beyond, a step's row at a time.
    double panelBytes =
        double(reduceBlock ? std::min(reduceBlock, steps) : steps) * panelRow;
    if (panelBytes > caches.l2PanelBytes) {
      double resident = caches.l2PanelBytes / panelBytes;
      c.memory = std::max(
          c.memory, panelRow * (resident / kL2BytesPerCycle +
                                (1 - resident) / kPanelBeyondL2BytesPerCycle));
    }
  } else if (rhsBytes > caches.l2RhsBytes) {
    // B's row streams from where it lives (its part's first lines
    // waiting, above). A block of rows waits with its instructions, which
    // fill the core's window; one row's step, an FMA a vector of B's row
    // independent of the steps around it (its spills L1 hits), does not.
    double stream = panelRow / outerRate + partWait;
    double window =
        rows == 1
            ? 0.0
            : (fmas + loads + 2 * double(spilledOf(registers, target))) *
                  (rhsBytes <= kLastLevelBytes ? kLastLevelWaitPerInstruction
                                               : kMemoryWaitPerInstruction);
    c.memory = std::max({c.memory, stream, window});
  } else {
    c.memory = std::max(c.memory, panelRow / outerRate);
    // From L2, rows N elements apart: a stream the L1's prefetcher
    // follows worse than a packed panel's, whose misses stall the step
    // (measured, 4096 x 64 x 1024 f32, B 256 KiB: 8 x 32 packed 1.19x
    // faster than unpacked).
    if (rhsBytes > caches.l1Bytes)
      c.step += std::ceil(panelRow / 64) * kL2StridedLineCycles;
  }
  return c;
}

/// Another program's (a reduction, a stream, element-wise): its step's
/// operations, and its elements from L2 or memory, an element-wise tile's
/// rows beyond what the L1 keeps twice.
PointCycles otherCycles(const CpuProgram &program,
                        const std::vector<int64_t> &tile,
                        const RegisterBlock &block, const TargetInfo &target,
                        int64_t &registers) {
  auto [rank, lanes, vectors, rows, steps, bytes] = block;
  HostCaches caches = cachesOf(target);
  PointCycles c;
  bool folded = foldsAlongReducedLanes(program, tile, target, false);
  c.step = otherStepCycles(program, rows, vectors, rank ? tile.back() : 1,
                           folded, caches, registers);
  // Each element once, from L2 or from memory; an element-wise tile's
  // rows beyond those the L1 keeps (elementWiseRefetched) twice.
  double read = program.streamedBits ? double(program.streamedBits) / 8 : bytes;
  double footprint = double(product(program.extents, 0, rank)) *
                     double(folded ? program.reduced : steps) * read;
  int64_t elements = folded ? rows * lanes : rows * (rank ? tile.back() : 1);
  c.memory = double(elements) * read *
             (1 + elementWiseRefetched(program, rows, caches)) /
             (footprint <= caches.l2RhsBytes ? kL2BytesPerCycle
              : program.reduced && footprint <= kLastLevelBytes
                  ? kLastLevelStreamedBytesPerCycle
              : program.reduced ? kStreamedBytesPerCycle
                                             : kElementWiseBytesPerCycle);
  return c;
}

/// A scored stream's narrow keys are widened into its scratch this many
/// values a cycle (StagedReads.cpp: 16 a load, two shuffles and a store).
constexpr double kWidenedPerStagingCycle = 16;

/// A stream that recomputes its scores a key (attention's, on the CPU:
/// StreamLowering.cpp and StagedReads.cpp), a key's share of a block of
/// `blockKeys` keys. A block:
///   - the scores, a loop over the points: each a load of Q's staged row
///     (the column's vectors), a broadcast of each key's element (folded
///     into the multiply-add), and a multiply-add a key and a column
///     vector, each key's accumulator advancing once a point (the FMA
///     latency); accumulators beyond the register file spill around every
///     point;
///   - narrow keys widened into a scratch, 16 values at a time, a cycle
///     each (a load, two shuffles, a store);
///   - the column's work a key (the exponentials, the leaders' folds, the
///     repairs a block), a column vector at a time;
///   - each key's row of values (V) loaded, and widened where narrow;
///   - each row follower, a row of the tile at a time: loaded, rescaled,
///     a multiply-add a key and a vector with the key's row of values from
///     memory (a block's rows outgrow the registers) and the row's element
///     of the key's column broadcast, and stored.
/// Its memory term is the keys' and values' rows a key, from where they
/// fit. Per instance (estimateCpu's overhead) Q's columns are gathered
/// into the scratch, an element an insert.
/// A stream that reads its scores stored (storedScoresStrideBytes) has no
/// points: each key's column of scores is gathered, an element of each
/// row (Loads.cpp's scalar loads: an insert each, and an L2 access for a
/// row whose line the L1 does not keep), its memory term that column and
/// the values' row, and its tile's row is the values' row (the head
/// dimension need not be whole: each instance along it recomputes the
/// column's work).
PointCycles scoredStreamCycles(const CpuProgram &program,
                               const RegisterBlock &block,
                               const TargetInfo &target, int64_t &registers) {
  auto [rank, lanes, vectors, rows, steps, bytes] = block;
  HostCaches caches = cachesOf(target);
  double keys = double(std::max<int64_t>(1, program.blockKeys));
  double points = double(program.scoredPoints);
  double columns = double(ceilDiv(rows, lanes)); // the scores' vectors
  registers = int64_t(keys * columns + columns);
  double spilled = double(spilledOf(registers, target));
  double point = std::max({keys * columns / kFmaPorts,
                           (columns + keys) / kLoadPorts, kFmaLatency}) +
                 spilled * 2 / kLoadPorts;
  double staging = program.scoresWiden
                       ? keys * std::ceil(points / kWidenedPerStagingCycle)
                       : 0.0;
  if (program.storedScoresStrideBytes)
    staging =
        keys * withGather(0.0, rows, program.storedScoresStrideBytes, caches);
  double column =
      keys * columns * double(std::max<int64_t>(1, program.work)) / kFmaPorts;
  double operandBytes =
      program.operandBits ? double(program.operandBits) / 8 : bytes;
  double valueRows = keys * double(vectors) * (operandBytes < bytes ? 1 : 0.5);
  double followers = double(program.rowFollowers);
  double rowOps = followers * double(vectors) * (1 + keys);
  double row = std::max({rowOps / kFmaPorts, (rowOps + keys + 1) / kLoadPorts,
                         followers * double(vectors)});
  PointCycles c;
  c.step =
      (points * point + staging + column + valueRows + double(rows) * row) /
      keys;
  // A key's row of K and of V, from where the instance's keys fit (or
  // its column of stored scores and its row of V).
  double keyBytes =
      program.storedScoresStrideBytes
          ? double(rows) * bytes + double(vectors * lanes) * operandBytes
          : 2 * points * operandBytes;
  double footprint = double(steps) * keyBytes;
  c.memory = keyBytes / (footprint <= caches.l2RhsBytes ? kL2BytesPerCycle
                         : footprint <= kLastLevelBytes
                             ? kLastLevelStreamedBytesPerCycle
                             : kStreamedBytesPerCycle);
  return c;
}

/// The most columns of tiles (and batches) one thread's run of program
/// ids enters, where `programs` ids walk down columns of `gridRows` and
/// are split among `threads` as the runtime splits them (thread p of n
/// runs [programs p / n, programs (p + 1) / n): runtime/HostWorkers.cpp).
/// Until model version 12, its share of the columns and one more: 2
/// copies of each thread's one column at 128 x 128 x 16384 with 6 x 64
/// tiles, where each ran exactly one (and its packing was put 1.3x 8 x
/// 32's, which measured 9% slower).
int64_t columnsEntered(int64_t programs, int64_t gridRows, int64_t threads) {
  int64_t parts = std::max<int64_t>(1, std::min(threads, programs));
  int64_t most = 0;
  for (int64_t p = 0; p < parts; ++p) {
    int64_t first = programs * p / parts, last = programs * (p + 1) / parts;
    if (last > first)
      most = std::max(most, (last - 1) / gridRows - first / gridRows + 1);
  }
  return most;
}

/// An instance's unscaled terms of `tile` for `program` (unsplit), and
/// in `cost` its programs, waves, registers and spills.
CpuTerms instanceTerms(const CpuProgram &program,
                       const std::vector<int64_t> &tile,
                       const TargetInfo &target, bool pack, CpuCost &cost,
                       int64_t reduceBlock = 0) {
  RegisterBlock block = registerBlockOf(program, tile, target, pack);
  auto [rank, lanes, vectors, rows, steps, bytes] = block;
  int64_t registers = 0;
  PointCycles point =
      program.contraction ? contractionCycles(program, tile, block, target,
                                              pack, reduceBlock, registers)
      : program.streamsScores()
          ? scoredStreamCycles(program, block, target, registers)
          : otherCycles(program, tile, block, target, registers);
  cost.registers = registers;
  double stepCycles = point.step, memoryCycles = point.memory,
         packCycles = point.pack;
  cost.spilled = spilledOf(cost.registers, target);
  // A spilled value is stored and reloaded once a step. An element-wise
  // program's spills are not hidden behind its memory traffic, and recur
  // around each of its operations, which run a whole tile at a time
  // (measured: 4 x 128 f32 tiles, 32 vectors live, ran 2.2x slower than
  // 1 x 128).
  double spillCycles = double(cost.spilled) / kLoadPorts * 2;
  double storeCycles = double(rows * vectors);
  if (!program.reduced && !program.contraction && rank >= 2)
    storeCycles += double(rows * std::max<int64_t>(1, program.rowStreams)) *
                   kRowAccessCycles;
  // Folded along reduced lanes: a last, masked step, and each row's
  // accumulator reduced across its lanes (a shuffle and an operation for
  // each halving).
  if (foldsAlongReducedLanes(program, tile, target, pack))
    storeCycles += stepCycles + double(rows) * 2 * std::log2(double(lanes));
  // (A scored stream's spills recur at each point of its scores: counted
  // there. Its instance gathers Q's columns once.)
  if (program.streamsScores())
    storeCycles +=
        double(rows) * double(program.scoredPoints) / kInsertsPerCycle;
  else if (program.reduced || program.contraction)
    stepCycles += spillCycles;
  else
    storeCycles += spillCycles * double(std::max<int64_t>(1, program.work));
  // Blocked: each block but the last enters its loop and keeps the
  // accumulators, each sibling's (a load and a store a vector).
  if (reduceBlock && steps > reduceBlock)
    storeCycles +=
        double(ceilDiv(steps, reduceBlock) - 1) *
        (kBlockEntryCycles +
         double(rows * vectors * std::max<int64_t>(1, program.siblings)) *
             (1 + 1 / kLoadPorts));
  cost.programs = 1;
  for (size_t d = 0; d < rank; ++d)
    cost.programs *= ceilDiv(program.extents[d], tile[d]);
  int64_t threads = std::max<int64_t>(target.multiprocessors, 1);
  cost.waves = ceilDiv(cost.programs, threads);
  double ghz = target.clockGHz > 0 ? target.clockGHz : kNominalGHz;
  double toUs = double(cost.waves) / (ghz * 1e3);
  CpuTerms terms;
  terms.compute = double(steps) * stepCycles * toUs;
  terms.memory = double(steps) * memoryCycles * toUs;
  terms.overhead = (kProgramOverhead + storeCycles) * toUs;
  if (pack) {
    // Each thread copies the panel of every column of tiles its run of
    // program ids (down the columns) enters. Each batch has its own panels
    // (until model version 8 only one batch's columns were counted: a
    // grouped decoding step's scores, K^T gathered a panel an instance
    // over 8 heads, were predicted 12x faster than measured, 0.2 against
    // 2.4 ms).
    int64_t gridRows =
        rank >= 2 ? ceilDiv(program.extents[rank - 2], tile[rank - 2]) : 1;
    terms.pack = double(columnsEntered(cost.programs, gridRows, threads)) *
                 packCycles / (ghz * 1e3);
  }
  return terms;
}

/// A chunk of `program`'s stream split `split` ways: the chunk index an
/// outer output dimension, a chunk's keys streamed.
CpuProgram chunkOf(const CpuProgram &program, int64_t split) {
  CpuProgram chunk = program;
  chunk.extents.insert(chunk.extents.begin(), split);
  chunk.reduced = ceilDiv(program.reduced, split);
  chunk.mostSplit = 1;
  return chunk;
}

/// The program combining a split stream's chunks (SplitStreams.cpp): the
/// same tile, a stream over the chunks' states, each a load of each
/// accumulator, folded by the stream's repairs.
CpuProgram combiningOf(const CpuProgram &program, int64_t split) {
  CpuProgram combine;
  combine.extents = program.extents;
  combine.reduced = split;
  combine.stream = true;
  combine.elementBits = program.elementBits;
  combine.streamedBits =
      program.elementBits * std::max<int64_t>(1, program.accumulators);
  combine.work = program.work;
  combine.liveTiles = program.liveTiles;
  combine.accumulators = program.accumulators;
  return combine;
}

} // namespace

CpuCost nautilus::autosched::estimateCpu(const CpuProgram &program,
                                         const std::vector<int64_t> &tile,
                                         const TargetInfo &target, bool pack,
                                         const CpuTermScales &scales,
                                         int64_t split, int64_t reduceBlock) {
  CpuCost cost;
  CpuTerms terms;
  if (split > 1 && program.stream && !program.extents.empty()) {
    std::vector<int64_t> chunkTile(tile);
    chunkTile.insert(chunkTile.begin(), 1);
    terms =
        instanceTerms(chunkOf(program, split), chunkTile, target, pack, cost);
    // The combining program's terms join the chunks' (each term scaled as
    // its kind: a refit scales them alike).
    CpuCost combining;
    CpuTerms combine = instanceTerms(combiningOf(program, split), tile, target,
                                     false, combining);
    terms.compute += combine.compute;
    terms.memory += combine.memory;
    terms.overhead += combine.overhead;
  } else {
    terms = instanceTerms(program, tile, target, pack, cost, reduceBlock);
  }
  cost.computeUs = terms.compute * scales.compute;
  cost.memoryUs = terms.memory * scales.memory;
  cost.overheadUs = terms.overhead * scales.overhead;
  cost.packUs = terms.pack * scales.pack;
  cost.totalUs = scaledUs(terms, scales);
  return cost;
}

std::vector<CpuCandidate> nautilus::autosched::rankCpuTiles(
    const CpuProgram &program, const TargetInfo &target, size_t keep,
    const CpuTermScales &scales, const SearchOptions &options,
    size_t *spaceSize, size_t *predicted) {
  size_t rank = program.extents.size();
  std::vector<CpuCandidate> all;
  if (rank == 0)
    return all;
  int64_t lanes = lanesOf(program, target);
  // (More chunks than threads would only queue: a split serves idle
  // threads.)
  int64_t mostSplit =
      program.stream
          ? std::min<int64_t>(program.mostSplit,
                              std::max<int64_t>(1, target.multiprocessors))
          : 1;
  auto within = [](int64_t want, int64_t extent) {
    return want <= std::max<int64_t>(1, int64_t(llvm::PowerOf2Ceil(extent)));
  };
  // A scored stream's tile is its own (the head dimension whole; heads of
  // a group in its rows) but for its rows.
  bool held = program.streamsScores() && program.heldTile.size() == rank;
  // A tile, each split of it, and packed where its rhs packs.
  auto offer = [&](const std::vector<int64_t> &tile) {
    all.push_back({tile, {}});
    for (int64_t split = 2; split <= mostSplit; split *= 2)
      all.push_back({tile, {}, false, split});
    // (A row wider than kVectorChoices' is one row's: unpacked, as its
    // panel would be copied to be read once.)
    if (program.packable && rank >= 2 &&
        tile.back() <= std::end(kVectorChoices)[-1] * lanes) {
      all.push_back({tile, {}, true});
      // Its reduction in blocks shorter than the whole.
      for (int64_t kc : kReduceBlockChoices)
        if (program.blockable && kc < program.reduced)
          all.push_back({tile, {}, true, 1, kc});
      for (int64_t kc : kShortReduceBlockChoices)
        if (program.blockable && program.lhsStrideBytes >= kLineBytes &&
            kc < program.reduced)
          all.push_back({tile, {}, true, 1, kc});
    }
  };
  for (int64_t rows : kRowChoices) {
    if (held) {
      if (rank < 2 || !within(rows, program.extents[rank - 2]))
        continue;
      std::vector<int64_t> tile(program.heldTile);
      tile[rank - 2] = rows;
      // Its scores are a column of the tile's rows (heads of a group
      // too) a key, one vector: LLVM splits one past a vector's lanes
      // that is not a power of two of vectors into pieces it rejoins at
      // every point (24 rows on a 16-lane host: 20x slower than 16 or 32).
      int64_t column = product(tile, 0, rank - 1);
      if (column > lanes &&
          (column % lanes != 0 || !llvm::isPowerOf2_64(column / lanes)))
        continue;
      offer(tile);
      continue;
    }
    if (rank < 2 && rows > 1)
      break;
    if (rank >= 2 && !within(rows, program.extents[rank - 2]))
      continue;
    for (int64_t inner : innerWidths(program, lanes)) {
      // A row narrower than a vector where the extent is.
      if (!within(inner, program.extents.back()) &&
          (inner > lanes || program.extents.back() >= lanes))
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
      offer(tile);
    }
  }
  std::vector<std::vector<int64_t>> parameters;
  for (const CpuCandidate &c : all) {
    std::vector<int64_t> values = c.tile;
    values.insert(values.end(), {c.pack, c.split, c.reduceBlock});
    parameters.push_back(std::move(values));
  }
  auto predict = [&](size_t i) {
    CpuCandidate &c = all[i];
    c.cost = estimateCpu(program, c.tile, target, c.pack, scales, c.split,
                         c.reduceBlock);
    return c.cost.totalUs;
  };
  // Equal predictions: the larger tile, then the first enumerated.
  auto before = [&](size_t a, size_t b) {
    int64_t tileA = product(all[a].tile, 0, all[a].tile.size()),
            tileB = product(all[b].tile, 0, all[b].tile.size());
    return tileA != tileB ? tileA > tileB : a < b;
  };
  SpaceSearchOutcome outcome = searchSpace(
      ParameterSpace(std::move(parameters)), predict, before, options, keep);
  if (spaceSize)
    *spaceSize = all.size();
  if (predicted)
    *predicted = outcome.predicted;
  std::vector<CpuCandidate> ranked;
  for (size_t i : outcome.ranked)
    ranked.push_back(all[i]);
  return ranked;
}
