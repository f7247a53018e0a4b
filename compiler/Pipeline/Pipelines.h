//===- Pipelines.h - The end-to-end lowering pipelines ---------*- C++ -*-===//
//
// alg --(fuse, alg-to-tile)--> tile --(tile-to-cpu, upstream)--> LLVM (host)
//                                   --(tile-to-gpu, nvvm/rocdl)--> PTX/AMDGCN
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_PIPELINES_H
#define NAUTILUS_PIPELINE_PIPELINES_H

#include "compiler/Target/Target.h"
#include "runtime/LaunchPlan.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace nautilus {

/// Every dialect and translation the pipelines use.
void registerPipelineDialects(mlir::DialectRegistry &registry);
/// Named pipelines for nautc-opt: nautilus-alg-to-tile{target=...},
/// nautilus-tile-to-host-llvm.
void registerNautilusPipelines();

class ScheduleProvider;

/// Records `target` on the module, fuses elementwise definitions and turns
/// alg kernels into tile programs with the schedules `schedules` decides
/// (the heuristics when null). When the schedules it replaces as a whole
/// (a schedule file's) are what fails (a user error, diagnosed),
/// `*scheduleRejected` is set.
mlir::LogicalResult
lowerAlgToTile(mlir::ModuleOp module, const TargetInfo &target,
               std::shared_ptr<ScheduleProvider> schedules = nullptr,
               bool *scheduleRejected = nullptr);

/// lowerAlgToTile up to the programs with their schedules, as the
/// schedules see them: before contractions and reductions are split into
/// `_partial` programs as their schedules ask, and before layouts.
mlir::LogicalResult
lowerAlgToScheduledTile(mlir::ModuleOp module, const TargetInfo &target,
                        std::shared_ptr<ScheduleProvider> schedules = nullptr,
                        bool *scheduleRejected = nullptr);

/// The launch plan of the (single) kernel in a tile module.
rt::LaunchPlan extractLaunchPlan(mlir::ModuleOp module);

/// Lowers tile programs to the LLVM dialect for the host and drops the plan.
mlir::LogicalResult lowerTileToHostLLVM(mlir::ModuleOp module);

/// The passes of lowerTileToHostLLVM after convert-tile-to-cpu.
void buildHostLLVMPipeline(mlir::OpPassManager &pm);

/// Lowers tile programs to GPU kernels in a gpu.module (target-neutral).
mlir::LogicalResult lowerTileToGPU(mlir::ModuleOp module);

/// Lowers the gpu.module of `lowerTileToGPU` to the NVVM or ROCDL flavour
/// of the LLVM dialect for `target` (attaching the target).
mlir::LogicalResult lowerGPUToLLVM(mlir::ModuleOp module,
                                   const TargetInfo &target);
void buildGPUToLLVMPipeline(mlir::OpPassManager &pm, const TargetInfo &target);

/// Serialises the kernels: PTX for NVIDIA, AMDGCN assembly for AMD. Fills
/// `text`; returns failure with diagnostics emitted.
mlir::LogicalResult serializeGPUModule(mlir::ModuleOp module,
                                       std::string &text);

/// The LLVM IR (text) of the GPU kernels, at the NVVM/ROCDL level.
mlir::LogicalResult translateGPUModuleToLLVMIR(mlir::ModuleOp module,
                                               std::string &text);

} // namespace nautilus

#endif
