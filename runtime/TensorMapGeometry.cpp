//===- TensorMapGeometry.cpp - A TMA tensor map over a plan's buffer ------===//
#include "runtime/TensorMapGeometry.h"

namespace nautilus::rt {

std::string tensorMapGeometry(const LaunchPlan &plan,
                              const std::vector<BufferView> &buffers,
                              const TensorMapDesc &desc,
                              TensorMapGeometry &out) {
  out = TensorMapGeometry();
  while (out.buffer < plan.buffers.size() &&
         plan.buffers[out.buffer].name != desc.buffer)
    ++out.buffer;
  if (out.buffer == plan.buffers.size())
    return "a tensor map of an unknown buffer '" + desc.buffer + "'";
  const BufferView &view = buffers[out.buffer];
  size_t rank = view.shape.size();
  out.data = view.data;
  out.elementBytes = dtypeSize(plan.buffers[out.buffer].dtype);
  uint64_t stride = out.elementBytes;
  for (size_t d = 0; d < rank; ++d) {
    uint64_t extent = static_cast<uint64_t>(view.shape[rank - 1 - d]);
    out.dims.push_back(extent);
    out.box.push_back(static_cast<uint32_t>(desc.box[d]));
    out.elementStrides.push_back(1);
    if (d > 0)
      out.strides.push_back(stride);
    stride *= extent;
  }
  return "";
}

} // namespace nautilus::rt
