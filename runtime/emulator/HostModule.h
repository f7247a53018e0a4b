//===- HostModule.h - NVVM-level IR rewritten for the host -----*- C++ -*-===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_HOSTMODULE_H
#define NAUTILUS_RUNTIME_EMULATOR_HOSTMODULE_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class Module;
class Value;
template <typename T> class ArrayRef;
} // namespace llvm

namespace nautilus::emu::detail {

/// Rewrites the NVVM-level module `m` for the host (see HostModule.cpp).
/// Fills `kernels` with the kernels' names, `usesFibres` when some kernel
/// waits for other threads (barriers, warp collectives), and each
/// kernel's static shared memory per block (where its dynamic shared memory
/// starts). Returns "" or "not emulated: NAME".
std::string rewriteForHost(llvm::Module &m, std::vector<std::string> &kernels,
                           bool &usesFibres,
                           std::map<std::string, uint64_t> &staticSharedBytes);

/// Replaces `call` (an mma.sync, as an intrinsic or inline PTX) by a call
/// of the runtime's __nautilus_emu_mma with `kind` (an MmaKind) and the
/// lane's A, B and C registers, each a 32-bit value, and rebuilds the
/// call's result struct from the D registers. Erases `call`.
void emitEmulatedMma(llvm::CallInst *call, uint32_t kind,
                     llvm::ArrayRef<llvm::Value *> registers);

} // namespace nautilus::emu::detail

#endif
