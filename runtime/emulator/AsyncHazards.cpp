//===- AsyncHazards.cpp - Shared memory that async operations still use ---===//
//
// The emulator performs an asynchronous operation at one moment: a cp.async
// copy lands when its group is waited for, a TMA copy when a thread first
// observes its mbarrier phase, and wgmma and TMA stores read shared memory
// when issued. On the GPU each runs at some time between its issue and its
// completion, so whatever the emulator's order, a kernel races when it
//
//  - reads or writes shared bytes that a copy in flight writes (it did not
//    wait for the copy), or
//  - writes bytes that a wgmma group or a TMA store in flight reads (it
//    reused a pipeline stage or a staging buffer before wgmma.wait_group or
//    cp.async.bulk.wait_group.read retired the reader).
//
// The async proxy (wgmma's operand reads, TMA stores) sees a thread's
// shared-memory stores only after a fence.proxy.async: the writer's after
// the store, or the reading thread's after a barrier that ordered the
// store before it. Each byte also keeps its writer's fence count at the
// store (checkAsyncProxyRead, RaceChecks.cpp).
//
// These counts see what the emulator runs while an operation is in
// flight; the race detector (HappensBefore.h) sees the rest: an access
// before the issue that does not happen before it, and one after the
// completion that does not happen after it.
//
// Each byte of a block's shared memory counts the asynchronous reads and
// writes in flight on it; every access (checkShared) and every start of an
// asynchronous operation is checked against those counts. The checks do
// not depend on the fibres' schedule, so they catch the release of a stage
// one step early that the emulator's timing would otherwise hide.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/EmulatorState.h"

#include <string>

using namespace nautilus::emu::detail;

namespace {

/// What is in flight on a byte, and what the kernel should have done first.
const char *describe(AsyncKind kind) {
  switch (kind) {
  case AsyncKind::CpAsync:
    return "a cp.async copy in flight writes it (wait for its group with "
           "cp.async.wait_group first)";
  case AsyncKind::TmaLoad:
    return "a TMA copy in flight writes it (wait for its mbarrier phase "
           "first)";
  case AsyncKind::Wgmma:
    return "a wgmma group in flight reads it (retire the group with "
           "wgmma.wait_group first)";
  case AsyncKind::TmaStore:
    return "a TMA store in flight reads it (wait for it with "
           "cp.async.bulk.wait_group.read first)";
  case AsyncKind::None:
    break;
  }
  return "an asynchronous operation in flight uses it";
}

} // namespace

void nautilus::emu::detail::checkAsyncHazard(BlockState &b, uint32_t offset,
                                             uint32_t bytes, bool isWrite,
                                             const char *what) {
  for (uint32_t at = offset; at < offset + bytes; ++at) {
    if (b.asyncWrites[at] == 0 && (!isWrite || b.asyncReads[at] == 0))
      continue;
    b.launch->fail(std::string("async hazard: ") + what + " by " +
                   threadName(b) + (isWrite ? " writes" : " reads") +
                   " shared byte offset " + std::to_string(at) + " while " +
                   describe(b.asyncKind[at]));
    return;
  }
}

void nautilus::emu::detail::beginAsyncWrite(BlockState &b, SharedRange range,
                                            AsyncKind kind) {
  for (uint32_t at = range.offset; at < range.offset + range.bytes; ++at) {
    ++b.asyncWrites[at];
    b.asyncKind[at] = kind;
  }
}

void nautilus::emu::detail::endAsyncWrite(BlockState &b, SharedRange range) {
  for (uint32_t at = range.offset; at < range.offset + range.bytes; ++at)
    if (b.asyncWrites[at] != 0)
      --b.asyncWrites[at];
}

void nautilus::emu::detail::beginAsyncRead(BlockState &b, SharedRange range,
                                           AsyncReads &reads) {
  for (uint32_t at = range.offset; at < range.offset + range.bytes; ++at) {
    ++b.asyncReads[at];
    b.asyncKind[at] = reads.kind;
  }
  if (!reads.ranges.empty()) {
    SharedRange &last = reads.ranges.back();
    if (last.offset + last.bytes == range.offset) {
      last.bytes += range.bytes;
      return;
    }
  }
  reads.ranges.push_back(range);
}

void AsyncReadGroups::commit() {
  AsyncKind kind = open.kind;
  committed.push_back(std::move(open));
  open = AsyncReads();
  open.kind = kind;
}

/// The reads of a retired group end at the wait: a TMA store's source
/// reads are the waiting thread's at its present epoch (so only what
/// follows the wait is ordered after them); a wgmma's are its warpgroup
/// unit's (__nautilus_emu_wgmma_wait).
void AsyncReadGroups::retire(BlockState &b, int32_t pending) {
  size_t keep = static_cast<size_t>(std::max(pending, 0));
  if (committed.size() <= keep)
    return;
  size_t retired = committed.size() - keep;
  for (size_t g = 0; g < retired; ++g)
    for (SharedRange range : committed[g].ranges) {
      for (uint32_t at = range.offset; at < range.offset + range.bytes; ++at)
        if (b.asyncReads[at] != 0)
          --b.asyncReads[at];
      if (open.kind == AsyncKind::TmaStore)
        checkSharedRead(b, range.offset, range.bytes, currentEpoch(b),
                        "a TMA store");
    }
  committed.erase(committed.begin(), committed.begin() + retired);
}

void nautilus::emu::detail::resetAsyncHazards(BlockState &b,
                                              size_t sharedBytes) {
  b.writeFences.assign(sharedBytes, 0);
  b.asyncReads.assign(sharedBytes, 0);
  b.asyncWrites.assign(sharedBytes, 0);
  b.asyncKind.assign(sharedBytes, AsyncKind::None);
}
