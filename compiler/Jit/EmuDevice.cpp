//===- EmuDevice.cpp - The SIMT emulator as a device of the C API ---------===//
//
// "emu": runs an NVIDIA bundle's kernels on the host through the SIMT
// emulator (runtime/emulator), from the bundle's "nvvm_ir" (compile with
// NT_COMPILE_KERNEL_IR), over tensors in host memory. The grid, the packed
// parameters and the tensor maps are those the cuda device gives a GPU
// (runtime/emulator/PlanLaunch.h), so a launch here checks a GPU launch's
// arguments as well as the kernels (races, bounds, async hazards). The
// emulator compiles LLVM IR, so this device lives in the JIT library,
// which registers it with the C API when it is loaded.
//
//===----------------------------------------------------------------------===//
#include "runtime/api/Handles.h"
#include "runtime/emulator/PlanLaunch.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace nautilus;

namespace {

/// The most dynamic shared memory a block takes on the largest target
/// emulated (sm_90: 227 KiB).
constexpr int64_t kEmulatedSharedBytes = 232448;

class EmuKernel : public rt::LoadedKernel {
public:
  EmuKernel(std::unique_ptr<emu::SimtEmulator> emulator, rt::LaunchPlan plan)
      : emulator(std::move(emulator)), plan(std::move(plan)) {}

  std::string launch(const std::vector<rt::BufferView> &buffers,
                     const rt::SizeValues &sizes, void *) override {
    std::lock_guard<std::mutex> lock(mutex); // one launch at a time
    emu::PlanLaunchResult result =
        emu::launchPlan(*emulator, plan, buffers, sizes);
    return result.error;
  }

private:
  std::mutex mutex;
  std::unique_ptr<emu::SimtEmulator> emulator;
  rt::LaunchPlan plan;
};

class EmuDevice : public rt::Device {
public:
  std::string description() const override {
    return "emu: the SIMT emulator, " +
           std::to_string(emu::emulatedMultiprocessors()) + " multiprocessors";
  }
  rt::DeviceLimits limits() const override {
    rt::DeviceLimits l;
    l.multiprocessors = emu::emulatedMultiprocessors();
    l.maxThreadsPerBlock = 1024;
    l.maxSharedBytesPerBlock = kEmulatedSharedBytes;
    l.bufferAlignment = 16;
    l.maxBlocks = INT32_MAX; // gridDim.x, as on the GPUs
    return l;
  }
  std::string accepts(const rt::Bundle &bundle) const override {
    if (bundle.code.count("nvvm_ir"))
      return "";
    return bundle.code.count("ptx")
               ? "the bundle has no kernel IR for the emulator: compile it "
                 "with NT_COMPILE_KERNEL_IR"
               : "the bundle is for target '" + bundle.target +
                     "'; the emu device runs bundles for NVIDIA targets";
  }
  std::string load(const rt::Bundle &bundle,
                   std::unique_ptr<rt::LoadedKernel> &out) override {
    if (std::string e = accepts(bundle); !e.empty())
      return e;
    auto context = std::make_unique<llvm::LLVMContext>();
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> module = llvm::parseIR(
        llvm::MemoryBufferRef(bundle.code.at("nvvm_ir"), "nvvm_ir"), diagnostic,
        *context);
    if (!module)
      return "the bundle's kernel IR does not parse: " +
             diagnostic.getMessage().str();
    std::string error;
    auto emulator =
        emu::SimtEmulator::create(std::move(module), std::move(context), error);
    if (!emulator)
      return "the emulator cannot run these kernels: " + error;
    out = std::make_unique<EmuKernel>(std::move(emulator), bundle.plan);
    return "";
  }

  std::string allocate(size_t bytes, void **out) override {
    // (Rounded up to whole 64-byte lines: a size within 63 of SIZE_MAX
    // would wrap to 0, which aligned_alloc answers with a valid block.)
    *out = bytes && bytes <= SIZE_MAX - 63
               ? std::aligned_alloc(64, (bytes + 63) / 64 * 64)
               : nullptr;
    return bytes && !*out ? "out of host memory" : "";
  }
  void release(void *memory) override { std::free(memory); }
  std::string copyToDevice(void *dst, const void *src, size_t n) override {
    if (n)
      std::memcpy(dst, src, n);
    return "";
  }
  std::string copyToHost(void *dst, const void *src, size_t n) override {
    return copyToDevice(dst, src, n);
  }
};

std::string openEmuDevice(int ordinal, std::unique_ptr<rt::Device> &out) {
  if (ordinal != 0)
    return "there is one emu device (number 0), not " + std::to_string(ordinal);
  out = std::make_unique<EmuDevice>();
  return "";
}

/// Registers the device when the library is loaded.
[[maybe_unused]] const bool registered = [] {
  capi::registerDeviceKind("emu", openEmuDevice);
  return true;
}();

} // namespace
