//===- Widening.cpp - A body's float arithmetic computed in f64 -----------===//
#include "compiler/Transforms/Alg/Widening.h"
#include "dialects/Alg/AlgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace nautilus;

static bool isFloat(Type t) { return isa<FloatType>(t); }

static bool hasFloat(TypeRange types) { return llvm::any_of(types, isFloat); }

/// Whether `op` can compute in f64 what it computes today.
static bool widens(Operation &op) {
  if (op.getNumRegions())
    return false;
  if (isa<alg::LoadOp, alg::YieldOp>(op) ||
      (!hasFloat(op.getResultTypes()) && !isa<arith::BitcastOp>(op)))
    return true;
  StringRef dialect = op.getName().getDialectNamespace();
  return (dialect == "arith" || dialect == "math") &&
         !isa<arith::BitcastOp>(op);
}

LogicalResult nautilus::widenToF64(Block &block) {
  if (!llvm::all_of(block, widens))
    return failure();
  OpBuilder b(block.getParent()->getContext());
  Type f64 = b.getF64Type();
  for (BlockArgument arg : block.getArguments())
    if (isFloat(arg.getType()))
      arg.setType(f64);
  for (Operation &op : llvm::make_early_inc_range(block)) {
    Location loc = op.getLoc();
    b.setInsertionPointAfter(&op);
    if (auto load = dyn_cast<alg::LoadOp>(op)) {
      if (!isFloat(load.getType()) || load.getType().isF64())
        continue;
      auto wide = arith::ExtFOp::create(b, loc, f64, load.getResult());
      load.getResult().replaceAllUsesExcept(wide, wide);
    } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto value = dyn_cast<FloatAttr>(constant.getValue());
      if (!value || value.getType().isF64())
        continue;
      Value wide = arith::ConstantOp::create(
          b, loc, b.getF64FloatAttr(value.getValueAsDouble()));
      constant.getResult().replaceAllUsesWith(wide);
      constant.erase();
    } else if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
      // Its operand is an f64 already.
      ext.getResult().replaceAllUsesWith(ext.getIn());
      ext.erase();
    } else if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
      // Rounds as before, then on in f64.
      Value rounded =
          arith::TruncFOp::create(b, loc, trunc.getType(), trunc.getIn());
      Value wide = arith::ExtFOp::create(b, loc, f64, rounded);
      trunc.getResult().replaceAllUsesWith(wide);
      trunc.erase();
    } else {
      for (Value result : op.getResults())
        if (isFloat(result.getType()))
          result.setType(f64);
    }
  }
  return success();
}
