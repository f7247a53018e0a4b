//===- Sweeps.h - tile.sweep over a kernel's threads ------------*- C++ -*-===//
//
// A tile.sweep becomes a loop over the swept index that lowers its body at
// each point and stores each thread's elements. With `reduce_threads = R`
// the R threads of a group split the points as they split the program's
// reductions (GroupSplit: the same points, so a thread reads again what it
// read), each storing its own: a run of a row as one vector store.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_SWEEPS_H
#define NAUTILUS_CONVERSION_TILETOGPU_SWEEPS_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// Lowers `sweep`; failure where its body has no lowering.
mlir::LogicalResult lowerSweep(KernelContext &kernel, tile::SweepOp sweep);

} // namespace tiletogpu
} // namespace nautilus

#endif
