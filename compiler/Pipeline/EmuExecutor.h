//===- EmuExecutor.h - Running NVIDIA kernels on the emulator --*- C++ -*-===//
#ifndef NAUTILUS_PIPELINE_EMUEXECUTOR_H
#define NAUTILUS_PIPELINE_EMUEXECUTOR_H

#include "runtime/HostTensor.h"
#include "runtime/LaunchPlan.h"
#include "runtime/emulator/SimtEmulator.h"
#include "mlir/IR/BuiltinOps.h"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace nautilus {

class EmuExecutor {
public:
  /// `module` holds the kernels at the NVVM level (lowerGPUToLLVM).
  static std::unique_ptr<EmuExecutor> create(mlir::ModuleOp module,
                                             rt::LaunchPlan plan,
                                             std::string &error);
  /// The same for kernels already in LLVM IR (kernelsAsLLVM's, perhaps
  /// edited by hand: a test that deletes a barrier).
  static std::unique_ptr<EmuExecutor>
  create(std::unique_ptr<llvm::Module> kernels,
         std::unique_ptr<llvm::LLVMContext> context, rt::LaunchPlan plan,
         std::string &error);
  /// The kernels of `module` (at the NVVM level) as the LLVM IR the
  /// emulator runs, or null with `error` set.
  static std::unique_ptr<llvm::Module>
  kernelsAsLLVM(mlir::ModuleOp module, llvm::LLVMContext &context,
                std::string &error);
  /// Kernels to run in place of the compiled ones (`nautc run --kernel-ir`):
  /// the LLVM IR in the file at `path` (as `nautc compile --emit llvm`
  /// prints it, perhaps edited by hand), which must define every kernel
  /// `plan` launches with the signature `compiled` (the module lowered to
  /// the NVVM level) gives it. Returns null with `error` set: LLVM's
  /// message with the file and line when the file does not parse, or the
  /// kernel missing or whose signature differs.
  static std::unique_ptr<llvm::Module> readKernelsIR(const std::string &path,
                                                     mlir::ModuleOp compiled,
                                                     const rt::LaunchPlan &plan,
                                                     llvm::LLVMContext &context,
                                                     std::string &error);

  /// Runs the plan's programs on the emulator: one block per program id,
  /// the schedule's threads per block. Returns "" or the error, and sets
  /// `kernelFault` when the error is a kernel's (a race, an async hazard,
  /// a deadlock, an access out of bounds: a bug in the generated code)
  /// rather than the run's (sizes TMA or the grid cannot take).
  /// With `profiles`, also each program's shared-memory traffic (slower).
  std::string run(const rt::SizeValues &sizes,
                  const std::vector<rt::HostTensor> &inputs,
                  std::vector<rt::HostTensor> &outputs,
                  bool *kernelFault = nullptr,
                  std::vector<std::pair<std::string, emu::MemoryProfile>>
                      *profiles = nullptr);

  /// The order the emulator runs threads and blocks in (by default,
  /// NAUTILUS_EMU_FIBRE_ORDER's, or ascending).
  void setFibreOrder(emu::FibreOrder order) { emulator->setFibreOrder(order); }

private:
  std::unique_ptr<emu::SimtEmulator> emulator;
  rt::LaunchPlan plan;
  /// The emulator's notes printed so far (each is printed once).
  std::vector<std::string> notes;
};

} // namespace nautilus

#endif
