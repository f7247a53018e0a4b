//===- Repair.cpp - How a term follows a running reduction ----------------===//
#include "compiler/Transforms/Alg/Repair.h"
#include "compiler/Transforms/Alg/Algebra.h"
#include "dialects/Alg/AlgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace nautilus;

namespace {

bool reads(Value value, Value running) { return computedFrom(value, running); }

std::string opName(Value v) {
  if (Operation *def = v.getDefiningOp())
    return "'" + def->getName().getStringRef().str() + "'";
  return "a block argument";
}

class Deriver {
public:
  Deriver(Value running, std::string &why) : running(running), why(why) {}

  FailureOr<Coefficient> linear(Value e);
  FailureOr<Repair> multiplicative(Value term);

private:
  FailureOr<Coefficient> scaled(Value e, Value by, bool divide);
  FailureOr<Coefficient> product(Value a, Value b);
  FailureOr<Coefficient> added(FailureOr<Coefficient> ca,
                               FailureOr<Coefficient> cb, double sign);
  FailureOr<Repair> chosen(arith::SelectOp select);
  FailureOr<Repair> alike(Value a, Value b, const char *differently);

  Value running;
  std::string &why;
};

/// `e`'s coefficient of the running value when e is affine in it.
FailureOr<Coefficient> Deriver::linear(Value e) {
  if (e == running)
    return Coefficient{1, {}, {}};
  if (!reads(e, running))
    return Coefficient{};
  Operation *def = e.getDefiningOp();
  if (auto add = dyn_cast_or_null<arith::AddFOp>(def))
    return added(linear(add.getLhs()), linear(add.getRhs()), 1);
  if (auto sub = dyn_cast_or_null<arith::SubFOp>(def))
    return added(linear(sub.getLhs()), linear(sub.getRhs()), -1);
  // a * b + c, as alg-exp-to-exp2 builds exponents.
  if (auto fma = dyn_cast_or_null<math::FmaOp>(def))
    return added(product(fma.getA(), fma.getB()), linear(fma.getC()), 1);
  if (auto neg = dyn_cast_or_null<arith::NegFOp>(def)) {
    FailureOr<Coefficient> c = linear(neg.getOperand());
    if (succeeded(c))
      c->scale = -c->scale;
    return c;
  }
  if (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(def))
    return linear(def->getOperand(0));
  if (auto mul = dyn_cast_or_null<arith::MulFOp>(def))
    return product(mul.getLhs(), mul.getRhs());
  if (auto div = dyn_cast_or_null<arith::DivFOp>(def)) {
    if (reads(div.getRhs(), running)) {
      why = "an exponent divides by the running value";
      return failure();
    }
    return scaled(div.getLhs(), div.getRhs(), true);
  }
  why = "an exponent reads the running value through " + opName(e) +
        ", which is not affine";
  return failure();
}

/// a * b's coefficient: one of them must not read the running value.
FailureOr<Coefficient> Deriver::product(Value a, Value b) {
  bool aReads = reads(a, running);
  if (aReads && reads(b, running)) {
    why = "the running value is multiplied by itself";
    return failure();
  }
  return aReads ? scaled(a, b, false) : scaled(b, a, false);
}

FailureOr<Coefficient> Deriver::added(FailureOr<Coefficient> ca,
                                      FailureOr<Coefficient> cb, double sign) {
  if (failed(ca) || failed(cb))
    return failure();
  if (cb->isZero())
    return ca;
  if (ca->isZero()) {
    cb->scale *= sign;
    return cb;
  }
  bool bothConstant = ca->multipliers.empty() && ca->divisors.empty() &&
                      cb->multipliers.empty() && cb->divisors.empty();
  if (!bothConstant) {
    why = "the running value appears in two terms of an exponent";
    return failure();
  }
  return Coefficient{ca->scale + sign * cb->scale, {}, {}};
}

FailureOr<Coefficient> Deriver::scaled(Value e, Value by, bool divide) {
  FailureOr<Coefficient> c = linear(e);
  if (failed(c) || c->isZero())
    return c;
  if (std::optional<double> k = constantValue(by)) {
    if (divide && *k == 0) {
      why = "an exponent divides by zero";
      return failure();
    }
    c->scale = divide ? c->scale / *k : c->scale * *k;
    return c;
  }
  if (!isPointFree(by)) {
    why = "the running value's coefficient in an exponent varies from "
          "point to point";
    return failure();
  }
  (divide ? c->divisors : c->multipliers).push_back(by);
  return c;
}

/// Two repairs are the same when their factors are.
bool sameRepair(const Repair &a, const Repair &b) {
  if (a.factors.size() != b.factors.size())
    return false;
  for (auto [fa, fb] : llvm::zip(a.factors, b.factors))
    if (fa.base2 != fb.base2 || fa.coefficient.scale != fb.coefficient.scale ||
        fa.coefficient.multipliers != fb.coefficient.multipliers ||
        fa.coefficient.divisors != fb.coefficient.divisors)
      return false;
  return true;
}

bool isZeroConstant(Value v) {
  std::optional<double> k = constantValue(v);
  return k && *k == 0;
}

FailureOr<Repair> Deriver::chosen(arith::SelectOp select) {
  if (reads(select.getCondition(), running)) {
    why = "a condition reads the running value";
    return failure();
  }
  return alike(select.getTrueValue(), select.getFalseValue(),
               "the two sides of a choice repair differently");
}

/// Two terms that are combined (a sum, a choice) repair as they do when
/// they repair alike, or as one of them when the other is zero:
/// exp(x - r) + exp(y - r); otherwise `differently` is the reason.
FailureOr<Repair> Deriver::alike(Value a, Value b, const char *differently) {
  if (isZeroConstant(a))
    return multiplicative(b);
  if (isZeroConstant(b))
    return multiplicative(a);
  FailureOr<Repair> ra = multiplicative(a);
  FailureOr<Repair> rb = multiplicative(b);
  if (failed(ra) || failed(rb))
    return failure();
  if (!sameRepair(*ra, *rb)) {
    why = differently;
    return failure();
  }
  return ra;
}

/// The repair of `term`: how it scales when the running value moves.
FailureOr<Repair> Deriver::multiplicative(Value term) {
  if (!reads(term, running))
    return Repair{};
  Operation *def = term.getDefiningOp();
  if (term == running || !def) {
    why = "the term is the running value itself, not a multiple of a "
          "function of it";
    return failure();
  }
  if (auto mul = dyn_cast<arith::MulFOp>(def)) {
    FailureOr<Repair> a = multiplicative(mul.getLhs());
    FailureOr<Repair> b = multiplicative(mul.getRhs());
    if (failed(a) || failed(b))
      return failure();
    llvm::append_range(a->factors, b->factors);
    return a;
  }
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    FailureOr<Repair> a = multiplicative(div.getLhs());
    FailureOr<Repair> b = multiplicative(div.getRhs());
    if (failed(a) || failed(b))
      return failure();
    for (Repair::Factor f : b->factors) {
      f.coefficient.scale = -f.coefficient.scale;
      a->factors.push_back(f);
    }
    return a;
  }
  if (isa<arith::NegFOp, arith::ExtFOp, arith::TruncFOp>(def))
    return multiplicative(def->getOperand(0));
  if (isa<arith::AddFOp, arith::SubFOp>(def))
    return alike(def->getOperand(0), def->getOperand(1),
                 "the two terms of a sum repair differently");
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return chosen(select);
  if (isa<math::ExpOp, math::Exp2Op>(def)) {
    FailureOr<Coefficient> c = linear(def->getOperand(0));
    if (failed(c))
      return failure();
    Repair r;
    if (!c->isZero())
      r.factors.push_back({isa<math::Exp2Op>(def), *c});
    return r;
  }
  why = "the term reads the running value through " + opName(term) +
        ", which has no multiplicative repair";
  return failure();
}

} // namespace

bool nautilus::computedFrom(Value value, Value source) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == source)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

Value nautilus::buildCoefficient(OpBuilder &builder, Location loc,
                                 const Coefficient &c, Type type,
                                 IRMapping &mapping) {
  Value k = arith::ConstantOp::create(builder, loc,
                                      builder.getFloatAttr(type, c.scale));
  auto convert = [&](Value v) {
    v = clonePointFree(builder, v, mapping);
    if (v.getType() == type)
      return v;
    if (cast<FloatType>(v.getType()).getWidth() <
        cast<FloatType>(type).getWidth())
      return Value(arith::ExtFOp::create(builder, loc, type, v));
    return Value(arith::TruncFOp::create(builder, loc, type, v));
  };
  for (Value m : c.multipliers)
    k = arith::MulFOp::create(builder, loc, k, convert(m));
  for (Value d : c.divisors)
    k = arith::DivFOp::create(builder, loc, k, convert(d));
  return k;
}

FailureOr<Repair> nautilus::deriveRepair(Value term, Value running,
                                         std::string &why) {
  return Deriver(running, why).multiplicative(term);
}

Value nautilus::buildRepairFactor(OpBuilder &builder, Location loc,
                                  const Repair &repair, Value oldValue,
                                  Value newValue, IRMapping &mapping) {
  Type type = oldValue.getType();
  Value factor;
  Value delta = arith::SubFOp::create(builder, loc, newValue, oldValue);
  for (const Repair::Factor &f : repair.factors) {
    Value k = buildCoefficient(builder, loc, f.coefficient, type, mapping);
    Value exponent = arith::MulFOp::create(builder, loc, k, delta);
    Value term = f.base2 ? Value(math::Exp2Op::create(builder, loc, exponent))
                         : Value(math::ExpOp::create(builder, loc, exponent));
    factor = factor ? arith::MulFOp::create(builder, loc, factor, term) : term;
  }
  if (!factor)
    factor = arith::ConstantOp::create(builder, loc,
                                       builder.getFloatAttr(type, 1.0));
  return factor;
}

std::string nautilus::describeRepair(const Repair &repair) {
  if (repair.isIdentity())
    return "1";
  std::string s;
  llvm::raw_string_ostream os(s);
  for (auto [i, f] : llvm::enumerate(repair.factors)) {
    if (i)
      os << " * ";
    const Coefficient &c = f.coefficient;
    os << (f.base2 ? "exp2(" : "exp(");
    bool symbolic = !c.multipliers.empty() || !c.divisors.empty();
    if (c.scale == 1 && !symbolic) {
      os << "new - old)";
      continue;
    }
    if (c.scale == -1 && !symbolic) {
      os << "old - new)";
      continue;
    }
    os << llvm::format("%g", c.scale);
    for (size_t m = 0; m < c.multipliers.size(); ++m)
      os << " * k" << m;
    for (size_t d = 0; d < c.divisors.size(); ++d)
      os << " / k" << d;
    os << " * (new - old))";
  }
  return s;
}
