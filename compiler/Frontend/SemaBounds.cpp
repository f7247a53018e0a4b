//===- SemaBounds.cpp - Reads out of range at every point -----------------===//
//
// LANGUAGE.md: reading out of range is an error that tools report where they
// can prove it. After a statement is checked, each read that no `where`
// guards is checked here: where an affine index lies outside its dimension
// at every point of the index space, for every value of the sizes (each at
// least 1), the read can never be meant (`A[7]` of an `f32[4]`, `A[N]` of an
// `f32[N]`, `A[i - N]`). A read out of range at only some points (`A[i + 1]`)
// stays undefined, and `nautc run --check` reports it where it happens.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/KernelChecker.h"

#include "llvm/Support/MathExtras.h"

using namespace nautilus::frontend;
using namespace nautilus::frontend::detail;

namespace {

/// An integer affine in the sizes: constant + sum of coefficient x size.
struct SizeForm {
  int64_t constant = 0;
  std::map<std::string, int64_t> coefficients;

  static SizeForm of(const DimSpec &d) {
    SizeForm f;
    if (d.isLiteral())
      f.constant = d.literal;
    else
      f.coefficients[d.sizeName] = 1;
    return f;
  }
  /// a * x + b * y; nullopt on overflow.
  static std::optional<SizeForm> combine(int64_t a, const SizeForm &x,
                                         int64_t b, const SizeForm &y) {
    SizeForm r;
    auto term = [](int64_t c, int64_t v, int64_t sum,
                   int64_t &out) -> bool {
      int64_t p;
      return !llvm::MulOverflow(c, v, p) && !llvm::AddOverflow(sum, p, out);
    };
    if (!term(a, x.constant, 0, r.constant) ||
        !term(b, y.constant, r.constant, r.constant))
      return std::nullopt;
    for (const auto &[form, c] : {std::pair{&x, a}, std::pair{&y, b}})
      for (const auto &[name, v] : form->coefficients)
        if (!term(c, v, r.coefficients[name], r.coefficients[name]))
          return std::nullopt;
    return r;
  }
  /// Whether the value is at least 0 whatever the sizes (each at least 1).
  bool provablyNonNegative() const {
    int64_t least = constant;
    for (const auto &[name, c] : coefficients)
      if (c < 0 || llvm::AddOverflow(least, c, least))
        return false;
    return least >= 0;
  }
  bool isConstant() const {
    return llvm::all_of(coefficients, [](auto &c) { return c.second == 0; });
  }
  std::string text() const {
    std::string s;
    for (const auto &[name, c] : coefficients) {
      if (c == 0)
        continue;
      if (!s.empty())
        s += c < 0 ? " - " : " + ";
      else if (c < 0)
        s += "-";
      int64_t m = c < 0 ? -c : c;
      s += (m == 1 ? "" : std::to_string(m) + " * ") + name;
    }
    if (s.empty())
      return std::to_string(constant);
    if (constant != 0)
      s += (constant < 0 ? " - " : " + ") +
           std::to_string(constant < 0 ? -constant : constant);
    return s;
  }
};

/// The least and greatest value of an affine index.
struct Range {
  SizeForm least, greatest;

  /// Its one value, where it is a constant.
  std::optional<int64_t> constant() const {
    if (least.isConstant() && greatest.isConstant() &&
        least.constant == greatest.constant)
      return least.constant;
    return std::nullopt;
  }
};

} // namespace

/// The range of the affine index `e` over the index space (`extents` of the
/// index variables in scope); nullopt where it is not affine in a way this
/// follows (a division, a product of sizes, an indirect read).
static std::optional<Range>
rangeOf(const Expr &e, const std::map<std::string, DimSpec> &extents) {
  switch (e.kind) {
  case Expr::Kind::IntLit: {
    SizeForm c;
    c.constant = e.intValue;
    return Range{c, c};
  }
  case Expr::Kind::Name: {
    if (e.nameKind == NameKind::Size) {
      SizeForm s;
      s.coefficients[e.name] = 1;
      return Range{s, s};
    }
    auto it = extents.find(e.name);
    if (e.nameKind != NameKind::IndexVar || it == extents.end())
      return std::nullopt;
    // From 0 to its extent - 1.
    std::optional<SizeForm> last =
        SizeForm::combine(1, SizeForm::of(it->second), 1, SizeForm{-1, {}});
    if (!last)
      return std::nullopt;
    return Range{SizeForm(), *last};
  }
  case Expr::Kind::Unary: {
    std::optional<Range> r = rangeOf(*e.operands[0], extents);
    if (!r || e.unaryOp != UnaryOp::Neg)
      return std::nullopt;
    auto least = SizeForm::combine(-1, r->greatest, 0, SizeForm());
    auto greatest = SizeForm::combine(-1, r->least, 0, SizeForm());
    if (!least || !greatest)
      return std::nullopt;
    return Range{*least, *greatest};
  }
  case Expr::Kind::Binary: {
    std::optional<Range> a = rangeOf(*e.operands[0], extents);
    std::optional<Range> b = rangeOf(*e.operands[1], extents);
    if (!a || !b)
      return std::nullopt;
    std::optional<SizeForm> least, greatest;
    if (e.binaryOp == BinaryOp::Add) {
      least = SizeForm::combine(1, a->least, 1, b->least);
      greatest = SizeForm::combine(1, a->greatest, 1, b->greatest);
    } else if (e.binaryOp == BinaryOp::Sub) {
      least = SizeForm::combine(1, a->least, -1, b->greatest);
      greatest = SizeForm::combine(1, a->greatest, -1, b->least);
    } else if (e.binaryOp == BinaryOp::Mul) {
      // A product by a constant (the checker allows no product of two
      // index expressions).
      std::optional<int64_t> c = a->constant();
      const Range *other = &*b;
      if (!c) {
        c = b->constant();
        other = &*a;
      }
      if (!c)
        return std::nullopt;
      least = SizeForm::combine(*c, *c < 0 ? other->greatest : other->least, 0,
                                SizeForm());
      greatest = SizeForm::combine(*c, *c < 0 ? other->least : other->greatest,
                                   0, SizeForm());
    }
    if (!least || !greatest)
      return std::nullopt;
    return Range{*least, *greatest};
  }
  default:
    return std::nullopt;
  }
}

/// Where `e` starts in the source (a binary expression's location is its
/// operator's).
static llvm::SMLoc startOf(const Expr &e) {
  return e.kind == Expr::Kind::Binary ? startOf(*e.operands[0]) : e.loc;
}

bool KernelChecker::checkReadsInRange(
    const Expr &e, const std::map<std::string, DimSpec> &extents,
    bool guarded) {
  if (e.kind == Expr::Kind::Call && e.name == "where")
    return checkReadsInRange(*e.operands[0], extents, guarded) &&
           checkReadsInRange(*e.operands[1], extents, true) &&
           checkReadsInRange(*e.operands[2], extents, true);
  if (e.kind == Expr::Kind::Reduce) {
    // Its bound variables over its own extents (a name may be bound again
    // by a later reduction, over another).
    std::map<std::string, DimSpec> inner = extents;
    for (auto [v, dim] : llvm::zip_equal(e.boundIndices, e.boundExtents))
      inner[v] = dim;
    return checkReadsInRange(*e.operands[0], inner, guarded);
  }
  if (e.kind == Expr::Kind::Access && !guarded) {
    const TensorInfo &t = out.tensors.at(e.name);
    for (unsigned i = 0; i < e.operands.size() && i < t.dims.size(); ++i) {
      std::optional<Range> r = rangeOf(*e.operands[i], extents);
      if (!r)
        continue;
      SizeForm extent = SizeForm::of(t.dims[i]);
      std::optional<SizeForm> past =
          SizeForm::combine(1, r->least, -1, extent);
      std::optional<SizeForm> before =
          SizeForm::combine(-1, r->greatest, 1, SizeForm{-1, {}});
      std::string bound;
      if (past && past->provablyNonNegative())
        bound = "at least " + r->least.text();
      else if (before && before->provablyNonNegative())
        bound = "at most " + r->greatest.text();
      else
        continue;
      return error(startOf(*e.operands[i]),
                   "this index of '" + e.name + "' is " + bound +
                       " at every point, and dimension " +
                       std::to_string(i + 1) + " has extent " + extent.text() +
                       ": the read is always out of range (only a branch of "
                       "where(...) may read out of range)");
    }
  }
  for (const ExprPtr &op : e.operands)
    if (!checkReadsInRange(*op, extents, guarded))
      return false;
  return true;
}
