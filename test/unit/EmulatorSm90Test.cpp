//===- EmulatorSm90Test.cpp - Hopper's instructions on the emulator -------===//
//
// TMA copies with tensor maps and swizzles, mbarrier transactions and
// wgmma.mma_async from shared-memory descriptors: hand-written kernels
// checked against the PTX ISA's layouts, and kernels Triton compiled for
// sm_90 checked against plain C++ references.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/TensorMap.h"
#include "runtime/DType.h"
#include "test/unit/EmulatorTestUtil.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace nautilus::emu;
using namespace nautilus::emu::test;

namespace {

// Triton's sm_90 GEMM: tiles stored to shared memory by the threads (A
// 64-byte swizzled, K-major; B 128-byte swizzled, N-major) and multiplied
// by wgmma.mma_async m64n64k16 through matrix descriptors.
TEST(EmulatorOnTriton, WgmmaMatmulSm90) {
  std::string error;
  auto emu = loadFile("triton_matmul_sm90.ll", error);
  ASSERT_TRUE(emu) << error;
  const int M = 100, N = 70, K = 80;
  HalfMatrix a(M * K, 1), b(K * N, 2);
  std::vector<float> c(M * N, -1);
  ASSERT_EQ(launchTritonMatmul(*emu, a.bits.data(), a.bits.size() * 2,
                               b.bits.data(), b.bits.size() * 2, c, M, N, K,
                               /*tile=*/64, /*sharedBytes=*/16384),
            "");
  EXPECT_TRUE(isExactProduct(c, a.values, b.values, M, N, K));
}

/// Triton's TMA GEMM on `emu` at a ragged 100 x 72 x 88: the launch's
/// message, and whether C came out the exact product.
std::string runTritonTmaMatmul(SimtEmulator &emu, bool &exact) {
  const int M = 100, N = 72, K = 88;
  HalfMatrix a(M * K, 3), b(K * N, 4);
  std::vector<float> c(M * N, -1);
  std::string message = launchTritonTmaMatmul(emu, a, b, c, M, N, K);
  exact = isExactProduct(c, a.values, b.values, M, N, K);
  return message;
}

// Triton's sm_90 GEMM with TMA: tensor maps as __grid_constant__
// parameters, an elected thread issuing cp.async.bulk.tensor into a
// 3-stage ring of mbarriers, wgmma.wait_group 1 keeping one product in
// flight; ragged M, N and K read zeros outside the tensors.
TEST(EmulatorOnTriton, TmaWgmmaMatmulSm90) {
  std::string error;
  auto emu = loadFileWithInitFence("triton_tma_matmul_sm90.ll", error);
  ASSERT_TRUE(emu) << error;
  bool exact = false;
  ASSERT_EQ(runTritonTmaMatmul(*emu, exact), "");
  EXPECT_TRUE(exact);
}

// As Triton emits it, the same kernel initialises its mbarriers with no
// fence before TMA completes on them: reported, naming the copy, the
// mbarrier and the initialising thread.
TEST(EmulatorOnTriton, TmaCopiesNeedTheirMbarriersInitFenced) {
  std::string error;
  auto emu = loadFile("triton_tma_matmul_sm90.ll", error);
  ASSERT_TRUE(emu) << error;
  bool exact = false;
  std::string message = runTritonTmaMatmul(*emu, exact);
  EXPECT_NE(message.find("a TMA copy by thread"), std::string::npos) << message;
  EXPECT_NE(message.find("no fence ordered before the copy made visible "
                         "to the async proxy"),
            std::string::npos)
      << message;
}

// Triton's flash attention for sm_90: Q K^T with both operands from
// descriptors, P V with P (f16) from registers.
TEST(EmulatorOnTriton, FlashAttentionSm90) {
  std::string error;
  auto emu = loadFile("triton_attention_sm90.ll", error);
  ASSERT_TRUE(emu) << error;
  double worst = 0;
  ASSERT_EQ(runTritonAttention(*emu, /*rows=*/64, /*sharedBytes=*/8192, worst),
            "");
  EXPECT_LT(worst, 2e-3); // P is rounded to f16 before the second product
}

} // namespace

namespace {

// One elected thread loads a box with TMA (completing on an mbarrier),
// every thread copies the raw shared bytes out, and the box is stored back
// with TMA into another tensor at the same coordinates.
const char *kTmaKernel = R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
@box = internal addrspace(3) global [2048 x i8] undef, align 1024
@bar = internal addrspace(3) global i64 undef, align 8
define ptx_kernel void @tma(ptr byval([128 x i8]) align 64 %src,
                            ptr byval([128 x i8]) align 64 %dst, ptr %raw,
                            i32 %c0, i32 %c1, i32 %wait) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r"(i1 %first, ptr addrspace(3) @bar)
  call void asm sideeffect "@$0 fence.mbarrier_init.release.cluster;", "b"(i1 %first)
  call void @llvm.nvvm.barrier0()
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 2048;", "b,r"(i1 %first, ptr addrspace(3) @bar)
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %first, ptr addrspace(3) @box, ptr %src, i32 %c0, i32 %c1, ptr addrspace(3) @bar)
  %w = icmp ne i32 %wait, 0
  br i1 %w, label %waiting, label %copy
waiting:
  call void asm sideeffect "\0A{\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A}\0A", "r,r"(ptr addrspace(3) @bar, i32 0)
  br label %copy
copy:
  %j = phi i32 [ 0, %entry ], [ 0, %waiting ], [ %j1, %copy ]
  %base = mul i32 %t, 64
  %at = add i32 %base, %j
  %from = getelementptr i8, ptr addrspace(3) @box, i32 %at
  %v = load i32, ptr addrspace(3) %from
  %to = getelementptr i8, ptr %raw, i32 %at
  store i32 %v, ptr %to
  %j1 = add i32 %j, 4
  %more = icmp ult i32 %j1, 64
  br i1 %more, label %copy, label %store
store:
  call void @llvm.nvvm.barrier0()
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];", "b,l,r,r,r"(i1 %first, ptr %dst, i32 %c0, i32 %c1, ptr addrspace(3) @box)
  call void asm sideeffect "cp.async.bulk.commit_group;", ""()
  REUSE
  call void asm sideeffect "cp.async.bulk.wait_group.read 0;", ""()
  ret void
}
)";

struct TmaRun {
  std::vector<uint16_t> raw = std::vector<uint16_t>(1024, 0);
  std::vector<uint16_t> copy;
  std::string error;
};

// A 100 x 40 f16 tensor (element (r, c) = r * 100 + c), box 64 x 16 at
// (c0, c1), 128-byte swizzle.
TmaRun runTma(int32_t c0, int32_t c1, bool wait, const char *reuse = "",
              int expectedBytes = 2048) {
  TmaRun run;
  const int rows = 40, cols = 100;
  std::vector<uint16_t> src(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    src[i] = uint16_t(i);
  run.copy.assign(rows * cols, 0xbeef);
  alignas(64) char srcMap[128], dstMap[128];
  uint64_t dim[] = {cols, rows}, stride[] = {cols * 2 + 8};
  // Rows of 100 elements padded to 208 bytes (strides are multiples of 16).
  std::vector<uint16_t> padded(rows * 104, 0), out(rows * 104, 0xbeef);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      padded[r * 104 + c] = src[r * cols + c];
  uint32_t box[] = {64, 16}, ones[] = {1, 1};
  std::string e1 = encodeTiledTensorMap(srcMap, 2, 2, padded.data(), dim, stride,
                                        box, ones, TensorMapSwizzle::B128,
                                        TensorMapOobFill::Zero);
  std::string e2 = encodeTiledTensorMap(dstMap, 2, 2, out.data(), dim, stride,
                                        box, ones, TensorMapSwizzle::B128,
                                        TensorMapOobFill::Zero);
  if (!e1.empty() || !e2.empty()) {
    run.error = e1 + e2;
    return run;
  }
  std::string ir = kTmaKernel;
  ir.replace(ir.find("REUSE"), 5, reuse);
  const std::string expect = "[$1], 2048;";
  ir.replace(ir.find(expect), expect.size(),
             "[$1], " + std::to_string(expectedBytes) + ";");
  auto emu = load(ir.c_str(), run.error);
  if (!emu)
    return run;
  void *praw = run.raw.data();
  int32_t waitArg = wait;
  LaunchShape shape;
  shape.block = {32, 1, 1};
  run.error = emu->launch("tma", shape,
                          {srcMap, dstMap, &praw, &c0, &c1, &waitArg},
                          {{padded.data(), padded.size() * 2},
                           {out.data(), out.size() * 2},
                           {praw, run.raw.size() * 2}});
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      run.copy[r * cols + c] = out[r * 104 + c];
  return run;
}

// The PTX ISA's 128-byte swizzle: 16-byte chunk j of box row r (128 bytes,
// the box starts 1024-byte aligned) lands at chunk j ^ (r % 8).
TEST(Emulator, TmaLoadSwizzlesZeroFillsAndStoresInBounds) {
  const int c0 = 60, c1 = -3; // columns 60-123 (100+ outside), rows -3..12
  TmaRun run = runTma(c0, c1, /*wait=*/true);
  ASSERT_EQ(run.error, "");
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 64; ++c) {
      int chunk = (c / 8) ^ (r % 8);
      uint16_t got = run.raw[r * 64 + chunk * 8 + c % 8];
      int gr = c1 + r, gc = c0 + c;
      uint16_t want = gr >= 0 && gc < 100 ? uint16_t(gr * 100 + gc) : 0;
      ASSERT_EQ(got, want) << "box row " << r << ", column " << c;
    }
  // The store writes back exactly the in-bounds part of the box.
  for (int r = 0; r < 40; ++r)
    for (int c = 0; c < 100; ++c) {
      bool inBox = r >= c1 && r < c1 + 16 && c >= c0 && c < c0 + 64;
      ASSERT_EQ(run.copy[r * 100 + c], inBox ? uint16_t(r * 100 + c) : 0xbeef)
          << r << ", " << c;
    }
}

// Reading the box without waiting for the mbarrier phase reads bytes a
// TMA copy in flight writes: an async hazard, whenever the copy would land.
TEST(Emulator, ReadingATmaBoxBeforeItsPhaseCompletesIsAHazard) {
  TmaRun run = runTma(0, 0, /*wait=*/false);
  EXPECT_EQ(run.error, "async hazard: a load by thread (0, 0, 0) of block "
                       "(0, 0, 0) reads shared byte offset 0 while a TMA copy "
                       "in flight writes it (wait for its mbarrier phase "
                       "first)");
}

// An expect_tx that announces fewer bytes than the copies complete lets the
// phase complete before they all land on the GPU.
TEST(Emulator, ExpectingFewerTmaBytesThanCopiedIsReported) {
  TmaRun run = runTma(0, 0, /*wait=*/true, "", /*expectedBytes=*/1024);
  EXPECT_EQ(run.error, "mbarrier at shared byte offset 2048: phase 0 "
                       "completed 1024 transaction bytes more than expect_tx "
                       "announced (the phase may complete before its copies "
                       "land: expect every byte)");
}

// Writing a TMA store's source before cp.async.bulk.wait_group.read is a
// hazard, though the emulator's store has read it already.
TEST(Emulator, ReusingATmaStoresSourceBeforeItsWaitIsAHazard) {
  TmaRun run = runTma(0, 0, /*wait=*/true,
                      "store i32 0, ptr addrspace(3) @box");
  EXPECT_EQ(run.error, "async hazard: a store by thread (0, 0, 0) of block "
                       "(0, 0, 0) writes shared byte offset 0 while a TMA "
                       "store in flight reads it (wait for it with "
                       "cp.async.bulk.wait_group.read first)");
}

TEST(Emulator, TensorMapRulesAreChecked) {
  alignas(64) char map[128];
  alignas(16) static uint16_t data[64 * 64];
  uint64_t dim[] = {64, 64}, wide[] = {80, 64}, stride[] = {128},
           badStride[] = {100};
  uint32_t box[] = {64, 8}, ones[] = {1, 1}, odd[] = {4, 8};
  EXPECT_EQ(encodeTiledTensorMap(map, 2, 2, data, dim, badStride, box, ones,
                                 TensorMapSwizzle::None, TensorMapOobFill::Zero),
            "globalStrides[0] must be a multiple of 16 below 2^40");
  EXPECT_EQ(encodeTiledTensorMap(map, 2, 2, data, wide, stride, box, ones,
                                 TensorMapSwizzle::None, TensorMapOobFill::Zero),
            "globalStrides[0] is smaller than the dimensions inside it");
  EXPECT_EQ(encodeTiledTensorMap(map, 2, 2, data, dim, stride, odd, ones,
                                 TensorMapSwizzle::None, TensorMapOobFill::Zero),
            "boxDim[0] * elementBytes must be a multiple of 16");
  EXPECT_EQ(encodeTiledTensorMap(map, 2, 2, data, dim, stride, box, ones,
                                 TensorMapSwizzle::B64, TensorMapOobFill::Zero),
            "boxDim[0] * elementBytes (128) must not exceed the swizzle span "
            "(64 bytes)");
  EXPECT_EQ(encodeTiledTensorMap(map, 2, 2, data, dim, stride, box, ones,
                                 TensorMapSwizzle::B128, TensorMapOobFill::Zero),
            "");
}

} // namespace

namespace {

// 128 threads copy a 16 KiB shared-memory image in, then one wgmma
// m64n8k16 reads A (64 x 16) at offset 0 and B (16 x 8) at offset 8192
// through the given descriptors; each thread writes its 4 accumulators.
const char *kWgmmaKernel = R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
declare void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64)
@smem = internal addrspace(3) global [16384 x i8] undef, align 1024
define ptx_kernel void @wgmma(ptr %in, ptr %out, i64 %da, i64 %db) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %t, 128
  br label %copy
copy:
  %j = phi i32 [ 0, %entry ], [ %j1, %copy ]
  %at = add i32 %base, %j
  %from = getelementptr i8, ptr %in, i32 %at
  %v = load i32, ptr %from
  %to = getelementptr i8, ptr addrspace(3) @smem, i32 %at
  store i32 %v, ptr addrspace(3) %to
  %j1 = add i32 %j, 4
  %more = icmp ult i32 %j1, 128
  br i1 %more, label %copy, label %multiply
multiply:
  call void @llvm.nvvm.barrier0()
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %d = call { float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, $4, $5, 0, 1, 1, TRANS_A, TRANS_B;", "=f,=f,=f,=f,l,l"(i64 %da, i64 %db)
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  REUSE
  call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
  %d0 = extractvalue { float, float, float, float } %d, 0
  %d1 = extractvalue { float, float, float, float } %d, 1
  %d2 = extractvalue { float, float, float, float } %d, 2
  %d3 = extractvalue { float, float, float, float } %d, 3
  %o = mul i32 %t, 4
  %p0 = getelementptr float, ptr %out, i32 %o
  store float %d0, ptr %p0
  %p1 = getelementptr float, ptr %p0, i32 1
  store float %d1, ptr %p1
  %p2 = getelementptr float, ptr %p0, i32 2
  store float %d2, ptr %p2
  %p3 = getelementptr float, ptr %p0, i32 3
  store float %d3, ptr %p3
  ret void
}
)";

/// A shared-memory operand layout of the PTX ISA ("Shared Memory Matrix
/// Layout"): K-major or MN-major, with a swizzle of `width` bytes (0:
/// none), and the leading and stride byte offsets it is placed with.
struct OperandLayout {
  bool kMajor;
  unsigned width;
  unsigned leading, stride;

  /// The byte offset of f16 element (mn, k), written from the ISA's
  /// description: without a swizzle, 8 x 8 core matrices of 8 rows of 16
  /// contiguous bytes; with one, rows of `width` bytes, 8 rows to a group,
  /// then the XOR of address bits 4.. with bits 7...
  unsigned offset(unsigned mn, unsigned k) const {
    unsigned at;
    if (width == 0) {
      unsigned row = kMajor ? mn : k, column = kMajor ? k : mn;
      unsigned core = (mn / 8) * stride + (k / 8) * leading;
      at = core + (row % 8) * 16 + (column % 8) * 2;
    } else if (kMajor) {
      at = (mn / 8) * stride + (mn % 8) * width + k * 2;
    } else {
      unsigned perRow = width / 2; // elements of mn in a row
      at = (k / 8) * stride + (k % 8) * width + (mn / perRow) * leading +
           (mn % perRow) * 2;
    }
    static const unsigned mask[] = {0, 0, 1, 0, 3, 0, 0, 0, 7};
    return at ^ (((at >> 7) & mask[width / 16]) << 4);
  }

  uint64_t descriptor(unsigned start) const {
    uint64_t mode = width == 128 ? 1 : width == 64 ? 2 : width == 32 ? 3 : 0;
    return uint64_t(start >> 4) | uint64_t(leading >> 4) << 16 |
           uint64_t(stride >> 4) << 32 | mode << 62;
  }
};

/// A's layout (64 rows of M) for a major order and swizzle width.
OperandLayout layoutA(bool kMajor, unsigned width) {
  if (width == 0)
    return kMajor ? OperandLayout{true, 0, 128, 256}
                  : OperandLayout{false, 0, 1024, 128};
  if (kMajor)
    return {true, width, 0, 8 * width};
  // MN-major: width / 2 elements of M to a row; 8 rows of K to a group.
  return {false, width, 8 * width * 2, 8 * width};
}

/// B's layout (8 columns of N).
OperandLayout layoutB(bool kMajor, unsigned width) {
  if (width == 0)
    return {kMajor, 0, 128, 256};
  return {kMajor, width, 0, 8 * width};
}

/// Runs kWgmmaKernel, with `reuse` after the commit and the given
/// transposes, on the 16 KiB shared-memory `image` with descriptors `da`
/// and `db` (without the fence.proxy.async after the barrier if not
/// `fenced`); fills `out` (4 accumulators a thread) and returns the
/// launch's error ("" when it ran).
std::string runWgmmaKernel(const std::string &reuse, bool transposeA,
                           bool transposeB, std::vector<uint16_t> &image,
                           uint64_t da, uint64_t db, std::vector<float> &out,
                           bool fenced = true) {
  std::string ir = kWgmmaKernel;
  if (!fenced) {
    const std::string fence = "  call void asm sideeffect "
                              "\"fence.proxy.async.shared::cta;\", \"\"()\n";
    ir.erase(ir.find(fence), fence.size());
  }
  ir.replace(ir.find("REUSE"), 5, reuse);
  ir.replace(ir.find("TRANS_A"), 7, transposeA ? "1" : "0");
  ir.replace(ir.find("TRANS_B"), 7, transposeB ? "1" : "0");
  std::string error;
  auto emu = load(ir.c_str(), error);
  if (!emu)
    return "loading: " + error;
  out.assign(128 * 4, -1);
  void *pin = image.data(), *pout = out.data();
  LaunchShape shape;
  shape.block = {128, 1, 1};
  return emu->launch("wgmma", shape, {&pin, &pout, &da, &db},
                     {{pin, image.size() * 2}, {pout, out.size() * 4}});
}

// wgmma.mma_async reads A and B through descriptors in every canonical
// layout (K-major and MN-major, no swizzle and 32-, 64-, 128-byte
// swizzles); the accumulators come back in the ISA's fragment layout.
TEST(Emulator, WgmmaReadsEveryDescriptorLayout) {
  HalfMatrix a(64 * 16, 5), b(16 * 8, 6);
  for (bool kMajorA : {true, false})
    for (unsigned width : {0u, 32u, 64u, 128u}) {
      bool kMajorB = !kMajorA;
      OperandLayout la = layoutA(kMajorA, width), lb = layoutB(kMajorB, width);
      std::vector<uint16_t> image(8192, 0x7e00); // NaN where nothing is
      for (unsigned m = 0; m < 64; ++m)
        for (unsigned k = 0; k < 16; ++k)
          image[la.offset(m, k) / 2] = a.bits[m * 16 + k];
      for (unsigned k = 0; k < 16; ++k)
        for (unsigned n = 0; n < 8; ++n)
          image[(8192 + lb.offset(n, k)) / 2] = b.bits[k * 8 + n];
      std::vector<float> out;
      ASSERT_EQ(runWgmmaKernel("", !kMajorA, !kMajorB, image,
                               la.descriptor(0), lb.descriptor(8192), out),
                "");
      for (unsigned t = 0; t < 128; ++t)
        for (unsigned i = 0; i < 4; ++i) {
          unsigned row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2);
          unsigned col = 2 * (t % 4) + i % 2;
          float want = 0;
          for (unsigned k = 0; k < 16; ++k)
            want += a.values[row * 16 + k] * b.values[k * 8 + col];
          ASSERT_EQ(out[t * 4 + i], want)
              << "A " << (kMajorA ? "K" : "M") << "-major, B "
              << (kMajorB ? "K" : "N") << "-major, swizzle " << width
              << ": thread " << t << " register " << i;
        }
    }
}

// The same product from a descriptor that names the wrong swizzle reads a
// scrambled A: the emulator does not guess layouts.
TEST(Emulator, WgmmaWithTheWrongSwizzleGivesAWrongProduct) {
  HalfMatrix a(64 * 16, 5), b(16 * 8, 6);
  OperandLayout la = layoutA(true, 128), lb = layoutB(true, 0);
  std::vector<uint16_t> image(8192, 0);
  for (unsigned m = 0; m < 64; ++m)
    for (unsigned k = 0; k < 16; ++k)
      image[la.offset(m, k) / 2] = a.bits[m * 16 + k];
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned n = 0; n < 8; ++n)
      image[(8192 + lb.offset(n, k)) / 2] = b.bits[k * 8 + n];
  OperandLayout wrong = la;
  wrong.width = 64;
  std::vector<float> out;
  ASSERT_EQ(runWgmmaKernel("", false, false, image, wrong.descriptor(0),
                           lb.descriptor(8192), out),
            "");
  int wrongElements = 0;
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < 4; ++i) {
      unsigned row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2);
      unsigned col = 2 * (t % 4) + i % 2;
      float want = 0;
      for (unsigned k = 0; k < 16; ++k)
        want += a.values[row * 16 + k] * b.values[k * 8 + col];
      wrongElements += out[t * 4 + i] != want;
    }
  EXPECT_GT(wrongElements, 256);
}

// Operands the threads stored must be fenced for the async proxy before
// wgmma reads them (fence.proxy.async after the stores, or after the
// barrier that orders them); without the fence wgmma may read old bytes.
TEST(Emulator, WgmmaReadingUnfencedStoresIsAHazard) {
  OperandLayout la = layoutA(true, 128), lb = layoutB(true, 0);
  std::vector<uint16_t> image(8192, 0);
  std::vector<float> out;
  EXPECT_EQ(runWgmmaKernel("", false, false, image, la.descriptor(0),
                           lb.descriptor(8192), out, /*fenced=*/false),
            "async proxy hazard: a wgmma by thread (0, 0, 0) of block (0, 0, "
            "0) reads shared byte offset 0, which thread 0 stored with no "
            "fence.proxy.async since (the async proxy may not see the store: "
            "fence after storing, then synchronise)");
}

// Overwriting a wgmma operand before wgmma.wait_group retires its group (a
// pipeline stage released one step early) is a hazard, though the
// emulator's wgmma has read it already: right after the commit, or after
// a wait_group 1 that leaves a newer group reading it in flight. After
// wait_group 0 and a barrier the same store is fine.
TEST(Emulator, OverwritingAWgmmaOperandBeforeItsWaitIsAHazard) {
  OperandLayout la = layoutA(true, 128), lb = layoutB(true, 0);
  std::vector<uint16_t> image(8192, 0);
  const std::string overwriteA = "store i32 0, ptr addrspace(3) @smem\n";
  const std::string secondGroup =
      "%again = call { float, float, float, float } asm sideeffect "
      "\"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, "
      "$4, $5, 0, 1, 1, 0, 0;\", \"=f,=f,=f,=f,l,l\"(i64 %da, i64 %db)\n"
      "call void @llvm.nvvm.wgmma.commit_group.sync.aligned()\n";
  auto waitThenBarrier = [](int pending) {
    return "call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 " +
           std::to_string(pending) +
           ")\ncall void @llvm.nvvm.barrier0()\n";
  };
  // (Which thread stores first depends on where the threads wait for the
  // warpgroup's slowest at wait_group.)
  const std::string hazard =
      "of block (0, 0, 0) writes shared byte offset 0 while a wgmma group "
      "in flight reads it (retire the group with wgmma.wait_group first)";
  const std::pair<std::string, std::string> cases[] = {
      {overwriteA, hazard},
      {secondGroup + waitThenBarrier(1) + overwriteA, hazard},
      {secondGroup + waitThenBarrier(0) + overwriteA, ""},
  };
  for (const auto &[reuse, expected] : cases) {
    std::vector<float> out;
    std::string result = runWgmmaKernel(reuse, false, false, image,
                                        la.descriptor(0), lb.descriptor(8192),
                                        out);
    if (expected.empty())
      EXPECT_EQ(result, "") << reuse;
    else
      EXPECT_TRUE(result.find("async hazard: a store by thread (") == 0 &&
                  result.find(expected) != std::string::npos)
          << reuse << "\n" << result;
  }
}

} // namespace
