//===- AmdCodeObject.cpp - AMD kernels as a loadable code object ----------===//
#include "compiler/Pipeline/AmdCodeObject.h"
#include "compiler/Pipeline/HostLibrary.h"
#include "compiler/Pipeline/SharedObjectLink.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}

using namespace mlir;
using namespace nautilus;

namespace {

constexpr const char *kAmdTriple = "amdgcn-amd-amdhsa";

/// ld.lld: $NAUTILUS_LLD, else LLVM's own, else the one on PATH.
std::string findLinker() {
  if (const char *set = std::getenv("NAUTILUS_LLD"); set && *set)
    return set;
  std::string llvms = std::string(NAUTILUS_LLVM_TOOLS_DIR "/ld.lld");
  if (llvm::sys::fs::can_execute(llvms))
    return llvms;
  auto found = llvm::sys::findProgramByName("ld.lld");
  return found ? *found : "";
}

/// The object file of `llvmModule` for `chip`; "" or what failed.
std::string emitAmdObject(llvm::Module &llvmModule, const std::string &chip,
                          std::string &object) {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTarget();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUAsmPrinter();
  llvm::Triple triple(kAmdTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return "LLVM has no AMDGPU target: " + error;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, chip, "", llvm::TargetOptions(), llvm::Reloc::PIC_));
  if (!tm)
    return "LLVM cannot target " + chip;
  llvmModule.setTargetTriple(triple);
  llvmModule.setDataLayout(tm->createDataLayout());
  // As MLIR's own serialisation does: optimised first (the lowering's
  // allocas become registers; left alone, AMDGPU cannot select them).
  if (mlir::makeOptimizingTransformer(3, 0, tm.get())(&llvmModule))
    return "LLVM failed to optimise the kernels";
  if (!emitObject(llvmModule, *tm, object))
    return "LLVM cannot emit AMDGPU objects";
  return "";
}

} // namespace

std::string nautilus::buildAmdCodeObject(ModuleOp module,
                                         const std::string &chip,
                                         std::string &out) {
  auto gpuModules = module.getOps<gpu::GPUModuleOp>();
  if (gpuModules.empty())
    return "no GPU kernels";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> kernels =
      translateModuleToLLVMIR(*gpuModules.begin(), context, "kernels");
  if (!kernels)
    return "translation of the kernels to LLVM IR failed";
  std::string object;
  if (std::string e = emitAmdObject(*kernels, chip, object); !e.empty())
    return e;
  std::string linker = findLinker();
  if (linker.empty())
    return "linking the AMD code object needs ld.lld (LLVM's linker, "
           "or $NAUTILUS_LLD), which is not installed";
  return linkSharedObject(linker, object, {}, "the AMD code object", out);
}
