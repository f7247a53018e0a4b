//===- Handles.h - What the C API's handles hold ---------------*- C++ -*-===//
//
// The structs behind nautilus.h's opaque handles, shared by the runtime's
// C API (CApi.cpp) and the JIT's (compiler/Jit), which makes programs.
// Not installed.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_API_HANDLES_H
#define NAUTILUS_RUNTIME_API_HANDLES_H

#include "nautilus.h"
#include "runtime/Bundle.h"
#include "runtime/Device.h"
#include "runtime/WorkspacePool.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

struct nt_status_s {
  nt_code code;
  std::string message;
};

/// One handle of a device; every handle of one (kind, ordinal) shares its
/// rt::Device while any is open.
struct nt_device_s {
  std::shared_ptr<nautilus::rt::Device> device;
  std::string description; // kept: nt_device_describe returns its characters
};

namespace nautilus::capi {

/// A program loaded on one device: the kernel, the workspaces its launches
/// keep (WorkspacePool.h), and the lock a launch is queued under (so that
/// no two threads share a workspace while one grows it). Keeps its device
/// alive, so that no other device takes its address meanwhile; the members
/// go in reverse order: the kernel (on cuda, waiting for the context's
/// queued kernels where it kept tensor maps), the workspaces, the device.
struct LoadedProgram {
  std::shared_ptr<rt::Device> device;
  std::unique_ptr<rt::WorkspacePool> workspaces;
  std::unique_ptr<rt::LoadedKernel> kernel;
  std::mutex launchMutex;
};

} // namespace nautilus::capi

struct nt_program_s {
  nautilus::rt::Bundle bundle;
  int cacheHit = 0;
  /// The bundle loaded on each device it ran on.
  std::mutex mutex;
  std::map<const nautilus::rt::Device *,
           std::unique_ptr<nautilus::capi::LoadedProgram>>
      loaded;
};

namespace nautilus::capi {

/// A status (NULL for NT_OK).
NT_EXPORT nt_status makeStatus(nt_code code, std::string message);

/// A program holding `bundle`.
NT_EXPORT nt_program makeProgram(rt::Bundle bundle, int cacheHit);

/// Opens a device of a kind the runtime does not hold itself: returns ""
/// and sets `out`, or the error.
using DeviceOpener = std::string (*)(int ordinal,
                                     std::unique_ptr<rt::Device> &out);

/// Makes `kind` openable by nt_device_open (the JIT library registers
/// "emu", which compiles LLVM IR and so cannot live in the runtime).
NT_EXPORT void registerDeviceKind(const std::string &kind, DeviceOpener opener);

} // namespace nautilus::capi

#endif // NAUTILUS_RUNTIME_API_HANDLES_H
