//===- Nvrtc.h - CUDA C++ to PTX with NVRTC, loaded at run time -*- C++ -*-===//
//
// NVRTC (the CUDA toolkit's run-time compiler) compiles CUDA C++ where the
// project needs it: the reference kernels (ReferenceCuda.h). It is loaded
// with dlopen when first asked for, so Nautilus builds and runs without the
// CUDA toolkit; without it, a compile fails with an error that names what
// is missing and where it was looked for.
//
// Thread-safety: compileCudaToPtx may be called from any number of threads
// (each call makes and destroys its own NVRTC program).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_NVRTC_H
#define NAUTILUS_PIPELINE_NVRTC_H

#include <string>
#include <vector>

namespace nautilus {

/// The libraries tried for NVRTC, in order: $NAUTILUS_NVRTC alone when it
/// is set; otherwise libnvrtc by the loader's search path (libnvrtc.so and
/// the sonames of CUDA 13, 12 and 11), then the same under
/// $CUDA_HOME/lib64, /usr/local/cuda/lib64 and /usr/local/cuda/lib.
std::vector<std::string> nvrtcLibraries();

/// The outcome of compileCudaToPtx.
struct NvrtcResult {
  std::string ptx;   // on success
  std::string error; // "" on success: NVRTC missing, or its log
  bool unavailable = false; // the error is that NVRTC is missing
  bool succeeded() const { return error.empty(); }
};

/// Compiles `source` (called `name` in NVRTC's messages) to PTX with NVRTC
/// options `options` (e.g. "--gpu-architecture=compute_90"), loading NVRTC
/// from the first of `libraries` that loads.
NvrtcResult compileCudaToPtx(const std::string &source, const std::string &name,
                             const std::vector<std::string> &options,
                             const std::vector<std::string> &libraries =
                                 nvrtcLibraries());

} // namespace nautilus

#endif
