//===- WarpAccess.h - A warp's memory instructions, costed from layouts -*-===//
//
// The cost models' coalescing and bank-conflict terms, read from the
// layouts the lowering uses rather than from formulas of the schedule's
// numbers:
//   - global memory: a distributed layout (dialects/Tile/Layout: register,
//     lane and warp to tile coordinates) says which elements each lane of a
//     warp instruction moves, and a strided tensor where they live; the
//     instruction costs the distinct 32-byte sectors its lanes touch (a
//     warp of coalesced 4-byte loads touches 4, a warp reading a row each
//     of 32 rows touches 32), masked elements none;
//   - shared memory: a pipeline stage's swizzle (layout::SharedSwizzle)
//     says where the rows ldmatrix reads lie; the instruction costs the
//     wavefronts the banks take to serve it, by the rule the emulator's
//     profile counts (runtime/SharedBanks).
// Each is the mean over instructions, beside the fewest the same bytes
// could take: for global memory over the programs of a grid (those whose
// tiles lie inside the tensor, and those the tensor's extents cut), a
// sample of at most 8 of each one's warps and 8 runs a lane
// (WarpAccess.cpp's `sampled`); for ldmatrix, every 16 x 16 block of the
// stage.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_WARPACCESS_H
#define NAUTILUS_AUTOSCHEDULER_WARPACCESS_H

#include "dialects/Tile/Layout/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace nautilus::autosched {

/// A tensor in global memory as a layout's outputs address it: output
/// dimension i is coordinate i; coordinates at or beyond `extents[i]` are
/// masked off (no access).
struct StridedTensor {
  std::vector<int64_t> extents;
  std::vector<int64_t> byteStrides;
  int64_t elementBytes = 4;
  /// The dimensions along which a lane's element outside the extent still
  /// loads, from the tensor's first element (the lowering's clamped loads:
  /// a shared reduction's rows past the output's edge), rather than not at
  /// all (its guarded loads, and the loop's bound along a reduced index).
  /// Empty: none.
  std::vector<bool> clampedDims;
  /// The row-major tensor of `extents`.
  static StridedTensor rowMajor(std::vector<int64_t> extents,
                                int64_t elementBytes);
};

/// What a warp instruction costs, on average, and the fewest it could.
struct WarpAccessCost {
  double perInstruction = 0; // sectors (global) or wavefronts (shared)
  double ideal = 0;          // for the same bytes, fully coalesced
  int64_t instructions = 0;  // instructions sampled (0: none touches memory)
  /// The requests a load of runs turns into: 1 where every lane's run is
  /// one vector load; a lane whose run is not (cut by an extent, or in rows
  /// that are not a whole number of runs) loads it element by element, a
  /// request each (global memory only).
  double requests = 1;
  /// Sectors a request (the emulator's profile counts so).
  double perRequest() const {
    return requests > 0 ? perInstruction / requests : 0;
  }
  /// How many times the fewest (1 where nothing was sampled).
  double excess() const {
    return instructions && ideal > 0 ? perInstruction / ideal : 1.0;
  }
};

/// The 32-byte sectors a warp instruction of `distribution` touches in
/// `tensor`, over the instructions of the programs of a grid of its tiles.
/// An instruction moves `run` consecutive registers of each of
/// `warpLanes` consecutive threads (the register bits below log2(run);
/// threads numbered by the lane bits, then the warp bits: AMD's 64-lane
/// wavefronts span two of the layouts' 32-lane warps), as the lowering's
/// loadRun does: one vector load where the lane's run lies inside the
/// tensor, in rows a whole number of runs long, else element by element.
/// `distribution`'s inputs are "register", "lane" and "warp", its outputs
/// one per dimension of `tensor`.
WarpAccessCost globalSectors(const layout::LinearLayout &distribution,
                             int32_t run, const StridedTensor &tensor,
                             int64_t warpLanes = 32);

/// The bank wavefronts of the ldmatrix.x4 instructions that read the 16 x
/// 16 blocks of a pipeline stage of `rows` rows of `rowElements` 16-bit
/// elements stored with a `swizzleBytes` swizzle (0, 32, 64 or 128): the
/// lhs's blocks (`isLhs`) or the rhs's, with K innermost in the stage
/// (`kInnermost`: rows are M or N) or not (rows are K, read with .trans).
/// Conflict-free: 4 a warp (a wavefront a matrix).
WarpAccessCost ldmatrixWavefronts(int64_t rows, int64_t rowElements,
                                  int64_t swizzleBytes, bool kInnermost,
                                  bool isLhs);

} // namespace nautilus::autosched

#endif
