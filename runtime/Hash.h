//===- Hash.h - FNV-1a, the runtime's checksum ------------------*- C++ -*-===//
//
// The 64-bit FNV-1a hash (Fowler, Noll, Vo): what bundles (Bundle.h) carry
// as their checksum. It detects truncation and accidental edits, not
// tampering: it is no cryptographic hash. Plain C++17.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_HASH_H
#define NAUTILUS_RUNTIME_HASH_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace nautilus::rt {

constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnv1a64Prime = 0x100000001b3ull;

/// FNV-1a 64 of `bytes`, continuing from `hash` (the offset basis to start).
inline uint64_t fnv1a64(std::string_view bytes,
                        uint64_t hash = kFnv1a64Offset) {
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnv1a64Prime;
  }
  return hash;
}

/// `hash` as 16 lower-case hexadecimal digits.
inline std::string hex64(uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_HASH_H
