//===- PersistentLoops.h - A kernel's loops over its tiles ------*- C++ -*-===//
//
// A persistent program (one block a multiprocessor) loops over its tiles
// around the warp-specialised wgmma pipeline: the producer warpgroup's
// loop of copies, and the consumers' loop over the whole tile program. A
// program that skips tiles (`tile.skip_if_negative`) tests each tile
// first.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_PERSISTENTLOOPS_H
#define NAUTILUS_CONVERSION_TILETOGPU_PERSISTENTLOOPS_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// A persistent program over `grid`: loops over its tiles around the
/// pipeline.
mlir::LogicalResult runPersistent(KernelContext &kernel,
                                  llvm::ArrayRef<mlir::Value> grid);

/// Whether the tile at `origin` runs (an i1), for a program that skips
/// tiles (`tile.skip_if_negative`); null for one that runs them all.
mlir::Value tileRuns(KernelContext &kernel, llvm::ArrayRef<mlir::Value> origin);

/// A loop over `count` tiles, the i-th at program id `tileAt(i)` of
/// `grid`, emitting `body(run, origin)` for each tile that runs: `run`
/// counts the tiles run before it, so that a pipeline numbering its
/// steps by it carries its stages and phases over skipped tiles.
mlir::LogicalResult loopOverTiles(
    KernelContext &kernel, mlir::Value count,
    llvm::function_ref<mlir::Value(mlir::Value)> tileAt,
    llvm::ArrayRef<mlir::Value> grid,
    llvm::function_ref<mlir::LogicalResult(mlir::Value,
                                           llvm::ArrayRef<mlir::Value>)>
        body);

} // namespace tiletogpu
} // namespace nautilus

#endif
