//===- AffineExpansion.cpp ------------------------------------------------===//
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

bool nautilus::isContiguousAlong(AffineMap map, unsigned dim) {
  if (map.getNumResults() == 0)
    return false;
  auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
  return inner && inner.getPosition() == dim &&
         llvm::none_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return involvesDim(e, dim); });
}

bool nautilus::gathersRunsAlong(tile::LoadOp load, unsigned dim) {
  auto type = cast<MemRefType>(load.getBuffer().getType());
  ArrayRef<int64_t> gathered = load.getIndirectPositions();
  if (gathered.empty() || type.getRank() == 0 ||
      llvm::is_contained(gathered, type.getRank() - 1) ||
      !isContiguousAlong(load.getMap(), dim))
    return false;
  return llvm::all_of(load.getIndirect(), [&](Value index) {
    return tile::isUniformAlongDim(index, dim);
  });
}

Value nautilus::loadTableEntry(OpBuilder &b, Location loc, Value table,
                               AffineMap map, ArrayRef<Value> dims,
                               ArrayRef<Value> syms, int64_t outside) {
  SmallVector<Value> index;
  Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [d, e] : llvm::enumerate(map.getResults())) {
    index.push_back(expandAffine(b, loc, e, b.getIndexType(), dims, syms));
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index.back(),
                              memref::DimOp::create(b, loc, table, d)));
  }
  auto ifInside = scf::IfOp::create(b, loc, TypeRange{b.getIndexType()},
                                    inside, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifInside.getThenRegion().front());
  Value entry = memref::LoadOp::create(b, loc, table, index);
  scf::YieldOp::create(b, loc,
                       ValueRange{arith::IndexCastOp::create(
                           b, loc, b.getIndexType(), entry)});
  b.setInsertionPointToStart(&ifInside.getElseRegion().front());
  scf::YieldOp::create(
      b, loc, ValueRange{arith::ConstantIndexOp::create(b, loc, outside)});
  return ifInside.getResult(0);
}
