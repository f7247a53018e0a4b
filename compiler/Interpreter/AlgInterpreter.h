//===- AlgInterpreter.h - Reference semantics of the alg dialect -*- C++ -*-===//
//
// Runs an alg.kernel on host tensors, one definition at a time, point by
// point, folding reductions in double precision (integers in 64 bits). It is
// the oracle every backend is checked against (`nautc run --check`), so it
// is written for obviousness, not speed: each region is flattened once into a
// tape of scalar instructions, then evaluated at every point of its domain.
//
// Float arithmetic is rounded to the type the IR gives each value (a bf16
// product is a bf16), reductions accumulate in f64 and are rounded to the
// accumulator type when folded, and every store rounds to the tensor's dtype.
// Reads out of range are reported, never performed. Beside each float value
// it carries what sums that cancelled add to its error scale (its excess:
// CancellationExcess.h), for --check's bounds.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_INTERPRETER_ALGINTERPRETER_H
#define NAUTILUS_INTERPRETER_ALGINTERPRETER_H

#include "dialects/Alg/KernelSignature.h"

namespace nautilus {

/// Runs `kernel` with `sizes` (every size resolved) on `inputs` (in signature
/// order; scalar inputs as 0-d tensors) and fills `outputs` (in signature
/// order). Checks `alg.require` conditions. Returns "" or an error message.
/// Where given, `outputExcesses` gets each output's elements' excesses
/// (CancellationExcess.h), empty where none has one.
std::string
interpretKernel(alg::KernelOp kernel, const SizeValues &sizes,
                const std::vector<rt::HostTensor> &inputs,
                std::vector<rt::HostTensor> &outputs,
                std::vector<std::vector<double>> *outputExcesses = nullptr);

/// What interpretKernel's error says of a read out of range (undefined in
/// the language): "out-of-range read X[3, ...] of a tensor of shape ...".
constexpr const char *kOutOfRangeRead = "out-of-range read";

/// Evaluates the kernel's `alg.require` conditions under `sizes`; returns ""
/// or the first failing constraint with the values of its sizes.
std::string checkRequirements(alg::KernelOp kernel, const SizeValues &sizes);

} // namespace nautilus

#endif
