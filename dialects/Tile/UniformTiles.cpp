//===- UniformTiles.cpp - Tiles that are one value, or one along a dim ----===//
//
// tile::isSplatTile, tile::isUniformTile and tile::isUniformAlongDim
// (TileOps.h): what the layout passes and the lowerings ask of a tile's
// values before they distribute, convert or vectorize it.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;

bool nautilus::tile::isSplatTile(Value value) {
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    return isa<SplatElementsAttr>(constant.getValue());
  if (auto broadcast = value.getDefiningOp<vector::BroadcastOp>())
    return !isa<VectorType>(broadcast.getSource().getType());
  return false;
}

/// Walks the element-wise ops `value` is computed by, each value once (a
/// chain of definitions each using the previous twice is a DAG: a
/// recursion would take exponential time), splat tiles passing; any other
/// producer is judged by `source`, which may add values to walk. Returns
/// whether every producer passed.
static bool allSourcesPass(
    Value value,
    function_ref<bool(Operation *, SmallVectorImpl<Value> &)> source) {
  llvm::SmallPtrSet<void *, 8> seen;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v.getAsOpaquePointer()).second || tile::isSplatTile(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (def->getNumResults() != 1 || def->getNumRegions() ||
        !def->hasTrait<OpTrait::Elementwise>()) {
      if (!source(def, work))
        return false;
      continue;
    }
    for (Value operand : def->getOperands())
      if (isa<VectorType>(operand.getType()))
        work.push_back(operand);
  }
  return true;
}

bool nautilus::tile::isUniformTile(Value value) {
  return allSourcesPass(
      value, [](Operation *, SmallVectorImpl<Value> &) { return false; });
}

/// An element-wise op of one result and no regions: uniform where its
/// vector operands are.
static bool isElementwiseOfOperands(Operation *def) {
  return def && def->getNumResults() == 1 && !def->getNumRegions() &&
         def->hasTrait<OpTrait::Elementwise>();
}

bool tile::UniformTiles::isUniform(Value value) {
  // Post-order without recursion (a chain of definitions is as deep as it
  // is long): a value is decided once its vector operands are.
  SmallVector<std::pair<Value, bool>> stack = {{value, false}};
  while (!stack.empty()) {
    auto [v, operandsPushed] = stack.pop_back_val();
    if (known.count(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (tile::isSplatTile(v) || !isElementwiseOfOperands(def)) {
      known[v] = tile::isSplatTile(v);
      continue;
    }
    if (!operandsPushed) {
      stack.push_back({v, true});
      for (Value operand : def->getOperands())
        if (isa<VectorType>(operand.getType()) && !known.count(operand))
          stack.push_back({operand, false});
      continue;
    }
    known[v] = llvm::all_of(def->getOperands(), [&](Value operand) {
      return !isa<VectorType>(operand.getType()) || known.lookup(operand);
    });
  }
  return known.lookup(value);
}

bool nautilus::tile::isUniformAlongDim(Value value, unsigned dim) {
  return allSourcesPass(
      value, [&](Operation *def, SmallVectorImpl<Value> &work) {
        if (auto load = dyn_cast<LoadOp>(def)) {
          work.append(load.getIndirect().begin(), load.getIndirect().end());
          return !load.getMap().isFunctionOfDim(dim);
        }
        if (auto index = dyn_cast<IndexOp>(def))
          return static_cast<uint64_t>(index.getDim()) != dim;
        return false;
      });
}
