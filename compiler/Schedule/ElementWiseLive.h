//===- ElementWiseLive.h - Registers an element-wise tile keeps -*- C++ -*-===//
//
// The CPU lowers an element-wise program's body an operation at a time,
// each over its whole tile, in the body's order, and LLVM keeps that
// order: a 4 x 64 f32 tile of `A * B + C * E` keeps A * B's 16 vectors
// live while C * E is computed, and spills, where `A + B` at the same tile
// does not (each compiled for AVX-512 and its stack accesses counted). So
// the registers a tile needs are those of the values live across the
// widest operation of its body, each value counted by how it varies over
// the tile: a whole tile where it varies along the rows and the innermost
// dimension, a row of vectors where it varies along the innermost
// dimension alone (a scale g[d]: loaded once, used by every row), a
// register a row where it varies along the rows alone (a row's mean,
// broadcast along it), nothing where it is the same everywhere (a
// constant, an operand of the instruction in memory).
//
// A read used once is folded into its one use (an operand in memory), and
// a special function (exp, tanh, log, ...), which the CPU evaluates as a
// polynomial (the legalize-math pass), keeps more than its operand live
// while it runs (specialFunctionTiles).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_ELEMENTWISELIVE_H
#define NAUTILUS_SCHEDULE_ELEMENTWISELIVE_H

#include "autoscheduler/CpuSpace.h"
#include "dialects/Tile/TileOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace nautilus {

/// How a value of a program's body varies over the program's tile: along
/// its rows (the output dimensions before the innermost), along its
/// innermost dimension.
struct TileVariation {
  bool rows = false, inner = false;
};

/// Every value `program`'s body defines, at any depth, by how it varies
/// over the tile whose innermost dimension is `inner`: a load as the
/// dimensions of its map (and, gathered, its indices), an index along its
/// dimension, any other operation as its operands and what its regions
/// yield.
llvm::DenseMap<mlir::Value, TileVariation>
tileVariationsOf(tile::ProgramOp program, unsigned inner);

/// The registers live at each operation of `block`, in order, where no
/// other operation's cover them (each value counted as `widthOf` says):
/// the values live across the operation, and for each kind the wider of
/// its operands that die there and its results (a special function's,
/// specialFunctionTiles times). A block argument is live from the
/// block's start; a read (tile.load) used once lives at its use alone, and
/// the widest such operand of an operation takes no register (an operand
/// of the instruction in memory). (The pipeline runs CSE before any
/// schedule is chosen: a definition's operand is one read, however often
/// it is used.)
std::vector<autosched::LivePoint>
livePointsOf(mlir::Block &block,
             llvm::function_ref<autosched::LivePoint(mlir::Value)> widthOf);

/// The registers a special function's expansion on the CPU keeps live at
/// its widest point, as a multiple of its operand's (the polynomial's
/// terms beside the operand and the range reduction's parts: measured on
/// the legalize-math pass's expansion by ElementWiseLiveTest); 1 for an
/// operation that is not one.
int64_t specialFunctionTiles(mlir::Operation *op);

/// An element-wise `program`'s live points (livePointsOf over its body,
/// its values counted by tileVariationsOf, each in vectors of
/// `elementBits`-bit lanes: an f32 value of a bf16 program counts twice).
std::vector<autosched::LivePoint> elementWiseLivePoints(tile::ProgramOp program,
                                                        unsigned inner,
                                                        int64_t elementBits);

} // namespace nautilus

#endif
