//===- PackedPanel.h - A contraction's rhs the CPU can pack -----*- C++ -*-===//
//
// A schedule's `pack` (CPU) copies the panel of a contraction's rhs that a
// column of tiles reads into a contiguous buffer. This names that operand:
// both the CPU lowering (TileToCPU/PackedPanels.cpp) and the CPU model's
// view of a program (Schedule/CpuPrograms.cpp) ask it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_PACKEDPANEL_H
#define NAUTILUS_TILE_UTILS_PACKEDPANEL_H

#include "dialects/Tile/TileOps.h"

namespace nautilus::tile {

/// The loads `pack` packs in `program`: in each of its top-level
/// tile.reduce ops (over one index, the same extent for all: one, or
/// contractions side by side, alg-fuse-shared-operands' gate and up
/// projections), the one load of a rank-2 buffer at [k, n], k the reduced
/// index and n the output's innermost index (a GEMM's B), the reductions'
/// extent a size or a literal. Empty where a reduction has none, or more
/// than one.
llvm::SmallVector<LoadOp> packablePanelLoads(ProgramOp program);

} // namespace nautilus::tile

#endif
