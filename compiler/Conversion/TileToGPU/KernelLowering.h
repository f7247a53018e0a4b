//===- KernelLowering.h - A kernel's ops, one by one ------------*- C++ -*-===//
//
// The core of the GPU lowering: the ops of a tile program's blocks, each
// dispatched to its part (MemoryAccess, Reductions, LayoutConversion,
// Contractions) or, for element-local ops, lowered element by element.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_KERNELLOWERING_H
#define NAUTILUS_CONVERSION_TILETOGPU_KERNELLOWERING_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// Lowers the ops of `block` at the insertion point: the program's
/// epilogue (with a layout conversion just before it) element by element.
mlir::LogicalResult lowerBlock(KernelContext &kernel, mlir::Block &block);

/// Lowers `op` for the elements firstElement to endElement, setting the
/// fragment of its result.
mlir::LogicalResult lowerOp(KernelContext &kernel, mlir::Operation &op);

/// The elements a store among `ops` writes as one vector (1 if none).
int64_t elementRun(KernelContext &kernel,
                   llvm::iterator_range<mlir::Block::iterator> ops);

/// Lowers element-local ops `ops` element by element, in runs of `step`
/// elements (those a store writes as one vector: elementRun): all of a
/// run's ops before the next run's. Only the runs `selected` takes (by
/// first element), each between `prepare(first, end)` and
/// `finish(first, end)`.
mlir::LogicalResult
lowerElementwise(KernelContext &kernel,
                 llvm::iterator_range<mlir::Block::iterator> ops, int64_t step,
                 llvm::function_ref<bool(int64_t)> selected = nullptr,
                 llvm::function_ref<void(int64_t, int64_t)> prepare = nullptr,
                 llvm::function_ref<void(int64_t, int64_t)> finish = nullptr);

} // namespace tiletogpu
} // namespace nautilus

#endif
