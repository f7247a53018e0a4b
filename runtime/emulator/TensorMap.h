//===- TensorMap.h - TMA tensor maps as the emulator reads them -*- C++ -*-===//
//
// A TMA copy (`cp.async.bulk.tensor`) names its global tensor by a 128-byte
// tensor map that the host builds before the launch (on a GPU with the
// driver's cuTensorMapEncodeTiled, whose encoding is private to the driver).
// nautc's kernels take a pointer to it in global memory (Bundle.h); a
// `__grid_constant__` parameter is the other way CUDA allows. The emulator
// defines its own 128-byte encoding, built by encodeTiledTensorMap with the
// same arguments and the same validity rules as the driver's function, so a
// launcher fills the map one way for a GPU and the other way for the
// emulator.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_TENSORMAP_H
#define NAUTILUS_RUNTIME_EMULATOR_TENSORMAP_H

#include <array>
#include <cstdint>
#include <string>

namespace nautilus::emu {

/// Shared-memory swizzles of a TMA box, as CUtensorMapSwizzle numbers them:
/// the 16-byte chunk index within each 128-byte span (address bits 4-6) is
/// XORed with address bits 7-9 (128B: 3 bits, 64B: 2 bits, 32B: 1 bit).
enum class TensorMapSwizzle : uint8_t { None = 0, B32 = 1, B64 = 2, B128 = 3 };

/// What out-of-bounds elements of a box read as (CUtensorMapFloatOOBfill).
enum class TensorMapOobFill : uint8_t { Zero = 0, NaN = 1 };

struct TiledTensorMap {
  uint32_t magic;        // kTensorMapMagic once encoded
  uint8_t rank;          // 1 to 5
  uint8_t elementBytes;  // 1, 2, 4 or 8
  TensorMapSwizzle swizzle;
  TensorMapOobFill oobFill;
  uint64_t globalAddress;
  std::array<uint64_t, 5> globalDim;     // elements, innermost first
  std::array<uint64_t, 4> globalStrides; // bytes, of dimensions 1..rank-1
  std::array<uint32_t, 5> boxDim;        // elements, innermost first
  std::array<uint32_t, 5> elementStrides;
};
static_assert(sizeof(TiledTensorMap) <= 128, "a tensor map is 128 bytes");

constexpr uint32_t kTensorMapMagic = 0x4e544d41; // "NTMA"

/// Fills the 128 bytes at `out` (64-byte aligned, as CUtensorMap) like
/// cuTensorMapEncodeTiled; `globalStrides` has rank - 1 entries (the byte
/// strides of dimensions 1 and up). Returns "" or what is invalid, in the
/// driver's terms (e.g. "boxDim[0] * elementBytes must be a multiple of 16").
std::string encodeTiledTensorMap(void *out, unsigned rank, unsigned elementBytes,
                                 const void *globalAddress,
                                 const uint64_t *globalDim,
                                 const uint64_t *globalStrides,
                                 const uint32_t *boxDim,
                                 const uint32_t *elementStrides,
                                 TensorMapSwizzle swizzle,
                                 TensorMapOobFill oobFill);

/// Where the byte at shared address `address` of an unswizzled layout lands
/// under `swizzle` (TMA boxes and wgmma operands use the same patterns). The
/// swizzle applies to absolute shared addresses, so a 128B-swizzled tile
/// starts 1024-byte aligned for its rows to follow the pattern.
uint32_t swizzledSharedAddress(uint32_t address, TensorMapSwizzle swizzle);

} // namespace nautilus::emu

#endif
