//===- RoutingOps.cpp - tile.route and tile.skip_if_negative -------------===//
//
// A mixture of experts' grouped GEMMs: the routing program's counting sort
// (tile.route) and the grouped programs' skip of blocks past the last
// expert's rows (tile.skip_if_negative), and how one finds the other.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/TileOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tile;

//===----------------------------------------------------------------------===//
// RouteOp
//===----------------------------------------------------------------------===//

LogicalResult RouteOp::verify() {
  if (getBlock() <= 0)
    return emitOpError("needs a positive block, not ") << getBlock();
  if (getSlot().getType().getRank() != getIds().getType().getRank())
    return emitOpError("the slot of each row has the shape of ids: rank ")
           << getIds().getType().getRank() << ", not "
           << getSlot().getType().getRank();
  // One program instance: its output is a single tile.
  auto program = (*this)->getParentOfType<ProgramOp>();
  ArrayAttr dims = program.getOutputDims();
  auto single = dims.size() == 1 ? dyn_cast<IntegerAttr>(dims[0]) : nullptr;
  if (!single || single.getInt() != program.getSchedule().getTile()[0])
    return emitOpError("runs in a program whose output is one tile (output "
                       "dimensions [n], tile [n])");
  return success();
}

//===----------------------------------------------------------------------===//
// SkipIfNegativeOp
//===----------------------------------------------------------------------===//

SkipIfNegativeOp SkipIfNegativeOp::find(ProgramOp program) {
  for (Operation &op : program.getBody().front()) {
    if (auto skip = dyn_cast<SkipIfNegativeOp>(op))
      return skip;
    if (!isMemoryEffectFree(&op))
      return {};
  }
  return {};
}

RouteOp SkipIfNegativeOp::getRouting() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  auto table = dyn_cast<BlockArgument>(getTable());
  PlanOp plan = program.getPlan();
  if (!table || !plan)
    return {};
  Attribute name = program.getArgNames()[table.getArgNumber()];
  RouteOp routing;
  for (ProgramOp other : plan.getProgramOps())
    other.walk([&](RouteOp route) {
      auto blocks = dyn_cast<BlockArgument>(route.getBlockExperts());
      if (blocks && other.getArgNames()[blocks.getArgNumber()] == name)
        routing = route;
    });
  return routing;
}

bool SkipIfNegativeOp::isUniformOver(ArrayRef<int64_t> tile) {
  return llvm::all_of(getMap().getResults(), [&](AffineExpr e) {
    for (auto [d, extent] : llvm::enumerate(tile))
      if (!isUniformOverTile(e, d, extent))
        return false;
    return true;
  });
}

LogicalResult SkipIfNegativeOp::verify() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  AffineMap map = getMap();
  if (map.getNumDims() != program.getRank() ||
      map.getNumSymbols() != program.getSizes().size() ||
      map.getNumResults() != getTable().getType().getRank())
    return emitOpError("reads its rank-")
           << getTable().getType().getRank() << " table at a map of the "
           << program.getRank() << " output indices and "
           << program.getSizes().size() << " sizes of its program, not at "
           << getMapAttr();
  ArrayRef<int64_t> tile = program.getSchedule().getTile();
  for (unsigned d = 0; d < program.getRank(); ++d)
    if (!isUniformOver(tile.take_front(d + 1)))
      return emitOpError("reads an entry that varies over a tile along "
                         "output dimension ")
             << d << " (tile extent " << tile[d]
             << "); it must be the same for the whole tile";
  if (find(program) != *this)
    return emitOpError("must come before every op with side effects of its "
                       "program, and be its only one (a skipped tile does "
                       "nothing)");
  return success();
}
