//===- TileUniformity.cpp - Map results constant over a tile --------------===//
#include "dialects/Tile/Utils/TileUniformity.h"

using namespace mlir;
using namespace nautilus;

SmallVector<std::optional<int64_t>>
nautilus::knownSymbolValues(tile::ProgramOp program) {
  SmallVector<std::optional<int64_t>> values;
  for (Attribute size : program.getSizes())
    values.push_back(program.getKnownExtent(size));
  return values;
}

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

bool nautilus::isUniformOverTile(AffineExpr e, unsigned d, int64_t tileExtent,
                                 ArrayRef<std::optional<int64_t>> symbols) {
  if (!e.isFunctionOfDim(d) || tileExtent == 1)
    return true;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::FloorDiv) {
    auto dim = dyn_cast<AffineDimExpr>(bin.getLHS());
    std::optional<int64_t> c = constantValue(bin.getRHS(), symbols);
    if (dim && dim.getPosition() == d && c && *c > 0 && *c % tileExtent == 0)
      return true;
  }
  // Sums, products and remainders of uniform terms are uniform (a floordiv
  // of a uniform term too, its divisor not reading d).
  return isUniformOverTile(bin.getLHS(), d, tileExtent, symbols) &&
         isUniformOverTile(bin.getRHS(), d, tileExtent, symbols);
}
