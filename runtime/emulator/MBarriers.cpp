//===- MBarriers.cpp - mbarrier objects, emulated -------------------------===//
//
// mbarrier init, arrivals, transactions and waits (cta space), as the PTX
// ISA defines them, and what they order for the race detector
// (HappensBefore.h): an arrival releases the thread's clock into the
// phase; a phase that completes joins its arrivals' clocks (and the epoch
// of the TMA copies that complete on it) into the clock that a thread
// observing the completion acquires.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/EmulatorState.h"

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

MBarrier &nautilus::emu::detail::mbarrierAt(void *address) {
  BlockState &b = *currentBlock;
  return b.mbarriers[reinterpret_cast<uintptr_t>(address)];
}

MBarrier &nautilus::emu::detail::mbarrierInUse(void *address,
                                               const char *what) {
  BlockState &b = *currentBlock;
  MBarrier &m = mbarrierAt(address);
  if (m.initialised && b.current->clock.covers(m.init))
    return m; // (polled in spin loops: the reports below are built rarely)
  std::string user = std::string(what) + " by " + threadName(b) +
                     " uses the mbarrier at shared byte offset " +
                     std::to_string(static_cast<const char *>(address) -
                                    b.shared.data());
  b.launch->fail(m.initialised
                     ? user + " that thread " + std::to_string(m.init.who) +
                           " initialised with nothing ordering the init "
                           "first (synchronise after mbarrier.init)"
                     : user + " before any mbarrier.init of it");
  return m;
}

/// Completes the current phase when no arrival and no transaction byte is
/// pending.
void nautilus::emu::detail::maybeCompletePhase(MBarrier &m) {
  if (m.pending == 0 && m.transactionBytes < 0)
    currentBlock->launch->fail(
        "mbarrier at shared byte offset " + std::to_string(m.offset) +
        ": phase " + std::to_string(m.phase) + " completed " +
        std::to_string(-m.transactionBytes) +
        " transaction bytes more than expect_tx announced (the phase may "
        "complete before its copies land: expect every byte)");
  if (m.pending == 0 && m.transactionBytes <= 0) {
    ++m.phase;
    ++m.completions;
    m.pending = m.expected;
    m.transactionBytes = 0;
    // The arrivals' writes (and the copies of the phase) happen before
    // whatever follows an observation of the completion.
    m.completed.join(m.arrivals);
    m.arrivals.clear();
    m.completed.raise(m.agent, m.completions);
    // Bulk copies (TMA) that completed on this phase become visible to
    // the threads that observe the completion (see mbarrier_wait).
    for (BulkCopy &copy : m.landing) {
      copy.epoch = m.completions;
      m.landed.push_back(std::move(copy));
    }
    m.landing.clear();
  }
}

extern "C" void __nautilus_emu_mbarrier_init(void *address, int32_t count) {
  BlockState &b = *currentBlock;
  MBarrier &m = mbarrierAt(address);
  if (!m.initialised && m.agent == 0)
    m.agent = b.nextAgent++;
  m.initialised = true;
  m.init = currentEpoch(b);
  m.initFence.reset();
  m.offset = static_cast<uint32_t>(static_cast<const char *>(address) -
                                   b.shared.data());
  m.expected = m.pending = static_cast<uint32_t>(count);
  m.transactionBytes = 0;
  m.phase = 0;
  m.arrivals.clear();
  m.completed.clear();
  ++currentBlock->progress;
}

/// fence.mbarrier_init (and fence.proxy.async over shared memory, whose
/// translations call this too): the mbarriers this thread initialised
/// become visible to the async proxy, for whatever is ordered after now.
extern "C" void __nautilus_emu_mbarrier_init_fence() {
  BlockState &b = *currentBlock;
  Epoch now = currentEpoch(b);
  for (auto &[address, m] : b.mbarriers)
    if (m.initialised && m.init.who == now.who && !m.initFence)
      m.initFence = now;
}

/// arrive (count 1), arrive.noComplete (count n), expect_tx variants, and
/// arrive_drop (which also lowers the expected count of later phases).
/// Returns the state token: the phase the arrival belongs to.
extern "C" int64_t __nautilus_emu_mbarrier_arrive(void *address, int32_t count,
                                                  int32_t transactionBytes,
                                                  int32_t drop) {
  BlockState &b = *currentBlock;
  MBarrier &m = mbarrierInUse(address, "an mbarrier arrival");
  settlePendingWrites(b, *b.current);
  release(b, m.arrivals);
  int64_t token = m.phase;
  m.transactionBytes += transactionBytes;
  if (drop)
    m.expected -= std::min<uint32_t>(m.expected, count);
  if (m.pending < static_cast<uint32_t>(count)) {
    b.launch->fail("mbarrier over-arrival by " + threadName(b) + ": " +
                   std::to_string(count) + " arrivals with " +
                   std::to_string(m.pending) + " pending");
    m.pending = 0;
  } else {
    m.pending -= count;
  }
  maybeCompletePhase(m);
  ++b.progress;
  return token;
}

/// expect_tx (positive bytes) and complete_tx (negative bytes, a release
/// like an arrival).
extern "C" void __nautilus_emu_mbarrier_tx(void *address, int32_t bytes) {
  BlockState &b = *currentBlock;
  MBarrier &m = mbarrierInUse(address, bytes < 0 ? "an mbarrier complete_tx"
                                                 : "an mbarrier expect_tx");
  m.transactionBytes += bytes;
  if (bytes < 0) {
    settlePendingWrites(b, *b.current);
    release(b, m.arrivals);
    maybeCompletePhase(m);
  }
  ++b.progress;
}

/// test_wait / try_wait: whether the phase of `state` (a token, or with
/// `isParity` a phase parity) has completed. A thread that finds it
/// incomplete yields, so the threads that will arrive can run; one that
/// finds it complete acquires the completed phases' clock.
extern "C" bool __nautilus_emu_mbarrier_wait(void *address, int64_t state,
                                             int32_t isParity) {
  BlockState &b = *currentBlock;
  MBarrier &m = mbarrierInUse(address, "an mbarrier wait");
  bool complete = isParity ? (m.phase & 1) != (state & 1)
                           : m.phase != static_cast<uint32_t>(state);
  if (complete && !m.landed.empty()) {
    // The bulk copies of the completed phase land when a thread first
    // observes it: a thread that reads a TMA box without waiting for its
    // phase sees the old (poisoned) bytes. The copy is the writer of the
    // bytes, at the phase's epoch.
    for (const BulkCopy &copy : m.landed)
      for (size_t i = 0; i < copy.bytes.size(); ++i) {
        uint32_t at = copy.sharedOffsets[i];
        endAsyncWrite(b, {at, 1});
        b.shared[at] = copy.bytes[i];
        b.races.land(&b.sharedShadow[at], 1, Epoch{copy.epoch, m.agent, 0});
      }
    m.landed.clear();
  }
  EmulatedThread *t = b.current;
  if (complete) {
    t->clock.join(m.completed);
  } else {
    settlePendingWrites(b, *t);
    t->spinning = true;
    swapcontext(&t->context, &b.scheduler);
  }
  return complete;
}

/// cp.async.mbarrier.arrive: the arrival happens when the thread's earlier
/// cp.async copies are done; the emulator completes them now. Without
/// .noinc the pending count is raised first, so the phase still waits for
/// the other arrivals.
extern "C" void __nautilus_emu_cp_async_mbarrier_arrive(void *address,
                                                        int32_t noinc) {
  __nautilus_emu_cp_async_wait_all();
  MBarrier &m = mbarrierInUse(address, "a cp.async.mbarrier.arrive");
  if (!noinc)
    ++m.pending;
  __nautilus_emu_mbarrier_arrive(address, 1, 0, 0);
}
