//===- CpuDevice.cpp - The host as a device -------------------------------===//
//
// A bundle for the cpu target carries its programs as a shared library
// (Bundle.h, "host_library"). Loading writes it to an anonymous in-memory
// file (memfd_create; a temporary file where there is none) and opens that
// with dlopen; each program's packed entry point is looked up by name. The
// library runs on CPUs with the features of the one it was compiled for:
// compile on the machine that runs it (the JIT does).
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/HostFeatures.h"
#include "runtime/HostPrograms.h"
#include "runtime/WriteAll.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

namespace nautilus::rt {

namespace {

/// dlopen of a shared library held in memory. The in-memory file stays
/// open (`keptFd`) as long as the library is loaded: dlopen finds an
/// object already loaded by its path, so no other library may get the
/// same /proc/self/fd path meanwhile.
std::string openLibrary(const std::string &bytes, void *&handle, int &keptFd) {
  keptFd = -1;
  int fd = ::memfd_create("nautilus-kernel", MFD_CLOEXEC);
  std::string path, tempPath;
  if (fd >= 0) {
    path = "/proc/self/fd/" + std::to_string(fd);
  } else {
    const char *dir = std::getenv("TMPDIR");
    tempPath =
        std::string(dir && *dir ? dir : "/tmp") + "/nautilus-kernel-XXXXXX";
    fd = ::mkstemp(tempPath.data());
    if (fd < 0)
      return std::string("cannot create a file for the kernel's library: ") +
             std::strerror(errno);
    path = tempPath;
  }
  bool written = writeAll(fd, bytes);
  if (written)
    handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string error = !written ? std::string("cannot write the kernel's "
                                             "library: ") +
                                     std::strerror(errno)
                      : !handle ? std::string("cannot load the kernel's "
                                              "library: ") +
                                      ::dlerror()
                                : "";
  if (!tempPath.empty()) { // a unique name: the file is not needed
    ::close(fd);
    ::unlink(tempPath.c_str());
  } else if (handle) {
    keptFd = fd;
  } else {
    ::close(fd);
  }
  return error;
}

class CpuKernel : public LoadedKernel {
public:
  CpuKernel(void *library, int libraryFd, LaunchPlan plan,
            std::vector<PackedProgram> programs)
      : library(library), libraryFd(libraryFd), plan(std::move(plan)),
        programs(std::move(programs)) {}
  ~CpuKernel() override {
    ::dlclose(library);
    if (libraryFd >= 0)
      ::close(libraryFd);
  }

  std::string launch(const std::vector<BufferView> &buffers,
                     const SizeValues &sizes, void *) override {
    PackedArgs args(plan, buffers, sizes);
    runHostPrograms(plan, sizes, args.pointers(), programs);
    return "";
  }

private:
  void *library;
  int libraryFd; // the in-memory file it was loaded from (-1: none)
  LaunchPlan plan;
  std::vector<PackedProgram> programs;
};

class CpuDevice : public Device {
public:
  std::string description() const override {
    return "cpu: " + std::to_string(threads()) + " threads";
  }
  DeviceLimits limits() const override {
    DeviceLimits l;
    l.multiprocessors = threads();
    l.maxThreadsPerBlock = 1;
    l.maxSharedBytesPerBlock = 0;
    l.bufferAlignment = 1;
    return l;
  }
  std::string accepts(const Bundle &bundle) const override {
    if (!bundle.code.count("host_library"))
      return "the bundle is for target '" + bundle.target +
             "'; the cpu device runs bundles compiled for the cpu target";
    if (std::string missing = missingHostFeatures(bundle.cpuFeatures);
        !missing.empty())
      return "the bundle's code is for a " + bundle.chip +
             " CPU and uses features this one lacks (" + missing +
             "): compile it on this machine";
    return "";
  }
  std::string load(const Bundle &bundle,
                   std::unique_ptr<LoadedKernel> &out) override;

  std::string allocate(size_t bytes, void **out) override {
    *out = bytes ? std::malloc(bytes) : nullptr;
    return bytes && !*out
               ? "out of host memory (" + std::to_string(bytes) + " bytes)"
               : "";
  }
  void release(void *memory) override { std::free(memory); }
  std::string copyToDevice(void *device, const void *host,
                           size_t bytes) override {
    if (bytes)
      std::memcpy(device, host, bytes);
    return "";
  }
  std::string copyToHost(void *host, const void *device,
                         size_t bytes) override {
    return copyToDevice(host, device, bytes);
  }

private:
  static int64_t threads() {
    return std::max(1u, std::thread::hardware_concurrency());
  }
};

std::string CpuDevice::load(const Bundle &bundle,
                            std::unique_ptr<LoadedKernel> &out) {
  if (std::string e = accepts(bundle); !e.empty())
    return e;
  void *library = nullptr;
  int fd = -1;
  if (std::string e = openLibrary(bundle.code.at("host_library"), library, fd);
      !e.empty())
    return e;
  std::vector<PackedProgram> programs;
  for (const ProgramDesc &p : bundle.plan.programs) {
    void *entry = ::dlsym(library, packedEntryName(p.name).c_str());
    if (!entry) {
      ::dlclose(library);
      if (fd >= 0)
        ::close(fd);
      return "the kernel's library has no entry point for program '" + p.name +
             "'";
    }
    programs.push_back(reinterpret_cast<PackedProgram>(entry));
  }
  out = std::make_unique<CpuKernel>(library, fd, bundle.plan,
                                    std::move(programs));
  return "";
}

} // namespace

std::string openCpuDevice(std::unique_ptr<Device> &out) {
  out = std::make_unique<CpuDevice>();
  return "";
}

} // namespace nautilus::rt
