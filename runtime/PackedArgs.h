//===- PackedArgs.h - The parameters of a kernel's programs ----*- C++ -*-===//
//
// Every program of a launch plan takes the same parameters, in the order
// MLIR's lowering expands them: each tensor buffer as a memref descriptor
// (allocated pointer, aligned pointer, offset, its extents, its strides in
// elements, each 64-bit), each scalar buffer by value, then each size as a
// 64-bit integer. PackedArgs holds those values and an array of pointers
// to them: what a host program's packed entry point takes (`void **`), and
// what cuLaunchKernel and hipModuleLaunchKernel take as kernel parameters.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_PACKEDARGS_H
#define NAUTILUS_RUNTIME_PACKEDARGS_H

#include "runtime/LaunchPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nautilus::rt {

/// A buffer's memory: a tensor's data (row-major, contiguous) and its
/// extents, or a scalar's value (`data` points to it; no extents).
struct BufferView {
  void *data = nullptr;
  std::vector<int64_t> shape;
};

/// Row-major strides, in elements, of a contiguous tensor of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

class PackedArgs {
public:
  /// `buffers` follow plan.buffers (every buffer, workspaces included);
  /// `sizes` hold every size of the plan (derived ones included).
  PackedArgs(const LaunchPlan &plan, const std::vector<BufferView> &buffers,
             const SizeValues &sizes);
  PackedArgs(const PackedArgs &) = delete;
  PackedArgs &operator=(const PackedArgs &) = delete;

  /// A pointer to each parameter's value, in order; valid while this lives.
  const std::vector<void *> &pointers() const { return args; }

private:
  struct Descriptor {
    void *allocated = nullptr;
    void *aligned = nullptr;
    int64_t offset = 0;
    std::vector<int64_t> sizes, strides;
  };
  std::vector<Descriptor> descriptors; // one a tensor buffer
  std::vector<int64_t> sizeValues;
  std::vector<void *> args;
};

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_PACKEDARGS_H
