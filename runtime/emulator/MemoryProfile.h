//===- MemoryProfile.h - How a profiled block's accesses are served -*- C++ -*-===//
//
// When a launch is profiled, each block records its lanes' memory accesses
// by warp and instruction (a site: the k-th execution of one load or store
// instruction by each lane, the lanes of a warp together), and at its end
// counts, for each warp request, the wavefronts shared memory's 32 banks
// serve it in (SharedTraffic) or the 32-byte sectors of global memory it
// touches (GlobalTraffic).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_MEMORYPROFILE_H
#define NAUTILUS_RUNTIME_EMULATOR_MEMORYPROFILE_H

#include "runtime/SharedBanks.h"
#include "runtime/emulator/SimtEmulator.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace nautilus::emu::detail {

using rt::LaneAccess;

/// One request of the lanes' shared accesses, as the banks serve it
/// (rt::bankWavefronts).
SharedTraffic countWavefronts(const std::vector<LaneAccess> &lanes);

/// One lane's part of a global request: its lane, its address (the
/// buffer's number in the high bits, the byte offset in it in the low 40:
/// sectors as on a GPU, whose buffers start 256-byte aligned) and width.
struct GlobalLaneAccess {
  uint32_t lane;
  uint64_t address;
  uint32_t bytes;
};

/// One request of the lanes' global accesses: the sectors it touches and
/// the distinct bytes it asks for.
GlobalTraffic countSectors(const std::vector<GlobalLaneAccess> &lanes);

/// What a profiled block accessed, by (warp, site, execution).
class AccessLog {
public:
  /// Kinds of request, as MemoryProfile splits them.
  enum Kind : int32_t { Load, Store, AsyncCopy, GlobalLoad, GlobalStore };
  /// The sites runtime functions access memory from (the kernel's own
  /// loads and stores number theirs from 0): cp.async copies landing in
  /// shared memory, and issued (reading global memory).
  static constexpr int32_t kAsyncCopySite = -1, kAsyncCopyIssueSite = -2;

  void record(uint32_t warp, int32_t site, uint32_t execution, Kind kind,
              LaneAccess access);
  void recordGlobal(uint32_t warp, int32_t site, uint32_t execution,
                    Kind kind, GlobalLaneAccess access);
  /// One TMA box: the global addresses (as GlobalLaneAccess's) of its
  /// elements inside the tensor, `elementBytes` each.
  void recordBox(const std::vector<uint64_t> &addresses, uint32_t elementBytes);
  /// Adds the requests to `profile` and forgets them.
  void flushInto(MemoryProfile &profile);

private:
  struct Request {
    Kind kind;
    std::vector<LaneAccess> lanes;
    std::vector<GlobalLaneAccess> globalLanes;
  };
  std::map<std::tuple<uint32_t, int32_t, uint32_t>, Request> requests;
  GlobalTraffic boxes; // TMA's loads
};

/// Adds `more` to `total`.
void addTraffic(SharedTraffic &total, const SharedTraffic &more);
void addTraffic(GlobalTraffic &total, const GlobalTraffic &more);

} // namespace nautilus::emu::detail

#endif
