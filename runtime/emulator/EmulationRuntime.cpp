//===- EmulationRuntime.cpp - What emulated kernels call ------------------===//
//
// The functions the rewritten kernels call: special registers, checked
// memory accesses and shared memory, warp collectives (shuffles, votes,
// ldmatrix, mma.sync), cp.async and wgmma's groups, each with the PTX ISA's
// meaning (barriers are in RaceChecks.cpp, mbarriers in MBarriers.cpp).
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/EmulatorState.h"
#include "runtime/DType.h"

#include <algorithm>
#include <cstring>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

thread_local BlockState *nautilus::emu::detail::currentBlock = nullptr;

extern "C" int32_t __nautilus_emu_sreg(int32_t which) {
  BlockState &b = *currentBlock;
  const EmulatedThread &t = *b.current;
  switch (which) {
  case TidX: case TidY: case TidZ: return t.tid[which - TidX];
  case NtidX: case NtidY: case NtidZ: return b.ntid[which - NtidX];
  case CtaidX: case CtaidY: case CtaidZ: return b.ctaid[which - CtaidX];
  case NctaidX: case NctaidY: case NctaidZ: return b.nctaid[which - NctaidX];
  case LaneId: {
    uint32_t linear = t.tid[0] + b.ntid[0] * (t.tid[1] + b.ntid[1] * t.tid[2]);
    return linear % 32;
  }
  case WarpSize: return 32;
  }
  return 0;
}

/// Where an access outside every buffer goes instead: it reads zeros and
/// its writes are dropped.
alignas(64) thread_local char quarantine[4096];

std::string nautilus::emu::detail::threadName(const BlockState &b) {
  const EmulatedThread &t = *b.current;
  return "thread (" + std::to_string(t.tid[0]) + ", " +
         std::to_string(t.tid[1]) + ", " + std::to_string(t.tid[2]) +
         ") of block (" + std::to_string(b.ctaid[0]) + ", " +
         std::to_string(b.ctaid[1]) + ", " + std::to_string(b.ctaid[2]) + ")";
}

uint32_t nautilus::emu::detail::linearTid(const BlockState &b) {
  const EmulatedThread &t = *b.current;
  return t.tid[0] + b.ntid[0] * (t.tid[1] + b.ntid[1] * t.tid[2]);
}

/// The `isStore` of an atomic read-modify-write.
static constexpr int32_t kAtomicAccess = 2;

extern "C" void *__nautilus_emu_access_if(bool predicate, void *address,
                                          int64_t bytes, int32_t isStore) {
  if (predicate)
    return __nautilus_emu_access(address, bytes, isStore);
  std::memset(quarantine, 0, sizeof(quarantine));
  return quarantine;
}

/// The shared range `bytes` at `address` covers, if inside shared memory.
static bool sharedRangeOf(const BlockState &b, const void *address,
                          int32_t bytes, SharedRange &range) {
  auto at = reinterpret_cast<uintptr_t>(address);
  auto begin = reinterpret_cast<uintptr_t>(b.shared.data());
  if (bytes <= 0 || at < begin || at + bytes > begin + b.shared.size())
    return false;
  range = {static_cast<uint32_t>(at - begin), static_cast<uint32_t>(bytes)};
  return true;
}

/// Records, for the memory profile, the current lane's access of `bytes`
/// at `address` from site `site`: a shared one, or a global one (inside a
/// launch buffer).
static void profileAccess(BlockState &b, const void *address, int64_t bytes,
                          bool isStore, int32_t site) {
  uint32_t tid = linearTid(b);
  uint32_t execution = b.current->siteExecutions[site]++;
  SharedRange range;
  if (sharedRangeOf(b, address, int32_t(bytes), range)) {
    b.accessLog->record(tid / 32, site, execution,
                        isStore ? AccessLog::Store : AccessLog::Load,
                        {tid % 32, range.offset, range.bytes});
    return;
  }
  auto at = reinterpret_cast<uintptr_t>(address);
  const std::vector<MemoryRange> &buffers = *b.launch->buffers;
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto first = reinterpret_cast<uintptr_t>(buffers[i].begin);
    if (at >= first && at + bytes <= first + buffers[i].bytes) {
      b.accessLog->recordGlobal(
          tid / 32, site, execution,
          isStore ? AccessLog::GlobalStore : AccessLog::GlobalLoad,
          {tid % 32, globalProfileAddress(b, address), uint32_t(bytes)});
      return;
    }
  }
}

uint64_t nautilus::emu::detail::globalProfileAddress(const BlockState &b,
                                                     const void *address) {
  auto at = reinterpret_cast<uintptr_t>(address);
  const std::vector<MemoryRange> &buffers = *b.launch->buffers;
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto first = reinterpret_cast<uintptr_t>(buffers[i].begin);
    if (at >= first && at < first + buffers[i].bytes)
      return (uint64_t(i) << 40) | (at - first);
  }
  return at;
}

/// A kernel's own load or store (`site` numbers the instruction): checked
/// as any access, and recorded for the memory profile.
extern "C" void *__nautilus_emu_access_at(void *address, int64_t bytes,
                                          int32_t isStore, int32_t site) {
  BlockState &b = *currentBlock;
  if (b.accessLog && isStore != kAtomicAccess)
    profileAccess(b, address, bytes, isStore != 0, site);
  return __nautilus_emu_access(address, bytes, isStore);
}

extern "C" void *__nautilus_emu_shared(int64_t offset) {
  return currentBlock->shared.data() + offset;
}

/// A shared address as an integer is its offset in the block's shared
/// memory window, as on the GPU (descriptors and swizzles are computed on
/// such addresses).
extern "C" int64_t __nautilus_emu_shared_offset(const void *address) {
  return static_cast<const char *>(address) - currentBlock->shared.data();
}

extern "C" void *__nautilus_emu_access(void *address, int64_t bytes,
                                       int32_t isStore) {
  // isStore: 0 a load, 1 a store, kAtomicAccess an atomic read-modify-write
  // (one host instruction: the block's fibres run one at a time, blocks on
  // host threads, so it is atomic as on the GPU).
  BlockState &b = *currentBlock;
  auto at = reinterpret_cast<uintptr_t>(address);
  auto sharedBegin = reinterpret_cast<uintptr_t>(b.shared.data());
  if (!b.shared.empty() && at >= sharedBegin &&
      at < sharedBegin + b.shared.size()) {
    if (at + bytes <= sharedBegin + b.shared.size()) {
      // Atomic read-modify-writes (isStore 2) do not race with each other.
      if (isStore != kAtomicAccess)
        checkShared(b, at - sharedBegin, bytes, isStore);
      return address;
    }
    b.launch->fail("out-of-bounds shared " +
                   std::string(isStore ? "store" : "load") + " of " +
                   std::to_string(bytes) + " bytes at byte offset " +
                   std::to_string(at - sharedBegin) + " of " +
                   std::to_string(b.shared.size()) + " by " + threadName(b));
    std::memset(quarantine, 0, sizeof(quarantine));
    return quarantine;
  }
  const std::vector<MemoryRange> &buffers = *b.launch->buffers;
  if (buffers.empty())
    return address;
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto begin = reinterpret_cast<uintptr_t>(buffers[i].begin);
    if (at < begin || at + bytes > begin + buffers[i].bytes)
      continue;
    if (isStore != 0 && buffers[i].readOnly) {
      b.launch->fail("global store of " + std::to_string(bytes) +
                     " bytes at byte offset " + std::to_string(at - begin) +
                     " of buffer #" + std::to_string(i) + " by " +
                     threadName(b) + ": the buffer is read-only (an input)");
      return address;
    }
    // Atomic read-modify-writes are ordered among themselves.
    if (isStore == kAtomicAccess)
      return address;
    if (!buffers[i].readOnly)
      checkGlobal(b, static_cast<int32_t>(i), at, begin, bytes, isStore != 0);
    if (b.launch->globalAccesses)
      if (std::string race = b.launch->globalAccesses->record(
              i, at - begin, bytes, isStore != 0, b.id);
          !race.empty())
        b.launch->fail("global race: " + threadName(b) + ": " + race);
    return address;
  }
  // Name the nearest buffer, so the report says how far off the access is.
  std::string where = "outside every buffer";
  intptr_t best = INTPTR_MAX;
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto begin = reinterpret_cast<intptr_t>(buffers[i].begin);
    intptr_t offset = static_cast<intptr_t>(at) - begin;
    intptr_t distance = offset < 0 ? -offset
                                   : offset - static_cast<intptr_t>(buffers[i].bytes);
    if (distance < best) {
      best = distance;
      where = "at byte offset " + std::to_string(offset) + " of buffer #" +
              std::to_string(i) + " (" + std::to_string(buffers[i].bytes) +
              " bytes)";
    }
  }
  b.launch->fail("out-of-bounds global " + std::string(isStore ? "store" : "load") +
                 " of " + std::to_string(bytes) + " bytes " + where + " by " +
                 threadName(b));
  std::memset(quarantine, 0, sizeof(quarantine));
  return bytes <= static_cast<int64_t>(sizeof(quarantine)) ? quarantine
                                                           : nullptr;
}

/// Suspends the calling lane in a warp collective until the scheduler has
/// completed it for every lane of its member mask.
uint32_t nautilus::emu::detail::warpCollective(WarpCall::Kind kind,
                                               uint32_t mask, uint32_t value,
                                               uint32_t b, uint32_t c) {
  BlockState &block = *currentBlock;
  EmulatedThread *t = block.current;
  t->warp = WarpCall{kind, mask, value, b, c, 0};
  ++block.progress;
  swapcontext(&t->context, &block.scheduler);
  return t->warp.result;
}

extern "C" uint32_t __nautilus_emu_shfl(int32_t mode, uint32_t mask,
                                        uint32_t value, uint32_t b,
                                        uint32_t c) {
  return warpCollective(static_cast<WarpCall::Kind>(WarpCall::ShuffleIdx + mode),
                        mask, value, b, c);
}

extern "C" void __nautilus_emu_ldmatrix(const void *address, int32_t matrices,
                                        int32_t transpose, uint32_t *out) {
  BlockState &block = *currentBlock;
  EmulatedThread *t = block.current;
  t->warp = WarpCall{WarpCall::LdMatrix, 0xffffffffu, 0,
                     static_cast<uint32_t>(matrices),
                     static_cast<uint32_t>(transpose), 0};
  t->warp.address = address;
  ++block.progress;
  swapcontext(&t->context, &block.scheduler);
  for (int i = 0; i < matrices; ++i)
    out[i] = t->warp.out[i];
}

extern "C" void __nautilus_emu_mma(int32_t kind, const uint32_t *in,
                                   uint32_t *out) {
  BlockState &block = *currentBlock;
  EmulatedThread *t = block.current;
  t->warp = WarpCall{WarpCall::Mma, 0xffffffffu, 0,
                     static_cast<uint32_t>(kind), 0, 0};
  std::copy(in, in + 10, t->warp.in.begin());
  ++block.progress;
  swapcontext(&t->context, &block.scheduler);
  std::copy(t->warp.out.begin(), t->warp.out.end(), out);
}

/// A copy is in flight, writing its destination, from here until a wait
/// lands it.
extern "C" void __nautilus_emu_cp_async(void *destination, const void *source,
                                        int32_t bytes, int32_t sourceBytes) {
  BlockState &b = *currentBlock;
  SharedRange range;
  if (sharedRangeOf(b, destination, bytes, range)) {
    checkAsyncHazard(b, range.offset, range.bytes, /*isWrite=*/true,
                     "a cp.async copy");
    checkAsyncWriteIssue(b, range.offset, range.bytes, "a cp.async copy");
    beginAsyncWrite(b, range, AsyncKind::CpAsync);
  }
  if (b.accessLog && sourceBytes > 0) // the copy's read of global memory
    profileAccess(b, source, std::min(sourceBytes, bytes), /*isStore=*/false,
                  AccessLog::kAsyncCopyIssueSite);
  b.current->openGroup.push_back(
      {destination, source, bytes, std::min(sourceBytes, bytes)});
}

extern "C" void __nautilus_emu_cp_async_commit() {
  EmulatedThread &t = *currentBlock->current;
  t.groups.push_back(std::move(t.openGroup));
  t.openGroup.clear();
}

/// Lands every committed group but the newest `pending`.
extern "C" void __nautilus_emu_cp_async_wait(int32_t pending) {
  EmulatedThread &t = *currentBlock->current;
  while (t.groups.size() > static_cast<size_t>(std::max(pending, 0))) {
    for (const PendingCopy &copy : t.groups.front()) {
      SharedRange range;
      if (sharedRangeOf(*currentBlock, copy.destination, copy.bytes, range)) {
        endAsyncWrite(*currentBlock, range);
        if (AccessLog *log = currentBlock->accessLog) {
          uint32_t tid = linearTid(*currentBlock);
          log->record(tid / 32, AccessLog::kAsyncCopySite,
                      t.siteExecutions[AccessLog::kAsyncCopySite]++,
                      AccessLog::AsyncCopy,
                      {tid % 32, range.offset, range.bytes});
        }
      }
      char staged[16] = {};
      if (copy.sourceBytes > 0)
        std::memcpy(staged,
                    __nautilus_emu_access(const_cast<void *>(copy.source),
                                          copy.sourceBytes, /*isStore=*/0),
                    copy.sourceBytes);
      std::memcpy(__nautilus_emu_access(copy.destination, copy.bytes,
                                        /*isStore=*/1),
                  staged, copy.bytes);
    }
    t.groups.erase(t.groups.begin());
  }
}

/// wgmma.commit_group: the warpgroup's open group of operand reads is
/// committed once (by the first of its threads to commit it).
extern "C" void __nautilus_emu_wgmma_commit() {
  BlockState &b = *currentBlock;
  EmulatedThread &t = *b.current;
  WarpgroupWgmma &group = b.warpgroups[linearTid(b) / 128];
  if (++t.wgmmaCommits > group.committed) {
    group.committed = t.wgmmaCommits;
    group.reads.commit();
  }
  ++b.progress;
}

/// wgmma.wait_group N: the operands of all but the newest N committed
/// groups are free again, and the thread is ordered after their reads.
/// A wgmma is the warpgroup's: it completes once all of its threads have
/// issued it, so the thread first waits (yielding) for those behind.
extern "C" void __nautilus_emu_wgmma_wait(int32_t pending) {
  BlockState &b = *currentBlock;
  EmulatedThread &t = *b.current;
  uint32_t me = linearTid(b);
  WarpgroupWgmma &group = b.warpgroups[me / 128];
  uint32_t keep = static_cast<uint32_t>(std::max(pending, 0));
  uint32_t done = t.wgmmaCommits > keep ? t.wgmmaCommits - keep : 0;
  if (keep == 0) // the accumulators are the thread's to read and rewrite
    t.wgmmaFenced = false;
  t.wgmmaWaited = std::max(t.wgmmaWaited, done);
  auto behind = [&] {
    uint32_t first = me / 128 * 128;
    uint32_t end = std::min<uint32_t>(first + 128, b.threads);
    for (uint32_t i = first; i < end; ++i) {
      const EmulatedThread &peer = (*b.fibres)[i];
      if (!peer.done && peer.wgmmaCommits < done)
        return true;
    }
    return false;
  };
  while (b.runsFibres && behind()) {
    t.spinning = true;
    swapcontext(&t.context, &b.scheduler);
  }
  t.clock.raise(wgmmaAgent(b), done);
  if (done > group.retired) {
    group.reads.retire(b, static_cast<int32_t>(group.committed - done));
    group.retired = done;
  }
}

extern "C" void __nautilus_emu_bulk_commit() {
  currentBlock->current->bulkReads.commit();
}

/// cp.async.bulk.wait_group(.read) N: the sources of all but the newest N
/// committed TMA store groups are free again.
extern "C" void __nautilus_emu_bulk_wait(int32_t pending) {
  currentBlock->current->bulkReads.retire(*currentBlock, pending);
}

extern "C" void __nautilus_emu_cp_async_wait_all() {
  __nautilus_emu_cp_async_commit();
  __nautilus_emu_cp_async_wait(0);
}

extern "C" uint32_t __nautilus_emu_redux(int32_t op, uint32_t mask,
                                         uint32_t value) {
  return warpCollective(static_cast<WarpCall::Kind>(WarpCall::ReduxAdd + op),
                        mask, value, 0, 0);
}

extern "C" uint32_t __nautilus_emu_vote(int32_t mode, uint32_t mask,
                                        uint32_t predicate) {
  return warpCollective(static_cast<WarpCall::Kind>(WarpCall::VoteAll + mode),
                        mask, predicate & 1, 0, 0);
}

void nautilus::emu::detail::checkThreadEnd(BlockState &b) {
  const EmulatedThread &t = *b.current;
  if (t.wgmmaCommits > t.wgmmaWaited)
    b.launch->fail("wgmma by " + threadName(b) + ": the thread ended with " +
                   std::to_string(t.wgmmaCommits - t.wgmmaWaited) +
                   " committed wgmma group(s) no wgmma.wait_group completed: "
                   "their accumulators were read, if at all, before they "
                   "landed");
}

void nautilus::emu::detail::fiberMain() {
  BlockState &b = *currentBlock;
  b.entry(b.args);
  checkThreadEnd(b);
  b.current->done = true;
  ++b.progress;
  // Returning resumes uc_link: the block's scheduler.
}

/// ldmatrix.sync.aligned.m8n8.xN(.trans).b16, as the PTX ISA defines it:
/// lanes 8i..8i+7 give the addresses of the 8 rows (16 bytes each) of
/// matrix i; lane l receives, of each matrix, the two 16-bit elements at
/// row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 (or, transposed, at
/// column l / 4 of rows 2 (l % 4) and 2 (l % 4) + 1).
static void completeLdMatrix(EmulatedThread *lanes) {
  uint32_t matrices = lanes[0].warp.b;
  bool transpose = lanes[0].warp.c != 0;
  if (currentBlock->accessLog) {
    // One request; a phase a matrix, its 8 rows of 16 bytes.
    SharedTraffic request;
    for (uint32_t m = 0; m < matrices; ++m) {
      std::vector<LaneAccess> rows;
      for (uint32_t r = 0; r < 8; ++r)
        rows.push_back({r, uint32_t(__nautilus_emu_shared_offset(
                               lanes[8 * m + r].warp.address)),
                        16});
      addTraffic(request, countWavefronts(rows));
    }
    request.requests = 1;
    addTraffic(currentBlock->ldmatrix, request);
  }
  for (uint32_t m = 0; m < matrices; ++m) {
    uint16_t tile[8][8];
    for (int r = 0; r < 8; ++r) {
      EmulatedThread &giver = lanes[8 * m + r];
      currentBlock->current = &giver;
      const void *row = __nautilus_emu_access(
          const_cast<void *>(giver.warp.address), 16, /*isStore=*/0);
      std::memcpy(tile[r], row, 16);
    }
    for (uint32_t l = 0; l < 32; ++l) {
      uint32_t lo, hi;
      if (!transpose) {
        lo = tile[l / 4][2 * (l % 4)];
        hi = tile[l / 4][2 * (l % 4) + 1];
      } else {
        lo = tile[2 * (l % 4)][l / 4];
        hi = tile[2 * (l % 4) + 1][l / 4];
      }
      lanes[l].warp.out[m] = lo | (hi << 16);
    }
  }
}

float nautilus::emu::detail::halfToFloat(uint16_t bits, bool bf16) {
  return bf16 ? nautilus::rt::bf16BitsToFloat(bits)
              : nautilus::rt::f16BitsToFloat(bits);
}

/// mma.sync.aligned.m16n8k{16,8}.row.col.f32.{f16,bf16}.{f16,bf16}.f32 with
/// the fragment layouts of the PTX ISA (groupID = lane / 4, t = lane % 4):
/// A element i of a lane is at row groupID + 8 ((i / 2) % 2), column
/// 2 t + i % 2 + 8 (i / 4); B element i at row (k) 2 t + i % 2 + 8 (i / 2),
/// column (n) groupID; C and D element i at row groupID + 8 (i / 2),
/// column 2 t + i % 2. Products of the 16-bit inputs are exact; each dot
/// product is accumulated in double and rounded once to f32.
/// m16n8k8 with tf32 inputs (f32 registers whose low 13 mantissa bits are
/// not read): A element i of a lane at row groupID + 8 (i % 2), column
/// t + 4 (i / 2); B element i at row t + 4 i, column groupID.
static void completeMmaTf32(EmulatedThread *lanes) {
  auto tf32 = [](uint32_t bits) {
    bits &= ~0x1fffu;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  float a[16][8] = {}, b[8][8] = {}, c[16][8] = {};
  for (int l = 0; l < 32; ++l) {
    const WarpCall &w = lanes[l].warp;
    int group = l / 4, t = l % 4;
    for (int i = 0; i < 4; ++i)
      a[group + 8 * (i % 2)][t + 4 * (i / 2)] = tf32(w.in[i]);
    for (int i = 0; i < 2; ++i)
      b[t + 4 * i][group] = tf32(w.in[4 + i]);
    for (int i = 0; i < 4; ++i)
      std::memcpy(&c[group + 8 * (i / 2)][2 * t + i % 2], &w.in[6 + i], 4);
  }
  for (int l = 0; l < 32; ++l) {
    int group = l / 4, t = l % 4;
    for (int i = 0; i < 4; ++i) {
      int row = group + 8 * (i / 2), col = 2 * t + i % 2;
      double sum = c[row][col];
      for (int kk = 0; kk < 8; ++kk)
        sum += double(a[row][kk]) * double(b[kk][col]);
      float d = static_cast<float>(sum);
      std::memcpy(&lanes[l].warp.out[i], &d, 4);
    }
  }
}

static void completeMma(EmulatedThread *lanes) {
  uint32_t kind = lanes[0].warp.b;
  if (kind == M16N8K8TF32)
    return completeMmaTf32(lanes);
  bool bf16 = kind == M16N8K16BF16 || kind == M16N8K8BF16;
  bool halfAccumulator = kind == M16N8K16F16AccF16 || kind == M16N8K8F16AccF16;
  int k = (kind == M16N8K16F16 || kind == M16N8K16BF16 ||
           kind == M16N8K16F16AccF16)
              ? 16
              : 8;
  int aRegs = k / 4, bRegs = k / 8; // 32-bit registers per lane
  float a[16][16] = {}, b[16][8] = {}, c[16][8] = {};
  for (int l = 0; l < 32; ++l) {
    const WarpCall &w = lanes[l].warp;
    int group = l / 4, t = l % 4;
    for (int i = 0; i < 2 * aRegs; ++i) {
      uint16_t bits = (w.in[i / 2] >> (16 * (i % 2))) & 0xffff;
      a[group + 8 * ((i / 2) % 2)][2 * t + i % 2 + 8 * (i / 4)] =
          halfToFloat(bits, bf16);
    }
    for (int i = 0; i < 2 * bRegs; ++i) {
      uint16_t bits = (w.in[aRegs + i / 2] >> (16 * (i % 2))) & 0xffff;
      b[2 * t + i % 2 + 8 * (i / 2)][group] = halfToFloat(bits, bf16);
    }
    for (int i = 0; i < 4; ++i) {
      float v;
      if (halfAccumulator) // two f16 registers of two halves each
        v = halfToFloat((w.in[aRegs + bRegs + i / 2] >> (16 * (i % 2))) & 0xffff,
                        /*bf16=*/false);
      else
        std::memcpy(&v, &w.in[aRegs + bRegs + i], 4);
      c[group + 8 * (i / 2)][2 * t + i % 2] = v;
    }
  }
  for (int l = 0; l < 32; ++l) {
    int group = l / 4, t = l % 4;
    for (int i = 0; i < 4; ++i) {
      int row = group + 8 * (i / 2), col = 2 * t + i % 2;
      double sum = c[row][col];
      for (int kk = 0; kk < k; ++kk)
        sum += double(a[row][kk]) * double(b[kk][col]);
      if (halfAccumulator) {
        uint32_t bits = nautilus::rt::doubleToF16Bits(sum);
        uint32_t &reg = lanes[l].warp.out[i / 2];
        reg = (i % 2) ? (reg & 0xffff) | (bits << 16) : bits;
      } else {
        float d = static_cast<float>(sum);
        std::memcpy(&lanes[l].warp.out[i], &d, 4);
      }
    }
  }
}

/// redux.sync of `kind` over the values of the member lanes of `mask`
/// among `lanes` (the first member's value alone if there is one member).
static uint32_t reduxOverMembers(const EmulatedThread *lanes, size_t count,
                                 uint32_t mask, WarpCall::Kind kind) {
  uint32_t reduced = 0;
  bool firstValue = true;
  for (size_t l = 0; l < count; ++l) {
    if (!(mask >> l & 1))
      continue;
    uint32_t v = lanes[l].warp.value;
    if (firstValue) {
      reduced = v;
      firstValue = false;
      continue;
    }
    switch (kind) {
    case WarpCall::ReduxAdd: reduced += v; break;
    case WarpCall::ReduxAnd: reduced &= v; break;
    case WarpCall::ReduxOr: reduced |= v; break;
    case WarpCall::ReduxXor: reduced ^= v; break;
    case WarpCall::ReduxMax:
      reduced = uint32_t(std::max(int32_t(reduced), int32_t(v)));
      break;
    case WarpCall::ReduxMin:
      reduced = uint32_t(std::min(int32_t(reduced), int32_t(v)));
      break;
    case WarpCall::ReduxUmax: reduced = std::max(reduced, v); break;
    case WarpCall::ReduxUmin: reduced = std::min(reduced, v); break;
    default: break;
    }
  }
  return reduced;
}

/// The lane whose value shfl.sync `call` gives `lane` in a warp of `count`
/// lanes: the source lane the PTX ISA computes from b and c, or `lane`
/// itself when that one is out of range.
static uint32_t shuffleSource(const WarpCall &call, uint32_t lane,
                              size_t count) {
  uint32_t bval = call.b & 31, cval = call.c & 31;
  uint32_t segmask = (call.c >> 8) & 31;
  uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
  uint32_t minLane = lane & segmask;
  int64_t j = lane;
  bool pval = true;
  switch (call.kind) {
  case WarpCall::ShuffleUp:
    j = int64_t(lane) - bval;
    pval = j >= int64_t(maxLane);
    break;
  case WarpCall::ShuffleDown:
    j = lane + bval;
    pval = j <= int64_t(maxLane);
    break;
  case WarpCall::ShuffleBfly:
    j = lane ^ bval;
    pval = j <= int64_t(maxLane);
    break;
  default: // idx
    j = minLane | (bval & ~segmask);
    pval = j <= int64_t(maxLane);
    break;
  }
  if (!pval || uint64_t(j) >= count)
    j = lane;
  return uint32_t(j);
}

/// Completes a shfl.sync, vote.sync or redux.sync in which every member
/// lane of `mask` among `lanes` (a warp of `count`) waits: gives each its
/// result and releases it.
static void completeLanewise(EmulatedThread *lanes, size_t count,
                             uint32_t mask, WarpCall::Kind kind) {
  uint32_t ballot = 0;
  for (size_t l = 0; l < count; ++l)
    if ((mask >> l & 1) && lanes[l].warp.value)
      ballot |= 1u << l;
  // redux.sync: one value for every member lane.
  uint32_t reduced = reduxOverMembers(lanes, count, mask, kind);
  for (size_t l = 0; l < count; ++l) {
    if (!(mask >> l & 1))
      continue;
    WarpCall &call = lanes[l].warp;
    uint32_t lane = l;
    switch (call.kind) {
    case WarpCall::VoteAll: call.result = (ballot & mask) == mask; break;
    case WarpCall::VoteAny: call.result = ballot != 0; break;
    case WarpCall::VoteUni:
      call.result = ballot == 0 || (ballot & mask) == mask;
      break;
    case WarpCall::VoteBallot: call.result = ballot; break;
    case WarpCall::ReduxAdd: case WarpCall::ReduxAnd:
    case WarpCall::ReduxOr: case WarpCall::ReduxXor:
    case WarpCall::ReduxMax: case WarpCall::ReduxMin:
    case WarpCall::ReduxUmax: case WarpCall::ReduxUmin:
      call.result = reduced;
      break;
    default:
      call.result = lanes[shuffleSource(call, lane, count)].warp.value;
      break;
    }
  }
  for (size_t l = 0; l < count; ++l)
    if (mask >> l & 1)
      lanes[l].warp.kind = WarpCall::None;
}

/// Completes every warp collective whose member lanes are all waiting in
/// it, as the PTX ISA defines shfl.sync and vote.sync. Returns whether any
/// lane was released; sets `stuck` when lanes wait on a lane that has
/// exited or that waits elsewhere.
bool nautilus::emu::detail::completeWarpCollectives(
    std::vector<EmulatedThread> &fibres, std::string &stuck) {
  bool released = false;
  size_t warps = (fibres.size() + 31) / 32;
  for (size_t w = 0; w < warps; ++w) {
    size_t first = w * 32, end = std::min(fibres.size(), first + 32);
    EmulatedThread *leader = nullptr;
    for (size_t i = first; i < end; ++i)
      if (fibres[i].warp.kind != WarpCall::None) {
        leader = &fibres[i];
        break;
      }
    if (!leader)
      continue;
    uint32_t mask = leader->warp.mask;
    bool ready = true;
    for (size_t i = first; i < end && ready; ++i) {
      if (!(mask >> (i - first) & 1))
        continue;
      const EmulatedThread &lane = fibres[i];
      if (lane.done || lane.atBarrier) {
        stuck = "lane " + std::to_string(i - first) + " of warp " +
                std::to_string(w) + " is in the member mask of a warp "
                "collective but has " +
                (lane.done ? "exited" : "reached bar.sync instead");
        return false;
      }
      if (lane.warp.kind != leader->warp.kind)
        ready = false;
    }
    if (!ready)
      continue;
    // Every member is here: compute each lane's result.
    if (leader->warp.kind == WarpCall::LdMatrix ||
        leader->warp.kind == WarpCall::Mma) {
      if (end - first != 32) {
        stuck = "warp " + std::to_string(w) + " has fewer than 32 threads, "
                "but ldmatrix and mma.sync need all 32";
        return false;
      }
      if (leader->warp.kind == WarpCall::LdMatrix)
        completeLdMatrix(&fibres[first]);
      else
        completeMma(&fibres[first]);
      for (size_t i = first; i < end; ++i)
        fibres[i].warp.kind = WarpCall::None;
      released = true;
      continue;
    }
    completeLanewise(&fibres[first], end - first, mask, leader->warp.kind);
    released = true;
  }
  return released;
}
