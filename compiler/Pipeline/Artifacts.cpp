//===- Artifacts.cpp - What a compilation emits ---------------------------===//
#include "compiler/Pipeline/Artifacts.h"
#include "compiler/Pipeline/Bundle.h"
#include "compiler/Pipeline/BundleHeader.h"
#include "compiler/Pipeline/HostLibrary.h"
#include "compiler/Pipeline/Nvrtc.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/ReferenceCuda.h"
#include "compiler/Schedule/ScheduleProvider.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// The host code of a compilation lowered to HostLLVM: LLVM IR text or an
/// object file.
LogicalResult emitHostCode(ModuleOp module, Artifact kind, std::string &out,
                           std::string &failure) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule = hostLLVMModule(module, llvmContext, tm, /*pic=*/false);
  if (!llvmModule)
    return failure = "translation to LLVM IR failed", mlir::failure();
  llvm::raw_string_ostream os(out);
  if (kind == Artifact::Llvm) {
    llvmModule->print(os, nullptr);
    return success();
  }
  if (!emitObject(*llvmModule, *tm, out))
    return failure = "the host target cannot emit object files",
           mlir::failure();
  return success();
}

/// The kernels of a compilation lowered to GpuLLVM: their LLVM IR, PTX or
/// AMDGCN.
LogicalResult emitKernels(Compilation &compilation, Artifact kind,
                          std::string &out, std::string &failure) {
  ModuleOp module = compilation.module();
  const TargetInfo &target = compilation.target();
  if (kind == Artifact::Llvm) {
    if (failed(translateGPUModuleToLLVMIR(module, out)))
      return failure = "translation of GPU kernels failed", mlir::failure();
    return success();
  }
  if (failed(serializeGPUModule(module, out)))
    return failure = "code generation for " + target.name + " failed",
           mlir::failure();
  return success();
}

/// The reference kernels of the compilation's alg kernel: their source,
/// or their PTX from NVRTC.
LogicalResult emitReference(Compilation &compilation, Artifact kind,
                            std::string &out) {
  ReferenceProgram program;
  if (std::string e = generateReferenceCuda(
          *compilation.module().getOps<alg::KernelOp>().begin(), program);
      !e.empty())
    return compilation.markUnavailable(e);
  if (kind == Artifact::ReferenceCuda)
    return out = program.source, success();
  NvrtcResult ptx = compileCudaToPtx(
      program.source, program.name + ".cu",
      {referenceArchitecture(compilation.target().chip), "--fmad=false"});
  if (ptx.unavailable)
    return compilation.markUnavailable(ptx.error);
  if (!ptx.succeeded())
    return compilation.markFailed("the reference kernels did not compile: " +
                                  ptx.error);
  return out = std::move(ptx.ptx), success();
}

} // namespace

bool nautilus::artifactAppliesTo(Artifact kind, const TargetInfo &target) {
  switch (kind) {
  case Artifact::Alg:
  case Artifact::Tile:
  case Artifact::Llvm:
  case Artifact::ReferenceCuda:
    return true;
  case Artifact::Obj:
    return target.isCPU();
  case Artifact::Gpu:
    return target.isGPU();
  case Artifact::Ptx:
  case Artifact::ReferencePtx:
    return target.isNVIDIA();
  case Artifact::Bundle:
  case Artifact::Header:
    return bundlesTarget(target);
  case Artifact::Amdgcn:
    return target.isAMD();
  }
  return false;
}

LogicalResult nautilus::emitArtifact(Compilation &compilation, Artifact kind,
                                     std::string &out) {
  llvm::raw_string_ostream os(out);
  switch (kind) {
  case Artifact::Alg:
    compilation.module().print(os);
    return success();
  case Artifact::Tile:
  case Artifact::Gpu:
    if (failed(compilation.lowerTo(kind == Artifact::Tile ? Stage::Tile
                                                          : Stage::Gpu)))
      return failure();
    // Schedules that would give way to a fallback if refuted are proved
    // here, so that the tile programs printed are those compiled further.
    if (kind == Artifact::Tile &&
        compilation.scheduleProvider().canFallBack() &&
        failed(compilation.proveTilePrograms()))
      return failure();
    compilation.module().print(os);
    return success();
  case Artifact::Bundle:
  case Artifact::Header: {
    rt::Bundle bundle;
    if (failed(buildBundle(compilation, bundle)))
      return failure();
    out = rt::writeBundle(bundle);
    if (kind == Artifact::Header)
      out = bundleHeader(bundle.plan, bundle.target, out);
    return success();
  }
  case Artifact::ReferenceCuda:
  case Artifact::ReferencePtx:
    return emitReference(compilation, kind, out);
  default:
    break;
  }
  // Code: the host's or the kernels', generated from the last stage.
  bool host = compilation.target().isCPU();
  if (failed(compilation.lowerTo(host ? Stage::HostLLVM : Stage::GpuLLVM)))
    return failure();
  std::string failed;
  LogicalResult emitted =
      host ? emitHostCode(compilation.module(), kind, out, failed)
           : emitKernels(compilation, kind, out, failed);
  if (mlir::failed(emitted))
    return compilation.markFailed(failed);
  return success();
}
