//===- LaunchChecks.h - What is checked before every launch ----*- C++ -*-===//
//
// Before a device runs a bundle, the arguments are checked against its
// launch plan, on every device the same way, and the first problem is
// reported in words that name it:
//   - one tensor for each input, scalar and output buffer, in plan order,
//     of the buffer's dtype and rank, contiguous (row-major; a dimension
//     of extent 1 may have any stride);
//   - sizes bound from the tensors' extents: a size must take one value
//     everywhere, and that of its compile-time binding when it has one;
//   - every size known, then the derived sizes computed;
//   - the kernel's `require` lines (SizeExpr.h);
//   - every buffer's address aligned to its element and to the device's
//     alignment, not null unless it is empty;
//   - each program's grid, threads and shared memory within the device's
//     limits, and every size and buffer's byte count within 64 bits.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_LAUNCHCHECKS_H
#define NAUTILUS_RUNTIME_LAUNCHCHECKS_H

#include "runtime/Device.h"

namespace nautilus::rt {

/// A tensor handed to a launch. `strides` in elements; empty means
/// contiguous. A scalar is a 0-d tensor whose `data` points to its value.
struct TensorArg {
  void *data = nullptr;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

/// The buffers a caller passes: every buffer but the workspaces, in order.
std::vector<const BufferDesc *> parameterBuffers(const LaunchPlan &plan);

/// Checks the first args.size() parameters and binds the sizes from them;
/// then every size must be known and the requirements hold. Returns "" and
/// sets `sizes` (derived ones included), or the first problem.
std::string bindSizes(const LaunchPlan &plan,
                      const std::vector<TensorArg> &args,
                      const DeviceLimits &limits, SizeValues &sizes,
                      bool needData = true);

/// Checks `args` for `plan` on a device with `limits`. Returns "" and sets
/// `sizes` (every size, derived ones included), or the first problem.
std::string checkLaunch(const LaunchPlan &plan,
                        const std::vector<TensorArg> &args,
                        const DeviceLimits &limits, SizeValues &sizes);

/// The extents of buffer `b` for `sizes` (all 0 for a workspace whose
/// allocateWhen does not hold there).
std::vector<int64_t> extentsOf(const BufferDesc &b, const SizeValues &sizes);

/// The bytes of buffer `b` for `sizes` (which checkLaunch found to fit).
size_t bytesOf(const BufferDesc &b, const SizeValues &sizes);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_LAUNCHCHECKS_H
