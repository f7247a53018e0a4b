//===- Contractions.cpp - tile.contract in a kernel -----------------------===//
//
// A contraction needs a tensor-core schedule whose pipeline fits the
// target's shared memory and leaves registers beside the accumulators;
// its main loop is mma.sync's (ContractToMmaSync.cpp) or wgmma's
// (ContractToWgmma.cpp), or in a persistent program, the consumers' part
// of the persistent wgmma pipeline (PersistentLoops.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/Contractions.h"

#include "compiler/Conversion/TileToGPU/MemoryAccess.h"
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "dialects/Tile/Utils/SiblingContracts.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

ContractLoweringContext tiletogpu::contractContext(KernelContext &kernel,
                                                   tile::ContractOp contract) {
  assert(tile::siblingContracts(contract).front() == contract &&
         "a contraction's lowering stands for its siblings from the first");
  tile::sinkIntoComputedOperands(contract);
  // A literal extent is a constant of the program's body, which a
  // persistent program lowers after its tiles' loop: made here.
  Value extent = kernel.scalars.lookupOrNull(contract.getExtent());
  if (!extent)
    if (auto literal =
            contract.getExtent().getDefiningOp<arith::ConstantIndexOp>())
      extent = arith::ConstantIndexOp::create(kernel.b, contract.getLoc(),
                                              literal.value());
  assert(extent && "a contraction's extent is a size or a literal");
  ContractLoweringContext context{
      kernel.func,
      // (null when computed or absent)
      kernel.scalars.lookupOrNull(contract.getLhs()),
      kernel.scalars.lookupOrNull(contract.getRhs()),
      extent,
      kernel.scalars.lookupOrNull(contract.getLhsOffsets()),
      kernel.scalars.lookupOrNull(contract.getRhsOffsets()),
      kernel.sizeArgs,
      kernel.tileOrigin,
      kernel.extents,
      kernel.threadId,
      kernel.program.getSchedule(),
      Value(),
      Value(),
      kernel.lhsTensorMap,
      kernel.rhsTensorMaps.empty() ? Value() : kernel.rhsTensorMaps[0],
      nullptr,
      nullptr,
      &kernel.target,
      &kernel.barriers,
  };
  for (unsigned side : {0u, 1u}) {
    if (contract.isComputed(side)) {
      kernel.computedOperands[side] = std::make_unique<ComputedOperand>(
          contract.getOperandBody(side), kernel.scalars, kernel.sizeArgs);
      (side == 0 ? context.lhsComputed : context.rhsComputed) =
          kernel.computedOperands[side].get();
      continue;
    }
    (side == 0 ? context.lhsInnerExtent : context.rhsInnerExtent) =
        innermostExtent(kernel, contract.getOperandBuffer(side));
  }
  SmallVector<tile::ContractOp> siblings = tile::siblingContracts(contract);
  for (size_t s = 1; s < siblings.size(); ++s) {
    tile::ContractOp sibling = siblings[s];
    context.siblings.push_back(
        {kernel.scalars.lookup(sibling.getRhs()), sibling.getOperandMap(1),
         innermostExtent(kernel, sibling.getRhs()),
         s < kernel.rhsTensorMaps.size() ? kernel.rhsTensorMaps[s] : Value()});
  }
  return context;
}

FailureOr<SmallVector<Fragment>>
tiletogpu::lowerContract(KernelContext &kernel, tile::ContractOp contract) {
  OpBuilder &b = kernel.b;
  tile::ScheduleAttr schedule = kernel.program.getSchedule();
  if (!schedule.getMma())
    return contract.emitOpError(
        "needs a tensor-core schedule (#tile.mma) on the GPU");
  if (tile::ContractOp outside = tile::contractOutsideSiblings(kernel.program))
    return outside.emitOpError(
        "shares no lhs tile with the program's first contraction; a GPU "
        "program runs one contraction, or siblings that load the same lhs");
  SmallVector<tile::ContractOp> siblings = tile::siblingContracts(contract);
  bool wgmma = schedule.getMma().getInstr() == "wgmma";
  if (contract.isSplit() &&
      *contract.getSplitChunk() % schedule.getMma().getTileK() != 0)
    return contract.emitOpError("splits K into chunks of ")
           << *contract.getSplitChunk()
           << ", not a multiple of tile_k = " << schedule.getMma().getTileK();
  // What the target allows: shared memory per block (static for the
  // mma.sync pipeline; dynamic, opted into at launch, for wgmma's), and the
  // accumulators must leave registers for the fragments and addresses.
  int64_t shared = wgmma ? planWgmma(contract, schedule).sharedBytes
                         : contractSharedMemoryBytes(contract, schedule);
  int64_t sharedLimit = wgmma ? kSm90SharedLimit : kSm80SharedLimit;
  if (shared > sharedLimit)
    return contract.emitOpError("needs ")
           << shared << " bytes of shared memory for its pipeline; a block "
           << "may use " << sharedLimit << " bytes of shared memory "
           << (wgmma ? "on sm_90" : "with mma.sync (an A100's)")
           << " (use fewer stages, a smaller tile_k or a smaller tile)";
  // The registers a computing thread has: an even split of the register
  // file (at most 255), or on a wgmma schedule that reallocates, the
  // consumers' count; about kOtherRegisters of them go to addresses,
  // operand fragments and the epilogue (PipelineLimits.h).
  int64_t registers = evenRegisterSplit(schedule.getThreads());
  bool reallocated = false;
  if (wgmma)
    if (int64_t given = planWgmma(contract, schedule).registers.consumer) {
      registers = given;
      reallocated = true;
    }
  int64_t accumulatorLimit =
      std::min(kAccumulatorLimit, registers - kOtherRegisters);
  int64_t accumulators = kernel.perThread * int64_t(siblings.size());
  if (accumulators > accumulatorLimit)
    return contract.emitOpError("keeps ")
           << accumulators << " accumulators per thread"
           << (siblings.size() > 1 ? " (its siblings' too)" : "")
           << "; at most " << accumulatorLimit << " leave room in the "
           << registers
           << " registers of a thread (use more warps or a smaller tile"
           << (wgmma && !reallocated
                   ? "; only a persistent producer warpgroup that just "
                     "copies gives its registers to the consumers"
                   : "")
           << ")";
  if (wgmma && (contract.isComputed(0) || contract.isComputed(1)) &&
      !schedule.getMma().getProducers())
    return contract.emitOpError(
        "has a computed operand, which a wgmma schedule evaluates in its "
        "producer warpgroup (use producers = 1)");
  FailureOr<SmallVector<Value>> acc;
  if (kernel.persistent) { // in the consumers' loop over tiles (runPersistent)
    acc = kernel.persistent->consumeTile(kernel.persistentLocalTile,
                                         kernel.persistentWarpgroup);
  } else {
    ContractLoweringContext context = contractContext(kernel, contract);
    acc = wgmma ? lowerContractToWgmma(b, contract, context)
                : lowerContractToMmaSync(b, contract, context);
  }
  if (failed(acc))
    return failure();
  // Each sibling's accumulators after the previous one's.
  SmallVector<Fragment> out;
  size_t each = acc->size() / siblings.size();
  for (size_t s = 0; s < siblings.size(); ++s)
    out.push_back(
        Fragment(acc->begin() + s * each, acc->begin() + (s + 1) * each));
  return out;
}
