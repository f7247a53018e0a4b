//===- Encoding.cpp - Kernel pieces as Z3 bit-vector terms ----------------===//
#include "compiler/Verify/Encoding.h"

#include "compiler/Verify/Prover.h"

using namespace nautilus;
using namespace nautilus::verify;

std::vector<z3::expr>
verify::applyLayout(z3::context &ctx, const layout::LinearLayout &l,
                    const std::map<std::string, z3::expr> &in) {
  std::vector<z3::expr> out(l.getOutDims().size(), constant(ctx, 0));
  for (const auto &dim : l.getInDims()) {
    auto it = in.find(dim.name);
    if (it == in.end())
      continue;
    for (auto [bit, basis] : llvm::enumerate(dim.bases)) {
      z3::expr set = it->second.extract(bit, bit) == ctx.bv_val(1, 1);
      for (size_t d = 0; d < out.size(); ++d)
        if (basis[d])
          out[d] = out[d] ^
                   z3::ite(set, constant(ctx, basis[d]), constant(ctx, 0));
    }
  }
  return out;
}

LayoutInputs verify::layoutInputs(z3::context &ctx,
                                  const layout::LinearLayout &l,
                                  const std::string &prefix) {
  LayoutInputs inputs{{}, ctx.bool_val(true)};
  for (const auto &dim : l.getInDims()) {
    z3::expr v = variable(ctx, prefix + dim.name);
    inputs.values.emplace(dim.name, v);
    inputs.inRange =
        inputs.inRange &&
        z3::ult(v, constant(ctx, int64_t(1) << dim.bases.size()));
  }
  return inputs;
}

z3::expr verify::storedOffset(z3::context &ctx,
                              const layout::SharedSwizzle &swizzle,
                              int64_t rowBytes, const z3::expr &row,
                              const z3::expr &byte) {
  z3::expr chunk = z3::udiv(byte, constant(ctx, 16));
  z3::expr phase = z3::urem(z3::udiv(row, constant(ctx, swizzle.perPhase)),
                            constant(ctx, swizzle.maxPhase));
  return row * constant(ctx, rowBytes) + (chunk ^ phase) * constant(ctx, 16) +
         z3::urem(byte, constant(ctx, 16));
}

std::pair<z3::expr, z3::expr>
verify::logicalByte(z3::context &ctx, const layout::SharedSwizzle &swizzle,
                    int64_t rowBytes, const z3::expr &offset) {
  z3::expr row = z3::udiv(offset, constant(ctx, rowBytes));
  z3::expr inRow = z3::urem(offset, constant(ctx, rowBytes));
  z3::expr phase = z3::urem(z3::udiv(row, constant(ctx, swizzle.perPhase)),
                            constant(ctx, swizzle.maxPhase));
  z3::expr chunk = z3::udiv(inRow, constant(ctx, 16)) ^ phase;
  return {row, chunk * constant(ctx, 16) + z3::urem(inRow, constant(ctx, 16))};
}

std::string verify::describeValues(
    const z3::model &model,
    const std::vector<std::pair<std::string, z3::expr>> &values) {
  std::string out;
  for (const auto &[name, e] : values) {
    if (!out.empty())
      out += ", ";
    out += name + "=" + std::to_string(valueOf(model, e));
  }
  return out;
}

std::string verify::describeTuple(const z3::model &model,
                                  const std::vector<z3::expr> &terms) {
  std::string out = "(";
  for (size_t i = 0; i < terms.size(); ++i)
    out += (i ? ", " : "") + std::to_string(valueOf(model, terms[i]));
  return out + ")";
}
