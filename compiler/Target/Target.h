//===- Target.h - What Nautilus knows of each target -----------*- C++ -*-===//
//
// The targets of `--target`, their family, and the limits the default
// schedules respect.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TARGET_TARGET_H
#define NAUTILUS_TARGET_TARGET_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace nautilus {

enum class TargetFamily { CPU, NVIDIA, AMD };

struct TargetInfo {
  std::string name;          // "cpu", "sm_80", ...
  TargetFamily family;
  std::string chip;          // "sm_90a", "gfx942", "" for the host
  std::string ptxFeatures;   // "+ptx80"
  int64_t warpSize = 1;      // threads that run in lockstep
  int64_t maxThreadsPerProgram = 1;
  int64_t defaultThreads = 1;
  int64_t vectorBits = 0;    // host SIMD width (cpu): 512 with AVX-512
  // Multiprocessors (SMs, CUs) of the target's largest usual part (A100:
  // 108, H100 SXM and H200: 132); what a default schedule fills.
  int64_t multiprocessors = 1;
};

/// The target named `name`, or std::nullopt.
std::optional<TargetInfo> getTarget(llvm::StringRef name);

} // namespace nautilus

#endif
