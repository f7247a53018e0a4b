//===- Compile.cpp - nautc compile ----------------------------------------===//
//
// --emit alg     the alg dialect (after --shape bindings)
// --emit tile    tile programs and the launch plan for the target
// --emit gpu     GPU kernels in the gpu dialect (GPU targets)
// --emit llvm    LLVM IR: host code (cpu) or NVVM/ROCDL-level kernels
// --emit obj     a host object file (cpu)
// --emit ptx     PTX (sm_80, sm_90)
// --emit amdgcn  AMDGCN assembly (gfx90a, gfx942)
// --emit bundle  the launch plan and the PTX as JSON (sm_80, sm_90; see
//                compiler/Pipeline/Bundle.h)
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/Bundle.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "tools/nautc/Commands.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "mlir/ExecutionEngine/OptUtils.h"

using namespace mlir;
using namespace nautilus;

namespace {

int internalError(const std::string &what) {
  llvm::errs() << "nautc: internal error: " << what
               << " (this is a bug in nautilus; please report it with the "
                  "command line and the .tensor file)\n";
  return kExitInternal;
}

/// Host LLVM IR, optimised, for the machine nautc runs on.
std::unique_ptr<llvm::Module> hostModule(ModuleOp module,
                                         llvm::LLVMContext &context,
                                         std::unique_ptr<llvm::TargetMachine> &tm) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return nullptr;
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return nullptr;
  tm = std::move(*machine);
  auto llvmModule = translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return nullptr;
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setTargetTriple(tm->getTargetTriple());
  auto optimize = makeOptimizingTransformer(3, 0, tm.get());
  if (optimize(llvmModule.get()))
    return nullptr;
  return llvmModule;
}

} // namespace

int nautilus::runCompile(const Options &opts) {
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts, context, sourceMgr, /*bindShape=*/true, loaded))
    return rc;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  std::optional<TargetInfo> target = getTarget(opts.target);
  if (opts.multiprocessors)
    target->multiprocessors = opts.multiprocessors;
  bool gpu = target->family != TargetFamily::CPU;
  const std::string &emit = opts.emit;
  static const char *const kinds[] = {"alg", "tile", "gpu",    "llvm",
                                      "obj", "ptx",  "amdgcn", "bundle"};
  if (!llvm::is_contained(kinds, emit)) {
    llvm::errs() << "nautc: unknown --emit kind '" << emit
                 << "' (expected alg, tile, gpu, llvm, obj, ptx, amdgcn or "
                    "bundle)\n";
    return kExitUsage;
  }
  if ((emit == "obj" && gpu) || (emit == "gpu" && !gpu) ||
      ((emit == "ptx" || emit == "bundle") &&
       target->family != TargetFamily::NVIDIA) ||
      (emit == "amdgcn" && target->family != TargetFamily::AMD)) {
    llvm::errs() << "nautc: --emit " << emit << " does not apply to --target "
                 << opts.target << "\n";
    return kExitUsage;
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  bool binary = false;
  if (emit == "alg") {
    loaded.module->print(os);
  } else {
    bool scheduleRejected = false;
    if (failed(lowerAlgToTile(*loaded.module, *target, opts.schedulePath(),
                              &scheduleRejected)))
      return scheduleRejected ? kExitUserError
                              : internalError("lowering to tile programs failed");
    std::optional<rt::LaunchPlan> plan;
    if (emit == "bundle")
      plan = extractLaunchPlan(*loaded.module);
    if (emit == "tile") {
      loaded.module->print(os);
    } else if (!gpu) {
      if (failed(lowerTileToHostLLVM(*loaded.module)))
        return internalError("lowering to host code failed");
      llvm::LLVMContext llvmContext;
      std::unique_ptr<llvm::TargetMachine> tm;
      auto llvmModule = hostModule(*loaded.module, llvmContext, tm);
      if (!llvmModule)
        return internalError("translation to LLVM IR failed");
      if (emit == "llvm") {
        llvmModule->print(os, nullptr);
      } else { // obj
        llvm::SmallVector<char, 0> buffer;
        llvm::raw_svector_ostream objStream(buffer);
        llvm::legacy::PassManager codegen;
        if (tm->addPassesToEmitFile(codegen, objStream, nullptr,
                                    llvm::CodeGenFileType::ObjectFile))
          return internalError("the host target cannot emit object files");
        codegen.run(*llvmModule);
        text.assign(buffer.begin(), buffer.end());
        binary = true;
      }
    } else {
      if (failed(lowerTileToGPU(*loaded.module)))
        return blameScheduleFile(opts)
                   ? kExitUserError
                   : internalError("lowering to GPU kernels failed");
      if (emit == "gpu") {
        loaded.module->print(os);
      } else {
        if (failed(lowerGPUToLLVM(*loaded.module, *target)))
          return internalError("lowering GPU kernels to LLVM failed");
        if (emit == "llvm") {
          if (failed(translateGPUModuleToLLVMIR(*loaded.module, text)))
            return internalError("translation of GPU kernels failed");
        } else if (failed(serializeGPUModule(*loaded.module, text))) {
          return internalError("code generation for " + opts.target +
                               " failed");
        } else if (plan) {
          text = writeBundle(*plan, target->name, target->chip, text);
        }
      }
    }
  }

  std::string path = opts.output.empty() ? "-" : opts.output;
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec,
                           binary ? llvm::sys::fs::OF_None
                                  : llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "nautc: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return kExitUserError;
  }
  out.os() << text;
  out.keep();
  return kExitSuccess;
}
