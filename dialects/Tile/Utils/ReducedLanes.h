//===- ReducedLanes.h - Row reductions vectorized along their rows -*- C++
//-*-===//
//
// A reduction of rows read along the buffer's innermost dimension (a norm's
// sum of squares, softmax's maximum and sum when not streamed) folds
// best with its vector lanes along the reduced index: each step loads a
// contiguous run of every row of the tile and keeps one accumulator
// vector a row, reduced across its lanes once at the end. With its lanes
// along the output's rows instead (a tile.reduce's usual form on the
// CPU), each step would read one element of each row, a load and an
// insert a lane. The CPU lowering (TileToCPU/ReducedLanes.cpp) and the
// CPU model (compiler/Schedule/CpuPrograms.cpp) both ask this one
// predicate which form a reduction takes.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_REDUCEDLANES_H
#define NAUTILUS_TILE_UTILS_REDUCEDLANES_H

#include "dialects/Tile/TileOps.h"

#include "llvm/ADT/ArrayRef.h"

namespace nautilus::tile {

/// The most elements a tile may have (rows of the output) for its
/// reduction to fold along reduced lanes: a float sum keeps three vectors
/// a row live through its loop (the block's partial, the total and its
/// compensation: emitBlockedSum), 24 of AVX-512's 32 registers at 8 rows
/// (measured, bf16 sums of squares of 4096^2: 1 to 8 rows 0.67-0.76 ms,
/// 16 rows 0.82, spilling). A larger tile keeps its lanes along its rows.
constexpr int64_t kMostReducedLaneRows = 8;

/// The vectors of keys a row stream folded along its lanes folds a step:
/// its repairs are paid once a step, and the step's terms live at once
/// (measured, softmax over 4096 x 1024 f32 rows: a vector a step, two
/// exponentials a key, 2.15 ms).
constexpr int64_t kLaneStreamBlock = 4;

/// Whether `load` (in the body of a reduction of a program of `rank`
/// output dimensions) reads along the reduced index, the map's dimension
/// `rank`.
bool readsReducedIndex(LoadOp load, unsigned rank);

/// Whether `reduce` can fold with its lanes along its reduced index, and
/// should where its tile has at most kMostReducedLaneRows elements: it is
/// at the top of its program (of rank at least 1), over one index, and
/// its body, which does not read the index as a value, computes from
/// loads, tile.index of output dimensions and operations without regions
/// alone; every load that reads the
/// reduced index reads it as its buffer's innermost index, plainly
/// (X[t, d], not X[t, d + 1] nor X[d, t]), and one of them at least also
/// reads along the output's innermost dimension: each element of the tile
/// then folds a row of its own, and a load that does not vary along that
/// dimension is one row shared by the tile's elements (a linear layer's
/// X[t, d] beside its weight W[f, d] stored [out, in]: a decoding step's
/// dot products, each over a contiguous row of W). A GEMM's B[k, n] does
/// not read k innermost: it keeps its lanes along its columns.
bool foldsAlongReducedLanes(ReduceOp reduce);

/// Whether `reduce` folds along reduced lanes (foldsAlongReducedLanes)
/// with a load of the reduced index that does not vary along the output's
/// innermost dimension: a contraction's broadcast operand (X[t, d] of X
/// W^T), which the CPU model costs as a contraction that may fold.
bool foldsWithBroadcastOperand(ReduceOp reduce);

/// The same for a stream (tile.online_reduce: a row stream, softmax's max
/// and sum or a norm's mean and variance): each lane then streams its own
/// keys (every lanes-th), and the lanes' states merge at the end by the
/// stream's repairs. Also: no mask narrowing its keys, no reduction
/// nested in it, its repairs element-wise. (A split stream's chunk folds
/// so: its partial program's rows, chunk by chunk.)
bool streamFoldsAlongReducedLanes(OnlineReduceOp stream);

/// Whether a reduction foldsAlongReducedLanes takes that form for `tile`.
bool tileFoldsAlongReducedLanes(llvm::ArrayRef<int64_t> tile);

} // namespace nautilus::tile

#endif
