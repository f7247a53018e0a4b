//===- Reductions.h - tile.reduce across a kernel's threads -----*- C++ -*-===//
//
// A tile.reduce becomes a loop nest carrying each thread's E accumulators
// in registers, the body lowered in its innermost loop. With
// `reduce_threads = R`, the R threads of a group split each top-level
// reduction and combine their partial results by shuffles and shared
// memory.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_REDUCTIONS_H
#define NAUTILUS_CONVERSION_TILETOGPU_REDUCTIONS_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"
#include "dialects/Tile/Utils/GroupSplit.h"

namespace nautilus {
namespace tiletogpu {

/// The leading loads of a copy of a reduction's (or stream's) body, read
/// ahead of it: each load's result and its elements.
using LoadedAhead = llvm::SmallVector<std::pair<mlir::Value, Fragment>>;

/// The leading loads `leadingLoads` (loads of `body` that read only
/// indices) of each copy of `body` at the indices `ivs` (`step` apart) of
/// its argument `level`, read ahead of the copies: with step 1 and copies
/// the schedule's reduction run, each load reading a run of a row as one
/// vector (loadRunAlongReduction), else each copy's element by element,
/// clamped into its buffer. A single copy gets one empty entry (its loads
/// are left in place).
llvm::SmallVector<LoadedAhead>
loadAhead(KernelContext &kernel, mlir::Block &body,
          llvm::ArrayRef<tile::LoadOp> leadingLoads, unsigned level,
          llvm::ArrayRef<mlir::Value> ivs, int64_t step);

/// `loads` (leading loads of `body`) at index `iv` of its argument
/// `level`, element by element, each clamped into its buffer.
LoadedAhead loadAt(KernelContext &kernel, mlir::Block &body,
                   llvm::ArrayRef<tile::LoadOp> loads, unsigned level,
                   mlir::Value iv);

/// Binds argument `level` of `body` to `iv` for a copy of the body
/// lowered again (a reduction's or a sweep's point): the body's fragments
/// forgotten, its leading loads' (`loaded`) set ahead. endBodyCopy undoes
/// what the lowering of the copy must not keep.
void beginBodyCopy(KernelContext &kernel, mlir::Block &body, unsigned level,
                   mlir::Value iv, const LoadedAhead &loaded);
void endBodyCopy(KernelContext &kernel, const LoadedAhead &loaded);

/// The points of a loop step's `copies` copies of a body: `first`, then
/// `step` apart.
llvm::SmallVector<mlir::Value> copyPoints(KernelContext &kernel,
                                          mlir::Value first, int64_t copies,
                                          int64_t step);

/// How the R threads of a group (reduce_threads) split an index from
/// `first` to `end` (tile::GroupSplitShape): thread r takes r, r + R, ...,
/// `copies` of them a step of its main loop (their loads in flight
/// together); or with runs (`vector`), V consecutive points V r .. V r +
/// V - 1, then V R further on, a run a step (its loads of a row one
/// vector). What the main loop leaves goes one point at a time.
struct GroupSplit : tile::GroupSplitShape {
  /// Emits this thread's start and, with several copies, where its main
  /// loop ends: only where every buffer `leadingLoads` read has elements
  /// (else every point goes to the rest, loads guarded).
  GroupSplit(KernelContext &kernel, mlir::Value first, mlir::Value end,
             tile::GroupSplitShape shape,
             llvm::ArrayRef<tile::LoadOp> leadingLoads);
  /// The first point after the main loop (emitted after it).
  mlir::Value rest(KernelContext &kernel) const;

  mlir::Value start, mainEnd;
};

/// Merges one element of another thread's partial results into this
/// thread's (`mine`, `theirs`: a value for each part), the merged values
/// in the same order.
using GroupMerge = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    int64_t element, llvm::ArrayRef<mlir::Value> mine,
    llvm::ArrayRef<mlir::Value> theirs)>;

/// Merges each thread's partial results `parts` (several values an
/// element: a stream's leaders and sums) with those of the other threads
/// of its group (reduce_threads): by butterfly shuffles within a warp,
/// then through shared memory across the group's warps. Every thread of
/// the group ends with the whole.
llvm::SmallVector<Fragment>
combineAcrossGroup(KernelContext &kernel, llvm::SmallVector<Fragment> parts,
                   GroupMerge merge);

/// This thread's elements of `reduce`'s result (with reduce_threads, its
/// group's whole); failure where its body has no lowering.
mlir::FailureOr<Fragment> lowerReduce(KernelContext &kernel,
                                      tile::ReduceOp reduce);

} // namespace tiletogpu
} // namespace nautilus

#endif
