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

/// How a packable load reads its buffer: at [b..., k, n] (a GEMM's B), or
/// transposed at [b..., n, k] (A B^T's B, a linear layer's weight stored
/// [out, in]: each panel row gathered across B's rows when it is
/// copied); b... the output's batch dimensions (neither its rows nor its
/// innermost), on which the panel depends too.
struct PanelLayout {
  bool transposed = false;
  llvm::SmallVector<unsigned> batchDims; // output dimensions, in order
};

/// The layout of `load` (in a tile.reduce over one index of a program of
/// rank `rank`) where it reads a panel: the buffer's last two indices the
/// reduced index k and the output's innermost n, in either order, its
/// others batch dimensions of the output; std::nullopt otherwise.
std::optional<PanelLayout> panelLayoutOf(LoadOp load, unsigned rank);

/// The loads `pack` packs in `program`: in each of its top-level
/// tile.reduce ops (over one index, the same extent for all: one, or
/// contractions side by side, alg-fuse-shared-operands' gate and up
/// projections), the one load that reads a panel (panelLayoutOf), the
/// reductions' extent a size or a literal. Empty where a reduction has
/// none, or more than one.
llvm::SmallVector<LoadOp> packablePanelLoads(ProgramOp program);

/// Why a schedule's `reduce_block` cannot fold `program`'s packed
/// contractions a block of their reduced index at a time ("" when it
/// can): they must be packable (packablePanelLoads), consecutive at the
/// program's top level, of one kind and type, none split and none reading
/// another's result (so that they fold in one loop nest and the rest of
/// the program runs once, after the last block), and the program must not
/// stream (a tile.online_reduce would run again for every block).
std::string reductionBlockRefusal(ProgramOp program);

} // namespace nautilus::tile

#endif
