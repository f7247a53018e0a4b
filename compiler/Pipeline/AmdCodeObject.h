//===- AmdCodeObject.h - AMD kernels as a loadable code object -*- C++ -*-===//
//
// For AMD targets, a bundle carries the kernels as a code object (an
// AMDGPU ELF shared object, what hipModuleLoadData loads): the kernels'
// ROCDL-level LLVM IR compiled by LLVM's AMDGPU backend for the chip
// ("gfx942") to an object file, then linked by LLVM's ld.lld (`ld.lld
// -shared`, found next to LLVM's tools or on PATH, or $NAUTILUS_LLD).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_AMDCODEOBJECT_H
#define NAUTILUS_PIPELINE_AMDCODEOBJECT_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace nautilus {

/// The code object of the gpu.module in `module` (kernels at the ROCDL
/// level) for `chip`. Returns "" and sets `out`, or what failed.
std::string buildAmdCodeObject(mlir::ModuleOp module, const std::string &chip,
                               std::string &out);

} // namespace nautilus

#endif
