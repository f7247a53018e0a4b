//===- Passes.h - Lowerings from one layer to the next ----------*- C++ -*-===//
#ifndef NAUTILUS_CONVERSION_PASSES_H
#define NAUTILUS_CONVERSION_PASSES_H

#include "dialects/Tile/TileOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "compiler/Target/Target.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Conversion/Passes.h.inc"

class ScheduleProvider;

/// convert-alg-to-tile asking `schedules` (the heuristics when made
/// without one).
std::unique_ptr<mlir::Pass>
createConvertAlgToTile(std::shared_ptr<ScheduleProvider> schedules);

#define GEN_PASS_REGISTRATION
#include "compiler/Conversion/Passes.h.inc"

} // namespace nautilus

#endif
