//===- HostModule.h - NVVM-level IR rewritten for the host -----*- C++ -*-===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_HOSTMODULE_H
#define NAUTILUS_RUNTIME_EMULATOR_HOSTMODULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace nautilus::emu::detail {

/// Rewrites the NVVM-level module `m` for the host (see HostModule.cpp).
/// Fills `kernels` with the kernels' names, `usesFibres` when some kernel
/// waits for other threads (barriers, warp collectives), and the static
/// shared memory per block. Returns "" or "not emulated: NAME".
std::string rewriteForHost(llvm::Module &m, std::vector<std::string> &kernels,
                           bool &usesFibres, uint64_t &staticSharedBytes);

} // namespace nautilus::emu::detail

#endif
