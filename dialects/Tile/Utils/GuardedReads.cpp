//===- GuardedReads.cpp - Reads a where(...) on the tile guards -----------===//
#include "dialects/Tile/Utils/GuardedReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tile;

/// Whether `condition` is computed from a program's coordinate along a
/// dimension of tile 1 (`tile.index d`, its batch or head).
static bool dependsOnTileCoordinate(Value condition, ArrayRef<int64_t> tile) {
  SmallVector<Value> work{condition};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (auto index = dyn_cast<IndexOp>(op)) {
      uint64_t d = index.getDim();
      if (d < tile.size() && tile[d] == 1)
        return true;
      continue;
    }
    llvm::append_range(work, op->getOperands());
  }
  return false;
}

bool tile::isGuardedOnTileCoordinate(LoadOp load, ArrayRef<int64_t> tile) {
  SmallVector<Value> work{load.getResult()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto select = dyn_cast<arith::SelectOp>(user);
          select && use.getOperandNumber() != 0 &&
          dependsOnTileCoordinate(select.getCondition(), tile))
        return true;
      if (!seen.insert(user).second)
        continue;
      // A region's yield flows out through its op's results.
      Operation *producer =
          user->hasTrait<OpTrait::IsTerminator>() ? user->getParentOp() : user;
      llvm::append_range(work, producer->getResults());
    }
  }
  return false;
}
