//===- nautilus/nautilus.hpp - The Nautilus C++ API -------------*- C++ -*-===//
//
// RAII over the C API (nautilus.h): Program, Device and Tensor views; every
// failure throws nautilus::Error, which carries the C API's code and
// message, so no error can pass unnoticed. Header-only: link
// Nautilus::runtime (Program::load, Device, launch) or Nautilus::jit
// (Program::compile as well).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_NAUTILUS_HPP
#define NAUTILUS_NAUTILUS_HPP

#include "nautilus.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nautilus {

class Error : public std::runtime_error {
public:
  Error(nt_code code, const std::string &message)
      : std::runtime_error(message), errorCode(code) {}
  nt_code code() const { return errorCode; }

private:
  nt_code errorCode;
};

/// Throws the error `status` holds (and frees it); nothing for success.
inline void check(nt_status status) {
  if (!status)
    return;
  Error error(nt_status_code(status), nt_status_message(status));
  nt_status_free(status);
  throw error;
}

/// A view of a tensor: data, dtype and extents (row-major, contiguous).
struct Tensor {
  void *data = nullptr;
  nt_dtype dtype = NT_F32;
  std::vector<int64_t> shape;

  Tensor() = default;
  Tensor(void *data, nt_dtype dtype, std::vector<int64_t> shape)
      : data(data), dtype(dtype), shape(std::move(shape)) {}
  Tensor(float *data, std::vector<int64_t> shape)
      : Tensor(data, NT_F32, std::move(shape)) {}

  nt_tensor raw() const {
    return {data, dtype, static_cast<int32_t>(shape.size()), shape.data(),
            nullptr};
  }
};

class Device {
public:
  /// "cpu", "cuda", "hip" or "emu"; throws Error (NT_UNAVAILABLE without a
  /// driver).
  [[nodiscard]] static Device open(const std::string &kind, int ordinal = 0) {
    nt_device d = nullptr;
    check(nt_device_open(kind.c_str(), ordinal, &d));
    return Device(d);
  }
  std::string describe() const { return nt_device_describe(handle.get()); }
  nt_device get() const { return handle.get(); }

  [[nodiscard]] void *alloc(size_t bytes) {
    void *p = nullptr;
    check(nt_device_alloc(handle.get(), bytes, &p));
    return p;
  }
  void free(void *memory) { nt_device_free_memory(handle.get(), memory); }
  void copyToDevice(void *dst, const void *src, size_t bytes) {
    check(nt_device_copy_to_device(handle.get(), dst, src, bytes));
  }
  void copyToHost(void *dst, const void *src, size_t bytes) {
    check(nt_device_copy_to_host(handle.get(), dst, src, bytes));
  }

private:
  explicit Device(nt_device d) : handle(d, nt_device_free) {}
  std::shared_ptr<struct nt_device_s> handle;
};

/// What Program::compile takes (nt_compile_options).
struct CompileOptions {
  std::string source; // the source text, or empty and:
  std::string path;   // a .tensor file
  std::string kernel;
  std::string target = "cpu";
  std::string shapes; // "N=128,D=64"
  std::string schedule = "default";
  std::string cacheDir;
  uint32_t flags = 0; // NT_COMPILE_*
  bool explain = false;
  bool kernelIR = false; // NVIDIA targets: runnable on the emu device too
};

class Program {
public:
  /// A bundle's bytes (copied).
  [[nodiscard]] static Program load(const void *bytes, size_t size) {
    nt_program p = nullptr;
    check(nt_program_load(bytes, size, &p));
    return Program(p);
  }
  [[nodiscard]] static Program loadFile(const std::string &path) {
    nt_program p = nullptr;
    check(nt_program_load_file(path.c_str(), &p));
    return Program(p);
  }
  /// Needs Nautilus::jit.
  [[nodiscard]] static Program compile(const CompileOptions &o) {
    auto orNull = [](const std::string &s) {
      return s.empty() ? nullptr : s.c_str();
    };
    nt_compile_options raw{sizeof(nt_compile_options),
                           orNull(o.source),
                           orNull(o.path),
                           orNull(o.kernel),
                           orNull(o.target),
                           orNull(o.shapes),
                           orNull(o.schedule),
                           orNull(o.cacheDir),
                           o.flags | (o.kernelIR ? NT_COMPILE_KERNEL_IR : 0u),
                           o.explain ? 1 : 0};
    nt_program p = nullptr;
    check(nt_compile(&raw, &p));
    return Program(p);
  }

  std::string kernel() const { return nt_program_kernel(handle.get()); }
  std::string target() const { return nt_program_target(handle.get()); }
  std::string explain() const { return nt_program_explain(handle.get()); }
  /// The code of a text kind ("ptx"); empty when there is none.
  std::string code(const std::string &kind) const {
    const char *c = nt_program_code(handle.get(), kind.c_str());
    return c ? c : "";
  }
  int cacheHit() const { return nt_program_cache_hit(handle.get()); }

  std::vector<nt_param_info> params() const {
    std::vector<nt_param_info> out(nt_program_num_params(handle.get()));
    for (size_t i = 0; i < out.size(); ++i)
      check(nt_program_param(handle.get(), i, &out[i]));
    return out;
  }
  /// The extents of parameter `index` for these inputs and scalars.
  std::vector<int64_t> paramShape(const std::vector<Tensor> &inputs,
                                  size_t index) const {
    std::vector<nt_tensor> raw;
    for (const Tensor &t : inputs)
      raw.push_back(t.raw());
    nt_param_info info;
    check(nt_program_param(handle.get(), index, &info));
    std::vector<int64_t> shape(static_cast<size_t>(info.ndim));
    check(nt_program_param_shape(handle.get(), raw.data(), raw.size(), index,
                                 shape.data()));
    return shape;
  }

  /// Checks and launches on `device` with every parameter in order.
  void launch(Device &device, const std::vector<Tensor> &params,
              void *stream = nullptr) const {
    std::vector<nt_tensor> raw;
    for (const Tensor &t : params)
      raw.push_back(t.raw());
    check(
        nt_launch(device.get(), handle.get(), raw.data(), raw.size(), stream));
  }

  nt_program get() const { return handle.get(); }

private:
  explicit Program(nt_program p) : handle(p, nt_program_free) {}
  std::shared_ptr<struct nt_program_s> handle;
};

} // namespace nautilus

#endif // NAUTILUS_NAUTILUS_HPP
