//===- RouteLowering.h - tile.route on the threads of one block -*- C++ -*-===//
//
// The counting sort of `tile.route` for the `threads` threads of one GPU
// block (barriers between its phases, atomic adds to count and to place).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_ROUTELOWERING_H
#define NAUTILUS_CONVERSION_TILETOGPU_ROUTELOWERING_H

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {

/// Emits `route` at `b`'s insertion point, its operands looked up in
/// `scalars`, for thread `threadId` of `threads`.
void lowerRouteOnBlock(mlir::OpBuilder &b, tile::RouteOp route,
                       const mlir::IRMapping &scalars, mlir::Value threadId,
                       int64_t threads);

} // namespace nautilus

#endif
