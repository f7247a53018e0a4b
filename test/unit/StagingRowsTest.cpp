//===- StagingRowsTest.cpp - A layout conversion's staging rows -----------===//
#include "dialects/Tile/Utils/StagingRows.h"

#include <gtest/gtest.h>

#include <vector>

using namespace nautilus;

// Every layout the conversion lowering may choose for its staging rows
// stores each element of the rows at an offset of its own, within the
// rows' buffer: exhaustively, for every width (a multiple of the unit)
// up to 256, every unit and element size, over every phase of the
// swizzle and a row past them (the pattern repeats from there). Swizzles over a chunk count that their phase
// count does not divide (12 chunks, 8 phases) failed this.
TEST(StagingRows, EveryCandidateIsAPermutationOfItsBuffer) {
  for (int64_t elementBytes : {1, 2, 4, 8})
    for (int64_t unit : {1, 2, 4, 8, 16}) {
      if (unit * elementBytes > 16)
        continue;
      for (int64_t width = unit; width <= 256; width += unit)
        for (const StagingRows &rows :
             stagingRowCandidates(width, unit, elementBytes)) {
          SCOPED_TRACE(::testing::Message()
                       << "width " << width << ", unit " << unit << ", pad "
                       << rows.pad << ", phases " << rows.maxPhase << " every "
                       << rows.perPhase << " rows");
          // Every phase, and a row after: the pattern repeats from there.
          int64_t count = rows.maxPhase * rows.perPhase + 1;
          std::vector<bool> taken(count * rows.pitch(), false);
          bool ok = true;
          for (int64_t r = 0; r < count && ok; ++r)
            for (int64_t c = 0; c < width && ok; ++c) {
              int64_t at = rows.offset(r, c);
              ok = at >= 0 && at < static_cast<int64_t>(taken.size()) &&
                   !taken[at];
              if (ok)
                taken[at] = true;
              else
                ADD_FAILURE() << "element (" << r << ", " << c << ") stored at "
                              << at << ": outside the buffer or taken";
            }
        }
    }
}

// The candidates include swizzles wherever a row holds whole groups of
// phases (so that restricting them did not drop them all).
TEST(StagingRows, SwizzlesWhereTheChunksAllowThem) {
  auto phases = [](int64_t width, int64_t unit) {
    int64_t most = 1;
    for (const StagingRows &rows : stagingRowCandidates(width, unit, 2))
      most = std::max(most, rows.maxPhase);
    return most;
  };
  EXPECT_EQ(phases(128, 8), 16);
  EXPECT_EQ(phases(96, 8), 4); // 12 chunks: 2 or 4 phases, not 8
  EXPECT_EQ(phases(80, 8), 2); // 10 chunks
  EXPECT_EQ(phases(72, 8), 1); // 9 chunks: plain or padded only
  EXPECT_EQ(phases(64, 1), 1); // element by element: padded
}
