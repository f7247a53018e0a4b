//===- Streams.h - tile.online_reduce in a GPU kernel -----------*- C++ -*-===//
//
// A stream on a GPU is one flash kernel (dialects/Tile/Utils/
// ContractionStream.h says which streams are): StreamToMmaSync.cpp; the
// stream that combines a split flash kernel's partials is run by each
// thread on its elements: ElementStreams.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_STREAMS_H
#define NAUTILUS_CONVERSION_TILETOGPU_STREAMS_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// This thread's fragment of each of `stream`'s results, in the program's
/// layout: with a tensor-core schedule as a flash kernel (its layout is
/// the mma accumulator layout), else each thread streaming its own
/// elements (lowerElementStream); failure, with a diagnostic, for a stream
/// the flash kernel does not run.
mlir::FailureOr<llvm::SmallVector<Fragment>>
lowerStream(KernelContext &kernel, tile::OnlineReduceOp stream);

/// `stream` run by each thread on its elements, a point at a time
/// (ElementStreams.cpp).
mlir::FailureOr<llvm::SmallVector<Fragment>>
lowerElementStream(KernelContext &kernel, tile::OnlineReduceOp stream);

} // namespace tiletogpu
} // namespace nautilus

#endif
