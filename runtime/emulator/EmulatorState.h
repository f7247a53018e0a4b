//===- EmulatorState.h - The emulated machine's state ----------*- C++ -*-===//
//
// What the emulation runtime (EmulationRuntime.cpp), the module rewriter
// (HostModule.cpp) and the launcher (SimtEmulator.cpp) share: the state of
// each emulated thread, block and launch, and the runtime functions that the
// rewritten kernels call.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_EMULATOR_EMULATORSTATE_H
#define NAUTILUS_RUNTIME_EMULATOR_EMULATORSTATE_H

#include "runtime/emulator/GlobalRaces.h"
#include "runtime/emulator/HappensBefore.h"
#include "runtime/emulator/MemoryProfile.h"
#include "runtime/emulator/SimtEmulator.h"
#include "runtime/emulator/WgmmaLanding.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <ucontext.h>
#include <vector>

namespace nautilus::emu::detail {

/// Special registers, in the order __nautilus_emu_sreg numbers them.
enum SpecialRegister : int32_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ,
  CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ, LaneId, WarpSize,
};

/// A warp collective a lane is waiting in: which one, its operands, and
/// (once the warp completes it) the lane's result.
struct WarpCall {
  enum Kind { None, ShuffleIdx, ShuffleUp, ShuffleDown, ShuffleBfly,
              VoteAll, VoteAny, VoteUni, VoteBallot, LdMatrix, Mma,
              ReduxAdd, ReduxAnd, ReduxOr, ReduxXor, ReduxMax, ReduxMin,
              ReduxUmax, ReduxUmin } kind = None;
  uint32_t mask = 0, value = 0, b = 0, c = 0;
  uint32_t result = 0;
  // ldmatrix: the row address this lane gives, b = matrices, c = transpose.
  // mma: b = the shape and types (MmaKind), in = the lane's A, B and C
  // registers; out = its D registers.
  const void *address = nullptr;
  std::array<uint32_t, 10> in{};
  std::array<uint32_t, 4> out{};
};

/// The mma.sync forms emulated: m16n8k16 and m16n8k8 with f16 or bf16
/// inputs and f32 accumulators, with f16 inputs and f16 accumulators, and
/// m16n8k8 with tf32 inputs.
enum MmaKind : uint32_t {
  M16N8K16F16, M16N8K16BF16, M16N8K8F16, M16N8K8BF16,
  M16N8K16F16AccF16, M16N8K8F16AccF16, M16N8K8TF32,
};

/// The input types of the emulated wgmma.mma_async forms, and the flags of
/// its immediate operands.
enum WgmmaType : int32_t { WgmmaF16, WgmmaBF16, WgmmaTF32 };
enum WgmmaFlags : int32_t {
  WgmmaNegateA = 1, WgmmaNegateB = 2, WgmmaTransposeA = 4, WgmmaTransposeB = 8,
};

/// One cp.async copy, in flight until a wait completes its group.
struct PendingCopy {
  void *destination;
  const void *source;
  int32_t bytes;       // the copy's size (4, 8 or 16)
  int32_t sourceBytes; // read from the source; the rest is zero-filled
};

/// Bytes [offset, offset + bytes) of a block's shared memory.
struct SharedRange {
  uint32_t offset, bytes;
};

/// What an asynchronous operation does to shared memory while it is in
/// flight (AsyncHazards.cpp): a cp.async or TMA copy writes its
/// destination until it lands; a wgmma group reads its operands until
/// wgmma.wait_group retires it, a TMA store its source until
/// cp.async.bulk.wait_group does.
enum class AsyncKind : uint8_t { None, CpAsync, TmaLoad, Wgmma, TmaStore };

/// The shared memory an asynchronous operation (or a group of them) reads
/// while in flight, as ranges, adjacent ones merged.
struct AsyncReads {
  AsyncKind kind = AsyncKind::None;
  std::vector<SharedRange> ranges;
};

struct BlockState;

/// A thread's groups of asynchronous reads (wgmma's, or TMA stores'): the
/// reads since the last commit, and the committed groups, oldest first,
/// until a wait retires them (AsyncHazards.cpp).
struct AsyncReadGroups {
  AsyncReads open;
  std::vector<AsyncReads> committed;

  explicit AsyncReadGroups(AsyncKind kind) { open.kind = kind; }
  /// commit_group: the open reads become the newest group.
  void commit();
  /// wait_group N: every committed group but the newest `pending` ends
  /// its reads.
  void retire(BlockState &b, int32_t pending);
  void clear() {
    open.ranges.clear();
    committed.clear();
  }
};

struct EmulatedThread {
  std::array<uint32_t, 3> tid{};
  ucontext_t context;
  std::vector<char> stack;
  bool done = false;
  bool atBarrier = false;
  uint32_t barrierId = 0; // which barrier it waits at
  WarpCall warp;
  /// cp.async: copies issued since the last commit, and committed groups
  /// (oldest first). A copy lands only when a wait completes its group, so
  /// a kernel that reads without waiting sees the old (poisoned) bytes.
  std::vector<PendingCopy> openGroup;
  std::vector<std::vector<PendingCopy>> groups;
  /// TMA stores' source reads (cp.async.bulk.commit_group, wait_group).
  AsyncReadGroups bulkReads{AsyncKind::TmaStore};
  /// The wgmma operations the thread issued, and the groups it committed
  /// (its warpgroup's, WarpgroupWgmma).
  uint32_t wgmmaIssued = 0, wgmmaCommits = 0;
  /// The committed groups its waits have completed (a thread that ends
  /// with fewer read accumulators no wait made final).
  uint32_t wgmmaWaited = 0;
  /// For each wgmma site of the kernel (WgmmaLanding.h; sites past the
  /// last share it), the group its latest issue there belongs to (0:
  /// none): its accumulators land when a wait completes that group.
  std::array<uint32_t, kWgmmaSites> wgmmaSiteGroup{};
  /// How many fence.proxy.async the thread has executed (its shared-memory
  /// stores before the latest are visible to the async proxy: wgmma, TMA),
  /// its own epoch at each, and its clock at the latest (stores ordered
  /// before that fence are visible to its async operations).
  uint32_t proxyFences = 0;
  /// The tensor maps the thread may use with TMA: those it acquired for
  /// the tensormap proxy (fence.proxy.tensormap::generic.acquire) and the
  /// kernel's __grid_constant__ parameters, which need no fence.
  std::vector<const void *> acquiredTensorMaps;
  /// Whether a wgmma.fence came since the warpgroup's registers were last
  /// accessed outside wgmma (the kernel's start; a wgmma.wait_group 0,
  /// after which the accumulators are read and rewritten): the PTX ISA
  /// requires one before the next wgmma.mma_async.
  bool wgmmaFenced = false;
  std::vector<uint32_t> fenceEpochs;
  VectorClock fenceView;
  /// What happens before the thread's present (HappensBefore.h); its own
  /// component is its epoch, advanced at each release.
  VectorClock clock;
  /// Its stores over another agent's concurrent writes, to compare with
  /// the values there before once they are done.
  std::vector<PendingWrite> pendingWrites;
  /// Profiling: how many times the thread executed each access site, and
  /// how many cp.async copies of it landed.
  std::map<int32_t, uint32_t> siteExecutions;
  /// Polling an mbarrier whose phase has not completed: the thread yields
  /// to let the others run, and polls again on the next sweep.
  bool spinning = false;
};

/// A warpgroup's wgmma operations: they are collective, so the first of
/// its threads to issue one checks and records the operands the whole
/// warpgroup reads (in the open group of `reads`), the first to commit a
/// group commits it, and the first to wait for a group retires it (the
/// operation is complete for all once one thread's wait returns).
struct WarpgroupWgmma {
  AsyncReadGroups reads{AsyncKind::Wgmma};
  uint32_t issued = 0, committed = 0, retired = 0;
};

/// The bytes a bulk (TMA) copy read from global memory and the shared
/// offsets they go to (after the swizzle); they land when a thread first
/// observes the completion of the mbarrier phase the copy completes on.
struct BulkCopy {
  std::vector<char> bytes;
  std::vector<uint32_t> sharedOffsets;
  uint32_t epoch = 0; // the completions of its mbarrier when it completed
};

/// An mbarrier object (kept beside the 8 bytes of shared memory it lives
/// in): the arrivals a phase expects, those still pending, the transaction
/// bytes still expected, the current phase, the bulk copies of the current
/// phase, and those of completed phases that no wait has observed yet.
struct MBarrier {
  /// Whether a thread initialised it, the init's epoch (which its uses
  /// must be ordered after, mbarrierInUse), and where it is (its shared
  /// byte offset).
  bool initialised = false;
  Epoch init;
  uint32_t offset = 0;
  /// The epoch of the initialising thread's first fence since the init
  /// (fence.mbarrier_init, or fence.proxy.async over shared memory), if
  /// any: what makes the init visible to the async proxy (a TMA copy's
  /// complete_tx), for the threads ordered after it.
  std::optional<Epoch> initFence;
  /// Its component in the block's clocks (its TMA copies' epoch is the
  /// number of phases it completed, since the block began: `completions`),
  /// the clocks of the current phase's arrivals, and of every completed
  /// phase's since its init (what a waiter that observes a completion
  /// acquires).
  uint16_t agent = 0;
  uint32_t completions = 0;
  VectorClock arrivals, completed;
  uint32_t expected = 0;
  uint32_t pending = 0;
  int64_t transactionBytes = 0;
  uint32_t phase = 0;
  std::vector<BulkCopy> landing, landed;
};

/// What every block of a launch shares.
struct LaunchState {
  const std::vector<MemoryRange> *buffers = nullptr;
  /// Which block touched each byte of the buffers (cross-block races).
  std::unique_ptr<GlobalAccessLog> globalAccesses;
  std::mutex errorMutex;
  std::string error;
  /// What the launch did not check, said once (race checks turned off).
  std::vector<std::string> notes;

  void fail(const std::string &message) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (error.empty())
      error = message;
  }
  bool failed() {
    std::lock_guard<std::mutex> lock(errorMutex);
    return !error.empty();
  }
  void note(const std::string &message) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (std::find(notes.begin(), notes.end(), message) == notes.end())
      notes.push_back(message);
  }
};

/// The state of the block a host thread is running.
struct BlockState {
  LaunchState *launch = nullptr;
  uint64_t id = 0;
  /// The block's shared memory, and the race detector's shadow of it and
  /// of the global memory the block touches (HappensBefore.h).
  std::vector<char> shared;
  std::vector<ShadowCell> sharedShadow;
  GlobalShadow globalShadow;
  ShadowChecks races;
  /// The clocks of the block's agents past its threads: the wgmma unit of
  /// each warpgroup (threads + warpgroup), then the mbarriers, numbered
  /// as they are initialised.
  uint32_t threads = 0;
  uint16_t nextAgent = 0;
  /// Whether the threads run as fibres (otherwise each runs to its end in
  /// turn: the kernel has nothing that waits for another thread).
  bool runsFibres = false;
  /// The order the scheduler resumes the threads in (a permutation of
  /// their indices), and how it changes (SimtEmulator::setFibreOrder).
  std::vector<uint32_t> order;
  FibreOrder fibreOrder;
  std::mt19937_64 shuffle;
  /// For each byte, how many asynchronous operations in flight read it and
  /// write it, and the kind of the last to start (for the async hazard
  /// checks, which hold whatever the emulator's timing).
  std::vector<uint16_t> asyncReads, asyncWrites;
  std::vector<AsyncKind> asyncKind;
  /// For each byte a thread stored, the writer's proxyFences at the store:
  /// its fence of that number (and later ones) makes the store visible to
  /// the async proxy (checkAsyncProxyRead).
  std::vector<uint32_t> writeFences;
  /// Its warpgroups' wgmma operations.
  std::vector<WarpgroupWgmma> warpgroups;
  /// The block's threads (the first components of the clocks).
  std::vector<EmulatedThread> *fibres = nullptr;
  /// Profiling (null otherwise): the block's shared-memory accesses, and
  /// its ldmatrix traffic.
  AccessLog *accessLog = nullptr;
  SharedTraffic ldmatrix;
  /// mbarriers by address, and a count of state changes: a sweep over the
  /// threads that changes nothing while some poll is a deadlock.
  std::map<uintptr_t, MBarrier> mbarriers;
  uint64_t progress = 0;
  /// Named barriers 0-15: arrivals so far, the count that releases them,
  /// and the join of the arrivals' clocks.
  std::array<uint32_t, 16> barrierArrived{}, barrierExpected{};
  std::array<VectorClock, 16> barrierClocks;
  std::array<uint32_t, 3> ctaid{}, ntid{}, nctaid{};
  ucontext_t scheduler;
  EmulatedThread *current = nullptr;
  void (*entry)(void **) = nullptr;
  void **args = nullptr;
};


extern thread_local BlockState *currentBlock;

/// Helpers of the emulation runtime that its parts share.
/// "thread (x, y, z) of block (x, y, z)" for the current thread.
std::string threadName(const BlockState &b);
/// The current thread's index in its block.
uint32_t linearTid(const BlockState &b);

/// A global address as the memory profile counts its sectors: the launch
/// buffer's number in the high bits, the byte offset in it in the low 40
/// (sectors as on a GPU, whose buffers start 256-byte aligned); the raw
/// address outside every buffer.
uint64_t globalProfileAddress(const BlockState &b, const void *address);
/// Race detection (RaceChecks.cpp, HappensBefore.h). The current
/// thread's epoch, and the component of its warpgroup's wgmma unit.
Epoch currentEpoch(const BlockState &b);
uint16_t wgmmaAgent(const BlockState &b);
/// A release by the current thread (an arrival): joins its clock into
/// `into` and advances its epoch.
void release(BlockState &b, VectorClock &into);
/// Fresh clocks and shadows for the block's threads.
void startClocks(BlockState &b, std::vector<EmulatedThread> &fibres);
/// Compares the values of `t`'s stores over concurrent writes with those
/// there before: a different value is a write-after-write race.
void settlePendingWrites(BlockState &b, EmulatedThread &t);
/// Records a shared-memory access of the current thread (`what`: "a load"
/// or "a store" by default): reports a race with an access that the
/// memory model does not order before it, and an async hazard.
void checkShared(BlockState &b, size_t offset, int64_t bytes, bool isStore,
                 const char *what = nullptr);
/// A read of shared bytes that an asynchronous unit (`as`: a warpgroup's
/// wgmma) makes for the current thread: checked with the thread's clock,
/// recorded as the unit's.
void checkSharedRead(BlockState &b, uint32_t offset, uint32_t bytes,
                     Epoch as, const char *what);
/// An asynchronous write of shared bytes that the current thread issues
/// (a cp.async or TMA copy): every earlier access of them must happen
/// before the issue (the write lands later, when it is waited for).
void checkAsyncWriteIssue(BlockState &b, uint32_t offset, uint32_t bytes,
                          const char *what);
/// An access of the current thread to bytes [at, at + bytes) of writable
/// buffer `buffer` (which starts at `begin`), against the block's other
/// threads.
void checkGlobal(BlockState &b, int32_t buffer, uintptr_t at,
                 uintptr_t begin, int64_t bytes, bool isStore);
/// Async hazards (AsyncHazards.cpp). An access to shared bytes that an
/// asynchronous operation in flight writes, or a write to bytes one reads,
/// races on the GPU however the emulator happens to order them; the first
/// is reported (checkAsyncHazard, called by checkShared for every thread
/// access, and before an asynchronous operation starts).
void checkAsyncHazard(BlockState &b, uint32_t offset, uint32_t bytes,
                      bool isWrite, const char *what);
/// An asynchronous write of the bytes starts (after checkAsyncHazard) or
/// ends (it landed).
void beginAsyncWrite(BlockState &b, SharedRange range, AsyncKind kind);
void endAsyncWrite(BlockState &b, SharedRange range);
/// An asynchronous read of the bytes starts, recorded in `reads` (the
/// thread's open wgmma or bulk group), after checkShared's checks.
void beginAsyncRead(BlockState &b, SharedRange range, AsyncReads &reads);
/// An async-proxy read (a wgmma operand, a TMA store's source) of shared
/// bytes a thread stored (the generic proxy) with no fence.proxy.async
/// between: neither the writer's after its store (happening before the
/// read), nor the reading thread's after the store was ordered before it.
/// The async proxy may read the old bytes. Reports it, naming `what`
/// reads (RaceChecks.cpp).
void checkAsyncProxyRead(BlockState &b, uint32_t offset, uint32_t bytes,
                         const char *what);
/// Fresh shadow state for a block of `sharedBytes` of shared memory.
void resetAsyncHazards(BlockState &b, size_t sharedBytes);

/// Suspends the current lane in a warp collective until the scheduler has
/// completed it for every lane of `mask`; returns the lane's result.
uint32_t warpCollective(WarpCall::Kind kind, uint32_t mask, uint32_t value,
                        uint32_t b, uint32_t c);
/// The mbarrier at `address` (a host pointer into shared memory).
MBarrier &mbarrierAt(void *address);
/// The same for a use (`what`: an arrival, a wait, a copy completing on
/// it): reports a use before any mbarrier.init, and one by another thread
/// with no bar.sync since the init (nothing orders the init first).
MBarrier &mbarrierInUse(void *address, const char *what);
/// Completes the mbarrier's phase if nothing is pending.
void maybeCompletePhase(MBarrier &m);
/// An f16 or bf16 value.
float halfToFloat(uint16_t bits, bool bf16);

/// The body of a thread's fibre: runs the kernel for `currentBlock->current`.
void fiberMain();
/// At a thread's end: wgmma groups it committed and never waited for fail
/// the launch (their results land at the wait; reading them earlier reads
/// what the GPU has not written).
void checkThreadEnd(BlockState &b);

/// Completes every warp collective (shuffle, vote, ldmatrix, mma) whose
/// member lanes are all waiting in it. Returns whether any lane was
/// released; sets `stuck` when lanes wait on a lane that has exited or that
/// waits elsewhere.
bool completeWarpCollectives(std::vector<EmulatedThread> &fibres,
                             std::string &stuck);

} // namespace nautilus::emu::detail

// The emulation runtime: what the rewritten kernels call.
extern "C" {
int32_t __nautilus_emu_sreg(int32_t which);
void __nautilus_emu_barrier(int32_t id, int32_t count, int32_t wait);
void *__nautilus_emu_access(void *address, int64_t bytes, int32_t isStore);
void *__nautilus_emu_access_if(bool predicate, void *address, int64_t bytes,
                               int32_t isStore);
void *__nautilus_emu_access_at(void *address, int64_t bytes, int32_t isStore,
                               int32_t site);
void *__nautilus_emu_shared(int64_t offset);
int64_t __nautilus_emu_shared_offset(const void *address);
uint32_t __nautilus_emu_shfl(int32_t mode, uint32_t mask, uint32_t value,
                             uint32_t b, uint32_t c);
uint32_t __nautilus_emu_vote(int32_t mode, uint32_t mask, uint32_t predicate);
uint32_t __nautilus_emu_redux(int32_t op, uint32_t mask, uint32_t value);
void __nautilus_emu_ldmatrix(const void *address, int32_t matrices,
                             int32_t transpose, uint32_t *out);
void __nautilus_emu_mma(int32_t kind, const uint32_t *in, uint32_t *out);
void __nautilus_emu_cp_async(void *destination, const void *source,
                             int32_t bytes, int32_t sourceBytes);
void __nautilus_emu_cp_async_commit();
void __nautilus_emu_cp_async_wait(int32_t pending);
void __nautilus_emu_cp_async_wait_all();
void __nautilus_emu_wgmma_commit();
void __nautilus_emu_wgmma_wait(int32_t pending);
void __nautilus_emu_bulk_commit();
void __nautilus_emu_bulk_wait(int32_t pending);
void __nautilus_emu_proxy_fence();
void __nautilus_emu_tensormap_acquire(const void *tensorMap);
void __nautilus_emu_wgmma_fence();
void __nautilus_emu_cp_async_mbarrier_arrive(void *mbarrier, int32_t noinc);
void __nautilus_emu_mbarrier_init(void *mbarrier, int32_t count);
void __nautilus_emu_mbarrier_init_fence();
int64_t __nautilus_emu_mbarrier_arrive(void *mbarrier, int32_t count,
                                       int32_t transactionBytes, int32_t drop);
void __nautilus_emu_mbarrier_tx(void *mbarrier, int32_t bytes);
bool __nautilus_emu_mbarrier_wait(void *mbarrier, int64_t state,
                                  int32_t isParity);
uint32_t __nautilus_emu_elect(uint32_t mask);
void __nautilus_emu_tma_load(void *destination, const void *tensorMap,
                             int32_t rank, const int32_t *coordinates,
                             void *mbarrier);
void __nautilus_emu_tma_store(const void *tensorMap, int32_t rank,
                              const int32_t *coordinates, const void *source);
void __nautilus_emu_wgmma(int32_t type, int32_t n, int32_t halfAccumulator,
                          uint64_t descriptorA, const uint32_t *registersA,
                          uint64_t descriptorB, uint32_t *accumulator,
                          int32_t scaleD, int32_t flags, int32_t site);
void __nautilus_emu_wgmma_landed(uint64_t sites);
}

#endif
