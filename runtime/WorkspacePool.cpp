//===- WorkspacePool.cpp - Workspaces kept between launches ---------------===//
#include "runtime/WorkspacePool.h"

#include <cstdint>

namespace nautilus::rt {

WorkspacePool::StreamKey WorkspacePool::keyOf(void *stream) {
  constexpr uintptr_t kPerThreadStream = 0x2;
  bool perThread = reinterpret_cast<uintptr_t>(stream) == kPerThreadStream;
  return {stream, perThread ? std::this_thread::get_id() : std::thread::id()};
}

WorkspacePool::~WorkspacePool() {
  for (auto &[stream, blocks] : sets)
    for (Block &b : blocks)
      device.release(b.memory);
}

std::string WorkspacePool::acquire(void *stream,
                                   const std::vector<size_t> &bytes,
                                   std::vector<void *> &memory) {
  std::vector<Block> &blocks = sets[keyOf(stream)];
  if (blocks.size() < bytes.size())
    blocks.resize(bytes.size());
  bool waited = false;
  memory.assign(bytes.size(), nullptr);
  for (size_t i = 0; i < bytes.size(); ++i) {
    Block &b = blocks[i];
    if (bytes[i] > b.bytes) {
      // The last launch on this stream may still read the block.
      if (b.memory && !waited) {
        if (std::string e = device.synchronize(stream); !e.empty())
          return e;
        waited = true;
      }
      device.release(b.memory);
      b = Block();
      if (std::string e = device.allocate(bytes[i], &b.memory); !e.empty())
        return e;
      b.bytes = bytes[i];
    }
    memory[i] = b.memory;
  }
  return "";
}

} // namespace nautilus::rt
