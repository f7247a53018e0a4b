//===- Check.h - Outputs checked against the reference ---------*- C++ -*-===//
//
// `nautc run --check`'s model: a kernel's outputs are compared with the
// reference interpreter's (f64 accumulation) within a tolerance derived from
// the roundings the kernel makes. The JIT's self-checks and the tuner's
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

/// The tolerance of --check: the output's rounding; the roundings of
/// intermediates, once an element, to the types the source gives them or
/// the compiler narrows them to (`rounded`, see Precision.h); and the
/// rounding accumulated along each reduction in its accumulator's type.
/// Rounding each term of a sum moves it by about the unit roundoff of the
/// sum's magnitude (mean |expected|) for random inputs; the tails of
/// products of several such terms reach a few times more (a mixture of
/// experts' silu(G) x U rounded to bf16: up to 7 units at D = 512), hence
/// 8 units. An accumulator rounds at every step: its error grows as the
/// square root of the reduction's length.
double checkTolerance(alg::KernelOp kernel, const SizeValues &sizes,
                      rt::DType outputType, std::optional<rt::DType> rounded);

/// One output checked: its name, the tolerance and the comparison.
struct OutputCheck {
  std::string name;
  double tolerance = 0;
  rt::Comparison comparison;
};

/// Runs the reference interpreter on `reference` (the alg kernel with its
/// sizes bound) over `inputs` and compares each of `outputs` with it.
/// Returns "" or the interpreter's error; fills `checks` in output order.
std::string checkOutputs(alg::KernelOp reference, const SizeValues &sizes,
                         const std::vector<rt::HostTensor> &inputs,
                         const std::vector<rt::HostTensor> &outputs,
                         std::optional<rt::DType> rounded,
                         std::vector<OutputCheck> &checks);

/// Compares each of `outputs` with `expected` (the reference's outputs:
/// the interpreter's, or the reference kernels' on a GPU) within the
/// tolerance of `reference` (the alg kernel with its sizes bound).
void compareOutputs(alg::KernelOp reference, const SizeValues &sizes,
                    const std::vector<rt::HostTensor> &expected,
                    const std::vector<rt::HostTensor> &outputs,
                    std::optional<rt::DType> rounded,
                    std::vector<OutputCheck> &checks);

} // namespace nautilus

#endif
