//===- SharedProfile.cpp - Bank conflicts of a block's shared accesses ----===//
#include "runtime/emulator/SharedProfile.h"

#include <algorithm>
#include <array>
#include <set>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

SharedTraffic
nautilus::emu::detail::countWavefronts(const std::vector<LaneAccess> &lanes) {
  SharedTraffic traffic;
  traffic.requests = 1;
  uint32_t widest = 0;
  for (const LaneAccess &a : lanes)
    widest = std::max(widest, a.bytes);
  // 16-byte accesses go by quarter warps, 8-byte ones by half warps.
  uint32_t lanesPerPhase = widest >= 16 ? 8 : widest == 8 ? 16 : 32;
  for (uint32_t phase = 0; phase < 32 / lanesPerPhase; ++phase) {
    std::array<std::set<uint32_t>, 32> words; // by bank
    bool touched = false;
    for (const LaneAccess &a : lanes) {
      if (a.lane / lanesPerPhase != phase)
        continue;
      touched = true;
      for (uint32_t word = a.offset / 4; word <= (a.offset + a.bytes - 1) / 4;
           ++word)
        words[word % 32].insert(word);
    }
    if (!touched)
      continue;
    size_t most = 0;
    for (const std::set<uint32_t> &bank : words)
      most = std::max(most, bank.size());
    traffic.wavefronts += most;
    ++traffic.idealWavefronts;
  }
  return traffic;
}

void nautilus::emu::detail::addTraffic(SharedTraffic &total,
                                       const SharedTraffic &more) {
  total.requests += more.requests;
  total.wavefronts += more.wavefronts;
  total.idealWavefronts += more.idealWavefronts;
}

void SharedAccessLog::record(uint32_t warp, int32_t site, uint32_t execution,
                             Kind kind, LaneAccess access) {
  Request &r = requests[{warp, site, execution}];
  r.kind = kind;
  r.lanes.push_back(access);
}

void SharedAccessLog::flushInto(SharedMemoryProfile &profile) {
  for (const auto &[key, r] : requests) {
    SharedTraffic &total = r.kind == Load    ? profile.loads
                           : r.kind == Store ? profile.stores
                                             : profile.asyncCopies;
    addTraffic(total, countWavefronts(r.lanes));
  }
  requests.clear();
}
