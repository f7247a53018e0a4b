//===- DefaultSchedule.h - A program's schedule before any search -*- C++ -*-===//
//
// The schedule a program gets when it is made (convert-alg-to-tile) or
// remade over new output dimensions (tile-group-routed-contractions):
// tiles sized for the target, the innermost dimension widest; and the
// tensor-core schedule a contraction's program gets
// (tile-form-contractions, tile-materialize-computed-operands).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_DEFAULTSCHEDULE_H
#define NAUTILUS_CONVERSION_DEFAULTSCHEDULE_H

#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"

namespace nautilus {

/// The default schedule for an output of `extents` (std::nullopt where the
/// size is not bound) on `target`.
tile::ScheduleAttr defaultSchedule(mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<std::optional<int64_t>> extents,
                                   const TargetInfo &target);

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
};
ContractionExtents contractionExtents(tile::ProgramOp program);

/// The tensor-core schedule of a contraction program of rank `rank` over
/// `extents` on `target`: wgmma when `wgmma` (sm_90 with TMA-aligned rows),
/// mma.sync otherwise; `computes`: an operand is computed by the threads
/// (with wgmma, by the producer warpgroup, which then keeps its registers).
/// Tiles are 128 x 128 (128 x 256 for a wide wgmma problem) or the
/// problem's size, then halved while twice as many tiles still fit in one
/// wave on the target's multiprocessors: a small or skinny problem is
/// spread over the machine rather than run on a few of its multiprocessors.
tile::ScheduleAttr defaultContractionSchedule(mlir::MLIRContext *ctx,
                                              unsigned rank,
                                              const ContractionExtents &extents,
                                              bool wgmma, bool computes,
                                              const TargetInfo &target);

} // namespace nautilus

#endif
