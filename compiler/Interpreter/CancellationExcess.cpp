//===- CancellationExcess.cpp - What cancelling sums add to an error ------===//
#include "compiler/Interpreter/CancellationExcess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;

double nautilus::propagatedExcess(Operation *op, llvm::ArrayRef<double> v,
                                  llvm::ArrayRef<double> e, double result) {
  double r = std::fabs(result);
  // The operand that a minimum or maximum returned (both's larger excess
  // on a tie, which the compiled code may break either way).
  auto chosen = [&]() -> double {
    if (std::isnan(result) || v[0] == v[1])
      return std::max(e[0], e[1]);
    return v[0] == result ? e[0] : e[1];
  };
  double excess =
      llvm::TypeSwitch<Operation *, double>(op)
          .Case<arith::AddFOp, arith::SubFOp>([&](auto) { return e[0] + e[1]; })
          .Case<arith::MulFOp>([&](auto) {
            return e[0] * std::fabs(v[1]) + e[1] * std::fabs(v[0]);
          })
          .Case<arith::DivFOp>(
              [&](auto) { return (e[0] + r * e[1]) / std::fabs(v[1]); })
          .Case<arith::NegFOp, arith::ExtFOp, arith::TruncFOp, math::AbsFOp>(
              [&](auto) { return e[0]; })
          .Case<arith::MaximumFOp, arith::MinimumFOp>(
              [&](auto) { return chosen(); })
          .Case<math::ExpOp>([&](auto) { return r * e[0]; })
          .Case<math::Exp2Op>([&](auto) { return r * std::log(2.0) * e[0]; })
          .Case<math::LogOp>([&](auto) { return e[0] / std::fabs(v[0]); })
          .Case<math::Log2Op>(
              [&](auto) { return e[0] / (std::fabs(v[0]) * std::log(2.0)); })
          // (At 0 the derivative is infinite: a value e off has a root
          // sqrt(e) off.)
          .Case<math::SqrtOp>(
              [&](auto) { return std::min(e[0] / (2 * r), std::sqrt(e[0])); })
          .Case<math::RsqrtOp>(
              [&](auto) { return e[0] * r / (2 * std::fabs(v[0])); })
          .Case<math::TanhOp>([&](auto) { return (1 - r * r) * e[0]; })
          .Case<math::ErfOp, math::ErfcOp>([&](auto) {
            return 2 / std::sqrt(M_PI) * std::exp(-v[0] * v[0]) * e[0];
          })
          .Case<math::PowFOp>([&](auto) {
            // d/dx x^y = y x^(y - 1); d/dy x^y = x^y ln x (each only where
            // its operand carries an excess).
            double viaBase =
                e[0] ? std::fabs(v[1] * std::pow(v[0], v[1] - 1)) * e[0] : 0;
            double viaExponent =
                e[1] ? std::fabs(result * std::log(std::fabs(v[0]))) * e[1] : 0;
            return viaBase + viaExponent;
          })
          .Case<math::FmaOp>([&](auto) {
            return e[0] * std::fabs(v[1]) + e[1] * std::fabs(v[0]) + e[2];
          })
          .Default([&](Operation *) { return 0.0; });
  // (A derivative that is infinite or undefined where the value is, say,
  // log at 0, leaves the bound to the output's own non-finite handling.)
  return std::isfinite(excess) ? excess : 0;
}

void FoldExcess::add(alg::ReductionKind kind, double term, double termExcess,
                     double before, double after) {
  switch (kind) {
  case alg::ReductionKind::sum:
    excess += termExcess;
    partialSquares += after * after;
    largestPartial = std::max(largestPartial, std::fabs(after));
    ++terms;
    break;
  case alg::ReductionKind::prod:
    excess = excess * std::fabs(term) + termExcess * std::fabs(before);
    break;
  case alg::ReductionKind::max:
  case alg::ReductionKind::min:
    // The term kept, or on a tie the larger excess (the compiled code may
    // keep either).
    if (terms == 0 || after != before)
      excess = termExcess;
    else if (term == before)
      excess = std::max(excess, termExcess);
    ++terms;
    break;
  }
}

double FoldExcess::finish(alg::ReductionKind kind, double folded) const {
  double total = excess;
  // (Only where some partial sum exceeds the result: the root mean
  // square, rounded, could otherwise come out a hair above a result that
  // its partial sums only approach, as a sum of one sign's do.)
  if (kind == alg::ReductionKind::sum && largestPartial > std::fabs(folded)) {
    double partials = std::sqrt(partialSquares / double(terms));
    total += std::max(0.0, partials - std::fabs(folded));
  }
  return std::isfinite(total) ? total : 0;
}
