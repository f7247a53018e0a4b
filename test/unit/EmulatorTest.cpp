//===- EmulatorTest.cpp - The SIMT emulator on hand-written kernels -------===//
#include "test/unit/EmulatorTestUtil.h"
#include "runtime/DType.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace nautilus::emu;
using namespace nautilus::emu::test;

namespace {

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

// Two groups of 64 threads synchronise on their own named barriers (1 and
// 2, 64 threads each): each group rotates its values.
const char *kGroups = R"(
declare void @llvm.nvvm.barrier.cta.sync.aligned(i32, i32)
define ptx_kernel void @groups(ptr %a, ptr %b) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = lshr i32 %t, 6
  %id = add i32 %g, 1
  %pa = getelementptr i32, ptr %a, i32 %t
  store i32 %t, ptr %pa
  call void @llvm.nvvm.barrier.cta.sync.aligned(i32 %id, i32 COUNT)
  %base = and i32 %t, -64
  %lane = and i32 %t, 63
  %n = add i32 %lane, 1
  %w = and i32 %n, 63
  %j = add i32 %base, %w
  %pj = getelementptr i32, ptr %a, i32 %j
  %v = load i32, ptr %pj
  %pb = getelementptr i32, ptr %b, i32 %t
  store i32 %v, ptr %pb
  ret void
})";

std::string runGroups(int count, std::vector<int32_t> &b) {
  std::string ir = std::string(kHeader) + kGroups;
  ir.replace(ir.find("COUNT"), 5, std::to_string(count));
  std::string error;
  auto emu = load(ir.c_str(), error);
  if (!emu)
    return error;
  std::vector<int32_t> a(128, -1);
  void *pa = a.data(), *pb = b.data();
  LaunchShape shape;
  shape.block = {128, 1, 1};
  return emu->launch("groups", shape, {&pa, &pb},
                     {{a.data(), 512}, {b.data(), 512}});
}

TEST(Emulator, NamedBarriers) {
  std::vector<int32_t> b(128, 0);
  ASSERT_EQ(runGroups(64, b), "");
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(b[t], (t & ~63) + ((t + 1) & 63)) << t;
  // Expecting 96 threads where 64 come: the barrier never releases.
  EXPECT_EQ(runGroups(96, b),
            "barrier deadlock in block 0: 128 threads wait at bar.sync 2 "
            "(64 of 96 arrivals)");
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
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %row = mul i32 %c, ROW
  %at = add i32 %row, %t
  %o = getelementptr i32, ptr %out, i32 %at
  store i32 %v, ptr %o
  ret void
})";

/// The reversal kernel, block b writing out[b * row + t].
std::string withBarrier(bool barrier, int row = 128) {
  std::string body = kReverse;
  body.replace(body.find("BARRIER"), 7,
               barrier ? "call void @llvm.nvvm.barrier0()" : "");
  body.replace(body.find("ROW"), 3, std::to_string(row));
  return std::string(kHeader) + body;
}

/// Two blocks of the reversal kernel (with its barrier), block b writing
/// out[b * row + t] into `out`; returns the launch's error.
std::string reverseTwoBlocks(int row, std::vector<int32_t> &out) {
  std::string error;
  auto emu = load(withBarrier(true, row).c_str(), error);
  if (!emu)
    return "loading: " + error;
  void *data = out.data();
  LaunchShape shape;
  shape.grid = {2, 1, 1};
  shape.block = {128, 1, 1};
  return emu->launch("reverse", shape, {&data},
                     {{out.data(), out.size() * sizeof(int32_t)}},
                     /*hostThreads=*/1);
}

// Shared memory is per block: each block reverses its own 128 values.
TEST(Emulator, SharedMemoryIsPerBlock) {
  std::vector<int32_t> out(256, 0);
  ASSERT_EQ(reverseTwoBlocks(/*row=*/128, out), "");
  for (int t = 0; t < 256; ++t)
    EXPECT_EQ(out[t], 127 - t % 128);
}

// Two blocks writing the same global bytes race, whatever the order the
// emulator ran them in (and though they write the same values).
TEST(Emulator, BlocksWritingTheSameBytesRace) {
  std::vector<int32_t> out(128, 0);
  EXPECT_EQ(reverseTwoBlocks(/*row=*/0, out),
            "global race: thread (0, 0, 0) of block (1, 0, 0): block 1 writes "
            "byte offset 0 of buffer #0, which block 0 writes in the same "
            "launch (its blocks are not ordered)");
}

// Without the barrier, the threads' accesses to one another's words race:
// thread 63 reads word 64 before thread 64 writes it (EmulatorRacesTest
// runs it in every fibre order).
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
  EXPECT_NE(result.find("shared-memory race (write after read): a store by "
                        "thread (64, 0, 0) of block (0, 0, 0) writes byte "
                        "offset 256, which thread 63 read, and nothing orders "
                        "the two"),
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

// redux.sync over a member mask of the even lanes.
TEST(Emulator, WarpReductions) {
  std::string ir = std::string(kHeader) + R"(
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umax(i32, i32)
define ptx_kernel void @redux(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %t, 1
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %reduce, label %done
reduce:
  %s = call i32 @llvm.nvvm.redux.sync.add(i32 %t, i32 1431655765)
  %m = call i32 @llvm.nvvm.redux.sync.umax(i32 %t, i32 1431655765)
  %r = add i32 %s, %m
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %r, ptr %p
  br label %done
done:
  ret void
})";
  std::string error;
  auto emu = load(ir.c_str(), error);
  ASSERT_TRUE(emu) << error;
  std::vector<int32_t> out(32, -1);
  void *po = out.data();
  LaunchShape shape;
  shape.block = {32, 1, 1};
  ASSERT_EQ(emu->launch("redux", shape, {&po}, {{out.data(), 128}}), "");
  // Sum of the even lanes 0..30 is 240, their maximum 30.
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(out[t], t % 2 == 0 ? 270 : -1) << t;
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

// One warp computes D = A B (16x16 by 16x8, f16 in, f32 out) the way
// tensor-core kernels do: operands staged in shared memory, A fragments by
// ldmatrix.x4, B fragments by ldmatrix.x2.trans from row-major B, one
// mma.sync.m16n8k16, D stored by the accumulator layout. Each layout is
// the PTX ISA's; a mistake in any of them breaks the product.
/// Runs the ldmatrix + mma kernel; returns how many elements of D differ
/// from A B.
int mmaMismatches(bool transposeB, bool halfAccumulator = false) {
  std::string ir = std::string(kHeader) + R"(
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16(ptr addrspace(3))
declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16(ptr addrspace(3))
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
@sa = internal addrspace(3) global [256 x i16] undef, align 16
@sb = internal addrspace(3) global [128 x i16] undef, align 16
define ptx_kernel void @mma(ptr %A, ptr %B, ptr %D) {
entry:
  %l = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %copy
copy:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %ia = add i32 %i, %l
  %ja = mul i32 %ia, 1
  %pa = getelementptr i16, ptr %A, i32 %ja
  %va = load i16, ptr %pa
  %sa_i = getelementptr [256 x i16], ptr addrspace(3) @sa, i32 0, i32 %ja
  store i16 %va, ptr addrspace(3) %sa_i
  %lt = icmp ult i32 %ja, 128
  br i1 %lt, label %copyb, label %next
copyb:
  %pb = getelementptr i16, ptr %B, i32 %ja
  %vb = load i16, ptr %pb
  %sb_i = getelementptr [128 x i16], ptr addrspace(3) @sb, i32 0, i32 %ja
  store i16 %vb, ptr addrspace(3) %sb_i
  br label %next
next:
  %i1 = add i32 %i, 32
  %more = icmp ult i32 %i1, 256
  br i1 %more, label %copy, label %compute
compute:
  call void @llvm.nvvm.barrier0()
  %m = lshr i32 %l, 3
  %r = and i32 %l, 7
  %mlow = and i32 %m, 1
  %mhigh = lshr i32 %m, 1
  %rowa0 = mul i32 %mlow, 8
  %rowa = add i32 %rowa0, %r
  %cola = mul i32 %mhigh, 8
  %ea0 = mul i32 %rowa, 16
  %ea = add i32 %ea0, %cola
  %adda = getelementptr [256 x i16], ptr addrspace(3) @sa, i32 0, i32 %ea
  %fa = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16(ptr addrspace(3) %adda)
  %mb = and i32 %m, 1
  %kb0 = mul i32 %mb, 8
  %kb = add i32 %kb0, %r
  %eb = mul i32 %kb, 8
  %addb = getelementptr [128 x i16], ptr addrspace(3) @sb, i32 0, i32 %eb
  %fb = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16(ptr addrspace(3) %addb)
  %a0 = extractvalue { i32, i32, i32, i32 } %fa, 0
  %a1 = extractvalue { i32, i32, i32, i32 } %fa, 1
  %a2 = extractvalue { i32, i32, i32, i32 } %fa, 2
  %a3 = extractvalue { i32, i32, i32, i32 } %fa, 3
  %b0 = extractvalue { i32, i32 } %fb, 0
  %b1 = extractvalue { i32, i32 } %fb, 1
  %ha0 = bitcast i32 %a0 to <2 x half>
  %ha1 = bitcast i32 %a1 to <2 x half>
  %ha2 = bitcast i32 %a2 to <2 x half>
  %ha3 = bitcast i32 %a3 to <2 x half>
  %hb0 = bitcast i32 %b0 to <2 x half>
  %hb1 = bitcast i32 %b1 to <2 x half>
  %d = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %ha0, <2 x half> %ha1, <2 x half> %ha2, <2 x half> %ha3, <2 x half> %hb0, <2 x half> %hb1, float 0.0, float 0.0, float 0.0, float 0.0)
  %g = lshr i32 %l, 2
  %t = and i32 %l, 3
  %c0 = mul i32 %t, 2
  %row0 = mul i32 %g, 8
  %o0 = add i32 %row0, %c0
  %o2 = add i32 %o0, 64
  %d0 = extractvalue { float, float, float, float } %d, 0
  %d1 = extractvalue { float, float, float, float } %d, 1
  %d2 = extractvalue { float, float, float, float } %d, 2
  %d3 = extractvalue { float, float, float, float } %d, 3
  %p0 = getelementptr float, ptr %D, i32 %o0
  store float %d0, ptr %p0
  %p1 = getelementptr float, ptr %p0, i32 1
  store float %d1, ptr %p1
  %p2 = getelementptr float, ptr %D, i32 %o2
  store float %d2, ptr %p2
  %p3 = getelementptr float, ptr %p2, i32 1
  store float %d3, ptr %p3
  ret void
})";
  if (!transposeB)
    for (size_t at; (at = ir.find(".x2.trans.b16")) != std::string::npos;)
      ir.replace(at, strlen(".x2.trans.b16"), ".x2.b16");
  auto replace = [&](const std::string &from, const std::string &to) {
    size_t at = ir.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    ir.replace(at, from.size(), to);
  };
  if (halfAccumulator) {
    // The same product with f16 accumulators: D comes back as two f16x2.
    replace("declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)",
            "declare { <2 x half>, <2 x half> } @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>)");
    replace("%d = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %ha0, <2 x half> %ha1, <2 x half> %ha2, <2 x half> %ha3, <2 x half> %hb0, <2 x half> %hb1, float 0.0, float 0.0, float 0.0, float 0.0)",
            "%dh = call { <2 x half>, <2 x half> } @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(<2 x half> %ha0, <2 x half> %ha1, <2 x half> %ha2, <2 x half> %ha3, <2 x half> %hb0, <2 x half> %hb1, <2 x half> zeroinitializer, <2 x half> zeroinitializer)\n"
            "  %dv0 = extractvalue { <2 x half>, <2 x half> } %dh, 0\n"
            "  %dv1 = extractvalue { <2 x half>, <2 x half> } %dh, 1");
    for (int i = 0; i < 4; ++i)
      replace("%d" + std::to_string(i) +
                  " = extractvalue { float, float, float, float } %d, " +
                  std::to_string(i),
              "%e" + std::to_string(i) + " = extractelement <2 x half> %dv" +
                  std::to_string(i / 2) + ", i32 " + std::to_string(i % 2) +
                  "\n  %d" + std::to_string(i) + " = fpext half %e" +
                  std::to_string(i) + " to float");
  }
  std::string error;
  auto emu = load(ir.c_str(), error);
  EXPECT_TRUE(emu) << error;
  if (!emu)
    return -1;
  std::vector<uint16_t> a(256), b(128);
  std::vector<float> af(256), bf(128), d(128, -1);
  for (int i = 0; i < 256; ++i) {
    af[i] = float((i * 7) % 13) - 6; // small integers: exact in f16
    a[i] = nautilus::rt::floatToF16Bits(af[i]);
  }
  for (int i = 0; i < 128; ++i) {
    bf[i] = float((i * 5) % 11) - 5;
    b[i] = nautilus::rt::floatToF16Bits(bf[i]);
  }
  void *pa = a.data(), *pb = b.data(), *pd = d.data();
  LaunchShape shape;
  shape.block = {32, 1, 1};
  EXPECT_EQ(emu->launch("mma", shape, {&pa, &pb, &pd},
                        {{a.data(), 512}, {b.data(), 256}, {d.data(), 512}}),
            "");
  int mismatches = 0;
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 8; ++col) {
      float want = 0;
      for (int k = 0; k < 16; ++k)
        want += af[row * 16 + k] * bf[k * 8 + col];
      mismatches += d[row * 8 + col] != want;
    }
  return mismatches;
}

TEST(Emulator, LdMatrixAndMmaComputeAProduct) {
  EXPECT_EQ(mmaMismatches(/*transposeB=*/true), 0);
}

TEST(Emulator, MmaWithHalfAccumulators) {
  EXPECT_EQ(mmaMismatches(/*transposeB=*/true, /*halfAccumulator=*/true), 0);
}

// A broken kernel: B loaded without .trans gives the fragments of B^T, and
// the product comes out wrong, as it would on the GPU.
TEST(Emulator, UntransposedLdMatrixGivesAWrongProduct) {
  EXPECT_GT(mmaMismatches(/*transposeB=*/false), 64);
}

const char *kAsyncCopy = R"(
declare void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32)
@stage = internal addrspace(3) global [128 x i32] undef, align 16
define ptx_kernel void @copy(ptr %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = mul i32 %t, 4
  %src = getelementptr i32, ptr %in, i32 %e
  %g = addrspacecast ptr %src to ptr addrspace(1)
  %dst = getelementptr [128 x i32], ptr addrspace(3) @stage, i32 0, i32 %e
  ; 16-byte copies of which the source gives 12 bytes: the last word is 0.
  call void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3) %dst, ptr addrspace(1) %g, i32 12)
  call void @llvm.nvvm.cp.async.commit.group()
  WAIT
  call void @llvm.nvvm.barrier0()
  %n = add i32 %t, 1
  %w = and i32 %n, 31
  %e2 = mul i32 %w, 4
  %p = getelementptr [128 x i32], ptr addrspace(3) @stage, i32 0, i32 %e2
  %v = load <4 x i32>, ptr addrspace(3) %p
  %o = getelementptr i32, ptr %out, i32 %e
  store <4 x i32> %v, ptr %o
  ret void
})";

std::vector<int32_t> runAsyncCopy(bool wait, std::string *launchError = nullptr) {
  std::string body = kAsyncCopy;
  body.replace(body.find("WAIT"), 4,
               wait ? "call void @llvm.nvvm.cp.async.wait.group(i32 0)" : "");
  std::string error;
  auto emu = load((std::string(kHeader) + body).c_str(), error);
  EXPECT_TRUE(emu) << error;
  std::vector<int32_t> in(128), out(128, 7);
  for (int i = 0; i < 128; ++i)
    in[i] = 100 + i;
  void *pi = in.data(), *po = out.data();
  LaunchShape shape;
  shape.block = {32, 1, 1};
  std::string launched = emu->launch("copy", shape, {&pi, &po},
                                     {{in.data(), 512}, {out.data(), 512}});
  if (launchError)
    *launchError = launched;
  else
    EXPECT_EQ(launched, "");
  return out;
}

// cp.async with a zero-filled tail lands at wait_group; a kernel that
// forgets the wait reads bytes a copy in flight writes: an async hazard,
// whenever the copy would land (it lands at the wait here, so the read saw
// the poisoned shared memory).
TEST(Emulator, AsyncCopiesLandAtTheWait) {
  std::vector<int32_t> out = runAsyncCopy(/*wait=*/true);
  for (int t = 0; t < 32; ++t) {
    int from = (t + 1) % 32;
    EXPECT_EQ(out[4 * t], 100 + 4 * from);
    EXPECT_EQ(out[4 * t + 2], 100 + 4 * from + 2);
    EXPECT_EQ(out[4 * t + 3], 0) << "zero fill";
  }
  std::string error;
  runAsyncCopy(/*wait=*/false, &error);
  EXPECT_EQ(error, "async hazard: a load by thread (0, 0, 0) of block (0, 0, "
                   "0) reads shared byte offset 16 while a cp.async copy in "
                   "flight writes it (wait for its group with "
                   "cp.async.wait_group first)");
}

// Kernels compiled by Triton (test/scripts/triton_fixtures.py): its global
// loads and stores are predicated inline PTX, its reductions warp shuffles
// and barriers through shared memory.
TEST(EmulatorOnTriton, VectorAdd) {
  std::string error;
  auto emu = loadFile("triton_add_sm80.ll", error);
  ASSERT_TRUE(emu) << error;
  const int n = 1000; // not a multiple of the 256-element block
  std::vector<float> x(n), y(n), out(n, -1);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  void *px = x.data(), *py = y.data(), *po = out.data(), *none = nullptr;
  int32_t size = n;
  LaunchShape shape;
  shape.grid = {(n + 255) / 256, 1, 1};
  shape.block = {128, 1, 1};
  ASSERT_EQ(emu->launch("add", shape, {&px, &py, &po, &size, &none, &none},
                        {{x.data(), n * 4}, {y.data(), n * 4},
                         {out.data(), n * 4}}),
            "");
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(out[i], x[i] + y[i]) << i;
}

TEST(EmulatorOnTriton, RowSoftmax) {
  std::string error;
  auto emu = loadFile("triton_softmax_sm80.ll", error);
  ASSERT_TRUE(emu) << error;
  const int rows = 7, cols = 100, stride = 104;
  std::vector<float> x(rows * stride, 0), y(rows * stride, -1);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x[r * stride + c] = std::sin(0.37f * (r * cols + c)) * (r + 1);
  void *px = x.data(), *py = y.data(), *none = nullptr;
  int32_t strideArg = stride, colsArg = cols;
  LaunchShape shape;
  shape.grid = {rows, 1, 1};
  shape.block = {128, 1, 1};
  shape.dynamicSharedBytes = 16;
  ASSERT_EQ(emu->launch("softmax", shape,
                        {&px, &py, &strideArg, &colsArg, &none, &none},
                        {{x.data(), x.size() * 4}, {y.data(), y.size() * 4}}),
            "");
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(x[r * stride + c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(x[r * stride + c]) - mx);
    for (int c = 0; c < cols; ++c) {
      double want = std::exp(double(x[r * stride + c]) - mx) / sum;
      EXPECT_NEAR(y[r * stride + c], want, 1e-6 + 1e-5 * want)
          << r << ", " << c;
    }
    EXPECT_EQ(y[r * stride + cols], -1) << "masked lanes store nothing";
  }
}

// Triton's tiled GEMM: fp16 tiles staged in shared memory, ldmatrix (also
// transposed), mma.sync as inline PTX, masked ragged edges.
TEST(EmulatorOnTriton, TensorCoreMatmul) {
  std::string error;
  auto emu = loadFile("triton_matmul_sm80.ll", error);
  ASSERT_TRUE(emu) << error;
  const int M = 50, N = 40, K = 70;
  HalfMatrix a(M * K, 1), b(K * N, 2);
  std::vector<float> c(M * N, -1);
  ASSERT_EQ(launchTritonMatmul(*emu, a.bits.data(), a.bits.size() * 2,
                               b.bits.data(), b.bits.size() * 2, c, M, N, K,
                               /*tile=*/32, /*sharedBytes=*/4096),
            "");
  EXPECT_TRUE(isExactProduct(c, a.values, b.values, M, N, K));
}

// Triton's GEMM on f32 operands: tf32 mma.sync m16n8k8 (the operands are
// exact in tf32, so the product is exact).
TEST(EmulatorOnTriton, Tf32Matmul) {
  std::string error;
  auto emu = loadFile("triton_matmul_tf32_sm80.ll", error);
  ASSERT_TRUE(emu) << error;
  const int M = 50, N = 40, K = 70;
  HalfMatrix a(M * K, 3), b(K * N, 4); // f16-exact values are tf32-exact
  std::vector<float> c(M * N, -1);
  ASSERT_EQ(launchTritonMatmul(*emu, a.values.data(), a.values.size() * 4,
                               b.values.data(), b.values.size() * 4, c, M, N,
                               K, /*tile=*/32, /*sharedBytes=*/8192),
            "");
  EXPECT_TRUE(isExactProduct(c, a.values, b.values, M, N, K));
}

// Triton's flash attention (online softmax, two mma.sync products a block,
// ex2.approx, warp and cross-warp reductions).
TEST(EmulatorOnTriton, FlashAttention) {
  std::string error;
  auto emu = loadFile("triton_attention_sm80.ll", error);
  ASSERT_TRUE(emu) << error;
  double worst = 0;
  ASSERT_EQ(runTritonAttention(*emu, /*rows=*/32, /*sharedBytes=*/4096, worst),
            "");
  // P is rounded to f16 before the second product: about 1e-3 relative.
  EXPECT_LT(worst, 2e-3);
}

std::string runHandoff(int arrivals, std::vector<int32_t> &out,
                       bool syncAfterInit = true) {
  std::string body = kHandoffKernel;
  body.replace(body.find("ARRIVALS"), 8, std::to_string(arrivals));
  body.replace(body.find("SKIPPER"), 7, "-1");
  if (!syncAfterInit) {
    const std::string sync = "sync:\n  call void @llvm.nvvm.barrier0()\n";
    body.replace(body.find(sync), sync.size(), "sync:\n");
  }
  std::string error;
  auto emu = load((std::string(kHeader) + body).c_str(), error);
  if (!emu)
    return error;
  void *po = out.data();
  LaunchShape shape;
  shape.block = {32, 1, 1};
  return emu->launch("handoff", shape, {&po}, {{out.data(), 128}});
}

// Thread 0 fills shared memory and arrives; the others wait on the phase
// (try_wait.parity) and then read what it wrote.
TEST(Emulator, MBarrierHandsOffData) {
  std::vector<int32_t> out(32, -7);
  ASSERT_EQ(runHandoff(1, out), "");
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(out[t], 3 * t);
}

// Initialised for two arrivals but only one comes: the phase never
// completes, and the waiters are reported instead of spinning forever.
TEST(Emulator, MBarrierThatNeverCompletesIsReported) {
  std::vector<int32_t> out(32, -7);
  EXPECT_EQ(runHandoff(2, out),
            "mbarrier deadlock in block 0: 32 threads (the first: thread 0) "
            "wait for mbarrier phases that never complete");
}

// Without the barrier after thread 0's mbarrier.init, nothing orders the
// init before the other threads' waits.
TEST(Emulator, MBarrierUsedBeforeItsInitIsOrderedIsReported) {
  std::vector<int32_t> out(32, -7);
  EXPECT_EQ(runHandoff(1, out, /*syncAfterInit=*/false),
            "an mbarrier wait by thread (1, 0, 0) of block (0, 0, 0) uses the "
            "mbarrier at shared byte offset 0 that thread 0 initialised with "
            "nothing ordering the init first (synchronise after "
            "mbarrier.init)");
}

TEST(Emulator, RefusesWhatItDoesNotEmulate) {
  std::string ir = std::string(kHeader) + R"(
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
define ptx_kernel void @match(ptr %a) {
  %v = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 1)
  store i32 %v, ptr %a
  ret void
})";
  std::string error;
  EXPECT_FALSE(load(ir.c_str(), error));
  EXPECT_EQ(error, "not emulated: llvm.nvvm.match.any.sync.i32");

  std::string inlineAsm = std::string(kHeader) + R"(
define ptx_kernel void @asm(ptr %a) {
  call void asm sideeffect "griddepcontrol.wait;", ""()
  ret void
})";
  EXPECT_FALSE(load(inlineAsm.c_str(), error));
  EXPECT_EQ(error, "not emulated: inline PTX 'griddepcontrol.wait;'");
}

} // namespace

namespace {

const char *kMemoryIntrinsics = R"(
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
define ptx_kernel void @fill(ptr %out, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %out, i8 7, i64 %n, i1 false)
  ret void
}
define ptx_kernel void @copy(ptr %out, ptr %in, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %in, i64 %n, i1 false)
  ret void
}
define ptx_kernel void @gather4(ptr %out, ptr %in, i32 %lanes) {
  %i0 = insertelement <4 x i32> undef, i32 %lanes, i32 0
  %splat = shufflevector <4 x i32> %i0, <4 x i32> undef, <4 x i32> zeroinitializer
  %mask = icmp ult <4 x i32> <i32 0, i32 1, i32 2, i32 3>, %splat
  %v = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %in, i32 4, <4 x i1> %mask, <4 x i32> <i32 -1, i32 -1, i32 -1, i32 -1>)
  store <4 x i32> %v, ptr %out
  ret void
})";

/// One thread of `kernel` from kMemoryIntrinsics over `args`, the first
/// `buffers` of them buffers (their sizes in `bytes`); returns the error.
std::string launchOne(const char *kernel, std::vector<void *> args,
                      std::vector<MemoryRange> buffers) {
  std::string error;
  auto emu = load((std::string(kHeader) + kMemoryIntrinsics).c_str(), error);
  if (!emu)
    return "loading: " + error;
  LaunchShape shape;
  return emu->launch(kernel, shape, args, buffers);
}

} // namespace

// memset and memcpy are checked as stores and loads of their length: in
// bounds they run; past a buffer the launch fails and nothing is written.
TEST(Emulator, MemoryIntrinsicsAreBoundsChecked) {
  std::vector<uint8_t> out(64, 0), in(64, 3);
  void *o = out.data(), *i = in.data();
  int64_t n = 64;
  EXPECT_EQ(launchOne("fill", {&o, &n}, {{out.data(), 64}}), "");
  EXPECT_EQ(out[63], 7);
  std::fill(out.begin(), out.end(), 0);
  n = 65;
  EXPECT_EQ(launchOne("fill", {&o, &n}, {{out.data(), 64}}),
            "out-of-bounds global store of 65 bytes at byte offset 0 of "
            "buffer #0 (64 bytes) by thread (0, 0, 0) of block (0, 0, 0)");
  EXPECT_EQ(out[0], 0); // not written
  n = 0;                 // an empty range is no access
  EXPECT_EQ(launchOne("fill", {&o, &n}, {{out.data(), 64}}), "");
  n = 64;
  EXPECT_EQ(launchOne("copy", {&o, &i, &n},
                      {{out.data(), 64}, {in.data(), 64}}),
            "");
  EXPECT_EQ(out[10], 3);
  std::fill(out.begin(), out.end(), 0);
  EXPECT_EQ(launchOne("copy", {&o, &i, &n},
                      {{out.data(), 64}, {in.data(), 32}}),
            "out-of-bounds global load of 64 bytes at byte offset 0 of "
            "buffer #1 (32 bytes) by thread (0, 0, 0) of block (0, 0, 0)");
  EXPECT_EQ(out[10], 0);
}

// A masked load reads only its enabled lanes: a disabled lane past the
// buffer is no access, an enabled one is out of bounds.
TEST(Emulator, MaskedLoadsCheckTheirEnabledLanes) {
  std::vector<int32_t> out(4, 0), in = {10, 11, 12};
  void *o = out.data(), *i = in.data();
  int32_t lanes = 3;
  EXPECT_EQ(launchOne("gather4", {&o, &i, &lanes},
                      {{out.data(), 16}, {in.data(), 12}}),
            "");
  EXPECT_EQ(out, (std::vector<int32_t>{10, 11, 12, -1}));
  lanes = 4;
  EXPECT_EQ(launchOne("gather4", {&o, &i, &lanes},
                      {{out.data(), 16}, {in.data(), 12}}),
            "out-of-bounds global load of 4 bytes at byte offset 12 of "
            "buffer #1 (12 bytes) by thread (0, 0, 0) of block (0, 0, 0)");
}
