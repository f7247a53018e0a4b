//===- SimtEmulator.cpp - Running NVIDIA kernels on the CPU ---------------===//
#include "runtime/emulator/SimtEmulator.h"
#include "runtime/DType.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include "llvm/Analysis/ValueTracking.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <ucontext.h>

using namespace nautilus::emu;

namespace {

/// Special registers, in the order __nautilus_emu_sreg numbers them.
enum SpecialRegister : int32_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ,
  CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ, LaneId, WarpSize,
};

/// A warp collective a lane is waiting in: which one, its operands, and
/// (once the warp completes it) the lane's result.
struct WarpCall {
  enum Kind { None, ShuffleIdx, ShuffleUp, ShuffleDown, ShuffleBfly,
              VoteAll, VoteAny, VoteUni, VoteBallot, LdMatrix, Mma } kind = None;
  uint32_t mask = 0, value = 0, b = 0, c = 0;
  uint32_t result = 0;
  // ldmatrix: the row address this lane gives, b = matrices, c = transpose.
  // mma: b = the shape and types (MmaKind), in = the lane's A, B and C
  // registers; out = its D registers.
  const void *address = nullptr;
  std::array<uint32_t, 10> in{};
  std::array<uint32_t, 4> out{};
};

/// The mma.sync forms emulated: m16n8k16 and m16n8k8, f16 or bf16 inputs,
/// f32 accumulators.
enum MmaKind : uint32_t { M16N8K16F16, M16N8K16BF16, M16N8K8F16, M16N8K8BF16 };

/// One cp.async copy, in flight until a wait completes its group.
struct PendingCopy {
  void *destination;
  const void *source;
  int32_t bytes;       // the copy's size (4, 8 or 16)
  int32_t sourceBytes; // read from the source; the rest is zero-filled
};

struct EmulatedThread {
  std::array<uint32_t, 3> tid{};
  ucontext_t context;
  std::vector<char> stack;
  bool done = false;
  bool atBarrier = false;
  WarpCall warp;
  /// cp.async: copies issued since the last commit, and committed groups
  /// (oldest first). A copy lands only when a wait completes its group, so
  /// a kernel that reads without waiting sees the old (poisoned) bytes.
  std::vector<PendingCopy> openGroup;
  std::vector<std::vector<PendingCopy>> groups;
};

/// What every block of a launch shares.
struct LaunchState {
  const std::vector<MemoryRange> *buffers = nullptr;
  std::mutex errorMutex;
  std::string error;

  void fail(const std::string &message) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (error.empty())
      error = message;
  }
  bool failed() {
    std::lock_guard<std::mutex> lock(errorMutex);
    return !error.empty();
  }
};

/// The state of the block a host thread is running.
struct BlockState {
  LaunchState *launch = nullptr;
  uint64_t id = 0;
  /// The block's shared memory, and for each byte the thread that last
  /// wrote it and in which barrier interval (for the race detector).
  std::vector<char> shared;
  std::vector<uint32_t> lastWriter, writeInterval;
  uint32_t interval = 1;
  std::array<uint32_t, 3> ctaid{}, ntid{}, nctaid{};
  ucontext_t scheduler;
  EmulatedThread *current = nullptr;
  void (*entry)(void **) = nullptr;
  void **args = nullptr;
};

thread_local BlockState *currentBlock = nullptr;

} // namespace

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

extern "C" void __nautilus_emu_barrier() {
  BlockState &b = *currentBlock;
  EmulatedThread *t = b.current;
  t->atBarrier = true;
  swapcontext(&t->context, &b.scheduler);
}

/// Where an access outside every buffer goes instead: it reads zeros and
/// its writes are dropped.
alignas(64) thread_local char quarantine[4096];

static std::string threadName(const BlockState &b) {
  const EmulatedThread &t = *b.current;
  return "thread (" + std::to_string(t.tid[0]) + ", " +
         std::to_string(t.tid[1]) + ", " + std::to_string(t.tid[2]) +
         ") of block (" + std::to_string(b.ctaid[0]) + ", " +
         std::to_string(b.ctaid[1]) + ", " + std::to_string(b.ctaid[2]) + ")";
}

static uint32_t linearTid(const BlockState &b) {
  const EmulatedThread &t = *b.current;
  return t.tid[0] + b.ntid[0] * (t.tid[1] + b.ntid[1] * t.tid[2]);
}

/// A shared-memory access: reading a byte another thread wrote in the same
/// barrier interval is a race (the PTX memory model gives no order without
/// bar.sync); so is writing one.
static void checkShared(BlockState &b, size_t offset, int64_t bytes,
                        bool isStore) {
  uint32_t me = linearTid(b);
  for (size_t at = offset; at < offset + bytes; ++at) {
    uint32_t writer = b.lastWriter[at];
    if (writer != 0 && writer - 1 != me && b.writeInterval[at] == b.interval) {
      b.launch->fail("shared-memory race: " + threadName(b) + " " +
                     (isStore ? "writes" : "reads") + " byte offset " +
                     std::to_string(at) + " written by thread " +
                     std::to_string(writer - 1) +
                     " with no bar.sync in between");
      return;
    }
    if (isStore) {
      b.lastWriter[at] = me + 1;
      b.writeInterval[at] = b.interval;
    }
  }
}

extern "C" void *__nautilus_emu_shared(int64_t offset) {
  return currentBlock->shared.data() + offset;
}

extern "C" void *__nautilus_emu_access(void *address, int64_t bytes,
                                       int32_t isStore) {
  BlockState &b = *currentBlock;
  auto at = reinterpret_cast<uintptr_t>(address);
  auto sharedBegin = reinterpret_cast<uintptr_t>(b.shared.data());
  if (!b.shared.empty() && at >= sharedBegin &&
      at < sharedBegin + b.shared.size()) {
    if (at + bytes <= sharedBegin + b.shared.size()) {
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
  for (const MemoryRange &r : buffers) {
    auto begin = reinterpret_cast<uintptr_t>(r.begin);
    if (at >= begin && at + bytes <= begin + r.bytes)
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
static uint32_t warpCollective(WarpCall::Kind kind, uint32_t mask,
                               uint32_t value, uint32_t b, uint32_t c) {
  BlockState &block = *currentBlock;
  EmulatedThread *t = block.current;
  t->warp = WarpCall{kind, mask, value, b, c, 0};
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
  swapcontext(&t->context, &block.scheduler);
  std::copy(t->warp.out.begin(), t->warp.out.end(), out);
}

extern "C" void __nautilus_emu_cp_async(void *destination, const void *source,
                                        int32_t bytes, int32_t sourceBytes) {
  currentBlock->current->openGroup.push_back(
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

extern "C" void __nautilus_emu_cp_async_wait_all() {
  __nautilus_emu_cp_async_commit();
  __nautilus_emu_cp_async_wait(0);
}

extern "C" uint32_t __nautilus_emu_vote(int32_t mode, uint32_t mask,
                                        uint32_t predicate) {
  return warpCollective(static_cast<WarpCall::Kind>(WarpCall::VoteAll + mode),
                        mask, predicate & 1, 0, 0);
}

static void fiberMain() {
  BlockState &b = *currentBlock;
  b.entry(b.args);
  b.current->done = true;
  // Returning resumes uc_link: the block's scheduler.
}

namespace {

/// What replaces each emulated intrinsic.
std::optional<std::pair<bool, int32_t>> classify(llvm::StringRef name) {
  // {isBarrier, special register}
  static const std::pair<const char *, int32_t> registers[] = {
      {"llvm.nvvm.read.ptx.sreg.tid.x", TidX},
      {"llvm.nvvm.read.ptx.sreg.tid.y", TidY},
      {"llvm.nvvm.read.ptx.sreg.tid.z", TidZ},
      {"llvm.nvvm.read.ptx.sreg.ntid.x", NtidX},
      {"llvm.nvvm.read.ptx.sreg.ntid.y", NtidY},
      {"llvm.nvvm.read.ptx.sreg.ntid.z", NtidZ},
      {"llvm.nvvm.read.ptx.sreg.ctaid.x", CtaidX},
      {"llvm.nvvm.read.ptx.sreg.ctaid.y", CtaidY},
      {"llvm.nvvm.read.ptx.sreg.ctaid.z", CtaidZ},
      {"llvm.nvvm.read.ptx.sreg.nctaid.x", NctaidX},
      {"llvm.nvvm.read.ptx.sreg.nctaid.y", NctaidY},
      {"llvm.nvvm.read.ptx.sreg.nctaid.z", NctaidZ},
      {"llvm.nvvm.read.ptx.sreg.laneid", LaneId},
      {"llvm.nvvm.read.ptx.sreg.warpsize", WarpSize},
  };
  for (auto &[n, r] : registers)
    if (name == n)
      return std::make_pair(false, r);
  if (name == "llvm.nvvm.barrier0" ||
      name == "llvm.nvvm.barrier.cta.sync.aligned.all" ||
      name == "llvm.nvvm.barrier.cta.sync.all")
    return std::make_pair(true, 0);
  return std::nullopt;
}

/// A warp collective intrinsic: {is vote, mode, type suffix}.
struct WarpIntrinsic {
  bool vote;
  int32_t mode;
};

std::optional<WarpIntrinsic> classifyWarp(llvm::StringRef name) {
  static const std::pair<const char *, WarpIntrinsic> table[] = {
      {"llvm.nvvm.shfl.sync.idx.i32", {false, 0}},
      {"llvm.nvvm.shfl.sync.up.i32", {false, 1}},
      {"llvm.nvvm.shfl.sync.down.i32", {false, 2}},
      {"llvm.nvvm.shfl.sync.bfly.i32", {false, 3}},
      {"llvm.nvvm.shfl.sync.idx.f32", {false, 0}},
      {"llvm.nvvm.shfl.sync.up.f32", {false, 1}},
      {"llvm.nvvm.shfl.sync.down.f32", {false, 2}},
      {"llvm.nvvm.shfl.sync.bfly.f32", {false, 3}},
      {"llvm.nvvm.vote.all.sync", {true, 0}},
      {"llvm.nvvm.vote.any.sync", {true, 1}},
      {"llvm.nvvm.vote.uni.sync", {true, 2}},
      {"llvm.nvvm.vote.ballot.sync", {true, 3}},
  };
  for (auto &[n, w] : table)
    if (name == n)
      return w;
  return std::nullopt;
}

/// Rewrites the NVVM-level module for the host. Returns "" or the first
/// thing that is not emulated.
std::string rewriteForHost(llvm::Module &m, std::vector<std::string> &kernels,
                           bool &usesBarriers, uint64_t &staticSharedBytes) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::FunctionCallee sreg = m.getOrInsertFunction(
      "__nautilus_emu_sreg", llvm::FunctionType::get(i32, {i32}, false));
  llvm::FunctionCallee barrier = m.getOrInsertFunction(
      "__nautilus_emu_barrier",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false));
  llvm::FunctionCallee shfl = m.getOrInsertFunction(
      "__nautilus_emu_shfl",
      llvm::FunctionType::get(i32, {i32, i32, i32, i32, i32}, false));
  llvm::Type *opaque = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee ldmatrix = m.getOrInsertFunction(
      "__nautilus_emu_ldmatrix",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {opaque, i32, i32, opaque}, false));
  llvm::FunctionCallee mma = m.getOrInsertFunction(
      "__nautilus_emu_mma",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {i32, opaque, opaque}, false));
  llvm::Type *voidType = llvm::Type::getVoidTy(ctx);
  llvm::FunctionCallee cpAsync = m.getOrInsertFunction(
      "__nautilus_emu_cp_async",
      llvm::FunctionType::get(voidType, {opaque, opaque, i32, i32}, false));
  llvm::FunctionCallee cpAsyncCommit = m.getOrInsertFunction(
      "__nautilus_emu_cp_async_commit", llvm::FunctionType::get(voidType, false));
  llvm::FunctionCallee cpAsyncWait = m.getOrInsertFunction(
      "__nautilus_emu_cp_async_wait", llvm::FunctionType::get(voidType, {i32}, false));
  llvm::FunctionCallee cpAsyncWaitAll = m.getOrInsertFunction(
      "__nautilus_emu_cp_async_wait_all", llvm::FunctionType::get(voidType, false));
  llvm::FunctionCallee vote = m.getOrInsertFunction(
      "__nautilus_emu_vote", llvm::FunctionType::get(i32, {i32, i32, i32}, false));
  // Shared memory: each addrspace(3) global gets an offset in the block's
  // shared memory (dynamic shared memory, an external array, starts after
  // the static ones), and its uses become that address.
  std::vector<llvm::GlobalVariable *> sharedGlobals;
  for (llvm::GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == 3)
      sharedGlobals.push_back(&g);
  if (!sharedGlobals.empty()) {
    const llvm::DataLayout &dl = m.getDataLayout();
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    llvm::FunctionCallee base = m.getOrInsertFunction(
        "__nautilus_emu_shared",
        llvm::FunctionType::get(llvm::PointerType::get(ctx, 0), {i64}, false));
    uint64_t offset = 0;
    std::vector<std::pair<llvm::GlobalVariable *, uint64_t>> placed;
    for (llvm::GlobalVariable *g : sharedGlobals) {
      if (g->isDeclaration() || dl.getTypeAllocSize(g->getValueType()) == 0)
        continue;
      uint64_t align = std::max<uint64_t>(16, g->getAlign().valueOrOne().value());
      offset = (offset + align - 1) / align * align;
      placed.push_back({g, offset});
      offset += dl.getTypeAllocSize(g->getValueType());
    }
    uint64_t dynamicStart = (offset + 15) / 16 * 16;
    for (llvm::GlobalVariable *g : sharedGlobals)
      if (g->isDeclaration() || dl.getTypeAllocSize(g->getValueType()) == 0)
        placed.push_back({g, dynamicStart});
    staticSharedBytes = dynamicStart;
    for (auto [g, at] : placed) {
      llvm::convertUsersOfConstantsToInstructions({g});
      std::vector<llvm::Use *> uses;
      for (llvm::Use &u : g->uses())
        uses.push_back(&u);
      for (llvm::Use *u : uses) {
        auto *user = llvm::dyn_cast<llvm::Instruction>(u->getUser());
        if (!user)
          return "not emulated: a shared-memory global used outside code";
        llvm::Function *f = user->getFunction();
        llvm::IRBuilder<> b(&*f->getEntryBlock().getFirstInsertionPt());
        llvm::Value *address = b.CreateCall(base, {b.getInt64(at)});
        u->set(b.CreateAddrSpaceCast(address, g->getType()));
      }
      g->eraseFromParent();
    }
  }

  std::vector<llvm::CallInst *> calls;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
          calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    if (auto *asmCall = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
      return "not emulated: inline PTX '" + asmCall->getAsmString().str() + "'";
    llvm::Function *callee = call->getCalledFunction();
    if (!callee || !callee->getName().starts_with("llvm.nvvm."))
      continue;
    if (auto warp = classifyWarp(callee->getName())) {
      usesBarriers = true; // warp collectives suspend lanes: fibres
      llvm::IRBuilder<> b(call);
      llvm::Value *result;
      if (warp->vote) {
        llvm::Value *pred = b.CreateZExt(call->getArgOperand(1), i32);
        result = b.CreateCall(vote, {b.getInt32(warp->mode),
                                     call->getArgOperand(0), pred});
        if (call->getType()->isIntegerTy(1))
          result = b.CreateTrunc(result, call->getType());
      } else {
        llvm::Value *value = call->getArgOperand(1);
        if (value->getType()->isFloatTy())
          value = b.CreateBitCast(value, i32);
        result = b.CreateCall(shfl, {b.getInt32(warp->mode),
                                     call->getArgOperand(0), value,
                                     call->getArgOperand(2),
                                     call->getArgOperand(3)});
        if (call->getType()->isFloatTy())
          result = b.CreateBitCast(result, call->getType());
      }
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
      continue;
    }
    llvm::StringRef calleeName = callee->getName();
    if (calleeName.starts_with("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x")) {
      usesBarriers = true;
      int matrices = calleeName[38] - '0';
      bool transpose = calleeName.contains(".trans.");
      llvm::IRBuilder<> entry(&*call->getFunction()->getEntryBlock().begin());
      llvm::Value *out = entry.CreateAlloca(llvm::ArrayType::get(i32, 4));
      llvm::IRBuilder<> b(call);
      llvm::Value *address = b.CreateAddrSpaceCast(call->getArgOperand(0),
                                                   llvm::PointerType::get(ctx, 0));
      b.CreateCall(ldmatrix, {address, b.getInt32(matrices),
                              b.getInt32(transpose), out});
      llvm::Value *result;
      if (matrices == 1) {
        result = b.CreateLoad(i32, out);
      } else {
        result = llvm::PoisonValue::get(call->getType());
        for (int i = 0; i < matrices; ++i)
          result = b.CreateInsertValue(
              result, b.CreateLoad(i32, b.CreateConstGEP1_32(i32, out, i)), i);
      }
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
      continue;
    }
    if (calleeName.starts_with("llvm.nvvm.cp.async.ca.shared.global.") ||
        calleeName.starts_with("llvm.nvvm.cp.async.cg.shared.global.")) {
      llvm::StringRef rest =
          calleeName.drop_front(strlen("llvm.nvvm.cp.async.ca.shared.global."));
      bool withSize = rest.consume_back(".s");
      int bytes = 0;
      if (rest.getAsInteger(10, bytes) || (bytes != 4 && bytes != 8 && bytes != 16))
        return "not emulated: " + calleeName.str();
      llvm::IRBuilder<> b(call);
      llvm::Value *dst = b.CreateAddrSpaceCast(call->getArgOperand(0), opaque);
      llvm::Value *src = b.CreateAddrSpaceCast(call->getArgOperand(1), opaque);
      llvm::Value *sourceBytes =
          withSize ? call->getArgOperand(2) : b.getInt32(bytes);
      b.CreateCall(cpAsync, {dst, src, b.getInt32(bytes), sourceBytes});
      call->eraseFromParent();
      continue;
    }
    if (calleeName == "llvm.nvvm.cp.async.commit.group" ||
        calleeName == "llvm.nvvm.cp.async.wait.group" ||
        calleeName == "llvm.nvvm.cp.async.wait.all") {
      llvm::IRBuilder<> b(call);
      if (calleeName.ends_with("commit.group"))
        b.CreateCall(cpAsyncCommit);
      else if (calleeName.ends_with("wait.group"))
        b.CreateCall(cpAsyncWait, {call->getArgOperand(0)});
      else
        b.CreateCall(cpAsyncWaitAll);
      call->eraseFromParent();
      continue;
    }
    std::optional<MmaKind> mmaKind;
    bool halfInputs = call->arg_size() > 0 &&
                      call->getArgOperand(0)->getType()->isVectorTy();
    if (calleeName == "llvm.nvvm.mma.m16n8k16.row.col.f32.f32" && halfInputs)
      mmaKind = M16N8K16F16;
    else if (calleeName == "llvm.nvvm.mma.m16n8k16.row.col.bf16")
      mmaKind = M16N8K16BF16;
    else if (calleeName == "llvm.nvvm.mma.m16n8k8.row.col.f32.f32" && halfInputs)
      mmaKind = M16N8K8F16;
    else if (calleeName == "llvm.nvvm.mma.m16n8k8.row.col.bf16")
      mmaKind = M16N8K8BF16;
    if (mmaKind) {
      usesBarriers = true;
      llvm::IRBuilder<> entry(&*call->getFunction()->getEntryBlock().begin());
      llvm::Value *in = entry.CreateAlloca(llvm::ArrayType::get(i32, 10));
      llvm::Value *out = entry.CreateAlloca(llvm::ArrayType::get(i32, 4));
      llvm::IRBuilder<> b(call);
      for (auto [i, operand] : llvm::enumerate(call->args()))
        b.CreateStore(b.CreateBitCast(operand, i32),
                      b.CreateConstGEP1_32(i32, in, i));
      b.CreateCall(mma, {b.getInt32(*mmaKind), in, out});
      llvm::Value *result = llvm::PoisonValue::get(call->getType());
      for (int i = 0; i < 4; ++i)
        result = b.CreateInsertValue(
            result,
            b.CreateBitCast(b.CreateLoad(i32, b.CreateConstGEP1_32(i32, out, i)),
                            b.getFloatTy()),
            i);
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
      continue;
    }
    auto kind = classify(calleeName);
    if (!kind)
      return "not emulated: " + calleeName.str();
    llvm::IRBuilder<> b(call);
    if (kind->first) {
      usesBarriers = true;
      b.CreateCall(barrier);
      call->eraseFromParent();
      continue;
    }
    llvm::Value *v = b.CreateCall(sreg, {b.getInt32(kind->second)});
    if (v->getType() != call->getType())
      v = b.CreateZExtOrTrunc(v, call->getType());
    call->replaceAllUsesWith(v);
    call->eraseFromParent();
  }
  for (llvm::Function &f : llvm::make_early_inc_range(m))
    if (f.getName().starts_with("llvm.nvvm.") && f.use_empty())
      f.eraseFromParent();

  // Every access to global memory goes through a bounds check, which
  // returns the address to use (a quarantine for one out of bounds).
  // Accesses to a thread's own stack (allocas) are not checked.
  llvm::Type *ptrType = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee check = m.getOrInsertFunction(
      "__nautilus_emu_access",
      llvm::FunctionType::get(ptrType,
                              {ptrType, llvm::Type::getInt64Ty(ctx), i32},
                              false));
  const llvm::DataLayout &layout = m.getDataLayout();
  std::vector<llvm::Instruction *> accesses;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(&i))
          accesses.push_back(&i);
  for (llvm::Instruction *access : accesses) {
    llvm::Value *pointer = llvm::getLoadStorePointerOperand(access);
    if (llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer)))
      continue;
    llvm::Type *valueType = llvm::getLoadStoreType(access);
    uint64_t bytes = layout.getTypeStoreSize(valueType);
    llvm::IRBuilder<> b(access);
    llvm::Value *generic = pointer->getType() == ptrType
                               ? pointer
                               : b.CreateAddrSpaceCast(pointer, ptrType);
    llvm::Value *safe = b.CreateCall(
        check, {generic, b.getInt64(bytes),
                b.getInt32(llvm::isa<llvm::StoreInst>(access))});
    if (safe->getType() != pointer->getType())
      safe = b.CreateAddrSpaceCast(safe, pointer->getType());
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(access))
      load->setOperand(0, safe);
    else
      llvm::cast<llvm::StoreInst>(access)->setOperand(1, safe);
  }

  // Kernels become plain functions with a packed entry point:
  // void __nautilus_emu_entry_K(void **args).
  std::vector<llvm::Function *> entries;
  for (llvm::Function &f : m)
    if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel) {
      f.setCallingConv(llvm::CallingConv::C);
      entries.push_back(&f);
    }
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  for (llvm::Function *f : entries) {
    kernels.push_back(f->getName().str());
    auto *wrapper = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
        llvm::GlobalValue::ExternalLinkage,
        "__nautilus_emu_entry_" + f->getName(), m);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
    std::vector<llvm::Value *> args;
    for (auto [i, arg] : llvm::enumerate(f->args())) {
      llvm::Value *slot = b.CreateConstGEP1_64(ptr, wrapper->getArg(0), i);
      llvm::Value *address = b.CreateLoad(ptr, slot);
      args.push_back(b.CreateLoad(arg.getType(), address));
    }
    b.CreateCall(f, args);
    b.CreateRetVoid();
  }
  if (auto *annotations = m.getNamedMetadata("nvvm.annotations"))
    annotations->eraseFromParent();
  return "";
}

} // namespace

struct SimtEmulator::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<std::string> kernels;
  bool usesBarriers = false;
  uint64_t staticSharedBytes = 0;
};

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
  error = rewriteForHost(*module, impl->kernels, impl->usesBarriers,
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
      {"__nautilus_emu_shared",
       reinterpret_cast<void *>(&__nautilus_emu_shared)},
      {"__nautilus_emu_shfl", reinterpret_cast<void *>(&__nautilus_emu_shfl)},
      {"__nautilus_emu_vote", reinterpret_cast<void *>(&__nautilus_emu_vote)},
      {"__nautilus_emu_ldmatrix",
       reinterpret_cast<void *>(&__nautilus_emu_ldmatrix)},
      {"__nautilus_emu_mma", reinterpret_cast<void *>(&__nautilus_emu_mma)},
      {"__nautilus_emu_cp_async",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async)},
      {"__nautilus_emu_cp_async_commit",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async_commit)},
      {"__nautilus_emu_cp_async_wait",
       reinterpret_cast<void *>(&__nautilus_emu_cp_async_wait)},
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

/// ldmatrix.sync.aligned.m8n8.xN(.trans).b16, as the PTX ISA defines it:
/// lanes 8i..8i+7 give the addresses of the 8 rows (16 bytes each) of
/// matrix i; lane l receives, of each matrix, the two 16-bit elements at
/// row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 (or, transposed, at
/// column l / 4 of rows 2 (l % 4) and 2 (l % 4) + 1).
static void completeLdMatrix(EmulatedThread *lanes) {
  uint32_t matrices = lanes[0].warp.b;
  bool transpose = lanes[0].warp.c != 0;
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

static float halfToFloat(uint16_t bits, bool bf16) {
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
static void completeMma(EmulatedThread *lanes) {
  uint32_t kind = lanes[0].warp.b;
  bool bf16 = kind == M16N8K16BF16 || kind == M16N8K8BF16;
  int k = (kind == M16N8K16F16 || kind == M16N8K16BF16) ? 16 : 8;
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
      float d = static_cast<float>(sum);
      std::memcpy(&lanes[l].warp.out[i], &d, 4);
    }
  }
}

/// Completes every warp collective whose member lanes are all waiting in
/// it, as the PTX ISA defines shfl.sync and vote.sync. Returns whether any
/// lane was released; sets `stuck` when lanes wait on a lane that has
/// exited or that waits elsewhere.
static bool completeWarpCollectives(std::vector<EmulatedThread> &fibres,
                                    std::string &stuck) {
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
    uint32_t ballot = 0;
    for (size_t i = first; i < end; ++i)
      if ((mask >> (i - first) & 1) && fibres[i].warp.value)
        ballot |= 1u << (i - first);
    for (size_t i = first; i < end; ++i) {
      if (!(mask >> (i - first) & 1))
        continue;
      WarpCall &call = fibres[i].warp;
      uint32_t lane = i - first;
      switch (call.kind) {
      case WarpCall::VoteAll: call.result = (ballot & mask) == mask; break;
      case WarpCall::VoteAny: call.result = ballot != 0; break;
      case WarpCall::VoteUni:
        call.result = ballot == 0 || (ballot & mask) == mask;
        break;
      case WarpCall::VoteBallot: call.result = ballot; break;
      default: {
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
        if (!pval || first + j >= end)
          j = lane;
        call.result = fibres[first + j].warp.value;
        break;
      }
      }
    }
    for (size_t i = first; i < end; ++i)
      if (mask >> (i - first) & 1)
        fibres[i].warp.kind = WarpCall::None;
    released = true;
  }
  return released;
}

std::string SimtEmulator::launch(const std::string &name,
                                 const LaunchShape &shape,
                                 std::vector<void *> args,
                                 const std::vector<MemoryRange> &buffers,
                                 unsigned hostThreads) {
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
  bool barriers = impl->usesBarriers;
  size_t sharedBytes = impl->staticSharedBytes + shape.dynamicSharedBytes;

  auto worker = [&] {
    BlockState block;
    block.launch = &state;
    block.ntid = shape.block;
    block.nctaid = shape.grid;
    block.entry = entry;
    block.args = args.data();
    currentBlock = &block;
    std::vector<EmulatedThread> fibres(threads);
    for (uint32_t t = 0; t < threads; ++t)
      fibres[t].tid = {t % shape.block[0],
                       (t / shape.block[0]) % shape.block[1],
                       t / (shape.block[0] * shape.block[1])};
    for (uint64_t id = next++; id < blocks; id = next++) {
      if (state.failed())
        return;
      block.id = id;
      // Fresh shared memory for the block, filled with 0xff bytes (NaN as
      // f32, -1 as an integer) so that reads of unwritten memory show.
      block.shared.assign(sharedBytes, static_cast<char>(0xff));
      block.lastWriter.assign(sharedBytes, 0);
      block.writeInterval.assign(sharedBytes, 0);
      block.interval = 1;
      block.ctaid = {uint32_t(id % shape.grid[0]),
                     uint32_t((id / shape.grid[0]) % shape.grid[1]),
                     uint32_t(id / (uint64_t(shape.grid[0]) * shape.grid[1]))};
      for (EmulatedThread &t : fibres) {
        t.openGroup.clear();
        t.groups.clear();
      }
      if (!barriers) {
        // No barrier: each thread can run to its end in turn.
        for (EmulatedThread &t : fibres) {
          block.current = &t;
          entry(block.args);
        }
        continue;
      }
      for (EmulatedThread &t : fibres) {
        t.done = t.atBarrier = false;
        t.warp = WarpCall();
        t.stack.resize(256 * 1024);
        getcontext(&t.context);
        t.context.uc_stack.ss_sp = t.stack.data();
        t.context.uc_stack.ss_size = t.stack.size();
        t.context.uc_link = &block.scheduler;
        makecontext(&t.context, fiberMain, 0);
      }
      while (true) {
        for (EmulatedThread &t : fibres) {
          if (t.done || t.atBarrier || t.warp.kind != WarpCall::None)
            continue;
          block.current = &t;
          swapcontext(&block.scheduler, &t.context);
        }
        std::string stuck;
        if (completeWarpCollectives(fibres, stuck))
          continue;
        // After a sweep no thread can run; lanes still in a collective wait
        // for lanes that are in another one.
        if (stuck.empty())
          for (size_t i = 0; i < fibres.size(); ++i)
            if (fibres[i].warp.kind != WarpCall::None) {
              stuck = "warp collective deadlock: thread " + std::to_string(i) +
                      " waits for lanes that wait in a different collective";
              break;
            }
        if (!stuck.empty()) {
          state.fail("in block " + std::to_string(id) + ": " + stuck);
          return;
        }
        size_t waiting = 0, finished = 0;
        for (EmulatedThread &t : fibres) {
          waiting += t.atBarrier;
          finished += t.done;
        }
        if (waiting == 0)
          break;
        if (finished != 0) {
          state.fail("barrier divergence in block " + std::to_string(id) +
                     ": " + std::to_string(finished) +
                     " threads exited while " + std::to_string(waiting) +
                     " wait at bar.sync");
          return;
        }
        for (EmulatedThread &t : fibres)
          t.atBarrier = false;
        ++block.interval; // writes before the barrier are now ordered
      }
    }
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
  return state.error;
}
