//===- PackedArgs.cpp - The parameters of a kernel's programs -------------===//
#include "runtime/PackedArgs.h"

namespace nautilus::rt {

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape) {
  // (Saturating: a shape whose elements overflow is refused by the launch
  // checks, after its strides are computed.)
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t j = static_cast<int64_t>(shape.size()) - 2; j >= 0; --j)
    if (__builtin_mul_overflow(strides[j + 1], shape[j + 1], &strides[j]))
      strides[j] = INT64_MAX;
  return strides;
}

PackedArgs::PackedArgs(const LaunchPlan &plan,
                       const std::vector<BufferView> &buffers,
                       const SizeValues &sizes) {
  // Descriptors first, so that the pointers into them stay valid.
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    if (plan.buffers[i].role != BufferRole::Scalar)
      descriptors.push_back({buffers[i].data, buffers[i].data, 0,
                             buffers[i].shape,
                             contiguousStrides(buffers[i].shape)});
  for (const std::string &s : plan.sizes)
    sizeValues.push_back(sizes.at(s));
  size_t next = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role == BufferRole::Scalar) {
      args.push_back(buffers[i].data);
      continue;
    }
    Descriptor &d = descriptors[next++];
    args.push_back(&d.allocated);
    args.push_back(&d.aligned);
    args.push_back(&d.offset);
    for (int64_t &s : d.sizes)
      args.push_back(&s);
    for (int64_t &s : d.strides)
      args.push_back(&s);
  }
  for (int64_t &s : sizeValues)
    args.push_back(&s);
}

} // namespace nautilus::rt
