//===- PipelineProtocol.h - How a contraction's stages are handed over -*- C++
//-*-===//
//
// The synchronisation of a tensor-core contraction's main loop, as numbers
// the GPU lowerings emit and the verifier (compiler/Verify) proves safe for
// every count of K steps. A step kt of the loop consumes the stage
// kt % stages; the copies of step kt + prefetch are issued at step kt.
//
//  - CopyRing (mma.sync; wgmma without a producer warpgroup): every thread
//    waits until at most `copyWaitPending` of its copy groups are pending
//    (cp.async.wait_group; for TMA, the stage's mbarrier phase), then the
//    block synchronises (`barrierBeforeIssue`), then the copies of step
//    kt + prefetch go to the stage step kt - 1 consumed. wgmma waits for
//    its group (`wgmmaInFlight` groups left in flight) before the barrier
//    of the next step.
//  - ProducerConsumer (wgmma with a producer warpgroup): the producer
//    waits for a stage's "empty" mbarrier before copying into it; the
//    consumers wait for its "full" mbarrier, issue the step's wgmma group,
//    wait until `wgmmaInFlight` groups are pending, and only then release
//    the stage of the step `releaseLag` steps back (whose last reader is
//    the group of the step `lastReadLag` after it: a flash kernel's
//    deferred P V reads a block's V in the next step).
//
// Both read the accumulators after `wgmma.wait_group epilogueWait`.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_PIPELINEPROTOCOL_H
#define NAUTILUS_TILE_UTILS_PIPELINEPROTOCOL_H

#include "dialects/Tile/TileOps.h"

#include <cstdint>

namespace nautilus::tile {

struct PipelineProtocol {
  enum class Kind { CopyRing, ProducerConsumer };
  Kind kind = Kind::CopyRing;
  int64_t stages = 2;
  /// Steps ahead of the one consumed whose copies are issued.
  int64_t prefetch = 1;
  /// Copy groups a thread may leave pending when it waits for a step's
  /// stage (cp.async.wait_group N; CopyRing).
  int64_t copyWaitPending = 0;
  /// A block barrier between the wait and the issue of the next copies
  /// (CopyRing): it orders every thread's reads of the freed stage before
  /// the copies that overwrite it, and publishes each thread's copies.
  bool barrierBeforeIssue = true;
  /// wgmma groups left in flight by the main loop's wait (wgmma only).
  int64_t wgmmaInFlight = 0;
  /// How many steps back the stage a consumer releases lies
  /// (ProducerConsumer).
  int64_t releaseLag = 1;
  /// The step, counted from a step, whose wgmma group reads its stage
  /// last (ProducerConsumer; 1 where P V is deferred a step).
  int64_t lastReadLag = 0;
  /// wgmma groups left in flight when the epilogue reads the accumulators.
  int64_t epilogueWait = 0;
};

/// The protocol the lowering of a tensor-core schedule `mma` follows.
PipelineProtocol pipelineProtocol(MmaAttr mma);

/// A flash kernel's (a stream's tensor-core schedule): the GEMM's copy
/// ring; with a producer warpgroup (wgmma, TMA), ProducerConsumer whose
/// consumers wait for each step's groups (the scores', then P V's) and
/// release the step's own stage; with the softmax overlapped
/// (`overlap_softmax`), the previous step's (whose P V the step ran).
PipelineProtocol flashPipelineProtocol(MmaAttr mma);

} // namespace nautilus::tile

#endif
