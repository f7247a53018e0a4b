//===- HappensBefore.h - Races whatever order the fibres run in -*- C++ -*-===//
//
// The emulator runs a block's threads one at a time, in an order of its
// own (--fibre-order); the GPU runs them at once. Two accesses to a byte,
// at least one of them a write and neither atomic, race unless the PTX
// memory model orders one before the other. The race detector tracks that
// order with vector clocks (FastTrack's epochs), so that a race is found
// in whatever order the fibres ran:
//
//  - Each agent of a block has a component: its threads (0 to n-1), the
//    wgmma unit of each warpgroup (whose operand reads end at
//    wgmma.wait_group), and each mbarrier (whose TMA copies land when a
//    phase completes).
//  - A thread's clock advances at each release (an arrival at a barrier
//    or an mbarrier). A barrier generation joins the clocks of the threads
//    that arrive at it and gives the join to those that wait; an mbarrier
//    phase joins its arrivals' clocks, and a thread that observes the
//    phase complete takes them.
//  - Each byte keeps the epoch of its last write (or, for concurrent
//    writes of one value, each writer's) and of the reads since (one, or
//    a set of concurrent ones). An access whose clock does not cover them
//    races.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_HAPPENSBEFORE_H
#define NAUTILUS_RUNTIME_EMULATOR_HAPPENSBEFORE_H

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nautilus::emu::detail {

/// A point in one agent's history: agent `who` at `clock` (0: none). In a
/// shadow cell, `set` marks `clock` as the index of a set of epochs.
struct Epoch {
  uint32_t clock = 0;
  uint16_t who = 0;
  uint16_t set = 0;
};

/// A vector clock: for each agent, the latest of its epochs known to
/// happen before (missing components are 0).
class VectorClock {
public:
  uint32_t get(uint32_t who) const { return who < c.size() ? c[who] : 0; }
  void raise(uint32_t who, uint32_t clock) {
    if (who >= c.size())
      c.resize(who + 1, 0);
    if (c[who] < clock)
      c[who] = clock;
  }
  /// Whether `e` happens before the owner's present.
  bool covers(Epoch e) const { return get(e.who) >= e.clock; }
  void join(const VectorClock &other);
  void clear() { c.clear(); }

private:
  std::vector<uint32_t> c;
};

/// What the race detector keeps for a byte: its last write and the reads
/// since.
struct ShadowCell {
  Epoch write, read;
};

/// Which earlier access an access races with.
struct Race {
  enum Kind { None, ReadAfterWrite, WriteAfterRead, WriteAfterWrite };
  Kind kind = None;
  Epoch other;   // the earlier access
  uint32_t byte = 0; // its index in the access
};

/// A write of bytes that a concurrent write of another agent also wrote:
/// no race if it stored the same value (compilers store replicated values
/// from several threads), which is known only once the store is done.
struct PendingWrite {
  const char *address = nullptr;
  uint64_t offset = 0; // for the report
  int32_t buffer = -1; // -1: shared memory
  Epoch other;
  std::vector<std::pair<uint32_t, char>> bytes; // index, value before
};

/// The sets of epochs of bytes read (or written the same) concurrently.
/// A set is shared by the cells that hold it (the bytes of one access end
/// up with one set) and counts them; one held by a single cell changes in
/// place, a shared one is copied first. Their storage is kept for reuse.
class EpochSets {
public:
  std::vector<Epoch> &operator[](uint32_t index) { return sets[index].epochs; }
  /// A new set, held once.
  uint32_t make(const std::vector<Epoch> &epochs);
  void retain(uint32_t index) { ++sets[index].holders; }
  void release(uint32_t index);
  bool shared(uint32_t index) const { return sets[index].holders > 1; }
  void clear();

private:
  struct Set {
    uint32_t holders = 0;
    std::vector<Epoch> epochs;
  };
  std::vector<Set> sets;
  std::vector<uint32_t> unused;
};

/// The race detector's checks on a run of shadow cells.
class ShadowChecks {
public:
  /// A read by an agent whose clock is `clock`: returns the first write it
  /// races with, and (if `as` has a clock) records the read as `as` (the
  /// reader's epoch, or the asynchronous unit that reads for it).
  Race read(ShadowCell *cells, uint32_t bytes, const VectorClock &clock,
            Epoch as);
  /// A write: returns the first read it races with, or a write of another
  /// agent it races with when `pending` is null; with `pending`, such
  /// writes are added to it to be compared once the store is done. Records
  /// the write as `as` if it has a clock.
  Race write(ShadowCell *cells, uint32_t bytes, const VectorClock &clock,
             Epoch as, PendingWrite *pending);
  /// An asynchronous copy lands (its conflicts were checked when it was
  /// issued and while it was in flight): the bytes' writer becomes `as`.
  void land(ShadowCell *cells, uint32_t bytes, Epoch as);
  /// The writes of a cell (one, or a set), for the async proxy check: the
  /// first and how many.
  std::pair<const Epoch *, size_t> writesOf(const ShadowCell &cell);
  void clear() { sets.clear(); }

private:
  /// The first epoch of `e` (one, or a set) that `clock` does not cover.
  Epoch uncovered(Epoch e, const VectorClock &clock);
  /// `e` (one epoch or a set) with those `clock` covers or of `as`'s agent
  /// dropped, and `as` added (`keepNewer`: an earlier epoch of `as`'s agent
  /// stays if later).
  Epoch add(Epoch e, const VectorClock &clock, Epoch as, bool keepNewer);
  /// Sets `to` to `e`, holding a set once more.
  void assign(Epoch &to, Epoch e) {
    if (e.set)
      sets.retain(e.clock);
    forget(to);
    to = e;
  }
  void forget(Epoch &e) {
    if (e.set)
      sets.release(e.clock);
    e = Epoch();
  }
  EpochSets sets;
  std::vector<Epoch> scratch;
};

/// The shadow of the global memory a block touches, by pages of 4 KiB of
/// a launch's writable buffers, allocated as the block touches them.
class GlobalShadow {
public:
  static constexpr uint64_t kPageBytes = 4096;
  /// The most bytes one block's shadow covers (16 bytes of shadow a byte:
  /// 64 MiB); a block that touches more is not checked further.
  static constexpr uint64_t kMaxBytes = uint64_t(4) << 20;
  /// The cells of bytes [at, at + bytes) (host addresses), or null once
  /// the block passed kMaxBytes. `bytes` may cross a page: the cells are
  /// then those of the first page's part, and `span` says how many.
  ShadowCell *cells(uintptr_t at, uint64_t bytes, uint64_t &span);
  /// Forgets every page (a new block).
  void reset();
  bool exhausted() const { return full; }

private:
  std::unordered_map<uintptr_t, ShadowCell *> pages;
  std::vector<std::unique_ptr<ShadowCell[]>> pool;
  size_t used = 0;
  uintptr_t lastKey = ~uintptr_t(0);
  ShadowCell *lastPage = nullptr;
  bool full = false;
};

} // namespace nautilus::emu::detail

#endif
