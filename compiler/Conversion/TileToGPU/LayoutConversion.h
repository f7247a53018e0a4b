//===- LayoutConversion.h - Layout conversions in shared memory -*- C++ -*-===//
//
// A tile.convert_layout moves a tile between two distributions over the
// threads through shared memory: every thread writes its elements into a
// staging copy of the tile, the threads that hold the tile synchronise,
// and each reads back the elements the new layout gives it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_LAYOUTCONVERSION_H
#define NAUTILUS_CONVERSION_TILETOGPU_LAYOUTCONVERSION_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// Lowers the element-local ops of `feed` (which feed only `convert`),
/// `convert`, then those of `tail` (the program's epilogue after it,
/// which alone uses its result): where the layouts allow, each element
/// of `feed` is computed just before it is written to shared memory and
/// the tail runs band by band as the converted elements are read back,
/// so that a band's elements are live at a time rather than the whole
/// tile's twice.
mlir::LogicalResult
lowerConvert(KernelContext &kernel, tile::ConvertLayoutOp convert,
             llvm::iterator_range<mlir::Block::iterator> feed,
             llvm::iterator_range<mlir::Block::iterator> tail);

} // namespace tiletogpu
} // namespace nautilus

#endif
