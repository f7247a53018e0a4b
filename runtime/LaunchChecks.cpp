//===- LaunchChecks.cpp - What is checked before every launch -------------===//
#include "runtime/LaunchChecks.h"
#include "runtime/HostTensor.h"

#include <climits>
#include <cstdint>

namespace nautilus::rt {

namespace {

const char *roleName(BufferRole role) {
  switch (role) {
  case BufferRole::Input:
    return "input";
  case BufferRole::Output:
    return "output";
  case BufferRole::Workspace:
    return "workspace";
  case BufferRole::Scalar:
    return "scalar";
  }
  return "buffer";
}

/// Binds the sizes of `b`'s dims from `arg`'s extents.
std::string bindDims(const BufferDesc &b, const TensorArg &arg,
                     SizeValues &sizes,
                     std::map<std::string, std::string> &from) {
  for (size_t d = 0; d < b.dims.size(); ++d) {
    int64_t extent = arg.shape[d];
    const Dim &dim = b.dims[d];
    std::string where =
        "dimension " + std::to_string(d) + " of '" + b.name + "'";
    if (dim.isLiteral()) {
      if (extent != dim.literal)
        return where + " is " + std::to_string(extent) + "; the kernel needs " +
               std::to_string(dim.literal);
      continue;
    }
    auto [it, fresh] = sizes.emplace(dim.size, extent);
    if (fresh) {
      from[dim.size] = where;
      continue;
    }
    if (it->second != extent)
      return where + " is " + std::to_string(extent) + ", but " + dim.size +
             " is " + std::to_string(it->second) + " (from " + from[dim.size] +
             ")";
  }
  return "";
}

/// Whether `strides` address `shape` as a row-major copy would: dimensions
/// of extent 1 may have any stride, and so may every dimension of a tensor
/// with no elements (as DLPack allows).
bool rowMajor(const std::vector<int64_t> &shape,
              const std::vector<int64_t> &strides) {
  std::vector<int64_t> want = contiguousStrides(shape);
  bool empty = false;
  for (int64_t e : shape)
    empty = empty || e == 0;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!empty && shape[d] != 1 && strides[d] != want[d])
      return false;
  return true;
}

/// The tensor's own checks; its data is not needed when `needData` is
/// false (sizing outputs from inputs not yet allocated).
std::string checkTensor(const BufferDesc &b, const TensorArg &arg,
                        const DeviceLimits &limits, bool needData) {
  std::string name = std::string(roleName(b.role)) + " '" + b.name + "'";
  if (arg.dtype != b.dtype)
    return name + " is " + dtypeName(arg.dtype) + "; the kernel takes " +
           dtypeName(b.dtype);
  if (arg.shape.size() != b.dims.size())
    return name + " has " + std::to_string(arg.shape.size()) +
           " dimensions; the kernel takes " + std::to_string(b.dims.size());
  for (int64_t e : arg.shape)
    if (e < 0)
      return name + " has a negative extent " + formatShape(arg.shape);
  if (!arg.strides.empty()) {
    if (arg.strides.size() != arg.shape.size())
      return name + " has " + std::to_string(arg.strides.size()) +
             " strides for " + std::to_string(arg.shape.size()) + " dimensions";
    if (!rowMajor(arg.shape, arg.strides))
      return name + " is not contiguous (strides " + formatShape(arg.strides) +
             " for shape " + formatShape(arg.shape) +
             "); pass a row-major copy";
  }
  std::optional<size_t> elements =
      shapeNumElements(arg.shape, dtypeSize(b.dtype));
  if (!elements)
    return name + "'s size in bytes overflows: " + formatShape(arg.shape);
  if (!needData)
    return "";
  if (!arg.data && (b.role == BufferRole::Scalar || *elements))
    return name + " is null";
  auto address = reinterpret_cast<uintptr_t>(arg.data);
  int64_t alignment =
      b.role == BufferRole::Scalar
          ? static_cast<int64_t>(dtypeSize(b.dtype))
          : std::max<int64_t>(limits.bufferAlignment, dtypeSize(b.dtype));
  if (address % static_cast<uintptr_t>(alignment) != 0)
    return name + " is at an address not aligned to " +
           std::to_string(alignment) + " bytes";
  return "";
}

std::string checkResources(const LaunchPlan &plan, const DeviceLimits &limits) {
  for (const ProgramDesc &p : plan.programs) {
    if (p.threads > limits.maxThreadsPerBlock && limits.maxThreadsPerBlock > 1)
      return "program '" + p.name + "' needs blocks of " +
             std::to_string(p.threads) + " threads; this device allows " +
             std::to_string(limits.maxThreadsPerBlock);
    if (p.dynamicSharedBytes > limits.maxSharedBytesPerBlock &&
        p.dynamicSharedBytes > 0)
      return "program '" + p.name + "' needs " +
             std::to_string(p.dynamicSharedBytes) +
             " bytes of shared memory; this device allows " +
             std::to_string(limits.maxSharedBytesPerBlock) +
             " a block (compile for this device's target)";
  }
  return "";
}

/// The derived sizes of `plan` added to `sizes`, each computed without
/// overflow; "" or the one that overflows.
std::string deriveSizes(const LaunchPlan &plan, SizeValues &sizes) {
  for (const DerivedSize &d : plan.derivedSizes) {
    int64_t value = 0;
    for (const DerivedSize::Term &t : d.terms) {
      int64_t product = t.coefficient;
      for (const std::string &f : t.factors)
        if (__builtin_mul_overflow(product, sizes.at(f), &product))
          return "size '" + d.name + "' overflows 64 bits";
      if (__builtin_add_overflow(value, product, &value))
        return "size '" + d.name + "' overflows 64 bits";
    }
    sizes[d.name] = value;
  }
  return "";
}

/// Each program's grid fits the device, and each buffer's size in bytes
/// fits 64 bits.
std::string checkExtents(const LaunchPlan &plan, const SizeValues &sizes,
                         const DeviceLimits &limits) {
  for (const ProgramDesc &p : plan.programs) {
    if (!p.launchesAt(sizes))
      continue;
    int64_t blocks = p.numPrograms(sizes);
    if (blocks > limits.maxBlocks)
      return "program '" + p.name + "' needs " + std::to_string(blocks) +
             " blocks; this device launches at most " +
             std::to_string(limits.maxBlocks);
  }
  for (const BufferDesc &b : plan.buffers)
    if (!shapeNumElements(extentsOf(b, sizes), dtypeSize(b.dtype)))
      return "buffer '" + b.name +
             "' is too large: its size in bytes "
             "overflows";
  return "";
}

} // namespace

std::vector<const BufferDesc *> parameterBuffers(const LaunchPlan &plan) {
  std::vector<const BufferDesc *> out;
  for (const BufferDesc &b : plan.buffers)
    if (b.role != BufferRole::Workspace)
      out.push_back(&b);
  return out;
}

std::vector<int64_t> extentsOf(const BufferDesc &b, const SizeValues &sizes) {
  int64_t allocated = 1;
  if (b.allocateWhen &&
      (!evaluate(b.allocateWhen->condition, sizes, allocated).empty() ||
       !allocated))
    return std::vector<int64_t>(b.dims.size(), 0);
  std::vector<int64_t> out;
  for (const Dim &d : b.dims)
    out.push_back(extentOf(d, sizes));
  return out;
}

std::string bindSizes(const LaunchPlan &plan,
                      const std::vector<TensorArg> &args,
                      const DeviceLimits &limits, SizeValues &sizes,
                      bool needData) {
  std::vector<const BufferDesc *> params = parameterBuffers(plan);
  if (args.size() > params.size())
    return "kernel '" + plan.kernel + "' takes " +
           std::to_string(params.size()) + " tensors, not " +
           std::to_string(args.size());
  sizes = plan.bindings;
  std::map<std::string, std::string> from;
  for (const auto &[name, value] : plan.bindings)
    from[name] = "its binding at compile time";
  for (size_t i = 0; i < args.size(); ++i) {
    if (std::string e = checkTensor(*params[i], args[i], limits, needData);
        !e.empty())
      return e;
    if (std::string e = bindDims(*params[i], args[i], sizes, from); !e.empty())
      return e;
  }
  for (const std::string &s : plan.sizes) {
    bool derived = false;
    for (const DerivedSize &d : plan.derivedSizes)
      derived = derived || d.name == s;
    if (!derived && !sizes.count(s))
      return "size '" + s + "' is not the extent of any tensor passed";
  }
  if (std::string e = deriveSizes(plan, sizes); !e.empty())
    return e;
  if (std::string e = checkRequirements(plan.requirements, sizes); !e.empty())
    return e;
  // A launch condition that cannot be evaluated would skip its program
  // silently (and leave its workspace unallocated).
  auto unevaluable = [&](const std::optional<Requirement> &condition,
                         const std::string &what) -> std::string {
    int64_t holds = 0;
    if (!condition)
      return "";
    std::string e = evaluate(condition->condition, sizes, holds);
    return e.empty() ? ""
                     : what + " '" + condition->text +
                           "', which cannot be evaluated: " + e;
  };
  for (const ProgramDesc &p : plan.programs)
    if (std::string e = unevaluable(p.launchWhen, "program '" + p.name +
                                                      "' is launched under");
        !e.empty())
      return e;
  for (const BufferDesc &b : plan.buffers)
    if (std::string e = unevaluable(b.allocateWhen, "workspace '" + b.name +
                                                        "' is allocated under");
        !e.empty())
      return e;
  return checkExtents(plan, sizes, limits);
}

size_t bytesOf(const BufferDesc &b, const SizeValues &sizes) {
  return *shapeNumElements(extentsOf(b, sizes), dtypeSize(b.dtype)) *
         dtypeSize(b.dtype);
}

std::string checkLaunch(const LaunchPlan &plan,
                        const std::vector<TensorArg> &args,
                        const DeviceLimits &limits, SizeValues &sizes) {
  std::vector<const BufferDesc *> params = parameterBuffers(plan);
  if (args.size() != params.size()) {
    std::string names;
    for (const BufferDesc *b : params)
      names += (names.empty() ? "" : ", ") + b->name;
    return "kernel '" + plan.kernel + "' takes " +
           std::to_string(params.size()) + " tensors (" + names + "), not " +
           std::to_string(args.size());
  }
  if (std::string e = bindSizes(plan, args, limits, sizes); !e.empty())
    return e;
  return checkResources(plan, limits);
}

} // namespace nautilus::rt
