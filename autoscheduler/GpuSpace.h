//===- GpuSpace.h - GPU programs without tensor cores, and their model -*-===//
//
// The search space of a GPU program that is not a contraction: an
// element-wise program, or a reduction of rows (each output folds a
// contiguous row: softmax's maximum and sum, a norm's statistics) or of
// columns (each output folds a column: a column sum). A candidate is its
// tile (the outputs a program instance computes), its threads, the groups
// of threads that share each reduction (`reduce_threads`), the runs of
// consecutive elements a thread moves at once (`vector`) and the split of
// the reduced extent across programs (`reduce_split`).
//
// The model (docs/autoscheduler.md, "GPU programs without tensor cores")
// is that of a memory-bound kernel, per wave of programs over the
// multiprocessors:
//   - DRAM time: the wave's unique bytes over the bandwidth the wave can
//     keep in flight (Little's law: its resident threads' outstanding
//     loads over a DRAM round trip, at most the peak);
//   - L1 time: the 32-byte sectors its warps' loads touch, at the
//     multiprocessor's bytes a cycle (reads that do not coalesce pay for
//     the whole sector), counted from the lowering's distribution of the
//     program over its threads (simtDistribution, WarpAccess.h);
//   - issue time: warp instructions (loads, operations, the loop) at four a
//     cycle, f32 operations at the SIMT lanes, special functions at theirs;
//   - a wave lasting at least a DRAM round trip, and the groups'
//     combination after it (shuffles, and shared memory with a barrier
//     beyond a warp);
//   - occupancy from threads and registers a multiprocessor; waves
//     quantised; a split's second program and a launch.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_GPUSPACE_H
#define NAUTILUS_AUTOSCHEDULER_GPUSPACE_H

#include "autoscheduler/GpuTerms.h"
#include "autoscheduler/SpaceSearch.h"
#include "autoscheduler/WarpAccess.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/Layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::autosched {

/// The largest tile an element-wise candidate takes along the outputs'
/// second innermost dimension.
constexpr int64_t kMaxOuterTile = 64;
/// The most outputs a reduction's candidate holds (a column reduction's;
/// a row reduction's 64), the innermost dimension filled first.
constexpr int64_t kMaxReductionOutputs = 256;

enum class GpuProgramKind {
  Elementwise,     // no reduction
  RowReduction,    // each output folds a row read along its contiguous index
  ColumnReduction, // each output folds a column; outputs contiguous
};

/// A program as the GPU model sees it.
struct GpuProgram {
  GpuProgramKind kind = GpuProgramKind::Elementwise;
  std::vector<int64_t> extents; // output extents, bound
  int64_t reduced = 0;          // the reduced extent (reductions)
  /// Whether the reduced extent is bound at compile time, not a sample of
  /// an unbound size (GpuUnboundSizes.h): only then may the threads keep
  /// their points of the rows for a sweep (the lowering unrolls them).
  bool reducedBound = true;
  /// Bytes read a point (an output element, times the reduced extent for a
  /// reduction) that no other point reads: DRAM traffic.
  int64_t uniqueBytesPerPoint = 0;
  /// Bytes read a point that other points read too (a norm's weights, a
  /// bias along the rows): served by the caches, but still loaded.
  int64_t sharedBytesPerPoint = 0;
  /// Bytes an output element reads once, outside its reduction (an
  /// element-wise epilogue's other operands), and writes.
  int64_t bytesPerOutput = 0;
  /// Loads a point issues (each a warp instruction, or one a run).
  int64_t loadsPerPoint = 1;
  /// f32 operations and special functions (exp, log, rsqrt, ...) a point.
  int64_t work = 0;
  int64_t specialFunctions = 0;
  /// The narrowest element moved, bytes: a run is 16 bytes of it.
  int64_t elementBytes = 4;
  /// The longest run (`vector`) the program's accesses allow (16 bytes of
  /// the narrowest element), or 1 where they do not move runs (a gather of
  /// a row's elements, a transposed read): along the outputs' innermost
  /// dimension, but along the reduced index for a reduction that groups may
  /// share (maxReduceThreads above 1).
  int64_t maxVector = 1;
  /// The splits (`reduce_split`) the program allows, 1 always among them.
  std::vector<int64_t> splits{1};
  /// The largest group (`reduce_threads`) allowed; 1: the reduction cannot
  /// be shared (its program routes rows, say).
  int64_t maxReduceThreads = 1;
  /// A row reduction that writes its rows' elements after it (a
  /// `tile.sweep`, tile-sweep-row-consumers), a point of the rows at a
  /// time: the loads a point issues, the bytes of them that read again
  /// what the reduction read (from registers where the threads keep their
  /// points, dialects/Tile/Utils/HeldRows.h; else from the L1 cache where
  /// a multiprocessor's rows fit in half of it, else from DRAM), the bytes
  /// it reads from DRAM besides and writes, its f32 operations and
  /// special functions, and the loads a thread keeps in registers where
  /// it keeps its rows (those of the re-reads that gather nothing: the
  /// lowering's leading loads) and their bytes (tile::keptBytesOf: a
  /// 32-bit register each at least).
  struct Sweep {
    int64_t loadsPerPoint = 0;
    int64_t rereadBytesPerPoint = 0;
    int64_t uniqueBytesPerPoint = 0;
    int64_t storeBytesPerPoint = 0;
    int64_t work = 0;
    int64_t specialFunctions = 0;
    int64_t keptLoadsPerPoint = 0;
    int64_t keptBytesPerPoint = 0;
  };
  std::optional<Sweep> sweep;
};

/// A schedule of a GPU program without tensor cores.
struct GpuCandidate {
  std::vector<int64_t> tile;
  int64_t threads = 1;
  int64_t reduceThreads = 1;
  int64_t vector = 1;
  int64_t split = 1;
  bool interleaved = false; // groups interleave (a column reduction's)
  /// "tile 4 threads 256 groups of 64 runs of 4"
  std::string describe() const;
  bool operator==(const GpuCandidate &other) const;
};

struct GpuCost {
  double totalUs = 0;
  double memoryUs = 0;  // DRAM
  double cacheUs = 0;   // L1 sectors
  double computeUs = 0; // issue, SIMT lanes, special functions
  double latencyUs = 0; // the launch, the last stores, the groups' combination
  double splitSumUs = 0;
  int64_t programs = 0;
  int64_t blocksPerMultiprocessor = 0;
  int64_t waves = 0;
  int64_t registers = 0; // estimated a thread
  /// The 32-byte sectors a warp's load request touches (read from the
  /// program's layout), and the fewest its bytes could; the requests a
  /// load of runs turns into (1 where each is a vector load).
  double sectorsPerLoad = 0, fewestSectorsPerLoad = 0, requestsPerLoad = 1;
  /// A swept program's (GpuProgram::Sweep): where its re-reads come from,
  /// "registers", "L1" or "DRAM"; empty for any other.
  std::string sweepRereads;
  /// The terms unscaled (the times above are under the target's
  /// gpuModelScales).
  GpuTerms terms;
};

struct RankedGpuCandidate {
  GpuCandidate candidate;
  GpuCost cost;
};

/// The predicted time of `candidate` for `program` on the GPU `target`.
GpuCost estimateGpu(const GpuProgram &program, const GpuCandidate &candidate,
                    const TargetInfo &target);

/// The lowering's distribution of one step of `candidate`'s program over its
/// threads (inputs register, lane, warp). An element-wise program's tile
/// in runs of `vector` (tile::ScheduleAttr::getDistribution). A
/// reduction's tile over its groups of threads, row-major blocked (in
/// runs of `vector` without groups, as getDistribution's); within a group,
/// thread g reads reduced index g * run, and its run's registers the next
/// indices (the lowering's GroupSplit). A group's threads are consecutive, or
/// with interleaved groups (a column reduction's) one every G threads. Outputs:
/// the tile's dimensions, and a reduction's reduced index, last for a row
/// reduction and first for a column one (as the tensor it reads lays them out).
/// The model's coalescing term reads the sectors its loads touch from it.
/// None where the schedule's has none (getDistribution: a tile or threads
/// not powers of two).
std::optional<layout::LinearLayout>
simtDistribution(const GpuProgram &program, const GpuCandidate &candidate);

/// The sectors a warp's loads of `candidate` touch (WarpAccess.h), read
/// from its distribution in the tensor its loads read (an element-wise
/// program's outputs, a row reduction's [outputs.., reduced], a column
/// reduction's [reduced, outputs..]); where it has none, as if they
/// coalesced.
WarpAccessCost gpuLoadSectors(const GpuProgram &program,
                              const GpuCandidate &candidate,
                              const TargetInfo &target);

/// Whether `candidate` fits `target`'s limits for `program`: a thread's
/// estimated registers within what it may address, and its block's within
/// the register file.
bool fitsGpuTarget(const GpuProgram &program, const GpuCandidate &candidate,
                   const TargetInfo &target);

/// Every candidate of `program`'s space on `target` (those that fit it).
std::vector<GpuCandidate> gpuSpace(const GpuProgram &program,
                                   const TargetInfo &target);

/// `program`'s space searched as `options` say (SpaceSearch.h) and ranked
/// by the model, best first; equal predictions (to 10 ns) go to the larger
/// tile, then more threads, then longer runs, then the candidate
/// enumerated first. At most `keep` (0: all); `spaceSize` receives the
/// space's size, `predicted` how many candidates the search predicted.
std::vector<RankedGpuCandidate>
rankGpuSchedules(const GpuProgram &program, const TargetInfo &target,
                 size_t keep = 0, size_t *spaceSize = nullptr,
                 const SearchOptions &options = {},
                 size_t *predicted = nullptr);

} // namespace nautilus::autosched

#endif
