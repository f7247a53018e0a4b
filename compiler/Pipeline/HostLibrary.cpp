//===- HostLibrary.cpp - The host's code as a shared library --------------===//
#include "compiler/Pipeline/HostLibrary.h"
#include "compiler/Pipeline/SharedObjectLink.h"
#include "runtime/HostFeatures.h"
#include "runtime/HostPrograms.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace nautilus;

std::unique_ptr<llvm::Module>
nautilus::hostLLVMModule(ModuleOp module, llvm::LLVMContext &context,
                         std::unique_ptr<llvm::TargetMachine> &tm, bool pic) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return nullptr;
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  if (pic)
    builder->setRelocationModel(llvm::Reloc::PIC_);
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

bool nautilus::emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                          std::string &out) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream objStream(buffer);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, objStream, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return false;
  codegen.run(llvmModule);
  out.assign(buffer.begin(), buffer.end());
  return true;
}

std::string nautilus::hostChipName() {
  return llvm::sys::getHostCPUName().str();
}

std::vector<std::string> nautilus::hostCheckedFeatures() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> used;
  for (size_t i = 0; i < rt::kNumCheckedHostFeatures; ++i) {
    auto it = features.find(rt::kCheckedHostFeatures[i]);
    if (it != features.end() && it->second)
      used.push_back(rt::kCheckedHostFeatures[i]);
  }
  return used;
}

namespace {

/// Adds `void _nautilus_packed_NAME(ptr args)` for `function`: it loads
/// each parameter from the pointer args[i] and calls the function.
void addPackedEntry(llvm::Module &module, llvm::Function &function) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptrType = llvm::PointerType::get(ctx, 0);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrType}, false);
  auto *entry = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage,
      rt::packedEntryName(function.getName().str()), module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::SmallVector<llvm::Value *> args;
  for (auto [i, param] : llvm::enumerate(function.args())) {
    llvm::Value *slot =
        b.CreateConstInBoundsGEP1_64(ptrType, entry->getArg(0), i);
    llvm::Value *at = b.CreateLoad(ptrType, slot);
    args.push_back(b.CreateLoad(param.getType(), at));
  }
  b.CreateCall(&function, args);
  b.CreateRetVoid();
}

/// The C compiler driver that links the host library: $NAUTILUS_CC, else
/// cc; "" when there is none.
std::string hostLinker() {
  const char *fromEnv = std::getenv("NAUTILUS_CC");
  auto program =
      llvm::sys::findProgramByName(fromEnv && *fromEnv ? fromEnv : "cc");
  return program ? *program : "";
}

} // namespace

std::string nautilus::buildHostLibrary(ModuleOp module,
                                       const rt::LaunchPlan &plan,
                                       std::string &library) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule = hostLLVMModule(module, context, tm, /*pic=*/true);
  if (!llvmModule)
    return "translation to LLVM IR failed";
  for (const rt::ProgramDesc &p : plan.programs) {
    llvm::Function *f = llvmModule->getFunction(p.name);
    if (!f)
      return "the host code has no function for program '" + p.name + "'";
    addPackedEntry(*llvmModule, *f);
  }
  std::string object;
  if (!emitObject(*llvmModule, *tm, object))
    return "the host target cannot emit object files";
  std::string linker = hostLinker();
  if (linker.empty())
    return "linking the host library needs a C compiler driver (cc, or "
           "$NAUTILUS_CC), which is not on PATH";
  return linkSharedObject(linker, object, {"-lm"}, "the host library", library);
}
