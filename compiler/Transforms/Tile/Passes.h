//===- Passes.h - The tile-to-tile passes ---*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_TILE_PASSES_H
#define NAUTILUS_TRANSFORMS_TILE_PASSES_H

#include "dialects/Tile/TileOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Transforms/Tile/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Tile/Passes.h.inc"

} // namespace nautilus

#endif
