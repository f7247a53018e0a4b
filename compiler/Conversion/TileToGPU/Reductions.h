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

namespace nautilus {
namespace tiletogpu {

/// This thread's elements of `reduce`'s result (with reduce_threads, its
/// group's whole); failure where its body has no lowering.
mlir::FailureOr<Fragment> lowerReduce(KernelContext &kernel,
                                      tile::ReduceOp reduce);

} // namespace tiletogpu
} // namespace nautilus

#endif
