//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
#include "runtime/CudaDriver.h"

#include "runtime/DynamicSymbols.h"

#include <dlfcn.h>
#include <mutex>

namespace nautilus::rt::cuda {

namespace {

/// Looks up each entry point (the versioned name where the driver has one).
std::string resolve(void *library, Driver &d) {
  std::string missing;
  auto get = [&](auto &fn, const char *name) {
    resolveSymbol(library, fn, name, missing);
  };
  get(d.cuInit, "cuInit");
  get(d.cuGetErrorString, "cuGetErrorString");
  get(d.cuDeviceGetCount, "cuDeviceGetCount");
  get(d.cuDeviceGet, "cuDeviceGet");
  get(d.cuDeviceGetName, "cuDeviceGetName");
  get(d.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  get(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  get(d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  get(d.cuCtxPushCurrent, "cuCtxPushCurrent_v2");
  get(d.cuCtxPopCurrent, "cuCtxPopCurrent_v2");
  get(d.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  get(d.cuModuleUnload, "cuModuleUnload");
  get(d.cuModuleGetFunction, "cuModuleGetFunction");
  get(d.cuFuncSetAttribute, "cuFuncSetAttribute");
  get(d.cuLaunchKernel, "cuLaunchKernel");
  get(d.cuMemAlloc, "cuMemAlloc_v2");
  get(d.cuMemFree, "cuMemFree_v2");
  get(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  get(d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  get(d.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  get(d.cuStreamSynchronize, "cuStreamSynchronize");
  get(d.cuCtxSynchronize, "cuCtxSynchronize");
  get(d.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  return missing.empty() ? ""
                         : "the NVIDIA driver's libcuda.so.1 lacks " + missing +
                               " (a driver for CUDA 12 or later is needed)";
}

} // namespace

const Driver *load(std::string &error) {
  static std::once_flag once;
  static Driver driver;
  static std::string loadError;
  std::call_once(once, [] {
    void *library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      loadError = std::string("the cuda device needs the NVIDIA driver "
                              "(libcuda.so.1), which this machine does not "
                              "have: ") +
                  ::dlerror();
      return;
    }
    loadError = resolve(library, driver);
    if (!loadError.empty())
      return;
    if (CUresult r = driver.cuInit(0); r != CUDA_SUCCESS)
      loadError =
          "the NVIDIA driver failed to initialise: " + describe(driver, r);
  });
  error = loadError;
  return loadError.empty() ? &driver : nullptr;
}

std::string describe(const Driver &driver, CUresult result) {
  if (result == CUDA_SUCCESS)
    return "";
  const char *text = nullptr;
  if (driver.cuGetErrorString &&
      driver.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    return std::string(text) + " (CUresult " + std::to_string(result) + ")";
  return "CUresult " + std::to_string(result);
}

} // namespace nautilus::rt::cuda
