//===- SimtEmulator.cpp - Running NVIDIA kernels on the CPU ---------------===//
//
// Compiles the rewritten kernels with ORC and launches grids: blocks spread
// over host threads, each block's threads as fibres scheduled around
// barriers and warp collectives.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/SimtEmulator.h"
#include "runtime/emulator/EmulatorState.h"
#include "runtime/emulator/HostModule.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <numeric>
#include <random>
#include <thread>
#include <utility>

using namespace nautilus::emu;
using namespace nautilus::emu::detail;

struct SimtEmulator::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<std::string> kernels;
  bool usesFibres = false;
  std::map<std::string, uint64_t> staticSharedBytes; // by kernel
  FibreOrder order;
  std::vector<std::string> notes;
};

std::string nautilus::emu::parseFibreOrder(const std::string &text,
                                           FibreOrder &order) {
  llvm::StringRef rest(text);
  if (rest == "ascending") {
    order = {FibreOrder::Ascending, 0};
    return "";
  }
  if (rest == "descending") {
    order = {FibreOrder::Descending, 0};
    return "";
  }
  if (rest.consume_front("random")) {
    uint64_t seed = 0;
    if (rest.empty() ||
        (rest.consume_front(":") && !rest.getAsInteger(10, seed))) {
      order = {FibreOrder::Random, seed};
      return "";
    }
  }
  return "'" + text +
         "' is not a fibre order (ascending, descending, random or "
         "random:SEED)";
}

void SimtEmulator::setFibreOrder(FibreOrder order) { impl->order = order; }

std::vector<std::string> SimtEmulator::takeNotes() {
  return std::exchange(impl->notes, {});
}

SimtEmulator::SimtEmulator(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
SimtEmulator::~SimtEmulator() = default;

std::unique_ptr<SimtEmulator>
SimtEmulator::create(std::unique_ptr<llvm::Module> module,
                     std::unique_ptr<llvm::LLVMContext> context,
                     std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto impl = std::make_unique<Impl>();
  if (const char *order = std::getenv("NAUTILUS_EMU_FIBRE_ORDER")) {
    error = parseFibreOrder(order, impl->order);
    if (!error.empty()) {
      error = "NAUTILUS_EMU_FIBRE_ORDER: " + error;
      return nullptr;
    }
  }
  error = rewriteForHost(*module, impl->kernels, impl->usesFibres,
                         impl->staticSharedBytes);
  if (!error.empty())
    return nullptr;

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = llvm::toString(builder.takeError());
    return nullptr;
  }
  auto machine = builder->createTargetMachine();
  if (!machine) {
    error = llvm::toString(machine.takeError());
    return nullptr;
  }
  module->setTargetTriple((*machine)->getTargetTriple());
  module->setDataLayout((*machine)->createDataLayout());
  {
    // Optimise as the NVPTX backend would before instruction selection.
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(machine->get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2)
        .run(*module, mam);
  }

  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*builder))
                 .create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  // The emulation runtime, which the rewritten kernels call.
  const std::pair<const char *, void *> runtimeFunctions[] = {
      {"__nautilus_emu_sreg", reinterpret_cast<void *>(&__nautilus_emu_sreg)},
      {"__nautilus_emu_barrier",
       reinterpret_cast<void *>(&__nautilus_emu_barrier)},
      {"__nautilus_emu_access",
       reinterpret_cast<void *>(&__nautilus_emu_access)},
      {"__nautilus_emu_access_if",
       reinterpret_cast<void *>(&__nautilus_emu_access_if)},
      {"__nautilus_emu_shared",
       reinterpret_cast<void *>(&__nautilus_emu_shared)},
      {"__nautilus_emu_shfl", reinterpret_cast<void *>(&__nautilus_emu_shfl)},
      {"__nautilus_emu_vote", reinterpret_cast<void *>(&__nautilus_emu_vote)},
      {"__nautilus_emu_redux", reinterpret_cast<void *>(&__nautilus_emu_redux)},
      {"__nautilus_emu_ldmatrix",
       reinterpret_cast<void *>(&__nautilus_emu_ldmatrix)},
      {"__nautilus_emu_mma", reinterpret_cast<void *>(&__nautilus_emu_mma)},
      {"__nautilus_emu_cp_async",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async)},
      {"__nautilus_emu_cp_async_commit",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async_commit)},
      {"__nautilus_emu_cp_async_wait",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async_wait)},
      {"__nautilus_emu_cp_async_mbarrier_arrive",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async_mbarrier_arrive)},
      {"__nautilus_emu_mbarrier_init",
       reinterpret_cast<void *>(&__nautilus_emu_mbarrier_init)},
      {"__nautilus_emu_mbarrier_init_fence",
       reinterpret_cast<void *>(&__nautilus_emu_mbarrier_init_fence)},
      {"__nautilus_emu_mbarrier_arrive",
       reinterpret_cast<void *>(&__nautilus_emu_mbarrier_arrive)},
      {"__nautilus_emu_mbarrier_tx",
       reinterpret_cast<void *>(&__nautilus_emu_mbarrier_tx)},
      {"__nautilus_emu_mbarrier_wait",
       reinterpret_cast<void *>(&__nautilus_emu_mbarrier_wait)},
      {"__nautilus_emu_shared_offset",
       reinterpret_cast<void *>(&__nautilus_emu_shared_offset)},
      {"__nautilus_emu_elect", reinterpret_cast<void *>(&__nautilus_emu_elect)},
      {"__nautilus_emu_tma_load",
       reinterpret_cast<void *>(&__nautilus_emu_tma_load)},
      {"__nautilus_emu_tma_store",
       reinterpret_cast<void *>(&__nautilus_emu_tma_store)},
      {"__nautilus_emu_wgmma", reinterpret_cast<void *>(&__nautilus_emu_wgmma)},
      {"__nautilus_emu_wgmma_commit",
       reinterpret_cast<void *>(&__nautilus_emu_wgmma_commit)},
      {"__nautilus_emu_wgmma_wait",
       reinterpret_cast<void *>(&__nautilus_emu_wgmma_wait)},
      {"__nautilus_emu_access_at",
       reinterpret_cast<void *>(&__nautilus_emu_access_at)},
      {"__nautilus_emu_proxy_fence",
       reinterpret_cast<void *>(&__nautilus_emu_proxy_fence)},
      {"__nautilus_emu_tensormap_acquire",
       reinterpret_cast<void *>(&__nautilus_emu_tensormap_acquire)},
      {"__nautilus_emu_wgmma_landed",
       reinterpret_cast<void *>(&__nautilus_emu_wgmma_landed)},
      {"__nautilus_emu_wgmma_fence",
       reinterpret_cast<void *>(&__nautilus_emu_wgmma_fence)},
      {"__nautilus_emu_bulk_commit",
       reinterpret_cast<void *>(&__nautilus_emu_bulk_commit)},
      {"__nautilus_emu_bulk_wait",
       reinterpret_cast<void *>(&__nautilus_emu_bulk_wait)},
      {"__nautilus_emu_cp_async_wait_all",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async_wait_all)},
  };
  auto &es = (*jit)->getExecutionSession();
  llvm::orc::SymbolMap runtime;
  for (auto [symbolName, address] : runtimeFunctions)
    runtime[es.intern(symbolName)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                      llvm::JITSymbolFlags::Exported};
  if (llvm::Error e = dylib.define(llvm::orc::absoluteSymbols(runtime))) {
    error = llvm::toString(std::move(e));
    return nullptr;
  }
  // Math functions the host code may call (libm) come from the process.
  auto generator =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator) {
    error = llvm::toString(generator.takeError());
    return nullptr;
  }
  dylib.addGenerator(std::move(*generator));
  if (llvm::Error e = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(
          std::move(module), std::move(context)))) {
    error = llvm::toString(std::move(e));
    return nullptr;
  }
  impl->jit = std::move(*jit);
  return std::unique_ptr<SimtEmulator>(new SimtEmulator(std::move(impl)));
}

namespace {

/// Adds one host thread's profile (`more`) to the launch's (`total`).
void addProfile(MemoryProfile &total, const MemoryProfile &more) {
  for (auto [from, to] : {std::pair{&more.loads, &total.loads},
                          {&more.stores, &total.stores},
                          {&more.ldmatrix, &total.ldmatrix},
                          {&more.asyncCopies, &total.asyncCopies}})
    addTraffic(*to, *from);
  addTraffic(total.globalLoads, more.globalLoads);
  addTraffic(total.globalStores, more.globalStores);
  addTraffic(total.tmaLoads, more.tmaLoads);
}

/// The id of the k-th block a launch runs: k, the k-th from the last, or
/// a pseudo-random permutation (k a + c modulo the blocks, a prime to
/// their number) for a random fibre order.
class BlockOrder {
public:
  BlockOrder(FibreOrder order, uint64_t blocks)
      : kind(order.kind), blocks(blocks) {
    if (kind != FibreOrder::Random || blocks < 2)
      return;
    std::mt19937_64 draw(order.seed);
    step = draw() % blocks;
    while (std::gcd(step, blocks) != 1)
      step = (step + 1) % blocks;
    start = draw() % blocks;
  }
  uint64_t operator()(uint64_t k) const {
    switch (kind) {
    case FibreOrder::Descending:
      return blocks - 1 - k;
    case FibreOrder::Random:
      return blocks < 2 ? k : (k * step + start) % blocks;
    default:
      return k;
    }
  }

private:
  FibreOrder::Kind kind;
  uint64_t blocks, step = 1, start = 0;
};

/// Gives each thread of a block of `ntid` threads its (x, y, z) index.
void assignThreadIndices(std::vector<EmulatedThread> &fibres,
                         const std::array<uint32_t, 3> &ntid) {
  for (uint32_t t = 0; t < fibres.size(); ++t)
    fibres[t].tid = {t % ntid[0], (t / ntid[0]) % ntid[1],
                     t / (ntid[0] * ntid[1])};
}

/// Starts block `id` of the grid: fresh shared memory and barriers, and
/// threads with nothing asynchronous in flight.
void startBlock(BlockState &block, std::vector<EmulatedThread> &fibres,
                uint64_t id, size_t sharedBytes) {
  block.id = id;
  // Fresh shared memory for the block, filled with 0xff bytes (NaN as
  // f32, -1 as an integer) so that reads of unwritten memory show.
  block.shared.assign(sharedBytes, static_cast<char>(0xff));
  block.sharedShadow.assign(sharedBytes, ShadowCell());
  resetAsyncHazards(block, sharedBytes);
  block.mbarriers.clear();
  block.barrierArrived.fill(0);
  block.barrierExpected.fill(0);
  const std::array<uint32_t, 3> &grid = block.nctaid;
  block.ctaid = {uint32_t(id % grid[0]), uint32_t((id / grid[0]) % grid[1]),
                 uint32_t(id / (uint64_t(grid[0]) * grid[1]))};
  for (EmulatedThread &t : fibres) {
    t.openGroup.clear();
    t.groups.clear();
    t.wgmmaIssued = t.wgmmaCommits = t.wgmmaWaited = 0;
    t.wgmmaSiteGroup.fill(0);
    t.bulkReads.clear();
    t.proxyFences = 0;
    t.acquiredTensorMaps.clear();
    t.wgmmaFenced = false;
    t.siteExecutions.clear();
  }
  block.warpgroups.assign((fibres.size() + 127) / 128, WarpgroupWgmma());
  startClocks(block, fibres);
  block.order.resize(fibres.size());
  for (uint32_t i = 0; i < fibres.size(); ++i)
    block.order[i] = block.fibreOrder.kind == FibreOrder::Descending
                         ? uint32_t(fibres.size()) - 1 - i
                         : i;
  block.shuffle.seed(block.fibreOrder.seed * 0x9e3779b97f4a7c15ull + id);
}

/// The order of the next sweep over the block's threads: shuffled anew
/// for a random fibre order.
const std::vector<uint32_t> &sweepOrder(BlockState &block) {
  if (block.fibreOrder.kind == FibreOrder::Random)
    std::shuffle(block.order.begin(), block.order.end(), block.shuffle);
  return block.order;
}

/// Runs each thread of the block to its end in turn (for kernels with no
/// barrier: no thread waits for another).
void runThreadsInTurn(BlockState &block, std::vector<EmulatedThread> &fibres) {
  for (uint32_t i : sweepOrder(block)) {
    EmulatedThread &t = fibres[i];
    block.current = &t;
    block.entry(block.args);
    checkThreadEnd(block);
    settlePendingWrites(block, t);
  }
}

/// Gives each thread a fresh fibre that runs the kernel and then returns
/// to the block's scheduler.
void startFibres(BlockState &block, std::vector<EmulatedThread> &fibres) {
  for (EmulatedThread &t : fibres) {
    t.done = t.atBarrier = t.spinning = false;
    t.warp = WarpCall();
    t.stack.resize(256 * 1024);
    getcontext(&t.context);
    t.context.uc_stack.ss_sp = t.stack.data();
    t.context.uc_stack.ss_size = t.stack.size();
    t.context.uc_link = &block.scheduler;
    makecontext(&t.context, fiberMain, 0);
  }
}

/// Resumes once each thread that can run: one that has not finished and
/// waits neither at a barrier nor in a warp collective.
void sweepRunnable(BlockState &block, std::vector<EmulatedThread> &fibres) {
  for (uint32_t i : sweepOrder(block)) {
    EmulatedThread &t = fibres[i];
    if (t.done || t.atBarrier || t.warp.kind != WarpCall::None)
      continue;
    t.spinning = false; // a polling thread polls again
    block.current = &t;
    swapcontext(&block.scheduler, &t.context);
    settlePendingWrites(block, t);
  }
}

/// Whether a thread can run that has not polled an mbarrier in vain (one
/// a barrier released after its turn in the sweep).
bool anyReleased(const std::vector<EmulatedThread> &fibres) {
  for (const EmulatedThread &t : fibres)
    if (!t.done && !t.atBarrier && !t.spinning &&
        t.warp.kind == WarpCall::None)
      return true;
  return false;
}

/// The report of a warp collective deadlock (a lane waits for lanes that
/// wait in a different collective), or "" if no lane is in a collective.
std::string collectiveDeadlock(const std::vector<EmulatedThread> &fibres) {
  for (size_t i = 0; i < fibres.size(); ++i)
    if (fibres[i].warp.kind != WarpCall::None)
      return "warp collective deadlock: thread " + std::to_string(i) +
             " waits for lanes that wait in a different collective";
  return "";
}

/// Once no thread can run: "" if none waits at bar.sync (all have
/// finished), otherwise the report of the barrier divergence or deadlock.
std::string barrierStall(const BlockState &block,
                         const std::vector<EmulatedThread> &fibres) {
  size_t waiting = 0, finished = 0;
  uint32_t waitingAt = 0;
  for (const EmulatedThread &t : fibres) {
    if (t.atBarrier) {
      waitingAt = t.barrierId;
      ++waiting;
    }
    finished += t.done;
  }
  if (waiting == 0)
    return "";
  if (finished != 0)
    return "barrier divergence in block " + std::to_string(block.id) + ": " +
           std::to_string(finished) + " threads exited while " +
           std::to_string(waiting) + " wait at bar.sync";
  return "barrier deadlock in block " + std::to_string(block.id) + ": " +
         std::to_string(waiting) + " threads wait at bar.sync " +
         std::to_string(waitingAt) + " (" +
         std::to_string(block.barrierArrived[waitingAt]) + " of " +
         std::to_string(block.barrierExpected[waitingAt]) + " arrivals)";
}

/// Runs the block's threads as fibres until all have finished: sweeps over
/// those that can run, completing warp collectives and releasing barriers
/// between sweeps. Returns false, the launch failed, on a deadlock or a
/// barrier divergence.
bool scheduleFibres(BlockState &block, std::vector<EmulatedThread> &fibres,
                    LaunchState &state) {
  while (true) {
    uint64_t progressBefore = block.progress;
    sweepRunnable(block, fibres);
    std::string stuck;
    if (completeWarpCollectives(fibres, stuck))
      continue;
    // Threads a barrier released (they may be what threads polling an
    // mbarrier wait for) run in the next sweep.
    if (anyReleased(fibres))
      continue;
    // Threads polling mbarriers: fine while anything else moves; a
    // sweep in which nothing changed means the phases never complete.
    size_t spinning = 0;
    size_t firstSpinning = 0;
    for (size_t i = 0; i < fibres.size(); ++i)
      if (fibres[i].spinning && spinning++ == 0)
        firstSpinning = i;
    if (spinning != 0) {
      if (block.progress != progressBefore)
        continue;
      state.fail("mbarrier deadlock in block " + std::to_string(block.id) +
                 ": " + std::to_string(spinning) +
                 " threads (the first: thread " +
                 std::to_string(firstSpinning) +
                 ") wait for mbarrier phases that never complete");
      return false;
    }
    // After a sweep no thread can run; lanes still in a collective wait
    // for lanes that are in another one.
    if (stuck.empty())
      stuck = collectiveDeadlock(fibres);
    if (!stuck.empty()) {
      state.fail("in block " + std::to_string(block.id) + ": " + stuck);
      return false;
    }
    std::string stall = barrierStall(block, fibres);
    if (stall.empty())
      return true;
    state.fail(stall);
    return false;
  }
}

} // namespace

std::string SimtEmulator::launch(const std::string &name,
                                 const LaunchShape &shape,
                                 std::vector<void *> args,
                                 const std::vector<MemoryRange> &buffers,
                                 unsigned hostThreads,
                                 MemoryProfile *profile) {
  if (!llvm::is_contained(impl->kernels, name))
    return "no kernel '" + name + "' in the module";
  auto symbol = impl->jit->lookup("__nautilus_emu_entry_" + name);
  if (!symbol)
    return llvm::toString(symbol.takeError());
  auto entry = symbol->toPtr<void (*)(void **)>();

  uint64_t blocks = uint64_t(shape.grid[0]) * shape.grid[1] * shape.grid[2];
  uint32_t threads = shape.block[0] * shape.block[1] * shape.block[2];
  if (threads == 0 || threads > 1024)
    return "a block of " + std::to_string(threads) +
           " threads cannot launch (1 to 1024)";
  std::atomic<uint64_t> next{0};
  LaunchState state;
  state.buffers = &buffers;
  state.globalAccesses = std::make_unique<GlobalAccessLog>(buffers, blocks);
  if (state.globalAccesses->off())
    state.note("races between blocks are not checked in launches of '" +
               name + "': their buffers pass " +
               std::to_string(GlobalAccessLog::kMaxLoggedBytes >> 20) +
               " MiB");
  bool barriers = impl->usesFibres;
  BlockOrder blockOrder(impl->order, blocks);
  auto found = impl->staticSharedBytes.find(name);
  size_t staticBytes =
      found == impl->staticSharedBytes.end() ? 0 : found->second;
  size_t sharedBytes = staticBytes + shape.dynamicSharedBytes;

  std::mutex profileMutex;
  auto worker = [&] {
    AccessLog log;
    MemoryProfile mine;
    auto flushProfile = [&] {
      if (!profile)
        return;
      log.flushInto(mine);
      std::lock_guard<std::mutex> lock(profileMutex);
      addProfile(*profile, mine);
      mine = MemoryProfile();
    };
    BlockState block;
    block.accessLog = profile ? &log : nullptr;
    block.launch = &state;
    block.ntid = shape.block;
    block.nctaid = shape.grid;
    block.entry = entry;
    block.args = args.data();
    block.fibreOrder = impl->order;
    block.runsFibres = barriers;
    currentBlock = &block;
    std::vector<EmulatedThread> fibres(threads);
    block.fibres = &fibres;
    assignThreadIndices(fibres, shape.block);
    for (uint64_t k = next++; k < blocks; k = next++) {
      uint64_t id = blockOrder(k);
      if (state.failed())
        return;
      // The previous block's shared-memory profile.
      addTraffic(mine.ldmatrix, block.ldmatrix);
      block.ldmatrix = SharedTraffic();
      flushProfile();
      startBlock(block, fibres, id, sharedBytes);
      if (!barriers) {
        runThreadsInTurn(block, fibres);
        continue;
      }
      startFibres(block, fibres);
      if (!scheduleFibres(block, fibres, state))
        return;
    }
    addTraffic(mine.ldmatrix, block.ldmatrix);
    flushProfile();
  };
  unsigned n = hostThreads ? hostThreads
                           : std::max(1u, std::thread::hardware_concurrency());
  n = static_cast<unsigned>(std::min<uint64_t>(n, std::max<uint64_t>(blocks, 1)));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < n; ++i)
    pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool)
    t.join();
  for (const std::string &note : state.notes)
    if (!llvm::is_contained(impl->notes, note))
      impl->notes.push_back(note);
  return state.error;
}
