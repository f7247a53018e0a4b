//===- HostTensor.h - A dense tensor in host memory -------------*- C++ -*-===//
//
// HostTensor owns a contiguous, row-major (C order) byte buffer holding
// numElements() values of one DType. Element access by flat index converts
// to and from double (or int64_t, which is exact for i64 data); stores round
// exactly like roundToDType.
//
// F16 and BF16 elements are stored as their 16-bit encodings, Bool elements
// as one byte holding 0 or 1. The buffer comes from operator new and is
// therefore aligned for any fundamental type.
//
//===----------------------------------------------------------------------===//

#ifndef NAUTILUS_RUNTIME_HOSTTENSOR_H
#define NAUTILUS_RUNTIME_HOSTTENSOR_H

#include "runtime/DType.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::rt {

/// The number of elements of a tensor with this shape, or std::nullopt if a
/// dimension is negative or the byte size (elements * itemSize) would not fit
/// in size_t. A 0-d shape has one element.
std::optional<size_t> shapeNumElements(const std::vector<int64_t> &shape,
                                       size_t itemSize = 1);

/// "[3, 4]"; "[5]" for 1-d and "[]" for 0-d shapes.
std::string formatShape(const std::vector<int64_t> &shape);

class HostTensor {
public:
  /// An empty f32 tensor of shape [0].
  HostTensor();

  /// A tensor of the given dtype and shape with every element zero (all
  /// bytes zero, which is +0.0 / 0 / false for every dtype). The shape must
  /// be valid for shapeNumElements; an invalid one aborts the program.
  static HostTensor zeros(DType dtype, std::vector<int64_t> shape);

  DType dtype() const { return elementType; }
  const std::vector<int64_t> &shape() const { return dims; }
  size_t rank() const { return dims.size(); }
  size_t numElements() const { return count; }
  size_t numBytes() const { return bytes.size(); }

  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }

  /// Element `flatIndex` (row-major) as a double. f16/bf16/f32 widen exactly;
  /// i64 values beyond 2^53 round to the nearest double.
  double getAsDouble(size_t flatIndex) const;

  /// Stores `value` converted with roundToDType semantics: floats round to
  /// nearest even, integers truncate toward zero and saturate (NaN -> 0),
  /// bool stores value != 0.
  void setFromDouble(size_t flatIndex, double value);

  /// Element `flatIndex` as an int64_t: exact for integer and bool dtypes;
  /// float elements convert like doubleToIntSaturating(v, DType::I64).
  int64_t getAsInt64(size_t flatIndex) const;

  /// Stores an integer: integer dtypes saturate to their range, bool stores
  /// value != 0, float dtypes store the nearest value (through double).
  void setFromInt64(size_t flatIndex, int64_t value);

private:
  HostTensor(DType dtype, std::vector<int64_t> shape, size_t numElements);

  /// Address of element `flatIndex` (asserted to be in range).
  const uint8_t *elementPtr(size_t flatIndex) const;
  uint8_t *elementPtr(size_t flatIndex);

  DType elementType;
  std::vector<int64_t> dims;
  size_t count;
  std::vector<uint8_t> bytes;
};

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_HOSTTENSOR_H
