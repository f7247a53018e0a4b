//===- EmulatorTestUtil.h - Loading kernels into the emulator ---*- C++ -*-===//
#ifndef NAUTILUS_TEST_UNIT_EMULATORTESTUTIL_H
#define NAUTILUS_TEST_UNIT_EMULATORTESTUTIL_H

#include "runtime/DType.h"
#include "runtime/emulator/SimtEmulator.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>
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

/// Fills `values` with f16-exact values of sin(0.1 i + seed) and `bits`
/// with their f16 encodings (attention inputs).
inline void fillHalfSines(std::vector<float> &values,
                          std::vector<uint16_t> &bits, int seed) {
  for (size_t i = 0; i < values.size(); ++i) {
    bits[i] = nautilus::rt::floatToF16Bits(std::sin(0.1f * float(i) + float(seed)));
    values[i] = nautilus::rt::f16BitsToFloat(bits[i]);
  }
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

} // namespace nautilus::emu::test

#endif
