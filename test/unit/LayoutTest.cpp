//===- LayoutTest.cpp - Linear layouts ------------------------------------===//
#include "dialects/Tile/Layout/LinearLayout.h"

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

// Runs of 8 (a schedule's `vector`): thread t's element e at position
// ((e / 8) * 128 + t) * 8 + e % 8, the same formula as the GPU lowering's
// tilePositions.
TEST(LinearLayout, RowMajorBlockedInRunsKeepsRunsInRegisters) {
  LinearLayout l = rowMajorBlockedLayout({16, 64}, 32, /*run=*/8);
  ASSERT_TRUE(l.isBijective()) << l.str();
  EXPECT_EQ(innermostRun(l), 8);
  for (int32_t t = 0; t < 32; t += 5)
    for (int32_t e = 0; e < 32; ++e) {
      auto c = l.apply({{"lane", t}, {"warp", 0}, {"register", e}});
      int32_t p = ((e / 8) * 32 + t) * 8 + e % 8;
      EXPECT_EQ(c[0], p / 64);
      EXPECT_EQ(c[1], p % 64);
    }
  // A run of 1 is the plain blocked layout, inputs in the same order.
  LinearLayout plain = rowMajorBlockedLayout({16, 64}, 128, 1);
  EXPECT_EQ(plain.str(), rowMajorBlockedLayout({16, 64}, 128).str());
  EXPECT_EQ(plain.getInDims()[0].name, "lane");
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
  LinearLayout l = *coalescedLayout(128, 128, 256, 2);
  ASSERT_TRUE(l.isBijective()) << l.str();
  EXPECT_EQ(innermostRun(l), 8);
  for (int32_t lane = 0; lane < 32; ++lane) {
    auto c = l.apply({{"lane", lane}});
    EXPECT_EQ(c[1], 8 * (lane % 16));
    EXPECT_EQ(c[0], lane / 16);
  }
  EXPECT_EQ(innermostRun(mmaAccumulatorLayout(128, 128, 2, 4)), 2);
  EXPECT_EQ(innermostRun(rowMajorBlockedLayout({16, 64}, 128)), 1);
  LinearLayout batched = withRowsOverLeadingDims(l, {1, 128, 128});
  EXPECT_EQ(batched.getOutDims().size(), 3u);
  EXPECT_EQ(batched.getOutDimSize("dim0"), 1);
  EXPECT_TRUE(batched.isBijective());
}

// A flash kernel's tile of 4 heads of 4 query rows (decoding, grouped-query
// attention): the accumulator layout's 16 rows, row-major over (head,
// row), each element held once.
TEST(LinearLayout, RowsSpreadOverTheLeadingDimensionsRowMajor) {
  LinearLayout rows = mmaAccumulatorLayout(16, 128, 1, 1);
  LinearLayout heads = withRowsOverLeadingDims(rows, {1, 4, 4, 128});
  ASSERT_TRUE(heads.isBijective()) << heads.str();
  for (int32_t lane = 0; lane < 32; ++lane)
    for (int32_t reg = 0; reg < 64; ++reg) {
      auto flat = rows.apply({{"lane", lane}, {"register", reg}});
      auto spread = heads.apply({{"lane", lane}, {"register", reg}});
      EXPECT_EQ(spread[0], 0);
      EXPECT_EQ(spread[1], flat[0] / 4);
      EXPECT_EQ(spread[2], flat[0] % 4);
      EXPECT_EQ(spread[3], flat[1]);
    }
}

// A tile with fewer rows than the threads' runs cover (16 x 32 bf16 over
// 128 threads: 4 threads a row, 32 rows) has no coalesced layout: warps
// would reach past it.
TEST(LinearLayout, CoalescedLayoutRefusesTilesTooSmallForTheThreads) {
  EXPECT_FALSE(coalescedLayout(16, 32, 128, 2).has_value());
  EXPECT_TRUE(coalescedLayout(32, 32, 128, 2).has_value());
  EXPECT_TRUE(coalescedLayout(32, 32, 128, 2)->isBijective());
}

// In blocks of columns (a bf16 128 x 256 tile moved in two bands of 128
// columns): each block coalesced on its own, the block the highest
// register bit, so every register lies in one block whatever the lane and
// warp.
TEST(LinearLayout, CoalescedLayoutInColumnBlocksPutsTheBlockInRegisters) {
  LinearLayout l = *coalescedLayout(128, 256, 256, 2, /*columnBlocks=*/2);
  ASSERT_TRUE(l.isBijective()) << l.str();
  EXPECT_EQ(l.getOutDimSize("dim1"), 256);
  EXPECT_EQ(innermostRun(l), 8);
  int32_t registers = l.getInDimSize("register");
  for (int32_t r = 0; r < registers; ++r)
    for (int32_t lane : {0, 13, 31})
      for (int32_t warp : {0, 5}) {
        auto c = l.apply({{"register", r}, {"lane", lane}, {"warp", warp}});
        EXPECT_EQ(c[1] / 128, r / (registers / 2));
        EXPECT_EQ(c[1] % 128 / 8, lane % 16);
      }
  // wgmma's accumulators hold all of a warp's columns in registers; with
  // warps along N, mma.sync's column blocks depend on the warp.
  EXPECT_TRUE(columnBlocksFollowRegisters(mmaAccumulatorLayout(128, 256, 8, 1),
                                          128));
  EXPECT_TRUE(columnBlocksFollowRegisters(l, 128));
  EXPECT_FALSE(columnBlocksFollowRegisters(l, 64));
  EXPECT_FALSE(columnBlocksFollowRegisters(mmaAccumulatorLayout(128, 128, 2, 4),
                                           64));
}

} // namespace

namespace {

// The shared-memory layout of each swizzle, for rows of 32 to 256 bytes of
// f16: a bijection, and its offsets are the stored-chunk formula the
// lowerings use (SharedSwizzle::storedChunk).
TEST(SharedSwizzle, LayoutIsTheStoredChunkFormula) {
  for (int32_t rowBytes : {32, 64, 128, 256})
    for (int32_t swizzleBytes : {0, 32, 64, 128}) {
      SharedSwizzle swizzle = SharedSwizzle::forRows(rowBytes, swizzleBytes);
      int32_t rowElements = rowBytes / 2, rows = 32;
      LinearLayout l = swizzledSharedLayout(rows, rowElements, 2, swizzle);
      ASSERT_TRUE(l.isBijective()) << rowBytes << " " << swizzleBytes;
      for (int32_t row = 0; row < rows; ++row)
        for (int32_t column = 0; column < rowElements; ++column) {
          int32_t offset = row * rowElements +
                           swizzle.storedChunk(row, column / 8) * 8 +
                           column % 8;
          auto at = l.apply({{"offset", offset}});
          ASSERT_EQ(at[0], row) << rowBytes << " " << swizzleBytes;
          ASSERT_EQ(at[1], column) << rowBytes << " " << swizzleBytes;
        }
    }
}

// For rows of exactly the swizzle span, the layout is TMA's swizzle: byte
// address bits [4, 4 + log2(S / 16)) XOR bits [7, ...).
TEST(SharedSwizzle, RowsOfOneSpanAreTheHardwareSwizzle) {
  for (int32_t swizzleBytes : {32, 64, 128}) {
    SharedSwizzle swizzle = SharedSwizzle::forRows(swizzleBytes, swizzleBytes);
    int32_t mask = swizzleBytes / 16 - 1;
    for (int32_t row = 0; row < 64; ++row)
      for (int32_t chunk = 0; chunk < swizzleBytes / 16; ++chunk) {
        int32_t linear = row * swizzleBytes + chunk * 16;
        int32_t hardware = linear ^ (((linear >> 7) & mask) << 4);
        EXPECT_EQ(row * swizzleBytes + swizzle.storedChunk(row, chunk) * 16,
                  hardware);
      }
  }
}

/// The most 16-byte reads of one ldmatrix phase (8 lanes reading the same
/// chunk of 8 consecutive rows) that fall in one bank group (128 bytes of
/// banks = 8 groups of 16 bytes), computed from the layout's inverse.
int32_t ldmatrixConflicts(int32_t rowBytes, int32_t swizzleBytes) {
  SharedSwizzle swizzle = SharedSwizzle::forRows(rowBytes, swizzleBytes);
  int32_t rowElements = rowBytes / 2;
  LinearLayout offsets =
      swizzledSharedLayout(64, rowElements, 2, swizzle).invert();
  int32_t worst = 0;
  for (int32_t firstRow = 0; firstRow < 64; firstRow += 8)
    for (int32_t chunk = 0; chunk < rowElements / 8; ++chunk) {
      int32_t groups[8] = {};
      for (int32_t row = firstRow; row < firstRow + 8; ++row) {
        int32_t offset =
            offsets.apply({{"dim0", row}, {"dim1", chunk * 8}})[0];
        worst = std::max(worst, ++groups[(offset * 2 / 16) % 8]);
      }
    }
  return worst;
}

// Why the schedule's default is 128: it keeps every ldmatrix phase
// conflict-free for rows of 64 bytes and more, where no swizzle serialises
// the 8 reads (rows of 64 bytes need only the 64-byte swizzle).
TEST(SharedSwizzle, SwizzleMakesLdmatrixConflictFree) {
  EXPECT_EQ(ldmatrixConflicts(256, 128), 1);
  EXPECT_EQ(ldmatrixConflicts(128, 128), 1);
  EXPECT_EQ(ldmatrixConflicts(64, 128), 1);
  EXPECT_EQ(ldmatrixConflicts(64, 64), 1);
  EXPECT_EQ(ldmatrixConflicts(256, 0), 8);
  EXPECT_EQ(ldmatrixConflicts(128, 0), 8);
  EXPECT_EQ(ldmatrixConflicts(128, 32), 4);
  EXPECT_EQ(ldmatrixConflicts(64, 0), 4);
}

} // namespace

namespace {

// The operand fragments against the PTX ISA's tables for mma.m16n8k16
// (.f16/.bf16): A's element i of lane l is at row groupID + 8 * ((i / 2) %
// 2), column 2 * threadID_in_group + i % 2 + 8 * (i / 4); B's at row
// 2 * threadID_in_group + i % 2 + 8 * (i / 2), column groupID.
TEST(LinearLayout, MmaOperandsAreThePtxFragments) {
  LinearLayout a = mmaOperandALayout(), bLayout = mmaOperandBLayout();
  ASSERT_TRUE(a.isBijective()) << a.str();
  ASSERT_TRUE(bLayout.isBijective()) << bLayout.str();
  EXPECT_EQ(a.getOutDimSize("dim0"), 16);
  EXPECT_EQ(a.getOutDimSize("dim1"), 16);
  EXPECT_EQ(bLayout.getOutDimSize("dim0"), 16);
  EXPECT_EQ(bLayout.getOutDimSize("dim1"), 8);
  for (int32_t lane = 0; lane < 32; ++lane) {
    int32_t group = lane / 4, inGroup = lane % 4;
    for (int32_t i = 0; i < 8; ++i) {
      auto at = a.apply({{"register", i}, {"lane", lane}});
      EXPECT_EQ(at[0], group + 8 * ((i / 2) % 2));
      EXPECT_EQ(at[1], 2 * inGroup + i % 2 + 8 * (i / 4));
    }
    for (int32_t i = 0; i < 4; ++i) {
      auto at = bLayout.apply({{"register", i}, {"lane", lane}});
      EXPECT_EQ(at[0], 2 * inGroup + i % 2 + 8 * (i / 2));
      EXPECT_EQ(at[1], group);
    }
  }
  // wgmma's A from registers: warp w of the warpgroup holds rows 16 w ..
  LinearLayout wgmmaA = withWarpsAlongRows(a, 4);
  ASSERT_TRUE(wgmmaA.isBijective());
  EXPECT_EQ(wgmmaA.getOutDimSize("dim0"), 64);
  EXPECT_EQ(wgmmaA.apply({{"warp", 3}, {"lane", 5}})[0], 48 + 1);
}

// The accumulator and the A fragment share their per-warp row/column
// mapping for the first 16 x 8: an accumulator tile converted to bf16 pairs
// is already an A fragment (the register reuse FlashAttention makes of P),
// which composing one layout with the other's inverse shows.
TEST(LinearLayout, AccumulatorHalvesAreAFragments) {
  LinearLayout acc = mmaAccumulatorLayout(16, 16, 1, 1);
  LinearLayout a = mmaOperandALayout();
  ASSERT_TRUE(acc.isBijective());
  // Register and lane of the A fragment holding each accumulator element.
  LinearLayout accToA = acc.compose(a.invert());
  for (int32_t lane = 0; lane < 32; ++lane)
    for (int32_t r = 0; r < 8; ++r) {
      auto at = accToA.apply({{"register", r}, {"lane", lane}});
      EXPECT_EQ(at[1], lane) << "register " << r;
    }
}

} // namespace
