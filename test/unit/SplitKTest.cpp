//===- SplitKTest.cpp - how K splits into chunks --------------------------===//
#include "compiler/Transforms/Tile/SplitContractions.h"

#include <gtest/gtest.h>

using namespace nautilus;

// Every extent, step and asked count: chunks are whole steps, none is
// empty, they cover K, and there are no more than asked.
TEST(SplitK, ChunksAreWholeStepsCoveringKWithNoneEmpty) {
  for (int64_t tileK : {16, 32, 64})
    for (int64_t extent = 0; extent <= 3000; extent += 7)
      for (int64_t asked = 1; asked <= 40; ++asked) {
        SplitKChunks c = splitKChunks(extent, tileK, asked);
        SCOPED_TRACE(testing::Message() << "K " << extent << ", tile_k "
                                        << tileK << ", asked " << asked);
        ASSERT_GT(c.chunk, 0);
        EXPECT_EQ(c.chunk % tileK, 0);
        EXPECT_GE(c.splits, 1);
        EXPECT_LE(c.splits, asked);
        EXPECT_GE(c.splits * c.chunk, extent);         // covers K
        if (extent > 0)
          EXPECT_LT((c.splits - 1) * c.chunk, extent); // the last not empty
        else
          EXPECT_EQ(c.splits, 1);
      }
}

TEST(SplitK, EvenSplits) {
  SplitKChunks c = splitKChunks(16384, 64, 32);
  EXPECT_EQ(c.chunk, 512);
  EXPECT_EQ(c.splits, 32);
  // 16 steps asked 7 ways: chunks of 3 steps, 6 of them.
  c = splitKChunks(1024, 64, 7);
  EXPECT_EQ(c.chunk, 192);
  EXPECT_EQ(c.splits, 6);
}
