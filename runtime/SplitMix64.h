//===- SplitMix64.h - A seeded generator, the same everywhere ---*- C++ -*-===//
//
// SplitMix64 (Steele, Lea and Flood): a 64-bit generator whose sequence is
// fixed by its seed on every platform, as the standard library's
// distributions are not. Random inputs of a run (compiler/Pipeline/
// RandomInputs) and the auto-scheduler's evolutionary search draw from it.
// Plain C++, header only.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_SPLITMIX64_H
#define NAUTILUS_RUNTIME_SPLITMIX64_H

#include <cstddef>
#include <cstdint>

namespace nautilus::rt {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// In [0, n) (n > 0).
  size_t below(size_t n) { return size_t(next() % n); }
  /// In [0, 1), of 53 random bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }

private:
  uint64_t state;
};

} // namespace nautilus::rt

#endif
