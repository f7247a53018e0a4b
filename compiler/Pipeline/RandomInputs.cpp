//===- RandomInputs.cpp - Inputs drawn for a kernel's run -----------------===//
#include "compiler/Pipeline/RandomInputs.h"
#include "runtime/SplitMix64.h"

#include <algorithm>

using namespace nautilus;

rt::HostTensor nautilus::drawInput(const Param &p, const KernelSignature &sig,
                                   const SizeValues &sizes, uint64_t seed,
                                   unsigned index) {
  std::vector<int64_t> shape = p.isScalar ? std::vector<int64_t>{}
                                          : shapeOf(p, sizes);
  rt::HostTensor t = rt::HostTensor::zeros(p.dtype, shape);
  rt::SplitMix64 rng(seed * 1000003ull + index * 7919ull + 1);
  int64_t bound = -1;
  for (const IndexUse &use : sig.indexUses)
    if (use.indexTensor == p.name) {
      int64_t e = rt::extentOf(use.extent, sizes);
      bound = bound < 0 ? e : std::min(bound, e);
    }
  for (size_t i = 0; i < t.numElements(); ++i) {
    if (rt::isFloat(p.dtype))
      t.setFromDouble(i, 2.0 * rng.uniform() - 1.0);
    else if (p.dtype == rt::DType::Bool)
      t.setFromInt64(i, rng.next() & 1);
    else if (bound > 0)
      t.setFromInt64(i, static_cast<int64_t>(rng.next() % bound));
    else
      t.setFromInt64(i, static_cast<int64_t>(rng.next() % 16) - 8);
  }
  return t;
}

