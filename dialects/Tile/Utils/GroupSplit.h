//===- GroupSplit.h - How a group of threads splits an index ----*- C++ -*-===//
//
// With `reduce_threads = R`, the R threads of a group split a reduction's
// index (and a sweep's points: tile.sweep) between them. Thread r of the
// group takes r, r + R, ..., `copies` of them a step of its main loop
// (their loads in flight together); or with runs (a schedule's `vector`
// under reduce_threads), V consecutive points V r .. V r + V - 1 a step,
// then V R further on. What the main loop leaves goes one point at a time
// (with runs, run by run). The GPU lowering (TileToGPU/Reductions.cpp,
// Sweeps.cpp) emits these loops and the verifier
// (compiler/Verify/CoverageInvariants.cpp) proves that a sweep's loops
// write every point once: both take the numbers from here.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_GROUPSPLIT_H
#define NAUTILUS_TILE_UTILS_GROUPSPLIT_H

#include <algorithm>
#include <cstdint>

namespace nautilus::tile {

/// The iterations of a reduction shared by a group of threads
/// (reduce_threads) that each thread evaluates in one step of its loop.
constexpr int64_t kSharedReductionCopies = 4;

/// The copies a step of a group's split of an index takes where each
/// thread holds `elementsPerThread` tile elements: fewer with more
/// elements (as many loads in flight, fewer live).
inline int64_t sharedReductionCopies(int64_t elementsPerThread) {
  return std::max<int64_t>(1, kSharedReductionCopies / elementsPerThread);
}

/// The numbers of a group's split.
struct GroupSplitShape {
  int64_t threads = 1; // R
  bool runs = false;
  /// The run's length V, the points a main-loop step takes (`spacing`
  /// apart) and the main loop's stride.
  int64_t run = 1, copies = 1, spacing = 1, stride = 1;

  /// The first point of the group's thread `lane` (from the index's 0).
  int64_t firstPoint(int64_t lane) const { return runs ? lane * run : lane; }
};

/// The split of `threads` threads taking `copies` points a step (with
/// `runs`: a run of `run` points a step instead).
inline GroupSplitShape groupSplitShape(int64_t threads, int64_t run,
                                       int64_t copies, bool runs) {
  GroupSplitShape s;
  s.threads = threads;
  s.runs = runs;
  s.run = run;
  s.copies = runs ? run : copies;
  s.spacing = runs ? 1 : threads;
  s.stride = runs ? run * threads : threads * s.copies;
  return s;
}

/// A tile.sweep's split under a schedule of `threads` (reduce_threads),
/// `run` (its reduction run) and `elementsPerThread`: the split of its
/// rows' reductions, so that each thread sweeps the points it reduced;
/// runs only where a thread holds one element. One thread alone takes
/// every point, one at a time.
inline GroupSplitShape sweepSplitShape(int64_t threads, int64_t run,
                                       int64_t elementsPerThread) {
  if (threads == 1)
    return groupSplitShape(1, 1, 1, /*runs=*/false);
  return groupSplitShape(threads, run,
                         sharedReductionCopies(elementsPerThread),
                         run > 1 && elementsPerThread == 1);
}

} // namespace nautilus::tile

#endif
