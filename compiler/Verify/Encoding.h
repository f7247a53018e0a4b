//===- Encoding.h - Kernel pieces as Z3 bit-vector terms --------*- C++ -*-===//
//
// Indices, addresses and sizes are 32-bit bit-vectors (unsigned); layouts
// are XORs of their bases selected by the input bits; a swizzled stage maps
// (row, byte in row) to its byte offset.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_VERIFY_ENCODING_H
#define NAUTILUS_VERIFY_ENCODING_H

#include "compiler/Verify/KernelModel.h"

#include <z3++.h>

#include <map>
#include <string>
#include <vector>

namespace nautilus::verify {

constexpr unsigned kWidth = 32;

inline z3::expr constant(z3::context &ctx, int64_t value,
                         unsigned width = kWidth) {
  return ctx.bv_val(static_cast<uint64_t>(value), width);
}

/// A fresh unsigned variable.
inline z3::expr variable(z3::context &ctx, const std::string &name,
                         unsigned width = kWidth) {
  return ctx.bv_const(name.c_str(), width);
}

/// The output coordinates of `l` for symbolic inputs (by input name; a
/// missing one is 0).
std::vector<z3::expr> applyLayout(z3::context &ctx,
                                  const layout::LinearLayout &l,
                                  const std::map<std::string, z3::expr> &in);

/// One variable per input dimension of `l`, named `prefix` + its name, and
/// the constraint that each lies below its size.
struct LayoutInputs {
  std::map<std::string, z3::expr> values;
  z3::expr inRange;
};
LayoutInputs layoutInputs(z3::context &ctx, const layout::LinearLayout &l,
                          const std::string &prefix);

/// The byte offset (within one stage) at which `swizzle` stores byte
/// `byte` of row `row` (rows of `rowBytes`).
z3::expr storedOffset(z3::context &ctx, const layout::SharedSwizzle &swizzle,
                      int64_t rowBytes, const z3::expr &row,
                      const z3::expr &byte);

/// The inverse: the row and byte in row that `swizzle` stores at `offset`.
std::pair<z3::expr, z3::expr> logicalByte(z3::context &ctx,
                                          const layout::SharedSwizzle &swizzle,
                                          int64_t rowBytes,
                                          const z3::expr &offset);

/// "name=value, ..." of the variables in `model`.
std::string describeValues(
    const z3::model &model,
    const std::vector<std::pair<std::string, z3::expr>> &values);

/// "(a, b, ...)" of the terms in `model`.
std::string describeTuple(const z3::model &model,
                          const std::vector<z3::expr> &terms);

} // namespace nautilus::verify

#endif
