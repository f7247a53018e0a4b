//===- HostLibrary.h - The host's code as a shared library -----*- C++ -*-===//
//
// For the cpu target, a bundle carries the programs as a shared library for
// the machine that compiles them (runtime/Bundle.h, "host_library"): the
// host LLVM IR, optimised, with one packed entry point a program
// (runtime/HostPrograms.h: `void _nautilus_packed_NAME(void **args)`),
// compiled to a position-independent object and linked with the system's C
// compiler driver (`cc -shared`, or $NAUTILUS_CC).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_HOSTLIBRARY_H
#define NAUTILUS_PIPELINE_HOSTLIBRARY_H

#include "runtime/LaunchPlan.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace nautilus {

/// `module` (host code in the LLVM dialect) as optimised LLVM IR for the
/// machine the compiler runs on, and the target machine for it (position
/// independent when `pic`). Null when translation fails.
std::unique_ptr<llvm::Module>
hostLLVMModule(mlir::ModuleOp module, llvm::LLVMContext &context,
               std::unique_ptr<llvm::TargetMachine> &tm, bool pic);

/// The object file of `llvmModule` for `tm`; false when `tm` cannot.
bool emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                std::string &out);

/// The shared library of `module` (host code in the LLVM dialect) whose
/// plan is `plan`. Returns "" and sets `library`, or what failed.
std::string buildHostLibrary(mlir::ModuleOp module, const rt::LaunchPlan &plan,
                             std::string &library);

/// The host CPU's name as LLVM knows it ("znver3"): a cpu bundle's chip.
std::string hostChipName();

/// The features of the host CPU that the code may use and that the runtime
/// checks before running it (runtime/HostFeatures.h).
std::vector<std::string> hostCheckedFeatures();

} // namespace nautilus

#endif
