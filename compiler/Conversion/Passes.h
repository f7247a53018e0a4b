//===- Passes.h - Conversions between Nautilus's layers --------*- C++ -*-===//
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

/// The target a pass's `target` option names; otherwise an error on `op`
/// and std::nullopt (the pass then fails).
/// `multiprocessors`: a pass's option overriding the target's (0 keeps
/// it).
inline std::optional<TargetInfo> getTargetOption(mlir::Operation *op,
                                                 llvm::StringRef name,
                                                 int64_t multiprocessors = 0) {
  std::optional<TargetInfo> info = getTarget(name);
  if (!info)
    op->emitError() << "unknown target '" << name
                    << "' (cpu, sm_80, sm_90, gfx90a or gfx942)";
  else if (multiprocessors > 0)
    info->multiprocessors = multiprocessors;
  return info;
}

#define GEN_PASS_DECL
#include "compiler/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversion/Passes.h.inc"

} // namespace nautilus

#endif
