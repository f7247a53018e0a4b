//===- SharedProfile.h - Bank conflicts of a block's shared accesses -*- C++ -*-===//
//
// When a launch is profiled, each block records its lanes' shared-memory
// accesses by warp and instruction (a site: the k-th execution of one load
// or store instruction by each lane, the lanes of a warp together), and at
// its end counts the wavefronts each warp request takes in 32 banks of 4
// bytes (SharedTraffic).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_SHAREDPROFILE_H
#define NAUTILUS_RUNTIME_EMULATOR_SHAREDPROFILE_H

#include "runtime/SharedBanks.h"
#include "runtime/emulator/SimtEmulator.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace nautilus::emu::detail {

using rt::LaneAccess;

/// One request of the lanes' accesses, as the banks serve it
/// (rt::bankWavefronts).
SharedTraffic countWavefronts(const std::vector<LaneAccess> &lanes);

/// What a profiled block accessed, by (warp, site, execution).
class SharedAccessLog {
public:
  /// Kinds of request, as SharedMemoryProfile splits them.
  enum Kind : int32_t { Load, Store, AsyncCopy };
  /// The sites runtime functions access shared memory from (the kernel's
  /// own loads and stores number theirs from 0).
  static constexpr int32_t kAsyncCopySite = -1;

  void record(uint32_t warp, int32_t site, uint32_t execution, Kind kind,
              LaneAccess access);
  /// Adds the requests to `profile` and forgets them.
  void flushInto(SharedMemoryProfile &profile);

private:
  struct Request {
    Kind kind;
    std::vector<LaneAccess> lanes;
  };
  std::map<std::tuple<uint32_t, int32_t, uint32_t>, Request> requests;
};

/// Adds `more` to `total`.
void addTraffic(SharedTraffic &total, const SharedTraffic &more);

} // namespace nautilus::emu::detail

#endif
