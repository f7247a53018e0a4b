//===- Bundle.h - A compiled kernel program as one file --------*- C++ -*-===//
//
// `nautc compile --emit bundle` (NVIDIA targets) writes everything needed to
// launch a compiled kernel without the compiler: its launch plan and its
// PTX, as one JSON document (format "nautilus-bundle-1"):
//
//   kernel, target, chip        names
//   sizes                       the size arguments, in order
//   bindings                    {size: value} fixed at compile time
//   derived_sizes               [{name, terms: [{coefficient, factors}]}]:
//                               sizes among `sizes` that are the sum of
//                               coefficient x product of the named sizes,
//                               computed in order before launching
//   buffers                     [{name, role, dtype, dims}], dims being size
//                               names or integers
//   programs                    in launch order: [{name, output_dims, tile,
//                               threads, dynamic_shared_bytes, persistent,
//                               tensor_maps: [{buffer, box, swizzle_bytes}]}]
//   ptx                         the module's PTX, one kernel per program
//
// A program is launched on prod(ceil(output extent / tile)) blocks of
// `threads` threads (a 1-D grid) with `dynamic_shared_bytes` of dynamic
// shared memory; a persistent one on min(that, the multiprocessors) blocks
// (each loops over tiles). Its parameters, in order: each tensor buffer as MLIR's
// memref descriptor (allocated pointer, aligned pointer, offset, then its
// extents and its strides in elements, each 64-bit), each scalar buffer by
// value, each size as a 64-bit integer, then a pointer to each tensor map
// (a CUtensorMap in global memory over `buffer`, boxes of `box` elements,
// innermost dimension first, `swizzle_bytes` swizzle, zero fill).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_BUNDLE_H
#define NAUTILUS_PIPELINE_BUNDLE_H

#include "runtime/LaunchPlan.h"

#include <string>

namespace nautilus {

std::string writeBundle(const rt::LaunchPlan &plan, const std::string &target,
                        const std::string &chip, const std::string &ptx);

} // namespace nautilus

#endif
