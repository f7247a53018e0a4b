//===- Passes.h - Nautilus's passes ----------------------------*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_PASSES_H
#define NAUTILUS_TRANSFORMS_PASSES_H

#include "dialects/Alg/AlgOps.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Passes.h.inc"

} // namespace nautilus

#endif
