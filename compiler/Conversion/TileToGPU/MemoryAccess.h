//===- MemoryAccess.h - A kernel's loads and stores -------------*- C++ -*-===//
//
// tile.load and tile.store for the elements a thread holds: guarded scalar
// accesses at each element's indices, or for a run of consecutive elements
// of a row inside the buffer, one vector access; and the sizes and buffer
// extents the accesses index with.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_MEMORYACCESS_H
#define NAUTILUS_CONVERSION_TILETOGPU_MEMORYACCESS_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// Loads elements firstElement to endElement of `load` into `result`,
/// reusing elements the same block read before.
void lowerLoad(KernelContext &kernel, tile::LoadOp load, Fragment &result);

/// The elements of `load` read as one vector: a run of its layout's
/// consecutive registers along a row, when they read consecutive
/// elements of the buffer (at most 16 bytes); 1 otherwise.
int64_t loadRunLength(KernelContext &kernel, tile::LoadOp load);

/// Whether `load` (no gathers) reads map dimension `dim` as its
/// buffer's contiguous index and nowhere else: a run of iterations of
/// that dimension reads consecutive elements.
bool readsRunOf(tile::LoadOp load, unsigned dim);

/// The elements `load` reads for element 0 of the tile at the reduced
/// indices `ivs` (consecutive values of the innermost one): one vector
/// load where the run lies inside the buffer, aligned; else each element
/// with a branch-free clamped load (in a main loop whose buffers are not
/// empty).
llvm::SmallVector<mlir::Value, 8>
loadRunAlongReduction(KernelContext &kernel, tile::LoadOp load,
                      llvm::ArrayRef<mlir::Value> ivs);

/// Stores the elements firstElement to endElement of the stored tile.
void lowerStore(KernelContext &kernel, tile::StoreOp store);

/// The elements a store of `value` writes as one vector.
int64_t storeWidth(KernelContext &kernel, mlir::Value value);

/// The innermost extent of program argument `buffer` as the kernel's
/// sizes give it.
mlir::Value innermostExtent(KernelContext &kernel, mlir::Value buffer);

/// Makes the sizes the plan binds constants, and bound buffers static
/// (`body`: the kernel's entry block).
void specialiseBoundSizes(KernelContext &kernel, mlir::Block &body);

} // namespace tiletogpu
} // namespace nautilus

#endif
