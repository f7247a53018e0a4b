//===- CudaDevice.cpp - An NVIDIA GPU through the driver API --------------===//
//
// Loads a bundle's PTX with cuModuleLoadDataEx (the driver compiles it for
// the GPU at hand), raises each program's dynamic shared memory limit to
// what it asks, and launches the programs in order on the caller's stream:
// a 1-D grid of one block a tile (min(tiles, multiprocessors) for a
// persistent program). The TMA tensor maps a program takes are encoded with
// cuTensorMapEncodeTiled at each launch (Bundle.h) and passed in device
// memory, where each distinct set is kept (TensorMapSets): a launch on
// tensors seen before neither allocates nor waits.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaDriver.h"
#include "runtime/Device.h"
#include "runtime/TensorMapGeometry.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>

namespace nautilus::rt {

namespace {

using namespace cuda;

int tensorMapType(DType t) {
  switch (t) {
  case DType::F16:
    return 6;
  case DType::BF16:
    return 9;
  case DType::F32:
    return 7;
  case DType::F64:
    return 8;
  case DType::I8:
  case DType::Bool:
    return 0;
  case DType::I32:
    return 3;
  case DType::I64:
    return 5;
  }
  return 7;
}

int tensorMapSwizzle(int64_t bytes) {
  return bytes == 128 ? 3 : bytes == 64 ? 2 : bytes == 32 ? 1 : 0;
}

/// Device copies of the TMA tensor maps that launches pass: one block of
/// device memory a distinct set of maps (a program's maps are the same for
/// the same tensors at the same sizes, so an application that launches on
/// its tensors again finds their set here). A new set is copied on the
/// launching stream, which is waited for before the set is kept (so a
/// kernel on any stream, a non-blocking one too, reads it whole), and is
/// never changed while kept; past kMaxSets the context is synchronised
/// (every queued kernel done) and the sets are freed. Not thread safe: the
/// kernel's launch lock guards it from find() to the launch that passes
/// the set.
class TensorMapSets {
public:
  static constexpr size_t kMaxSets = 256;
  explicit TensorMapSets(const Driver &driver) : driver(driver) {}
  /// Frees every set once the context's queued kernels are done; the
  /// context must be current.
  ~TensorMapSets() { clear(); }
  TensorMapSets(const TensorMapSets &) = delete;
  TensorMapSets &operator=(const TensorMapSets &) = delete;

  /// The device copy of `maps` for a launch on `stream`: sets `out` and
  /// returns "", or the error.
  std::string find(const std::vector<CUtensorMap> &maps, CUstream stream,
                   CUdeviceptr &out);

private:
  std::string clear();

  const Driver &driver;
  std::map<std::string, CUdeviceptr> sets; // by the maps' bytes
};

std::string TensorMapSets::find(const std::vector<CUtensorMap> &maps,
                                CUstream stream, CUdeviceptr &out) {
  size_t bytes = maps.size() * sizeof(CUtensorMap);
  std::string key(reinterpret_cast<const char *>(maps.data()), bytes);
  if (auto it = sets.find(key); it != sets.end()) {
    out = it->second;
    return "";
  }
  if (sets.size() >= kMaxSets)
    if (std::string e = clear(); !e.empty())
      return e;
  CUdeviceptr memory = 0;
  if (CUresult r = driver.cuMemAlloc(&memory, bytes); r != CUDA_SUCCESS)
    return "cannot allocate tensor maps: " + describe(driver, r);
  CUresult r = driver.cuMemcpyHtoDAsync(memory, maps.data(), bytes, stream);
  if (r == CUDA_SUCCESS)
    r = driver.cuStreamSynchronize(stream);
  if (r != CUDA_SUCCESS) {
    driver.cuMemFree(memory);
    return "copying the tensor maps failed: " + describe(driver, r);
  }
  sets.emplace(std::move(key), memory);
  out = memory;
  return "";
}

std::string TensorMapSets::clear() {
  CUresult r = sets.empty() ? CUDA_SUCCESS : driver.cuCtxSynchronize();
  for (auto &[bytes, memory] : sets)
    driver.cuMemFree(memory);
  sets.clear();
  return r == CUDA_SUCCESS
             ? ""
             : "waiting for the queued kernels failed: " + describe(driver, r);
}

class CudaKernel : public LoadedKernel {
public:
  CudaKernel(const Driver &driver, CUcontext context, CUmodule module,
             LaunchPlan plan, std::vector<CUfunction> functions,
             int64_t multiprocessors)
      : driver(driver), context(context), module(module), plan(std::move(plan)),
        functions(std::move(functions)), multiprocessors(multiprocessors),
        mapSets(std::make_unique<TensorMapSets>(driver)) {}
  ~CudaKernel() override {
    ScopedContext scope(driver, context);
    mapSets.reset();
    driver.cuModuleUnload(module);
  }

  std::string launch(const std::vector<BufferView> &buffers,
                     const SizeValues &sizes, void *stream) override;

private:
  std::string launchProgram(size_t p, const PackedArgs &packed,
                            const std::vector<BufferView> &buffers,
                            const SizeValues &sizes, CUstream stream);
  std::string encodeMaps(const ProgramDesc &program,
                         const std::vector<BufferView> &buffers,
                         std::vector<CUtensorMap> &maps);

  const Driver &driver;
  CUcontext context;
  CUmodule module;
  LaunchPlan plan;
  std::vector<CUfunction> functions;
  int64_t multiprocessors;
  std::mutex launchMutex;
  std::unique_ptr<TensorMapSets> mapSets; // guarded by launchMutex
};

std::string CudaKernel::encodeMaps(const ProgramDesc &program,
                                   const std::vector<BufferView> &buffers,
                                   std::vector<CUtensorMap> &maps) {
  for (const TensorMapDesc &desc : program.tensorMaps) {
    TensorMapGeometry g;
    if (std::string e = tensorMapGeometry(plan, buffers, desc, g); !e.empty())
      return "program '" + program.name + "' reads " + e;
    CUtensorMap map{}; // zeroed: a set is found by its bytes
    CUresult r = driver.cuTensorMapEncodeTiled(
        &map, tensorMapType(plan.buffers[g.buffer].dtype),
        static_cast<unsigned>(g.dims.size()), g.data, g.dims.data(),
        g.strides.data(), g.box.data(), g.elementStrides.data(),
        /*interleave=*/0, tensorMapSwizzle(desc.swizzleBytes),
        /*l2Promotion=*/2, /*oob=*/0);
    if (r != CUDA_SUCCESS)
      return "program '" + program.name + "' reads '" + desc.buffer +
             "' with TMA, which cannot describe it (" + describe(driver, r) +
             "): TMA needs the innermost extent to be a multiple of 16 "
             "bytes and the tensor 16-byte aligned";
    maps.push_back(map);
  }
  return "";
}

std::string CudaKernel::launchProgram(size_t p, const PackedArgs &packed,
                                      const std::vector<BufferView> &buffers,
                                      const SizeValues &sizes,
                                      CUstream stream) {
  const ProgramDesc &program = plan.programs[p];
  if (!program.launchesAt(sizes))
    return "";
  int64_t blocks = program.numPrograms(sizes);
  if (program.persistent)
    blocks = std::min(blocks, multiprocessors);
  if (blocks == 0)
    return ""; // nothing to do (an empty tensor)
  std::vector<CUtensorMap> maps;
  if (std::string e = encodeMaps(program, buffers, maps); !e.empty())
    return e;
  CUdeviceptr mapMemory = 0;
  if (!maps.empty())
    if (std::string e = mapSets->find(maps, stream, mapMemory); !e.empty())
      return "program '" + program.name + "': " + e;
  std::vector<CUdeviceptr> mapPointers;
  for (size_t i = 0; i < maps.size(); ++i)
    mapPointers.push_back(mapMemory + i * sizeof(CUtensorMap));
  std::vector<void *> args = packed.pointers();
  for (CUdeviceptr &m : mapPointers)
    args.push_back(&m);
  CUresult r =
      driver.cuLaunchKernel(functions[p], static_cast<unsigned>(blocks), 1, 1,
                            static_cast<unsigned>(program.threads), 1, 1,
                            static_cast<unsigned>(program.dynamicSharedBytes),
                            stream, args.data(), nullptr);
  return r == CUDA_SUCCESS ? ""
                           : "launch of '" + program.name +
                                 "' failed: " + describe(driver, r);
}

std::string CudaKernel::launch(const std::vector<BufferView> &buffers,
                               const SizeValues &sizes, void *stream) {
  ScopedContext scope(driver, context);
  // One launch at a time (each only queues): a tensor-map set found for
  // one is not freed before its kernel is queued.
  std::lock_guard<std::mutex> lock(launchMutex);
  PackedArgs packed(plan, buffers, sizes);
  for (size_t p = 0; p < plan.programs.size(); ++p)
    if (std::string e = launchProgram(p, packed, buffers, sizes,
                                      static_cast<CUstream>(stream));
        !e.empty())
      return e;
  return "";
}

class CudaDevice : public Device {
public:
  CudaDevice(const Driver &driver, CUdevice device, CUcontext context,
             std::string name, DeviceLimits limits, int major, int minor)
      : driver(driver), device(device), context(context), name(std::move(name)),
        deviceLimits(limits), major(major), minor(minor) {}
  ~CudaDevice() override { driver.cuDevicePrimaryCtxRelease(device); }

  std::string description() const override {
    return "cuda:" + std::to_string(device) + ": " + name + " (sm_" +
           std::to_string(major) + std::to_string(minor) + ")";
  }
  DeviceLimits limits() const override { return deviceLimits; }
  std::string accepts(const Bundle &bundle) const override;
  std::string load(const Bundle &bundle,
                   std::unique_ptr<LoadedKernel> &out) override;

  std::string allocate(size_t bytes, void **out) override {
    *out = nullptr;
    if (!bytes)
      return "";
    ScopedContext scope(driver, context);
    CUdeviceptr p = 0;
    if (CUresult r = driver.cuMemAlloc(&p, bytes); r != CUDA_SUCCESS)
      return "cannot allocate " + std::to_string(bytes) +
             " bytes of device memory: " + describe(driver, r);
    *out = reinterpret_cast<void *>(p);
    return "";
  }
  void release(void *memory) override {
    if (memory) {
      ScopedContext scope(driver, context);
      driver.cuMemFree(reinterpret_cast<CUdeviceptr>(memory));
    }
  }
  std::string copyToDevice(void *dst, const void *src, size_t n) override {
    ScopedContext scope(driver, context);
    CUresult r =
        n ? driver.cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst), src, n)
          : CUDA_SUCCESS;
    return r == CUDA_SUCCESS
               ? ""
               : "copy to the device failed: " + describe(driver, r);
  }
  std::string synchronize(void *stream) override {
    ScopedContext scope(driver, context);
    CUresult r = driver.cuStreamSynchronize(static_cast<CUstream>(stream));
    return r == CUDA_SUCCESS ? "" : "the stream failed: " + describe(driver, r);
  }
  std::string copyToHost(void *dst, const void *src, size_t n) override {
    ScopedContext scope(driver, context);
    CUresult r =
        n ? driver.cuMemcpyDtoH(dst, reinterpret_cast<CUdeviceptr>(src), n)
          : CUDA_SUCCESS;
    return r == CUDA_SUCCESS
               ? ""
               : "copy to the host failed: " + describe(driver, r);
  }

private:
  const Driver &driver;
  CUdevice device;
  CUcontext context;
  std::string name;
  DeviceLimits deviceLimits;
  int major, minor;
};

std::string CudaDevice::accepts(const Bundle &bundle) const {
  if (!bundle.code.count("ptx"))
    return "the bundle is for target '" + bundle.target +
           "'; the cuda device runs bundles compiled for NVIDIA targets";
  // "sm_90a" runs on 9.0 only; "sm_80" on 8.0 and later.
  int version = 0;
  if (std::sscanf(bundle.chip.c_str(), "sm_%d", &version) != 1 || version < 10)
    return "the bundle's chip '" + bundle.chip + "' is not sm_XY";
  int wantMajor = version / 10, wantMinor = version % 10;
  bool archSpecific = bundle.chip.size() > 5 && bundle.chip.back() == 'a';
  bool runs = archSpecific ? major == wantMajor && minor == wantMinor
                           : major * 10 + minor >= wantMajor * 10 + wantMinor;
  if (!runs)
    return "the bundle is compiled for " + bundle.chip + "; this device is " +
           description() +
           ": compile for a target this device runs (sm_80 runs on every "
           "device from sm_80 on; sm_90 needs an sm_90 device)";
  return "";
}

std::string CudaDevice::load(const Bundle &bundle,
                             std::unique_ptr<LoadedKernel> &out) {
  if (std::string e = accepts(bundle); !e.empty())
    return e;
  ScopedContext scope(driver, context);
  char log[8192] = {0};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  void *values[] = {log, reinterpret_cast<void *>(sizeof log)};
  CUmodule module = nullptr;
  if (CUresult r = driver.cuModuleLoadDataEx(
          &module, bundle.code.at("ptx").c_str(), 2, options, values);
      r != CUDA_SUCCESS)
    return "the driver cannot load the kernels' PTX: " + describe(driver, r) +
           (log[0] ? std::string("\n") + log : "");
  std::vector<CUfunction> functions;
  for (const ProgramDesc &p : bundle.plan.programs) {
    CUfunction f = nullptr;
    CUresult r = driver.cuModuleGetFunction(&f, module, p.name.c_str());
    if (r == CUDA_SUCCESS && p.dynamicSharedBytes > 0)
      r = driver.cuFuncSetAttribute(f, kFuncAttrMaxDynamicSharedSizeBytes,
                                    static_cast<int>(p.dynamicSharedBytes));
    if (r != CUDA_SUCCESS) {
      driver.cuModuleUnload(module);
      return "cannot prepare program '" + p.name + "': " + describe(driver, r);
    }
    functions.push_back(f);
  }
  out = std::make_unique<CudaKernel>(driver, context, module, bundle.plan,
                                     std::move(functions),
                                     deviceLimits.multiprocessors);
  return "";
}

} // namespace

std::string openCudaDevice(int ordinal, std::unique_ptr<Device> &out) {
  std::string error;
  const Driver *driver = load(error);
  if (!driver)
    return error;
  return openCudaDeviceWith(*driver, ordinal, out);
}

std::string openCudaDeviceWith(const cuda::Driver &driverTable, int ordinal,
                               std::unique_ptr<Device> &out) {
  const Driver *driver = &driverTable;
  int count = 0;
  driver->cuDeviceGetCount(&count);
  if (ordinal >= count)
    return "there is no cuda device " + std::to_string(ordinal) + " (" +
           std::to_string(count) + " found)";
  CUdevice device = 0;
  CUcontext context = nullptr;
  if (CUresult r = driver->cuDeviceGet(&device, ordinal); r != CUDA_SUCCESS)
    return "cannot open cuda device " + std::to_string(ordinal) + ": " +
           describe(*driver, r);
  if (CUresult r = driver->cuDevicePrimaryCtxRetain(&context, device);
      r != CUDA_SUCCESS)
    return "cannot create a context on cuda device " + std::to_string(ordinal) +
           ": " + describe(*driver, r);
  char name[256] = {0};
  driver->cuDeviceGetName(name, sizeof name, device);
  auto attribute = [&](int which) {
    int value = 0;
    driver->cuDeviceGetAttribute(&value, which, device);
    return value;
  };
  DeviceLimits limits;
  limits.multiprocessors = attribute(kAttrMultiprocessorCount);
  limits.maxThreadsPerBlock = attribute(kAttrMaxThreadsPerBlock);
  limits.maxSharedBytesPerBlock = attribute(kAttrMaxSharedMemoryPerBlockOptin);
  limits.bufferAlignment = 16;  // TMA and vector accesses
  limits.maxBlocks = INT32_MAX; // gridDim.x
  out = std::make_unique<CudaDevice>(*driver, device, context, name, limits,
                                     attribute(kAttrComputeCapabilityMajor),
                                     attribute(kAttrComputeCapabilityMinor));
  return "";
}

} // namespace nautilus::rt
