//===- KernelEditing.h - Adding buffers and sizes to a tile kernel -*- C++ -*-===//
//
// Every tile.program of a kernel takes all of the kernel's buffers and
// sizes as block arguments, in the order its tile.plan lists them. A pass
// that introduces a workspace or a size (a grouped GEMM's bucketed rows)
// adds it to the plan and to every program at once through these helpers,
// so that the two never disagree.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_TILE_KERNELEDITING_H
#define NAUTILUS_TRANSFORMS_TILE_KERNELEDITING_H

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/StreamSplits.h"
#include "runtime/LaunchPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {

/// Whether a kernel buffer named `name` is one a rewrite made
/// (addKernelBuffer): their names are "OWNER.PURPOSE" ("swiglu_mlp_Y.lhs",
/// "ids.order"), which no name of the source language can be.
inline bool isCompilerMadeBuffer(llvm::StringRef name) {
  return name.contains('.');
}

/// Appends a buffer (`role` "workspace", say) of type `type` and dimensions
/// `dims` (size names or literals) to `plan`, and the matching block
/// argument after the buffers of every program of `module`. Returns its
/// argument number. `name` is one isCompilerMadeBuffer tells apart. A
/// workspace that only a copy of a program for `launchRanges` uses (when
/// given) is allocated only where that copy launches.
unsigned addKernelBuffer(mlir::ModuleOp module, tile::PlanOp plan,
                         llvm::StringRef name, llvm::StringRef role,
                         mlir::MemRefType type,
                         llvm::ArrayRef<mlir::Attribute> dims,
                         mlir::ArrayAttr launchRanges = {});

/// Removes buffer `position` from `plan` and the matching block argument
/// from every program it launches, where none uses it (a workspace a
/// rewrite left unread and unwritten); false, changing nothing, where one
/// does.
bool removeUnusedKernelBuffer(tile::PlanOp plan, unsigned position);

/// (The most a split may give its workspace: tile::kMaxPartialWorkspaceBytes,
/// dialects/Tile/Utils/StreamSplits.h.)
using tile::kMaxPartialWorkspaceBytes;

/// Why `program` may not keep `splits` partial results of `elementBytes`
/// bytes for each of its output elements (a workspace over
/// kMaxPartialWorkspaceBytes: names its size and the most splits that
/// fit), or "". Also "" when an output extent is not bound at compile
/// time: `nautc run` then counts the workspace with the run's memory.
std::string partialWorkspaceRefusal(tile::ProgramOp program, int64_t splits,
                                    int64_t elementBytes);

/// Lists program `name` in `plan`'s programs just before `before` (which
/// the plan launches): launched right before it.
void launchBefore(tile::PlanOp plan, llvm::StringRef name,
                  llvm::StringRef before);

/// Erases `program`, which `plan` launches, and its place in the plan
/// (a program another was merged into, or folded away).
void eraseProgram(tile::PlanOp plan, tile::ProgramOp program);

/// Appends derived size `size` (its name must be new) to `plan` (as a
/// derived size, and as a binding when every factor is bound) and to every
/// program of `module` (a last size argument, and one more symbol for every
/// index map in it).
void addDerivedSize(mlir::ModuleOp module, tile::PlanOp plan,
                    const rt::DerivedSize &size);

/// A new program `symbol` over `outputDims`, placed before `program` and
/// taking its buffers, sizes and schedule, with an entry block whose
/// arguments `mapping` maps `program`'s to; `b` is left at the start of
/// that block. (Retiling the new program once it is filled gives every
/// tile cloned into it the new shape.)
tile::ProgramOp createSiblingProgram(mlir::OpBuilder &b,
                                     tile::ProgramOp program,
                                     llvm::StringRef symbol,
                                     llvm::ArrayRef<mlir::Attribute> outputDims,
                                     mlir::IRMapping &mapping);

/// Calls `edit` on each program of each plan of `module` (those the plan
/// launched when its turn came: programs an edit adds are not visited),
/// stopping at the first failure.
mlir::LogicalResult editPlanPrograms(
    mlir::ModuleOp module,
    llvm::function_ref<mlir::LogicalResult(tile::PlanOp, tile::ProgramOp)>
        edit);

/// Clones into `b`'s block, mapped, what `root` and the ops in its regions
/// use that is defined outside it (and not mapped already: the program's
/// arguments), its own uses first: what moving `root` into a new program
/// takes along.
void cloneUsedFromOutside(mlir::Operation *root, mlir::IRMapping &mapping,
                          mlir::OpBuilder &b);

} // namespace nautilus

#endif
