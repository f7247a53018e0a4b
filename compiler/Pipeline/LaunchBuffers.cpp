//===- LaunchBuffers.cpp --------------------------------------------------===//
#include "compiler/Pipeline/LaunchBuffers.h"

#include <cstring>

using namespace nautilus;

std::string LaunchBuffers::allocate(const rt::LaunchPlan &plan,
                                    const rt::SizeValues &sizes,
                                    const std::vector<rt::HostTensor> &inputs) {
  this->plan = &plan;
  owned.assign(plan.buffers.size(), rt::HostTensor());
  descriptors.assign(plan.buffers.size(), Descriptor());
  size_t nextInput = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const rt::BufferDesc &b = plan.buffers[i];
    const rt::HostTensor *tensor;
    if (b.role == rt::BufferRole::Input || b.role == rt::BufferRole::Scalar) {
      if (nextInput >= inputs.size())
        return "missing input '" + b.name + "'";
      tensor = &inputs[nextInput++];
    } else {
      std::vector<int64_t> shape;
      for (const rt::Dim &d : b.dims)
        shape.push_back(rt::extentOf(d, sizes));
      owned[i] = rt::HostTensor::zeros(b.dtype, shape); // then filled
      // Outputs and workspaces start as all-ones bytes (NaN in every float
      // type, -1 in integers), so that an element no program writes, or a
      // read of one, shows in --check rather than passing as a zero.
      std::memset(owned[i].data(), 0xff, owned[i].numBytes());
      tensor = &owned[i];
    }
    Descriptor &d = descriptors[i];
    d.isScalar = b.role == rt::BufferRole::Scalar;
    d.bytes = tensor->numBytes();
    d.allocated = d.aligned = const_cast<void *>(tensor->data());
    d.sizes = tensor->shape();
    d.strides.assign(d.sizes.size(), 1);
    for (int64_t j = static_cast<int64_t>(d.sizes.size()) - 2; j >= 0; --j)
      d.strides[j] = d.strides[j + 1] * d.sizes[j + 1];
  }
  sizeValues.clear();
  for (const std::string &s : plan.sizes)
    sizeValues.push_back(sizes.at(s));
  return "";
}

std::vector<void *> LaunchBuffers::packedArgs() {
  std::vector<void *> args;
  for (Descriptor &d : descriptors) {
    if (d.isScalar) {
      args.push_back(d.aligned);
      continue;
    }
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
  return args;
}

std::vector<LaunchBuffers::Range> LaunchBuffers::ranges() const {
  std::vector<Range> result;
  for (size_t i = 0; i < descriptors.size(); ++i)
    if (!descriptors[i].isScalar)
      result.push_back({descriptors[i].aligned, descriptors[i].bytes,
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
      return {descriptors[i].aligned, descriptors[i].sizes,
              plan->buffers[i].dtype};
  return {};
}
