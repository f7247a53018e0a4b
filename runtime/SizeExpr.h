//===- SizeExpr.h - Integer expressions over a kernel's sizes --*- C++ -*-===//
//
// A kernel's `require` lines, as the runtime checks them before a launch
// without the compiler: each condition is a small expression tree over the
// kernel's sizes. In a bundle (Bundle.h) an expression is JSON:
//
//   7                      an integer constant
//   "H"                    the size H
//   ["rem", "H", "G"]      an operation and its operands
//
// Operations: add, sub, mul, div and rem (signed, truncating, as C),
// floordiv (rounding down), min, max, neg; eq, ne, lt, le, gt, ge (signed)
// and ult, ule, ugt, uge (unsigned), each 1 or 0; and, or, xor (bitwise),
// not (of a 0/1 value); select (condition, then, else). An evaluation that
// divides by zero or overflows 64 bits fails with an error, not a value.
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_SIZEEXPR_H
#define NAUTILUS_RUNTIME_SIZEEXPR_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nautilus::rt {

struct SizeExpr {
  enum class Kind { Constant, Size, Operation };
  Kind kind = Kind::Constant;
  int64_t constant = 0;
  std::string name; // a size's name, or an operation's
  std::vector<SizeExpr> operands;

  static SizeExpr of(int64_t value) { return {Kind::Constant, value, {}, {}}; }
  static SizeExpr size(std::string name) {
    return {Kind::Size, 0, std::move(name), {}};
  }
  static SizeExpr op(std::string name, std::vector<SizeExpr> operands) {
    return {Kind::Operation, 0, std::move(name), std::move(operands)};
  }
};

/// Whether `name` is an operation above taking `arity` operands.
bool isSizeOperation(const std::string &name, size_t arity);

/// Evaluates `e` with `sizes`. Returns "" and sets `value`, or the error
/// ("size 'G' is not known", "division by zero in ...", "overflow in ...").
std::string evaluate(const SizeExpr &e,
                     const std::map<std::string, int64_t> &sizes,
                     int64_t &value);

/// `require` as written in the kernel's source, and its condition.
struct Requirement {
  std::string text; // "H % G == 0"
  SizeExpr condition;
};

/// "requirement 'TEXT' does not hold (G=4, H=6)": the message of a
/// requirement that fails at `sizes`, with the sizes TEXT names (whole
/// identifiers: H is not named in `HD > 3`), or none.
std::string requirementFailure(const std::string &text,
                               const std::map<std::string, int64_t> &sizes);

/// "" when every requirement holds for `sizes`, else the first one that
/// does not: "requirement 'H % G == 0' does not hold (G=3, H=16)".
std::string checkRequirements(const std::vector<Requirement> &requirements,
                              const std::map<std::string, int64_t> &sizes);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_SIZEEXPR_H
