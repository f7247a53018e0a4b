//===- Passes.h - Conversions between Nautilus's layers --------*- C++ -*-===//
#ifndef NAUTILUS_CONVERSION_PASSES_H
#define NAUTILUS_CONVERSION_PASSES_H

#include "dialects/Tile/TileOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversion/Passes.h.inc"

} // namespace nautilus

#endif
