//===- HostTensor.cpp - A dense tensor in host memory ---------------------===//

#include "runtime/HostTensor.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

namespace nautilus::rt {

namespace {

template <typename T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T> void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}

} // namespace

std::optional<size_t> shapeNumElements(const std::vector<int64_t> &shape,
                                       size_t itemSize) {
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    empty |= d == 0;
  }
  if (empty) // however large the other dims are
    return size_t{0};
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  size_t n = 1;
  for (int64_t d : shape) {
    if (static_cast<uint64_t>(d) > kMax / n)
      return std::nullopt;
    n *= static_cast<size_t>(d);
  }
  if (itemSize != 0 && n > kMax / itemSize)
    return std::nullopt;
  return n;
}

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

HostTensor::HostTensor() : HostTensor(DType::F32, {0}, 0) {}

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape,
                       size_t numElements)
    : elementType(dtype), dims(std::move(shape)), count(numElements),
      bytes(numElements * dtypeSize(dtype)) {}

HostTensor HostTensor::zeros(DType dtype, std::vector<int64_t> shape) {
  std::optional<size_t> n = shapeNumElements(shape, dtypeSize(dtype));
  if (!n) {
    std::fprintf(stderr, "HostTensor::zeros: invalid shape %s\n",
                 formatShape(shape).c_str());
    std::abort();
  }
  return HostTensor(dtype, std::move(shape), *n);
}

const uint8_t *HostTensor::elementPtr(size_t flatIndex) const {
  assert(flatIndex < count && "HostTensor element index out of range");
  return bytes.data() + flatIndex * dtypeSize(elementType);
}

uint8_t *HostTensor::elementPtr(size_t flatIndex) {
  assert(flatIndex < count && "HostTensor element index out of range");
  return bytes.data() + flatIndex * dtypeSize(elementType);
}

double HostTensor::getAsDouble(size_t flatIndex) const {
  const uint8_t *p = elementPtr(flatIndex);
  switch (elementType) {
  case DType::F16:
    return f16BitsToFloat(load<uint16_t>(p));
  case DType::BF16:
    return bf16BitsToFloat(load<uint16_t>(p));
  case DType::F32:
    return load<float>(p);
  case DType::F64:
    return load<double>(p);
  case DType::I8:
    return load<int8_t>(p);
  case DType::I32:
    return load<int32_t>(p);
  case DType::I64:
    return static_cast<double>(load<int64_t>(p));
  case DType::Bool:
    return *p != 0 ? 1.0 : 0.0;
  }
  return 0;
}

void HostTensor::setFromDouble(size_t flatIndex, double value) {
  uint8_t *p = elementPtr(flatIndex);
  switch (elementType) {
  case DType::F16:
    return store(p, doubleToF16Bits(value));
  case DType::BF16:
    return store(p, doubleToBF16Bits(value));
  case DType::F32:
    return store(p, doubleToFloat(value));
  case DType::F64:
    return store(p, value);
  case DType::I8:
  case DType::I32:
  case DType::I64:
  case DType::Bool:
    return setFromInt64(flatIndex, doubleToIntSaturating(value, elementType));
  }
}

int64_t HostTensor::getAsInt64(size_t flatIndex) const {
  const uint8_t *p = elementPtr(flatIndex);
  switch (elementType) {
  case DType::I8:
    return load<int8_t>(p);
  case DType::I32:
    return load<int32_t>(p);
  case DType::I64:
    return load<int64_t>(p);
  case DType::Bool:
    return *p != 0 ? 1 : 0;
  default:
    return doubleToIntSaturating(getAsDouble(flatIndex), DType::I64);
  }
}

void HostTensor::setFromInt64(size_t flatIndex, int64_t value) {
  uint8_t *p = elementPtr(flatIndex);
  auto clamp = [value](auto lo, auto hi) {
    using T = decltype(lo);
    return static_cast<T>(value < lo ? lo : value > hi ? hi : value);
  };
  switch (elementType) {
  case DType::I8:
    return store(p, clamp(std::numeric_limits<int8_t>::min(),
                          std::numeric_limits<int8_t>::max()));
  case DType::I32:
    return store(p, clamp(std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
  case DType::I64:
    return store(p, value);
  case DType::Bool:
    *p = value != 0 ? 1 : 0;
    return;
  default:
    return setFromDouble(flatIndex, static_cast<double>(value));
  }
}

} // namespace nautilus::rt
