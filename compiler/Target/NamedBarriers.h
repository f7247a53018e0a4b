//===- NamedBarriers.h - The named barriers of one kernel ------*- C++ -*-===//
//
// A block's hardware barriers (`bar.sync id, threads`) are few (16 on
// NVIDIA) and shared by every part of a kernel's lowering: id 0 is the
// whole block's (`__syncthreads`), and each group of threads that meets
// apart from the others (the consumer warpgroups of a warp-specialised
// program, its producer) gets an id of its own from the one allocator of
// the kernel, so that no two parts pick the same id by accident.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TARGET_NAMEDBARRIERS_H
#define NAUTILUS_TARGET_NAMEDBARRIERS_H

#include "compiler/Target/Target.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>

namespace nautilus {

/// The groups of threads that meet at a named barrier of their own.
enum class BarrierGroup {
  Consumers, // a warp-specialised program's computing warpgroups
  Producer,  // its producer warpgroup (the computed operands' writers)
  // A flash kernel's two consumer warpgroups taking turns (ping-pong):
  // each waits at its own, the other arrives there (reserved in order, so
  // the second's id is the first's plus one).
  FirstConsumerTurn,
  SecondConsumerTurn,
};

class NamedBarriers {
public:
  /// The id of the barrier of every thread of the block.
  static constexpr int64_t kBlock = 0;

  explicit NamedBarriers(const TargetInfo &target)
      : limit(target.namedBarriers) {}

  /// Hands out the next free id to `group` (the same id again if it has
  /// one already).
  int64_t reserve(BarrierGroup group) {
    int64_t &id = ids[static_cast<unsigned>(group)];
    if (id == kNone) {
      if (next >= limit)
        llvm::report_fatal_error("more named barriers than the target has");
      id = next++;
    }
    return id;
  }

  /// The id reserved for `group`.
  int64_t of(BarrierGroup group) const {
    int64_t id = ids[static_cast<unsigned>(group)];
    if (id == kNone)
      llvm::report_fatal_error("a named barrier used before it was reserved");
    return id;
  }

private:
  static constexpr int64_t kNone = -1;
  int64_t limit;
  int64_t next = kBlock + 1;
  std::array<int64_t, 4> ids = {kNone, kNone, kNone, kNone};
};

} // namespace nautilus

#endif
