//===- ElementWiseLive.cpp - Registers an element-wise tile keeps ------===//
#include "compiler/Schedule/ElementWiseLive.h"
#include "dialects/Tile/Utils/AffineExpansion.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace nautilus;
using autosched::LivePoint;

llvm::DenseMap<Value, TileVariation>
nautilus::tileVariationsOf(tile::ProgramOp program, unsigned inner) {
  llvm::DenseMap<Value, TileVariation> varies;
  auto joinOperands = [&](Operation *op, TileVariation &along) {
    for (Value operand : op->getOperands()) {
      auto it = varies.find(operand);
      if (it != varies.end()) {
        along.rows |= it->second.rows;
        along.inner |= it->second.inner;
      }
    }
  };
  // (Post-order: an op's regions, and what they yield, come before it.)
  program.getBody().walk([&](Operation *op) {
    if (op->getNumResults() == 0)
      return;
    TileVariation along;
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      for (AffineExpr e : load.getMap().getResults())
        for (unsigned d = 0; d <= inner; ++d)
          if (involvesDim(e, d))
            (d == inner ? along.inner : along.rows) = true;
      // A gathered read varies as its indices do, too.
      joinOperands(op, along);
    } else if (auto index = dyn_cast<tile::IndexOp>(op)) {
      along = {index.getDim() != int64_t(inner), index.getDim() == inner};
    } else {
      joinOperands(op, along);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
            joinOperands(&block.back(), along);
    }
    for (Value result : op->getResults())
      varies[result] = along;
  });
  return varies;
}

int64_t nautilus::specialFunctionTiles(Operation *op) {
  // Measured on the legalize-math pass's expansion of each on a vector
  // (ElementWiseLiveTest.SpecialFunctionTilesMatchTheExpansion).
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([](math::ExpOp) { return 4; })
      .Case([](math::Exp2Op) { return 3; })
      .Case([](math::ExpM1Op) { return 12; })
      .Case([](math::TanhOp) { return 5; })
      .Case<math::LogOp, math::Log2Op>([](auto) { return 8; })
      .Case([](math::Log1pOp) { return 10; })
      .Case([](math::ErfOp) { return 13; })
      .Case([](math::ErfcOp) { return 9; })
      .Case([](math::PowFOp) { return 8; })
      .Default([](Operation *) { return 1; });
}

namespace {

LivePoint &operator+=(LivePoint &a, const LivePoint &b) {
  a.tiles += b.tiles;
  a.innerVectors += b.innerVectors;
  a.rowValues += b.rowValues;
  return a;
}

LivePoint widest(const LivePoint &a, const LivePoint &b) {
  return {std::max(a.tiles, b.tiles), std::max(a.innerVectors, b.innerVectors),
          std::max(a.rowValues, b.rowValues)};
}

LivePoint scaled(const LivePoint &a, int64_t by) {
  return {a.tiles * by, a.innerVectors * by, a.rowValues * by};
}

/// Whether folding `a` into an operation frees fewer registers than
/// folding `b` (a tile before a row of vectors before a value a row): an
/// instruction takes one operand from memory.
bool foldsFewer(const LivePoint &a, const LivePoint &b) {
  return std::tie(a.tiles, a.innerVectors, a.rowValues) <
         std::tie(b.tiles, b.innerVectors, b.rowValues);
}

/// Whether `a` holds at least as many registers as `b` at every tile.
bool covers(const LivePoint &a, const LivePoint &b) {
  return a.tiles >= b.tiles && a.innerVectors >= b.innerVectors &&
         a.rowValues >= b.rowValues;
}

/// The top-level operation of `block` that holds `op`.
Operation *topLevelOf(Operation *op, Block &block) {
  while (op && op->getBlock() != &block)
    op = op->getParentOp();
  return op;
}

} // namespace

std::vector<LivePoint>
nautilus::livePointsOf(Block &block,
                       llvm::function_ref<LivePoint(Value)> widthOf) {
  llvm::DenseMap<Operation *, int64_t> position;
  for (Operation &op : block)
    position[&op] = int64_t(position.size());
  // Each value's span: defined at `first` (a block argument before the
  // first operation), last used at `last`; a read used once lives at its
  // use alone (`folded`).
  struct Span {
    int64_t first, last;
    bool folded;
    int64_t uses;
  };
  llvm::DenseMap<Value, Span> spans;
  for (Operation &op : block)
    op.walk([&](Operation *user) {
      for (Value operand : user->getOperands()) {
        Operation *def = operand.getDefiningOp();
        // (Defined inside the same top-level op, or outside the block.)
        if (def ? def->getBlock() != &block
                : cast<BlockArgument>(operand).getOwner() != &block)
          continue;
        int64_t at = position[topLevelOf(user, block)];
        auto [it, inserted] = spans.try_emplace(
            operand, Span{def ? position[def] : -1, at, false, 0});
        it->second.last = std::max(it->second.last, at);
        ++it->second.uses;
      }
    });
  for (auto &[value, span] : spans)
    if (isa_and_nonnull<tile::LoadOp>(value.getDefiningOp()) &&
        span.uses == 1) {
      span.first = span.last;
      span.folded = true;
    }
  std::vector<LivePoint> points;
  for (Operation &op : block) {
    int64_t at = position[&op];
    LivePoint across, dying, folded, results;
    for (auto &[value, span] : spans) {
      if (span.first < at && span.last > at)
        across += widthOf(value);
      else if (span.last == at && (span.first < at || span.folded))
        dying += widthOf(value);
      if (span.last == at && span.folded)
        folded = std::max(folded, widthOf(value), foldsFewer);
    }
    bool foldedHere = false;
    for (Value result : op.getResults()) {
      auto it = spans.find(result);
      foldedHere |= it != spans.end() && it->second.folded;
      results += widthOf(result);
    }
    if (foldedHere)
      continue; // read at its use
    // The widest read folded into the operation takes no register.
    dying.tiles -= std::min(dying.tiles, folded.tiles);
    dying.innerVectors -= std::min(dying.innerVectors, folded.innerVectors);
    dying.rowValues -= std::min(dying.rowValues, folded.rowValues);
    LivePoint point = across;
    point += widest(dying, scaled(results, specialFunctionTiles(&op)));
    // Keep only the points no other covers.
    if (llvm::any_of(points,
                     [&](const LivePoint &p) { return covers(p, point); }))
      continue;
    llvm::erase_if(points,
                   [&](const LivePoint &p) { return covers(point, p); });
    points.push_back(point);
  }
  return points;
}

std::vector<LivePoint> nautilus::elementWiseLivePoints(tile::ProgramOp program,
                                                       unsigned inner,
                                                       int64_t elementBits) {
  llvm::DenseMap<Value, TileVariation> varies =
      tileVariationsOf(program, inner);
  auto widthOf = [&](Value value) {
    LivePoint width;
    auto it = varies.find(value);
    auto vector = dyn_cast<VectorType>(value.getType());
    if (it == varies.end() || !vector ||
        !(vector.getElementType().isIntOrFloat() ||
          vector.getElementType().isIndex()))
      return width;
    // (An index is a 64-bit integer on the host.)
    int64_t bits = vector.getElementType().isIndex()
                       ? 64
                       : vector.getElementType().getIntOrFloatBitWidth();
    int64_t vectors =
        std::max<int64_t>(1, (bits + std::max<int64_t>(elementBits, 1) - 1) /
                                 std::max<int64_t>(elementBits, 1));
    if (it->second.rows && it->second.inner)
      width.tiles = vectors;
    else if (it->second.inner)
      width.innerVectors = vectors;
    else if (it->second.rows)
      width.rowValues = 1;
    return width;
  };
  return livePointsOf(program.getBody().front(), widthOf);
}
