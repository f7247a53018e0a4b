//===- ReferenceCuda.h - Plain CUDA C++ reference kernels ------*- C++ -*-===//
//
// The reference kernels of an alg.kernel (with its sizes bound, as
// `nautc compile --emit alg` prints it), as CUDA C++ source: one
// `extern "C" __global__` function per definition, one thread per element
// of what it defines, a plain loop for a reduction. They mean what the
// reference interpreter (compiler/Interpreter/AlgInterpreter.h) means:
// every value is rounded to its IR type after each operation (f16 and bf16
// computed in float and rounded back), integers wrap to their width, float
// reductions accumulate in double and integer ones in 64 bits, stores round
// to the tensor's dtype. Simple and obviously right, not fast: every
// intermediate definition has a global buffer of its own.
//
// What they are for: `nautc run --device cuda --check` at sizes too large
// for the CPU interpreter compares the generated kernels with these,
// compiled by NVRTC (Nvrtc.h). The same source compiles as plain host C++,
// where a launcher per kernel runs its blocks and threads in turn
// (ReferenceHost.h), which is how the reference is checked against the
// interpreter without a GPU.
//
// Where they differ from the interpreter: a read out of range reads 0 and
// an integer division by zero gives 0 (the interpreter reports both);
// f32 and f16 math functions are the float ones (expf, ...), within a few
// units of the double ones the interpreter rounds.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_REFERENCECUDA_H
#define NAUTILUS_PIPELINE_REFERENCECUDA_H

#include "dialects/Alg/AlgOps.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/HostTensor.h"

#include <string>
#include <vector>

namespace nautilus {

/// A global buffer of the reference: row-major, f16 and bf16 as their
/// 16-bit encodings, bool as one byte (the layout of rt::HostTensor).
struct ReferenceBuffer {
  enum class Role { Input, Intermediate, Output };
  std::string name;
  Role role = Role::Input;
  rt::DType dtype = rt::DType::F32;
  std::vector<Dim> dims; // empty: a scalar input (one element)
};

/// One launch: `kernel` with `ReferenceProgram::kBlockThreads` threads a
/// block and enough blocks for one thread per element of its last buffer
/// (the one it writes). Its parameters are the buffers `buffers` (pointers,
/// in this order), then every size of the program (int64, in order).
struct ReferenceLaunch {
  std::string kernel;    // the __global__ function
  std::string hostEntry; // its launcher in a host build (see the source)
  std::vector<unsigned> buffers;
};

/// The reference of a kernel: its source and how to run it. A host runs
/// the launches in order, each after the previous one has finished.
struct ReferenceProgram {
  static constexpr unsigned kBlockThreads = 256;
  std::string name;                     // the kernel's
  std::string source;                   // CUDA C++ (and host C++)
  std::vector<std::string> sizes;       // the int64 parameters, in order
  std::vector<ReferenceBuffer> buffers; // inputs first, in signature order
  std::vector<unsigned> outputs;        // the outputs' buffers, in order
  std::vector<ReferenceLaunch> launches;

  /// The number of elements of buffer `b` under `sizes` (1 for a scalar).
  int64_t elements(unsigned b, const SizeValues &sizes) const;
  /// The blocks of `launch` under `sizes`.
  int64_t blocks(const ReferenceLaunch &launch, const SizeValues &sizes) const;
};

/// The reference's buffers in host memory under `sizes`: each input
/// `inputs`' next (checked against its dtype and extent), every other
/// zero. Returns "" and fills `buffers` (one a buffer), or the mismatch.
std::string referenceBuffers(const ReferenceProgram &program,
                             const SizeValues &sizes,
                             const std::vector<rt::HostTensor> &inputs,
                             std::vector<rt::HostTensor> &buffers);

/// The values of `program.sizes` under `sizes`, in order (its launches'
/// int64 parameters).
std::vector<long long> referenceSizeValues(const ReferenceProgram &program,
                                           const SizeValues &sizes);

/// Generates the reference of `kernel`. Returns "" or why it cannot: an
/// op or a type it does not support, named.
std::string generateReferenceCuda(alg::KernelOp kernel,
                                  ReferenceProgram &program);

/// The NVRTC architecture option for an NVIDIA chip ("sm_90a" gives
/// "--gpu-architecture=compute_90": the reference uses nothing
/// architecture-specific).
std::string referenceArchitecture(llvm::StringRef chip);

} // namespace nautilus

#endif
