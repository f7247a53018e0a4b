//===- HipDevice.cpp - An AMD GPU through HIP, loaded at run time ---------===//
//
// The hip device: libamdhip64 is loaded with dlopen (so the runtime builds
// and runs without ROCm), a bundle's code object ("hsaco") is loaded with
// hipModuleLoadData, and each program is launched with
// hipModuleLaunchKernel on the caller's stream, one block a tile, with the
// parameters PackedArgs packs. The AMD kernels use no tensor maps and no
// persistent grids; a block's limits are those of gfx90a and gfx942 (1024
// threads, 64 KiB of LDS).
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/DynamicSymbols.h"

#include "runtime/DynamicSymbols.h"

#include <dlfcn.h>
#include <mutex>

namespace nautilus::rt {

namespace {

using hipError_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
constexpr hipError_t hipSuccess = 0;
constexpr int hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2;

struct Hip {
  hipError_t (*hipInit)(unsigned);
  const char *(*hipGetErrorString)(hipError_t);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipGetDevice)(int *);
  hipError_t (*hipDeviceGetName)(char *, int, int);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **);
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipMemcpy)(void *, const void *, size_t, int);
  hipError_t (*hipStreamSynchronize)(hipStream_t);
};

/// HIP, loaded and initialised once; null with `error` set without ROCm.
const Hip *loadHip(std::string &error) {
  static std::once_flag once;
  static Hip hip;
  static std::string loadError;
  std::call_once(once, [] {
    void *library = nullptr;
    for (const char *name :
         {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5",
          "/opt/rocm/lib/libamdhip64.so"})
      if ((library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!library) {
      loadError = "the hip device needs ROCm's HIP runtime (libamdhip64.so), "
                  "which this machine does not have";
      return;
    }
    std::string missing;
    auto get = [&](auto &fn, const char *name) {
      resolveSymbol(library, fn, name, missing);
    };
    get(hip.hipInit, "hipInit");
    get(hip.hipGetErrorString, "hipGetErrorString");
    get(hip.hipGetDeviceCount, "hipGetDeviceCount");
    get(hip.hipSetDevice, "hipSetDevice");
    get(hip.hipGetDevice, "hipGetDevice");
    get(hip.hipDeviceGetName, "hipDeviceGetName");
    get(hip.hipModuleLoadData, "hipModuleLoadData");
    get(hip.hipModuleUnload, "hipModuleUnload");
    get(hip.hipModuleGetFunction, "hipModuleGetFunction");
    get(hip.hipModuleLaunchKernel, "hipModuleLaunchKernel");
    get(hip.hipMalloc, "hipMalloc");
    get(hip.hipFree, "hipFree");
    get(hip.hipMemcpy, "hipMemcpy");
    get(hip.hipStreamSynchronize, "hipStreamSynchronize");
    if (!missing.empty())
      loadError = "libamdhip64 lacks " + missing;
    else if (hip.hipInit(0) != hipSuccess)
      loadError = "the HIP runtime failed to initialise";
  });
  error = loadError;
  return loadError.empty() ? &hip : nullptr;
}

/// Makes `device` the thread's current one for its lifetime, then restores
/// the thread's own.
class ScopedDevice {
public:
  ScopedDevice(const Hip &hip, int device) : hip(hip) {
    if (hip.hipGetDevice(&previous) != hipSuccess)
      previous = -1;
    hip.hipSetDevice(device);
  }
  ~ScopedDevice() {
    if (previous >= 0)
      hip.hipSetDevice(previous);
  }
  ScopedDevice(const ScopedDevice &) = delete;
  ScopedDevice &operator=(const ScopedDevice &) = delete;

private:
  const Hip &hip;
  int previous = -1;
};

std::string describe(const Hip &hip, hipError_t e) {
  return std::string(hip.hipGetErrorString(e)) + " (hipError_t " +
         std::to_string(e) + ")";
}

class HipKernel : public LoadedKernel {
public:
  HipKernel(const Hip &hip, int device, hipModule_t module, LaunchPlan plan,
            std::vector<hipFunction_t> functions)
      : hip(hip), device(device), module(module), plan(std::move(plan)),
        functions(std::move(functions)) {}
  ~HipKernel() override {
    ScopedDevice scope(hip, device);
    hip.hipModuleUnload(module);
  }

  std::string launch(const std::vector<BufferView> &buffers,
                     const SizeValues &sizes, void *stream) override {
    ScopedDevice scope(hip, device);
    PackedArgs packed(plan, buffers, sizes);
    for (size_t p = 0; p < plan.programs.size(); ++p) {
      const ProgramDesc &program = plan.programs[p];
      std::vector<void *> args = packed.pointers();
      int64_t blocks = program.numPrograms(sizes);
      if (blocks == 0 || !program.launchesAt(sizes))
        continue;
      if (hipError_t e = hip.hipModuleLaunchKernel(
              functions[p], static_cast<unsigned>(blocks), 1, 1,
              static_cast<unsigned>(program.threads), 1, 1,
              static_cast<unsigned>(program.dynamicSharedBytes),
              static_cast<hipStream_t>(stream), args.data(), nullptr);
          e != hipSuccess)
        return "launch of '" + program.name + "' failed: " + describe(hip, e);
    }
    return "";
  }

private:
  const Hip &hip;
  int device;
  hipModule_t module;
  LaunchPlan plan;
  std::vector<hipFunction_t> functions;
};

class HipDevice : public Device {
public:
  HipDevice(const Hip &hip, int device, std::string name)
      : hip(hip), device(device), name(std::move(name)) {}
  std::string description() const override {
    return "hip:" + std::to_string(device) + ": " + name;
  }
  DeviceLimits limits() const override {
    DeviceLimits l;
    l.multiprocessors = 1; // no persistent AMD programs
    l.maxThreadsPerBlock = 1024;
    l.maxSharedBytesPerBlock = 64 * 1024;
    l.bufferAlignment = 16;
    l.maxBlocks = INT32_MAX; // gridDim.x
    return l;
  }
  std::string accepts(const Bundle &bundle) const override {
    return bundle.code.count("hsaco")
               ? ""
               : "the bundle is for target '" + bundle.target +
                     "'; the hip device runs bundles compiled for AMD "
                     "targets";
  }
  std::string load(const Bundle &bundle,
                   std::unique_ptr<LoadedKernel> &out) override {
    if (std::string e = accepts(bundle); !e.empty())
      return e;
    ScopedDevice scope(hip, device);
    hipModule_t module = nullptr;
    if (hipError_t e =
            hip.hipModuleLoadData(&module, bundle.code.at("hsaco").data());
        e != hipSuccess)
      return "HIP cannot load the code object (compiled for " + bundle.chip +
             "): " + describe(hip, e);
    std::vector<hipFunction_t> functions;
    for (const ProgramDesc &p : bundle.plan.programs) {
      hipFunction_t f = nullptr;
      if (hipError_t e = hip.hipModuleGetFunction(&f, module, p.name.c_str());
          e != hipSuccess) {
        hip.hipModuleUnload(module);
        return "no kernel '" + p.name +
               "' in the code object: " + describe(hip, e);
      }
      functions.push_back(f);
    }
    out = std::make_unique<HipKernel>(hip, device, module, bundle.plan,
                                      std::move(functions));
    return "";
  }
  std::string allocate(size_t bytes, void **out) override {
    *out = nullptr;
    ScopedDevice scope(hip, device);
    hipError_t e = bytes ? hip.hipMalloc(out, bytes) : hipSuccess;
    return e == hipSuccess ? "" : "hipMalloc: " + describe(hip, e);
  }
  void release(void *memory) override {
    if (memory) {
      ScopedDevice scope(hip, device);
      hip.hipFree(memory);
    }
  }
  std::string copyToDevice(void *dst, const void *src, size_t n) override {
    return copy(dst, src, n, hipMemcpyHostToDevice);
  }
  std::string copyToHost(void *dst, const void *src, size_t n) override {
    return copy(dst, src, n, hipMemcpyDeviceToHost);
  }
  std::string synchronize(void *stream) override {
    ScopedDevice scope(hip, device);
    hipError_t e = hip.hipStreamSynchronize(static_cast<hipStream_t>(stream));
    return e == hipSuccess ? "" : "the stream failed: " + describe(hip, e);
  }

private:
  std::string copy(void *dst, const void *src, size_t n, int kind) {
    ScopedDevice scope(hip, device);
    hipError_t e = n ? hip.hipMemcpy(dst, src, n, kind) : hipSuccess;
    return e == hipSuccess ? "" : "hipMemcpy: " + describe(hip, e);
  }

  const Hip &hip;
  int device;
  std::string name;
};

} // namespace

std::string openHipDevice(int ordinal, std::unique_ptr<Device> &out) {
  std::string error;
  const Hip *hip = loadHip(error);
  if (!hip)
    return error;
  int count = 0;
  hip->hipGetDeviceCount(&count);
  if (ordinal >= count)
    return "there is no hip device " + std::to_string(ordinal) + " (" +
           std::to_string(count) + " found)";
  char name[256] = {0};
  hip->hipDeviceGetName(name, sizeof name, ordinal);
  out = std::make_unique<HipDevice>(*hip, ordinal, name);
  return "";
}

} // namespace nautilus::rt
