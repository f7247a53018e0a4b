//===- Passes.h - Rewrites of alg kernels -----------------------*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_ALG_PASSES_H
#define NAUTILUS_TRANSFORMS_ALG_PASSES_H

#include "dialects/Alg/AlgOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Pass/Pass.h"

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Transforms/Alg/Passes.h.inc"

class ScheduleProvider;

/// alg-fuse-reductions asking `schedules` whether the target streams.
std::unique_ptr<mlir::Pass>
createAlgFuseReductions(std::shared_ptr<ScheduleProvider> schedules,
                        bool explain);

/// alg-fuse-shared-operands asking `schedules` whether the target runs
/// several contractions in one program.
std::unique_ptr<mlir::Pass>
createAlgFuseSharedOperands(std::shared_ptr<ScheduleProvider> schedules,
                            bool explain);

/// alg-fuse-elementwise asking `schedules` whether a definition that a
/// reduction reads again is recomputed there or stored.
std::unique_ptr<mlir::Pass>
createAlgFuseElementwise(std::shared_ptr<ScheduleProvider> schedules,
                         bool explain);

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Alg/Passes.h.inc"

} // namespace nautilus

#endif
