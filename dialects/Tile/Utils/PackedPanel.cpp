//===- PackedPanel.cpp - A contraction's rhs the CPU can pack -------------===//
#include "dialects/Tile/Utils/PackedPanel.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace nautilus;

/// The one load of a rank-2 buffer at [k, n] in `reduce` (of a program of
/// rank `rank`), if there is exactly one.
static tile::LoadOp panelLoadOf(tile::ReduceOp reduce, unsigned rank) {
  tile::LoadOp found;
  for (auto load : reduce.getBody().front().getOps<tile::LoadOp>()) {
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
      return tile::LoadOp(); // two candidates: leave both
    found = load;
  }
  return found;
}

SmallVector<tile::LoadOp> tile::packablePanelLoads(ProgramOp program) {
  unsigned rank = program.getRank();
  if (rank < 2)
    return {};
  SmallVector<LoadOp> loads;
  Value extent;
  for (auto reduce : program.getBody().front().getOps<ReduceOp>()) {
    // (the same size, or equal literals: each reduction may have a
    // constant of its own until CSE merges them)
    if (reduce.getExtents().size() != 1 ||
        (extent && !isEqualConstantIntOrValue(extent, reduce.getExtents()[0])))
      return {};
    extent = reduce.getExtents()[0];
    LoadOp load = panelLoadOf(reduce, rank);
    if (!load)
      return {};
    loads.push_back(load);
  }
  // The panels are allocated before any instance runs: their extent must
  // be a size or a literal.
  if (!extent ||
      (!isa<BlockArgument>(extent) && !matchPattern(extent, m_Constant())))
    return {};
  return loads;
}
