//===- Nvrtc.cpp - CUDA C++ to PTX with NVRTC, loaded at run time ---------===//
#include "compiler/Pipeline/Nvrtc.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace nautilus;

namespace {

// NVRTC's C API (nvrtc.h), as far as it is used here.
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram *;

struct NvrtcApi {
  nvrtcResult (*createProgram)(nvrtcProgram *, const char *, const char *, int,
                               const char *const *, const char *const *);
  nvrtcResult (*compileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*getProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*getProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*getPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*getPTX)(nvrtcProgram, char *);
  nvrtcResult (*destroyProgram)(nvrtcProgram *);
  const char *(*getErrorString)(nvrtcResult);
};

/// Loads NVRTC from the first of `libraries` that loads and binds its
/// functions; returns "" or what is missing.
std::string loadNvrtc(const std::vector<std::string> &libraries, NvrtcApi &api,
                      bool &unavailable) {
  void *handle = nullptr;
  std::string tried;
  for (const std::string &library : libraries) {
    handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle)
      break;
    tried += (tried.empty() ? "" : ", ") + library;
  }
  if (!handle) {
    unavailable = true;
    return "NVRTC (libnvrtc, from the CUDA toolkit) was not found: tried " +
           tried + " (set NAUTILUS_NVRTC to the library's path)";
  }
  struct Symbol {
    const char *name;
    void **slot;
  } symbols[] = {
      {"nvrtcCreateProgram", reinterpret_cast<void **>(&api.createProgram)},
      {"nvrtcCompileProgram", reinterpret_cast<void **>(&api.compileProgram)},
      {"nvrtcGetProgramLogSize",
       reinterpret_cast<void **>(&api.getProgramLogSize)},
      {"nvrtcGetProgramLog", reinterpret_cast<void **>(&api.getProgramLog)},
      {"nvrtcGetPTXSize", reinterpret_cast<void **>(&api.getPTXSize)},
      {"nvrtcGetPTX", reinterpret_cast<void **>(&api.getPTX)},
      {"nvrtcDestroyProgram", reinterpret_cast<void **>(&api.destroyProgram)},
      {"nvrtcGetErrorString", reinterpret_cast<void **>(&api.getErrorString)},
  };
  for (const Symbol &symbol : symbols) {
    *symbol.slot = dlsym(handle, symbol.name);
    if (!*symbol.slot) {
      unavailable = true;
      return std::string("the NVRTC library found lacks ") + symbol.name;
    }
  }
  return "";
}

} // namespace

std::vector<std::string> nautilus::nvrtcLibraries() {
  if (const char *path = std::getenv("NAUTILUS_NVRTC"); path && *path)
    return {path};
  const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                         "libnvrtc.so.11.2"};
  std::vector<std::string> dirs = {"/usr/local/cuda/lib64",
                                   "/usr/local/cuda/lib"};
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    dirs.insert(dirs.begin(), std::string(home) + "/lib64");
  std::vector<std::string> libraries(std::begin(names), std::end(names));
  for (const std::string &dir : dirs)
    for (const char *name : names)
      libraries.push_back(dir + "/" + name);
  return libraries;
}

NvrtcResult nautilus::compileCudaToPtx(const std::string &source,
                                       const std::string &name,
                                       const std::vector<std::string> &options,
                                       const std::vector<std::string> &libraries) {
  NvrtcResult result;
  NvrtcApi api;
  result.error = loadNvrtc(libraries, api, result.unavailable);
  if (!result.error.empty())
    return result;
  nvrtcProgram program = nullptr;
  if (nvrtcResult rc = api.createProgram(&program, source.c_str(), name.c_str(),
                                         0, nullptr, nullptr)) {
    result.error = std::string("NVRTC cannot create a program: ") +
                   api.getErrorString(rc);
    return result;
  }
  std::vector<const char *> argv;
  for (const std::string &option : options)
    argv.push_back(option.c_str());
  nvrtcResult compiled =
      api.compileProgram(program, static_cast<int>(argv.size()), argv.data());
  if (compiled) {
    size_t size = 0;
    std::string log;
    if (!api.getProgramLogSize(program, &size) && size > 1) {
      log.resize(size);
      api.getProgramLog(program, log.data());
      log.resize(size - 1); // (the terminating NUL)
    }
    result.error = std::string("NVRTC failed (") +
                   api.getErrorString(compiled) + ")" +
                   (log.empty() ? "" : ":\n" + log);
  } else {
    size_t size = 0;
    if (api.getPTXSize(program, &size) || size == 0) {
      result.error = "NVRTC gave no PTX";
    } else {
      result.ptx.resize(size);
      api.getPTX(program, result.ptx.data());
      result.ptx.resize(size - 1);
    }
  }
  api.destroyProgram(&program);
  return result;
}
