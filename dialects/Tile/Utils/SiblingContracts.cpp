//===- SiblingContracts.cpp - Contractions sharing an lhs tile ------------===//
#include "dialects/Tile/Utils/SiblingContracts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace nautilus;

static bool loadedOperands(tile::ContractOp c) {
  return !c.isComputed(0) && !c.isComputed(1) && !c.isSplit();
}

/// Whether `a`'s and `b`'s operand `side` add the same offset table's
/// entry, read at the same map, to the same index (or neither has one).
static bool sameOffsets(tile::ContractOp a, tile::ContractOp b, unsigned side) {
  return a.getOperandOffsets(side) == b.getOperandOffsets(side) &&
         (!a.getOperandOffsets(side) ||
          (a.getOperandOffsetsMap(side) == b.getOperandOffsetsMap(side) &&
           a.getOperandOffsetsPosition(side) ==
               b.getOperandOffsetsPosition(side)));
}

bool tile::sameExtent(Value a, Value b) {
  if (a == b)
    return true;
  auto x = a.getDefiningOp<arith::ConstantIndexOp>();
  auto y = b.getDefiningOp<arith::ConstantIndexOp>();
  return x && y && x.value() == y.value();
}

bool tile::shareLhsTile(ContractOp a, ContractOp b) {
  return loadedOperands(a) && loadedOperands(b) && sameOffsets(a, b, 0) &&
         sameOffsets(a, b, 1) && a.getLhs() == b.getLhs() &&
         a.getOperandMap(0) == b.getOperandMap(0) &&
         sameExtent(a.getExtent(), b.getExtent()) &&
         a.getType() == b.getType() &&
         a.getOperandElementType() == b.getOperandElementType();
}

SmallVector<tile::ContractOp> tile::siblingContracts(ContractOp contract) {
  SmallVector<ContractOp> out;
  for (auto other : contract->getBlock()->getOps<ContractOp>())
    if (other == contract || shareLhsTile(contract, other))
      out.push_back(other);
  return out;
}

tile::ContractOp tile::contractOutsideSiblings(ProgramOp program) {
  ContractOp first, outside;
  program.walk([&](ContractOp c) {
    if (!first)
      first = c;
    else if (!outside &&
             (c->getBlock() != first->getBlock() || !shareLhsTile(first, c)))
      outside = c;
  });
  return outside;
}
