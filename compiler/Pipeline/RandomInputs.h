//===- RandomInputs.h - Inputs drawn for a kernel's run --------*- C++ -*-===//
//
// The inputs `nautc run` draws for what it is not given, reproducibly from
// a seed (the JIT's and the tuner's measurements draw them the same way).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_RANDOMINPUTS_H
#define NAUTILUS_PIPELINE_RANDOMINPUTS_H

#include "dialects/Alg/KernelSignature.h"
#include "runtime/HostTensor.h"

#include <cstdint>

namespace nautilus {

/// Draws input `p` of `sig` at `sizes`: floats uniform in [-1, 1),
/// integers used as indices in [0, extent), other integers in [-8, 8),
/// bools 0 or 1. The same (seed, index) draws the same tensor.
rt::HostTensor drawInput(const Param &p, const KernelSignature &sig,
                         const SizeValues &sizes, uint64_t seed,
                         unsigned index);

} // namespace nautilus

#endif
