//===- AffineExpansion.cpp ------------------------------------------------===//
#include "compiler/Conversion/AffineExpansion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

Value nautilus::expandAffine(OpBuilder &b, Location loc, AffineExpr expr,
                             Type type, ArrayRef<Value> dims,
                             ArrayRef<Value> syms) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    auto value = b.getIndexAttr(cast<AffineConstantExpr>(expr).getValue());
    if (auto vec = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(b, loc, vec,
                                       DenseElementsAttr::get(vec, value));
    return arith::ConstantOp::create(b, loc, type, value);
  }
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return syms[cast<AffineSymbolExpr>(expr).getPosition()];
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  Value l = expandAffine(b, loc, bin.getLHS(), type, dims, syms);
  Value r = expandAffine(b, loc, bin.getRHS(), type, dims, syms);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(b, loc, l, r);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(b, loc, l, r);
  case AffineExprKind::FloorDiv:
    return arith::FloorDivSIOp::create(b, loc, l, r);
  case AffineExprKind::CeilDiv:
    return arith::CeilDivSIOp::create(b, loc, l, r);
  case AffineExprKind::Mod: {
    Value q = arith::FloorDivSIOp::create(b, loc, l, r);
    return arith::SubIOp::create(b, loc, l,
                                 arith::MulIOp::create(b, loc, q, r));
  }
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

bool nautilus::involvesDim(AffineExpr expr, unsigned dim) {
  return expr.isFunctionOfDim(dim);
}
