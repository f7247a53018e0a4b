//===- TensorMap.cpp - TMA tensor maps as the emulator reads them ---------===//
#include "runtime/emulator/TensorMap.h"

#include <cstring>

using namespace nautilus::emu;

std::string nautilus::emu::encodeTiledTensorMap(
    void *out, unsigned rank, unsigned elementBytes, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStrides,
    const uint32_t *boxDim, const uint32_t *elementStrides,
    TensorMapSwizzle swizzle, TensorMapOobFill oobFill) {
  if (reinterpret_cast<uintptr_t>(out) % 64 != 0)
    return "the tensor map must be 64-byte aligned";
  if (rank < 1 || rank > 5)
    return "tensorRank must be 1 to 5, not " + std::to_string(rank);
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 &&
      elementBytes != 8)
    return "elements must be 1, 2, 4 or 8 bytes";
  if (reinterpret_cast<uintptr_t>(globalAddress) % 16 != 0)
    return "globalAddress must be 16-byte aligned";
  TiledTensorMap map{};
  map.magic = kTensorMapMagic;
  map.rank = static_cast<uint8_t>(rank);
  map.elementBytes = static_cast<uint8_t>(elementBytes);
  map.swizzle = swizzle;
  map.oobFill = oobFill;
  map.globalAddress = reinterpret_cast<uint64_t>(globalAddress);
  uint64_t spanBytes = elementBytes;
  for (unsigned d = 0; d < rank; ++d) {
    std::string dim = "[" + std::to_string(d) + "]";
    if (globalDim[d] == 0 || globalDim[d] > (uint64_t(1) << 32))
      return "globalDim" + dim + " must be 1 to 2^32";
    if (boxDim[d] == 0 || boxDim[d] > 256)
      return "boxDim" + dim + " must be 1 to 256";
    if (elementStrides[d] == 0 || elementStrides[d] > 8)
      return "elementStrides" + dim + " must be 1 to 8";
    if (d > 0) {
      uint64_t stride = globalStrides[d - 1];
      if (stride % 16 != 0 || stride >= (uint64_t(1) << 40))
        return "globalStrides[" + std::to_string(d - 1) +
               "] must be a multiple of 16 below 2^40";
      if (stride < spanBytes)
        return "globalStrides[" + std::to_string(d - 1) +
               "] is smaller than the dimensions inside it";
      spanBytes = stride * globalDim[d];
      map.globalStrides[d - 1] = stride;
    } else {
      spanBytes = globalDim[0] * elementBytes;
    }
    map.globalDim[d] = globalDim[d];
    map.boxDim[d] = boxDim[d];
    map.elementStrides[d] = elementStrides[d];
  }
  uint64_t innerBytes = uint64_t(boxDim[0]) * elementBytes;
  if (innerBytes % 16 != 0)
    return "boxDim[0] * elementBytes must be a multiple of 16";
  static const unsigned span[] = {0, 32, 64, 128};
  unsigned swizzleSpan = span[static_cast<unsigned>(swizzle) & 3];
  if (swizzleSpan != 0 && innerBytes > swizzleSpan)
    return "boxDim[0] * elementBytes (" + std::to_string(innerBytes) +
           ") must not exceed the swizzle span (" +
           std::to_string(swizzleSpan) + " bytes)";
  std::memset(out, 0, 128);
  std::memcpy(out, &map, sizeof(map));
  return "";
}

uint32_t nautilus::emu::swizzledSharedAddress(uint32_t address,
                                              TensorMapSwizzle swizzle) {
  static const uint32_t mask[] = {0, 1, 3, 7};
  return address ^ (((address >> 7) & mask[static_cast<unsigned>(swizzle) & 3])
                    << 4);
}
