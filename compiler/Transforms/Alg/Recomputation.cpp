//===- Recomputation.cpp - Which definitions are recomputed ---------------===//
#include "compiler/Transforms/Alg/Recomputation.h"

#include "llvm/ADT/SmallPtrSet.h"

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

/// Whether a reduction reads `tensor` again for several of its points,
/// each read's map composed with `toDef` (the tensor's indices to the
/// definition's: the identity for the definition itself); with `visited`,
/// also where an element-wise definition that would be recomputed reads
/// it and a reduction reads that one again (each such definition followed
/// once, along the first read found: a chain read twice a link stays
/// linear, not 2^depth).
static bool readAgain(Value tensor, AffineMap toDef,
                      llvm::SmallPtrSetImpl<Operation *> *visited) {
  for (Operation *user : tensor.getUsers()) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (!load)
      continue;
    AffineMap map = toDef.compose(load.getMap());
    if (unsigned own = readersOwnIndices(load)) {
      for (unsigned d = 0; d < own; ++d)
        if (!map.isFunctionOfDim(d))
          return true;
      continue;
    }
    auto reader = dyn_cast<alg::DefineOp>(load->getParentOp());
    if (visited && reader && isRecomputable(reader) &&
        visited->insert(reader).second &&
        readAgain(reader.getResult(), map, visited))
      return true;
  }
  return false;
}

bool nautilus::isReadAgainByReduction(alg::DefineOp def,
                                      bool throughElementwise) {
  llvm::SmallPtrSet<Operation *, 8> visited;
  return readAgain(
      def.getResult(),
      AffineMap::getMultiDimIdentityMap(def.getRank(), def.getContext()),
      throughElementwise ? &visited : nullptr);
}
