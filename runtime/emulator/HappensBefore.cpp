//===- HappensBefore.cpp - Vector clocks and shadow cells -----------------===//
//
// The checks of HappensBefore.h on a run of shadow cells. A read races
// with a write its clock does not cover; a write with a read or a write
// its clock does not cover, except that a concurrent write by another
// agent of the value already there is no race (the caller compares the
// values once the store is done, PendingWrite): the byte then keeps every
// such writer, and a later access must be ordered after all of them.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/HappensBefore.h"

#include <algorithm>

using namespace nautilus::emu::detail;

void VectorClock::join(const VectorClock &other) {
  if (other.c.size() > c.size())
    c.resize(other.c.size(), 0);
  for (size_t i = 0; i < other.c.size(); ++i)
    c[i] = std::max(c[i], other.c[i]);
}

uint32_t EpochSets::make(const std::vector<Epoch> &epochs) {
  uint32_t index;
  if (!unused.empty()) {
    index = unused.back();
    unused.pop_back();
  } else {
    index = static_cast<uint32_t>(sets.size());
    sets.emplace_back();
  }
  sets[index].epochs.assign(epochs.begin(), epochs.end());
  sets[index].holders = 1;
  return index;
}

void EpochSets::release(uint32_t index) {
  if (--sets[index].holders != 0)
    return;
  sets[index].epochs.clear();
  unused.push_back(index);
}

void EpochSets::clear() {
  unused.clear();
  for (size_t i = sets.size(); i-- > 0;) {
    sets[i].holders = 0;
    sets[i].epochs.clear();
    unused.push_back(static_cast<uint32_t>(i));
  }
}

namespace {

bool same(Epoch a, Epoch b) {
  return a.clock == b.clock && a.who == b.who && a.set == b.set;
}

} // namespace

Epoch ShadowChecks::uncovered(Epoch e, const VectorClock &clock) {
  if (!e.set)
    return e.clock && !clock.covers(e) ? e : Epoch();
  for (Epoch x : sets[e.clock])
    if (!clock.covers(x))
      return x;
  return Epoch();
}

Epoch ShadowChecks::add(Epoch e, const VectorClock &clock, Epoch as,
                        bool keepNewer) {
  scratch.clear();
  auto keep = [&](Epoch x) {
    if (x.who == as.who) {
      if (keepNewer && x.clock > as.clock)
        as.clock = x.clock;
    } else if (x.clock && !clock.covers(x)) {
      scratch.push_back(x);
    }
  };
  if (e.set)
    for (Epoch x : sets[e.clock])
      keep(x);
  else
    keep(e);
  if (scratch.empty())
    return as;
  scratch.push_back(as);
  if (e.set && !sets.shared(e.clock)) {
    sets[e.clock] = scratch; // in place: the caller forgets `e` after
    sets.retain(e.clock);
    return e;
  }
  return Epoch{sets.make(scratch), 0, 1};
}

// The bytes of one access mostly share their state (written and read
// together): a byte whose write and reads are those of the byte before
// gets the same result without the checks, and shares its set.

Race ShadowChecks::read(ShadowCell *cells, uint32_t bytes,
                        const VectorClock &clock, Epoch as) {
  Epoch lastWrite, lastRead, lastResult;
  bool run = false;
  for (uint32_t i = 0; i < bytes; ++i) {
    ShadowCell &cell = cells[i];
    if (run && same(cell.write, lastWrite) && same(cell.read, lastRead)) {
      if (as.clock)
        assign(cell.read, lastResult);
      continue;
    }
    Epoch unordered = uncovered(cell.write, clock);
    if (unordered.clock)
      return {Race::ReadAfterWrite, unordered, i};
    lastWrite = cell.write;
    lastRead = cell.read;
    run = true;
    if (!as.clock)
      continue;
    // A read that an earlier read of the byte happens before subsumes it
    // (whatever is ordered after the new one is ordered after the old), so
    // a byte keeps one read, or a set of reads none of which happens
    // before another (threads reading it between the same barriers).
    Epoch r = cell.read, result;
    if (!r.set && (r.clock == 0 || clock.covers(r))) {
      result = as;
    } else if (!r.set && r.who == as.who) {
      result = r;
      result.clock = std::max(r.clock, as.clock);
    } else {
      result = add(r, clock, as, /*keepNewer=*/true);
    }
    forget(cell.read);
    cell.read = lastResult = result;
  }
  return Race();
}

Race ShadowChecks::write(ShadowCell *cells, uint32_t bytes,
                         const VectorClock &clock, Epoch as,
                         PendingWrite *pending) {
  Epoch lastWrite, lastRead, lastResult;
  bool run = false, concurrent = false;
  for (uint32_t i = 0; i < bytes; ++i) {
    ShadowCell &cell = cells[i];
    if (run && same(cell.write, lastWrite) && same(cell.read, lastRead)) {
      if (concurrent)
        pending->bytes.push_back({i, pending->address[i]});
      if (as.clock) {
        forget(cell.read);
        assign(cell.write, lastResult);
      }
      continue;
    }
    Epoch reader = uncovered(cell.read, clock);
    if (reader.clock)
      return {Race::WriteAfterRead, reader, i};
    Epoch writer = uncovered(cell.write, clock);
    if (writer.clock) {
      if (!pending)
        return {Race::WriteAfterWrite, writer, i};
      if (pending->bytes.empty())
        pending->other = writer;
      pending->bytes.push_back({i, pending->address[i]});
    }
    lastWrite = cell.write;
    lastRead = cell.read;
    concurrent = writer.clock != 0;
    run = true;
    if (!as.clock)
      continue;
    // A concurrent write of the same value (PendingWrite) leaves the byte
    // with every writer not ordered before this one.
    Epoch result = concurrent ? add(cell.write, clock, as, false) : as;
    forget(cell.read);
    forget(cell.write);
    cell.write = lastResult = result;
  }
  return Race();
}

void ShadowChecks::land(ShadowCell *cells, uint32_t bytes, Epoch as) {
  for (uint32_t i = 0; i < bytes; ++i) {
    forget(cells[i].read);
    forget(cells[i].write);
    cells[i].write = as;
  }
}

std::pair<const Epoch *, size_t>
ShadowChecks::writesOf(const ShadowCell &cell) {
  if (cell.write.set) {
    const std::vector<Epoch> &writers = sets[cell.write.clock];
    return {writers.data(), writers.size()};
  }
  return {&cell.write, cell.write.clock ? 1 : 0};
}

ShadowCell *GlobalShadow::cells(uintptr_t at, uint64_t bytes,
                                uint64_t &span) {
  uintptr_t key = at / kPageBytes;
  uint64_t within = at % kPageBytes;
  span = std::min<uint64_t>(bytes, kPageBytes - within);
  if (key == lastKey)
    return lastPage + within;
  auto found = pages.find(key);
  if (found == pages.end()) {
    if ((used + 1) * kPageBytes > kMaxBytes) {
      full = true;
      return nullptr;
    }
    if (used == pool.size())
      pool.emplace_back(new ShadowCell[kPageBytes]());
    found = pages.emplace(key, pool[used++].get()).first;
  }
  lastKey = key;
  lastPage = found->second;
  return lastPage + within;
}

void GlobalShadow::reset() {
  for (size_t i = 0; i < used; ++i)
    std::fill(pool[i].get(), pool[i].get() + kPageBytes, ShadowCell());
  pages.clear();
  used = 0;
  lastKey = ~uintptr_t(0);
  lastPage = nullptr;
  full = false;
}
