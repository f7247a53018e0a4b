//===- Factoring.cpp - Factors of products in alg regions -----------------===//
#include "compiler/Transforms/Alg/Factoring.h"
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Inlining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;

bool nautilus::isScaleFree(Value value) {
  std::optional<double> c = evaluatePointFree(value);
  return c && (*c == 0 || std::isinf(*c));
}

namespace {

/// The side of a choice the walk goes into (the other is scale-free), or
/// null.
Value chosenSide(arith::SelectOp select) {
  if (isScaleFree(select.getFalseValue()))
    return select.getTrueValue();
  if (isScaleFree(select.getTrueValue()))
    return select.getFalseValue();
  return nullptr;
}

void walk(Value value, bool divides, bool insideChoice, FactorChooser choose,
          FactorSplit &split) {
  switch (choose(value, insideChoice)) {
  case FactorChoice::Move:
    (divides ? split.divisors : split.multipliers).push_back(value);
    return;
  case FactorChoice::Keep:
    split.kept.push_back(value);
    return;
  case FactorChoice::Descend:
    break;
  }
  Operation *op = value.getDefiningOp();
  if (auto mul = dyn_cast_or_null<arith::MulFOp>(op)) {
    walk(mul.getLhs(), divides, insideChoice, choose, split);
    walk(mul.getRhs(), divides, insideChoice, choose, split);
  } else if (auto div = dyn_cast_or_null<arith::DivFOp>(op)) {
    walk(div.getLhs(), divides, insideChoice, choose, split);
    walk(div.getRhs(), !divides, insideChoice, choose, split);
  } else if (auto neg = dyn_cast_or_null<arith::NegFOp>(op)) {
    walk(neg.getOperand(), divides, insideChoice, choose, split);
  } else if (auto select = dyn_cast_or_null<arith::SelectOp>(op)) {
    if (Value side = chosenSide(select))
      walk(side, divides, /*insideChoice=*/true, choose, split);
  }
}

Value rebuild(OpBuilder &builder, Value value, bool insideChoice,
              FactorChooser choose) {
  switch (choose(value, insideChoice)) {
  case FactorChoice::Move:
    return nullptr;
  case FactorChoice::Keep:
    return value;
  case FactorChoice::Descend:
    break;
  }
  Operation *op = value.getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::DivFOp, arith::NegFOp,
                       arith::SelectOp>(op))
    return value;
  Location loc = op->getLoc();
  auto one = [&] { return floatConstant(builder, loc, value.getType(), 1.0); };
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Value side = chosenSide(select);
    if (!side)
      return value;
    Value rest = rebuild(builder, side, true, choose);
    if (rest == side)
      return value;
    builder.setInsertionPoint(op);
    rest = rest ? rest : one();
    bool inTrue = side == select.getTrueValue();
    return arith::SelectOp::create(builder, loc, select.getCondition(),
                                   inTrue ? rest : select.getTrueValue(),
                                   inTrue ? select.getFalseValue() : rest);
  }
  if (auto neg = dyn_cast<arith::NegFOp>(op)) {
    Value rest = rebuild(builder, neg.getOperand(), insideChoice, choose);
    if (rest == neg.getOperand())
      return value;
    builder.setInsertionPoint(op);
    return arith::NegFOp::create(builder, loc, rest ? rest : one());
  }
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value a = rebuild(builder, lhs, insideChoice, choose);
  Value b = rebuild(builder, rhs, insideChoice, choose);
  if (a == lhs && b == rhs)
    return value;
  builder.setInsertionPoint(op);
  if (isa<arith::MulFOp>(op)) {
    if (!a || !b)
      return a ? a : b;
    return arith::MulFOp::create(builder, loc, a, b);
  }
  if (!b)
    return a;
  return arith::DivFOp::create(builder, loc, a ? a : one(), b);
}

} // namespace

FactorSplit nautilus::splitFactors(Value value, FactorChooser choose) {
  FactorSplit split;
  walk(value, /*divides=*/false, /*insideChoice=*/false, choose, split);
  return split;
}

Value nautilus::rebuildWithout(OpBuilder &builder, Value value,
                               FactorChooser choose) {
  OpBuilder::InsertionGuard guard(builder);
  return rebuild(builder, value, /*insideChoice=*/false, choose);
}

Value nautilus::applyFactors(OpBuilder &builder, Location loc, Value value,
                             ArrayRef<Value> multipliers,
                             ArrayRef<Value> divisors) {
  for (Value m : multipliers)
    value = arith::MulFOp::create(builder, loc, value, m);
  for (Value d : divisors)
    value = arith::DivFOp::create(builder, loc, value, d);
  return value;
}

/// The epilogue of `def`, made (yielding the folded value) if it has none.
static Block &epilogueOf(alg::DefineOp def) {
  Region &region = def.getEpilogue();
  if (!region.empty())
    return region.front();
  OpBuilder builder(def.getContext());
  Location loc = def.getLoc();
  Block *block = builder.createBlock(&region);
  for (unsigned i = 0; i < def.getRank(); ++i)
    block->addArgument(builder.getIndexType(), loc);
  Value folded = block->addArgument(def.getBodyType(), loc);
  alg::YieldOp::create(builder, loc, folded);
  return *block;
}

/// Copies the factors of `split` (computed in `def`'s body, constant along
/// its reduced indices) into its epilogue, and scales the folded value by
/// them there.
static void moveIntoEpilogue(alg::DefineOp def, const FactorSplit &split) {
  unsigned rank = def.getRank();
  Block &body = def.getBody().front();
  Block &epilogue = epilogueOf(def);
  BlockArgument folded = epilogue.getArgument(rank);
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : folded.getUses())
    uses.push_back(&use);
  // The body's domain over the epilogue's: the left-hand indices, then
  // the reduced ones (which the factors do not read) at 0.
  MLIRContext *ctx = def.getContext();
  SmallVector<AffineExpr> at;
  for (unsigned i = 0; i < rank; ++i)
    at.push_back(getAffineDimExpr(i, ctx));
  for (unsigned i = 0; i < def.getNumReduced(); ++i)
    at.push_back(getAffineConstantExpr(0, ctx));
  auto kernel = def->getParentOfType<alg::KernelOp>();
  AffineMap map = AffineMap::get(rank, kernel.getSizes().size(), at, ctx);
  IRMapping mapping;
  for (unsigned i = 0; i < rank; ++i)
    mapping.map(body.getArgument(i), epilogue.getArgument(i));
  OpBuilder builder(&epilogue, epilogue.begin());
  SmallVector<Value> multipliers, divisors;
  for (Value m : split.multipliers)
    multipliers.push_back(inlineValue(builder, body, m, map, mapping));
  for (Value d : split.divisors)
    divisors.push_back(inlineValue(builder, body, d, map, mapping));
  Value scaled =
      applyFactors(builder, def.getLoc(), folded, multipliers, divisors);
  for (OpOperand *use : uses)
    use->set(scaled);
}

Factored nautilus::factorInvariants(alg::DefineOp def, bool apply) {
  Factored out;
  if (!def.isReduction() || *def.getKind() == alg::ReductionKind::prod ||
      !isa<FloatType>(def.getBodyType()))
    return out;
  bool positiveOnly = *def.getKind() != alg::ReductionKind::sum;
  Block &body = def.getBody().front();
  unsigned rank = def.getRank(), reduced = def.getNumReduced();
  auto yield = cast<alg::YieldOp>(body.getTerminator());
  Value term = yield.getValue();
  auto varies = [&](Value v) { return variesAlong(v, body, rank, reduced); };
  if (!varies(term))
    return out;
  auto choose = [&](Value v, bool insideChoice) {
    if (varies(v))
      return FactorChoice::Descend;
    if ((!positiveOnly && !insideChoice) || (isPointFree(v) && isPositive(v)))
      return FactorChoice::Move;
    return FactorChoice::Keep;
  };
  FactorSplit split = splitFactors(term, choose);
  for (Value v : split.kept)
    out.kept.push_back(describeValue(v));
  if (split.empty())
    return out;
  for (Value v : split.multipliers)
    out.moved.push_back("* " + describeValue(v));
  for (Value v : split.divisors)
    out.moved.push_back("/ " + describeValue(v));
  if (!apply)
    return out;
  OpBuilder builder(yield);
  Value rest = rebuildWithout(builder, term, choose);
  moveIntoEpilogue(def, split);
  yield->setOperand(0, rest);
  eraseDeadOps(body);
  return out;
}
