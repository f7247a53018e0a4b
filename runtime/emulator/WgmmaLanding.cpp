//===- WgmmaLanding.cpp - wgmma accumulators land at their wait -----------===//
#include "runtime/emulator/WgmmaLanding.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <algorithm>

using namespace llvm;
using namespace nautilus::emu::detail;

namespace {

constexpr const char *kSitesKey = "nautilus.wgmma.sites";
constexpr const char *kResultKey = "nautilus.wgmma.result";
constexpr const char *kSlotKey = "nautilus.wgmma.accumulator";

/// Whether `user` only carries `value` on (to where it is used).
bool carries(Instruction *user, Value *value) {
  if (isa<BitCastInst, PHINode, FreezeInst, ExtractValueInst>(user))
    return true;
  if (auto *select = dyn_cast<SelectInst>(user))
    return select->getCondition() != value;
  return isa<InsertValueInst>(user);
}

/// Whether `store` puts a value into a wgmma's accumulator slot.
bool storesIntoAccumulator(StoreInst *store) {
  Value *slot = store->getPointerOperand();
  while (auto *gep = dyn_cast<GEPOperator>(slot))
    slot = gep->getPointerOperand();
  auto *alloca = dyn_cast<AllocaInst>(slot);
  return alloca && alloca->getMetadata(kSlotKey);
}

/// The uses of wgmma results in `f` that compute with them, with the sites
/// whose results reach each.
MapVector<Instruction *, uint64_t> resultUses(Function &f) {
  DenseMap<Value *, uint64_t> reaching;
  SmallVector<Value *> work;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (MDNode *site = i.getMetadata(kResultKey)) {
        reaching[&i] = uint64_t(1)
                       << mdconst::extract<ConstantInt>(site->getOperand(0))
                              ->getZExtValue();
        work.push_back(&i);
      }
  MapVector<Instruction *, uint64_t> uses;
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    uint64_t sites = reaching[v];
    for (User *u : v->users()) {
      auto *user = dyn_cast<Instruction>(u);
      if (!user)
        continue;
      if (carries(user, v)) {
        uint64_t &known = reaching[user];
        if ((known | sites) != known) {
          known |= sites;
          work.push_back(user);
        }
        continue;
      }
      auto *store = dyn_cast<StoreInst>(user);
      if (store && store->getValueOperand() == v &&
          storesIntoAccumulator(store))
        continue;
      uses[user] |= sites;
    }
  }
  return uses;
}

} // namespace

int32_t nautilus::emu::detail::newWgmmaSite(Function &f) {
  int32_t next = 0;
  if (MDNode *count = f.getMetadata(kSitesKey))
    next = int32_t(
        mdconst::extract<ConstantInt>(count->getOperand(0))->getSExtValue());
  LLVMContext &ctx = f.getContext();
  f.setMetadata(kSitesKey,
                MDNode::get(ctx, ConstantAsMetadata::get(ConstantInt::get(
                                     Type::getInt32Ty(ctx), next + 1))));
  return std::min<int32_t>(next, kWgmmaSites - 1); // the last is shared
}

void nautilus::emu::detail::markWgmmaResult(LoadInst *load, int32_t site) {
  LLVMContext &ctx = load->getContext();
  load->setMetadata(kResultKey,
                    MDNode::get(ctx, ConstantAsMetadata::get(ConstantInt::get(
                                         Type::getInt32Ty(ctx), site))));
}

void nautilus::emu::detail::markWgmmaAccumulator(AllocaInst *slot) {
  slot->setMetadata(kSlotKey, MDNode::get(slot->getContext(), {}));
}

void nautilus::emu::detail::guardWgmmaResults(Module &m) {
  LLVMContext &ctx = m.getContext();
  FunctionCallee landed = m.getOrInsertFunction(
      "__nautilus_emu_wgmma_landed",
      FunctionType::get(Type::getVoidTy(ctx), {Type::getInt64Ty(ctx)}, false));
  for (Function &f : m) {
    if (f.isDeclaration() || !f.getMetadata(kSitesKey))
      continue;
    // One check a block and set of sites, before the first use there.
    MapVector<std::pair<BasicBlock *, uint64_t>, Instruction *> first;
    for (auto [use, sites] : resultUses(f)) {
      Instruction *&at = first[{use->getParent(), sites}];
      if (!at || use->comesBefore(at))
        at = use;
    }
    for (auto [key, use] : first) {
      IRBuilder<>(use).CreateCall(
          landed, {ConstantInt::get(Type::getInt64Ty(ctx), key.second)});
    }
  }
}
