//===- EmuExecutor.cpp ----------------------------------------------------===//
#include "compiler/Pipeline/EmuExecutor.h"
#include "compiler/Pipeline/LaunchBuffers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace nautilus;

std::unique_ptr<EmuExecutor> EmuExecutor::create(ModuleOp module,
                                                 rt::LaunchPlan plan,
                                                 std::string &error) {
  auto gpuModules = module.getOps<gpu::GPUModuleOp>();
  if (gpuModules.empty()) {
    error = "no GPU kernels to emulate";
    return nullptr;
  }
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*gpuModules.begin(), *context, "kernels");
  if (!llvmModule) {
    error = "translation of the kernels to LLVM IR failed";
    return nullptr;
  }
  auto executor = std::make_unique<EmuExecutor>();
  executor->emulator = emu::SimtEmulator::create(std::move(llvmModule),
                                                 std::move(context), error);
  if (!executor->emulator)
    return nullptr;
  executor->plan = std::move(plan);
  return executor;
}

std::string EmuExecutor::run(const rt::SizeValues &sizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &outputs) {
  LaunchBuffers buffers;
  if (std::string e = buffers.allocate(plan, sizes, inputs); !e.empty())
    return e;
  std::vector<emu::MemoryRange> ranges;
  for (auto [begin, bytes] : buffers.ranges())
    ranges.push_back({begin, bytes});
  for (const rt::ProgramDesc &program : plan.programs) {
    emu::LaunchShape shape;
    int64_t blocks = program.numPrograms(sizes);
    if (blocks > UINT32_MAX)
      return "program '" + program.name + "' needs " +
             std::to_string(blocks) + " blocks, more than a grid holds";
    shape.grid = {static_cast<uint32_t>(blocks), 1, 1};
    shape.block = {static_cast<uint32_t>(program.threads), 1, 1};
    if (std::string e =
            emulator->launch(program.name, shape, buffers.packedArgs(), ranges);
        !e.empty())
      return "kernel '" + program.name + "': " + e;
  }
  outputs = buffers.takeOutputs();
  return "";
}
