//===- PointWork.cpp - What an operation costs the models at a point ------===//
#include "compiler/Schedule/PointWork.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace nautilus;

PointWork nautilus::pointWorkOf(Operation *op) {
  if (isa<tile::TileDialect>(op->getDialect()) ||
      isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp, arith::ConstantOp>(op))
    return PointWork::None;
  // (The math dialect's operations that are one instruction: a fused
  // multiply-add, which alg-exp-to-exp2 writes into every exponential's
  // argument, the sign's and the rounding's.)
  if (isa<math::FmaOp, math::AbsFOp, math::CopySignOp, math::FloorOp,
          math::CeilOp, math::TruncOp, math::RoundEvenOp>(op))
    return PointWork::Operation;
  return op->getDialect()->getNamespace() == "math" ? PointWork::SpecialFunction
                                                    : PointWork::Operation;
}
