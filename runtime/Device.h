//===- Device.h - Where compiled kernels run -------------------*- C++ -*-===//
//
// A device loads bundles (Bundle.h) and launches them. Devices:
//   cpu   the host: a bundle's "host_library" (dlopen), grids split over
//         the host's threads (HostPrograms.h); tensors in host memory
//   cuda  an NVIDIA GPU through the driver API (libcuda.so.1 by dlopen):
//         a bundle's "ptx", compiled by the driver; tensors in device memory
//   hip   an AMD GPU through HIP (libamdhip64 by dlopen): a bundle's
//         "hsaco" code object; tensors in device memory
//   emu   the SIMT emulator running a bundle's "nvvm_ir" on the host; it
//         compiles LLVM IR, so the JIT library provides it
//         (compiler/Jit/EmuDevice.cpp) and the C API opens it
// Without a driver, opening a GPU device fails with a message saying so.
// The launch's checks (shapes, requirements, alignment, resources) are the
// same on every device (LaunchChecks.h); a device only runs what passed.
//
// Thread safety: a Device and a LoadedKernel may be used from any number of
// threads at once.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_DEVICE_H
#define NAUTILUS_RUNTIME_DEVICE_H

#include "runtime/Bundle.h"
#include "runtime/PackedArgs.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nautilus::rt {

namespace cuda {
struct Driver;
} // namespace cuda

/// What a device allows one program (block) to take.
struct DeviceLimits {
  int64_t multiprocessors = 1;
  int64_t maxThreadsPerBlock = 1;
  int64_t maxSharedBytesPerBlock = 0; // dynamic shared memory, opted in
  /// The alignment in bytes every buffer's address must have.
  int64_t bufferAlignment = 1;
  /// The most blocks (tiles) one program's grid may have: at most
  /// gridDim.x's 2^31 - 1 on every device, the grids compiler/Verify's
  /// coverage proofs cover (kMaxCount tiles a dimension).
  int64_t maxBlocks = INT32_MAX;
};

/// A bundle loaded on a device, ready to launch.
class LoadedKernel {
public:
  virtual ~LoadedKernel() = default;
  /// Launches every program of the plan, in order. `buffers` follow the
  /// plan's buffers, workspaces included (which the caller allocated on the
  /// device); `sizes` hold every size, derived ones included; `stream` is
  /// the device's stream (CUstream; ignored on the cpu). Returns "" or the
  /// error.
  virtual std::string launch(const std::vector<BufferView> &buffers,
                             const SizeValues &sizes, void *stream) = 0;
};

class Device {
public:
  virtual ~Device() = default;
  /// A line naming the device ("cpu: 16 threads", "cuda:0: NVIDIA H200").
  virtual std::string description() const = 0;
  virtual DeviceLimits limits() const = 0;
  /// Whether this device runs code for `bundle`'s target.
  virtual std::string accepts(const Bundle &bundle) const = 0;
  /// Loads `bundle` (which accepts() took). Returns "" or the error.
  virtual std::string load(const Bundle &bundle,
                           std::unique_ptr<LoadedKernel> &out) = 0;

  /// Device memory: `bytes` bytes (null for 0), freed by release().
  virtual std::string allocate(size_t bytes, void **out) = 0;
  virtual void release(void *memory) = 0;
  virtual std::string copyToDevice(void *device, const void *host,
                                   size_t bytes) = 0;
  virtual std::string copyToHost(void *host, const void *device,
                                 size_t bytes) = 0;
  /// Waits for what `stream` holds (launches return once queued on a GPU);
  /// nothing to wait for on the host.
  virtual std::string synchronize(void *stream) { return ""; }
};

/// Device memory for one run, released when it ends (a launch's
/// workspaces, a run's copies of its tensors).
class DeviceAllocations {
public:
  explicit DeviceAllocations(Device &device) : device(device) {}
  ~DeviceAllocations() {
    for (void *m : memory)
      device.release(m);
  }
  DeviceAllocations(const DeviceAllocations &) = delete;
  DeviceAllocations &operator=(const DeviceAllocations &) = delete;

  /// `bytes` of device memory, holding a copy of `from` when it is given.
  /// Returns "" and sets `out`, or the device's error.
  std::string add(size_t bytes, const void *from, void *&out) {
    if (std::string e = device.allocate(bytes, &out); !e.empty())
      return e;
    memory.push_back(out);
    return from ? device.copyToDevice(out, from, bytes) : "";
  }
  bool empty() const { return memory.empty(); }

private:
  Device &device;
  std::vector<void *> memory;
};

/// Opens device `kind` ("cpu", "cuda", "hip") number `ordinal`. Returns "" or
/// the error (an unknown kind, no driver, no such device).
std::string openDevice(const std::string &kind, int ordinal,
                       std::unique_ptr<Device> &out);

/// Defined per device (CpuDevice.cpp, CudaDevice.cpp, HipDevice.cpp).
std::string openCpuDevice(std::unique_ptr<Device> &out);
std::string openCudaDevice(int ordinal, std::unique_ptr<Device> &out);
/// The cuda device through `driver`'s entry points (which must outlive it):
/// openCudaDevice with the loaded driver, or a test's fake one.
std::string openCudaDeviceWith(const cuda::Driver &driver, int ordinal,
                               std::unique_ptr<Device> &out);
std::string openHipDevice(int ordinal, std::unique_ptr<Device> &out);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_DEVICE_H
