//===- HostModule.cpp - NVVM-level IR rewritten for the host --------------===//
//
// Replaces the `llvm.nvvm.*` intrinsics a kernel uses by calls into the
// emulation runtime, gives shared-memory globals offsets in a per-block
// buffer, routes every memory access through the bounds and race checks,
// and adds a packed entry point per kernel. Anything not emulated is
// refused by name.
//
//===----------------------------------------------------------------------===//
#include "runtime/emulator/HostModule.h"
#include "runtime/emulator/EmulatorState.h"
#include "runtime/emulator/InlinePtx.h"
#include "runtime/emulator/WgmmaLanding.h"

#include <map>
#include <set>
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/ScalarizeMaskedMemIntrin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstring>

using namespace nautilus::emu::detail;

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
  if (name == "llvm.nvvm.barrier0" || name.starts_with("llvm.nvvm.barrier.cta."))
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

/// redux.sync on 32-bit integers, by operation (the order of WarpCall's
/// Redux kinds).
std::optional<int32_t> classifyRedux(llvm::StringRef name) {
  static const char *const ops[] = {"add", "and", "or",   "xor",
                                    "max", "min", "umax", "umin"};
  if (!name.consume_front("llvm.nvvm.redux.sync."))
    return std::nullopt;
  for (auto [i, op] : llvm::enumerate(ops))
    if (name == op)
      return static_cast<int32_t>(i);
  return std::nullopt;
}

/// The approximate and full-range math intrinsics (ex2.approx, lg2.approx,
/// rcp, rsqrt, sqrt, div.full), emulated by the correctly rounded IEEE
/// operation: the PTX ISA bounds the error of the approximations (a few
/// ulps), so the emulated results are within those bounds of the hardware's.
bool translateFastMath(llvm::CallInst *call) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  auto in = [&](std::initializer_list<const char *> names) {
    return llvm::is_contained(names, name);
  };
  llvm::IRBuilder<> b(call);
  llvm::Value *x = call->arg_size() ? call->getArgOperand(0) : nullptr;
  llvm::Value *result = nullptr;
  if (in({"llvm.nvvm.ex2.approx.f32", "llvm.nvvm.ex2.approx.ftz.f32",
          "llvm.nvvm.ex2.approx.f", "llvm.nvvm.ex2.approx.ftz.f",
          "llvm.nvvm.ex2.approx.d"}))
    result = b.CreateUnaryIntrinsic(llvm::Intrinsic::exp2, x);
  else if (in({"llvm.nvvm.lg2.approx.f", "llvm.nvvm.lg2.approx.ftz.f",
               "llvm.nvvm.lg2.approx.d"}))
    result = b.CreateUnaryIntrinsic(llvm::Intrinsic::log2, x);
  else if (in({"llvm.nvvm.sqrt.approx.f", "llvm.nvvm.sqrt.approx.ftz.f",
               "llvm.nvvm.sqrt.rn.f", "llvm.nvvm.sqrt.rn.d", "llvm.nvvm.sqrt.f"}))
    result = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
  else if (in({"llvm.nvvm.rsqrt.approx.f", "llvm.nvvm.rsqrt.approx.ftz.f",
               "llvm.nvvm.rsqrt.approx.d"}))
    result = b.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0),
                          b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x));
  else if (in({"llvm.nvvm.rcp.approx.ftz.f", "llvm.nvvm.rcp.approx.ftz.d",
               "llvm.nvvm.rcp.rn.f", "llvm.nvvm.rcp.rn.d"}))
    result = b.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), x);
  else if (in({"llvm.nvvm.div.full", "llvm.nvvm.div.full.ftz",
               "llvm.nvvm.div.approx.f", "llvm.nvvm.div.approx.ftz.f",
               "llvm.nvvm.div.rn.f", "llvm.nvvm.div.rn.d"}))
    result = b.CreateFDiv(x, call->getArgOperand(1));
  if (!result)
    return false;
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
  return true;
}

/// The mbarrier family (cta space): init, inval, arrive (count, drop,
/// expect_tx), expect_tx / complete_tx, test_wait / try_wait (token or
/// parity), and cp.async.mbarrier.arrive. std::nullopt if `call` is not an
/// mbarrier intrinsic; false if it is one that is not emulated.
std::optional<bool> translateMBarrier(llvm::CallInst *call) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  bool cpAsync = name.consume_front("llvm.nvvm.cp.async.mbarrier.arrive");
  if (!cpAsync && !name.consume_front("llvm.nvvm.mbarrier."))
    return std::nullopt;
  llvm::Module &m = *call->getModule();
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *voidTy = llvm::Type::getVoidTy(ctx);
  llvm::IRBuilder<> b(call);
  llvm::Value *address = b.CreateAddrSpaceCast(call->getArgOperand(0), ptr);
  auto arg = [&](unsigned i) -> llvm::Value * {
    return i < call->arg_size() ? call->getArgOperand(i) : nullptr;
  };
  llvm::Value *result = nullptr;
  if (cpAsync) {
    auto f = m.getOrInsertFunction("__nautilus_emu_cp_async_mbarrier_arrive",
                                   llvm::FunctionType::get(voidTy, {ptr, i32}, false));
    b.CreateCall(f, {address, b.getInt32(name.contains("noinc"))});
  } else if (name.starts_with("init")) {
    auto f = m.getOrInsertFunction("__nautilus_emu_mbarrier_init",
                                   llvm::FunctionType::get(voidTy, {ptr, i32}, false));
    b.CreateCall(f, {address, arg(1)});
  } else if (name.starts_with("inval")) {
    // Nothing to do: a later init starts afresh.
  } else if (name.starts_with("arrive")) {
    bool drop = name.starts_with("arrive.drop");
    bool expectTx = name.contains("expect.tx");
    bool newForm = name.contains(".scope.");
    llvm::Value *count = b.getInt32(1), *tx = b.getInt32(0);
    if (expectTx)
      tx = arg(1);
    else if (name.contains("noComplete") || newForm)
      count = arg(1) ? arg(1) : count;
    auto f = m.getOrInsertFunction(
        "__nautilus_emu_mbarrier_arrive",
        llvm::FunctionType::get(i64, {ptr, i32, i32, i32}, false));
    result = b.CreateCall(f, {address, count, tx, b.getInt32(drop)});
  } else if (name.starts_with("expect.tx") || name.starts_with("complete.tx")) {
    llvm::Value *bytes = arg(1);
    if (name.starts_with("complete.tx"))
      bytes = b.CreateNeg(bytes);
    auto f = m.getOrInsertFunction("__nautilus_emu_mbarrier_tx",
                                   llvm::FunctionType::get(voidTy, {ptr, i32}, false));
    b.CreateCall(f, {address, bytes});
  } else if (name.starts_with("test.wait") || name.starts_with("try.wait")) {
    bool parity = name.contains("parity");
    llvm::Value *state = b.CreateZExtOrTrunc(arg(1), i64);
    auto f = m.getOrInsertFunction(
        "__nautilus_emu_mbarrier_wait",
        llvm::FunctionType::get(llvm::Type::getInt1Ty(ctx), {ptr, i64, i32},
                                false));
    result = b.CreateCall(f, {address, state, b.getInt32(parity)});
  } else {
    return false;
  }
  if (!call->getType()->isVoidTy()) {
    if (!result)
      return false;
    call->replaceAllUsesWith(result);
  }
  call->eraseFromParent();
  return true;
}

/// Fences: fence.proxy.async (the async hazard checks' proxy fence), the
/// tensormap acquire (a TMA copy requires its map acquired) and wgmma.fence
/// (a wgmma requires one since the registers were last accessed);
/// fence.mbarrier_init makes the thread's mbarrier inits visible to the
/// async proxy (a TMA copy requires its mbarrier's init fenced). Register
/// reallocation (setmaxnreg: the host has no register file to share), wgmma
/// groups (wgmma computes when issued; its groups end the reads the async
/// hazard checks track), and elect.sync.
/// Replaces `call` by calls of the runtime's void() functions `names`.
void replaceByRuntimeCalls(llvm::CallInst *call,
                           std::initializer_list<const char *> names) {
  llvm::IRBuilder<> b(call);
  for (const char *name : names)
    b.CreateCall(call->getModule()->getOrInsertFunction(
        name, llvm::FunctionType::get(b.getVoidTy(), false)));
  call->eraseFromParent();
}

bool translateAsyncOrdering(llvm::CallInst *call) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  if (name.starts_with("llvm.nvvm.fence.proxy.async")) {
    // Over shared memory (or every space), the mbarrier inits too.
    if (name.contains("global"))
      replaceByRuntimeCalls(call, {"__nautilus_emu_proxy_fence"});
    else
      replaceByRuntimeCalls(call, {"__nautilus_emu_proxy_fence",
                                   "__nautilus_emu_mbarrier_init_fence"});
    return true;
  }
  if (name.starts_with("llvm.nvvm.fence.proxy.tensormap_generic.acquire.")) {
    llvm::IRBuilder<> b(call);
    b.CreateCall(call->getModule()->getOrInsertFunction(
                     "__nautilus_emu_tensormap_acquire",
                     llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()},
                                             false)),
                 {call->getArgOperand(0)});
    call->eraseFromParent();
    return true;
  }
  if (name == "llvm.nvvm.wgmma.fence.sync.aligned") {
    replaceByRuntimeCalls(call, {"__nautilus_emu_wgmma_fence"});
    return true;
  }
  if (name == "llvm.nvvm.fence.mbarrier_init.release.cluster") {
    replaceByRuntimeCalls(call, {"__nautilus_emu_mbarrier_init_fence"});
    return true;
  }
  if (name.starts_with("llvm.nvvm.setmaxnreg.")) {
    call->eraseFromParent();
    return true;
  }
  if (name == "llvm.nvvm.wgmma.commit_group.sync.aligned") {
    replaceByRuntimeCalls(call, {"__nautilus_emu_wgmma_commit"});
    return true;
  }
  if (name == "llvm.nvvm.wgmma.wait_group.sync.aligned") {
    llvm::IRBuilder<> b(call);
    llvm::Type *i32 = b.getInt32Ty();
    b.CreateCall(call->getModule()->getOrInsertFunction(
                     "__nautilus_emu_wgmma_wait",
                     llvm::FunctionType::get(b.getVoidTy(), {i32}, false)),
                 {b.CreateTrunc(call->getArgOperand(0), i32)});
    call->eraseFromParent();
    return true;
  }
  if (name != "llvm.nvvm.elect.sync")
    return false;
  // {leader lane, is this lane the leader}
  llvm::Module &m = *call->getModule();
  llvm::IRBuilder<> b(call);
  llvm::Type *i32 = b.getInt32Ty();
  llvm::FunctionCallee elect = m.getOrInsertFunction(
      "__nautilus_emu_elect", llvm::FunctionType::get(i32, {i32}, false));
  llvm::FunctionCallee sreg = m.getOrInsertFunction(
      "__nautilus_emu_sreg", llvm::FunctionType::get(i32, {i32}, false));
  llvm::Value *leader = b.CreateCall(elect, {call->getArgOperand(0)});
  llvm::Value *lane = b.CreateCall(sreg, {b.getInt32(LaneId)});
  llvm::Value *result = llvm::PoisonValue::get(call->getType());
  result = b.CreateInsertValue(result, leader, 0);
  result = b.CreateInsertValue(result, b.CreateICmpEQ(lane, leader), 1);
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
  return true;
}

/// Shared addresses as integers are offsets in the block's shared window
/// (as on the GPU, where descriptors and swizzles are computed on them):
/// ptrtoint of a shared pointer becomes its offset, and inttoptr to a
/// shared pointer the host address of that offset.
void rewriteSharedAddressCasts(llvm::Module &m) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee toOffset = m.getOrInsertFunction(
      "__nautilus_emu_shared_offset", llvm::FunctionType::get(i64, {ptr}, false));
  llvm::FunctionCallee fromOffset = m.getOrInsertFunction(
      "__nautilus_emu_shared", llvm::FunctionType::get(ptr, {i64}, false));
  std::vector<llvm::Instruction *> casts;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if ((llvm::isa<llvm::PtrToIntInst>(i) &&
             i.getOperand(0)->getType()->getPointerAddressSpace() == 3) ||
            (llvm::isa<llvm::IntToPtrInst>(i) &&
             i.getType()->getPointerAddressSpace() == 3))
          casts.push_back(&i);
  for (llvm::Instruction *cast : casts) {
    llvm::IRBuilder<> b(cast);
    llvm::Value *replacement;
    if (llvm::isa<llvm::PtrToIntInst>(cast)) {
      llvm::Value *generic = b.CreateAddrSpaceCast(cast->getOperand(0), ptr);
      replacement = b.CreateZExtOrTrunc(b.CreateCall(toOffset, {generic}),
                                        cast->getType());
    } else {
      llvm::Value *offset = b.CreateZExtOrTrunc(cast->getOperand(0), i64);
      replacement = b.CreateAddrSpaceCast(b.CreateCall(fromOffset, {offset}),
                                          cast->getType());
    }
    cast->replaceAllUsesWith(replacement);
    cast->eraseFromParent();
  }
}

} // namespace

void nautilus::emu::detail::emitEmulatedMma(
    llvm::CallInst *call, uint32_t kind,
    llvm::ArrayRef<llvm::Value *> registers) {
  llvm::LLVMContext &ctx = call->getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee mma = call->getModule()->getOrInsertFunction(
      "__nautilus_emu_mma",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32, ptr, ptr},
                              false));
  llvm::IRBuilder<> entry(&*call->getFunction()->getEntryBlock().begin());
  llvm::Value *in = entry.CreateAlloca(llvm::ArrayType::get(i32, 10));
  llvm::Value *out = entry.CreateAlloca(llvm::ArrayType::get(i32, 4));
  llvm::IRBuilder<> b(call);
  for (auto [i, reg] : llvm::enumerate(registers))
    b.CreateStore(b.CreateBitCast(reg, i32), b.CreateConstGEP1_32(i32, in, i));
  b.CreateCall(mma, {b.getInt32(kind), in, out});
  auto *resultType = llvm::cast<llvm::StructType>(call->getType());
  llvm::Value *result = llvm::PoisonValue::get(resultType);
  for (unsigned i = 0; i < resultType->getNumElements(); ++i)
    result = b.CreateInsertValue(
        result,
        b.CreateBitCast(b.CreateLoad(i32, b.CreateConstGEP1_32(i32, out, i)),
                        resultType->getElementType(i)),
        i);
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

namespace {

/// The runtime functions that replace the intrinsics, declared once per
/// module.
struct RuntimeCallees {
  llvm::FunctionCallee sreg, barrier, shfl, ldmatrix, cpAsync, cpAsyncCommit,
      cpAsyncWait, cpAsyncWaitAll, redux, vote;
};

/// Declares the functions of RuntimeCallees in `m`.
RuntimeCallees declareRuntimeCallees(llvm::Module &m) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *opaque = llvm::PointerType::get(ctx, 0);
  llvm::Type *voidType = llvm::Type::getVoidTy(ctx);
  RuntimeCallees callees;
  callees.sreg = m.getOrInsertFunction(
      "__nautilus_emu_sreg", llvm::FunctionType::get(i32, {i32}, false));
  callees.barrier = m.getOrInsertFunction(
      "__nautilus_emu_barrier",
      llvm::FunctionType::get(voidType, {i32, i32, i32}, false));
  callees.shfl = m.getOrInsertFunction(
      "__nautilus_emu_shfl",
      llvm::FunctionType::get(i32, {i32, i32, i32, i32, i32}, false));
  callees.ldmatrix = m.getOrInsertFunction(
      "__nautilus_emu_ldmatrix",
      llvm::FunctionType::get(voidType, {opaque, i32, i32, opaque}, false));
  callees.cpAsync = m.getOrInsertFunction(
      "__nautilus_emu_cp_async",
      llvm::FunctionType::get(voidType, {opaque, opaque, i32, i32}, false));
  callees.cpAsyncCommit =
      m.getOrInsertFunction("__nautilus_emu_cp_async_commit",
                            llvm::FunctionType::get(voidType, false));
  callees.cpAsyncWait =
      m.getOrInsertFunction("__nautilus_emu_cp_async_wait",
                            llvm::FunctionType::get(voidType, {i32}, false));
  callees.cpAsyncWaitAll =
      m.getOrInsertFunction("__nautilus_emu_cp_async_wait_all",
                            llvm::FunctionType::get(voidType, false));
  callees.redux = m.getOrInsertFunction(
      "__nautilus_emu_redux",
      llvm::FunctionType::get(i32, {i32, i32, i32}, false));
  callees.vote = m.getOrInsertFunction(
      "__nautilus_emu_vote",
      llvm::FunctionType::get(i32, {i32, i32, i32}, false));
  return callees;
}

/// Shared memory: each addrspace(3) global gets an offset in the block's
/// shared memory and its uses become that address. As on the GPU, each
/// kernel lays out its own: its static buffers from 0, then dynamic shared
/// memory (an external array) 1024-byte aligned after them (a module of
/// several kernels laid out as one would push dynamic shared memory past
/// what a wgmma descriptor's 18-bit address reaches). Globals used by
/// several functions (or by a function that is called) share one
/// module-wide prefix. Fills `staticSharedBytes`; returns "" or why the
/// module is not emulated.
std::string placeSharedGlobals(
    llvm::Module &m, std::map<std::string, uint64_t> &staticSharedBytes) {
  std::vector<llvm::GlobalVariable *> sharedGlobals;
  for (llvm::GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == 3)
      sharedGlobals.push_back(&g);
  if (sharedGlobals.empty())
    return "";
  llvm::LLVMContext &ctx = m.getContext();
  const llvm::DataLayout &dl = m.getDataLayout();
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee base = m.getOrInsertFunction(
      "__nautilus_emu_shared",
      llvm::FunctionType::get(llvm::PointerType::get(ctx, 0), {i64}, false));
  auto isDynamic = [&](llvm::GlobalVariable *g) {
    return g->isDeclaration() || dl.getTypeAllocSize(g->getValueType()) == 0;
  };
  // The functions using each global (its uses as instructions first).
  std::map<llvm::GlobalVariable *, std::set<llvm::Function *>> usersOf;
  for (llvm::GlobalVariable *g : sharedGlobals) {
    llvm::convertUsersOfConstantsToInstructions({g});
    for (llvm::User *u : g->users())
      if (auto *i = llvm::dyn_cast<llvm::Instruction>(u))
        usersOf[g].insert(i->getFunction());
      else
        return "not emulated: a shared-memory global used outside code";
  }
  auto place = [&](uint64_t &offset, llvm::GlobalVariable *g) {
    uint64_t align = std::max<uint64_t>(16, g->getAlign().valueOrOne().value());
    offset = (offset + align - 1) / align * align;
    uint64_t at = offset;
    offset += dl.getTypeAllocSize(g->getValueType());
    return at;
  };
  bool perFunction = true;
  for (auto &[g, fs] : usersOf)
    for (llvm::Function *f : fs)
      perFunction &= f->use_empty();
  // Static globals of several functions first, for all of them.
  std::map<std::pair<llvm::GlobalVariable *, llvm::Function *>, uint64_t> at;
  std::map<llvm::GlobalVariable *, uint64_t> common;
  uint64_t prefix = 0;
  for (llvm::GlobalVariable *g : sharedGlobals)
    if (!isDynamic(g) && (!perFunction || usersOf[g].size() != 1))
      common[g] = place(prefix, g);
  std::map<llvm::Function *, uint64_t> staticEnd;
  for (llvm::GlobalVariable *g : sharedGlobals) {
    if (isDynamic(g) || common.count(g))
      continue;
    llvm::Function *f = *usersOf[g].begin();
    auto [it, first] = staticEnd.try_emplace(f, prefix);
    at[{g, f}] = place(it->second, g);
  }
  uint64_t widest = prefix;
  for (auto &[f, end] : staticEnd)
    widest = std::max(widest, end);
  // Dynamic shared memory starts 1024-byte aligned, as on the GPU, so
  // that swizzled tiles placed in it follow their address pattern.
  auto dynamicStart = [&](llvm::Function *f) {
    uint64_t end = perFunction && staticEnd.count(f) ? staticEnd[f]
                   : perFunction                    ? prefix
                                                    : widest;
    return (end + 1023) / 1024 * 1024;
  };
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      staticSharedBytes[f.getName().str()] = dynamicStart(&f);
  for (llvm::GlobalVariable *g : sharedGlobals) {
    std::vector<llvm::Use *> uses;
    for (llvm::Use &u : g->uses())
      uses.push_back(&u);
    for (llvm::Use *u : uses) {
      auto *user = llvm::cast<llvm::Instruction>(u->getUser());
      llvm::Function *f = user->getFunction();
      uint64_t offset = isDynamic(g)       ? dynamicStart(f)
                        : common.count(g) ? common[g]
                                          : at[{g, f}];
      llvm::IRBuilder<> b(&*f->getEntryBlock().getFirstInsertionPt());
      llvm::Value *address = b.CreateCall(base, {b.getInt64(offset)});
      u->set(b.CreateAddrSpaceCast(address, g->getType()));
    }
    g->eraseFromParent();
  }
  return "";
}

/// libdevice's configuration queries (what NVVMReflect answers):
/// __CUDA_ARCH is sm_80's; flush-to-zero and the rest are off.
void answerNvvmReflect(llvm::CallInst *call) {
  int32_t answer = 0;
  llvm::StringRef query;
  if (llvm::getConstantStringInfo(call->getArgOperand(0), query) &&
      query.starts_with("__CUDA_ARCH"))
    answer = 800;
  call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), answer));
  call->eraseFromParent();
}

/// redux.sync with operation `op` (classifyRedux) on 32-bit integers.
void translateRedux(llvm::CallInst *call, int32_t op,
                    llvm::FunctionCallee redux) {
  llvm::IRBuilder<> b(call);
  // llvm.nvvm.redux.sync.OP(value, membermask)
  llvm::Value *result = b.CreateCall(
      redux, {b.getInt32(op), call->getArgOperand(1), call->getArgOperand(0)});
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

/// shfl.sync (i32 or f32) and vote.sync, as classifyWarp describes `warp`.
void translateWarpCollective(llvm::CallInst *call, WarpIntrinsic warp,
                             const RuntimeCallees &callees) {
  llvm::Type *i32 = llvm::Type::getInt32Ty(call->getContext());
  llvm::IRBuilder<> b(call);
  llvm::Value *result;
  if (warp.vote) {
    llvm::Value *pred = b.CreateZExt(call->getArgOperand(1), i32);
    result = b.CreateCall(callees.vote, {b.getInt32(warp.mode),
                                         call->getArgOperand(0), pred});
    if (call->getType()->isIntegerTy(1))
      result = b.CreateTrunc(result, call->getType());
  } else {
    llvm::Value *value = call->getArgOperand(1);
    if (value->getType()->isFloatTy())
      value = b.CreateBitCast(value, i32);
    result = b.CreateCall(callees.shfl, {b.getInt32(warp.mode),
                                         call->getArgOperand(0), value,
                                         call->getArgOperand(2),
                                         call->getArgOperand(3)});
    if (call->getType()->isFloatTy())
      result = b.CreateBitCast(result, call->getType());
  }
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

/// ldmatrix.sync.aligned.m8n8.x1/x2/x4 (optionally .trans): the runtime
/// writes each matrix's register to a stack array the result is read from.
void translateLdmatrix(llvm::CallInst *call, llvm::FunctionCallee ldmatrix) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  llvm::LLVMContext &ctx = call->getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  int matrices = name[38] - '0';
  bool transpose = name.contains(".trans.");
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
}

/// cp.async from global to shared memory (.ca and .cg; 4, 8 or 16 bytes,
/// optionally with a source size) and its commit and wait groups.
/// std::nullopt if `call` is none of these; false for a copy of another
/// size.
std::optional<bool> translateCpAsync(llvm::CallInst *call,
                                     const RuntimeCallees &callees) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  if (name.starts_with("llvm.nvvm.cp.async.ca.shared.global.") ||
      name.starts_with("llvm.nvvm.cp.async.cg.shared.global.")) {
    llvm::StringRef rest =
        name.drop_front(strlen("llvm.nvvm.cp.async.ca.shared.global."));
    bool withSize = rest.consume_back(".s");
    int bytes = 0;
    if (rest.getAsInteger(10, bytes) ||
        (bytes != 4 && bytes != 8 && bytes != 16))
      return false;
    llvm::Type *opaque = llvm::PointerType::get(call->getContext(), 0);
    llvm::IRBuilder<> b(call);
    llvm::Value *dst = b.CreateAddrSpaceCast(call->getArgOperand(0), opaque);
    llvm::Value *src = b.CreateAddrSpaceCast(call->getArgOperand(1), opaque);
    llvm::Value *sourceBytes =
        withSize ? call->getArgOperand(2) : b.getInt32(bytes);
    b.CreateCall(callees.cpAsync, {dst, src, b.getInt32(bytes), sourceBytes});
    call->eraseFromParent();
    return true;
  }
  if (name == "llvm.nvvm.cp.async.commit.group" ||
      name == "llvm.nvvm.cp.async.wait.group" ||
      name == "llvm.nvvm.cp.async.wait.all") {
    llvm::IRBuilder<> b(call);
    if (name.ends_with("commit.group"))
      b.CreateCall(callees.cpAsyncCommit);
    else if (name.ends_with("wait.group"))
      b.CreateCall(callees.cpAsyncWait, {call->getArgOperand(0)});
    else
      b.CreateCall(callees.cpAsyncWaitAll);
    call->eraseFromParent();
    return true;
  }
  return std::nullopt;
}

/// cp.async.bulk.tensor.g2s.tile.Nd, a TMA load of a box of rank 1 to 5
/// into shared memory that completes on an mbarrier. std::nullopt if
/// `call` is not one; false for one with multicast or a cache hint.
std::optional<bool> translateTmaLoad(llvm::CallInst *call) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  if (!name.starts_with("llvm.nvvm.cp.async.bulk.tensor.g2s.tile."))
    return std::nullopt;
  // (dst (shared::cluster), mbarrier, tensor map, coordinates...,
  //  multicast mask, cache hint, use multicast, use cache hint, group)
  int rank = name.back() == 'd' ? name.drop_back().back() - '0' : 0;
  auto flag = [&](unsigned i) {
    auto *c = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(i));
    return !c || !c->isZero();
  };
  if (rank < 1 || rank > 5 || call->arg_size() < unsigned(3 + rank + 4) ||
      flag(3 + rank + 2) || flag(3 + rank + 3))
    return false;
  llvm::Module &m = *call->getModule();
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *opaque = llvm::PointerType::get(ctx, 0);
  llvm::IRBuilder<> entry(&*call->getFunction()->getEntryBlock().begin());
  llvm::Value *coordinates = entry.CreateAlloca(llvm::ArrayType::get(i32, 5));
  llvm::IRBuilder<> b(call);
  for (int d = 0; d < rank; ++d)
    b.CreateStore(call->getArgOperand(3 + d),
                  b.CreateConstGEP1_32(i32, coordinates, d));
  llvm::FunctionCallee tma = m.getOrInsertFunction(
      "__nautilus_emu_tma_load",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {opaque, opaque, i32, opaque, opaque}, false));
  b.CreateCall(tma, {b.CreateAddrSpaceCast(call->getArgOperand(0), opaque),
                     b.CreateAddrSpaceCast(call->getArgOperand(2), opaque),
                     b.getInt32(rank), coordinates,
                     b.CreateAddrSpaceCast(call->getArgOperand(1), opaque)});
  call->eraseFromParent();
  return true;
}

/// The mma.sync shape and types `call` computes, if it is an emulated one.
std::optional<MmaKind> classifyMma(llvm::CallInst *call) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  bool halfInputs = call->arg_size() > 0 &&
                    call->getArgOperand(0)->getType()->isVectorTy();
  if (name == "llvm.nvvm.mma.m16n8k16.row.col.f32.f32" && halfInputs)
    return M16N8K16F16;
  if (name == "llvm.nvvm.mma.m16n8k16.row.col.bf16")
    return M16N8K16BF16;
  if (name == "llvm.nvvm.mma.m16n8k8.row.col.f32.f32" && halfInputs)
    return M16N8K8F16;
  if (name == "llvm.nvvm.mma.m16n8k8.row.col.bf16")
    return M16N8K8BF16;
  if (name == "llvm.nvvm.mma.m16n8k16.row.col.f16.f16")
    return M16N8K16F16AccF16;
  if (name == "llvm.nvvm.mma.m16n8k8.row.col.f16.f16")
    return M16N8K8F16AccF16;
  if (name == "llvm.nvvm.mma.m16n8k8.row.col.tf32")
    return M16N8K8TF32;
  return std::nullopt;
}

/// bar.sync / bar.arrive with a barrier id and a thread count (0: all the
/// threads of the block). False for another form of barrier.
bool translateBarrier(llvm::CallInst *call, llvm::FunctionCallee barrier) {
  llvm::StringRef form = call->getCalledFunction()->getName();
  bool sync = form == "llvm.nvvm.barrier0" ||
              form.starts_with("llvm.nvvm.barrier.cta.sync");
  bool arrive = form.starts_with("llvm.nvvm.barrier.cta.arrive");
  if (!sync && !arrive)
    return false;
  llvm::IRBuilder<> b(call);
  bool all = form == "llvm.nvvm.barrier0" || form.ends_with(".all");
  llvm::Value *id = form == "llvm.nvvm.barrier0" ? b.getInt32(0)
                                                 : call->getArgOperand(0);
  llvm::Value *count = all ? b.getInt32(0) : call->getArgOperand(1);
  b.CreateCall(barrier, {id, count, b.getInt32(sync)});
  call->eraseFromParent();
  return true;
}

/// A read of special register `reg` (SpecialRegister), at the call's width.
void readSpecialRegister(llvm::CallInst *call, int32_t reg,
                         llvm::FunctionCallee sreg) {
  llvm::IRBuilder<> b(call);
  llvm::Value *v = b.CreateCall(sreg, {b.getInt32(reg)});
  if (v->getType() != call->getType())
    v = b.CreateZExtOrTrunc(v, call->getType());
  call->replaceAllUsesWith(v);
  call->eraseFromParent();
}

/// Replaces the call of an `llvm.nvvm.*` intrinsic by its emulation, family
/// by family; sets `usesFibres` when it waits for other threads. Returns ""
/// or "not emulated: NAME".
std::string translateIntrinsic(llvm::CallInst *call,
                               const RuntimeCallees &callees,
                               bool &usesFibres) {
  llvm::StringRef name = call->getCalledFunction()->getName();
  if (translateFastMath(call))
    return "";
  if (translateAsyncOrdering(call))
    return "";
  if (std::optional<bool> handled = translateMBarrier(call)) {
    if (!*handled)
      return "not emulated: " + name.str();
    usesFibres = true; // waits yield to the threads that arrive
    return "";
  }
  if (std::optional<int32_t> op = classifyRedux(name)) {
    usesFibres = true;
    translateRedux(call, *op, callees.redux);
    return "";
  }
  if (std::optional<WarpIntrinsic> warp = classifyWarp(name)) {
    usesFibres = true; // warp collectives suspend lanes: fibres
    translateWarpCollective(call, *warp, callees);
    return "";
  }
  if (name.starts_with("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x")) {
    usesFibres = true;
    translateLdmatrix(call, callees.ldmatrix);
    return "";
  }
  if (std::optional<bool> handled = translateCpAsync(call, callees)) {
    if (!*handled)
      return "not emulated: " + name.str();
    return "";
  }
  if (std::optional<bool> handled = translateTmaLoad(call)) {
    if (!*handled)
      return "not emulated: " + name.str() +
             " (with multicast or a cache hint)";
    usesFibres = true; // its mbarrier is waited on
    return "";
  }
  if (std::optional<MmaKind> mmaKind = classifyMma(call)) {
    usesFibres = true;
    llvm::SmallVector<llvm::Value *> registers(call->args());
    emitEmulatedMma(call, *mmaKind, registers);
    return "";
  }
  auto kind = classify(name);
  if (!kind)
    return "not emulated: " + name.str();
  if (kind->first) {
    usesFibres = true;
    if (!translateBarrier(call, callees.barrier))
      return "not emulated: " + name.str();
    return "";
  }
  readSpecialRegister(call, kind->second, callees.sreg);
  return "";
}

/// Replaces every inline PTX statement, `__nvvm_reflect` query and
/// `llvm.nvvm.*` intrinsic called in `m` by its emulation; sets `usesFibres`
/// when one waits for other threads. Returns "" or "not emulated: ...".
std::string translateCalls(llvm::Module &m, const RuntimeCallees &callees,
                           bool &usesFibres) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
          calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    if (auto *asmCall =
            llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
      std::string text = asmCall->getAsmString().str();
      bool collective = false;
      if (!translateInlinePtx(call, collective))
        return "not emulated: inline PTX '" + text + "'";
      usesFibres |= collective;
      continue;
    }
    llvm::Function *callee = call->getCalledFunction();
    if (callee && callee->getName() == "__nvvm_reflect") {
      answerNvvmReflect(call);
      continue;
    }
    if (!callee || !callee->getName().starts_with("llvm.nvvm."))
      continue;
    if (std::string error = translateIntrinsic(call, callees, usesFibres);
        !error.empty())
      return error;
  }
  guardWgmmaResults(m);
  return "";
}

/// Every access to global memory goes through a bounds check, which
/// returns the address to use (a quarantine for one out of bounds).
/// Accesses to a thread's own stack (allocas) are not checked.
void checkMemoryAccesses(llvm::Module &m) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *ptrType = llvm::PointerType::get(ctx, 0);
  // Each access instruction is a site the shared-memory profile counts
  // warp requests by.
  llvm::FunctionCallee check = m.getOrInsertFunction(
      "__nautilus_emu_access_at",
      llvm::FunctionType::get(ptrType,
                              {ptrType, llvm::Type::getInt64Ty(ctx), i32, i32},
                              false));
  int32_t site = 0;
  const llvm::DataLayout &layout = m.getDataLayout();
  std::vector<llvm::Instruction *> accesses;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (llvm::isa<llvm::LoadInst, llvm::StoreInst, llvm::AtomicRMWInst,
                      llvm::AtomicCmpXchgInst>(&i))
          accesses.push_back(&i);
  for (llvm::Instruction *access : accesses) {
    if (access->getMetadata("nautilus.checked"))
      continue; // a predicated inline-PTX access, checked where it was made
    // Atomic read-modify-writes (kind 2) are checked for bounds, not races.
    bool atomic =
        llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(access);
    unsigned pointerOperand = llvm::isa<llvm::StoreInst>(access) ? 1 : 0;
    llvm::Value *pointer = access->getOperand(pointerOperand);
    if (llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer)))
      continue;
    llvm::Type *valueType =
        atomic ? (llvm::isa<llvm::AtomicRMWInst>(access)
                      ? access->getType()
                      : access->getOperand(1)->getType())
               : llvm::getLoadStoreType(access);
    uint64_t bytes = layout.getTypeStoreSize(valueType);
    llvm::IRBuilder<> b(access);
    llvm::Value *generic = pointer->getType() == ptrType
                               ? pointer
                               : b.CreateAddrSpaceCast(pointer, ptrType);
    int kind = atomic ? 2 : llvm::isa<llvm::StoreInst>(access) ? 1 : 0;
    llvm::Value *safe =
        b.CreateCall(check, {generic, b.getInt64(bytes), b.getInt32(kind),
                             b.getInt32(site++)});
    if (safe->getType() != pointer->getType())
      safe = b.CreateAddrSpaceCast(safe, pointer->getType());
    access->setOperand(pointerOperand, safe);
  }
}

/// Masked loads, stores, gathers and scatters become a branch and a plain
/// access a lane (LLVM's own scalarisation, as for a target without them),
/// so that checkMemoryAccesses checks each enabled lane's access and no
/// disabled one.
void scalarizeMaskedAccesses(llvm::Module &m) {
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder builder;
  builder.registerFunctionAnalyses(analyses);
  llvm::ScalarizeMaskedMemIntrinPass scalarize;
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      scalarize.run(f, analyses);
}

/// Each memset, memcpy and memmove outside a thread's stack is checked as
/// a store of its length at its destination (and a load at its source),
/// and runs only when every range is in bounds: an out-of-bounds one fails
/// the launch, as a store past its buffer does, and writes nothing.
void checkMemoryIntrinsics(llvm::Module &m) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *ptrType = llvm::PointerType::get(ctx, 0);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::FunctionCallee check = m.getOrInsertFunction(
      "__nautilus_emu_access",
      llvm::FunctionType::get(ptrType, {ptrType, i64, i32}, false));
  std::vector<llvm::MemIntrinsic *> calls;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::MemIntrinsic>(&i))
          calls.push_back(call);
  for (llvm::MemIntrinsic *call : calls) {
    // Nothing to check (or do) for an empty range, whatever its address.
    llvm::IRBuilder<> b(call);
    llvm::Value *length = b.CreateZExtOrTrunc(call->getLength(), i64);
    llvm::Instruction *nonEmpty = llvm::SplitBlockAndInsertIfThen(
        b.CreateICmpNE(length, b.getInt64(0)), call, /*Unreachable=*/false);
    call->moveBefore(nonEmpty->getIterator());
    b.SetInsertPoint(call);
    llvm::Value *inBounds = b.getTrue();
    auto checkRange = [&](llvm::Value *pointer, bool isStore) {
      if (llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer)))
        return;
      llvm::Value *generic = pointer->getType() == ptrType
                                 ? pointer
                                 : b.CreateAddrSpaceCast(pointer, ptrType);
      llvm::Value *checked =
          b.CreateCall(check, {generic, length, b.getInt32(isStore)});
      inBounds = b.CreateAnd(inBounds, b.CreateICmpEQ(checked, generic));
    };
    checkRange(call->getRawDest(), /*isStore=*/true);
    if (auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(call))
      checkRange(transfer->getRawSource(), /*isStore=*/false);
    if (llvm::isa<llvm::Constant>(inBounds))
      continue; // both on the stack
    llvm::Instruction *then =
        llvm::SplitBlockAndInsertIfThen(inBounds, call, /*Unreachable=*/false);
    call->moveBefore(then->getIterator());
  }
}

/// Kernels become plain functions with a packed entry point,
/// void __nautilus_emu_entry_K(void **args); their names go to `kernels`.
void addPackedEntryPoints(llvm::Module &m, std::vector<std::string> &kernels) {
  llvm::LLVMContext &ctx = m.getContext();
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
      if (arg.hasByValAttr()) {
        // A parameter passed by value (a __grid_constant__ TMA tensor map):
        // the kernel reads it where the launch keeps it.
        f->removeParamAttr(i, llvm::Attribute::ByVal);
        // A grid constant is visible to the tensormap proxy: no fence.
        b.CreateCall(m.getOrInsertFunction(
                         "__nautilus_emu_tensormap_acquire",
                         llvm::FunctionType::get(b.getVoidTy(), {ptr}, false)),
                     {address});
        args.push_back(address);
        continue;
      }
      args.push_back(b.CreateLoad(arg.getType(), address));
    }
    b.CreateCall(f, args);
    b.CreateRetVoid();
  }
}

} // namespace

std::string nautilus::emu::detail::rewriteForHost(
    llvm::Module &m, std::vector<std::string> &kernels, bool &usesFibres,
    std::map<std::string, uint64_t> &staticSharedBytes) {
  RuntimeCallees callees = declareRuntimeCallees(m);
  if (std::string error = placeSharedGlobals(m, staticSharedBytes);
      !error.empty())
    return error;
  if (std::string error = translateCalls(m, callees, usesFibres);
      !error.empty())
    return error;
  for (llvm::Function &f : llvm::make_early_inc_range(m))
    if (f.getName().starts_with("llvm.nvvm.") && f.use_empty())
      f.eraseFromParent();
  rewriteSharedAddressCasts(m);
  scalarizeMaskedAccesses(m);
  checkMemoryIntrinsics(m);
  checkMemoryAccesses(m);
  addPackedEntryPoints(m, kernels);
  if (auto *annotations = m.getNamedMetadata("nvvm.annotations"))
    annotations->eraseFromParent();
  return "";
}
