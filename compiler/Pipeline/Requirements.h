//===- Requirements.h - A kernel's `require` lines for the runtime -*- C++
//-*-===//
//
// The runtime checks a kernel's `require` lines before every launch
// (runtime/SizeExpr.h). This turns each `alg.require` condition, arith
// over `alg.size`, into the runtime's size expression.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_REQUIREMENTS_H
#define NAUTILUS_PIPELINE_REQUIREMENTS_H

#include "dialects/Alg/AlgOps.h"
#include "runtime/SizeExpr.h"

#include "mlir/Support/LogicalResult.h"

#include <vector>

namespace nautilus {

/// The requirements of `kernel`, in source order. Fails (with a
/// diagnostic on the op) on a condition the runtime cannot express.
mlir::LogicalResult requirementsOf(alg::KernelOp kernel,
                                   std::vector<rt::Requirement> &out);

} // namespace nautilus

#endif
