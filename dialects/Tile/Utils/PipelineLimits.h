//===- PipelineLimits.h - What the tensor-core pipelines allow --*- C++ -*-===//
//
// The numbers the tensor-core lowerings keep to and the schedulers prune
// by: shared memory a block, the register file and its splits, the
// accumulators a thread keeps. Plain constants (no MLIR), so that the
// auto-scheduler's search space and the lowering's checks read the same
// ones (ResourceBudget.h, WgmmaPlan.h, TileToGPU/Contractions.cpp,
// autoscheduler/ContractionSpace.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_PIPELINELIMITS_H
#define NAUTILUS_TILE_UTILS_PIPELINELIMITS_H

#include <algorithm>
#include <cstdint>

namespace nautilus {

/// A block's static shared memory limit; all of its shared memory (static
/// and dynamic, opted into at launch) on sm_90 (H100, H200), and on sm_80
/// (A100), whose limit the mma.sync pipeline keeps to on either target.
constexpr int64_t kStaticSharedLimit = 48 * 1024;
constexpr int64_t kSm90SharedLimit = 227 * 1024;
constexpr int64_t kSm80SharedLimit = 163 * 1024;

/// A multiprocessor's registers, and a thread's share when `threads` split
/// them evenly (a multiple of 8, and at most the 255 a thread addresses).
constexpr int64_t kRegisterFile = 65536;
inline int64_t evenRegisterSplit(int64_t threads) {
  return std::min<int64_t>(255, kRegisterFile / threads / 8 * 8);
}

/// wgmma's register reallocation (setmaxnreg: multiples of 8 from 24 to
/// 256): the block starts with evenRegisterSplit(threads) a thread (its
/// `.maxnreg`), a copying producer warpgroup keeps kProducerRegisters, and
/// the `threads - 128` consumer threads share the rest of the block's
/// registers, at most kMaxConsumerRegisters each. (The pool is the
/// block's: a consumer's `setmaxnreg.inc` waits until the producer's
/// `dec` freed enough, so asking more than the launch count leaves would
/// hang: at 640 threads the launch's 96 leave 104, not the 112 the whole
/// register file would.)
constexpr int64_t kProducerRegisters = 40;
constexpr int64_t kMaxConsumerRegisters = 240;
inline int64_t reallocatedConsumerRegisters(int64_t threads) {
  int64_t block = evenRegisterSplit(threads) * threads;
  return std::min(kMaxConsumerRegisters,
                  (block - 128 * kProducerRegisters) / (threads - 128) / 8 * 8);
}

/// The registers a warp-specialised block's threads start with (the
/// kernel's `.maxnreg`) and keep after `setmaxnreg` in the producer
/// warpgroup and in the consumers'; all 0: no reallocation.
struct RegisterReallocation {
  int64_t launch = 0, producer = 0, consumer = 0;
  explicit operator bool() const { return consumer != 0; }
};

/// The reallocation of a block of `threads` whose producer warpgroup only
/// issues copies: none where there is no consumer warpgroup beside it or
/// the consumers would not gain (with one consumer warpgroup the even
/// split already gives it all a thread can address).
inline RegisterReallocation copyingProducerReallocation(int64_t threads) {
  if (threads <= 128)
    return {};
  int64_t consumers = reallocatedConsumerRegisters(threads);
  if (consumers <= evenRegisterSplit(threads))
    return {};
  return {evenRegisterSplit(threads), kProducerRegisters, consumers};
}

/// The accumulators a computing thread may keep, and the registers it needs
/// besides for addresses, operand fragments and the epilogue (measured:
/// 161 - 64 on mma.sync, 137 - 64 on wgmma at 128 x 128).
constexpr int64_t kAccumulatorLimit = 128;
constexpr int64_t kOtherRegisters = 96;

/// The fewest steps of tile_k a split of K leaves each chunk: enough to
/// fill a pipeline of 4 stages twice over.
constexpr int64_t kMinSplitSteps = 8;

} // namespace nautilus

#endif
