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

/// The most tiles along one dimension of a grid, and the most K steps of
/// a main loop, that the proofs over symbolic sizes cover: a launch has at
/// most 2^31 - 1 programs on every device (rt::DeviceLimits::maxBlocks:
/// gridDim.x on CUDA and HIP, and the emulator and the CPU refuse more),
/// so no launchable grid has more tiles along one dimension. 2^31 - 1 K
/// steps of at least 16 elements cover K up to 2^35: beyond that (32 G
/// elements along one contraction) the sync proofs do not reach.
constexpr int64_t kMaxCount = (int64_t(1) << 31) - 1;
/// A refuted invariant's counterexample is sought first among sizes of at
/// most this many tiles or steps, which read more easily.
constexpr int64_t kReadableCount = 64;

/// `e` (a bit-vector) below the smallest power of two above `limit`,
/// stated as its high bits zero, which Z3's bit-blasting takes far faster than
/// a comparison (a preferred counterexample's bound).
inline z3::expr fitsBelow(const z3::expr &e, int64_t limit) {
  unsigned bits = 64 - __builtin_clzll(static_cast<uint64_t>(limit));
  unsigned width = e.get_sort().bv_size();
  if (bits >= width)
    return e.ctx().bool_val(true);
  return e.extract(width - 1, bits) == e.ctx().bv_val(0, width - bits);
}

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
