//===- HostTensorUtil.h - Host tensors from values, for unit tests -*- C++ -*-===//
#ifndef NAUTILUS_TEST_UNIT_HOSTTENSORUTIL_H
#define NAUTILUS_TEST_UNIT_HOSTTENSORUTIL_H

#include "runtime/HostTensor.h"

#include <vector>

namespace nautilus::test {

/// A tensor of `dtype` and `shape` holding `values` (rounded to the dtype)
/// in row-major order; elements past them are zero.
inline rt::HostTensor tensorOf(rt::DType dtype, std::vector<int64_t> shape,
                               const std::vector<double> &values) {
  rt::HostTensor h = rt::HostTensor::zeros(dtype, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    h.setFromDouble(i, values[i]);
  return h;
}

} // namespace nautilus::test

#endif
