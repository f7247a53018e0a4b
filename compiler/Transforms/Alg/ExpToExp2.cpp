//===- ExpToExp2.cpp - exp as exp2, log2(e) folded into the argument ------===//
//
// exp(e) = exp2(log2(e) * e). The argument is split into an affine form,
// e = sum_i k_i x_i + b, through +, -, negation, and products and
// quotients by point-free values (constants and sizes: the coefficients
// k_i); log2(e) joins each coefficient and the constant, and the form is
// rebuilt as one FMA per term:
//
//   exp(c S - c Mx)  ->  exp2(fma(S, c log2e, Mx * (-c log2e)))
//
// The last term comes first, as a product, so that a term constant along
// the inner loops (a running maximum) is the one that can be hoisted. A
// coefficient that reads only bound sizes is one constant. Only f32 exps
// change: log2(e) rounded to a 16-bit type would cost the result most of
// its bits. The absolute error the fold adds to the argument, a unit of
// |k_i x_i| per term, is of the order of the rounding x_i itself carries.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/Repair.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

namespace nautilus {
#define GEN_PASS_DEF_ALGEXPTOEXP2
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

constexpr double kLog2E = 1.4426950408889634073599246810018921;

struct AffineTerm {
  Value leaf;
  Coefficient coefficient;
};

/// e = sum_i k_i x_i + constant.
struct AffineForm {
  SmallVector<AffineTerm> terms;
  double constant = 0;

  void add(Value e, Coefficient k);

private:
  void addLeaf(Value leaf, const Coefficient &k);
};

bool isSymbolic(const Coefficient &k) {
  return !k.multipliers.empty() || !k.divisors.empty();
}

/// `k` times (or over) the point-free `by`.
Coefficient scaledBy(Coefficient k, Value by, bool divide) {
  if (std::optional<double> c = evaluatePointFree(by)) {
    k.scale = divide ? k.scale / *c : k.scale * *c;
    return k;
  }
  (divide ? k.divisors : k.multipliers).push_back(by);
  return k;
}

void AffineForm::addLeaf(Value leaf, const Coefficient &k) {
  if (!isSymbolic(k))
    if (std::optional<double> c = evaluatePointFree(leaf)) {
      constant += k.scale * *c;
      return;
    }
  for (AffineTerm &t : terms)
    if (t.leaf == leaf && t.coefficient.multipliers == k.multipliers &&
        t.coefficient.divisors == k.divisors) {
      t.coefficient.scale += k.scale;
      return;
    }
  terms.push_back({leaf, k});
}

void AffineForm::add(Value e, Coefficient k) {
  Operation *op = e.getDefiningOp();
  auto negated = [](Coefficient c) {
    c.scale = -c.scale;
    return c;
  };
  if (auto add = dyn_cast_or_null<arith::AddFOp>(op)) {
    this->add(add.getLhs(), k);
    this->add(add.getRhs(), k);
  } else if (auto sub = dyn_cast_or_null<arith::SubFOp>(op)) {
    this->add(sub.getLhs(), k);
    this->add(sub.getRhs(), negated(k));
  } else if (auto neg = dyn_cast_or_null<arith::NegFOp>(op)) {
    this->add(neg.getOperand(), negated(k));
  } else if (auto mul = dyn_cast_or_null<arith::MulFOp>(op);
             mul && isPointFree(mul.getRhs())) {
    this->add(mul.getLhs(), scaledBy(k, mul.getRhs(), false));
  } else if (mul && isPointFree(mul.getLhs())) {
    this->add(mul.getRhs(), scaledBy(k, mul.getLhs(), false));
  } else if (auto div = dyn_cast_or_null<arith::DivFOp>(op);
             div && isPointFree(div.getRhs()) &&
             evaluatePointFree(div.getRhs()) != 0.0) {
    this->add(div.getLhs(), scaledBy(k, div.getRhs(), true));
  } else {
    addLeaf(e, k);
  }
}

/// The coefficient `k` times log2(e), as a value.
Value materialize(OpBuilder &builder, Location loc, Type type,
                  const Coefficient &k) {
  Value v = floatConstant(builder, loc, type, k.scale * kLog2E);
  for (Value m : k.multipliers)
    v = arith::MulFOp::create(builder, loc, v, m);
  for (Value d : k.divisors)
    v = arith::DivFOp::create(builder, loc, v, d);
  return v;
}

/// exp(e) as exp2 of e's affine form times log2(e).
void rewrite(math::ExpOp exp) {
  AffineForm form;
  form.add(exp.getOperand(), Coefficient{1, {}, {}});
  OpBuilder builder(exp);
  Location loc = exp.getLoc();
  Type type = exp.getType();
  Value acc;
  if (form.constant != 0)
    acc = floatConstant(builder, loc, type, form.constant * kLog2E);
  for (const AffineTerm &t : llvm::reverse(form.terms)) {
    if (t.coefficient.scale == 0)
      continue;
    Value k = materialize(builder, loc, type, t.coefficient);
    acc = acc ? Value(math::FmaOp::create(builder, loc, t.leaf, k, acc))
              : Value(arith::MulFOp::create(builder, loc, t.leaf, k));
  }
  if (!acc)
    acc = floatConstant(builder, loc, type, 0);
  exp.replaceAllUsesWith(math::Exp2Op::create(builder, loc, acc).getResult());
  exp.erase();
}

struct AlgExpToExp2Pass
    : public nautilus::impl::AlgExpToExp2Base<AlgExpToExp2Pass> {
  using AlgExpToExp2Base::AlgExpToExp2Base;

  void runOnOperation() override {
    for (alg::DefineOp def : getOperation().getBody().getOps<alg::DefineOp>()) {
      SmallVector<math::ExpOp> exps;
      def->walk([&](math::ExpOp exp) { exps.push_back(exp); });
      unsigned rewritten = 0;
      for (math::ExpOp exp : exps) {
        if (!exp.getType().isF32()) {
          if (explain)
            def.emitRemark() << "'" << def.getName() << "': an exp of "
                             << exp.getType()
                             << " stays exp: log2(e) in that type would "
                                "cost the result most of its precision";
          continue;
        }
        rewrite(exp);
        ++rewritten;
      }
      if (rewritten)
        for (Region &region : def->getRegions())
          for (Block &block : region)
            eraseDeadOps(block);
      if (explain && rewritten)
        def.emitRemark() << "'" << def.getName() << "': exp becomes exp2 "
                         << "with log2(e) folded into its argument ("
                         << rewritten << (rewritten == 1 ? " exp)" : " exps)");
    }
  }
};

} // namespace
