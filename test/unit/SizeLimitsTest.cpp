//===- SizeLimitsTest.cpp - Sizes at the limits of 64 bits ----------------===//
//
// What a launch computes from sizes a caller gets wrong (a size of -1
// passed as unsigned, an extent near INT64_MAX) is refused, not wrapped:
// a program's grid, a shape's strides, an emulator allocation.
//
//===----------------------------------------------------------------------===//
#include "nautilus.h"
#include "runtime/LaunchPlan.h"
#include "runtime/PackedArgs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace nautilus::rt;

TEST(SizeLimits, ProgramCountsSaturateInsteadOfWrapping) {
  ProgramDesc p;
  p.outputDims = {Dim{"N", 0}};
  p.tile = {128};
  // ceil(INT64_MAX / 128), where extent + tile - 1 would have overflowed.
  EXPECT_EQ(p.numPrograms({{"N", INT64_MAX}}), INT64_MAX / 128 + 1);
  EXPECT_EQ(p.numPrograms({{"N", 129}}), 2);
  EXPECT_EQ(p.numPrograms({{"N", 0}}), 0);
  p.outputDims.push_back(Dim{"M", 0});
  p.tile.push_back(1);
  EXPECT_EQ(p.numPrograms({{"N", INT64_MAX}, {"M", 1 << 20}}), INT64_MAX);
}

TEST(SizeLimits, StridesSaturateInsteadOfWrapping) {
  EXPECT_EQ(contiguousStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  std::vector<int64_t> strides =
      contiguousStrides({2, INT64_MAX / 2, INT64_MAX / 2});
  EXPECT_EQ(strides[0], INT64_MAX);
  EXPECT_EQ(strides[1], INT64_MAX / 2);
}

TEST(SizeLimits, TheEmulatorRefusesAllocationsThatWouldWrap) {
  nt_device device = nullptr;
  ASSERT_EQ(nt_device_open("emu", 0, &device), nullptr);
  void *memory = nullptr;
  nt_status s = nt_device_alloc(device, SIZE_MAX - 10, &memory);
  EXPECT_NE(s, nullptr);
  EXPECT_EQ(memory, nullptr);
  nt_status_free(s);
  ASSERT_EQ(nt_device_alloc(device, 100, &memory), nullptr);
  EXPECT_NE(memory, nullptr);
  nt_device_free_memory(device, memory);
  nt_device_free(device);
}
