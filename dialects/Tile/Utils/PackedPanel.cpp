//===- PackedPanel.cpp - A contraction's rhs the CPU can pack -------------===//
#include "dialects/Tile/Utils/PackedPanel.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace nautilus;

std::optional<tile::PanelLayout> tile::panelLayoutOf(LoadOp load,
                                                     unsigned rank) {
  auto type = cast<MemRefType>(load.getBuffer().getType());
  AffineMap map = load.getMap();
  // (Not bools: a panel is copied and read a vector of a row at a time,
  // and a vector of i1 is bits where each bool is a byte.)
  if (rank < 2 || type.getRank() < 2 || !load.getIndirect().empty() ||
      map.getNumResults() != type.getRank() ||
      type.getElementType().isInteger(1))
    return std::nullopt;
  // Leading indices: batch dimensions of the output (not the rows).
  PanelLayout layout;
  for (AffineExpr e : map.getResults().drop_back(2)) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() >= rank - 2)
      return std::nullopt;
    layout.batchDims.push_back(dim.getPosition());
  }
  auto first = dyn_cast<AffineDimExpr>(map.getResult(map.getNumResults() - 2));
  auto second = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!first || !second)
    return std::nullopt;
  if (first.getPosition() == rank && second.getPosition() == rank - 1)
    layout.transposed = false; // B[k, n]
  else if (first.getPosition() == rank - 1 && second.getPosition() == rank)
    layout.transposed = true; // B[n, k]
  else
    return std::nullopt;
  return layout;
}

/// The one load in `reduce` (of a program of rank `rank`) that reads a
/// panel (panelLayoutOf), if there is exactly one.
static tile::LoadOp panelLoadOf(tile::ReduceOp reduce, unsigned rank) {
  tile::LoadOp found;
  for (auto load : reduce.getBody().front().getOps<tile::LoadOp>()) {
    if (!tile::panelLayoutOf(load, rank))
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

std::string tile::reductionBlockRefusal(ProgramOp program) {
  if (packablePanelLoads(program).empty())
    return "the program has no contraction operand to pack";
  bool streams = false;
  program.walk([&](OnlineReduceOp) { streams = true; });
  if (streams)
    return "the program streams (tile.online_reduce), which would run "
           "again for every block";
  SmallVector<ReduceOp> group;
  Block &body = program.getBody().front();
  for (auto reduce : body.getOps<ReduceOp>()) {
    ReduceOp first = group.empty() ? reduce : group.front();
    bool follows = group.empty() || reduce->getPrevNode() == group.back();
    bool readsGroup = false;
    reduce.getBody().walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        readsGroup |= llvm::any_of(
            group, [&](ReduceOp r) { return operand == r.getResult(); });
    });
    if (!follows || reduce.isSplit() || readsGroup ||
        reduce.getKind() != first.getKind() ||
        reduce.getType() != first.getType())
      return "the program's contractions are not one group folded together "
             "(consecutive, of one kind and type, none split, none reading "
             "another's result)";
    group.push_back(reduce);
  }
  return "";
}
