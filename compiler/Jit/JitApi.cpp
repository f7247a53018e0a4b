//===- JitApi.cpp - The JIT's half of the C API: nt_compile ---------------===//
#include "compiler/Jit/Jit.h"
#include "runtime/api/Handles.h"

using namespace nautilus;

extern "C" nt_status nt_compile(const nt_compile_options *options,
                                nt_program *out) {
  try {
    if (!options || !out)
      return capi::makeStatus(NT_INVALID_ARGUMENT,
                              "nt_compile: null options or result");
    if (options->struct_size < sizeof(nt_compile_options))
      return capi::makeStatus(NT_INVALID_ARGUMENT,
                              "nt_compile: options.struct_size is " +
                                  std::to_string(options->struct_size) +
                                  "; set it to "
                                  "sizeof(nt_compile_options) (" +
                                  std::to_string(sizeof(nt_compile_options)) +
                                  ")");
    auto text = [](const char *s, const char *otherwise) {
      return std::string(s ? s : otherwise);
    };
    JitRequest request;
    request.source = text(options->source, "");
    request.path = text(options->path, "");
    request.kernel = text(options->kernel, "");
    request.target = text(options->target, "cpu");
    request.shapes = text(options->shapes, "");
    request.schedule = text(options->schedule, "default");
    request.cacheDir = text(options->cache_dir, "");
    request.memoryCache = !(options->flags & NT_COMPILE_NO_CACHE);
    request.diskCache = !(options->flags & NT_COMPILE_NO_DISK_CACHE);
    request.explain = options->explain != 0;
    request.kernelIR = (options->flags & NT_COMPILE_KERNEL_IR) != 0;
    request.verify = !(options->flags & NT_COMPILE_NO_VERIFY);
    JitResult result;
    std::string error;
    if (nt_code code = jitCompile(request, result, error); code != NT_OK)
      return capi::makeStatus(code, error);
    *out = capi::makeProgram(std::move(result.bundle), result.cacheHit);
    return nullptr;
  } catch (const std::exception &e) {
    return capi::makeStatus(NT_INTERNAL,
                            std::string("internal error: ") + e.what());
  } catch (...) {
    return capi::makeStatus(NT_INTERNAL, "internal error");
  }
}
