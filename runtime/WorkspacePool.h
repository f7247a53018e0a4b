//===- WorkspacePool.h - Workspaces kept between launches ------*- C++ -*-===//
//
// A kernel's workspaces (the buffers between its programs that no caller
// passes: a split-K partial, a row's statistics) are device memory that a
// launch needs and nobody else reads. Allocating and freeing them at each
// launch costs a GPU a wait for the kernel (the memory cannot be freed
// while it runs) and two driver calls; the pool keeps them instead, one set
// a stream: launches on one stream run in order, so the next launch there
// reuses the set while the last may still run. A set grows (after waiting
// for its stream) when a launch needs more; nothing shrinks until the pool
// is released. A set is keyed by the stream's handle, and for the
// per-thread default stream (CU_STREAM_PER_THREAD and hipStreamPerThread,
// the handle 0x2, another stream in each thread) by the thread too; a
// stream destroyed while its launches still run and its handle reused by a
// new one would share its set, so wait for a stream before destroying it.
//
// Not thread safe: the caller holds a lock across acquire() and the launch
// that uses what it returned (two threads must not share a set while one
// grows it).
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_WORKSPACEPOOL_H
#define NAUTILUS_RUNTIME_WORKSPACEPOOL_H

#include "runtime/Device.h"

#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace nautilus::rt {

class WorkspacePool {
public:
  explicit WorkspacePool(Device &device) : device(device) {}
  /// Releases every set: the launches that used them must be done.
  ~WorkspacePool();
  WorkspacePool(const WorkspacePool &) = delete;
  WorkspacePool &operator=(const WorkspacePool &) = delete;

  /// Device memory for workspaces of `bytes` each (in order), for a launch
  /// on `stream`: sets `memory` (null for 0 bytes) and returns "", or the
  /// device's error.
  std::string acquire(void *stream, const std::vector<size_t> &bytes,
                      std::vector<void *> &memory);

private:
  struct Block {
    void *memory = nullptr;
    size_t bytes = 0;
  };
  using StreamKey = std::pair<void *, std::thread::id>;
  static StreamKey keyOf(void *stream);

  Device &device;
  std::map<StreamKey, std::vector<Block>> sets;
};

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_WORKSPACEPOOL_H
