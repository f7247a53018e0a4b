//===- GlobalRaces.cpp - Blocks touching each other's global memory -------===//
#include "runtime/emulator/GlobalRaces.h"

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

namespace {
/// A block's tag in the log (0: nobody), and the reader tag of a byte
/// several blocks read.
constexpr uint16_t kSeveral = 0xffff;
uint16_t tagOf(uint64_t block) { return uint16_t(block % 65534 + 1); }
} // namespace

GlobalAccessLog::GlobalAccessLog(const std::vector<MemoryRange> &buffers,
                                 uint64_t blocks)
    : blocks(blocks) {
  size_t total = 0;
  for (const MemoryRange &r : buffers)
    total += r.bytes;
  tooLarge = total > kMaxLoggedBytes;
  if (tooLarge)
    return;
  for (const MemoryRange &r : buffers) {
    Shadow s;
    // Value-initialised: every byte untouched.
    s.writer.reset(new std::atomic<uint16_t>[r.bytes]());
    s.reader.reset(new std::atomic<uint16_t>[r.bytes]());
    shadows.push_back(std::move(s));
  }
}

std::string GlobalAccessLog::record(size_t buffer, uint64_t offset,
                                    int64_t bytes, bool isStore,
                                    uint64_t block) {
  if (buffer >= shadows.size())
    return "";
  Shadow &s = shadows[buffer];
  uint16_t me = tagOf(block);
  auto describe = [&](uint64_t at, const char *other, uint16_t tag) {
    std::string who = tag == kSeveral ? std::string("other blocks")
                      : "block " + std::to_string(tag - 1) +
                            (blocks > 65534 ? " (modulo 65534)" : "");
    return "block " + std::to_string(block) +
           (isStore ? " writes" : " reads") + " byte offset " +
           std::to_string(at) + " of buffer #" + std::to_string(buffer) +
           ", which " + who + " " + other +
           " in the same launch (its blocks are not ordered)";
  };
  for (uint64_t at = offset; at < offset + uint64_t(bytes); ++at) {
    std::atomic<uint16_t> &writer = s.writer[at], &reader = s.reader[at];
    if (isStore) {
      uint16_t wrote = writer.exchange(me, std::memory_order_relaxed);
      if (wrote != 0 && wrote != me)
        return describe(at, "writes", wrote);
      uint16_t read = reader.load(std::memory_order_relaxed);
      if (read != 0 && read != me)
        return describe(at, read == kSeveral ? "read" : "reads", read);
      continue;
    }
    uint16_t wrote = writer.load(std::memory_order_relaxed);
    if (wrote != 0 && wrote != me)
      return describe(at, "writes", wrote);
    uint16_t read = reader.load(std::memory_order_relaxed);
    if (read == 0)
      read = reader.exchange(me, std::memory_order_relaxed);
    if (read != 0 && read != me)
      reader.store(kSeveral, std::memory_order_relaxed);
  }
  return "";
}
