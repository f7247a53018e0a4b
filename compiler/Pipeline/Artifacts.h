//===- Artifacts.h - What a compilation emits ------------------*- C++ -*-===//
//
// The artefacts of `nautc compile --emit KIND`, each produced from a
// Compilation lowered as far as it needs:
//   Alg     the alg dialect (after --shape bindings)
//   Tile    tile programs and the launch plan for the target
//   Gpu     GPU kernels in the gpu dialect (GPU targets)
//   Llvm    LLVM IR: host code (cpu) or NVVM/ROCDL-level kernels
//   Obj     a host object file (cpu)
//   Ptx     PTX (NVIDIA targets)
//   Amdgcn  AMDGCN assembly (AMD targets)
//   Bundle  the launch plan and the code (PTX, or the host's shared
//           library) as one checksummed JSON document (NVIDIA and cpu;
//           runtime/Bundle.h)
//   Header  the bundle as a C++ header with a typed launcher, for an
//           application that links the runtime alone (BundleHeader.h)
//   ReferenceCuda  the plain CUDA C++ reference kernels (ReferenceCuda.h)
//   ReferencePtx   their PTX, compiled by NVRTC (NVIDIA; Nvrtc.h)
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_ARTIFACTS_H
#define NAUTILUS_PIPELINE_ARTIFACTS_H

#include "compiler/Pipeline/Driver.h"

#include <string>

namespace nautilus {

enum class Artifact {
  Alg,
  Tile,
  Gpu,
  Llvm,
  Obj,
  Ptx,
  Amdgcn,
  Bundle,
  Header,
  ReferenceCuda,
  ReferencePtx
};

/// Whether `kind` is something `target`'s compilation produces.
bool artifactAppliesTo(Artifact kind, const TargetInfo &target);

/// Whether `kind` is binary (written as bytes, not text).
inline bool isBinaryArtifact(Artifact kind) { return kind == Artifact::Obj; }

/// Lowers `compilation` as far as `kind` needs and writes the artefact to
/// `out`. On failure the compilation's fault() says whose it is, and
/// failureMessage() what failed (for the code generation after the last stage,
/// Fault::Compiler with its own message; for a reference kernel that cannot
/// be made here, Fault::Unavailable with the reason).
mlir::LogicalResult emitArtifact(Compilation &compilation, Artifact kind,
                                 std::string &out);

} // namespace nautilus

#endif
