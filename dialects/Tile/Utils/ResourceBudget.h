//===- ResourceBudget.h - Shared memory and registers of a program -*- C++ -*-===//
//
// What a tile program's pipeline takes of a block's shared memory and of
// its threads' registers: read by the tile passes that size layout
// conversions (tile-assign-layouts) and split contractions, by the GPU
// lowering, and by the launch plan (the dynamic shared memory to opt into).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_RESOURCEBUDGET_H
#define NAUTILUS_TILE_UTILS_RESOURCEBUDGET_H

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

#include <algorithm>
#include <cstdint>

namespace nautilus {

/// A layout conversion moves a tile of `rows` rows of `rowBytes` bytes
/// (padded) through shared memory in bands of rows: the fewest bands (a
/// power of two dividing `rows`) that fit `availableBytes`, or 0 if even
/// one row does not.
inline int64_t stagingBands(int64_t rows, int64_t rowBytes,
                            int64_t availableBytes) {
  for (int64_t bands = 1; bands <= rows && rows % bands == 0; bands *= 2)
    if ((rows / bands) * rowBytes <= availableBytes)
      return bands;
  return 0;
}

/// The static shared memory `program` may still take (layout conversions'
/// staging) beside its pipeline's dynamic stages: 48 KiB, and no more than
/// those leave of the block's shared memory (kSm80SharedLimit with
/// mma.sync, kSm90SharedLimit with wgmma).
int64_t staticSharedBudget(tile::ProgramOp program);

/// The shared memory (bytes) the contraction's pipeline needs (with its
/// siblings', tile::siblingContracts: their rhs stages too).
int64_t contractSharedMemoryBytes(tile::ContractOp contract,
                                  tile::ScheduleAttr schedule);

/// The shared memory (bytes) a flash kernel's stages need (its stream's
/// K and V rows, `tile_k` keys of the output's innermost extent a stage),
/// or 0 for a program that does not stream with a tensor-core schedule.
int64_t streamSharedMemoryBytes(tile::ProgramOp program);

} // namespace nautilus

#endif
