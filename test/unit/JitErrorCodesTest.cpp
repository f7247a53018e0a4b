//===- JitErrorCodesTest.cpp - What nt_compile's failures are called ------===//
//
// nautilus.h's codes for a compile that cannot start: the source is wrong
// (NT_COMPILE_ERROR), the kernel asked for is not in it (NT_NOT_FOUND),
// the request is (several kernels and none named, shapes that do not bind:
// NT_INVALID_ARGUMENT).
//
//===----------------------------------------------------------------------===//
#include "nautilus.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kTwoKernels = "kernel a(X: f32[N]) -> (Y: f32[N]) {\n"
                          "  Y[n] = X[n] * 2.0\n}\n"
                          "kernel b(X: f32[N]) -> (Y: f32[N]) {\n"
                          "  Y[n] = X[n] + 1.0\n}\n";

/// nt_compile's code and message for `source`, uncached.
std::pair<nt_code, std::string> compileCode(const char *source,
                                            const char *kernel,
                                            const char *shapes = nullptr) {
  nt_compile_options options = {};
  options.struct_size = sizeof options;
  options.source = source;
  options.kernel = kernel;
  options.shapes = shapes;
  options.flags = NT_COMPILE_NO_CACHE;
  nt_program program = nullptr;
  nt_status s = nt_compile(&options, &program);
  std::pair<nt_code, std::string> out{nt_status_code(s), nt_status_message(s)};
  nt_status_free(s);
  nt_program_free(program);
  return out;
}

} // namespace

TEST(JitErrorCodes, NameWhatFailed) {
  EXPECT_EQ(compileCode(kTwoKernels, "b").first, NT_OK);
  auto [missing, missingText] = compileCode(kTwoKernels, "c");
  EXPECT_EQ(missing, NT_NOT_FOUND) << missingText;
  EXPECT_NE(missingText.find("has no kernel 'c' (its kernels: a, b)"),
            std::string::npos)
      << missingText;
  auto [unnamed, unnamedText] = compileCode(kTwoKernels, nullptr);
  EXPECT_EQ(unnamed, NT_INVALID_ARGUMENT) << unnamedText;
  auto [unbound, unboundText] = compileCode(kTwoKernels, "a", "Q=4");
  EXPECT_EQ(unbound, NT_INVALID_ARGUMENT) << unboundText;
  EXPECT_EQ(compileCode("kernel a(X: f32[N]) -> (Y: f32[N]) {\n  Y[n] =\n}\n",
                        nullptr)
                .first,
            NT_COMPILE_ERROR);
}
