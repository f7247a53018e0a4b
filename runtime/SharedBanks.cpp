//===- SharedBanks.cpp - How shared memory serves a warp's request --------===//
#include "runtime/SharedBanks.h"

#include <algorithm>
#include <array>
#include <set>

using namespace nautilus::rt;

BankWavefronts nautilus::rt::bankWavefronts(const std::vector<LaneAccess> &lanes) {
  BankWavefronts result;
  uint32_t widest = 0;
  for (const LaneAccess &a : lanes)
    widest = std::max(widest, a.bytes);
  uint32_t lanesPerPhase = widest >= 16 ? 8 : widest == 8 ? 16 : 32;
  for (uint32_t phase = 0; phase < 32 / lanesPerPhase; ++phase) {
    std::array<std::set<uint32_t>, 32> words; // by bank
    bool touched = false;
    for (const LaneAccess &a : lanes) {
      if (a.lane / lanesPerPhase != phase || a.bytes == 0)
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
    result.wavefronts += most;
    ++result.ideal;
  }
  return result;
}
