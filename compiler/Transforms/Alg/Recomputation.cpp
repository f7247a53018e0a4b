//===- Recomputation.cpp - Which definitions are recomputed ---------------===//
#include "compiler/Transforms/Alg/Recomputation.h"

using namespace mlir;
using namespace nautilus;

bool nautilus::isRecomputable(alg::DefineOp def) {
  auto kernel = def->getParentOfType<alg::KernelOp>();
  if (def.isReduction() ||
      llvm::is_contained(kernel.getReturn().getOutputs(), def.getResult()))
    return false;
  // Recomputed at every point of its readers, its nested reductions would
  // be too.
  bool nested = false;
  def.walk([&](alg::ReduceOp) { nested = true; });
  if (nested)
    return false;
  return llvm::all_of(def.getResult().getUsers(), [](Operation *user) {
    auto load = dyn_cast<alg::LoadOp>(user);
    return load && load.getIndirect().empty();
  });
}

/// How many of the indices of the block that holds `load` are its
/// reader's own (a point of the reader, not a reduced index): a
/// reduction's left-hand indices, or a nested reduce's enclosing domain.
/// 0 where the block is not a reduction's body.
static unsigned readersOwnIndices(alg::LoadOp load) {
  Operation *parent = load->getParentOp();
  if (auto define = dyn_cast<alg::DefineOp>(parent))
    return define.isReduction() && load->getParentRegion() == &define.getBody()
               ? define.getRank()
               : 0;
  if (auto reduce = dyn_cast<alg::ReduceOp>(parent))
    return load->getBlock()->getNumArguments() - reduce.getReduceDims().size();
  return 0;
}

bool nautilus::isReadAgainByReduction(alg::DefineOp def) {
  return llvm::any_of(def.getResult().getUsers(), [](Operation *user) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (!load)
      return false;
    AffineMap map = load.getMap();
    for (unsigned d = 0, own = readersOwnIndices(load); d < own; ++d)
      if (!map.isFunctionOfDim(d))
        return true;
    return false;
  });
}
