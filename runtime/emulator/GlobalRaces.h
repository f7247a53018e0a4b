//===- GlobalRaces.h - Blocks touching each other's global memory -*- C++ -*-===//
//
// The blocks of one launch are not ordered: on the GPU they run in any
// order and at once. A byte of a launch's buffers that one block writes
// and another reads or writes (other than with atomics) is a race,
// whatever order the emulator ran them in. GlobalAccessLog keeps, for each
// byte, the block that wrote it and the block that read it (or "several"),
// and reports the first conflict. Block ids are kept modulo 65534 (tags
// 1 to 65534; 0 is nobody, 65535 several readers), so two blocks 65534
// apart look alike: a conflict between them is missed, never made up.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_GLOBALRACES_H
#define NAUTILUS_RUNTIME_EMULATOR_GLOBALRACES_H

#include "runtime/emulator/SimtEmulator.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nautilus::emu::detail {

class GlobalAccessLog {
public:
  /// The most buffer bytes a launch's log covers (4 bytes of log a byte);
  /// larger launches are not checked.
  static constexpr size_t kMaxLoggedBytes = size_t(64) << 20;

  /// Starts a launch of `blocks` blocks over `buffers` (no log if they
  /// pass kMaxLoggedBytes).
  GlobalAccessLog(const std::vector<MemoryRange> &buffers, uint64_t blocks);

  /// Records block `block`'s access to bytes [offset, offset + bytes) of
  /// buffer `buffer`; returns "" or the race it makes, as "block B
  /// writes byte offset O of buffer #i, which block C reads".
  std::string record(size_t buffer, uint64_t offset, int64_t bytes,
                     bool isStore, uint64_t block);

  /// Whether the launch's buffers were too large to log.
  bool off() const { return tooLarge; }

private:
  struct Shadow {
    std::unique_ptr<std::atomic<uint16_t>[]> writer, reader;
  };
  std::vector<Shadow> shadows;
  uint64_t blocks;
  bool tooLarge = false;
};

} // namespace nautilus::emu::detail

#endif
