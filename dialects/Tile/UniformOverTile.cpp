//===- UniformOverTile.cpp - Index expressions constant over a tile -------===//
//
// tile::isUniformOverTile and the sizes it reads (TileOps.h): an index
// read only through `d floordiv c`, c a multiple of a tile's extent along
// d, is one value over each tile, whose origin is a multiple of its
// extent.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/TileOps.h"

using namespace mlir;
using namespace nautilus;

/// The value of `e` (constants and known symbols only), if known.
static std::optional<int64_t>
constantValue(AffineExpr e, ArrayRef<std::optional<int64_t>> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return s.getPosition() < symbols.size() ? symbols[s.getPosition()]
                                            : std::nullopt;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  std::optional<int64_t> l = constantValue(bin.getLHS(), symbols);
  std::optional<int64_t> r = constantValue(bin.getRHS(), symbols);
  if (!l || !r)
    return std::nullopt;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return *l + *r;
  case AffineExprKind::Mul:
    return *l * *r;
  case AffineExprKind::FloorDiv:
    return *r > 0 && *l >= 0 ? std::optional<int64_t>(*l / *r) : std::nullopt;
  case AffineExprKind::Mod:
    return *r > 0 && *l >= 0 ? std::optional<int64_t>(*l % *r) : std::nullopt;
  default:
    return std::nullopt;
  }
}

bool nautilus::tile::isUniformOverTile(
    AffineExpr expr, unsigned dim, int64_t tileExtent,
    ArrayRef<std::optional<int64_t>> symbols) {
  if (!expr.isFunctionOfDim(dim) || tileExtent == 1)
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::FloorDiv) {
    auto lhs = dyn_cast<AffineDimExpr>(binary.getLHS());
    std::optional<int64_t> divisor = constantValue(binary.getRHS(), symbols);
    if (lhs && lhs.getPosition() == dim && divisor && *divisor > 0 &&
        *divisor % tileExtent == 0)
      return true;
  }
  // Sums, products, remainders and quotients of uniform terms (a divisor
  // never reads a dimension).
  return isUniformOverTile(binary.getLHS(), dim, tileExtent, symbols) &&
         isUniformOverTile(binary.getRHS(), dim, tileExtent, symbols);
}

SmallVector<std::optional<int64_t>>
nautilus::tile::knownSizeValues(ProgramOp program) {
  SmallVector<std::optional<int64_t>> values;
  for (Attribute size : program.getSizes())
    values.push_back(program.getKnownExtent(size));
  return values;
}
