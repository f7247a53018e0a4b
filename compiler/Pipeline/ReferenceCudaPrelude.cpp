//===- ReferenceCudaPrelude.cpp - The reference kernels' prelude ----------===//
//
// The text every reference source starts with (ReferenceCudaBody.h). Under
// NVRTC or nvcc (__CUDACC__) it is CUDA C++ and needs no header; elsewhere
// it is host C++: `__global__` means nothing and the thread and block
// indices are globals that each kernel's host launcher sets. The f16 and
// bf16 conversions are written with frexp, ldexp and rint alone, so that
// both compile them the same way: round to nearest even, subnormals kept,
// overflow to infinity (runtime/DType.h's).
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/ReferenceCudaBody.h"

const char *nautilus::referenceCudaPrelude() {
  return R"(#if defined(__CUDACC__)
#define NAUTILUS_FN __device__ __forceinline__
#define NAUTILUS_INF __longlong_as_double(0x7ff0000000000000LL)
#define NAUTILUS_NAN __longlong_as_double(0x7ff8000000000000LL)
#else
#include <math.h>
#define __global__
#define NAUTILUS_FN inline
#define NAUTILUS_INF ((double)INFINITY)
#define NAUTILUS_NAN ((double)NAN)
struct nautilus_dim3 { unsigned x, y, z; };
static nautilus_dim3 threadIdx, blockIdx, blockDim, gridDim;
#endif
#define NAUTILUS_INFF ((float)NAUTILUS_INF)
#define NAUTILUS_NANF ((float)NAUTILUS_NAN)

// Integers wrap (two's complement); a division by zero gives 0.
NAUTILUS_FN long long nautilus_add(long long a, long long b) {
  return (long long)((unsigned long long)a + (unsigned long long)b);
}
NAUTILUS_FN long long nautilus_sub(long long a, long long b) {
  return (long long)((unsigned long long)a - (unsigned long long)b);
}
NAUTILUS_FN long long nautilus_mul(long long a, long long b) {
  return (long long)((unsigned long long)a * (unsigned long long)b);
}
NAUTILUS_FN long long nautilus_floordiv(long long a, long long b) {
  if (b == 0) return 0;
  if (b == -1) return nautilus_sub(0, a);
  long long q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
NAUTILUS_FN long long nautilus_floormod(long long a, long long b) {
  return b == 0 ? 0 : nautilus_sub(a, nautilus_mul(nautilus_floordiv(a, b), b));
}
NAUTILUS_FN long long nautilus_rem(long long a, long long b) {
  return (b == 0 || b == -1) ? 0 : a % b;
}
NAUTILUS_FN bool nautilus_in(long long index, long long extent) {
  return (unsigned long long)index < (unsigned long long)extent;
}
// Saturating, NaN to 0.
NAUTILUS_FN long long nautilus_fptosi(double v) {
  if (v != v) return 0;
  if (v >= 9.2233720368547758e18) return 9223372036854775807LL;
  if (v <= -9.2233720368547758e18) return -9223372036854775807LL - 1;
  return (long long)v;
}
// max and min that propagate NaN.
NAUTILUS_FN float nautilus_maximum(float a, float b) {
  return (a != a || b != b) ? NAUTILUS_NANF : (a > b ? a : b);
}
NAUTILUS_FN double nautilus_maximum(double a, double b) {
  return (a != a || b != b) ? NAUTILUS_NAN : (a > b ? a : b);
}
NAUTILUS_FN float nautilus_minimum(float a, float b) {
  return (a != a || b != b) ? NAUTILUS_NANF : (a < b ? a : b);
}
NAUTILUS_FN double nautilus_minimum(double a, double b) {
  return (a != a || b != b) ? NAUTILUS_NAN : (a < b ? a : b);
}

// x rounded to a binary format of `mant` fraction bits, normal exponents
// from `minExp`, largest finite value `maxFinite`.
NAUTILUS_FN double nautilus_round_to(double x, int mant, int minExp,
                                     double maxFinite) {
  if (x != x || x == 0 || fabs(x) == NAUTILUS_INF) return x;
  int e;
  frexp(x, &e);
  int q = (e - 1 > minExp ? e - 1 : minExp) - mant;
  double r = copysign(ldexp(rint(ldexp(x, -q)), q), x);
  return fabs(r) > maxFinite ? copysign(NAUTILUS_INF, x) : r;
}
NAUTILUS_FN float nautilus_round_f16(double x) {
  return (float)nautilus_round_to(x, 10, -14, 65504.0);
}
NAUTILUS_FN float nautilus_round_bf16(double x) {
  return (float)nautilus_round_to(x, 7, -126, 3.3895313892515355e38);
}
// The value of a 16-bit encoding, and the encoding of a value the format
// represents.
NAUTILUS_FN float nautilus_half_value(unsigned bits, int mant, int expBits) {
  unsigned top = (1u << expBits) - 1u;
  unsigned e = (bits >> mant) & top, m = bits & ((1u << mant) - 1u);
  int bias = (int)(top >> 1);
  float v;
  if (e == top) v = m ? NAUTILUS_NANF : NAUTILUS_INFF;
  else if (e == 0) v = ldexpf((float)m, 1 - bias - mant);
  else v = ldexpf((float)(m | (1u << mant)), (int)e - bias - mant);
  return ((bits >> (mant + expBits)) & 1u) ? -v : v;
}
NAUTILUS_FN unsigned short nautilus_half_bits(double v, int mant, int expBits) {
  unsigned top = (1u << expBits) - 1u, bits;
  int bias = (int)(top >> 1);
  double a = fabs(v);
  if (a != a) {
    bits = (top << mant) | (1u << (mant - 1));
  } else if (a == NAUTILUS_INF) {
    bits = top << mant;
  } else if (a == 0) {
    bits = 0;
  } else {
    int e;
    frexp(a, &e);
    if (e - 1 < 1 - bias)
      bits = (unsigned)ldexp(a, bias - 1 + mant);
    else
      bits = ((unsigned)(e - 1 + bias) << mant) |
             ((unsigned)ldexp(a, mant - (e - 1)) - (1u << mant));
  }
  if (copysign(1.0, v) < 0) bits |= 1u << (mant + expBits);
  return (unsigned short)bits;
}
NAUTILUS_FN float nautilus_f16(unsigned short b) { return nautilus_half_value(b, 10, 5); }
NAUTILUS_FN float nautilus_bf16(unsigned short b) { return nautilus_half_value(b, 7, 8); }
NAUTILUS_FN unsigned short nautilus_f16_bits(double v) {
  return nautilus_half_bits(nautilus_round_to(v, 10, -14, 65504.0), 10, 5);
}
NAUTILUS_FN unsigned short nautilus_bf16_bits(double v) {
  return nautilus_half_bits(
      nautilus_round_to(v, 7, -126, 3.3895313892515355e38), 7, 8);
}
)";
}
