//===- Npy.h - Reading and writing numpy .npy files -------------*- C++ -*-===//
//
// The .npy format (numpy/lib/format.py): the magic "\x93NUMPY", a version
// byte pair, a little-endian header length (2 bytes in version 1.0, 4 in 2.0
// and 3.0), then an ASCII Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and a '\n' so the data starts at a multiple of 64 bytes,
// then the raw element data.
//
// Supported numpy dtypes and the Nautilus dtypes they map to:
//   '<f2' f16   '<f4' f32   '<f8' f64   '|i1' i8   '<i4' i32   '<i8' i64
//   '|b1' bool
// bf16 has no numpy dtype: it is written as '<f4' (an exact widening) and
// read back with readNpyAs(..., DType::BF16, ...).
// Only C-order, little-endian data is supported. Reading accepts versions
// 1.0, 2.0 and 3.0; writing produces exactly numpy's bytes (version 1.0, or
// 2.0 when the header is longer than 65535 bytes).
//
// The reader treats its input as untrusted: it never reads out of bounds and
// allocates only after checking that the shape's byte size equals the data
// actually present.
//
// All functions return false on failure and set `error` to a message that
// starts with the file name; `out` is left untouched then.
//
//===----------------------------------------------------------------------===//

#ifndef NAUTILUS_RUNTIME_NPY_H
#define NAUTILUS_RUNTIME_NPY_H

#include "runtime/HostTensor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nautilus::rt {

/// Reads a .npy file into a tensor of the dtype the file holds.
bool readNpy(const std::string &path, HostTensor &out, std::string &error);

/// Reads a .npy file and converts it to `want`. If `expectShape` is non-null,
/// the file's shape must equal it. Allowed conversions:
///  - any dtype to itself;
///  - float to float (f16/f32/f64 files to f16/bf16/f32/f64), rounding to
///    nearest even with a single rounding, where every finite value stays
///    finite (else an error naming it; infinities and NaNs pass through);
///  - integer to integer when every value fits (else an error naming it);
///  - integer to float when every value is exactly representable.
/// Anything else (e.g. float data into an integer dtype, bool to non-bool)
/// is an error.
bool readNpyAs(const std::string &path, DType want,
               const std::vector<int64_t> *expectShape, HostTensor &out,
               std::string &error);

/// Writes `t` as a .npy file (BF16 tensors as '<f4').
bool writeNpy(const std::string &path, const HostTensor &t, std::string &error);

/// Like readNpy, from `size` bytes in memory; `name` is used in messages.
bool decodeNpy(const void *bytes, size_t size, const std::string &name,
               HostTensor &out, std::string &error);

/// The complete .npy preamble and header (everything before the data) numpy
/// writes for a C-order array of this dtype and shape.
std::string encodeNpyHeader(DType dtype, const std::vector<int64_t> &shape);

/// The numpy descr a tensor of this dtype is written with ('<f4' for BF16).
const char *npyDescr(DType dtype);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_NPY_H
