//===- BoundsInvariants.cpp - Unchecked copies stay inside their tensors --===//
//
//   bounds.interior-copies  an mma.sync operand's stage tile that the
//                           lowering's interior test lets through is
//                           copied without bound checks: for every size,
//                           tile of the grid, row of the stage tile and K
//                           index of the step, each index of the buffer
//                           the copy reads lies below the buffer's extent
//                           there.
//
//   bounds.kernel-reads     (asked first, at a point of the index space)
//                           the copy's element is the kernel's own read,
//                           outside its buffer; and a flash kernel's batch
//                           and head indices (the same for its whole tile
//                           and stream, which its copies do not check) lie
//                           inside their buffers for every tile.
//
// Every other global access is checked where it is made: the guarded
// copies at the edges (a chunk's count of elements inside), TMA (which
// fills what lies outside with zeros), the flash kernel's copies (rows
// past the tensors zero-filled), and the stores (their masks:
// coverage.elements).
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::verify;

namespace {

/// Indices are 64 bits wide, and unbound sizes range up to 2^40: an index
/// map's sums, and its products by constants below 2^20, do not wrap.
constexpr unsigned kIndexWidth = 64;
constexpr int64_t kMaxSize = int64_t(1) << 40;

/// The terms of one proof: a size by name (bound sizes and literals are
/// constants, the others symbolic, in [1, kMaxSize]), and what the sizes
/// admit (admitted(): their ranges and the kernel's requirements).
class Sizes {
public:
  Sizes(z3::context &ctx, const ProgramModel &model)
      : ctx(ctx), model(model), allowed(ctx.bool_val(true)) {}

  /// The named sizes' ranges, and the kernel's requirements that name no
  /// other size (a requirement over a size the proof does not read, such
  /// as GQA's H % G == 0 where only H is read, would only slow it: left
  /// out, the proof covers more sizes than the kernel admits, never
  /// fewer). Asked once every size of the proof is named.
  z3::expr admitted() {
    z3::expr held = ctx.bool_val(true);
    for (const rt::SizeExpr &requirement : model.requirements)
      if (namesOnlyKnownSizes(requirement))
        held = held && encode(requirement) != num(0);
    return allowed && held;
  }

  z3::expr operator()(const std::string &name) {
    if (!name.empty() && llvm::all_of(name, llvm::isDigit))
      return num(std::stoll(name));
    if (auto bound = model.boundSizes.find(name);
        bound != model.boundSizes.end())
      return num(bound->second);
    for (auto &[known, term] : named)
      if (known == name)
        return term;
    // ("size " + name: no internal variable ("row", "offset") can be it.)
    z3::expr term = variable(ctx, "size " + name, kIndexWidth);
    allowed = allowed && z3::uge(term, num(1)) && z3::ule(term, num(kMaxSize));
    named.emplace_back(name, term);
    return term;
  }
  z3::expr num(int64_t value) { return constant(ctx, value, kIndexWidth); }
  /// The terms of `map`'s symbols (sizes by `names`), the ones it does
  /// not use 0 (unnamed, so that requirements over them stay out).
  std::vector<z3::expr> symbolsOf(AffineMap map,
                                  const std::vector<std::string> &names) {
    std::vector<z3::expr> terms;
    for (unsigned i = 0; i < names.size(); ++i)
      terms.push_back(map.isFunctionOfSymbol(i) ? (*this)(names[i]) : num(0));
    return terms;
  }
  /// Every symbolic size below 2^10: a counterexample there reads more
  /// easily.
  z3::expr readable() const {
    z3::expr below = ctx.bool_val(true);
    for (auto &[name, term] : named)
      below = below && fitsBelow(term, (1 << 10) - 1);
    return below;
  }

  z3::context &ctx;
  const ProgramModel &model;
  z3::expr allowed;
  std::vector<std::pair<std::string, z3::expr>> named;

private:
  bool namesOnlyKnownSizes(const rt::SizeExpr &e) const {
    if (e.kind == rt::SizeExpr::Kind::Size)
      return model.boundSizes.count(e.name) ||
             llvm::any_of(named,
                          [&](const auto &n) { return n.first == e.name; });
    return llvm::all_of(e.operands, [&](const rt::SizeExpr &operand) {
      return namesOnlyKnownSizes(operand);
    });
  }
  /// `e` (runtime/SizeExpr.h) as a 64-bit term. Where the runtime fails
  /// to evaluate it (a division by zero, a product past 64 bits), the
  /// launch is refused: those sizes are left out of `allowed`.
  z3::expr encode(const rt::SizeExpr &e);
};

z3::expr Sizes::encode(const rt::SizeExpr &e) {
  if (e.kind == rt::SizeExpr::Kind::Constant)
    return num(e.constant);
  if (e.kind == rt::SizeExpr::Kind::Size)
    return (*this)(e.name);
  std::vector<z3::expr> x;
  for (const rt::SizeExpr &operand : e.operands)
    x.push_back(encode(operand));
  auto flag = [&](const z3::expr &condition) {
    return z3::ite(condition, num(1), num(0));
  };
  const std::string &op = e.name;
  if (op == "neg" || op == "not")
    return op == "neg" ? -x[0] : flag(x[0] == num(0));
  if (op == "select")
    return z3::ite(x[0] != num(0), x[1], x[2]);
  z3::expr l = x[0], r = x[1];
  if (op == "div" || op == "rem" || op == "floordiv")
    allowed = allowed && r != num(0);
  if (op == "add") {
    allowed = allowed && z3::bvadd_no_overflow(l, r, /*is_signed=*/true) &&
              z3::bvadd_no_underflow(l, r);
    return l + r;
  }
  if (op == "sub") {
    allowed = allowed && z3::bvsub_no_overflow(l, r) &&
              z3::bvsub_no_underflow(l, r, /*is_signed=*/true);
    return l - r;
  }
  if (op == "mul") {
    allowed = allowed && z3::bvmul_no_overflow(l, r, /*is_signed=*/true) &&
              z3::bvmul_no_underflow(l, r);
    return l * r;
  }
  if (op == "div")
    return l / r; // signed, truncating
  if (op == "rem")
    return z3::srem(l, r);
  if (op == "floordiv")
    return (l - z3::smod(l, r)) / r;
  if (op == "min" || op == "max")
    return op == "min" ? z3::ite(l < r, l, r) : z3::ite(l < r, r, l);
  static const std::map<std::string,
                        z3::expr (*)(const z3::expr &, const z3::expr &)>
      comparisons{
          {"eq", [](const z3::expr &a, const z3::expr &b) { return a == b; }},
          {"ne", [](const z3::expr &a, const z3::expr &b) { return a != b; }},
          {"lt", [](const z3::expr &a, const z3::expr &b) { return a < b; }},
          {"le", [](const z3::expr &a, const z3::expr &b) { return a <= b; }},
          {"gt", [](const z3::expr &a, const z3::expr &b) { return a > b; }},
          {"ge", [](const z3::expr &a, const z3::expr &b) { return a >= b; }},
          {"ult",
           [](const z3::expr &a, const z3::expr &b) { return z3::ult(a, b); }},
          {"ule",
           [](const z3::expr &a, const z3::expr &b) { return z3::ule(a, b); }},
          {"ugt",
           [](const z3::expr &a, const z3::expr &b) { return z3::ugt(a, b); }},
          {"uge",
           [](const z3::expr &a, const z3::expr &b) { return z3::uge(a, b); }},
          {"and", [](const z3::expr &a, const z3::expr &b) { return a & b; }},
          {"or", [](const z3::expr &a, const z3::expr &b) { return a | b; }},
          {"xor", [](const z3::expr &a, const z3::expr &b) { return a ^ b; }}};
  auto found = comparisons.find(op);
  assert(found != comparisons.end() && "an operation of runtime/SizeExpr.h");
  z3::expr value = found->second(l, r);
  return value.is_bool() ? flag(value) : value;
}

/// `e` over `dims` and `symbols` (a pure affine expression: divisions and
/// remainders by constants), in signed arithmetic with the language's
/// floor division and modulo: an index such as `(z - 1) % 100` is 99 at
/// z = 0 (in unsigned arithmetic, 2^64 - 1 mod 100 = 15).
z3::expr evaluate(AffineExpr e, ArrayRef<z3::expr> dims,
                  ArrayRef<z3::expr> symbols, Sizes &sizes) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return symbols[s.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return sizes.num(c.getValue());
  auto binary = cast<AffineBinaryOpExpr>(e);
  z3::expr l = evaluate(binary.getLHS(), dims, symbols, sizes);
  z3::expr r = evaluate(binary.getRHS(), dims, symbols, sizes);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::Mod:
    return z3::smod(l, r); // the divisor's sign: floor modulo
  case AffineExprKind::FloorDiv:
    return (l - z3::smod(l, r)) / r; // exact: signed division
  case AffineExprKind::CeilDiv:
    return -((-l - z3::smod(-l, r)) / r);
  default:
    llvm_unreachable("an affine expression");
  }
}

void proveInteriorCopy(Prover &prover, const ProgramModel &model,
                       const InteriorCopy &copy,
                       std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  Sizes sizes(ctx, model);
  const GridModel &grid = *model.grid;
  unsigned rank = grid.tile.size();
  // The tile: coordinates inside the grid; the stage tile's row, the K
  // step and the K index within it.
  std::vector<z3::expr> origin, extent, coords;
  z3::expr ranges = ctx.bool_val(true);
  for (unsigned d = 0; d < rank; ++d) {
    z3::expr c = variable(ctx, "tile " + std::to_string(d), kIndexWidth);
    extent.push_back(sizes(grid.extentNames[d]));
    origin.push_back(c * sizes.num(grid.tile[d]));
    ranges = ranges && z3::ult(origin.back(), extent.back()) &&
             z3::ult(c, sizes.num(kMaxSize));
    coords.push_back(c);
  }
  z3::expr row = variable(ctx, "stage row", kIndexWidth);
  z3::expr step = variable(ctx, "K step", kIndexWidth);
  z3::expr within = variable(ctx, "K index in step", kIndexWidth);
  z3::expr k = sizes(copy.kName);
  z3::expr kStart = step * sizes.num(copy.tileK);
  ranges = ranges && z3::ult(row, sizes.num(copy.rowTile)) &&
           z3::ult(step, sizes.num(kMaxSize)) &&
           z3::ult(within, sizes.num(copy.tileK));
  // The lowering's interior test (MmaSyncLowering::copyTile).
  z3::expr interior =
      z3::ule(origin[copy.rowDim] + sizes.num(copy.rowTile),
              extent[copy.rowDim] + sizes.num(copy.interiorSlack)) &&
      z3::ule(kStart + sizes.num(copy.tileK), k);
  std::vector<z3::expr> symbols = sizes.symbolsOf(copy.map, copy.symbolNames);
  // The index of the chunk's element: the tile's origin, the row along
  // rowDim, K at kStart + within.
  std::vector<z3::expr> dims = origin;
  dims[copy.rowDim] = dims[copy.rowDim] + row;
  dims.push_back(kStart + within);
  // An offset table's entry, tested at the tile's origin and K = 0.
  std::vector<z3::expr> atOrigin = origin;
  atOrigin.push_back(sizes.num(0));
  z3::expr offset = variable(ctx, "offset entry", kIndexWidth);
  std::vector<z3::expr> index, bufferExtent;
  z3::expr outside = ctx.bool_val(false);
  for (unsigned j = 0; j < copy.map.getNumResults(); ++j) {
    z3::expr at = evaluate(copy.map.getResult(j), dims, symbols, sizes);
    z3::expr dim = sizes(copy.bufferDims[j]);
    if (copy.offsetPosition == j) {
      interior =
          interior &&
          z3::ult(evaluate(copy.map.getResult(j), atOrigin, symbols, sizes) +
                      offset,
                  dim) &&
          z3::ult(offset, sizes.num(kMaxSize));
      at = at + offset;
    }
    index.push_back(at);
    bufferExtent.push_back(dim);
    outside = outside || at < sizes.num(0) || z3::uge(at, dim);
  }
  z3::expr readable = sizes.readable();
  z3::expr admitted = sizes.admitted();
  std::string subject = "@" + model.name + ": the " + copy.operand +
                        " copies of " + copy.buffer + " without bound checks";
  auto describe = [&](const z3::model &m) {
    std::string named = describeValues(m, sizes.named);
    return (named.empty() ? "" : named + ": ") + "tile " +
           describeTuple(m, coords) + ", row " +
           std::to_string(valueOf(m, row)) + ", K index " +
           std::to_string(valueOf(m, kStart + within)) + " reads " +
           copy.buffer + describeTuple(m, index) + ", outside its extents " +
           describeTuple(m, bufferExtent);
  };
  // Asked first at a point of the index space (the row inside the output's
  // extent): a read outside there is the kernel's own, out of range and
  // unguarded (undefined in the language), not the lowering's.
  z3::expr inside = z3::ult(dims[copy.rowDim], extent[copy.rowDim]);
  Finding own = prover.prove(
      "bounds.kernel-reads", subject,
      admitted && ranges && interior && inside && outside, describe, readable);
  if (own.verdict != Verdict::Proved) {
    findings.push_back(std::move(own));
    return;
  }
  // Then past it: the lowering's interior test letting a copy of rows
  // beyond the extent skip its checks.
  findings.push_back(
      prover.prove("bounds.interior-copies", subject,
                   admitted && ranges && interior && !inside && outside,
                   describe, readable));
}

/// The reads of a flash kernel's batch and head indices (its copies check
/// rows, not these): for every size and every tile of the grid, each such
/// index lies inside its buffer. Refuted, the kernel's own read is out of
/// range at a point of its index space (the tile's coordinates are inside
/// the output's extents), as `bounds.kernel-reads` reports for copies.
void proveTileConstantRead(Prover &prover, const ProgramModel &model,
                           const TileConstantRead &read,
                           std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  Sizes sizes(ctx, model);
  const GridModel &grid = *model.grid;
  // The program's coordinates where its tile is 1 (inside the extent);
  // the map's other indices do not reach the results proved.
  std::vector<z3::expr> dims, coords;
  z3::expr ranges = ctx.bool_val(true);
  for (unsigned d = 0; d < read.map.getNumDims(); ++d) {
    if (d >= grid.tile.size() || grid.tile[d] != 1) {
      dims.push_back(sizes.num(0));
      continue;
    }
    z3::expr c = variable(ctx, "tile " + std::to_string(d), kIndexWidth);
    ranges = ranges && z3::ult(c, sizes(grid.extentNames[d]));
    dims.push_back(c);
    coords.push_back(c);
  }
  std::vector<z3::expr> symbols = sizes.symbolsOf(read.map, read.symbolNames);
  std::vector<z3::expr> index, bufferExtent;
  z3::expr outside = ctx.bool_val(false);
  for (unsigned j : read.positions) {
    z3::expr at = evaluate(read.map.getResult(j), dims, symbols, sizes);
    z3::expr dim = sizes(read.bufferDims[j]);
    index.push_back(at);
    bufferExtent.push_back(dim);
    outside = outside || at < sizes.num(0) || z3::uge(at, dim);
  }
  z3::expr readable = sizes.readable();
  z3::expr admitted = sizes.admitted();
  std::string subject = "@" + model.name + ": the flash kernel's copies of " +
                        read.buffer + " at its tile's batch and head";
  // ("the tile at (0, 3) reads K with B index 0 (extent 2), H index 4
  // (extent 4)".)
  auto describe = [&](const z3::model &m) {
    std::string named = describeValues(m, sizes.named);
    std::string text = (named.empty() ? "" : named + ": ") + "the tile at " +
                       describeTuple(m, coords) + " reads " + read.buffer +
                       " with ";
    for (size_t i = 0; i < index.size(); ++i)
      text += (i ? ", " : "") + read.bufferDims[read.positions[i]] + " index " +
              std::to_string(int64_t(valueOf(m, index[i]))) + " (extent " +
              std::to_string(valueOf(m, bufferExtent[i])) + ")";
    return text;
  };
  findings.push_back(prover.prove("bounds.kernel-reads", subject,
                                  admitted && ranges && outside, describe,
                                  readable));
}

} // namespace

void verify::proveBounds(Prover &prover, const ProgramModel &model,
                         std::vector<Finding> &findings) {
  if (!model.grid)
    return;
  for (const InteriorCopy &copy : model.interiorCopies)
    proveInteriorCopy(prover, model, copy, findings);
  for (const TileConstantRead &read : model.tileConstantReads)
    proveTileConstantRead(prover, model, read, findings);
}
