//===- DType.cpp - Element types of runtime tensors -----------------------===//

#include "runtime/DType.h"

#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace nautilus::rt {

namespace {

uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float bitsToFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

/// double -> float rounding to odd: an inexact result is the neighbour of the
/// truncated value whose last mantissa bit is 1. Rounding that float once more
/// to a format with at least two fewer significand bits (f16, bf16) gives the
/// same result as rounding the double directly, so the two-step conversion
/// rounds only once.
float doubleToFloatRoundToOdd(double d) {
  float f = doubleToFloat(d);
  if (std::isnan(d) || static_cast<double>(f) == d)
    return f;
  uint32_t b = floatBits(f);
  if ((b & 1u) == 0) {
    // f is the even neighbour; step one ulp (in sign-magnitude) toward d.
    b = std::fabs(static_cast<double>(f)) > std::fabs(d) ? b - 1 : b + 1;
  }
  return bitsToFloat(b);
}

/// Shift `m` right by `shift` (1..31) bits, rounding to nearest, ties to even.
uint32_t shiftRightRoundEven(uint32_t m, unsigned shift) {
  uint32_t r = m >> shift;
  uint32_t rem = m & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (r & 1u)))
    ++r;
  return r;
}

} // namespace

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I8:
    return "i8";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::Bool:
    return "bool";
  }
  return "<invalid dtype>";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I8,
                  DType::I32, DType::I64, DType::Bool})
    if (name == dtypeName(t))
      return t;
  return std::nullopt;
}

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::I8:
  case DType::Bool:
    return 1;
  }
  return 0;
}

bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
         t == DType::F64;
}

bool isInteger(DType t) {
  return t == DType::I8 || t == DType::I32 || t == DType::I64;
}

//===----------------------------------------------------------------------===//
// bfloat16: the top 16 bits of a float.
//===----------------------------------------------------------------------===//

uint16_t floatToBF16Bits(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) // NaN: truncate, force the quiet bit.
    return static_cast<uint16_t>((x >> 16) | 0x0040u);
  // Adding 0x7FFF (+1 when the kept part is odd) carries into bit 16 exactly
  // when the dropped half is above the midpoint (or at it, for odd values).
  // A carry out of the mantissa bumps the exponent, which also turns values
  // past the largest finite bf16 into infinity.
  uint32_t lsb = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7FFFu + lsb) >> 16);
}

float bf16BitsToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

//===----------------------------------------------------------------------===//
// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
//===----------------------------------------------------------------------===//

uint16_t floatToF16Bits(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t a = x & 0x7FFFFFFFu; // |f| as bits

  if (a > 0x7F800000u) // NaN: keep the top payload bits, force quiet.
    return sign | static_cast<uint16_t>(0x7E00u | ((a >> 13) & 0x03FFu));
  // |f| >= 65520 (= 65504 + half an ulp, a tie that goes to the even
  // neighbour, infinity) and infinity itself.
  if (a >= 0x477FF000u)
    return sign | 0x7C00u;

  if (a >= 0x38800000u) { // |f| >= 2^-14: a normal half.
    // Rebias the exponent (127 -> 15) and drop 13 mantissa bits. A carry from
    // rounding propagates into the exponent, as it should.
    uint32_t h = (a - (112u << 23)) >> 13;
    uint32_t rem = a & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
      ++h;
    return sign | static_cast<uint16_t>(h);
  }

  // Subnormal half: value = m * 2^-24 with m in [0, 1023]. |f| <= 2^-25 is at
  // most half of the smallest subnormal and rounds to (signed) zero; 2^-25
  // itself is a tie and goes to the even neighbour, zero.
  if (a <= 0x33000000u)
    return sign;
  uint32_t exp = a >> 23;                      // 102 .. 112
  uint32_t mant = (a & 0x7FFFFFu) | 0x800000u; // |f| = mant * 2^(exp-150)
  // In units of 2^-24, |f| = mant * 2^(exp-126), so shift right by 126-exp.
  // Rounding up to 0x400 yields the smallest normal's encoding, correctly.
  return sign | static_cast<uint16_t>(shiftRightRoundEven(mant, 126 - exp));
}

float f16BitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1Fu;
  uint32_t mant = bits & 0x3FFu;
  if (exp == 0x1F) // Inf / NaN (payload kept as is).
    return bitsToFloat(sign | 0x7F800000u | (mant << 13));
  if (exp == 0) { // Zero / subnormal: mant * 2^-24, exact in float.
    float mag = static_cast<float>(mant) * 0x1p-24f;
    return bitsToFloat(sign | floatBits(mag));
  }
  return bitsToFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

//===----------------------------------------------------------------------===//
// From double.
//===----------------------------------------------------------------------===//

float doubleToFloat(double d) {
  if (std::isnan(d))
    return static_cast<float>(d);
  // FLT_MAX + half an ulp = 2^128 - 2^103; the tie rounds to even (infinity).
  constexpr double kOverflow = 0x1.ffffffp127;
  double mag = std::fabs(d);
  float limit =
      mag >= kOverflow ? std::numeric_limits<float>::infinity() : FLT_MAX;
  if (mag > static_cast<double>(FLT_MAX))
    return d < 0 ? -limit : limit;
  return static_cast<float>(d);
}

uint16_t doubleToBF16Bits(double d) {
  return floatToBF16Bits(doubleToFloatRoundToOdd(d));
}

uint16_t doubleToF16Bits(double d) {
  return floatToF16Bits(doubleToFloatRoundToOdd(d));
}

int64_t doubleToIntSaturating(double v, DType t) {
  int64_t lo, hi;
  switch (t) {
  case DType::Bool:
    return v != 0 ? 1 : 0;
  case DType::I8:
    lo = std::numeric_limits<int8_t>::min();
    hi = std::numeric_limits<int8_t>::max();
    break;
  case DType::I32:
    lo = std::numeric_limits<int32_t>::min();
    hi = std::numeric_limits<int32_t>::max();
    break;
  case DType::I64:
    lo = std::numeric_limits<int64_t>::min();
    hi = std::numeric_limits<int64_t>::max();
    break;
  default:
    assert(false && "doubleToIntSaturating needs an integer or bool dtype");
    return 0;
  }
  if (std::isnan(v))
    return 0;
  double tr = std::trunc(v);
  // For i64, double(hi) is 2^63 (hi itself is not representable), so the
  // comparisons also catch every value that would overflow the cast.
  if (tr >= static_cast<double>(hi))
    return hi;
  if (tr <= static_cast<double>(lo))
    return lo;
  return static_cast<int64_t>(tr);
}

double roundToDType(double v, DType t) {
  switch (t) {
  case DType::F64:
    return v;
  case DType::F32:
    return doubleToFloat(v);
  case DType::BF16:
    return bf16BitsToFloat(doubleToBF16Bits(v));
  case DType::F16:
    return f16BitsToFloat(doubleToF16Bits(v));
  case DType::I8:
  case DType::I32:
  case DType::I64:
  case DType::Bool:
    return static_cast<double>(doubleToIntSaturating(v, t));
  }
  return v;
}

} // namespace nautilus::rt
