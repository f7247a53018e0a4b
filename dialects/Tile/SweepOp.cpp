//===- SweepOp.cpp - tile.sweep -------------------------------------------===//
#include "dialects/Tile/TileOps.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tile;

/// The program's tile shape (TileOps.cpp).
LogicalResult verifyTileShapeOf(Operation *op, Type type);

//===----------------------------------------------------------------------===//
// SweepOp
//===----------------------------------------------------------------------===//

Value SweepOp::getYielded() {
  return cast<YieldOp>(getBody().front().getTerminator()).getValue();
}

LogicalResult SweepOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("the body takes one index, the swept point");
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != 1)
    return emitOpError("the body must yield one tile");
  auto program = (*this)->getParentOfType<ProgramOp>();
  auto buffer = cast<MemRefType>(getBuffer().getType());
  auto vec = cast<VectorType>(yield.getValue().getType());
  if (buffer.getElementType() != vec.getElementType())
    return emitOpError("stores a tile of ")
           << vec.getElementType() << " into a buffer of "
           << buffer.getElementType();
  if (getMap().getNumDims() != program.getRank() + 1)
    return emitOpError("its map takes the ")
           << program.getRank() << " output dimensions and the swept index";
  if (getMap().getNumSymbols() != program.getSizes().size())
    return emitOpError("its map has ")
           << getMap().getNumSymbols() << " symbols but the program has "
           << program.getSizes().size() << " sizes";
  if (getMap().getNumResults() != static_cast<unsigned>(buffer.getRank()))
    return emitOpError("its map gives ")
           << getMap().getNumResults() << " indices to a buffer of rank "
           << buffer.getRank();
  return verifyTileShapeOf(*this, vec);
}
