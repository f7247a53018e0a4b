//===- Target.cpp ---------------------------------------------------------===//
#include "compiler/Target/Target.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

using namespace nautilus;

std::optional<TargetInfo> nautilus::getTarget(llvm::StringRef name) {
  if (name == "cpu") {
    // The host: code is compiled for the machine nautc runs on.
    TargetInfo info{"cpu", TargetFamily::CPU, "", "", 1, 1, 1};
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    info.vectorBits = features.lookup("avx512f") ? 512
                      : features.lookup("avx2") ? 256
                                                : 128;
    return info;
  }
  if (name == "sm_80")
    return TargetInfo{"sm_80", TargetFamily::NVIDIA, "sm_80", "+ptx70", 32,
                      1024, 128, 0, /*multiprocessors=*/108};
  // Hopper: sm_90a unlocks wgmma and setmaxnreg; PTX 8.3 (CUDA 12.3) the
  // tensormap proxy fence that acquires a tensor map in global memory.
  if (name == "sm_90")
    return TargetInfo{"sm_90", TargetFamily::NVIDIA, "sm_90a", "+ptx83", 32,
                      1024, 128, 0, /*multiprocessors=*/132};
  // MI250X: 110 CUs a die; MI300X: 304.
  if (name == "gfx90a" || name == "gfx942")
    return TargetInfo{name.str(), TargetFamily::AMD, name.str(), "", 64, 1024,
                      256, 0, name == "gfx90a" ? 110 : 304};
  return std::nullopt;
}
