//===- Jit.h - Compile a kernel in-process, through the caches -*- C++ -*-===//
//
// What the C API's nt_compile (and so the C++ API and the Python package)
// runs: a kernel's bundle from `.tensor` source, found in the process's
// memory cache, else in the disk cache (runtime/KernelCache.h), else
// compiled through the compile driver (compiler/Pipeline) and stored in
// both.
//
// The cache key is FNV-1a 64 over: the compiler's identity (its version,
// and the size and time of the library or program it runs in, so that a
// rebuilt compiler never reads an old build's entries), the source's
// tokens (comments and spacing do not count), the kernel, the target, the
// shapes, the schedule (a schedule file's content), whether --explain and
// the kernels' IR are kept, and the toolchain (LLVM's version; for the cpu the
// host CPU's name and features).
//
// A disk entry that fails its bundle checks (truncated, edited) is removed
// and compiled again; the disk is looked at before the compile lock, so a
// hit waits for no compile. The memory cache keeps the 256 bundles used
// last. Compiles in one process are serialised; processes share a cache
// directory safely (KernelCache.h).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_JIT_JIT_H
#define NAUTILUS_JIT_JIT_H

#include "nautilus.h"
#include "runtime/Bundle.h"

#include <string>

namespace nautilus {

struct JitRequest {
  std::string source; // the text, or empty and:
  std::string path;   // a .tensor file
  std::string kernel;
  std::string target = "cpu";
  std::string shapes; // "N=128,D=64"
  std::string schedule = "default";
  std::string cacheDir; // empty: rt::defaultCacheDirectory()
  bool memoryCache = true;
  bool diskCache = true;
  bool explain = false;
  bool kernelIR = false; // NVIDIA bundles keep "nvvm_ir" (the emu device)
  bool verify = true;     // prove the tile programs (compiler/Verify)
};

struct JitResult {
  rt::Bundle bundle;
  int cacheHit = 0; // 0 compiled, 1 memory, 2 disk
};

/// Compiles (or finds) `request`'s kernel. Returns NT_OK, or the error's
/// code with `error` saying what is wrong (a compile error as the
/// compiler's diagnostics: "FILE:LINE:COL: error: ...").
nt_code jitCompile(const JitRequest &request, JitResult &result,
                   std::string &error);

} // namespace nautilus

#endif
