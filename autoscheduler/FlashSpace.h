//===- FlashSpace.h - A flash kernel's schedules and their model -*- C++
//-*-===//
//
// The search space of a flash kernel (a stream of two contractions on
// tensor cores: attention's scores, online softmax and P V, one program a
// tile of query rows) on sm_80 and sm_90: its instructions (mma.sync, or
// wgmma where the head dimension is a multiple of 64), its warps (16 query
// rows each), its key block (tile_k) and its split of the keys across
// programs (split-KV), and its stages (2 or 3: K and V blocks in flight).
//
// The model (docs/autoscheduler.md, "Flash kernels"), per key block of
// the programs resident on a multiprocessor: the two contractions'
// tensor-core time, the shared-memory reads that feed them, the softmax's
// special functions and f32 operations, the K and V blocks read from L2,
// each unit shared by the resident programs; a warp runs its contractions
// and its softmax in turn, overlapped with another warp's where a
// scheduler has two; and a step waits at least a DRAM round trip over
// the blocks in flight (stages - 1 ahead). Waves over the multiprocessors (occupancy
// from threads, registers and shared memory), each reading Q, writing O,
// and reading K and V once a head it covers; split-KV's combining program.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_FLASHSPACE_H
#define NAUTILUS_AUTOSCHEDULER_FLASHSPACE_H

#include "autoscheduler/GpuTerms.h"
#include "autoscheduler/SpaceSearch.h"
#include "compiler/Target/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// A flash kernel as the model sees it.
struct FlashProblem {
  int64_t heads = 1;   // the product of the output's outer extents (B x H)
  int64_t queries = 1; // N
  int64_t keys = 1;    // M, the streamed extent
  int64_t headDim = 64;
  int64_t operandBytes = 2; // Q, K and V elements
  int64_t outputBytes = 2;
  /// wgmma may run it (sm_90, the head dimension a multiple of 64).
  bool wgmmaAllowed = false;
  /// The splits of the keys (`reduce_split`) the program allows.
  std::vector<int64_t> splits{1};
  /// The most heads a tile may hold (a power of two): grouped-query heads
  /// that share each K and V block, which a tile of several loads once.
  int64_t maxHeadsPerTile = 1;
};

struct FlashCandidate {
  bool wgmma = false;
  int64_t warps = 4; // 16 query rows each
  int64_t keyBlock = 64;
  /// K and V blocks in flight: a step issues the block stages - 1 ahead.
  int64_t stages = 2;
  int64_t split = 1;
  /// Heads a tile holds (mma.sync), their query rows stacked: rows() / heads
  /// a head.
  int64_t heads = 1;
  /// The K and V stages' swizzle (bytes): the space's is the 128-byte one,
  /// whose ldmatrix reads are conflict-free; a schedule read back may have
  /// another (wgmma's stages are always 128-byte swizzled).
  int64_t swizzleBytes = 128;
  int64_t rows() const { return 16 * warps; }
  int64_t rowsPerHead() const { return rows() / heads; }
  int64_t threads() const { return 32 * warps; }
  /// "mma_sync 64 rows, keys 64, split 2", "mma_sync 16 rows (4 heads),
  /// keys 64"
  std::string describe() const;
  bool operator==(const FlashCandidate &other) const;
};

struct FlashCost {
  double totalUs = 0;
  double tensorUs =
      0; // the two contractions, or the shared memory feeding them
  double softmaxUs = 0; // special functions and f32 operations
  double memoryUs = 0;  // DRAM
  double latencyUs = 0; // launch, waves' fills
  double splitSumUs = 0;
  int64_t programs = 0;
  int64_t blocksPerMultiprocessor = 0;
  int64_t waves = 0;
  int64_t registers = 0;   // estimated a thread
  int64_t sharedBytes = 0; // a program's stages
  /// The terms unscaled (the times above are under the target's
  /// gpuModelScales).
  GpuTerms terms;
};

struct RankedFlashCandidate {
  FlashCandidate candidate;
  FlashCost cost;
};

/// The predicted time of `candidate` for `problem` on `target`.
FlashCost estimateFlash(const FlashProblem &problem,
                        const FlashCandidate &candidate,
                        const TargetInfo &target);

/// Every candidate the lowering runs within the target's limits: wgmma
/// with 4 or 8 warps and key blocks of 64 (one swizzle span); mma.sync
/// with 1 to 8 warps and key blocks of 32, 64 or 128 no fewer than its
/// rows, and, where the queries are fewer than 64 and heads share K and
/// V, tiles of up to maxHeadsPerTile heads (each the queries rounded up to
/// a power of two, or more to fill a warp's 16 rows); each split allowed
/// that leaves every chunk a block; the stages within the block's shared
/// memory, a thread's registers within what it may address.
std::vector<FlashCandidate> flashSpace(const FlashProblem &problem,
                                       const TargetInfo &target);

/// The space searched as `options` say (SpaceSearch.h) and ranked by the
/// model, best first; equal predictions (to 10 ns) go to the candidate
/// enumerated first. At most `keep` (0: all); `spaceSize` receives the
/// space's size, `predicted` how many candidates the search predicted.
std::vector<RankedFlashCandidate>
rankFlashSchedules(const FlashProblem &problem, const TargetInfo &target,
                   size_t keep = 0, size_t *spaceSize = nullptr,
                   const SearchOptions &options = {},
                   size_t *predicted = nullptr);

} // namespace nautilus::autosched

#endif
