//===- OperandMaps.h - How a contraction's operands are stored --*- C++ -*-===//
//
// A tile.contract operand's index map takes (output dims..., k) to the
// buffer's indices; the tensor-core lowerings, WgmmaPlan and the verifier's
// models all ask of it whether K is its innermost (contiguous) index.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_OPERANDMAPS_H
#define NAUTILUS_TILE_UTILS_OPERANDMAPS_H

#include "mlir/IR/AffineMap.h"

namespace nautilus {

/// Whether the operand of `map` is stored with K innermost (K-major): its
/// map's last result is K, the map's last dimension. A computed operand
/// (a null map) is evaluated into K-major stages.
inline bool isKInnermost(mlir::AffineMap map) {
  if (!map)
    return true;
  auto last = mlir::dyn_cast<mlir::AffineDimExpr>(map.getResults().back());
  return last && last.getPosition() == map.getNumDims() - 1;
}

} // namespace nautilus

#endif
