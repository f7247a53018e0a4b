//===- EmuExecutor.cpp ----------------------------------------------------===//
#include "compiler/Pipeline/EmuExecutor.h"
#include "runtime/LaunchBuffers.h"
#include "runtime/emulator/TensorMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdlib>
#include <thread>

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace nautilus;

/// How many blocks of a persistent program run at once on the emulator:
/// the host's cores, or NAUTILUS_EMU_MULTIPROCESSORS when set (a test that
/// must see one block take several tiles in turn sets it to 1).
static int64_t emulatedMultiprocessors() {
  if (const char *set = std::getenv("NAUTILUS_EMU_MULTIPROCESSORS")) {
    char *end = nullptr;
    long value = std::strtol(set, &end, 10);
    if (end != set && *end == '\0' && value > 0)
      return value;
    llvm::errs() << "nautc: warning: NAUTILUS_EMU_MULTIPROCESSORS='" << set
                 << "' is not a positive number; using the host's cores\n";
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

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
  std::vector<emu::MemoryRange> ranges;
  // Inputs are read-only: the race checks within a block leave them out.
  for (auto [begin, bytes, input] : buffers.ranges())
    ranges.push_back({begin, bytes, /*readOnly=*/input});
  for (const rt::ProgramDesc &program : plan.programs) {
    // The TMA tensor maps, in the emulator's encoding, follow the sizes.
    std::vector<std::array<char, 192>> maps(program.tensorMaps.size());
    std::vector<void *> mapPointers(program.tensorMaps.size());
    std::vector<void *> args = buffers.packedArgs();
    for (auto [i, desc] : llvm::enumerate(program.tensorMaps)) {
      LaunchBuffers::View view = buffers.view(desc.buffer);
      size_t rank = view.shape.size();
      int64_t bytes = rt::dtypeSize(view.dtype);
      std::vector<uint64_t> dims, strides;
      std::vector<uint32_t> box, ones(rank, 1);
      int64_t stride = bytes;
      for (size_t d = 0; d < rank; ++d) {
        dims.push_back(view.shape[rank - 1 - d]);
        box.push_back(static_cast<uint32_t>(desc.box[d]));
        if (d > 0)
          strides.push_back(stride);
        stride *= view.shape[rank - 1 - d];
      }
      // 64-byte aligned, as CUtensorMap.
      char *at = maps[i].data();
      at += (64 - reinterpret_cast<uintptr_t>(at) % 64) % 64;
      auto swizzle = desc.swizzleBytes == 128  ? emu::TensorMapSwizzle::B128
                     : desc.swizzleBytes == 64 ? emu::TensorMapSwizzle::B64
                     : desc.swizzleBytes == 32 ? emu::TensorMapSwizzle::B32
                                               : emu::TensorMapSwizzle::None;
      if (std::string e = emu::encodeTiledTensorMap(
              at, rank, bytes, view.data, dims.data(), strides.data(),
              box.data(), ones.data(), swizzle, emu::TensorMapOobFill::Zero);
          !e.empty())
        return "kernel '" + program.name + "' reads '" + desc.buffer +
               "' with TMA, which cannot describe it (" + e +
               "): TMA needs the innermost extent of its operands to be a "
               "multiple of 16 bytes; compile with --shape to let nautc pick "
               "a pipeline for these sizes, or pad the tensor";
      mapPointers[i] = at;
      args.push_back(&mapPointers[i]);
    }
    emu::LaunchShape shape;
    shape.dynamicSharedBytes = static_cast<uint32_t>(program.dynamicSharedBytes);
    int64_t blocks = program.numPrograms(sizes);
    // A persistent program runs as many blocks as the machine runs at
    // once: the emulator's multiprocessors (emulatedMultiprocessors).
    if (program.persistent)
      blocks = std::min<int64_t>(blocks, emulatedMultiprocessors());
    if (blocks > UINT32_MAX)
      return "program '" + program.name + "' needs " +
             std::to_string(blocks) + " blocks, more than a grid holds";
    if (program.threads < 1 || program.threads > 1024)
      return "program '" + program.name + "' needs blocks of " +
             std::to_string(program.threads) +
             " threads; a block holds 1 to 1024";
    shape.grid = {static_cast<uint32_t>(blocks), 1, 1};
    shape.block = {static_cast<uint32_t>(program.threads), 1, 1};
    emu::MemoryProfile *profile = nullptr;
    if (profiles)
      profile = &profiles->emplace_back(program.name,
                                        emu::MemoryProfile()).second;
    std::string e = emulator->launch(program.name, shape, args, ranges,
                                     /*hostThreads=*/0, profile);
    // What the emulator did not check (race checks turned off), once.
    for (const std::string &note : emulator->takeNotes())
      if (!llvm::is_contained(notes, note)) {
        llvm::errs() << "nautc: note: the emulator: " << note << "\n";
        notes.push_back(note);
      }
    if (!e.empty()) {
      if (kernelFault)
        *kernelFault = true;
      return "kernel '" + program.name + "': " + e;
    }
  }
  outputs = buffers.takeOutputs();
  return "";
}
