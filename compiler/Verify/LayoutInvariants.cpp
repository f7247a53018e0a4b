//===- LayoutInvariants.cpp - Layouts cover their tiles, one to one -------===//
//
// A distributed layout is a map from (register, lane, warp) to tile
// coordinates. Three queries, each asking Z3 for a violation:
//   in-tile    an input whose coordinates lie outside the tile;
//   injective  two distinct inputs with the same coordinates;
//   covers     every element of the tile is reached: by counting, once
//              the first two are proved (as many inputs as elements, no
//              two on one, none outside); a layout that fails them is
//              enumerated for an element no input reaches.
// The schedule's blocked distribution, where it is not linear (extents or
// thread counts not powers of two), gets the same three over its position
// formula.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

#include <algorithm>
#include <chrono>

using namespace nautilus;
using namespace nautilus::verify;

namespace {

std::string shapeOf(const layout::LinearLayout &l) {
  std::string out = "[";
  for (auto [i, dim] : llvm::enumerate(l.getOutDims()))
    out += (i ? ", " : "") + std::to_string(dim.size);
  return out + "]";
}

std::vector<std::pair<std::string, z3::expr>>
namedInputs(const LayoutInputs &inputs) {
  std::vector<std::pair<std::string, z3::expr>> out;
  for (const auto &[name, e] : inputs.values)
    out.emplace_back(name, e);
  return out;
}

/// layout.covers, by counting: once layout.in-tile and layout.injective
/// are proved (`oneToOne`), the `inputs` land on distinct elements of the
/// tile, so as many inputs as `elements` reach every one. Otherwise an
/// element no input reaches is found by enumerating the layout (`mark`
/// sets the elements reached; `name` names one).
Finding provedByCounting(const std::string &subject, bool oneToOne,
                         int64_t inputs, int64_t elements,
                         const std::function<void(std::vector<char> &)> &mark,
                         const std::function<std::string(int64_t)> &name) {
  auto start = std::chrono::steady_clock::now();
  Finding f;
  f.invariant = "layout.covers";
  f.subject = subject;
  if (oneToOne && inputs == elements) {
    f.verdict = Verdict::Proved;
  } else if (elements <= (int64_t(1) << 22)) {
    std::vector<char> reached(elements, 0);
    mark(reached);
    auto missed = std::find(reached.begin(), reached.end(), 0);
    if (missed == reached.end()) {
      f.verdict = Verdict::Proved;
    } else {
      f.verdict = Verdict::Refuted;
      f.detail = "element " + name(missed - reached.begin()) +
                 " is held by no thread (" + std::to_string(inputs) +
                 " holder slots for " + std::to_string(elements) + " elements)";
    }
  } else {
    f.detail = "too many elements to enumerate, and not proved one to one";
  }
  f.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return f;
}

void proveLinearLayout(Prover &prover, const std::string &subject,
                       const layout::LinearLayout &l,
                       std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  LayoutInputs a = layoutInputs(ctx, l, "");
  std::vector<z3::expr> outA = applyLayout(ctx, l, a.values);
  const auto &dims = l.getOutDims();

  z3::expr outside = ctx.bool_val(false);
  for (size_t d = 0; d < dims.size(); ++d)
    outside = outside || z3::uge(outA[d], constant(ctx, dims[d].size));
  Finding inTile = prover.prove(
      "layout.in-tile", subject, a.inRange && outside, [&](const z3::model &m) {
        return describeValues(m, namedInputs(a)) + " holds element " +
               describeTuple(m, outA) + ", outside the tile";
      });
  findings.push_back(inTile);

  LayoutInputs b = layoutInputs(ctx, l, "other ");
  std::vector<z3::expr> outB = applyLayout(ctx, l, b.values);
  z3::expr distinct = ctx.bool_val(false), same = ctx.bool_val(true);
  for (const auto &[name, e] : a.values)
    distinct = distinct || e != b.values.at(name);
  for (size_t d = 0; d < dims.size(); ++d)
    same = same && outA[d] == outB[d];
  Finding injective = prover.prove(
      "layout.injective", subject, a.inRange && b.inRange && distinct && same,
      [&](const z3::model &m) {
        std::vector<std::pair<std::string, z3::expr>> other;
        for (const auto &[name, e] : b.values)
          other.emplace_back(name, e);
        return describeValues(m, namedInputs(a)) + " and " +
               describeValues(m, other) + " both hold element " +
               describeTuple(m, outA);
      });
  findings.push_back(injective);

  int64_t inputs = int64_t(1) << l.getTotalInBits();
  int64_t elements = int64_t(1) << l.getTotalOutBits();
  findings.push_back(provedByCounting(
      subject,
      inTile.verdict == Verdict::Proved && injective.verdict == Verdict::Proved,
      inputs, elements,
      [&](std::vector<char> &reached) {
        // Every input's element (row-major), the inputs in bit order.
        std::vector<std::pair<llvm::StringRef, int32_t>> in;
        for (const auto &dim : l.getInDims())
          in.emplace_back(dim.name, 0);
        for (int64_t index = 0; index < inputs; ++index) {
          int64_t rest = index;
          for (auto [i, dim] : llvm::enumerate(l.getInDims())) {
            in[i].second =
                int32_t(rest & ((int64_t(1) << dim.bases.size()) - 1));
            rest >>= dim.bases.size();
          }
          int64_t flat = 0;
          auto out = l.apply(in);
          for (auto [d, dim] : llvm::enumerate(dims))
            flat = flat * dim.size + (out[d] % dim.size);
          reached[flat] = 1;
        }
      },
      [&](int64_t flat) {
        std::string at;
        for (size_t d = dims.size(); d-- > 0;) {
          at = std::to_string(flat % dims[d].size) + (at.empty() ? "" : ", ") +
               at;
          flat /= dims[d].size;
        }
        return "(" + at + ")";
      }));
}

/// The blocked distribution's position formula, over holder t and element
/// e: ((e / run) * holders + t) * run + e % run.
z3::expr blockedPosition(z3::context &ctx, const BlockedDistribution &b,
                         const z3::expr &t, const z3::expr &e) {
  z3::expr run = constant(ctx, b.run);
  return (z3::udiv(e, run) * constant(ctx, b.holders) + t) * run +
         z3::urem(e, run);
}

void proveBlocked(Prover &prover, const std::string &subject,
                  const BlockedDistribution &b,
                  std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  int64_t positions = 1;
  for (int64_t extent : b.shape)
    positions *= extent;
  z3::expr t = variable(ctx, "thread"), e = variable(ctx, "element");
  z3::expr t2 = variable(ctx, "other thread"),
           e2 = variable(ctx, "other element");
  auto valid = [&](const z3::expr &th, const z3::expr &el) {
    return z3::ult(th, constant(ctx, b.holders)) &&
           z3::ult(el, constant(ctx, b.perHolder));
  };
  z3::expr p = blockedPosition(ctx, b, t, e);
  z3::expr total = constant(ctx, positions);
  auto holder = [&](const z3::model &m) {
    return describeValues(m, {{"thread", t}, {"element", e}});
  };
  Finding inTile =
      prover.prove("layout.in-tile", subject, valid(t, e) && z3::uge(p, total),
                   [&](const z3::model &m) {
                     return holder(m) + " sits at position " +
                            std::to_string(valueOf(m, p)) +
                            ", outside the tile";
                   });
  findings.push_back(inTile);
  Finding injective = prover.prove(
      "layout.injective", subject,
      valid(t, e) && valid(t2, e2) && (t != t2 || e != e2) &&
          p == blockedPosition(ctx, b, t2, e2),
      [&](const z3::model &m) {
        return holder(m) + " and " +
               describeValues(m, {{"thread", t2}, {"element", e2}}) +
               " share position " + std::to_string(valueOf(m, p));
      });
  findings.push_back(injective);
  findings.push_back(provedByCounting(
      subject,
      inTile.verdict == Verdict::Proved && injective.verdict == Verdict::Proved,
      b.holders * b.perHolder, positions,
      [&](std::vector<char> &reached) {
        for (int64_t t = 0; t < b.holders; ++t)
          for (int64_t e = 0; e < b.perHolder; ++e) {
            int64_t p = ((e / b.run) * b.holders + t) * b.run + e % b.run;
            if (p < positions)
              reached[p] = 1;
          }
      },
      [](int64_t p) { return "at position " + std::to_string(p); }));
}

} // namespace

void verify::proveLayouts(Prover &prover, const ProgramModel &model,
                          std::vector<Finding> &findings) {
  for (const DistributedLayout &d : model.layouts)
    proveLinearLayout(
        prover, "@" + model.name + ": " + d.what + " " + shapeOf(d.layout),
        d.layout, findings);
  if (model.blocked) {
    std::string shape;
    for (int64_t extent : model.blocked->shape)
      shape += (shape.empty() ? "" : ", ") + std::to_string(extent);
    proveBlocked(prover,
                 "@" + model.name + ": the tile's distribution [" + shape +
                     "] over " + std::to_string(model.blocked->holders) +
                     " threads",
                 *model.blocked, findings);
  }
}
