//===- MemoryProfileTest.cpp - How memory serves a warp's requests -------===//
//
// countWavefronts (rt::bankWavefronts) against the rule of 32 banks of 4 bytes: a phase (the
// whole warp for accesses up to 4 bytes, half warps for 8, quarter warps
// for 16) takes as many wavefronts as the most distinct words one bank
// holds; lanes reading one word share it. countSectors: the 32-byte
// sectors of global memory a request touches, and the bytes it uses.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/MemoryProfile.h"

#include <gtest/gtest.h>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

namespace {

/// Lanes 0 .. lanes - 1 accessing `bytes` each, `stride` bytes apart:
/// shared (LaneAccess) or global (GlobalLaneAccess) accesses.
template <typename Access = LaneAccess>
std::vector<Access> strided(uint32_t lanes, uint32_t stride, uint32_t bytes) {
  std::vector<Access> accesses;
  for (uint32_t l = 0; l < lanes; ++l)
    accesses.push_back({l, l * stride, bytes});
  return accesses;
}

TEST(MemoryProfile, ConsecutiveWordsTakeOneWavefront) {
  SharedTraffic t = countWavefronts(strided(32, 4, 4));
  EXPECT_EQ(t.requests, 1u);
  EXPECT_EQ(t.wavefronts, 1u);
  EXPECT_EQ(t.conflicts(), 0u);
}

TEST(MemoryProfile, OneBankIsAThirtyTwoWayConflict) {
  SharedTraffic t = countWavefronts(strided(32, 128, 4));
  EXPECT_EQ(t.wavefronts, 32u);
  EXPECT_EQ(t.conflicts(), 31u);
}

TEST(MemoryProfile, OneWordIsABroadcast) {
  EXPECT_EQ(countWavefronts(strided(32, 0, 4)).wavefronts, 1u);
  // Two-byte elements: lanes 2i and 2i + 1 share a word.
  EXPECT_EQ(countWavefronts(strided(32, 2, 2)).wavefronts, 1u);
}

TEST(MemoryProfile, WideAccessesGoByQuarterAndHalfWarps) {
  // 16 bytes a lane, consecutive: 4 phases of 128 bytes, no conflict.
  SharedTraffic quarter = countWavefronts(strided(32, 16, 16));
  EXPECT_EQ(quarter.wavefronts, 4u);
  EXPECT_EQ(quarter.conflicts(), 0u);
  // 8 bytes a lane, consecutive: 2 phases.
  EXPECT_EQ(countWavefronts(strided(32, 8, 8)).wavefronts, 2u);
  // 16-byte rows 128 bytes apart (an unswizzled ldmatrix phase): 8-way.
  SharedTraffic rows = countWavefronts(strided(8, 128, 16));
  EXPECT_EQ(rows.wavefronts, 8u);
  EXPECT_EQ(rows.idealWavefronts, 1u);
}

TEST(MemoryProfile, CoalescedAccessesUseWholeSectors) {
  // 16 bytes a lane, consecutive: 512 bytes, 16 sectors, all used.
  GlobalTraffic t = countSectors(strided<GlobalLaneAccess>(32, 16, 16));
  EXPECT_EQ(t.requests, 1u);
  EXPECT_EQ(t.sectors, 16u);
  EXPECT_EQ(t.bytes, 512u);
  // One f32 a lane, 32 bytes apart: a sector each, an eighth used.
  GlobalTraffic apart = countSectors(strided<GlobalLaneAccess>(32, 32, 4));
  EXPECT_EQ(apart.sectors, 32u);
  EXPECT_EQ(apart.bytes, 128u);
  // Every lane the same word: one sector, 4 bytes.
  GlobalTraffic broadcast = countSectors(strided<GlobalLaneAccess>(32, 0, 4));
  EXPECT_EQ(broadcast.sectors, 1u);
  EXPECT_EQ(broadcast.bytes, 4u);
}

} // namespace
