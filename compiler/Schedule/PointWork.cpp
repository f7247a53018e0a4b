//===- PointWork.cpp - What an operation costs the models at a point ------===//
#include "compiler/Schedule/PointWork.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace nautilus;

PointWork nautilus::pointWorkOf(Operation *op) {
  if (isa<tile::TileDialect>(op->getDialect()) ||
      isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp, arith::ConstantOp>(op))
    return PointWork::None;
  return op->getDialect()->getNamespace() == "math" ? PointWork::SpecialFunction
                                                    : PointWork::Operation;
}
