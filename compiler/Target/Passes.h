//===- Passes.h - Passes of the target library -----------------*- C++ -*-===//
#ifndef NAUTILUS_TARGET_PASSES_H
#define NAUTILUS_TARGET_PASSES_H

#include "dialects/Tile/TileOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Target/Passes.h.inc"

} // namespace nautilus

#endif
