//===- ReducedLanes.cpp ---------------------------------------------------===//
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/StreamMasks.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace nautilus;

bool tile::readsReducedIndex(LoadOp load, unsigned rank) {
  return llvm::any_of(load.getMap().getResults(),
                      [&](AffineExpr e) { return involvesDim(e, rank); });
}

/// Whether `load` reads the reduced index (dimension `rank`) plainly as its
/// buffer's innermost index and nowhere else; `alongInner` is set to
/// whether it reads along the output's innermost dimension too.
static bool readsRowsAlongReducedIndex(tile::LoadOp load, unsigned rank,
                                       bool &alongInner) {
  ArrayRef<AffineExpr> results = load.getMap().getResults();
  auto type = cast<MemRefType>(load.getBuffer().getType());
  if (!load.getIndirect().empty() ||
      static_cast<int64_t>(results.size()) != type.getRank() ||
      results.empty() ||
      results.back() != getAffineDimExpr(rank, load.getContext()))
    return false;
  alongInner = false;
  for (AffineExpr e : results.drop_back()) {
    if (involvesDim(e, rank))
      return false;
    alongInner |= involvesDim(e, rank - 1);
  }
  return true;
}

/// Whether the body of a reduction or stream at the top of a program of
/// `rank` (at least 1) output dimensions folds along reduced lanes (see
/// foldsAlongReducedLanes); `broadcastRows`: whether a load of the reduced
/// index may be one row shared by the tile's elements (a reduction's, not
/// yet a stream's).
static bool bodyFoldsAlongReducedLanes(Block &body, unsigned rank,
                                       bool broadcastRows) {
  using namespace tile;
  if (rank == 0 || !body.getArgument(0).use_empty())
    return false;
  bool readsAlong = false;
  for (Operation &op : body) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (!readsReducedIndex(load, rank))
        continue;
      // (Not bools: a row of i1 read as a vector reads bits, where each
      // bool is a byte; the CPU lowering reads bools an element at a time.)
      bool alongInner = false;
      if (!readsRowsAlongReducedIndex(load, rank, alongInner) ||
          (!alongInner && !broadcastRows) ||
          load.getType().getElementType().isInteger(1))
        return false;
      readsAlong |= alongInner;
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

bool tile::foldsAlongReducedLanes(ReduceOp reduce) {
  auto program = dyn_cast<ProgramOp>(reduce->getParentOp());
  return program && reduce.getExtents().size() == 1 &&
         bodyFoldsAlongReducedLanes(reduce.getBody().front(), program.getRank(),
                                    /*broadcastRows=*/true);
}

bool tile::foldsWithBroadcastOperand(ReduceOp reduce) {
  if (!foldsAlongReducedLanes(reduce))
    return false;
  unsigned rank = cast<ProgramOp>(reduce->getParentOp()).getRank();
  bool broadcast = false;
  reduce.getBody().walk([&](LoadOp load) {
    bool alongInner = false;
    if (readsReducedIndex(load, rank) &&
        readsRowsAlongReducedIndex(load, rank, alongInner))
      broadcast |= !alongInner;
  });
  return broadcast;
}

bool tile::streamFoldsAlongReducedLanes(OnlineReduceOp stream) {
  auto program = dyn_cast<ProgramOp>(stream->getParentOp());
  if (!program || !maskedKeyBounds(stream).empty())
    return false;
  for (Region &repair : stream.getRepairs())
    for (Operation &op : repair.front().without_terminator())
      if (isa<TileDialect>(op.getDialect()) || op.getNumRegions())
        return false;
  return bodyFoldsAlongReducedLanes(stream.getBody().front(), program.getRank(),
                                    /*broadcastRows=*/false);
}

bool tile::tileFoldsAlongReducedLanes(ArrayRef<int64_t> tile) {
  int64_t elements = 1;
  for (int64_t t : tile)
    elements *= t;
  return elements <= kMostReducedLaneRows;
}
