//===- SharedProfile.cpp - Bank conflicts of a block's shared accesses ----===//
#include "runtime/emulator/SharedProfile.h"


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
