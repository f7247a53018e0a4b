//===- AlgOps.h - The alg dialect -------------------------------*- C++ -*-===//
#ifndef NAUTILUS_DIALECTS_ALG_ALGOPS_H
#define NAUTILUS_DIALECTS_ALG_ALGOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Alg/AlgDialect.h.inc"
#include "dialects/Alg/AlgEnums.h.inc"

namespace nautilus::alg {
/// Of a stream's `accumulators` (alg.online_reduce's or tile's): whether
/// accumulator `i` is a mean leader, and whether any is.
bool isMeanAccumulator(mlir::ArrayAttr accumulators, unsigned i);
bool hasMeanAccumulator(mlir::ArrayAttr accumulators);
} // namespace nautilus::alg

#define GET_OP_CLASSES
#include "dialects/Alg/AlgOps.h.inc"

#endif
