//===- CpuSpace.h - CPU programs' register blocks and their model -*- C++
//-*-===//
//
// The search space of a program on the host CPU: its tile (the register
// block one program instance computes; one program a thread at a time),
// and an analytic model of its time. A tile row is a run of SIMD vectors
// along the contiguous innermost dimension; the other tile extents are
// rows. Candidates whose accumulators and operands overflow the vector
// register file are kept but charged for their spills (the model says
// why), so that the measured search can still try them.
//
// The model, per program instance (docs/autoscheduler.md, "The CPU"):
//   - a contraction step (one k) issues rows x vectors FMAs and rows
//     broadcasts + vectors loads, on two FMA and two load ports, and
//     cannot retire faster than the FMA latency (each accumulator's chain
//     advances once a step); a step touching more cache lines than the
//     prefetchers follow pays for each line beyond; a computed broadcast
//     operand costs its operations once a row;
//   - the step's operands come from the L2 cache at kL2BytesPerCycle,
//     except an unpacked rhs larger than L2: each instance reads its panel
//     (a step's row of it) from the last-level cache or from memory, its
//     first lines waiting where the row is a part of B's, and a step of
//     more than one row waits for it with its instructions, the more of
//     them the fewer steps overlapping their waits (a contraction whose
//     output is one row also takes rows up to 128 vectors wide, unpacked);
//     An unpacked rhs in L2 but not in L1 stalls a step a little a line
//     (a strided stream); narrow operands (f16, bf16) are widened a load
//     on the FMA ports; on a host whose integer operations share the FMA
//     ports (Intel's), the step's scalar operations take FMA slots; an
//     operand read across its rows (B[n, k]) gathers its row of the step,
//     a lane an insert added to the FMAs' time (the shuffle port is an FMA
//     port), its L1 misses as a row reduction's lanes (below), and a
//     spilled register a cycle more;
//     Contractions that share the broadcast operand (siblings) each add
//     their FMAs, their rhs row's loads and lines, and their accumulators
//     to the step;
//   - a packed rhs is one prefetch stream, read from L2, and is copied
//     once a column of tiles (and batch) on each thread, each row copied
//     from memory waiting for its lines; one read across its rows
//     (B[n, k]) gathers each panel row once there, a lane an insert, and
//     its steps gather nothing;
//   - other programs issue their work (vector operations) an element
//     vector, a reduction at least an FMA latency a step; a reduction
//     whose lanes read elements far apart (a row reduction over
//     contiguous rows) inserts them one at a time, and a lane's line
//     beyond what the prefetchers follow or what the L1 set its rows
//     share can hold is refetched from L2 each step; their values come
//     from L2, or from memory where the data does not fit in it; an
//     element-wise tile's rows beyond those the L1 keeps are read twice,
//     and its spills recur around each of its operations;
//   - every instance pays a fixed overhead and stores its tile;
//   - instances are spread over the host's threads in waves, and tiles
//     past the extents are computed and thrown away.
//
// An instance's time is max(compute, memory) + overhead + packing. A
// refit from measurements on one host (CpuRefit.h) scales those four
// terms; unscaled, the model is as documented.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CPUSPACE_H
#define NAUTILUS_AUTOSCHEDULER_CPUSPACE_H

#include "autoscheduler/SpaceSearch.h"
#include "compiler/Target/Target.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// The registers an element-wise program keeps live at one point of its
/// body (compiler/Schedule/ElementWiseLive.h), by how its values vary
/// over the tile: whole tiles (rows x vectors registers each), rows of
/// vectors along the innermost dimension alone (a scale g[d]: vectors
/// each), values a row (a row's mean broadcast along it: rows each).
struct LivePoint {
  int64_t tiles = 0, innerVectors = 0, rowValues = 0;

  int64_t registers(int64_t rows, int64_t vectors) const {
    return tiles * rows * vectors + innerVectors * vectors + rowValues * rows;
  }
};

/// A program as the CPU model sees it.
struct CpuProgram {
  std::vector<int64_t> extents; // output extents, bound
  int64_t reduced = 0;          // its top-level reduction's extent (0: none)
  /// The reduction sums a product of a value read once a row (broadcast
  /// along the innermost dimension) and one read along it (a GEMM).
  bool contraction = false;
  /// A contraction's broadcast operand computed rather than read: its
  /// operations a row and a step (an MLP's silu(G) * U).
  int64_t broadcastWork = 0;
  int64_t elementBits = 32;
  /// A reduction's or stream's bits read from its buffers a point (each
  /// element read along the reduced index, once a read); 0: elementBits
  /// (what an element-wise program's traffic is counted in).
  int64_t streamedBits = 0;
  /// A contraction whose rhs B[k, n] a schedule's `pack` can copy into
  /// contiguous panels (tile::packablePanelLoads; siblings each their own).
  bool packable = false;
  /// A packable contraction whose reduction a schedule's `reduce_block`
  /// can fold a block at a time (tile::reductionBlockRefusal).
  bool blockable = false;
  /// Vector operations a point of a program that is not a contraction
  /// costs beyond its loads: its reduction's body and repairs a step, or
  /// its element-wise values (an exp, log or tanh counts as several).
  int64_t work = 0;
  /// An element-wise program's work a point on values that vary along its
  /// innermost dimension alone (a scale g[d] loaded and widened): done
  /// once for all of a tile's rows, as a vector broadcast down them.
  int64_t innerOnlyWork = 0;
  /// A reduction whose lanes (along the output's innermost dimension)
  /// read elements this many bytes apart, each a cache line of its own
  /// (a row reduction over contiguous rows: softmax's, a norm's; a
  /// contraction's operand read across its rows, B[n, k] of A B^T); 0
  /// when its reads are contiguous along the lanes.
  int64_t gatherStrideBytes = 0;
  /// A contraction whose broadcast operand is read across its rows (A[k,
  /// m] of A^T B: a step's elements are consecutive along the output's
  /// rows, and consecutive steps this many bytes apart); 0 when it is
  /// read along the reduced index (A[m, k]) or not at all.
  int64_t lhsStrideBytes = 0;
  /// A reduction over rows read along their innermost dimension that the
  /// lowering folds with its vector lanes along the reduced index where
  /// its tile has at most this many elements (its rows: each a vector
  /// load a step, an accumulator, one reduction across the lanes at the
  /// end; dialects/Tile/Utils/ReducedLanes.h); 0: never (its lanes along
  /// its rows, gathering when gatherStrideBytes says so). A contraction
  /// may fold too (X W^T: both operands read the reduced index innermost),
  /// its unpacked tiles of at most this many elements.
  int64_t reducedLaneRows = 0;
  /// Folded along reduced lanes: the work a step (of `lanes` indices), and
  /// the tiles live through it (3 for a reduction: a float sum's partial,
  /// total and compensation, counted for every kind; a stream's
  /// accumulators and a step's terms, its repairs once a step of 4
  /// vectors rather than once a block of 8 keys).
  int64_t foldedWork = 0;
  int64_t foldedLiveTiles = 3;
  /// The vectors of reduced indices a folded step takes whole (a stream's
  /// kLaneStreamBlock; a reduction's last step is masked, 1): a reduction
  /// shorter than that many vectors does not fold.
  int64_t foldedStepVectors = 1;
  /// The buffers an element-wise program reads or writes along both its
  /// rows and its innermost dimension: each row of each is a stream.
  int64_t rowStreams = 1;
  /// The tiles a program that is not a contraction keeps live at once: a
  /// reduction its accumulator and the value it folds in; a stream a
  /// block of keys' terms and its accumulators; an element-wise program
  /// whose livePoints are not known (a view made by hand) this many tiles.
  int64_t liveTiles = 2;
  /// An element-wise program's registers live at each point of its body
  /// where it is wider than the points around it (until model version 13,
  /// liveTiles: its reads varying along the innermost dimension and a
  /// value, each a tile; layernorm's output was kept to 1 x 64 tiles,
  /// where 4 x 64 ran 1.18x faster, unspilled).
  std::vector<LivePoint> livePoints;
  /// A contraction whose rhs rows are routed (Wg[ids[t, j], d, f]: each
  /// row of its tile reads its own expert's rows): its tile's rows share
  /// no row of the rhs, each loads and streams its own (until model
  /// version 14 they shared it as a GEMM's rows do, and a mixture of
  /// experts' gate and up projections took 1 x 2 x 64 tiles, predicted
  /// 1.36x ahead of 1 x 1 x 128, which ran 1.06x faster).
  bool routedRhs = false;
  /// A contraction's operands are narrower than its accumulator (f16,
  /// bf16 into f32): each load a step is widened too.
  bool widens = false;
  /// Its outer extents (its rows) stand for ranges of values: a sample of
  /// unbound sizes among its rows (CpuUnboundSizes.h), where a tile fit
  /// for one row only (CpuSpace.cpp's oneRowContraction) is not offered.
  bool rowsVary = false;
  bool stream = false; // the reduction is a tile.online_reduce
  /// A stream's accumulators (each chunk of a split stores them a point).
  int64_t accumulators = 0;
  /// A stream that may be split across programs (split-KV: each chunk of
  /// its keys a program of its own, then a program combining the chunks'
  /// states): the most chunks, a power of two (1: never).
  int64_t mostSplit = 1;
  /// Contractions folded in the same loop nest that share the broadcast
  /// operand (alg-fuse-shared-operands' gate and up projections): each
  /// step issues each one's FMAs and loads its own rhs row, and each keeps
  /// its accumulators.
  int64_t siblings = 1;
  /// A contraction's rhs's width as stored (bits; 0: elementBits): what
  /// its rows, panels and footprint in the caches take.
  int64_t operandBits = 0;
  /// A stream that recomputes, for each key, a dot product of this many
  /// points for each row of its tile (attention's scores, sum[d] Q[n, d]
  /// K[m, d]: a column over the tile's rows; 0: none). Its tile spans the
  /// innermost dimension whole; the rows are what the space varies.
  int64_t scoredPoints = 0;
  /// Such a stream's key operand is narrower than its values (bf16 K):
  /// each block's keys are widened once into a scratch.
  bool scoresWiden = false;
  /// Its keys a block (the lowering's kStreamBlock): the scores of a
  /// block are folded in one loop over the points.
  int64_t blockKeys = 8;
  /// A stream that reads its scores, stored by another program, a column
  /// over the tile's rows a key (attention's structure with S stored:
  /// S[n, m] down n), in place of scoredPoints' dot products: the bytes
  /// between its rows (0: none).
  int64_t storedScoresStrideBytes = 0;
  /// Its followers kept in memory a row at a time (P V: each key a row of
  /// the tile's width times a column: StreamLowering's row followers).
  int64_t rowFollowers = 0;
  /// The tile a scored stream's space starts from (its own: heads of a
  /// group that share each K and V row in its rows): the candidates vary
  /// its rows (the second-to-last extent) and its split.
  std::vector<int64_t> heldTile;

  /// A stream whose scores are a column over its rows a key, recomputed
  /// or read (scoredStreamCycles' structure).
  bool streamsScores() const {
    return scoredPoints > 0 || storedScoresStrideBytes > 0;
  }
};

/// What a refit from measurements (CpuRefit.h) multiplies each term of
/// the model by on one host.
struct CpuTermScales {
  double compute = 1, memory = 1, overhead = 1, pack = 1;
};

/// The bump that marks a change of the CPU model's terms: a refit uses
/// only the measurements whose terms the same model gave (CpuRefit.h).
constexpr int64_t kCpuModelVersion = 15;

struct CpuCost {
  double totalUs = 0;
  double computeUs = 0;  // the busiest port, or the FMA latency
  double memoryUs = 0;   // operands from L2
  double overheadUs = 0; // an instance's fixed cost and its tile's stores
  double packUs = 0;     // copying the rhs into panels (a schedule's `pack`)
  int64_t programs = 0;
  int64_t waves = 0;
  int64_t registers = 0; // vector registers a step keeps live
  int64_t spilled = 0;   // beyond the register file
};

/// A program instance's four terms (microseconds).
struct CpuTerms {
  double compute = 0, memory = 0, overhead = 0, pack = 0;
  static CpuTerms of(const CpuCost &cost) {
    return {cost.computeUs, cost.memoryUs, cost.overheadUs, cost.packUs};
  }
};

/// The model's time of the terms `t` under `scales`: max(compute, memory)
/// + overhead + packing, each scaled.
inline double scaledUs(const CpuTerms &t, const CpuTermScales &scales) {
  return std::max(scales.compute * t.compute, scales.memory * t.memory) +
         scales.overhead * t.overhead + scales.pack * t.pack;
}

struct CpuCandidate {
  std::vector<int64_t> tile;
  CpuCost cost;
  bool pack = false; // the rhs packed into panels (a schedule's `pack`)
  /// A stream's chunks (a schedule's `reduce_split`; 1: not split).
  int64_t split = 1;
  /// A packed contraction's reduction folded in blocks of this many
  /// indices (a schedule's `reduce_block`; 0: not blocked).
  int64_t reduceBlock = 0;
  /// "16x32", "8x32 packed", "8 split 2", "6x64 packed in k blocks of
  /// 2048"
  std::string describe() const;
  /// Whether `other` is the same schedule (its cost aside).
  bool sameSchedule(const CpuCandidate &other) const {
    return tile == other.tile && pack == other.pack && split == other.split &&
           reduceBlock == other.reduceBlock;
  }
};

/// The vector registers of the host (32 with AVX-512, else 16).
int64_t cpuVectorRegisters(const TargetInfo &target);

/// The predicted time of `tile` for `program` on the host `target`, its
/// rhs packed into panels when `pack`, its stream split into `split`
/// chunks (each a program instance a tile, then a program combining them,
/// its terms added to theirs), its packed contraction's reduction folded
/// in blocks of `reduceBlock` (0: unblocked), its terms multiplied by
/// `scales`.
CpuCost estimateCpu(const CpuProgram &program, const std::vector<int64_t> &tile,
                    const TargetInfo &target, bool pack = false,
                    const CpuTermScales &scales = {}, int64_t split = 1,
                    int64_t reduceBlock = 0);

/// Every register block of `program` (rows x vectors, within the
/// extents), unpacked and, where the program is packable, packed, and a
/// stream's splits (powers of two up to its mostSplit and the host's
/// threads), ranked
/// by the model, best first; equal predictions go to the larger tile, then
/// the first enumerated. At most `keep` (0: all). The space is searched
/// as `options` say (SpaceSearch.h: exhaustively, unless asked);
/// `spaceSize` and `predicted` receive its size and how many candidates
/// were predicted.
std::vector<CpuCandidate>
rankCpuTiles(const CpuProgram &program, const TargetInfo &target,
             size_t keep = 0, const CpuTermScales &scales = {},
             const SearchOptions &options = {}, size_t *spaceSize = nullptr,
             size_t *predicted = nullptr);

} // namespace nautilus::autosched

#endif
