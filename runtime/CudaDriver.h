//===- CudaDriver.h - The CUDA driver API, loaded at run time --*- C++ -*-===//
//
// The few driver entry points the cuda device uses, looked up in
// libcuda.so.1 with dlopen/dlsym, so that the runtime builds and runs
// without the CUDA toolkit or a driver; the types and constants are the
// driver API's own (cuda.h), declared here for that reason. Loaded once a
// process; load() says why the driver is unusable when it is.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_CUDADRIVER_H
#define NAUTILUS_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace nautilus::rt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
struct alignas(64) CUtensorMap {
  unsigned long long opaque[16];
};

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int kAttrMaxThreadsPerBlock = 1;
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrMaxSharedMemoryPerBlockOptin = 97;
constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;

/// The entry points, each null until load() succeeds.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuTensorMapEncodeTiled)(CUtensorMap *, int, unsigned, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int);
};

/// The driver, loaded and initialised (cuInit) on first use; null with
/// `error` set when this machine has none ("the cuda device needs the
/// NVIDIA driver (libcuda.so.1), which is not installed: ...").
const Driver *load(std::string &error);

/// Makes `context` current on this thread for its lifetime, then restores
/// the thread's own (an application's context is left as it was).
class ScopedContext {
public:
  ScopedContext(const Driver &driver, CUcontext context) : driver(driver) {
    driver.cuCtxPushCurrent(context);
  }
  ~ScopedContext() {
    CUcontext popped;
    driver.cuCtxPopCurrent(&popped);
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

private:
  const Driver &driver;
};

/// "CUDA_ERROR_...: what it means" for `result`, or "" for CUDA_SUCCESS.
std::string describe(const Driver &driver, CUresult result);

} // namespace nautilus::rt::cuda

#endif // NAUTILUS_RUNTIME_CUDADRIVER_H
