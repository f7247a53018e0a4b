//===- RaceChecks.cpp - A block's accesses against its clocks -------------===//
//
// The race detector's side of the emulation runtime (HappensBefore.h has
// the model): the threads' clocks, what each synchronisation does to them
// (barriers here; mbarriers, cp.async, TMA and wgmma where they are
// emulated), and the checks of shared and global accesses, with their
// reports.
//
// Atomic read-modify-writes are not checked (they do not race with each
// other, and the emulator does not model their ordering of other
// accesses). Global bytes of read-only buffers (inputs) are not watched:
// nothing writes them.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/EmulatorState.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstring>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

Epoch nautilus::emu::detail::currentEpoch(const BlockState &b) {
  uint32_t me = linearTid(b);
  return Epoch{b.current->clock.get(me), static_cast<uint16_t>(me), 0};
}

uint16_t nautilus::emu::detail::wgmmaAgent(const BlockState &b) {
  return static_cast<uint16_t>(b.threads + linearTid(b) / 128);
}

void nautilus::emu::detail::release(BlockState &b, VectorClock &into) {
  EmulatedThread &t = *b.current;
  uint32_t me = linearTid(b);
  into.join(t.clock);
  t.clock.raise(me, t.clock.get(me) + 1);
}

void nautilus::emu::detail::startClocks(BlockState &b,
                                        std::vector<EmulatedThread> &fibres) {
  b.threads = static_cast<uint32_t>(fibres.size());
  b.nextAgent = static_cast<uint16_t>(b.threads + (b.threads + 127) / 128);
  for (uint32_t i = 0; i < fibres.size(); ++i) {
    EmulatedThread &t = fibres[i];
    t.clock.clear();
    t.clock.raise(i, 1);
    t.fenceView.clear();
    t.fenceEpochs.clear();
    t.pendingWrites.clear();
  }
  for (VectorClock &c : b.barrierClocks)
    c.clear();
  b.races.clear();
  b.globalShadow.reset();
}

namespace {

/// Who agent `who` of the block is, for a report.
std::string agentName(const BlockState &b, uint16_t who) {
  if (who < b.threads)
    return "thread " + std::to_string(who);
  uint32_t warpgroups = (b.threads + 127) / 128;
  if (who < b.threads + warpgroups)
    return "the wgmma of warpgroup " + std::to_string(who - b.threads) +
           " (until its wgmma.wait_group)";
  for (const auto &[address, m] : b.mbarriers)
    if (m.agent == who)
      return "a TMA copy completing on the mbarrier at shared byte offset " +
             std::to_string(m.offset);
  return "an asynchronous copy";
}

/// The report of `race` by `what` (an access of the current thread) at
/// `where` ("shared byte offset 12", "byte offset 8 of buffer #2").
void reportRace(BlockState &b, const Race &race, bool isStore,
                const char *what, const std::string &where,
                const char *memory) {
  static const char *const kinds[] = {"", "read after write",
                                      "write after read", "write after write"};
  const char *earlier = race.kind == Race::WriteAfterRead ? " read" : " wrote";
  if (race.kind == Race::WriteAfterWrite)
    earlier = " wrote a different value";
  b.launch->fail(std::string(memory) + " race (" + kinds[race.kind] +
                 "): " + what + " by " + threadName(b) +
                 (isStore ? " writes " : " reads ") + where + ", which " +
                 agentName(b, race.other.who) + earlier +
                 ", and nothing orders the two (no barrier both take part "
                 "in, no mbarrier phase or wait between them)");
}

std::string sharedWhere(uint64_t offset) {
  return "byte offset " + std::to_string(offset);
}

std::string globalWhere(int32_t buffer, uint64_t offset) {
  return "byte offset " + std::to_string(offset) + " of buffer #" +
         std::to_string(buffer);
}

} // namespace

void nautilus::emu::detail::settlePendingWrites(BlockState &b,
                                                EmulatedThread &t) {
  if (t.pendingWrites.empty())
    return;
  std::vector<PendingWrite> pending = std::move(t.pendingWrites);
  t.pendingWrites.clear();
  for (const PendingWrite &p : pending)
    for (auto [index, before] : p.bytes) {
      if (p.address[index] == before)
        continue;
      Race race{Race::WriteAfterWrite, p.other, index};
      bool shared = p.buffer < 0;
      reportRace(b, race, /*isStore=*/true, "a store",
                 shared ? sharedWhere(p.offset + index)
                        : globalWhere(p.buffer, p.offset + index),
                 shared ? "shared-memory" : "global");
      return;
    }
}

void nautilus::emu::detail::checkShared(BlockState &b, size_t offset,
                                        int64_t bytes, bool isStore,
                                        const char *what) {
  what = what ? what : isStore ? "a store" : "a load";
  checkAsyncHazard(b, static_cast<uint32_t>(offset),
                   static_cast<uint32_t>(bytes), isStore, what);
  EmulatedThread &t = *b.current;
  settlePendingWrites(b, t);
  ShadowCell *cells = b.sharedShadow.data() + offset;
  Epoch me = currentEpoch(b);
  Race race;
  if (isStore) {
    PendingWrite pending;
    pending.address = b.shared.data() + offset;
    pending.offset = offset;
    race = b.races.write(cells, uint32_t(bytes), t.clock, me, &pending);
    if (!pending.bytes.empty())
      t.pendingWrites.push_back(std::move(pending));
    std::fill(b.writeFences.begin() + offset,
              b.writeFences.begin() + offset + bytes, t.proxyFences);
  } else {
    race = b.races.read(cells, uint32_t(bytes), t.clock, me);
  }
  if (race.kind != Race::None)
    reportRace(b, race, isStore, what, sharedWhere(offset + race.byte),
               "shared-memory");
}

void nautilus::emu::detail::checkSharedRead(BlockState &b, uint32_t offset,
                                            uint32_t bytes, Epoch as,
                                            const char *what) {
  checkAsyncHazard(b, offset, bytes, /*isWrite=*/false, what);
  Race race =
      b.races.read(b.sharedShadow.data() + offset, bytes, b.current->clock, as);
  if (race.kind != Race::None)
    reportRace(b, race, /*isStore=*/false, what,
               sharedWhere(offset + race.byte), "shared-memory");
}

void nautilus::emu::detail::checkAsyncWriteIssue(BlockState &b,
                                                 uint32_t offset,
                                                 uint32_t bytes,
                                                 const char *what) {
  Race race = b.races.write(b.sharedShadow.data() + offset, bytes,
                            b.current->clock, Epoch(), nullptr);
  if (race.kind != Race::None)
    reportRace(b, race, /*isStore=*/true, what,
               sharedWhere(offset + race.byte), "shared-memory");
}

void nautilus::emu::detail::checkGlobal(BlockState &b, int32_t buffer,
                                        uintptr_t at, uintptr_t begin,
                                        int64_t bytes, bool isStore) {
  EmulatedThread &t = *b.current;
  settlePendingWrites(b, t);
  Epoch me = currentEpoch(b);
  for (uint64_t done = 0; done < uint64_t(bytes);) {
    uint64_t span = 0;
    ShadowCell *cells =
        b.globalShadow.cells(at + done, uint64_t(bytes) - done, span);
    if (!cells) {
      b.launch->note("races on global memory within a block are not "
                     "checked past the first " +
                     std::to_string(GlobalShadow::kMaxBytes >> 20) +
                     " MiB of writable buffers a block touches");
      return;
    }
    PendingWrite pending;
    pending.address = reinterpret_cast<const char *>(at + done);
    pending.offset = at + done - begin;
    pending.buffer = buffer;
    Race race = isStore ? b.races.write(cells, uint32_t(span), t.clock, me,
                                        &pending)
                        : b.races.read(cells, uint32_t(span), t.clock, me);
    if (!pending.bytes.empty())
      t.pendingWrites.push_back(std::move(pending));
    if (race.kind != Race::None) {
      reportRace(b, race, isStore, isStore ? "a store" : "a load",
                 globalWhere(buffer, at + done - begin + race.byte),
                 "global");
      return;
    }
    done += span;
  }
}

/// bar.sync (wait) and bar.arrive on barrier `id`, which releases once
/// `count` threads (0: all the block's threads) have arrived: the
/// generation joins its arrivals' clocks and gives the join to the
/// threads that wait at it (and to no other).
extern "C" void __nautilus_emu_barrier(int32_t id, int32_t count,
                                       int32_t wait) {
  BlockState &b = *currentBlock;
  EmulatedThread *t = b.current;
  uint32_t slot = static_cast<uint32_t>(id) & 15;
  uint32_t expected = count > 0 ? static_cast<uint32_t>(count)
                                : b.ntid[0] * b.ntid[1] * b.ntid[2];
  settlePendingWrites(b, *t);
  b.barrierExpected[slot] = expected;
  release(b, b.barrierClocks[slot]);
  ++b.progress;
  if (wait) {
    t->atBarrier = true;
    t->barrierId = slot;
  }
  if (++b.barrierArrived[slot] >= expected) {
    // The generation completes: its waiters take the arrivals' clocks.
    for (EmulatedThread &waiter : *b.fibres)
      if (waiter.atBarrier && waiter.barrierId == slot) {
        waiter.atBarrier = false;
        waiter.clock.join(b.barrierClocks[slot]);
      }
    b.barrierArrived[slot] -= expected;
    if (b.barrierArrived[slot] == 0)
      b.barrierExpected[slot] = 0;
    b.barrierClocks[slot].clear();
  }
  // A waiting thread yields even when its arrival completed the barrier,
  // so that the threads it releases resume in the fibre order.
  if (wait)
    swapcontext(&t->context, &b.scheduler);
}

/// fence.proxy.async: the thread's shared-memory stores so far become
/// visible to the async proxy, and so do the stores ordered before it.
extern "C" void __nautilus_emu_proxy_fence() {
  BlockState &b = *currentBlock;
  EmulatedThread &t = *b.current;
  ++t.proxyFences;
  t.fenceEpochs.push_back(t.clock.get(linearTid(b)));
  t.fenceView = t.clock;
}

/// An async-proxy read of a byte a thread stored is right when a
/// fence.proxy.async comes between: the writer's first fence after its
/// store happens before the read, or the reading thread fenced after the
/// store was ordered before it.
void nautilus::emu::detail::checkAsyncProxyRead(BlockState &b,
                                                uint32_t offset,
                                                uint32_t bytes,
                                                const char *what) {
  EmulatedThread &t = *b.current;
  uint32_t me = linearTid(b);
  for (uint32_t at = offset; at < offset + bytes; ++at) {
    const ShadowCell &cell = b.sharedShadow[at];
    if (cell.write.clock == 0)
      continue;
    auto [writes, count] = b.races.writesOf(cell);
    for (const Epoch &e : llvm::ArrayRef(writes, count)) {
      if (e.who >= b.threads)
        continue; // the async proxy wrote it (a TMA copy)
      const EmulatedThread &writer = (*b.fibres)[e.who];
      uint32_t fence = b.writeFences[at];
      if (fence < writer.fenceEpochs.size() &&
          t.clock.get(e.who) >= writer.fenceEpochs[fence])
        continue;
      if (e.who != me && t.fenceView.get(e.who) >= e.clock)
        continue;
      b.launch->fail(std::string("async proxy hazard: ") + what + " by " +
                     threadName(b) + " reads shared byte offset " +
                     std::to_string(at) + ", which thread " +
                     std::to_string(e.who) +
                     " stored with no fence.proxy.async since (the async "
                     "proxy may not see the store: fence after storing, "
                     "then synchronise)");
      return;
    }
  }
}
