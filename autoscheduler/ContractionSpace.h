//===- ContractionSpace.h - The legal schedules of a contraction -*- C++ -*-===//
//
// The search space of a tensor-core contraction program on a GPU target:
// every combination of instruction, tile (M x N x K), warps, stages and
// split of K that the target and the lowering accept, pruned by the
// target's limits (shared memory, registers, threads) before any cost is
// computed. Plain data: the space links neither the pipeline nor a device.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CONTRACTIONSPACE_H
#define NAUTILUS_AUTOSCHEDULER_CONTRACTIONSPACE_H

#include "compiler/Target/Target.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// A contraction program as the search sees it: C[b, m, n] = sum over k of
/// A[b, m, k] B[b, k, n], with 16-bit operands and f32 accumulators.
struct ContractionProblem {
  int64_t m = 0, n = 0;
  std::optional<int64_t> k;   // unbound: the search assumes kUnboundK
  int64_t batch = 1;          // the (M, N) matrices
  int64_t operandBytes = 2;   // f16, bf16
  int64_t outputBytes = 4;
  bool computedLhs = false, computedRhs = false; // operands the threads compute
  /// Whether K may be split (bound, and the program allows it).
  bool splittable = false;
  /// Whether wgmma can run it (sm_90 with TMA-aligned rows).
  bool wgmmaAllowed = false;
  /// Contractions sharing the lhs tile in one mma.sync program
  /// (tile::siblingContracts: a gated MLP's gate and up projections), each
  /// with an rhs of its own and accumulators of its own; they never split
  /// and write one output (their epilogue's).
  int64_t siblings = 1;
  /// A grouped GEMM (tile-group-routed-contractions: a mixture of experts'
  /// rows bucketed by expert): `rows` routed rows in `groups` groups, each
  /// group's rows from a multiple of `block`, each group with B matrices of
  /// its own. M is their capacity (rows + groups (block - 1)); programs over
  /// blocks past the last group's end at once. The model assumes balanced
  /// routing: each group ceil(rows / groups) rows.
  struct Groups {
    int64_t rows = 0, groups = 1, block = 1;
    /// The groups that hold rows: every one, or where there are fewer rows
    /// than groups (a decoding step over many experts), one a row.
    int64_t activeGroups() const;
    /// The rows whose blocks hold some group's rows: each active group's
    /// rows rounded up to whole blocks.
    int64_t busyRows() const;
    /// A group's rows rounded up to whole blocks.
    int64_t groupSpan() const;
    bool operator==(const Groups &o) const {
      return rows == o.rows && groups == o.groups && block == o.block;
    }
  };
  std::optional<Groups> grouped;

  /// (Every field: a field added above belongs here too.)
  bool operator==(const ContractionProblem &o) const {
    return m == o.m && n == o.n && k == o.k && batch == o.batch &&
           operandBytes == o.operandBytes && outputBytes == o.outputBytes &&
           computedLhs == o.computedLhs && computedRhs == o.computedRhs &&
           splittable == o.splittable && wgmmaAllowed == o.wgmmaAllowed &&
           siblings == o.siblings && grouped == o.grouped;
  }

  /// The rows of tiles of `tileM` rows whose programs compute: every one,
  /// or a grouped GEMM's up to its last group's end (balanced routing).
  int64_t busyTilesM(int64_t tileM) const;
  /// How many groups' B a band of `bandRows` rows (from a tile's first row,
  /// tiles of `tileM` rows) reads, on average over where it starts: 1 but
  /// for a grouped GEMM.
  double groupsSpanned(int64_t bandRows, int64_t tileM) const;
};

/// The K a problem with an unbound K is scheduled for.
constexpr int64_t kUnboundK = 4096;

/// One schedule of the space.
struct ContractionCandidate {
  bool wgmma = false;
  int64_t tileM = 0, tileN = 0, tileK = 0;
  int64_t warpsM = 0, warpsN = 0;
  int64_t stages = 0;
  int64_t splitK = 1;
  bool producer = false;   // wgmma: a producer warpgroup (and persistent)
  /// The stages' shared-memory swizzle (`#tile.mma`'s `swizzle`, bytes):
  /// the space's is always the 128-byte one, whose ldmatrix reads are
  /// conflict-free; a schedule read back may have another.
  int64_t swizzleBytes = 128;
  /// The rows of tiles the grid walks before moving along N (`#tile.mma`'s
  /// `group_m`, the rasterisation): the space has 8 (the heuristics'),
  /// 16, 4 and 1, each that walks differently over the problem's rows of
  /// tiles.
  int64_t groupM = 8;

  int64_t threads() const;
  /// The shared memory its pipeline's stages take (bytes): the lhs tile
  /// and each sibling's rhs tile, a stage.
  int64_t sharedBytes(const ContractionProblem &problem) const;
  /// The accumulators each computing thread keeps (every sibling's).
  int64_t accumulatorsPerThread(const ContractionProblem &problem) const;
  /// "wgmma 128x256x64 w[8,1] s4" for listings.
  std::string describe() const;
};

/// Every candidate of `problem` on `target` within its limits (empty when
/// the target has no tensor cores), in a fixed order.
std::vector<ContractionCandidate> enumerateCandidates(
    const ContractionProblem &problem, const TargetInfo &target);

/// Why `candidate` breaks the target's limits for `problem`, or "".
std::string resourceRefusal(const ContractionCandidate &candidate,
                            const ContractionProblem &problem,
                            const TargetInfo &target);

} // namespace nautilus::autosched

#endif
