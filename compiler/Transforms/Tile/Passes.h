//===- Passes.h - Passes from tile programs to tile programs ----*- C++ -*-===//
#ifndef NAUTILUS_TRANSFORMS_TILE_PASSES_H
#define NAUTILUS_TRANSFORMS_TILE_PASSES_H

#include "dialects/Tile/TileOps.h"
#include "compiler/Target/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace nautilus {

#define GEN_PASS_DECL
#include "compiler/Transforms/Tile/Passes.h.inc"

class ScheduleProvider;

/// The passes that decide schedules, asking `schedules` (the heuristics
/// when made without one).
std::unique_ptr<mlir::Pass>
createTileGroupRoutedContractions(std::shared_ptr<ScheduleProvider> schedules);
std::unique_ptr<mlir::Pass>
createTileFormContractions(std::shared_ptr<ScheduleProvider> schedules);
std::unique_ptr<mlir::Pass> createTileMaterializeComputedOperands(
    std::shared_ptr<ScheduleProvider> schedules);
std::unique_ptr<mlir::Pass>
createTileSplitContractions(std::shared_ptr<ScheduleProvider> schedules);
std::unique_ptr<mlir::Pass>
createTileSplitReductions(std::shared_ptr<ScheduleProvider> schedules);
/// Remarks for each merge when `explain`.
std::unique_ptr<mlir::Pass>
createTileSweepRowConsumers(std::shared_ptr<ScheduleProvider> schedules,
                            bool explain);
/// Replaces the schedules `schedules` replaces (a schedule file's).
std::unique_ptr<mlir::Pass>
createTileApplySchedules(std::shared_ptr<ScheduleProvider> schedules);

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Tile/Passes.h.inc"

} // namespace nautilus

#endif
