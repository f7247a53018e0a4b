//===- TensorMapGeometry.h - A TMA tensor map over a plan's buffer -*- C++
//-*-===//
//
// A program's TMA tensor map (LaunchPlan.h, TensorMapDesc) describes a
// row-major buffer to the hardware innermost dimension first: extents,
// byte strides of the outer dimensions, the box, element strides of 1.
// The cuda device (cuTensorMapEncodeTiled) and the emulator
// (encodeTiledTensorMap) take it in that form; this computes it once.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_TENSORMAPGEOMETRY_H
#define NAUTILUS_RUNTIME_TENSORMAPGEOMETRY_H

#include "runtime/LaunchPlan.h"
#include "runtime/PackedArgs.h"

#include <cstdint>
#include <vector>

namespace nautilus::rt {

struct TensorMapGeometry {
  size_t buffer = 0;    // the plan's buffer mapped
  void *data = nullptr; // its address
  size_t elementBytes = 0;
  std::vector<uint64_t> dims;           // innermost first
  std::vector<uint64_t> strides;        // in bytes, of dims[1], dims[2], ...
  std::vector<uint32_t> box;            // innermost first
  std::vector<uint32_t> elementStrides; // all 1
};

/// The geometry of `desc` over `buffers` (the plan's, in order). Returns
/// "" and sets `out`, or the error (a buffer the plan does not have).
std::string tensorMapGeometry(const LaunchPlan &plan,
                              const std::vector<BufferView> &buffers,
                              const TensorMapDesc &desc,
                              TensorMapGeometry &out);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_TENSORMAPGEOMETRY_H
