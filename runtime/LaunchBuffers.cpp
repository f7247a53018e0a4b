//===- LaunchBuffers.cpp --------------------------------------------------===//
#include "runtime/LaunchBuffers.h"
#include "runtime/LaunchChecks.h"

#include <cstring>

using namespace nautilus;

std::string LaunchBuffers::allocate(const rt::LaunchPlan &plan,
                                    const rt::SizeValues &sizes,
                                    const std::vector<rt::HostTensor> &inputs) {
  this->plan = &plan;
  owned.assign(plan.buffers.size(), rt::HostTensor());
  views.assign(plan.buffers.size(), rt::BufferView());
  bytes.assign(plan.buffers.size(), 0);
  size_t nextInput = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const rt::BufferDesc &b = plan.buffers[i];
    const rt::HostTensor *tensor;
    if (b.role == rt::BufferRole::Input || b.role == rt::BufferRole::Scalar) {
      if (nextInput >= inputs.size())
        return "missing input '" + b.name + "'";
      tensor = &inputs[nextInput++];
    } else {
      // (A workspace whose copies do not launch here has no elements.)
      std::vector<int64_t> shape = rt::extentsOf(b, sizes);
      owned[i] = rt::HostTensor::zeros(b.dtype, shape); // then filled
      // Outputs and workspaces start as all-ones bytes (NaN in every float
      // type, -1 in integers), so that an element no program writes, or a
      // read of one, shows in --check rather than passing as a zero.
      std::memset(owned[i].data(), 0xff, owned[i].numBytes());
      tensor = &owned[i];
    }
    views[i] = {const_cast<void *>(tensor->data()), tensor->shape()};
    bytes[i] = tensor->numBytes();
  }
  packed = std::make_unique<rt::PackedArgs>(plan, views, sizes);
  return "";
}

std::vector<LaunchBuffers::Range> LaunchBuffers::ranges() const {
  std::vector<Range> result;
  for (size_t i = 0; i < views.size(); ++i)
    if (plan->buffers[i].role != rt::BufferRole::Scalar)
      result.push_back({views[i].data, bytes[i],
                        plan->buffers[i].role == rt::BufferRole::Input});
  return result;
}

std::vector<rt::HostTensor> LaunchBuffers::takeOutputs() {
  std::vector<rt::HostTensor> outputs;
  for (size_t i = 0; i < plan->buffers.size(); ++i)
    if (plan->buffers[i].role == rt::BufferRole::Output)
      outputs.push_back(std::move(owned[i]));
  return outputs;
}

LaunchBuffers::View LaunchBuffers::view(const std::string &name) const {
  for (size_t i = 0; i < plan->buffers.size(); ++i)
    if (plan->buffers[i].name == name)
      return {views[i].data, views[i].shape, plan->buffers[i].dtype};
  return {};
}
