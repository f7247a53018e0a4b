//===- StreamMasks.cpp - The keys a stream's mask leaves ------------------===//
//
// A causal or windowed stream masks its leader's term with
// `select(cond, x, -inf)` where `cond` compares the streamed index with the
// output indices (`m <= n + (M - N)`). A key for which `cond` is false at
// every element of the program's tile adds nothing: the leader's term is
// its identity, and (checked below) every follower's term is then 0. So
// the loop over the keys runs only over the keys some element sees: for a
// conjunct `key + c <= e`, the keys up to the tile's largest e - c; for
// `key + c > e`, from the smallest e - c + 1.
//
// "Then 0" is derived by propagating, through the body, what the false
// branch makes of each value: -inf from the masked select, -inf minus or
// plus a finite value is -inf, -inf times a positive value is -inf (also
// in an fma, as alg-exp-to-exp2 writes exponents: exp2(fma(S, k, -k Mx))),
// exp/exp2 of -inf is 0, 0 times a value is 0. (Finite: inputs with
// infinities are outside what this claims; a key skipped there gives O
// finite where the full loop would give NaN.)
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/StreamMasks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// A splat float constant's value.
std::optional<double> splatFloat(Value v) {
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
  if (!splat || !isa<FloatType>(splat.getElementType()))
    return std::nullopt;
  return splat.getSplatValue<APFloat>().convertToDouble();
}

/// What a value is on a masked key.
enum class Masked { NegInf, Zero };

/// A size of the program (at least 1 at launch), as an integer or a float.
bool isSize(Value v) {
  while (isa_and_nonnull<arith::IndexCastOp, arith::SIToFPOp,
                          vector::BroadcastOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getType().isIndex() &&
         isa<tile::ProgramOp>(arg.getOwner()->getParentOp());
}

/// Whether `v` is positive at every point: a positive constant, a size,
/// sqrt or rsqrt of one, a product or quotient of such (alg-sink-scales'
/// rsqrt(D) log2(e) with D unbound). Underflow to 0 is outside what this
/// claims, as infinities are.
bool isPositive(Value v) {
  if (std::optional<double> c = splatFloat(v))
    return *c > 0;
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::MulFOp, arith::DivFOp>(def))
    return isPositive(def->getOperand(0)) && isPositive(def->getOperand(1));
  if (isa_and_nonnull<math::SqrtOp, math::RsqrtOp>(def))
    return isPositive(def->getOperand(0));
  return isSize(v);
}

/// The key side of a comparison: `key + offset`, where key is the streamed
/// index broadcast (and cast); std::nullopt if `v` is not that.
std::optional<int64_t> keyOffset(Value v, Value key) {
  int64_t offset = 0;
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    auto constant = add.getRhs().getDefiningOp<arith::ConstantOp>();
    auto splat =
        constant ? dyn_cast<SplatElementsAttr>(constant.getValue()) : nullptr;
    if (!splat)
      return std::nullopt;
    offset = splat.getSplatValue<APInt>().getSExtValue();
    v = add.getLhs();
  }
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  auto broadcast = v.getDefiningOp<vector::BroadcastOp>();
  if (!broadcast || broadcast.getSource() != key)
    return std::nullopt;
  return offset;
}

/// `predicate` for the comparison with its sides swapped (a < b: b > a).
arith::CmpIPredicate withSidesSwapped(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::slt:
    return arith::CmpIPredicate::sgt;
  case arith::CmpIPredicate::sle:
    return arith::CmpIPredicate::sge;
  case arith::CmpIPredicate::sgt:
    return arith::CmpIPredicate::slt;
  case arith::CmpIPredicate::sge:
    return arith::CmpIPredicate::sle;
  default:
    return predicate;
  }
}

/// Whether `v` (in `body`) is computed without the key or the leaders.
bool independentOfKey(Value v, Block &body) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(next))
      if (arg.getOwner() == &body)
        return false;
    Operation *def = next.getDefiningOp();
    if (!def || def->getBlock() != &body)
      continue; // from outside the stream
    if (def->getNumRegions())
      return false;
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

} // namespace

SmallVector<KeyBound> nautilus::maskedKeyBounds(tile::OnlineReduceOp op) {
  Block &body = op.getBody().front();
  auto yield = cast<tile::YieldOp>(body.getTerminator());
  Value key = body.getArgument(0);
  // The mask: the select giving the (first) leader's term -inf.
  Value mask;
  for (unsigned i = 0; i < yield.getValues().size() && !mask; ++i) {
    if (!op.isLeader(i))
      continue;
    auto select = yield.getValues()[i].getDefiningOp<arith::SelectOp>();
    std::optional<double> otherwise =
        select ? splatFloat(select.getFalseValue()) : std::nullopt;
    if (otherwise && std::isinf(*otherwise) && *otherwise < 0)
      mask = select.getCondition();
  }
  if (!mask)
    return {};
  // What each value is on a masked key.
  DenseMap<Value, Masked> facts;
  auto fact = [&](Value v) -> std::optional<Masked> {
    if (auto it = facts.find(v); it != facts.end())
      return it->second;
    if (std::optional<double> c = splatFloat(v)) {
      if (*c == 0)
        return Masked::Zero;
      if (std::isinf(*c) && *c < 0)
        return Masked::NegInf;
    }
    return std::nullopt;
  };
  for (Operation &inner : body.without_terminator()) {
    if (inner.getNumResults() != 1)
      continue;
    auto is = [&](unsigned operand, Masked m) {
      return fact(inner.getOperand(operand)) == m;
    };
    std::optional<Masked> result;
    if (auto select = dyn_cast<arith::SelectOp>(inner)) {
      if (select.getCondition() == mask)
        result = fact(select.getFalseValue());
      else if (fact(select.getTrueValue()) &&
               fact(select.getTrueValue()) == fact(select.getFalseValue()))
        result = fact(select.getTrueValue());
    } else if (isa<arith::SubFOp>(inner)) {
      if (is(0, Masked::NegInf) && !fact(inner.getOperand(1)))
        result = Masked::NegInf;
      else if (is(0, Masked::Zero) && is(1, Masked::Zero))
        result = Masked::Zero;
    } else if (isa<arith::AddFOp>(inner)) {
      if (is(0, Masked::NegInf) || is(1, Masked::NegInf))
        result = Masked::NegInf;
      else if (is(0, Masked::Zero) && is(1, Masked::Zero))
        result = Masked::Zero;
    } else if (isa<arith::MulFOp, arith::DivFOp>(inner)) {
      if (is(0, Masked::Zero) ||
          (isa<arith::MulFOp>(inner) && is(1, Masked::Zero)))
        result = Masked::Zero;
      else if (is(0, Masked::NegInf) && isPositive(inner.getOperand(1)))
        result = Masked::NegInf;
    } else if (isa<math::FmaOp>(inner)) {
      // a * b + c: the product's rules, then the sum's.
      bool product = (is(0, Masked::NegInf) && isPositive(inner.getOperand(1))) ||
                     (is(1, Masked::NegInf) && isPositive(inner.getOperand(0)));
      if (product || is(2, Masked::NegInf))
        result = Masked::NegInf;
      else if ((is(0, Masked::Zero) || is(1, Masked::Zero)) &&
               is(2, Masked::Zero))
        result = Masked::Zero;
    } else if (isa<math::ExpOp, math::Exp2Op>(inner)) {
      if (is(0, Masked::NegInf))
        result = Masked::Zero;
    } else if (isa<arith::ExtFOp, arith::TruncFOp>(inner)) {
      result = fact(inner.getOperand(0));
    }
    if (result)
      facts[inner.getResult(0)] = *result;
  }
  for (auto [i, term] : llvm::enumerate(yield.getValues())) {
    bool maxLeader = op.getAccumulatorKind(i) == alg::ReductionKind::max;
    if (op.isLeader(i) && !maxLeader)
      return {};
    if (fact(term) != (maxLeader ? Masked::NegInf : Masked::Zero))
      return {};
  }
  // The conjuncts of the mask that compare the key with what does not
  // depend on it.
  SmallVector<KeyBound> bounds;
  SmallVector<Value> conjuncts{mask};
  while (!conjuncts.empty()) {
    Value c = conjuncts.pop_back_val();
    if (auto both = c.getDefiningOp<arith::AndIOp>()) {
      conjuncts.append({both.getLhs(), both.getRhs()});
      continue;
    }
    auto compare = c.getDefiningOp<arith::CmpIOp>();
    if (!compare)
      continue;
    arith::CmpIPredicate predicate = compare.getPredicate();
    Value keySide = compare.getLhs(), other = compare.getRhs();
    std::optional<int64_t> offset = keyOffset(keySide, key);
    if (!offset) { // the key on the right: swap the sides
      std::swap(keySide, other);
      offset = keyOffset(keySide, key);
      predicate = withSidesSwapped(predicate);
    }
    if (!offset || !independentOfKey(other, body))
      continue;
    if (predicate != arith::CmpIPredicate::slt &&
        predicate != arith::CmpIPredicate::sle &&
        predicate != arith::CmpIPredicate::sgt &&
        predicate != arith::CmpIPredicate::sge)
      continue;
    bounds.push_back({other, *offset, predicate, compare});
  }
  return bounds;
}
