//===- MemoryProfile.cpp - How a profiled block's accesses are served -----===//
#include "runtime/emulator/MemoryProfile.h"

#include <algorithm>

#include <set>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

SharedTraffic
nautilus::emu::detail::countWavefronts(const std::vector<LaneAccess> &lanes) {
  rt::BankWavefronts banks = rt::bankWavefronts(lanes);
  SharedTraffic traffic;
  traffic.requests = 1;
  traffic.wavefronts = banks.wavefronts;
  traffic.idealWavefronts = banks.ideal;
  return traffic;
}

GlobalTraffic nautilus::emu::detail::countSectors(
    const std::vector<GlobalLaneAccess> &lanes) {
  std::set<uint64_t> sectors, bytes;
  for (const GlobalLaneAccess &a : lanes)
    for (uint64_t at = a.address; at < a.address + a.bytes; ++at) {
      bytes.insert(at);
      sectors.insert(at / 32);
    }
  GlobalTraffic traffic;
  traffic.requests = 1;
  traffic.sectors = sectors.size();
  traffic.bytes = bytes.size();
  return traffic;
}

void nautilus::emu::detail::addTraffic(SharedTraffic &total,
                                       const SharedTraffic &more) {
  total.requests += more.requests;
  total.wavefronts += more.wavefronts;
  total.idealWavefronts += more.idealWavefronts;
}

void nautilus::emu::detail::addTraffic(GlobalTraffic &total,
                                       const GlobalTraffic &more) {
  total.requests += more.requests;
  total.sectors += more.sectors;
  total.bytes += more.bytes;
}

void AccessLog::record(uint32_t warp, int32_t site, uint32_t execution,
                       Kind kind, LaneAccess access) {
  Request &r = requests[{warp, site, execution}];
  r.kind = kind;
  r.lanes.push_back(access);
}

void AccessLog::recordGlobal(uint32_t warp, int32_t site, uint32_t execution,
                             Kind kind, GlobalLaneAccess access) {
  Request &r = requests[{warp, site, execution}];
  r.kind = kind;
  r.globalLanes.push_back(access);
}

void AccessLog::recordBox(const std::vector<uint64_t> &addresses,
                          uint32_t elementBytes) {
  std::vector<uint64_t> sectors;
  for (uint64_t at : addresses)
    for (uint64_t s = at / 32; s <= (at + elementBytes - 1) / 32; ++s)
      sectors.push_back(s);
  std::sort(sectors.begin(), sectors.end());
  boxes.requests += 1;
  boxes.sectors += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
  boxes.bytes += addresses.size() * elementBytes;
}

void AccessLog::flushInto(MemoryProfile &profile) {
  addTraffic(profile.tmaLoads, boxes);
  boxes = GlobalTraffic();
  for (const auto &[key, r] : requests) {
    if (r.kind == GlobalLoad || r.kind == GlobalStore) {
      addTraffic(r.kind == GlobalLoad ? profile.globalLoads
                                      : profile.globalStores,
                 countSectors(r.globalLanes));
      continue;
    }
    SharedTraffic &total = r.kind == Load    ? profile.loads
                           : r.kind == Store ? profile.stores
                                             : profile.asyncCopies;
    addTraffic(total, countWavefronts(r.lanes));
  }
  requests.clear();
}
