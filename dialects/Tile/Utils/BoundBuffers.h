//===- BoundBuffers.h - Buffers whose every dimension is bound --*- C++ -*-===//
//
// Where the plan binds every dimension of a program's buffer (--shape),
// the GPU and CPU lowerings read it through a view of its static shape
// and row-major strides, so that its strides, bounds and the clamps and
// masks against them fold to constants. The launch still passes the
// buffer's sizes; the runtime checks that each tensor has the bound shape
// before it launches (runtime/LaunchChecks.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_BOUNDBUFFERS_H
#define NAUTILUS_TILE_UTILS_BOUNDBUFFERS_H

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"

namespace nautilus::tile {

/// A view of `buffer` (argument `arg` of `program`, as the lowering sees
/// it) with its static shape and row-major strides, made by
/// memref.reinterpret_cast (its identity layout says its offset is 0; a
/// memref.cast would fold back into its loads); a null Value where a
/// dimension is unbound, the buffer's layout is not the identity or its
/// shape is static already.
mlir::Value boundBufferView(mlir::OpBuilder &b, mlir::Location loc,
                            ProgramOp program, unsigned arg,
                            mlir::Value buffer);

} // namespace nautilus::tile

#endif
