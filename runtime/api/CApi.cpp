//===- CApi.cpp - The runtime's half of the C API (nautilus.h) ------------===//
//
// Everything but nt_compile: statuses, programs from bundles, devices,
// launches. No exception leaves a function of the C API: each is caught
// and returned as NT_INTERNAL.
//
//===----------------------------------------------------------------------===//
#include "nautilus.h"
#include "runtime/LaunchChecks.h"
#include "runtime/api/Handles.h"

#include <fstream>
#include <iterator>

using namespace nautilus;

namespace {

template <typename F> nt_status guarded(F body) {
  try {
    return body();
  } catch (const std::exception &e) {
    return capi::makeStatus(NT_INTERNAL,
                            std::string("internal error: ") + e.what());
  } catch (...) {
    return capi::makeStatus(NT_INTERNAL, "internal error");
  }
}

nt_status invalid(const std::string &what) {
  return capi::makeStatus(NT_INVALID_ARGUMENT, what);
}

std::vector<rt::TensorArg> tensorArgs(const nt_tensor *params, size_t n) {
  std::vector<rt::TensorArg> args(n);
  for (size_t i = 0; i < n; ++i) {
    const nt_tensor &t = params[i];
    args[i].data = t.data;
    args[i].dtype = static_cast<rt::DType>(t.dtype);
    if (t.ndim > 0 && t.shape)
      args[i].shape.assign(t.shape, t.shape + t.ndim);
    if (t.ndim > 0 && t.strides)
      args[i].strides.assign(t.strides, t.strides + t.ndim);
  }
  return args;
}

/// Checks that each tensor is well formed enough to read.
nt_status checkTensors(const nt_tensor *params, size_t n) {
  if (n && !params)
    return invalid("the tensors are null");
  for (size_t i = 0; i < n; ++i) {
    if (params[i].ndim < 0 || (params[i].ndim > 0 && !params[i].shape))
      return invalid("tensor " + std::to_string(i) +
                     " has no shape for its ndim " +
                     std::to_string(params[i].ndim));
    if (static_cast<unsigned>(params[i].dtype) > NT_BOOL)
      return invalid("tensor " + std::to_string(i) + " has an unknown dtype");
  }
  return nullptr;
}

/// The program loaded on `device` (loading it at first use).
nt_status loadedOn(nt_device device, nt_program program,
                   capi::LoadedProgram *&out) {
  std::lock_guard<std::mutex> lock(program->mutex);
  std::unique_ptr<capi::LoadedProgram> &entry =
      program->loaded[device->device.get()];
  if (!entry) {
    std::unique_ptr<rt::LoadedKernel> kernel;
    if (std::string e = device->device->load(program->bundle, kernel);
        !e.empty()) {
      program->loaded.erase(device->device.get());
      return capi::makeStatus(NT_LAUNCH_ERROR, e);
    }
    entry = std::make_unique<capi::LoadedProgram>();
    entry->device = device->device;
    entry->kernel = std::move(kernel);
    entry->workspaces = std::make_unique<rt::WorkspacePool>(*device->device);
  }
  out = entry.get();
  return nullptr;
}

/// The device kinds other libraries registered (registerDeviceKind).
struct DeviceKinds {
  std::mutex mutex;
  std::map<std::string, capi::DeviceOpener> openers;
};

DeviceKinds &deviceKinds() {
  static DeviceKinds kinds;
  return kinds;
}

/// Opens `kind`: a registered kind, or one of the runtime's own.
std::string openNewDevice(const std::string &kind, int ordinal,
                          std::unique_ptr<rt::Device> &out) {
  capi::DeviceOpener opener = nullptr;
  {
    std::lock_guard<std::mutex> lock(deviceKinds().mutex);
    auto it = deviceKinds().openers.find(kind);
    if (it != deviceKinds().openers.end())
      opener = it->second;
  }
  if (opener)
    return opener(ordinal, out);
  if (kind == "emu")
    return "the emu device needs the JIT library (libnautilus_jit), which "
           "compiles the kernels' LLVM IR for the host; link Nautilus::jit";
  return rt::openDevice(kind, ordinal, out);
}

/// The device `kind` number `ordinal`: the one open already (every handle
/// shares it, and the programs loaded on it), or a new one.
std::string openAnyDevice(const std::string &kind, int ordinal,
                          std::shared_ptr<rt::Device> &out) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<rt::Device>> open;
  std::lock_guard<std::mutex> lock(mutex);
  std::weak_ptr<rt::Device> &slot = open[kind + ":" + std::to_string(ordinal)];
  if ((out = slot.lock()))
    return "";
  std::unique_ptr<rt::Device> device;
  if (std::string e = openNewDevice(kind, ordinal, device); !e.empty())
    return e;
  out = std::move(device);
  slot = out;
  return "";
}

/// A copy between the host and `d` by `method`, its pointers checked.
nt_status
copy(const char *what, nt_device d, void *dst, const void *src, size_t bytes,
     std::string (rt::Device::*method)(void *, const void *, size_t)) {
  return guarded([&]() -> nt_status {
    if (!d || ((!dst || !src) && bytes))
      return invalid(std::string(what) + ": null device or pointer");
    std::string e = ((*d->device).*method)(dst, src, bytes);
    return e.empty() ? nullptr : capi::makeStatus(NT_LAUNCH_ERROR, e);
  });
}

} // namespace

nt_status capi::makeStatus(nt_code code, std::string message) {
  if (code == NT_OK)
    return nullptr;
  return new nt_status_s{code, std::move(message)};
}

void capi::registerDeviceKind(const std::string &kind, DeviceOpener opener) {
  std::lock_guard<std::mutex> lock(deviceKinds().mutex);
  deviceKinds().openers[kind] = opener;
}

nt_program capi::makeProgram(rt::Bundle bundle, int cacheHit) {
  auto *p = new nt_program_s();
  p->bundle = std::move(bundle);
  p->cacheHit = cacheHit;
  return p;
}

extern "C" {

const char *nt_version(void) { return "nautilus 0.1"; }

nt_code nt_status_code(nt_status s) { return s ? s->code : NT_OK; }
const char *nt_status_message(nt_status s) {
  return s ? s->message.c_str() : "";
}
void nt_status_free(nt_status s) { delete s; }

nt_status nt_program_load(const void *bytes, size_t size, nt_program *out) {
  return guarded([&]() -> nt_status {
    if (!out || (!bytes && size))
      return invalid("nt_program_load: null bundle or result");
    rt::Bundle bundle;
    std::string error;
    if (!rt::readBundle(
            std::string_view(static_cast<const char *>(bytes), size), bundle,
            error))
      return capi::makeStatus(NT_CORRUPT, "not a valid bundle: " + error);
    *out = capi::makeProgram(std::move(bundle), 0);
    return nullptr;
  });
}

nt_status nt_program_load_file(const char *path, nt_program *out) {
  return guarded([&]() -> nt_status {
    if (!path || !out)
      return invalid("nt_program_load_file: null path or result");
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return capi::makeStatus(NT_NOT_FOUND,
                              std::string("cannot read '") + path + "'");
    std::string bytes((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
    nt_status s = nt_program_load(bytes.data(), bytes.size(), out);
    if (s)
      s->message = std::string(path) + ": " + s->message;
    return s;
  });
}

void nt_program_free(nt_program p) { delete p; }

const char *nt_program_kernel(nt_program p) {
  return p ? p->bundle.plan.kernel.c_str() : "";
}
const char *nt_program_target(nt_program p) {
  return p ? p->bundle.target.c_str() : "";
}
const char *nt_program_code(nt_program p, const char *kind) {
  if (!p || !kind || rt::isBinaryCodeKind(kind))
    return nullptr;
  auto it = p->bundle.code.find(kind);
  return it == p->bundle.code.end() ? nullptr : it->second.c_str();
}
const char *nt_program_explain(nt_program p) {
  return p ? p->bundle.explain.c_str() : "";
}
int nt_program_cache_hit(nt_program p) { return p ? p->cacheHit : 0; }

size_t nt_program_num_params(nt_program p) {
  return p ? rt::parameterBuffers(p->bundle.plan).size() : 0;
}

nt_status nt_program_param(nt_program p, size_t index, nt_param_info *out) {
  return guarded([&]() -> nt_status {
    if (!p || !out)
      return invalid("nt_program_param: null program or result");
    std::vector<const rt::BufferDesc *> params =
        rt::parameterBuffers(p->bundle.plan);
    if (index >= params.size())
      return invalid("kernel '" + p->bundle.plan.kernel + "' has " +
                     std::to_string(params.size()) + " parameters, not " +
                     std::to_string(index + 1));
    const rt::BufferDesc &b = *params[index];
    out->name = b.name.c_str();
    out->role = b.role == rt::BufferRole::Output   ? NT_OUTPUT
                : b.role == rt::BufferRole::Scalar ? NT_SCALAR
                                                   : NT_INPUT;
    out->dtype = static_cast<nt_dtype>(b.dtype);
    out->ndim = static_cast<int32_t>(b.dims.size());
    return nullptr;
  });
}

} // extern "C"

extern "C" {

nt_status nt_program_param_shape(nt_program p, const nt_tensor *inputs,
                                 size_t numInputs, size_t index,
                                 int64_t *shape) {
  return guarded([&]() -> nt_status {
    nt_param_info info;
    if (nt_status s = nt_program_param(p, index, &info))
      return s;
    if (nt_status s = checkTensors(inputs, numInputs))
      return s;
    if (!shape && info.ndim > 0)
      return invalid("nt_program_param_shape: null result");
    rt::SizeValues sizes;
    rt::DeviceLimits anyDevice; // a shape query checks no device's grid
    anyDevice.maxBlocks = INT64_MAX;
    if (std::string e = rt::bindSizes(
            p->bundle.plan, tensorArgs(inputs, numInputs), anyDevice, sizes);
        !e.empty())
      return invalid(e);
    std::vector<int64_t> extents =
        rt::extentsOf(*rt::parameterBuffers(p->bundle.plan)[index], sizes);
    std::copy(extents.begin(), extents.end(), shape);
    return nullptr;
  });
}

nt_status nt_device_open(const char *kind, int ordinal, nt_device *out) {
  return guarded([&]() -> nt_status {
    if (!kind || !out)
      return invalid("nt_device_open: null kind or result");
    std::shared_ptr<rt::Device> device;
    if (std::string e = openAnyDevice(kind, ordinal, device); !e.empty()) {
      std::string k = kind;
      nt_code code = NT_UNAVAILABLE; // no driver, or it failed
      if (e.rfind("unknown device", 0) == 0)
        code = NT_INVALID_ARGUMENT;
      else if (ordinal < 0 || e.rfind("there is", 0) == 0)
        code = NT_NOT_FOUND;
      return capi::makeStatus(code, e);
    }
    std::string description = device->description();
    *out = new nt_device_s{std::move(device), std::move(description)};
    return nullptr;
  });
}

void nt_device_free(nt_device d) { delete d; }

const char *nt_device_describe(nt_device d) {
  return d ? d->description.c_str() : "";
}

nt_status nt_device_alloc(nt_device d, size_t bytes, void **out) {
  if (!d || !out)
    return invalid("nt_device_alloc: null device or result");
  return guarded([&]() -> nt_status {
    std::string e = d->device->allocate(bytes, out);
    return e.empty() ? nullptr : capi::makeStatus(NT_LAUNCH_ERROR, e);
  });
}

void nt_device_free_memory(nt_device d, void *memory) {
  if (d)
    d->device->release(memory);
}

nt_status nt_device_copy_to_device(nt_device d, void *dst, const void *src,
                                   size_t bytes) {
  return copy("nt_device_copy_to_device", d, dst, src, bytes,
              &rt::Device::copyToDevice);
}

nt_status nt_device_copy_to_host(nt_device d, void *dst, const void *src,
                                 size_t bytes) {
  return copy("nt_device_copy_to_host", d, dst, src, bytes,
              &rt::Device::copyToHost);
}

nt_status nt_launch(nt_device d, nt_program p, const nt_tensor *params,
                    size_t numParams, void *stream) {
  return guarded([&]() -> nt_status {
    if (!d || !p)
      return invalid("nt_launch: null device or program");
    if (nt_status s = checkTensors(params, numParams))
      return s;
    rt::Device &device = *d->device;
    const rt::LaunchPlan &plan = p->bundle.plan;
    if (std::string e = device.accepts(p->bundle); !e.empty())
      return capi::makeStatus(NT_LAUNCH_ERROR, e);
    rt::SizeValues sizes;
    if (std::string e = rt::checkLaunch(plan, tensorArgs(params, numParams),
                                        device.limits(), sizes);
        !e.empty())
      return capi::makeStatus(NT_LAUNCH_ERROR, e);
    capi::LoadedProgram *loaded = nullptr;
    if (nt_status s = loadedOn(d, p, loaded))
      return s;
    // Every buffer in plan order: the caller's, and the workspaces this
    // program keeps for the stream.
    std::lock_guard<std::mutex> lock(loaded->launchMutex);
    std::vector<size_t> workspaceBytes;
    for (const rt::BufferDesc &b : plan.buffers)
      if (b.role == rt::BufferRole::Workspace)
        workspaceBytes.push_back(rt::bytesOf(b, sizes));
    std::vector<void *> workspaces;
    if (std::string e =
            loaded->workspaces->acquire(stream, workspaceBytes, workspaces);
        !e.empty())
      return capi::makeStatus(NT_LAUNCH_ERROR, "workspaces: " + e);
    std::vector<rt::BufferView> buffers;
    size_t nextParam = 0, nextWorkspace = 0;
    for (const rt::BufferDesc &b : plan.buffers) {
      void *data = b.role == rt::BufferRole::Workspace
                       ? workspaces[nextWorkspace++]
                       : params[nextParam++].data;
      buffers.push_back({data, rt::extentsOf(b, sizes)});
    }
    std::string e = loaded->kernel->launch(buffers, sizes, stream);
    return e.empty() ? nullptr : capi::makeStatus(NT_LAUNCH_ERROR, e);
  });
}

} // extern "C"
