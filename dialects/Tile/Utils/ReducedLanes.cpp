//===- ReducedLanes.cpp ---------------------------------------------------===//
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "dialects/Tile/Utils/AffineExpansion.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace nautilus;

bool tile::readsReducedIndex(LoadOp load, unsigned rank) {
  return llvm::any_of(load.getMap().getResults(),
                      [&](AffineExpr e) { return involvesDim(e, rank); });
}

/// Whether `load` reads the reduced index (dimension `rank`) plainly as its
/// buffer's innermost index and nowhere else, and reads along the output's
/// innermost dimension too.
static bool readsRowsAlongReducedIndex(tile::LoadOp load, unsigned rank) {
  ArrayRef<AffineExpr> results = load.getMap().getResults();
  auto type = cast<MemRefType>(load.getBuffer().getType());
  if (!load.getIndirect().empty() ||
      static_cast<int64_t>(results.size()) != type.getRank() ||
      results.empty() ||
      results.back() != getAffineDimExpr(rank, load.getContext()))
    return false;
  bool alongInner = false;
  for (AffineExpr e : results.drop_back()) {
    if (involvesDim(e, rank))
      return false;
    alongInner |= involvesDim(e, rank - 1);
  }
  return alongInner;
}

bool tile::foldsAlongReducedLanes(ReduceOp reduce) {
  auto program = dyn_cast<ProgramOp>(reduce->getParentOp());
  if (!program || program.getRank() == 0 || reduce.getExtents().size() != 1)
    return false;
  unsigned rank = program.getRank();
  Block &body = reduce.getBody().front();
  if (llvm::any_of(body.getArguments(),
                   [](BlockArgument arg) { return !arg.use_empty(); }))
    return false;
  bool readsAlong = false;
  for (Operation &op : body) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (!readsReducedIndex(load, rank))
        continue;
      if (!readsRowsAlongReducedIndex(load, rank))
        return false;
      readsAlong = true;
      continue;
    }
    if (auto index = dyn_cast<IndexOp>(op)) {
      if (index.getDim() >= rank)
        return false;
      continue;
    }
    if (isa<YieldOp>(op))
      continue;
    if (isa<TileDialect>(op.getDialect()) || op.getNumRegions())
      return false;
  }
  return readsAlong;
}

bool tile::tileFoldsAlongReducedLanes(ArrayRef<int64_t> tile) {
  int64_t elements = 1;
  for (int64_t t : tile)
    elements *= t;
  return elements <= kMostReducedLaneRows;
}
