//===- TargetSupport.h - What a target cannot compute -----------*- C++ -*-===//
//
// The language's operations a target has no code for, found before any
// lowering so that the user is told where, rather than a later stage
// failing as the compiler's fault. On GPUs nautilus links no device math
// library (libdevice, ocml): functions of f32 and 16-bit floats are
// computed by its own approximations (LegalizeMath.cpp), and of f64 only
// those with an instruction (sqrt, rsqrt through sqrt, abs, floor, ceil,
// fma); exp, log, tanh, erf and the functions made of them (sigmoid,
// silu, gelu, pow) of f64 values have none.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_TARGETSUPPORT_H
#define NAUTILUS_PIPELINE_TARGETSUPPORT_H

#include "compiler/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace nautilus {

/// Emits an error at each operation of `module` that `target` cannot
/// compute, saying what to do instead; returns a one-line summary of
/// them, or "" where there is none.
std::string unsupportedOperations(mlir::ModuleOp module,
                                  const TargetInfo &target);

} // namespace nautilus

#endif
