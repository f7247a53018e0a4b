//===- FlashOverlap.cpp - The softmax overlapped with P V -----------------===//
//
// `overlap_softmax` (FlashAttention-3's intra-warpgroup overlap): each
// step of a wgmma flash kernel issues its block's Q K^T and then the
// previous block's P V, as two groups, waits for the first only, and runs
// the block's online softmax while P V runs on the tensor cores; then it
// waits for P V, repairs O by the step's factor and keeps the block's P
// (the A registers of the next step's P V) and its stage. The first step
// has no previous block: its P V multiplies a zero P by its own stage's V
// (which has landed), so that every step issues the same groups; the
// block after the last is drained after the loop. A consumer releases a
// block's stage in the next step, once that P V is done
// (tile::flashPipelineProtocol: release lag 1).
//
// The P a P V reads (registers wgmma reads asynchronously) is held live
// up to the wait that completes it (an empty asm taking it), so that the
// next block's P, written before that wait, cannot share its registers.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/FlashKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

namespace {

/// An empty asm that takes `registers` (i32): they stay live, unchanged,
/// up to it.
void holdRegisters(OpBuilder &b, Location loc, ValueRange registers) {
  std::string constraints;
  for (size_t i = 0; i < registers.size(); ++i)
    constraints += (i ? ",r" : "r");
  LLVM::InlineAsmOp::create(
      b, loc, Type(), registers, "", constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

/// A fragment's registers as i32 (an f16 pair is a vector<2xf16>).
Value asI32(OpBuilder &b, Location loc, Value reg) {
  if (reg.getType().isInteger(32))
    return reg;
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), reg);
}

} // namespace

void FlashLowering::appendDeferredInit(SmallVector<Value> &init) {
  init.append(contracted.size() * pRegisters(), i32(0));
  init.push_back(c(0)); // the first block's stage
}

void FlashLowering::beginOverlappedStep(SmallVector<Value> &carried) {
  DeferredValues values;
  unsigned next = accumulatorCount();
  for (size_t f = 0; f < contracted.size(); ++f) {
    auto &fragments = values.p.emplace_back();
    for (int64_t kk = 0; kk < keyBlock / 16; ++kk) {
      fragments.emplace_back(carried.begin() + next,
                             carried.begin() + next + 4);
      next += 4;
    }
  }
  values.stage = carried[next];
  values.carried = &carried;
  deferred = std::move(values);
}

void FlashLowering::issueDeferred() {
  // (scores() fenced every register the step reads before its Q K^T.)
  MutableArrayRef<Value> o = contractedAccumulators(*deferred->carried);
  for (auto [f, fragments] : llvm::enumerate(deferred->p))
    issueValues(fragments, deferred->stage,
                o.slice(f * headTiles * 4, headTiles * 4));
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
}

void FlashLowering::waitForDeferred(MutableArrayRef<Value> carried) {
  MutableArrayRef<Value> o = contractedAccumulators(carried);
  SmallVector<Value> waited = emitTiedWgmmaWait(b, loc, o, /*pending=*/0);
  llvm::copy(waited, o.begin());
}

void FlashLowering::endOverlappedStep(BlockScores &scored, Value stage,
                                      SmallVector<Value> &updated) {
  // This block's P, before the wait: its softmax overlaps P V.
  SmallVector<Value> fresh;
  for (unsigned i : contracted)
    for (const SmallVector<Value, 4> &fragment :
         valueFragments(roles.factors[i], scored))
      for (Value reg : fragment)
        fresh.push_back(asI32(b, loc, reg));
  // The previous block's P V done: O tied to the wait, the P it read held
  // to it.
  waitForDeferred(updated);
  SmallVector<Value> read;
  for (const auto &fragments : deferred->p)
    for (const SmallVector<Value, 4> &fragment : fragments)
      read.append(fragment.begin(), fragment.end());
  holdRegisters(b, loc, read);
  unsigned next = accumulatorCount();
  llvm::copy(fresh, updated.begin() + next);
  updated[next + fresh.size()] = stage;
  deferred.reset();
}

SmallVector<Value> FlashLowering::drainDeferred(ValueRange finals,
                                                Value firstBlock) {
  // The last block's P V, where the loop ran a block (else P is zero and
  // its stage holds no block).
  unsigned count = accumulatorCount();
  SmallVector<Value> accumulators(finals.take_front(count));
  Value anyBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         firstBlock, endBlock);
  auto ifAny = scf::IfOp::create(b, loc, ValueRange(accumulators).getTypes(),
                                 anyBlock, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAny.getElseRegion().front());
    scf::YieldOp::create(b, loc, accumulators);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifAny.getThenRegion().front());
  SmallVector<Value> drained(finals.begin(), finals.end());
  beginOverlappedStep(drained);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  issueDeferred();
  waitForDeferred(drained);
  deferred.reset();
  drained.resize(count);
  scf::YieldOp::create(b, loc, drained);
  return SmallVector<Value>(ifAny.getResults());
}
