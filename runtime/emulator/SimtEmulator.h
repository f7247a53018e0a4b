//===- SimtEmulator.h - Running NVIDIA kernels on the CPU ------*- C++ -*-===//
//
// Executes GPU kernels from their NVVM-level LLVM IR (the IR the NVPTX
// backend turns into PTX) on the host: the `llvm.nvvm.*` intrinsics become
// calls into an emulation runtime, the module is compiled for the host with
// ORC, and a grid of thread blocks runs with each block's threads as fibres
// (so `bar.sync` works), blocks spread over host threads.
//
// What is emulated is listed in docs/emulator.md; anything else in a kernel
// is refused when the module is loaded, with "not emulated: NAME", never run
// with a wrong meaning.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_SIMTEMULATOR_H
#define NAUTILUS_RUNTIME_EMULATOR_SIMTEMULATOR_H

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class LLVMContext;
} // namespace llvm

namespace nautilus::emu {

/// A range of host memory that a launch may access as global memory. A
/// read-only one (a kernel's input) is not watched for races within a
/// block (nothing writes it), and a store to it fails the launch.
struct MemoryRange {
  const void *begin = nullptr;
  size_t bytes = 0;
  bool readOnly = false;
};

/// The order the emulator runs a block's threads (fibres) in, from one
/// point where they wait (a barrier, a warp collective, an mbarrier poll)
/// to the next, and a grid's blocks in: by index, from the last index
/// down, or shuffled (each sweep over the threads anew, from `seed`). The
/// race checks do not depend on it; the option is there to show so.
struct FibreOrder {
  enum Kind { Ascending, Descending, Random } kind = Ascending;
  uint64_t seed = 0;
};

/// Reads "ascending", "descending", "random" or "random:SEED" into
/// `order`; returns "" or what is wrong.
std::string parseFibreOrder(const std::string &text, FibreOrder &order);

/// Shared-memory traffic as a GPU's banks serve it (32 banks of 4 bytes):
/// requests (warp instructions), wavefronts (the bank cycles they take:
/// a 16-byte access by quarter warps, an 8-byte one by half warps, a
/// narrower one by the whole warp, each phase as many cycles as the most
/// distinct words any bank holds), and the wavefronts without conflicts
/// (one a phase that touches memory).
struct SharedTraffic {
  uint64_t requests = 0, wavefronts = 0, idealWavefronts = 0;
  uint64_t conflicts() const { return wavefronts - idealWavefronts; }
};

/// Global memory traffic: requests (warp instructions), the 32-byte
/// sectors they touch, and the distinct bytes the lanes asked for (all of
/// the sectors' bytes when the accesses are coalesced).
struct GlobalTraffic {
  uint64_t requests = 0, sectors = 0, bytes = 0;
};

/// A launch's memory traffic by kind of access. Shared memory: the
/// threads' loads and stores (the k-th execution of a load or store
/// instruction by each lane of a warp is one request), ldmatrix (a request
/// an instruction, a phase a matrix) and cp.async copies landing (the k-th
/// copy each lane issued). Global memory: the threads' loads (with the
/// cp.async copies' reads) and stores, and TMA's loads (a request a box:
/// the sectors of its elements inside the tensor). wgmma's reads of shared
/// memory are not counted: the hardware moves its tiles itself.
struct MemoryProfile {
  SharedTraffic loads, stores, ldmatrix, asyncCopies;
  GlobalTraffic globalLoads, globalStores, tmaLoads;
};

struct LaunchShape {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t dynamicSharedBytes = 0;
};

class SimtEmulator {
public:
  /// Takes the kernels' module (NVVM-level LLVM IR) and prepares it for the
  /// host. Returns null with `error` set (e.g. "not emulated: ..."). The
  /// fibre order is NAUTILUS_EMU_FIBRE_ORDER's when it is set (an error if
  /// it does not parse), ascending otherwise.
  static std::unique_ptr<SimtEmulator>
  create(std::unique_ptr<llvm::Module> module,
         std::unique_ptr<llvm::LLVMContext> context, std::string &error);
  ~SimtEmulator();

  /// Launches kernel `name`. `args` points to each kernel parameter's value,
  /// in order (as cuLaunchKernel takes them). Every global load and store
  /// must fall inside one of `buffers` (unless `buffers` is empty: then
  /// accesses are not checked); one that does not is not performed (it
  /// reads zeros, writes nowhere) and the launch fails, naming the thread,
  /// the block and the address. With `profile`, adds the launch's memory
  /// traffic to it (slower). Returns "" or an error.
  std::string launch(const std::string &name, const LaunchShape &shape,
                     std::vector<void *> args,
                     const std::vector<MemoryRange> &buffers,
                     unsigned hostThreads = 0,
                     MemoryProfile *profile = nullptr);

  /// The order later launches run threads and blocks in.
  void setFibreOrder(FibreOrder order);
  /// What the launches so far did not check (race checks turned off for
  /// large buffers), each said once; returns them and forgets them.
  std::vector<std::string> takeNotes();
private:
  struct Impl;
  explicit SimtEmulator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace nautilus::emu

#endif
