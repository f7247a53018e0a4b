//===- Bundle.h - A compiled kernel as one checksummed file -----*- C++ -*-===//
//
// A bundle holds everything needed to launch a compiled kernel without the
// compiler: its launch plan (LaunchPlan.h), its target, and its kernels'
// code. `nautc compile --emit bundle` writes one (NVIDIA targets); the
// runtime reads it back. There is one writer (writeBundle) and one reader
// (readBundle).
//
// On disk, a bundle is one JSON document (written as Json.h writes: keys in
// byte order, two spaces of indentation) ending with a newline:
//
//   format         "nautilus-bundle-5": the version; a reader also reads
//                  versions 4 (no workspaces allocated under a
//                  condition), 3 (no launch conditions either) and 2 (no
//                  requirements either, PTX only) and rejects any other
//                  (version 1 had no checksum)
//   checksum       "fnv1a64:" and 16 lower-case hexadecimal digits: FNV-1a
//                  64 (Hash.h) of the whole file's bytes with those 16
//                  digits replaced by '0'
//   kernel         the kernel's name
//   target, chip   the target ("sm_90") and the chip its code is for
//                  ("sm_90a")
//   sizes          the size arguments, in order
//   bindings       {size: value} fixed at compile time
//   derived_sizes  [{name, terms: [{coefficient, factors}]}]: sizes among
//                  `sizes` that are the sum of coefficient x product of the
//                  named sizes, computed in order before launching
//   buffers        [{name, role, dtype, dims, allocate_when}]: role input,
//                  output, workspace or scalar; dtype as DType.h names it;
//                  dims size names or integers; allocate_when (optional,
//                  workspaces only) {text, condition}: allocated only where
//                  it holds (the launch condition of the copies that use
//                  it; elsewhere its extents are 0 and nothing is
//                  allocated for it)
//   programs       in launch order: [{name, output_dims, tile, threads,
//                  dynamic_shared_bytes, persistent, tensor_maps: [{buffer,
//                  box, swizzle_bytes}], launch_when}]: launch_when
//                  (optional) {text, condition}, a size expression the
//                  program runs under (skipped where it is zero: copies
//                  of one program compiled for ranges of sizes)
//   requirements   [{text, condition}]: the kernel's `require` lines as
//                  written and as size expressions (SizeExpr.h), which must
//                  hold (be non-zero) for a launch
//   explain        (optional) what `--explain` said when it was compiled
//   cpu_features   (optional; cpu bundles) the x86 features the host
//                  library uses that the runtime checks (HostFeatures.h)
//   ptx, nvvm_ir, hsaco, host_library
//                  the kernels' code, one member a kind (kCodeKinds): "ptx"
//                  is the module's PTX text, one kernel per program (NVIDIA
//                  targets); "nvvm_ir" (optional) the same kernels as the
//                  NVVM-level LLVM IR the emulator runs (the emu device);
//                  "hsaco" an AMD code object (ELF, base64-encoded; AMD
//                  targets);
//                  "host_library" a shared library for the host (an ELF
//                  .so, base64-encoded), with one packed entry point a
//                  program (HostPrograms.h; the cpu target)
//
// A program is launched on prod(ceil(output extent / tile)) blocks of
// `threads` threads (a 1-D grid) with `dynamic_shared_bytes` of dynamic
// shared memory; a persistent one on min(that, the multiprocessors) blocks
// (each loops over tiles). Its parameters, in order: each tensor buffer as
// MLIR's memref descriptor (allocated pointer, aligned pointer, offset, then
// its extents and its strides in elements, each 64-bit), each scalar buffer
// by value, each size as a 64-bit integer, then a pointer to each tensor map
// (a CUtensorMap in global memory over `buffer`, boxes of `box` elements,
// innermost dimension first, `swizzle_bytes` swizzle, zero fill).
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_BUNDLE_H
#define NAUTILUS_RUNTIME_BUNDLE_H

#include "runtime/LaunchPlan.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nautilus::rt {

/// The version this runtime writes ("nautilus-bundle-5").
constexpr int kBundleFormatVersion = 5;
/// The oldest version it reads.
constexpr int kOldestBundleFormatVersion = 2;

/// The kinds of code a bundle may hold, each a member of its own name:
/// "ptx" and "nvvm_ir" (text), "hsaco" and "host_library" (binary, base64
/// in the file).
constexpr const char *kCodeKinds[] = {"ptx", "nvvm_ir", "hsaco",
                                      "host_library"};

/// Whether code of `kind` is binary (base64 in the file, bytes in memory).
inline bool isBinaryCodeKind(const std::string &kind) {
  return kind == "host_library" || kind == "hsaco";
}

struct Bundle {
  /// The format's version: what readBundle read (writeBundle always writes
  /// kBundleFormatVersion).
  int formatVersion = kBundleFormatVersion;
  LaunchPlan plan;
  std::string target; // "sm_90"
  std::string chip;   // "sm_90a"
  /// The kernels' code by kind (kCodeKinds): at least one. Binary kinds
  /// hold their bytes (decoded).
  std::map<std::string, std::string> code;
  /// What `--explain` said when the kernel was compiled ("" when nothing).
  std::string explain;
  /// The host features the host library needs (HostFeatures.h).
  std::vector<std::string> cpuFeatures;
};

/// `bundle` as a file's bytes (the JSON document above, checksummed).
/// Code of a kind not in kCodeKinds is not written.
std::string writeBundle(const Bundle &bundle);

/// Reads a bundle from a file's bytes, checking its version, then its
/// checksum, then every field. On failure returns false and sets `error` to
/// what is wrong ("malformed JSON: line 3, column 7: ...", "unsupported
/// bundle format ...", "checksum mismatch ...", "missing field
/// 'programs[0].threads'", ...); `out` is unspecified then.
bool readBundle(std::string_view bytes, Bundle &out, std::string &error);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_BUNDLE_H
