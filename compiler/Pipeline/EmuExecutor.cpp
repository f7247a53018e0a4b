//===- EmuExecutor.cpp ----------------------------------------------------===//
#include "compiler/Pipeline/EmuExecutor.h"
#include "runtime/LaunchBuffers.h"
#include "runtime/emulator/PlanLaunch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace nautilus;

/// How many blocks of a persistent program run at once on the emulator:
/// the host's cores, or NAUTILUS_EMU_MULTIPROCESSORS when set (a test that
/// must see one block take several tiles in turn sets it to 1).
std::unique_ptr<llvm::Module>
EmuExecutor::kernelsAsLLVM(ModuleOp module, llvm::LLVMContext &context,
                           std::string &error) {
  auto gpuModules = module.getOps<gpu::GPUModuleOp>();
  if (gpuModules.empty()) {
    error = "no GPU kernels to emulate";
    return nullptr;
  }
  std::unique_ptr<llvm::Module> kernels =
      translateModuleToLLVMIR(*gpuModules.begin(), context, "kernels");
  if (!kernels)
    error = "translation of the kernels to LLVM IR failed";
  return kernels;
}

namespace {

/// LLVM's message for IR that does not parse: where, what, and the line.
std::string parseFailure(const llvm::SMDiagnostic &diagnostic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << diagnostic.getFilename();
  if (diagnostic.getLineNo() > 0)
    os << ":" << diagnostic.getLineNo() << ":" << diagnostic.getColumnNo() + 1;
  os << ": " << diagnostic.getMessage();
  if (!diagnostic.getLineContents().empty())
    os << "\n"
       << diagnostic.getLineContents() << "\n"
       << std::string(std::max(diagnostic.getColumnNo(), 0), ' ') << "^";
  return text;
}

/// "it defines: A, B" or "it defines no kernel": the kernels of `module`.
std::string kernelsDefined(const llvm::Module &module) {
  std::string names;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      names += (names.empty() ? "" : ", ") + function.getName().str();
  return names.empty() ? "it defines no kernel" : "it defines: " + names;
}

std::string signatureOf(const llvm::Function &function) {
  std::string text;
  llvm::raw_string_ostream os(text);
  function.getFunctionType()->print(os);
  return text;
}

/// "" when `given` defines each kernel `plan` launches with the signature
/// `compiled` gives it; otherwise what differs.
std::string checkKernelsDefined(const llvm::Module &given,
                                const llvm::Module &compiled,
                                const rt::LaunchPlan &plan,
                                const std::string &path) {
  for (const rt::ProgramDesc &program : plan.programs) {
    const llvm::Function *kernel = given.getFunction(program.name);
    if (!kernel || kernel->isDeclaration())
      return path + " does not define kernel '" + program.name +
             "', which the program launches (" + kernelsDefined(given) + ")";
    const llvm::Function *expected = compiled.getFunction(program.name);
    if (!expected)
      return "the compiled program has no kernel '" + program.name + "'";
    if (signatureOf(*kernel) != signatureOf(*expected))
      return "kernel '" + program.name + "' in " + path + " has type '" +
             signatureOf(*kernel) + "', but the program launches it as '" +
             signatureOf(*expected) + "'";
  }
  return "";
}

} // namespace

std::unique_ptr<llvm::Module>
EmuExecutor::readKernelsIR(const std::string &path, ModuleOp compiled,
                           const rt::LaunchPlan &plan,
                           llvm::LLVMContext &context, std::string &error) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> kernels =
      llvm::parseIRFile(path, diagnostic, context);
  if (!kernels) {
    error = parseFailure(diagnostic);
    return nullptr;
  }
  llvm::LLVMContext compiledContext;
  std::unique_ptr<llvm::Module> expected =
      kernelsAsLLVM(compiled, compiledContext, error);
  if (!expected)
    return nullptr;
  error = checkKernelsDefined(*kernels, *expected, plan, path);
  return error.empty() ? std::move(kernels) : nullptr;
}

std::unique_ptr<EmuExecutor> EmuExecutor::create(ModuleOp module,
                                                 rt::LaunchPlan plan,
                                                 std::string &error) {
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> kernels =
      kernelsAsLLVM(module, *context, error);
  if (!kernels)
    return nullptr;
  return create(std::move(kernels), std::move(context), std::move(plan),
                error);
}

std::unique_ptr<EmuExecutor>
EmuExecutor::create(std::unique_ptr<llvm::Module> kernels,
                    std::unique_ptr<llvm::LLVMContext> context,
                    rt::LaunchPlan plan, std::string &error) {
  auto executor = std::make_unique<EmuExecutor>();
  executor->emulator = emu::SimtEmulator::create(std::move(kernels),
                                                 std::move(context), error);
  if (!executor->emulator)
    return nullptr;
  executor->plan = std::move(plan);
  return executor;
}

std::string EmuExecutor::run(const rt::SizeValues &kernelSizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs,
                             bool *kernelFault,
                             std::vector<std::pair<std::string,
                                                   emu::MemoryProfile>>
                                 *profiles) {
  const rt::SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  LaunchBuffers buffers;
  if (std::string e = buffers.allocate(plan, sizes, inputs); !e.empty())
    return e;
  std::vector<rt::BufferView> views;
  for (const rt::BufferDesc &b : plan.buffers) {
    LaunchBuffers::View view = buffers.view(b.name);
    views.push_back({view.data, view.shape});
  }
  emu::PlanLaunchResult result =
      emu::launchPlan(*emulator, plan, views, sizes, profiles);
  // What the emulator did not check (race checks turned off), once.
  for (const std::string &note : result.notes)
    if (!llvm::is_contained(notes, note)) {
      llvm::errs() << "nautc: note: the emulator: " << note << "\n";
      notes.push_back(note);
    }
  if (!result.error.empty()) {
    if (kernelFault)
      *kernelFault = result.kernelFault;
    return result.error;
  }
  outputs = buffers.takeOutputs();
  return "";
}
