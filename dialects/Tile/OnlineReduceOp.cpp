//===- OnlineReduceOp.cpp - tile.online_reduce ----------------------------===//
#include "dialects/Tile/TileOps.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tile;

/// The program's tile shape, and a split's chunks (TileOps.cpp).
LogicalResult verifyTileShapeOf(Operation *op, Type type);
LogicalResult verifySplitChunks(Operation *op, Region &body, int64_t splitDim,
                                int64_t chunk, ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// OnlineReduceOp
//===----------------------------------------------------------------------===//

alg::ReductionKind OnlineReduceOp::getAccumulatorKind(unsigned i) {
  if (isMean(i))
    return alg::ReductionKind::sum;
  return *alg::symbolizeReductionKind(
      cast<StringAttr>(getAccumulators()[i]).getValue());
}

bool OnlineReduceOp::isMean(unsigned i) {
  return alg::isMeanAccumulator(getAccumulators(), i);
}

bool OnlineReduceOp::hasMeanLeader() {
  return alg::hasMeanAccumulator(getAccumulators());
}

bool OnlineReduceOp::isLeader(unsigned i) {
  if (isMean(i))
    return true;
  alg::ReductionKind kind = getAccumulatorKind(i);
  return kind == alg::ReductionKind::max || kind == alg::ReductionKind::min;
}

unsigned OnlineReduceOp::getNumLeaders() {
  unsigned n = 0;
  for (unsigned i = 0; i < getAccumulators().size(); ++i)
    n += isLeader(i);
  return n;
}

LogicalResult OnlineReduceOp::verify() {
  unsigned count = getAccumulators().size();
  if (getResults().size() != count || count == 0)
    return emitOpError("has one result per accumulator");
  Type type = getResults().front().getType();
  if (failed(verifyTileShapeOf(*this, type)) ||
      llvm::any_of(getResultTypes(), [&](Type t) { return t != type; }))
    return emitOpError("the accumulators are tiles of one type");
  for (Attribute a : getAccumulators()) {
    StringRef name = cast<StringAttr>(a).getValue();
    std::optional<alg::ReductionKind> kind = alg::symbolizeReductionKind(name);
    if (name != "mean" && (!kind || *kind == alg::ReductionKind::prod))
      return emitOpError("an accumulator is max, min, mean or sum");
  }
  unsigned leaders = getNumLeaders();
  if (hasMeanLeader() && leaders != 1)
    return emitOpError("a stream with a mean leader has no other leader");
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 + leaders ||
      !body.getArgument(0).getType().isIndex() ||
      llvm::any_of(body.getArguments().drop_front(),
                   [&](BlockArgument a) { return a.getType() != type; }))
    return emitOpError("the body takes the streamed index and one tile per "
                       "leader");
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != count ||
      llvm::any_of(yield.getValues(),
                   [&](Value v) { return v.getType() != type; }))
    return emitOpError("the body yields one term per accumulator");
  if (getRepairs().size() != leaders)
    return emitOpError("has one repair per leader");
  for (Region &repair : getRepairs()) {
    Block &block = repair.front();
    auto factors = cast<YieldOp>(block.getTerminator());
    if (block.getNumArguments() != (hasMeanLeader() ? 3u : 2u) ||
        llvm::any_of(block.getArgumentTypes(),
                     [&](Type t) { return t != type; }) ||
        factors.getValues().size() != count - leaders)
      return emitOpError("a repair takes the old and new leader (and a "
                         "mean's count of points before) and yields one "
                         "factor (a mean's: addend) per follower");
  }
  if (getSplitDim().has_value() != getSplitChunk().has_value())
    return emitOpError("a split stream needs both split_dim and split_chunk");
  if (getSplitParts() && !isSplit())
    return emitOpError("split_parts needs split_dim and split_chunk");
  if (!isSplit())
    return success();
  if (failed(verifySplitChunks(*this, getBody(), getSplitDimAttr().getInt(),
                               getSplitChunkAttr().getInt(),
                               cast<VectorType>(type).getShape())))
    return failure();
  if (!getSplitParts())
    return success();
  // The parts are the split dimension's extent, a literal.
  int64_t parts = getSplitPartsAttr().getInt();
  auto program = (*this)->getParentOfType<ProgramOp>();
  auto along =
      program ? dyn_cast<IntegerAttr>(program.getOutputDims()[*getSplitDim()])
              : IntegerAttr();
  if (parts < 1 || (program && (!along || along.getInt() != parts)))
    return emitOpError("is split in ")
           << parts << " parts along output dimension " << *getSplitDim()
           << ", whose extent must be that many (a literal)";
  return success();
}
