//===- Bundle.h - A compiled kernel program as one file --------*- C++ -*-===//
//
// `nautc compile --emit bundle`, `--emit header` and the JIT produce a
// bundle: everything needed to launch a compiled kernel without the
// compiler (its launch plan, its target and its code: PTX on NVIDIA
// targets, a code object on AMD ones, a shared library on the cpu), as one
// versioned, checksummed
// document. The format, its writer and its reader are the runtime's
// (runtime/Bundle.h); this builds the rt::Bundle of a compilation.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_BUNDLE_H
#define NAUTILUS_PIPELINE_BUNDLE_H

#include "compiler/Pipeline/Driver.h"
#include "runtime/Bundle.h"

namespace nautilus {

/// Whether `target`'s kernels can be bundled (every target: the cpu,
/// NVIDIA and AMD).
bool bundlesTarget(const TargetInfo &target);

/// Lowers `compilation` to its code and builds its bundle; with
/// `kernelIR`, an NVIDIA bundle also holds the kernels' LLVM IR ("nvvm_ir",
/// what the emu device runs). On failure the compilation's fault() and
/// failureMessage() say whose and what.
mlir::LogicalResult buildBundle(Compilation &compilation, rt::Bundle &out,
                                bool kernelIR = false);

} // namespace nautilus

#endif
