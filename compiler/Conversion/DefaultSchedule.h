//===- DefaultSchedule.h - A program's schedule before any search -*- C++ -*-===//
//
// The schedule a program gets when it is made (convert-alg-to-tile) or
// remade over new output dimensions (tile-group-routed-contractions):
// tiles sized for the target, the innermost dimension widest.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_DEFAULTSCHEDULE_H
#define NAUTILUS_CONVERSION_DEFAULTSCHEDULE_H

#include "compiler/Target/Target.h"
#include "dialects/Tile/TileOps.h"

namespace nautilus {

/// The default schedule for an output of `extents` (std::nullopt where the
/// size is not bound) on `target`.
tile::ScheduleAttr defaultSchedule(mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<std::optional<int64_t>> extents,
                                   const TargetInfo &target);

} // namespace nautilus

#endif
