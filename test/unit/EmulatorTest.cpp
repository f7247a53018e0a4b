//===- EmulatorTest.cpp - The SIMT emulator on hand-written kernels -------===//
#include "runtime/emulator/SimtEmulator.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>

using namespace nautilus::emu;

namespace {

std::unique_ptr<SimtEmulator> load(const char *ir, std::string &error) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyString(ir, diag, *context);
  if (!module) {
    error = diag.getMessage().str();
    return nullptr;
  }
  return SimtEmulator::create(std::move(module), std::move(context), error);
}

const char *kHeader = R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
)";

TEST(Emulator, SpecialRegisters) {
  std::string ir = std::string(kHeader) + R"(
define ptx_kernel void @ids(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %c, %n
  %i = add i32 %base, %t
  %p = getelementptr i32, ptr %out, i32 %i
  %v = mul i32 %c, 1000
  %w = add i32 %v, %t
  store i32 %w, ptr %p
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> out(3 * 64, -1);
  void *data = out.data();
  LaunchShape shape;
  shape.grid = {3, 1, 1};
  shape.block = {64, 1, 1};
  ASSERT_EQ(emu->launch("ids", shape, {&data},
                        {{out.data(), out.size() * sizeof(int32_t)}}),
            "");
  for (int c = 0; c < 3; ++c)
    for (int t = 0; t < 64; ++t)
      EXPECT_EQ(out[c * 64 + t], c * 1000 + t);
}

// Each thread writes its slot, waits at the barrier, then reads its
// neighbour's: right only if no thread passes the barrier early.
TEST(Emulator, BarrierOrdersTheBlock) {
  std::string ir = std::string(kHeader) + R"(
define ptx_kernel void @rotate(ptr %a, ptr %b) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %pa = getelementptr i32, ptr %a, i32 %t
  %v = add i32 %t, 7
  store i32 %v, ptr %pa
  call void @llvm.nvvm.barrier0()
  %t1 = add i32 %t, 1
  %j = urem i32 %t1, %n
  %pj = getelementptr i32, ptr %a, i32 %j
  %w = load i32, ptr %pj
  %pb = getelementptr i32, ptr %b, i32 %t
  store i32 %w, ptr %pb
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> a(128, 0), b(128, 0);
  void *pa = a.data(), *pb = b.data();
  LaunchShape shape;
  shape.block = {128, 1, 1};
  ASSERT_EQ(emu->launch("rotate", shape, {&pa, &pb},
                        {{a.data(), 512}, {b.data(), 512}}),
            "");
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(b[t], (t + 1) % 128 + 7) << "thread " << t;
}

TEST(Emulator, BarrierDivergenceIsReported) {
  std::string ir = std::string(kHeader) + R"(
define ptx_kernel void @diverge(ptr %a) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %out, label %wait
wait:
  call void @llvm.nvvm.barrier0()
  br label %out
out:
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  int32_t dummy = 0;
  void *p = &dummy;
  LaunchShape shape;
  shape.block = {32, 1, 1};
  std::string result = emu->launch("diverge", shape, {&p}, {});
  EXPECT_NE(result.find("barrier divergence in block 0: 1 threads exited "
                        "while 31 wait at bar.sync"),
            std::string::npos)
      << result;
}

// A store one element past the end of its buffer is caught, and not done.
TEST(Emulator, OutOfBoundsStoreIsReported) {
  std::string ir = std::string(kHeader) + R"(
define ptx_kernel void @overrun(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %t, ptr %p
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> out(33, -1); // one guard element past the buffer
  void *data = out.data();
  LaunchShape shape;
  shape.block = {33, 1, 1};
  std::string result = emu->launch("overrun", shape, {&data},
                                   {{out.data(), 32 * sizeof(int32_t)}});
  EXPECT_EQ(result, "out-of-bounds global store of 4 bytes at byte offset "
                    "128 of buffer #0 (128 bytes) by thread (32, 0, 0) of "
                    "block (0, 0, 0)");
  EXPECT_EQ(out[32], -1); // the store did not happen
  EXPECT_EQ(out[31], 31);
}

const char *kReverse = R"(
@tile = internal addrspace(3) global [128 x i32] undef, align 4
define ptx_kernel void @reverse(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [128 x i32], ptr addrspace(3) @tile, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p
  BARRIER
  %r = sub i32 127, %t
  %q = getelementptr [128 x i32], ptr addrspace(3) @tile, i32 0, i32 %r
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %v, ptr %o
  ret void
})";

std::string withBarrier(bool barrier) {
  std::string body = kReverse;
  body.replace(body.find("BARRIER"), 7,
               barrier ? "call void @llvm.nvvm.barrier0()" : "");
  return std::string(kHeader) + body;
}

// Shared memory is per block: each block reverses its own 128 values.
TEST(Emulator, SharedMemoryIsPerBlock) {
  std::string error;
  auto emu = load(withBarrier(true).c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> out(128, 0);
  void *data = out.data();
  LaunchShape shape;
  shape.grid = {2, 1, 1};
  shape.block = {128, 1, 1};
  ASSERT_EQ(emu->launch("reverse", shape, {&data},
                        {{out.data(), out.size() * sizeof(int32_t)}}),
            "");
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(out[t], 127 - t);
}

// Without the barrier, reading a word another thread wrote in the same
// barrier interval is a race.
TEST(Emulator, MissingBarrierIsARace) {
  std::string error;
  auto emu = load(withBarrier(false).c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> out(128, 0);
  void *data = out.data();
  LaunchShape shape;
  shape.block = {128, 1, 1};
  std::string result = emu->launch(
      "reverse", shape, {&data}, {{out.data(), out.size() * sizeof(int32_t)}});
  EXPECT_NE(result.find("shared-memory race: thread (64, 0, 0) of block "
                        "(0, 0, 0) reads byte offset 252 written by thread 63 "
                        "with no bar.sync in between"),
            std::string::npos)
      << result;
}

// A butterfly reduction: after five xor-shuffles every lane holds the sum
// of the warp's values; shfl.sync.up gives each lane its left neighbour's.
TEST(Emulator, WarpShufflesAndVotes) {
  std::string ir = std::string(kHeader) + R"(
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.up.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
define ptx_kernel void @warp(ptr %sum, ptr %left, ptr %ballot) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %v = phi i32 [ %t, %entry ], [ %next, %loop ]
  %k = phi i32 [ 16, %entry ], [ %k2, %loop ]
  %other = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v, i32 %k, i32 31)
  %next = add i32 %v, %other
  %k2 = lshr i32 %k, 1
  %more = icmp ne i32 %k2, 0
  br i1 %more, label %loop, label %done
done:
  %ps = getelementptr i32, ptr %sum, i32 %t
  store i32 %next, ptr %ps
  %f = uitofp i32 %t to float
  %l = call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %f, i32 1, i32 0)
  %pl = getelementptr float, ptr %left, i32 %t
  store float %l, ptr %pl
  %odd = trunc i32 %t to i1
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)
  %pb = getelementptr i32, ptr %ballot, i32 %t
  store i32 %b, ptr %pb
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> sum(64), ballot(64);
  std::vector<float> left(64);
  void *ps = sum.data(), *pl = left.data(), *pb = ballot.data();
  LaunchShape shape;
  shape.block = {64, 1, 1};
  ASSERT_EQ(emu->launch("warp", shape, {&ps, &pl, &pb},
                        {{sum.data(), 256}, {left.data(), 256},
                         {ballot.data(), 256}}),
            "");
  for (int t = 0; t < 64; ++t) {
    int warpBase = t / 32 * 32;
    EXPECT_EQ(sum[t], 32 * warpBase + 31 * 32 / 2) << "lane " << t;
    EXPECT_EQ(left[t], t % 32 == 0 ? float(t) : float(t - 1)) << "lane " << t;
    EXPECT_EQ(uint32_t(ballot[t]), 0xAAAAAAAAu) << "lane " << t;
  }
}

// A lane that exits before the others shuffle leaves them waiting.
TEST(Emulator, ShuffleWithAnExitedLaneIsReported) {
  std::string ir = std::string(kHeader) + R"(
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
define ptx_kernel void @early(ptr %a) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 3
  br i1 %first, label %out, label %shuffle
shuffle:
  %v = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t, i32 0, i32 31)
  br label %out
out:
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  int32_t dummy;
  void *p = &dummy;
  LaunchShape shape;
  shape.block = {32, 1, 1};
  EXPECT_EQ(emu->launch("early", shape, {&p}, {}),
            "in block 0: lane 3 of warp 0 is in the member mask of a warp "
            "collective but has exited");
}

TEST(Emulator, RefusesWhatItDoesNotEmulate) {
  std::string ir = std::string(kHeader) + R"(
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
define ptx_kernel void @reduce(ptr %a) {
  %v = call i32 @llvm.nvvm.redux.sync.add(i32 1, i32 -1)
  store i32 %v, ptr %a
  ret void
})";
  std::string error;
  EXPECT_FALSE(load(ir.c_str(), error));
  EXPECT_EQ(error, "not emulated: llvm.nvvm.redux.sync.add");

  std::string inlineAsm = std::string(kHeader) + R"(
define ptx_kernel void @asm(ptr %a) {
  call void asm sideeffect "fence.proxy.async;", ""()
  ret void
})";
  EXPECT_FALSE(load(inlineAsm.c_str(), error));
  EXPECT_EQ(error, "not emulated: inline PTX 'fence.proxy.async;'");
}

} // namespace
