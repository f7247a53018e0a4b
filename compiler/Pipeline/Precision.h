//===- Precision.h - What a compiled kernel rounds --------------*- C++ -*-===//
//
// The alg IR states each intermediate's type; the compiler may still round
// an f32 intermediate to 16 bits where tensor cores need it (a computed
// contraction operand: attention's P, a mixture of experts' silu(G) x U,
// in its region or in a workspace it is materialized to). `nautc run
// --check` widens its tolerance by what such roundings cost.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_PRECISION_H
#define NAUTILUS_PIPELINE_PRECISION_H

#include "runtime/DType.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace nautilus {

/// The narrowest type the tile programs of `module` round an f32
/// intermediate to (a conversion that yields a contraction's computed
/// operand or is stored to a workspace), or none.
std::optional<rt::DType> roundedIntermediateType(mlir::ModuleOp module);

} // namespace nautilus

#endif
