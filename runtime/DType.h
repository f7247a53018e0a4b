//===- DType.h - Element types of runtime tensors ---------------*- C++ -*-===//
//
// The element types Nautilus tensors can hold at run time, their names and
// sizes, and the value conversions between them: bit-exact half-precision
// (IEEE binary16 and bfloat16) encoding/decoding and the "store then read
// back" rounding used when a double is written into a tensor of some dtype.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef NAUTILUS_RUNTIME_DTYPE_H
#define NAUTILUS_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nautilus::rt {

enum class DType { F16, BF16, F32, F64, I8, I32, I64, Bool };

/// "f16", "bf16", "f32", "f64", "i8", "i32", "i64" or "bool".
const char *dtypeName(DType t);

/// Inverse of dtypeName; std::nullopt for any other string.
std::optional<DType> parseDType(std::string_view name);

/// Storage size of one element in bytes (Bool is one byte holding 0 or 1).
size_t dtypeSize(DType t);

/// True for F16, BF16, F32 and F64.
bool isFloat(DType t);

/// True for I8, I32 and I64 only; Bool is neither float nor integer.
bool isInteger(DType t);

//===----------------------------------------------------------------------===//
// Half-precision encodings. All rounding is round-to-nearest, ties-to-even;
// overflow rounds to infinity; NaNs stay NaN (sign and the top payload bits
// are kept, and the result is made quiet when narrowing).
//===----------------------------------------------------------------------===//

uint16_t floatToBF16Bits(float f);
float bf16BitsToFloat(uint16_t bits);

/// IEEE 754 binary16, with correctly rounded subnormals.
uint16_t floatToF16Bits(float f);
float f16BitsToFloat(uint16_t bits);

/// Correctly rounded (single rounding) conversions straight from double.
/// Going double -> float -> half would round twice and can be off by one ulp
/// at ties; these go through float with round-to-odd, which is exact.
uint16_t doubleToBF16Bits(double d);
uint16_t doubleToF16Bits(double d);

/// double -> float, round to nearest even, overflow to +-inf (without the
/// undefined behaviour of a plain cast of an out-of-range value).
float doubleToFloat(double d);

//===----------------------------------------------------------------------===//
// Storing doubles into a dtype.
//===----------------------------------------------------------------------===//

/// Integer conversion for I8/I32/I64 (and Bool): truncates toward zero like a
/// C cast, saturates to the type's range, NaN -> 0. For Bool: v != 0 (so NaN
/// is true, as in C). Must not be called with a float dtype.
int64_t doubleToIntSaturating(double v, DType t);

/// The value v as it would be stored in a tensor of dtype t and read back as
/// a double:
///   f64: v;  f32: nearest float;  f16/bf16: nearest half (single rounding,
///   see doubleToF16Bits);  integers: doubleToIntSaturating;  bool: 1 or 0.
/// Note that an i64 result may not be exactly representable as a double
/// (e.g. saturation to INT64_MAX reads back as 2^63).
double roundToDType(double v, DType t);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_DTYPE_H
