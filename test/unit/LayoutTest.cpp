//===- LayoutTest.cpp - Linear layouts ------------------------------------===//
#include "compiler/Layout/LinearLayout.h"

#include <gtest/gtest.h>

using namespace nautilus::layout;

namespace {

// The PTX ISA's mma.sync m16n8 C fragment: element i of lane l is at row
// l / 4 + 8 (i / 2), column 2 (l % 4) + i % 2.
TEST(LinearLayout, MmaAccumulatorIsThePtxFragment) {
  LinearLayout l = mmaAccumulatorLayout(16, 8, 1, 1);
  ASSERT_TRUE(l.isBijective()) << l.str();
  for (int32_t lane = 0; lane < 32; ++lane)
    for (int32_t i = 0; i < 4; ++i) {
      auto c = l.apply({{"register", i}, {"lane", lane}});
      EXPECT_EQ(c[0], lane / 4 + 8 * (i / 2)) << lane << " " << i;
      EXPECT_EQ(c[1], 2 * (lane % 4) + i % 2) << lane << " " << i;
    }
}

// A 128 x 128 tile over 2 x 2 warps: each warp a 64 x 64 quarter, the 16 x
// 8 tile repeated along the columns first.
TEST(LinearLayout, MmaAccumulatorTilesWarpsAndRepeats) {
  LinearLayout l = mmaAccumulatorLayout(128, 128, 2, 2);
  ASSERT_TRUE(l.isBijective());
  EXPECT_EQ(l.getInDimSize("register"), 128);
  EXPECT_EQ(l.getInDimSize("warp"), 4);
  for (int32_t warp = 0; warp < 4; ++warp)
    for (int32_t lane = 0; lane < 32; lane += 5)
      for (int32_t r = 0; r < 128; r += 3) {
        auto c = l.apply({{"register", r}, {"lane", lane}, {"warp", warp}});
        int32_t tile = r / 4, tm = tile / 8, tn = tile % 8;
        EXPECT_EQ(c[0], 64 * (warp / 2) + 16 * tm + lane / 4 + 8 * ((r / 2) % 2));
        EXPECT_EQ(c[1], 64 * (warp % 2) + 8 * tn + 2 * (lane % 4) + r % 2);
      }
}

TEST(LinearLayout, RowMajorBlockedDealsPositionsRoundTheThreads) {
  LinearLayout l = rowMajorBlockedLayout({16, 64}, 128);
  ASSERT_TRUE(l.isBijective());
  for (int32_t t = 0; t < 128; t += 7)
    for (int32_t e = 0; e < 8; ++e) {
      auto c = l.apply({{"lane", t % 32}, {"warp", t / 32}, {"register", e}});
      int32_t p = e * 128 + t;
      EXPECT_EQ(c[0], p / 64);
      EXPECT_EQ(c[1], p % 64);
    }
}

TEST(LinearLayout, InverseComposesToTheIdentity) {
  LinearLayout l = mmaAccumulatorLayout(64, 32, 2, 1);
  LinearLayout inverse = l.invert();
  EXPECT_EQ(inverse.getOutDims()[0].name, "register");
  LinearLayout roundTrip = l.compose(inverse);
  for (const auto &in : roundTrip.getInDims())
    for (size_t b = 0; b < in.bases.size(); ++b) {
      auto coords = roundTrip.apply({{in.name, int32_t(1) << b}});
      for (size_t j = 0; j < coords.size(); ++j)
        EXPECT_EQ(coords[j], roundTrip.getOutDims()[j].name == in.name
                                 ? int32_t(1) << b
                                 : 0);
    }
}

// XOR swizzles are linear: a 128-byte-swizzled 8 x 8 grid of 16-byte chunks
// (chunk c of row r stored at chunk c ^ r) is a bijection.
TEST(LinearLayout, XorSwizzleIsABijection) {
  LinearLayout rows = LinearLayout::identity1D(8, "offset", "chunk") *
                      LinearLayout::identity1D(8, "offset", "row");
  // Offset bits 0-2 pick the stored chunk, bits 3-5 the row; the logical
  // chunk is the stored chunk XOR the row.
  std::vector<LinearLayout::InDim> ins = {{"offset", {}}};
  for (int b = 0; b < 3; ++b)
    ins[0].bases.push_back({int32_t(1) << b, 0});
  for (int b = 0; b < 3; ++b)
    ins[0].bases.push_back({int32_t(1) << b, int32_t(1) << b});
  LinearLayout swizzled(ins, {{"chunk", 8}, {"row", 8}});
  EXPECT_TRUE(swizzled.isBijective());
  auto c = swizzled.apply({{"offset", 5 * 8 + 3}});
  EXPECT_EQ(c[0], 3 ^ 5);
  EXPECT_EQ(c[1], 5);
  EXPECT_FALSE(rows == swizzled);
}

TEST(LinearLayout, BroadcastIsNotInjective) {
  LinearLayout l = LinearLayout::identity1D(32, "lane", "dim0") *
                   LinearLayout::zeros1D(4, "warp", "dim0");
  EXPECT_TRUE(l.isSurjective());
  EXPECT_FALSE(l.isInjective());
  EXPECT_EQ(l.rank(), 5);
}

} // namespace

namespace {

// 16-byte pieces of rows to threads, lanes along the row: for bf16 on a
// 128 x 128 tile over 256 threads, 8 consecutive elements a thread, 16
// lanes a row.
TEST(LinearLayout, CoalescedLayoutGivesEachThreadSixteenBytesOfARow) {
  LinearLayout l = coalescedLayout(128, 128, 256, 2);
  ASSERT_TRUE(l.isBijective()) << l.str();
  EXPECT_EQ(innermostRun(l), 8);
  for (int32_t lane = 0; lane < 32; ++lane) {
    auto c = l.apply({{"lane", lane}});
    EXPECT_EQ(c[1], 8 * (lane % 16));
    EXPECT_EQ(c[0], lane / 16);
  }
  EXPECT_EQ(innermostRun(mmaAccumulatorLayout(128, 128, 2, 4)), 2);
  EXPECT_EQ(innermostRun(rowMajorBlockedLayout({16, 64}, 128)), 1);
  LinearLayout batched = withLeadingUnitDims(l, 3);
  EXPECT_EQ(batched.getOutDims().size(), 3u);
  EXPECT_EQ(batched.getOutDimSize("dim0"), 1);
  EXPECT_TRUE(batched.isBijective());
}

} // namespace
