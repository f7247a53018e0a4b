//===- HeldRows.h - Row points a swept program keeps in registers -*- C++
//-*-===//
//
// A program that reduces rows and then writes their elements (a tile.sweep:
// tile-sweep-row-consumers) reads each point of its rows twice: once to
// reduce, once to sweep. Where the R threads of a group split the rows
// (reduce_threads above 1, no reduce_split) over a bound extent, and the
// points a thread takes, at the bytes it keeps of what the sweep reads
// again a point, fit in kMaxHeldRowBytes and, beside what else a thread
// needs, in its share of the register file, the thread keeps them in
// registers instead: the GPU lowering unrolls the thread's points of the
// split (sweepSplitShape) for every top-level reduction and the sweep, and
// the sweep reads what the reductions loaded (TileToGPU/HeldRows.cpp).
// The GPU model (autoscheduler/GpuSpace.cpp) then charges the registers
// and no re-read. Both take the numbers from here.
//
// The unrolled visit walks the split's steps (heldRowSteps). A step whose
// points lie in the row for every thread of the group is visited whole;
// in the others (the last) each point is past the row for every thread
// (skipped), inside it for every thread, or inside for some (guarded:
// clamped into the row, and its fold and store kept only where inside).
// A thread so visits the points the split's loops give it (main loop,
// then the rest one at a time), each once: test/unit/HeldRowsTest.cpp
// compares the two.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_HELDROWS_H
#define NAUTILUS_TILE_UTILS_HELDROWS_H

#include "dialects/Tile/Utils/GroupSplit.h"

#include <cstdint>

namespace nautilus::tile {

/// The most bytes of its rows a thread keeps for the sweep: 64 registers
/// of 32 bits (a thread's 255 leave room for the rest).
constexpr int64_t kMaxHeldRowBytes = 256;
/// The registers a thread of a swept program needs besides the kept points
/// (its leaders and sums, indices, a step's loads before they are folded),
/// for the register file's share: measured with ptxas, 30 to 60.
constexpr int64_t kHeldRowOtherRegisters = 48;

/// The bytes a thread keeps of a point a load of `elementBytes` read: a
/// 32-bit register at least (a narrower element is widened once, and the
/// widened value is what lives on to the sweep).
inline int64_t keptBytesOf(int64_t elementBytes) {
  return elementBytes < 4 ? 4 : elementBytes;
}

/// The steps a thread takes of `shape`'s split of `extent` points: each
/// step `shape.copies` points (the last step's maybe partly past the row).
inline int64_t heldRowSteps(int64_t extent, const GroupSplitShape &shape) {
  return (extent + shape.stride - 1) / shape.stride;
}

/// The points a thread holding `elementsPerThread` tile elements keeps of
/// its rows (`extent` points each) split as `shape`.
inline int64_t heldRowPoints(int64_t extent, const GroupSplitShape &shape,
                             int64_t elementsPerThread) {
  return heldRowSteps(extent, shape) * shape.copies * elementsPerThread;
}

/// Whether the `threads` threads of a block keep their points of the rows,
/// `bytesPerPoint` a point (keptBytesOf each load the sweep reads again),
/// in registers (see the file comment): `reduceSplit` is the schedule's
/// reduce_split, `shape` the sweep's split (sweepSplitShape), and
/// `registerFile` the multiprocessor's 32-bit registers.
inline bool holdsRows(int64_t extent, const GroupSplitShape &shape,
                      int64_t elementsPerThread, int64_t reduceSplit,
                      int64_t bytesPerPoint, int64_t threads,
                      int64_t registerFile) {
  if (shape.threads <= 1 || reduceSplit != 1 || extent <= 0 ||
      bytesPerPoint <= 0)
    return false;
  int64_t bytes =
      heldRowPoints(extent, shape, elementsPerThread) * bytesPerPoint;
  return bytes <= kMaxHeldRowBytes &&
         threads * (bytes / 4 + kHeldRowOtherRegisters) <= registerFile;
}

/// Whether step `step` of the held visit is whole: its points lie in the
/// row for every thread of the group.
inline bool isWholeHeldStep(int64_t extent, const GroupSplitShape &shape,
                            int64_t step) {
  return shape.firstPoint(shape.threads - 1) + step * shape.stride +
             (shape.copies - 1) * shape.spacing <
         extent;
}

/// Point `j` of a step that is not whole, `offset` (the step's first point
/// for the group's first thread, plus j x spacing) along the row.
enum class HeldPoint { Inside, Past, Guarded };
inline HeldPoint heldPointAt(int64_t extent, const GroupSplitShape &shape,
                             int64_t offset) {
  if (offset >= extent)
    return HeldPoint::Past; // past the row for every thread
  if (shape.firstPoint(shape.threads - 1) + offset < extent)
    return HeldPoint::Inside;
  return HeldPoint::Guarded;
}

} // namespace nautilus::tile

#endif
