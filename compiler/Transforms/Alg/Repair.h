//===- Repair.h - How a term follows a running reduction --------*- C++ -*-===//
//
// A reduction C over index k whose term g(x, r) reads r, the value of
// another reduction R over the same k, can be computed in the same pass as
// R only if its partial sum can be repaired when R's running value moves
// from r to r': g(x, r') = h(g(x, r), r, r'). The repairs derived here are
// multiplicative, g(x, r') = g(x, r) * phi(r, r') with phi independent of
// the point x, and are found from g's algebraic form:
//
//   - a value that does not read r:                   phi = 1
//   - a * b, a / b:                 phi = phi_a * phi_b, phi_a / phi_b
//   - -a, and a conversion of a:                      phi = phi_a
//   - select(c, a, b) with c not reading r, and
//     phi_a = phi_b or one side zero:                 phi = phi_a
//   - exp(e) or exp2(e), where e = e0(x) + c * r for a
//     coefficient c that depends on neither x nor r:  phi = exp(c (r' - r))
//                                                     (exp2 likewise)
//
// and e's coefficient of r is found by the same recursion over +, -, *,
// / by a value free of r. Anything else reading r (log(x - r), (x - r)^2,
// x * r ...) has no such repair, and the reason names it.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_REPAIR_H
#define NAUTILUS_TRANSFORMS_ALG_REPAIR_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace nautilus {

/// `scale * product(multipliers) / product(divisors)`: the coefficient of
/// the running value in an exponent. The multipliers and divisors are
/// values that depend only on constants and sizes (so a repair region can
/// recompute them).
struct Coefficient {
  double scale = 0;
  llvm::SmallVector<mlir::Value, 2> multipliers, divisors;

  bool isZero() const { return scale == 0; }
};

/// phi(r, r') = product over factors of base(coefficient * (r' - r)).
struct Repair {
  struct Factor {
    bool base2; // exp2, not exp
    Coefficient coefficient;
  };
  llvm::SmallVector<Factor, 2> factors;

  /// Whether the term does not read the running value at all.
  bool isIdentity() const { return factors.empty(); }
};

/// Whether `value` is computed from `source` (or is it).
bool computedFrom(mlir::Value value, mlir::Value source);

/// The value of `coefficient` as a `type` (a float type), built with
/// `builder`; its multipliers and divisors are cloned through `mapping`.
mlir::Value buildCoefficient(mlir::OpBuilder &builder, mlir::Location loc,
                             const Coefficient &coefficient, mlir::Type type,
                             mlir::IRMapping &mapping);

/// The repair of `term` in the running value `running` (a value of the
/// same block), or failure with the reason in `why` ("math.log of ...").
mlir::FailureOr<Repair> deriveRepair(mlir::Value term, mlir::Value running,
                                     std::string &why);

/// Builds phi(old, new) of `repair` with `builder` (in a repair region):
/// the coefficients' values are cloned there, through `mapping`.
mlir::Value buildRepairFactor(mlir::OpBuilder &builder, mlir::Location loc,
                              const Repair &repair, mlir::Value oldValue,
                              mlir::Value newValue, mlir::IRMapping &mapping);

/// A short form of `repair` for remarks: "exp(-1 * (new - old))".
std::string describeRepair(const Repair &repair);

} // namespace nautilus

#endif
