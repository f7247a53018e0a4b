//===- ScalarSemantics.h - One scalar operation of the reference ---------===//
//
// The reference interpreter's scalars: how a value of each element type is
// kept (rounded or wrapped after each operation), and what each arith and
// math operation, comparison, cast and affine index computes on them. The
// interpreter (AlgInterpreter.cpp) walks the alg IR; this file is the
// arithmetic it defers to, one operation at a time.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_COMPILER_INTERPRETER_SCALARSEMANTICS_H
#define NAUTILUS_COMPILER_INTERPRETER_SCALARSEMANTICS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>

namespace nautilus::interp {

/// One scalar: floats in `f`, integers, booleans and indices in `i`.
/// `poison` marks a value that depends on a read out of range: it is an
/// error only if it reaches a stored or folded value (a `where` may discard
/// it, as LANGUAGE.md allows).
struct Scalar {
  double f = 0;
  int64_t i = 0;
  bool poison = false;
  /// A float's error scale beyond |f| from sums that cancelled on the way
  /// to it (CancellationExcess.h).
  double excess = 0;
};

/// How a value's bits are kept after each operation.
enum class Kind { Index, Bool, I8, I32, I64, F16, BF16, F32, F64 };

Kind kindOf(mlir::Type t);
inline bool isFloatKind(Kind k) { return k >= Kind::F16; }

/// Rounds a float to its type, or wraps an integer to its width.
Scalar normalise(Scalar s, Kind k);

/// Floor division and modulo (the language's `/` and `%` on indices).
int64_t floorDiv(int64_t a, int64_t b);
int64_t floorMod(int64_t a, int64_t b);

/// An affine index expression at the point `dims` with the sizes `syms`; a
/// division or modulo by 0 gives 0.
int64_t evalAffine(mlir::AffineExpr e, llvm::ArrayRef<int64_t> dims,
                   llvm::ArrayRef<int64_t> syms);

bool compareF(mlir::arith::CmpFPredicate p, double a, double b);
bool compareI(mlir::arith::CmpIPredicate p, int64_t a, int64_t b);
/// max and min that propagate a NaN (as arith.maximumf does).
double nanMax(double a, double b);
double nanMin(double a, double b);

/// The operands of one operation, as `in(k)` reads them from the slots of
/// the straight-line code the interpreter runs.
struct Operands {
  llvm::ArrayRef<int> indices;
  llvm::ArrayRef<Scalar> slots;
  Kind firstKind; // of the first operand (casts, comparisons)
  const Scalar &operator()(unsigned k) const { return slots[indices[k]]; }
};

/// Evaluates an arith operation on numbers and booleans (arithmetic,
/// bitwise logic, comparisons, select) into `r`; false if `op` is none.
bool evalArith(mlir::Operation *op, const Operands &in, Scalar &r,
               std::string &error);
/// Evaluates a cast into `r`; false if `op` is none.
bool evalCast(mlir::Operation *op, const Operands &in, Scalar &r);
/// Evaluates a math function into `r`; false if `op` is none.
bool evalMath(mlir::Operation *op, const Operands &in, Scalar &r);

} // namespace nautilus::interp

#endif // NAUTILUS_COMPILER_INTERPRETER_SCALARSEMANTICS_H
