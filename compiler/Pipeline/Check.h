//===- Check.h - Outputs checked against the reference ---------*- C++ -*-===//
//
// `nautc run --check`'s model: a kernel's outputs are compared with the
// reference interpreter's (f64 accumulation, every other operation rounded
// to the type the IR gives it) within a tolerance derived from the
// roundings the kernel makes that the interpreter does not, scaled by how
// the path that computed the outputs makes them (docs/architecture.md,
// "How --check bounds the error"). The JIT's self-checks and the tuner's
// measurements check candidates the same way.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_CHECK_H
#define NAUTILUS_PIPELINE_CHECK_H

#include "dialects/Alg/AlgOps.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/Compare.h"
#include "runtime/HostTensor.h"

#include <optional>
#include <string>
#include <vector>

namespace nautilus {

/// What computed the outputs checked.
enum class CheckPath {
  /// The CPU's compiled code (and the reference kernels compiled for the
  /// host): the IR's operations in the IR's types, in the source's order
  /// but for the compiler's rewrites; sums in f32, in vector lanes.
  Host,
  /// The SIMT emulator running the NVIDIA kernels: the same, with the
  /// roundings to 16 bits tensor cores need and split reductions.
  Emulator,
  /// A GPU (compared with the reference kernels on the same GPU): the
  /// same, with the hardware's approximate instructions and tensor cores
  /// that truncate as they accumulate.
  Gpu,
};

/// The roundings behind a kernel's outputs, read from its alg IR (the
/// reference, with its sizes bound) and from what the compiled kernel
/// rounds beyond it; each is 0 where there is none.
struct RoundingSources {
  /// The sum over its float sum and prod reductions of the accumulator's
  /// unit roundoff times the square root of the reduction's length.
  double accumulation = 0;
  /// The same with the length itself: the scale of an error that grows
  /// with every term (a rounding toward zero at each step).
  double truncation = 0;
  /// The unit roundoff of the narrowest float type of 32 bits or more the
  /// IR computes a value in (f32 arithmetic), but for the value an output
  /// stores.
  double arithmetic = 0;
  /// The unit roundoff of the narrowest 16-bit float type the IR rounds a
  /// computed value to (an intermediate definition typed bf16, tanh of an
  /// f16 input), but for the value an output stores.
  double narrowTyped = 0;
  /// The unit roundoff of the 16-bit type the compiled kernel rounds f32
  /// intermediates to (Precision.h).
  double narrowed = 0;
};

/// The roundings of `kernel`'s definitions at `sizes`; `narrowed` is the
/// compiled kernel's (Precision.h's roundedIntermediateType).
RoundingSources roundingSources(alg::KernelOp kernel, const SizeValues &sizes,
                                std::optional<rt::DType> narrowed);

/// The tolerance of --check for outputs `path` computed with `sources`:
/// one unit of the output's dtype, and the computation's error, relative
/// to |expected| + mean |expected|, of each source times the path's
/// coefficient for it (Check.cpp derives them).
rt::Tolerance checkTolerance(const RoundingSources &sources, CheckPath path);

/// One output checked: its name and the comparison.
struct OutputCheck {
  std::string name;
  rt::Comparison comparison;
};

/// Runs the reference interpreter on `reference` (the alg kernel with its
/// sizes bound) over `inputs` and compares each of `outputs` with it, the
/// bounds widened where the reference's sums cancelled (its excesses).
/// Returns "" or the interpreter's error; fills `checks` in output order.
std::string checkOutputs(alg::KernelOp reference, const SizeValues &sizes,
                         const std::vector<rt::HostTensor> &inputs,
                         const std::vector<rt::HostTensor> &outputs,
                         const rt::Tolerance &tolerance,
                         std::vector<OutputCheck> &checks);

/// Compares each of `outputs` with `expected` (the reference's outputs:
/// the interpreter's, or the reference kernels' on a GPU) within
/// `tolerance`, each output's bounds widened by its `excesses` where given
/// (the interpreter's: compiler/Interpreter/CancellationExcess.h).
void compareOutputs(alg::KernelOp reference,
                    const std::vector<rt::HostTensor> &expected,
                    const std::vector<rt::HostTensor> &outputs,
                    const rt::Tolerance &tolerance,
                    std::vector<OutputCheck> &checks,
                    const std::vector<std::vector<double>> *excesses = nullptr);

} // namespace nautilus

#endif
