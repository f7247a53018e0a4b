// Half-precision conversions for the examples' inputs and outputs
// (round to nearest even; no NaN inputs here).
#ifndef NAUTILUS_EXAMPLES_EMBED_HALF_H
#define NAUTILUS_EXAMPLES_EMBED_HALF_H

#include <cmath>
#include <cstdint>
#include <cstring>

inline uint16_t toBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

inline float fromBF16(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// IEEE binary16 of a value that is a normal half or zero (the examples'
/// inputs are: small multiples of 1/64).
inline uint16_t toF16(float f) {
  if (f == 0)
    return 0;
  int exponent;
  float mantissa = std::frexp(std::fabs(f), &exponent); // [0.5, 1)
  uint32_t m = static_cast<uint32_t>(std::lround((mantissa * 2 - 1) * 1024));
  uint32_t e = static_cast<uint32_t>(exponent - 1 + 15);
  if (m == 1024) { // rounded up to the next power of two
    m = 0;
    ++e;
  }
  return static_cast<uint16_t>((f < 0 ? 0x8000u : 0u) | e << 10 | m);
}

#endif
