//===- HeldRowsTest.cpp - The held visit covers the split's points --------===//
//
// A swept program that keeps its rows in registers visits each thread's
// points unrolled (dialects/Tile/Utils/HeldRows.h), where it otherwise
// runs the group split's loops (GroupSplit.h; TileToGPU/Reductions.cpp,
// ElementStreams.cpp, Sweeps.cpp). The verifier proves the loops cover the
// row once; these tests check that the visit gives every thread exactly
// the points its loops give it, for every split the sweep takes.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/HeldRows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace nautilus::tile;

namespace {

/// The points lane `lane` folds in the split's loops over [0, extent): the
/// main loop's steps while their last copy lies in the row, then the rest
/// one at a time (with runs, run by run).
std::vector<int64_t> loopPoints(const GroupSplitShape &s, int64_t lane,
                                int64_t extent) {
  std::vector<int64_t> points;
  int64_t start = s.firstPoint(lane);
  if (s.copies == 1) {
    for (int64_t p = start; p < extent; p += s.threads)
      points.push_back(p);
    return points;
  }
  int64_t mainEnd = extent - (s.copies - 1) * s.spacing;
  int64_t p = start;
  for (; p < mainEnd; p += s.stride)
    for (int64_t j = 0; j < s.copies; ++j)
      points.push_back(p + j * s.spacing);
  int64_t rest = start + std::max<int64_t>(0, (mainEnd - start + s.stride - 1) /
                                                  s.stride) *
                             s.stride;
  if (!s.runs) {
    for (int64_t q = rest; q < extent; q += s.threads)
      points.push_back(q);
    return points;
  }
  for (int64_t run = rest; run < extent; run += s.stride)
    for (int64_t q = run; q < std::min(extent, run + s.run); ++q)
      points.push_back(q);
  return points;
}

/// The points lane `lane` folds in the held visit: whole steps' every
/// copy, the others' points inside the row (a guarded point only where
/// the lane's lies in it).
std::vector<int64_t> heldPoints(const GroupSplitShape &s, int64_t lane,
                                int64_t extent) {
  std::vector<int64_t> points;
  int64_t start = s.firstPoint(lane);
  for (int64_t step = 0; step < heldRowSteps(extent, s); ++step)
    for (int64_t j = 0; j < s.copies; ++j) {
      int64_t at = step * s.stride + j * s.spacing;
      bool whole = isWholeHeldStep(extent, s, step);
      HeldPoint where = whole ? HeldPoint::Inside : heldPointAt(extent, s, at);
      if (where == HeldPoint::Inside ||
          (where == HeldPoint::Guarded && start + at < extent))
        points.push_back(start + at);
    }
  return points;
}

TEST(HeldRows, VisitGivesEachThreadItsLoopsPoints) {
  for (int64_t threads : {2, 4, 8, 32, 64, 256})
    for (int64_t run : {1, 2, 4, 8})
      for (int64_t elements : {1, 2, 4}) {
        GroupSplitShape shape = sweepSplitShape(threads, run, elements);
        for (int64_t extent = 1; extent <= 3 * shape.stride + 7; ++extent) {
          std::vector<int> seen(extent, 0);
          for (int64_t lane = 0; lane < threads; ++lane) {
            std::vector<int64_t> held = heldPoints(shape, lane, extent);
            std::vector<int64_t> loops = loopPoints(shape, lane, extent);
            std::sort(held.begin(), held.end());
            std::sort(loops.begin(), loops.end());
            ASSERT_EQ(held, loops)
                << "threads " << threads << " run " << run << " elements "
                << elements << " extent " << extent << " lane " << lane;
            for (int64_t p : held)
              ++seen[p];
          }
          for (int64_t p = 0; p < extent; ++p)
            ASSERT_EQ(seen[p], 1) << "point " << p << " of " << extent;
        }
      }
}

// A thread keeps at most 256 bytes (a 32-bit register a point at least),
// and no more than its share of the register file leaves beside the rest.
TEST(HeldRows, KeepsWhatFitsAThreadAndTheRegisterFile) {
  GroupSplitShape rows = sweepSplitShape(64, 4, 1); // 16 points of 1024
  EXPECT_EQ(heldRowPoints(1024, rows, 1), 16);
  EXPECT_TRUE(holdsRows(1024, rows, 1, 1, 4, 256, 65536));
  EXPECT_FALSE(holdsRows(1024, rows, 1, /*reduceSplit=*/2, 4, 256, 65536));
  EXPECT_FALSE(holdsRows(1024, sweepSplitShape(1, 4, 1), 1, 1, 4, 256,
                         65536)); // one thread a row: no group split
  // 64 points of 4096: 256 bytes, the most; 65 are too many.
  EXPECT_TRUE(holdsRows(4096, rows, 1, 1, 4, 256, 65536));
  EXPECT_FALSE(holdsRows(4097, rows, 1, 1, 4, 256, 65536));
  EXPECT_EQ(keptBytesOf(2), 4); // a bf16 point widened
  EXPECT_EQ(keptBytesOf(8), 8);
  // 1024 threads have 64 registers each: 64 kept ones do not fit beside
  // the rest, 16 do.
  EXPECT_FALSE(holdsRows(4096, rows, 1, 1, 4, 1024, 65536));
  EXPECT_TRUE(holdsRows(1024, rows, 1, 1, 4, 1024, 65536));
}

} // namespace
