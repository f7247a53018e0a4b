//===- MeanRepair.cpp - How a term follows a running mean -----------------===//
#include "compiler/Transforms/Alg/MeanRepair.h"
#include "compiler/Transforms/Alg/Algebra.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace nautilus;

namespace {

Coefficient times(const Coefficient &x, const Coefficient &y) {
  Coefficient out{x.scale * y.scale, x.multipliers, x.divisors};
  llvm::append_range(out.multipliers, y.multipliers);
  llvm::append_range(out.divisors, y.divisors);
  return out;
}

PointFreeSum times(const PointFreeSum &x, const PointFreeSum &y) {
  PointFreeSum out;
  for (const Coefficient &a : x)
    for (const Coefficient &b : y)
      out.push_back(times(a, b));
  return out;
}

PointFreeSum plus(PointFreeSum x, const PointFreeSum &y, double sign = 1) {
  for (Coefficient c : y) {
    c.scale *= sign;
    x.push_back(c);
  }
  return x;
}

/// `sum` with like monomials (the same multipliers and divisors) added up
/// and the zero ones dropped: -2 x_L r + 2 x_L r is no slope at all.
PointFreeSum simplified(const PointFreeSum &sum) {
  auto key = [](const Coefficient &c) {
    auto sorted = [](ArrayRef<Value> values) {
      SmallVector<void *> pointers;
      for (Value v : values)
        pointers.push_back(v.getAsOpaquePointer());
      llvm::sort(pointers);
      return pointers;
    };
    return std::make_pair(sorted(c.multipliers), sorted(c.divisors));
  };
  PointFreeSum out;
  for (const Coefficient &c : sum) {
    auto like = llvm::find_if(
        out, [&](const Coefficient &o) { return key(o) == key(c); });
    if (like == out.end())
      out.push_back(c);
    else
      like->scale += c.scale;
  }
  llvm::erase_if(out, [](const Coefficient &c) { return c.scale == 0; });
  return out;
}

/// A value of the point as constant + perLeader * x_L, where x_L is the
/// mean's own term, or as any value of the point (opaque).
struct Affine {
  PointFreeSum constant, perLeader;
  bool opaque = false;

  bool isZero() const {
    return !opaque && constant.empty() && perLeader.empty();
  }
};

Affine plus(const Affine &x, const Affine &y, double sign) {
  return {plus(x.constant, y.constant, sign),
          plus(x.perLeader, y.perLeader, sign), x.opaque || y.opaque};
}

Affine times(const Affine &x, const Affine &y) {
  if (x.isZero() || y.isZero())
    return {};
  // x_L^2, or any value of the point, is no longer affine in x_L.
  if (x.opaque || y.opaque || (!x.perLeader.empty() && !y.perLeader.empty()))
    return {{}, {}, true};
  return {times(x.constant, y.constant),
          plus(times(x.constant, y.perLeader), times(x.perLeader, y.constant)),
          false};
}

/// A value as a + b r + c r^2 in the running mean r.
struct Polynomial {
  Affine a, b, c;
};

Polynomial plus(const Polynomial &x, const Polynomial &y, double sign) {
  return {plus(x.a, y.a, sign), plus(x.b, y.b, sign), plus(x.c, y.c, sign)};
}

class MeanDeriver {
public:
  MeanDeriver(Value running, function_ref<bool(Value)> isLeaderTerm,
              std::string &why)
      : running(running), isLeaderTerm(isLeaderTerm), why(why) {}

  FailureOr<Polynomial> of(Value v);

private:
  Polynomial leaf(Value v);
  FailureOr<Polynomial> product(FailureOr<Polynomial> x,
                                FailureOr<Polynomial> y);
  FailureOr<Polynomial> quotient(arith::DivFOp div);

  Value running;
  function_ref<bool(Value)> isLeaderTerm;
  std::string &why;
};

/// A value that does not read the running mean.
Polynomial MeanDeriver::leaf(Value v) {
  Polynomial p;
  if (isLeaderTerm(v))
    p.a.perLeader.push_back(Coefficient{1, {}, {}});
  else if (std::optional<double> k = constantValue(v))
    p.a.constant.push_back(Coefficient{*k, {}, {}});
  else if (isPointFree(v))
    p.a.constant.push_back(Coefficient{1, {v}, {}});
  else
    p.a.opaque = true;
  return p;
}

FailureOr<Polynomial> MeanDeriver::product(FailureOr<Polynomial> x,
                                           FailureOr<Polynomial> y) {
  if (failed(x) || failed(y))
    return failure();
  auto nonzero = [](const Affine &a) { return !a.isZero(); };
  if ((nonzero(x->b) && nonzero(y->c)) || (nonzero(x->c) && nonzero(y->b)) ||
      (nonzero(x->c) && nonzero(y->c))) {
    why = "the term is of degree more than two in the running mean";
    return failure();
  }
  Polynomial p;
  p.a = times(x->a, y->a);
  p.b = plus(times(x->a, y->b), times(x->b, y->a), 1);
  p.c =
      plus(plus(times(x->a, y->c), times(x->b, y->b), 1), times(x->c, y->a), 1);
  return p;
}

FailureOr<Polynomial> MeanDeriver::quotient(arith::DivFOp div) {
  Value by = div.getRhs();
  if (computedFrom(by, running)) {
    why = "the term divides by the running mean";
    return failure();
  }
  if (std::optional<double> k = constantValue(by); k && *k == 0) {
    why = "the term divides by zero";
    return failure();
  }
  Polynomial inverse;
  if (std::optional<double> k = constantValue(by))
    inverse.a.constant.push_back(Coefficient{1 / *k, {}, {}});
  else if (isPointFree(by))
    inverse.a.constant.push_back(Coefficient{1, {}, {by}});
  else
    inverse.a.opaque = true; // 1 / (a value of the point)
  return product(of(div.getLhs()), inverse);
}

FailureOr<Polynomial> MeanDeriver::of(Value v) {
  if (v == running) {
    Polynomial p;
    p.b.constant.push_back(Coefficient{1, {}, {}});
    return p;
  }
  Operation *def = v.getDefiningOp();
  if (!def || !computedFrom(v, running))
    return leaf(v);
  if (auto add = dyn_cast<arith::AddFOp>(def)) {
    FailureOr<Polynomial> x = of(add.getLhs()), y = of(add.getRhs());
    if (failed(x) || failed(y))
      return failure();
    return plus(*x, *y, 1);
  }
  if (auto sub = dyn_cast<arith::SubFOp>(def)) {
    FailureOr<Polynomial> x = of(sub.getLhs()), y = of(sub.getRhs());
    if (failed(x) || failed(y))
      return failure();
    return plus(*x, *y, -1);
  }
  if (auto neg = dyn_cast<arith::NegFOp>(def)) {
    FailureOr<Polynomial> x = of(neg.getOperand());
    if (failed(x))
      return failure();
    return plus(Polynomial{}, *x, -1);
  }
  if (isa<arith::ExtFOp, arith::TruncFOp>(def))
    return of(def->getOperand(0));
  if (auto mul = dyn_cast<arith::MulFOp>(def))
    return product(of(mul.getLhs()), of(mul.getRhs()));
  if (auto div = dyn_cast<arith::DivFOp>(def))
    return quotient(div);
  if (auto fma = dyn_cast<math::FmaOp>(def)) {
    FailureOr<Polynomial> ab = product(of(fma.getA()), of(fma.getB()));
    FailureOr<Polynomial> c = of(fma.getC());
    if (failed(ab) || failed(c))
      return failure();
    return plus(*ab, *c, 1);
  }
  why = "the term reads the running mean through '" +
        def->getName().getStringRef().str() +
        "', which is not a polynomial in it (sums, differences, products, "
        "and divisions by values free of it)";
  return failure();
}

} // namespace

FailureOr<MeanRepair>
nautilus::deriveMeanRepair(Value term, Value running,
                           function_ref<bool(Value)> isLeaderTerm,
                           std::string &why) {
  if (!computedFrom(term, running))
    return MeanRepair{};
  FailureOr<Polynomial> p = MeanDeriver(running, isLeaderTerm, why).of(term);
  if (failed(p))
    return failure();
  if (p->b.opaque) {
    why = "the running mean is multiplied by a value of the point that is "
          "not affine in the mean's own term";
    return failure();
  }
  if (p->c.opaque || !p->c.perLeader.empty()) {
    why = "the running mean's square is multiplied by a value that varies "
          "from point to point";
    return failure();
  }
  MeanRepair repair;
  repair.beta = simplified(p->b.constant);
  repair.curvature = simplified(p->c.constant);
  repair.slope = simplified(plus(p->b.perLeader, repair.curvature, 2));
  return repair;
}

Value nautilus::buildMeanAddend(OpBuilder &builder, Location loc,
                                const MeanRepair &repair, Value oldValue,
                                Value newValue, Value count,
                                IRMapping &mapping) {
  Type type = oldValue.getType();
  auto sumOf = [&](const PointFreeSum &sum) {
    Value total;
    for (const Coefficient &c : sum) {
      Value v = buildCoefficient(builder, loc, c, type, mapping);
      total = total ? Value(arith::AddFOp::create(builder, loc, total, v)) : v;
    }
    return total;
  };
  Value delta = arith::SubFOp::create(builder, loc, newValue, oldValue);
  Value inner = sumOf(repair.beta);
  auto add = [&](Value v) {
    inner = inner ? Value(arith::AddFOp::create(builder, loc, inner, v)) : v;
  };
  if (Value slope = sumOf(repair.slope))
    add(arith::MulFOp::create(builder, loc, slope, oldValue));
  if (Value curvature = sumOf(repair.curvature))
    add(arith::MulFOp::create(builder, loc, curvature, delta));
  if (!inner)
    return floatConstant(builder, loc, type, 0);
  Value moved = arith::MulFOp::create(builder, loc, count, delta);
  return arith::MulFOp::create(builder, loc, moved, inner);
}

std::string nautilus::describeMeanRepair(const MeanRepair &repair) {
  if (repair.isIdentity())
    return "+ 0";
  std::string s;
  llvm::raw_string_ostream os(s);
  bool first = true;
  auto print = [&](const PointFreeSum &sum, const char *times) {
    for (const Coefficient &c : sum) {
      if (!first)
        os << " + ";
      first = false;
      os << llvm::format("%g", c.scale);
      for (size_t m = 0; m < c.multipliers.size(); ++m)
        os << " * k" << m;
      for (size_t d = 0; d < c.divisors.size(); ++d)
        os << " / k" << d;
      os << times;
    }
  };
  os << "+ count * d * (";
  print(repair.beta, "");
  print(repair.slope, " * old");
  print(repair.curvature, " * d");
  os << "), d = new - old";
  return s;
}
