//===- Passes.h - Clean-ups of the LLVM-level kernels -----------*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_LLVM_PASSES_H
#define NAUTILUS_TRANSFORMS_LLVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Transforms/LLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/LLVM/Passes.h.inc"

} // namespace nautilus

#endif
