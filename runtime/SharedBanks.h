//===- SharedBanks.h - How shared memory serves a warp's request -*- C++ -*-===//
//
// NVIDIA shared memory has 32 banks of 4-byte words. A warp's request is
// served in phases, the whole warp for accesses of up to 4 bytes a lane,
// half warps for 8 bytes, quarter warps for 16; a phase takes as many
// wavefronts (bank cycles) as the most distinct words one bank holds, lanes
// reading one word sharing it. The emulator's profile counts requests this
// way, and the GPU lowering chooses its staging layouts by it. Plain C++.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_SHAREDBANKS_H
#define NAUTILUS_RUNTIME_SHAREDBANKS_H

#include <cstdint>
#include <vector>

namespace nautilus::rt {

/// One lane's part of a warp request: its lane, byte offset and width.
struct LaneAccess {
  uint32_t lane, offset, bytes;
};

/// The wavefronts a request takes, and the fewest it could (one a phase
/// that touches memory).
struct BankWavefronts {
  uint64_t wavefronts = 0, ideal = 0;
};

BankWavefronts bankWavefronts(const std::vector<LaneAccess> &lanes);

} // namespace nautilus::rt

#endif
