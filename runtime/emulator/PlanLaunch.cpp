//===- PlanLaunch.cpp - A launch plan's programs on the emulator ----------===//
#include "runtime/emulator/PlanLaunch.h"
#include "runtime/HostTensor.h"
#include "runtime/TensorMapGeometry.h"
#include "runtime/emulator/TensorMap.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <thread>

namespace nautilus::emu {

namespace {

/// The tensor map of `desc` over the plan's `buffers`, in the emulator's
/// encoding, written 64-byte aligned into `storage`; "" or the error.
std::string encodeMap(const rt::LaunchPlan &plan,
                      const std::vector<rt::BufferView> &buffers,
                      const rt::TensorMapDesc &desc,
                      std::array<char, 192> &storage, void *&map) {
  rt::TensorMapGeometry g;
  if (std::string e = rt::tensorMapGeometry(plan, buffers, desc, g); !e.empty())
    return e;
  char *at = storage.data();
  at += (64 - reinterpret_cast<uintptr_t>(at) % 64) % 64;
  auto swizzle = desc.swizzleBytes == 128  ? TensorMapSwizzle::B128
                 : desc.swizzleBytes == 64 ? TensorMapSwizzle::B64
                 : desc.swizzleBytes == 32 ? TensorMapSwizzle::B32
                                           : TensorMapSwizzle::None;
  map = at;
  return encodeTiledTensorMap(at, static_cast<unsigned>(g.dims.size()),
                              static_cast<unsigned>(g.elementBytes), g.data,
                              g.dims.data(), g.strides.data(), g.box.data(),
                              g.elementStrides.data(), swizzle,
                              TensorMapOobFill::Zero);
}

} // namespace

int64_t emulatedMultiprocessors() {
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

PlanLaunchResult
launchPlan(SimtEmulator &emulator, const rt::LaunchPlan &plan,
           const std::vector<rt::BufferView> &buffers,
           const rt::SizeValues &sizes,
           std::vector<std::pair<std::string, MemoryProfile>> *profiles) {
  PlanLaunchResult result;
  std::vector<MemoryRange> ranges;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const rt::BufferDesc &b = plan.buffers[i];
    if (b.role == rt::BufferRole::Scalar)
      continue;
    size_t bytes =
        *rt::shapeNumElements(buffers[i].shape) * rt::dtypeSize(b.dtype);
    // Inputs are read-only: the race checks within a block leave them out.
    ranges.push_back({buffers[i].data, bytes,
                      /*readOnly=*/b.role == rt::BufferRole::Input});
  }
  rt::PackedArgs packed(plan, buffers, sizes);
  for (const rt::ProgramDesc &program : plan.programs) {
    if (!program.launchesAt(sizes))
      continue;
    std::vector<std::array<char, 192>> maps(program.tensorMaps.size());
    std::vector<void *> mapPointers(program.tensorMaps.size());
    std::vector<void *> args = packed.pointers();
    for (size_t i = 0; i < program.tensorMaps.size(); ++i) {
      const rt::TensorMapDesc &desc = program.tensorMaps[i];
      if (std::string e =
              encodeMap(plan, buffers, desc, maps[i], mapPointers[i]);
          !e.empty())
        return result.error =
                   "kernel '" + program.name + "' reads '" + desc.buffer +
                   "' with TMA, which cannot describe it (" + e +
                   "): TMA needs the innermost extent of its operands to be "
                   "a multiple of 16 bytes; compile with --shape to let "
                   "nautc pick a pipeline for these sizes, or pad the tensor",
               result;
      args.push_back(&mapPointers[i]);
    }
    LaunchShape shape;
    shape.dynamicSharedBytes =
        static_cast<uint32_t>(program.dynamicSharedBytes);
    int64_t blocks = program.numPrograms(sizes);
    // A persistent program runs as many blocks as the machine runs at once.
    if (program.persistent)
      blocks = std::min<int64_t>(blocks, emulatedMultiprocessors());
    if (blocks > UINT32_MAX)
      return result.error = "program '" + program.name + "' needs " +
                            std::to_string(blocks) +
                            " blocks, more than a grid holds",
             result;
    if (program.threads < 1 || program.threads > 1024)
      return result.error = "program '" + program.name + "' needs blocks of " +
                            std::to_string(program.threads) +
                            " threads; a block holds 1 to 1024",
             result;
    shape.grid = {static_cast<uint32_t>(blocks), 1, 1};
    shape.block = {static_cast<uint32_t>(program.threads), 1, 1};
    MemoryProfile *profile = nullptr;
    if (profiles)
      profile = &profiles->emplace_back(program.name, MemoryProfile()).second;
    std::string e = emulator.launch(program.name, shape, args, ranges,
                                    /*hostThreads=*/0, profile);
    for (std::string &note : emulator.takeNotes())
      result.notes.push_back(std::move(note));
    if (!e.empty()) {
      result.kernelFault = true;
      result.error = "kernel '" + program.name + "': " + e;
      return result;
    }
  }
  return result;
}

} // namespace nautilus::emu
