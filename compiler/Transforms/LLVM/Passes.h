//===- Passes.h - The LLVM-level clean-ups of the lowered kernels ---*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_LLVM_PASSES_H
#define NAUTILUS_TRANSFORMS_LLVM_PASSES_H

#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Transforms/LLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/LLVM/Passes.h.inc"

} // namespace nautilus

#endif
