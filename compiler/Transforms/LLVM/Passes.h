//===- Passes.h - Clean-ups of the LLVM-level kernels -----------*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_LLVM_PASSES_H
#define NAUTILUS_TRANSFORMS_LLVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

/// The attribute nautilus-libcalls-to-intrinsics sets on a GPU module one
/// of whose calls needs a device library (a function of f64 values the
/// target has no code for): the user's input, not the compiler's fault.
constexpr const char *kNeedsDeviceLibraryAttrName =
    "nautilus.needs_device_library";

#define GEN_PASS_DECL
#include "compiler/Transforms/LLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/LLVM/Passes.h.inc"

} // namespace nautilus

#endif
