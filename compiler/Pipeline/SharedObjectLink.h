//===- SharedObjectLink.h - An object file linked by a system tool -*- C++
//-*-===//
//
// The host library (HostLibrary.h) and AMD code objects (AmdCodeObject.h)
// are object files that an external linker turns into a shared object:
// `cc -shared` for the host, `ld.lld -shared` for AMDGPU. This writes the
// object to a temporary file, runs the linker, and reads its output back.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_SHAREDOBJECTLINK_H
#define NAUTILUS_PIPELINE_SHAREDOBJECTLINK_H

#include <string>
#include <vector>

namespace nautilus {

/// Runs `linker -shared -o OUT OBJECT extraArgs...` on `object`'s bytes
/// and sets `out` to OUT's. Returns "" or what failed, naming `what` ("the
/// host library").
std::string linkSharedObject(const std::string &linker,
                             const std::string &object,
                             const std::vector<std::string> &extraArgs,
                             const std::string &what, std::string &out);

} // namespace nautilus

#endif
