//===- Heuristics.h - Schedules decided by hand-written rules -*- C++ -*-===//
//
// The schedule a program gets when it is made (convert-alg-to-tile) or
// remade over new output dimensions (tile-group-routed-contractions):
// tiles sized for the target, the innermost dimension widest; and the
// tensor-core schedule a contraction's program gets
// (tile-form-contractions, tile-materialize-computed-operands).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_HEURISTICS_H
#define NAUTILUS_SCHEDULE_HEURISTICS_H

#include "autoscheduler/ContractionSpace.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

namespace nautilus {

/// The default schedule for an output of `extents` (std::nullopt where the
/// size is not bound) on `target`.
tile::ScheduleAttr defaultSchedule(mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<std::optional<int64_t>> extents,
                                   const TargetInfo &target);

/// `program`'s schedule with the largest `vector` (runs of consecutive
/// elements a thread holds) that makes each of its loads and stores move
/// 16 bytes a thread at a time, on a GPU target: 16 bytes over the
/// narrowest element read or written along the tile's innermost
/// dimension, halved until it divides the tile's innermost extent and the
/// elements a thread holds. 1 (the schedule as it is) on the CPU, with
/// `mma`, or when a load reads the innermost dimension other than as its
/// buffer's contiguous index (a transpose, a gather), where runs would only
/// spread a warp's reads. With `reduce_threads` the runs are of the shared
/// reductions' iterations instead: 16 bytes over the narrowest element
/// their rows hold, when the groups are consecutive and hold one element
/// each and every read of the reduced index is contiguous.
tile::ScheduleAttr withVectorRuns(tile::ProgramOp program,
                                  const TargetInfo &target);

/// The longest run (`vector`) `program`'s accesses allow: 16 bytes over
/// the narrowest element its loads read along the innermost output
/// dimension and its stores write (`ofReductions` false), or that its
/// top-level reductions read along their one reduced index (true); 1 where
/// a load reads that dimension other than as its buffer's contiguous index
/// (a transpose, a gather). withVectorRuns fits it to a schedule.
int64_t maxVectorRun(tile::ProgramOp program, bool ofReductions);

/// The programs a grid of `tile`s over `extents` has, an unbound extent
/// counting as `unbound` programs.
int64_t programCount(llvm::ArrayRef<std::optional<int64_t>> extents,
                     llvm::ArrayRef<int64_t> tile, int64_t unbound);

/// How a reduction reads what it folds (defaultReductionSchedule):
/// - Rows: each read that depends on the reduced index reads it as the
///   buffer's contiguous index, and no two output elements share a read
///   (a norm, a softmax, attention's row statistics);
/// - Columns: each such read's contiguous index is the output's innermost
///   one, the reduced index an outer one, and no two output elements share
///   it (a column sum, a pooling over tokens);
/// - Other: anything else (a GEMM, whose A a tile's columns share).
enum class ReductionShape { Rows, Columns, Other };

/// How `reduction` (a tile.reduce or tile.online_reduce at the top of
/// `program`) reads what it folds: each read that depends on the
/// outermost reduced (or streamed) index must depend on every output
/// dimension (no two elements of a tile share it, as a GEMM's tile shares
/// A across its columns) and be contiguous along the reduced index (rows)
/// or along the output's innermost dimension, the reduced index an outer
/// one (columns); and there must be such a read.
ReductionShape reductionShapeOf(tile::ProgramOp program,
                                mlir::Operation *reduction);

/// What a reduction's default schedule may do (defaultReductionSchedule).
struct ReductionScheduleOptions {
  /// The iterations each thread of a group should take, about.
  int64_t stepsPerThread = 16;
  /// The fewest iterations a reduction needs to be shared by groups.
  int64_t minShared = 64;
  /// Whether the reduction may be split across programs (reduce_split).
  bool splittable = true;
  /// A stream that recomputes a reduction constant along the innermost
  /// output dimension (attention's scores, per query row): on the CPU its
  /// tile spans that dimension whole (up to kWholeInnermostLimit), so each
  /// recomputed value is computed by one program only. On a GPU such a
  /// stream is a flash kernel.
  bool wholeInnermost = false;
  /// The program is a stream (tile.online_reduce): on the CPU, where too
  /// few programs would leave cores idle, its streamed index is split
  /// across programs (split-KV, `reduce_split`) in chunks of at least
  /// kMinStreamChunk.
  bool stream = false;
  /// Per output dimension but the innermost, how many consecutive indices
  /// one load of some operand serves (grouped-query attention's K and V
  /// over the heads of a group: H / G), or 1 (tile::isUniformOverTile). On
  /// the CPU, a stream whose tile holds few query rows (decoding) takes
  /// that many along the dimension, up to kWholeInnermostRows rows in all,
  /// so that its heads share each key and value load.
  llvm::SmallVector<int64_t> sharedLoadGroups;
  /// On a GPU, the most heads (output dimension rank - 3) a flash kernel's
  /// tile may hold, a power of two: its key and value reads are one row
  /// over each aligned tile of that many (flashHeadsRefusal: grouped-query
  /// attention's heads of a group). A stream with few query rows
  /// (decoding) takes as many as its tile's rows fit.
  int64_t flashHeads = 1;
};

/// The fewest points a chunk of a split stream streams.
inline constexpr int64_t kMinStreamChunk = 512;

/// The widest innermost tile extent wholeInnermost gives: attention's
/// head dimensions up to 256 whole (at 128, a 256-wide head was two
/// programs, each computing every score: B = 1, H = 4, N = M = 1024,
/// D = 256 ran 56-62 ms against 19 whole, once the stream's P V was kept
/// in memory a row at a time). Wider tiles make vectors of rows x D
/// elements whose compilation grows with them.
inline constexpr int64_t kWholeInnermostLimit = 256;
/// The rows (output elements but the innermost) such a stream's tile holds
/// at most.
inline constexpr int64_t kWholeInnermostRows = 16;

/// The default schedule of a program whose output is a reduction
/// (tile.reduce) over an outermost extent of `reduced` (std::nullopt where
/// not bound) read in `shape` on `target`. A reduction of rows or columns
/// over at least `minShared` elements is shared by groups of threads
/// (`reduce_threads`), R of them an output element, enough that each takes
/// about `stepsPerThread` of the iterations (at most kReductionBlockThreads
/// a block, at least a warp). For rows the groups are consecutive threads
/// and the tile shrinks (outer dimensions first) until its groups fit in a
/// block; for columns they interleave (`reduce_groups = "interleaved"`:
/// consecutive threads hold consecutive columns) and the tile keeps 32 of
/// its innermost extent. The tile then shrinks while the programs are
/// fewer than the multiprocessors. If it may, the reduction is also split
/// across programs (`reduce_split`, a power of two) while they still fit
/// kReductionBlocksPerMultiprocessor to a multiprocessor and each thread
/// keeps `stepsPerThread` iterations. Other reductions take
/// defaultSchedule's.
tile::ScheduleAttr
defaultReductionSchedule(mlir::MLIRContext *ctx,
                         llvm::ArrayRef<std::optional<int64_t>> extents,
                         std::optional<int64_t> reduced, ReductionShape shape,
                         const TargetInfo &target,
                         const ReductionScheduleOptions &options = {});
constexpr int64_t kReductionBlockThreads = 256;
/// A flash kernel's query rows a program (16 a warp) and keys a block.
constexpr int64_t kFlashRows = 64;
constexpr int64_t kFlashKeyBlock = 64;
/// The fewest keys a chunk of a split flash kernel streams (4 blocks).
constexpr int64_t kFlashMinChunk = 4 * kFlashKeyBlock;
constexpr int64_t kReductionBlocksPerMultiprocessor = 4;

/// The largest tile extent a contraction takes along M or N, and along N
/// for a wide wgmma problem whose operands are all loaded: a read that is
/// uniform over tiles of this many rows is uniform over every contraction
/// tile.
constexpr int64_t kMaxContractionTile = 128;
constexpr int64_t kMaxWideContractionTile = 256;

/// The output extents of a contraction program: M, N and the number of
/// (M, N) matrices (the product of the leading dimensions), each
/// std::nullopt when not bound.
struct ContractionExtents {
  std::optional<int64_t> m, n, batch;
  /// The reduced extent K, where bound: the contraction's, or before it is
  /// formed the reduction's (the program's first top-level one over one
  /// index).
  std::optional<int64_t> k;
  /// A grouped GEMM's routing (its program skips blocks that the
  /// tile.route of its table marks empty), where the routed rows and the
  /// experts are bound; m is then the rows' capacity.
  std::optional<autosched::ContractionProblem::Groups> grouped;
  /// Whether the program is a grouped GEMM's (it skips the blocks its
  /// routing marks empty), its routing bound or not.
  bool routed = false;

  /// The contraction search's problem over these extents (M and N bound):
  /// M, N, the matrices, K and the grouping; the rest as the search's
  /// defaults.
  autosched::ContractionProblem problem() const {
    autosched::ContractionProblem p;
    p.m = *m;
    p.n = *n;
    p.batch = batch.value_or(1);
    p.k = k;
    p.grouped = grouped;
    return p;
  }
};
ContractionExtents contractionExtents(tile::ProgramOp program);

/// The routing of a tile.route (the rows of its table, its experts and its
/// block), where its rows and experts are bound.
std::optional<autosched::ContractionProblem::Groups>
routedGroupsOf(tile::RouteOp route);
/// The routing whose empty blocks `program` skips (tile.skip_if_negative on
/// a tile.route's block_experts), where bound.
std::optional<autosched::ContractionProblem::Groups>
routedGroupsOf(tile::ProgramOp program);

/// Which of a contraction's operands the threads compute (a region)
/// rather than copy, and how many contractions share its lhs tile.
struct ComputedSides {
  bool lhs = false, rhs = false;
  /// Sibling contractions in one program (alg-fuse-shared-operands' gate
  /// and up projections): one lhs tile, `siblings` rhs tiles and as many
  /// accumulators. Siblings are loaded on both sides.
  int64_t siblings = 1;
  bool any() const { return lhs || rhs; }
};

/// The tensor-core schedule of a contraction program of rank `rank` over
/// `extents` on `target`: wgmma when `wgmma` (sm_90 with TMA-aligned rows),
/// mma.sync otherwise; `computed`: the operands the threads compute (with
/// wgmma, the producer warpgroup, which then keeps its registers).
/// Tiles are 128 x 128 (128 x 256 for a wide wgmma problem) or the
/// problem's size, then halved while twice as many tiles still fit in one
/// wave on the target's multiprocessors: a small or skinny problem is
/// spread over the machine rather than run on a few of its multiprocessors.
/// The larger of tile M and N is halved first (N on a tie), except that a
/// computed lhs, evaluated once a tile of N, keeps N (and a computed rhs
/// keeps M): halving the other extent does not add evaluations.
/// `splittableK`: the reduced extent, when bound and the contraction may
/// be split (splitKRefusal; siblings' bound extent, which never splits). If
/// even the smallest tiles leave half the multiprocessors idle, K is split
/// (`split_k`) into the most chunks, a power of two, whose programs still fit
/// in one wave, each chunk at least kMinSplitSteps steps of tile_k. Sibling
/// contractions take tile N at most 128 / siblings on mma.sync and (one
/// contraction's tile N, 128 or 256) / siblings on wgmma, rounded down to
/// a power of two and not below the smallest tile (32 on mma.sync, 64 on
/// wgmma), so that a thread keeps about as many accumulators as for one,
/// and never split K.
tile::ScheduleAttr defaultContractionSchedule(
    mlir::MLIRContext *ctx, unsigned rank, const ContractionExtents &extents,
    bool wgmma, ComputedSides computed, const TargetInfo &target,
    std::optional<int64_t> splittableK = std::nullopt);

/// The schedule of a program that sums a split contraction's partials:
/// `schedule` (the default) with smaller tiles while its programs are fewer
/// than the multiprocessors. The sum is a few loads an element, bound by
/// their latency, and an output this small (split K's) would otherwise
/// leave most of the machine idle. The outer extent halves first, then the
/// inner down to a warp's 32.
tile::ScheduleAttr
spreadOverMachine(tile::ScheduleAttr schedule,
                  llvm::ArrayRef<std::optional<int64_t>> extents,
                  const TargetInfo &target);

/// Whether chains of reductions over one index are streamed in one pass
/// (alg-fuse-reductions) on `target`; when not, `why` says why. By default
/// on every target: on GPUs, gpuStreamRefusal then says which streams run
/// (row streams everywhere, flash kernels where the lowering has tensor
/// cores: not yet AMD's).
bool defaultFusesReductions(const TargetInfo &target, std::string &why);

/// Whether a stream recomputes, point by point, the reductions its body
/// reads (attention's scores S: a contraction over the head dimension),
/// rather than reading them from a buffer written by a program of their
/// own; when not, `why`. Where streams run: their blocks of keys share
/// each read of the recomputed operands.
bool defaultRecomputesInStreams(const TargetInfo &target, std::string &why);

/// Whether contractions that share an operand are computed in the one
/// element-wise definition that reads them (alg-fuse-shared-operands);
/// when not, `why`. Wherever canFuseSharedOperands allows: the siblings
/// read the shared operand once and store no projection (a schedule
/// file's `"fuse_shared_operands": false` keeps them apart, and the
/// auto-scheduler's model weighs the two).
bool defaultFusesSharedOperands(const TargetInfo &target, std::string &why);

/// Whether `target`'s lowering can run contractions that share an operand
/// in one program: the CPU, whose lowering folds sibling reductions in one
/// loop nest, and NVIDIA GPUs, whose tensor-core pipelines (mma.sync's
/// and wgmma's) stage the shared lhs tile once for sibling contractions
/// (tile::siblingContracts); not
/// AMD's, whose programs have no tensor-core contractions. When not, `why`.
bool canFuseSharedOperands(const TargetInfo &target, std::string &why);

/// Whether tile-sweep-row-consumers writes an element-wise program that
/// reads a program's row results in that program: on GPUs (a row's
/// threads hold its results after their reduction); not on the CPU, whose
/// lowering has no sweep (`why`).
bool defaultSweepsRowConsumers(const TargetInfo &target, std::string &why);

/// Whether an element-wise definition that a reduction reads again for
/// several of its points (a contraction's computed operand) is recomputed
/// where it is read (alg-fuse-elementwise), rather than stored by a
/// program of its own: on every target. On NVIDIA GPUs
/// tile-materialize-computed-operands then stores a contraction's
/// computed operand that many tiles would recompute; a schedule file's
/// `"recompute_operands": false` stores it before any program is formed,
/// and the auto-scheduler's models weigh the two.
bool defaultRecomputesOperands(const TargetInfo &target, std::string &why);

} // namespace nautilus

#endif
