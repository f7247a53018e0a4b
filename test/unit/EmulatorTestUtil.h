//===- EmulatorTestUtil.h - Loading kernels into the emulator ---*- C++ -*-===//
#ifndef NAUTILUS_TEST_UNIT_EMULATORTESTUTIL_H
#define NAUTILUS_TEST_UNIT_EMULATORTESTUTIL_H

#include "runtime/DType.h"
#include "runtime/emulator/SimtEmulator.h"
#include "runtime/emulator/TensorMap.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace nautilus::emu::test {

/// The emulator for a module of hand-written NVVM-level IR (verified first).
inline std::unique_ptr<SimtEmulator> load(const char *ir, std::string &error) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyString(ir, diag, *context);
  if (!module) {
    error = diag.getMessage().str() + " at line " +
            std::to_string(diag.getLineNo());
    return nullptr;
  }
  std::string broken;
  llvm::raw_string_ostream os(broken);
  if (llvm::verifyModule(*module, &os)) {
    error = "invalid test IR: " + broken;
    return nullptr;
  }
  return SimtEmulator::create(std::move(module), std::move(context), error);
}

/// The emulator for test/unit/Inputs/`name` (kernels another compiler made).
inline std::unique_ptr<SimtEmulator> loadFile(const std::string &name,
                                              std::string &error) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyFile(
      std::string(NAUTILUS_TEST_INPUTS) + "/" + name, diag, *context);
  if (!module) {
    error = diag.getMessage().str();
    return nullptr;
  }
  return SimtEmulator::create(std::move(module), std::move(context), error);
}

/// test/unit/Inputs/`name` with a fence.mbarrier_init after each of its
/// (predicated, inline PTX) mbarrier inits, by the initialising thread.
/// Triton's sm_90 TMA kernels (3.9 too) make their inits visible to the
/// async proxy with no fence, which the emulator reports (the PTX memory
/// model, and the CUDA guide's TMA example, want one); the other checks
/// run on this copy.
inline std::unique_ptr<SimtEmulator>
loadFileWithInitFence(const std::string &name, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(std::string(NAUTILUS_TEST_INPUTS) +
                                            "/" + name);
  if (!buffer) {
    error = "cannot read " + name;
    return nullptr;
  }
  std::string text = (*buffer)->getBuffer().str();
  const std::string init = "@$0 mbarrier.init.shared::cta.b64 [$1], 1;";
  for (size_t at = text.find(init); at != std::string::npos;
       at = text.find(init, at + 1))
    text.insert(at + init.size(),
                "\\0A@$0 fence.mbarrier_init.release.cluster;");
  return load(text.c_str(), error);
}

/// Thread 0 initialises an mbarrier for ARRIVALS arrivals, and after a
/// barrier fills 32 words of shared memory (word i = 3 i) and arrives; the
/// other threads wait for the phase (try_wait.parity) and read their word,
/// except thread SKIPPER, which reads without waiting. Each thread t writes
/// its word to out[t]. (Needs tid.x and barrier0 declared.)
inline const char *kHandoffKernel = R"(
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
@bar = internal addrspace(3) global i64 undef, align 8
@data = internal addrspace(3) global [32 x i32] undef, align 4
define ptx_kernel void @handoff(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %init, label %sync
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 ARRIVALS)
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  br i1 %first, label %produce, label %choose
choose:
  %skips = icmp eq i32 %t, SKIPPER
  br i1 %skips, label %read, label %wait
produce:
  br label %fill
fill:
  %i = phi i32 [ 0, %produce ], [ %i1, %fill ]
  %p = getelementptr [32 x i32], ptr addrspace(3) @data, i32 0, i32 %i
  %v = mul i32 %i, 3
  store i32 %v, ptr addrspace(3) %p
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 32
  br i1 %more, label %fill, label %arrive
arrive:
  %s = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @bar)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %read, label %wait
read:
  %q = getelementptr [32 x i32], ptr addrspace(3) @data, i32 0, i32 %t
  %w = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %w, ptr %o
  ret void
})";

/// Fills `values` with f16-exact values of sin(0.1 i + seed) and `bits`
/// with their f16 encodings (attention inputs).
inline void fillHalfSines(std::vector<float> &values,
                          std::vector<uint16_t> &bits, int seed) {
  for (size_t i = 0; i < values.size(); ++i) {
    bits[i] = nautilus::rt::floatToF16Bits(std::sin(0.1f * float(i) + float(seed)));
    values[i] = nautilus::rt::f16BitsToFloat(bits[i]);
  }
}

/// An f16 matrix with exactly representable values, and its floats.
struct HalfMatrix {
  std::vector<uint16_t> bits;
  std::vector<float> values;
  HalfMatrix(size_t elements, int seed) : bits(elements), values(elements) {
    for (size_t i = 0; i < elements; ++i) {
      values[i] = float(int((i * 7 + seed * 13) % 11) - 5) / 4;
      bits[i] = nautilus::rt::floatToF16Bits(values[i]);
    }
  }
};

/// Whether `c` is exactly the row-major product of `a` (M x K) and `b`
/// (K x N), all row-major (small exact values: the products are exact).
inline ::testing::AssertionResult isExactProduct(const std::vector<float> &c,
                                                 const std::vector<float> &a,
                                                 const std::vector<float> &b,
                                                 int M, int N, int K) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0;
      for (int k = 0; k < K; ++k)
        want += a[i * K + k] * b[k * N + j];
      if (c[i * N + j] != want)
        return ::testing::AssertionFailure()
               << "C[" << i << "][" << j << "] = " << c[i * N + j]
               << ", want " << want;
    }
  return ::testing::AssertionSuccess();
}

/// Launches the `matmul` kernel of test/scripts/triton_fixtures.py
/// (a, b, c, M, N, K, stride_am, stride_bk, stride_cm, and Triton's two
/// scratch pointers) on contiguous operands, one program per `tile` x
/// `tile` block of C.
inline std::string launchTritonMatmul(SimtEmulator &emu, const void *a,
                                      size_t aBytes, const void *b,
                                      size_t bBytes, std::vector<float> &c,
                                      int M, int N, int K, int tile,
                                      uint32_t sharedBytes) {
  void *pa = const_cast<void *>(a), *pb = const_cast<void *>(b),
       *pc = c.data(), *none = nullptr;
  int32_t m = M, n = N, k = K, sam = K, sbk = N, scm = N;
  LaunchShape shape;
  shape.grid = {uint32_t((M + tile - 1) / tile), uint32_t((N + tile - 1) / tile),
                1};
  shape.block = {128, 1, 1};
  shape.dynamicSharedBytes = sharedBytes;
  return emu.launch("matmul", shape,
                    {&pa, &pb, &pc, &m, &n, &k, &sam, &sbk, &scm, &none, &none},
                    {{a, aBytes}, {b, bBytes}, {c.data(), c.size() * 4}});
}

/// Launches the `tma_matmul` kernel of test/scripts/triton_fixtures.py
/// (sm_90: A and B through TMA tensor maps, 64 x 64 tiles) on `a` (M x K)
/// and `b` (K x N), into `c`.
inline std::string launchTritonTmaMatmul(SimtEmulator &emu,
                                         const HalfMatrix &a,
                                         const HalfMatrix &b,
                                         std::vector<float> &c, int M, int N,
                                         int K) {
  alignas(64) char mapA[128], mapB[128];
  uint64_t dimA[] = {uint64_t(K), uint64_t(M)}, strideA[] = {uint64_t(K) * 2};
  uint32_t boxA[] = {32, 64}, ones[] = {1, 1};
  std::string error = encodeTiledTensorMap(
      mapA, 2, 2, a.bits.data(), dimA, strideA, boxA, ones,
      TensorMapSwizzle::B64, TensorMapOobFill::Zero);
  uint64_t dimB[] = {uint64_t(N), uint64_t(K)}, strideB[] = {uint64_t(N) * 2};
  uint32_t boxB[] = {64, 32};
  error += encodeTiledTensorMap(mapB, 2, 2, b.bits.data(), dimB, strideB,
                                boxB, ones, TensorMapSwizzle::B128,
                                TensorMapOobFill::Zero);
  if (!error.empty())
    return error;
  int32_t m = M, n = N, k = K, scm = N;
  int64_t rowA = K, rowB = N, unit = 1;
  void *pc = c.data(), *none = nullptr;
  LaunchShape shape;
  shape.grid = {uint32_t(M + 63) / 64, uint32_t(N + 63) / 64, 1};
  shape.block = {128, 1, 1};
  shape.dynamicSharedBytes = 24600;
  return emu.launch("tma_matmul", shape,
                    {mapA, &m, &k, &rowA, &unit, mapB, &k, &n, &rowB, &unit,
                     &pc, &m, &n, &k, &scm, &none, &none},
                    {{a.bits.data(), a.bits.size() * 2},
                     {b.bits.data(), b.bits.size() * 2},
                     {pc, c.size() * 4}});
}

/// The largest difference between `o` and softmax(Q K^T scale) V computed
/// in double, for Q, O: [Z, N, D] and K, V: [Z, M, D], contiguous.
inline double attentionError(const std::vector<float> &q,
                             const std::vector<float> &k,
                             const std::vector<float> &v,
                             const std::vector<float> &o, int Z, int N, int M,
                             int D, double scale) {
  double worst = 0;
  for (int z = 0; z < Z; ++z)
    for (int n = 0; n < N; ++n) {
      std::vector<double> s(M);
      double mx = -INFINITY, sum = 0;
      for (int m = 0; m < M; ++m) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += double(q[(z * N + n) * D + d]) * k[(z * M + m) * D + d];
        s[m] = dot * scale;
        mx = std::max(mx, s[m]);
      }
      for (int m = 0; m < M; ++m)
        sum += std::exp(s[m] - mx);
      for (int d = 0; d < D; ++d) {
        double want = 0;
        for (int m = 0; m < M; ++m)
          want += std::exp(s[m] - mx) / sum * v[(z * M + m) * D + d];
        worst = std::max(worst, std::abs(o[(z * N + n) * D + d] - want));
      }
    }
  return worst;
}

/// Runs the `attention` kernel of test/scripts/triton_fixtures.py (Q, O:
/// [2, 64, 32]; K, V: [2, 96, 32], f16 in, f32 out) with `rows` query rows
/// a program; returns the launch's error, and in `worst` the largest
/// difference from a double-precision reference.
inline std::string runTritonAttention(SimtEmulator &emu, uint32_t rows,
                                      uint32_t sharedBytes, double &worst) {
  const int Z = 2, N = 64, M = 96, D = 32;
  std::vector<uint16_t> q(Z * N * D), k(Z * M * D), v(Z * M * D);
  std::vector<float> qf(q.size()), kf(k.size()), vf(v.size()),
      o(Z * N * D, -1);
  fillHalfSines(qf, q, 1);
  fillHalfSines(kf, k, 2);
  fillHalfSines(vf, v, 3);
  void *pq = q.data(), *pk = k.data(), *pv = v.data(), *po = o.data(),
       *none = nullptr;
  float scale = 1.0f / std::sqrt(float(D));
  LaunchShape shape;
  shape.grid = {N / rows, Z, 1};
  shape.block = {128, 1, 1};
  shape.dynamicSharedBytes = sharedBytes;
  std::string error = emu.launch(
      "attention", shape, {&pq, &pk, &pv, &po, &scale, &none, &none},
      {{q.data(), q.size() * 2},
       {k.data(), k.size() * 2},
       {v.data(), v.size() * 2},
       {o.data(), o.size() * 4}});
  worst = attentionError(qf, kf, vf, o, Z, N, M, D, scale);
  return error;
}

} // namespace nautilus::emu::test

#endif
