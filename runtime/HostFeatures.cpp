//===- HostFeatures.cpp - The x86 features a host library needs -----------===//
#include "runtime/HostFeatures.h"

#include <cstring>

namespace nautilus::rt {

const char *const kCheckedHostFeatures[] = {
    "avx",        "avx2",       "fma",       "f16c",     "bmi2",
    "avx512f",    "avx512bw",   "avx512vl",  "avx512dq", "avx512vnni",
    "avx512vbmi", "avx512bf16", "avx512fp16"};
const size_t kNumCheckedHostFeatures =
    sizeof kCheckedHostFeatures / sizeof kCheckedHostFeatures[0];

namespace {

/// Whether this machine has `name` (false for a name not checked).
bool hasFeature(const std::string &name) {
#if defined(__x86_64__) || defined(__i386__)
  // __builtin_cpu_supports takes a literal: one test a name.
  struct Test {
    const char *name;
    bool present;
  };
  static const Test tests[] = {
      {"avx", bool(__builtin_cpu_supports("avx"))},
      {"avx2", bool(__builtin_cpu_supports("avx2"))},
      {"fma", bool(__builtin_cpu_supports("fma"))},
      {"f16c", bool(__builtin_cpu_supports("f16c"))},
      {"bmi2", bool(__builtin_cpu_supports("bmi2"))},
      {"avx512f", bool(__builtin_cpu_supports("avx512f"))},
      {"avx512bw", bool(__builtin_cpu_supports("avx512bw"))},
      {"avx512vl", bool(__builtin_cpu_supports("avx512vl"))},
      {"avx512dq", bool(__builtin_cpu_supports("avx512dq"))},
      {"avx512vnni", bool(__builtin_cpu_supports("avx512vnni"))},
      {"avx512vbmi", bool(__builtin_cpu_supports("avx512vbmi"))},
      {"avx512bf16", bool(__builtin_cpu_supports("avx512bf16"))},
      {"avx512fp16", bool(__builtin_cpu_supports("avx512fp16"))}};
  for (const Test &t : tests)
    if (name == t.name)
      return t.present;
#endif
  return false;
}

} // namespace

std::string missingHostFeatures(const std::vector<std::string> &required) {
  std::string missing;
  for (const std::string &f : required)
    if (!hasFeature(f))
      missing += (missing.empty() ? "" : ", ") + f;
  return missing;
}

} // namespace nautilus::rt
