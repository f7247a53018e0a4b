//===- PackedPanel.cpp - A contraction's rhs the CPU can pack -------------===//
#include "dialects/Tile/Utils/PackedPanel.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace nautilus;

tile::LoadOp tile::packablePanelLoad(ProgramOp program) {
  unsigned rank = program.getRank();
  if (rank < 2)
    return LoadOp();
  ReduceOp reduce;
  for (auto r : program.getBody().front().getOps<ReduceOp>()) {
    if (reduce)
      return LoadOp(); // one contraction a program
    reduce = r;
  }
  if (!reduce || reduce.getExtents().size() != 1)
    return LoadOp();
  // The panel is allocated before any instance runs: its extent must be a
  // size or a literal.
  Value extent = reduce.getExtents()[0];
  if (!isa<BlockArgument>(extent) && !matchPattern(extent, m_Constant()))
    return LoadOp();
  LoadOp found;
  for (auto load : reduce.getBody().front().getOps<LoadOp>()) {
    auto type = cast<MemRefType>(load.getBuffer().getType());
    AffineMap map = load.getMap();
    if (type.getRank() != 2 || !load.getIndirect().empty() ||
        map.getNumResults() != 2)
      continue;
    auto row = dyn_cast<AffineDimExpr>(map.getResult(0));
    auto column = dyn_cast<AffineDimExpr>(map.getResult(1));
    if (!row || !column || row.getPosition() != rank ||
        column.getPosition() != rank - 1)
      continue;
    if (found)
      return LoadOp(); // two candidates: leave both
    found = load;
  }
  return found;
}
