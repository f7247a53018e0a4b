//===- LeadingLoads.h - The loads a body makes before anything else -*- C++
//-*-===//
//
// A reduction's or a sweep's body loads some of its values from indices
// alone (no gather: a tile.load without `indirect` operands, at the body's
// top level). Those are its leading loads: the GPU lowering issues them
// ahead of the body's other operations (a step's copies loaded together,
// TileToGPU/Reductions.h), a swept program's threads keep them in
// registers between the reduction and the sweep (TileToGPU/HeldRows.h),
// and the GPU model counts what they keep (compiler/Schedule/
// GpuPrograms.cpp). One rule, stated here.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_LEADINGLOADS_H
#define NAUTILUS_TILE_UTILS_LEADINGLOADS_H

#include "dialects/Tile/TileOps.h"

#include "llvm/ADT/SmallVector.h"

namespace nautilus::tile {

/// Whether `load` is a leading load of the body it is at the top level of.
inline bool isLeadingLoad(LoadOp load) { return load.getIndirect().empty(); }

/// The leading loads of `body`, in order.
inline llvm::SmallVector<LoadOp> leadingLoadsOf(mlir::Block &body) {
  llvm::SmallVector<LoadOp> loads;
  for (LoadOp load : body.getOps<LoadOp>())
    if (isLeadingLoad(load))
      loads.push_back(load);
  return loads;
}

} // namespace nautilus::tile

#endif
