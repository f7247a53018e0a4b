//===- CoverageInvariants.cpp - Each output element written once ---------===//
//
// For every size the kernel allows (bound sizes are constants; the others
// range over 1 .. kMaxCount = 2^31 - 1 tiles a dimension, more than any
// launchable grid has; any number of multiprocessors):
//   coverage.grid        program ids 0 .. grid size - 1 map into the
//                        grid's tile coordinates (row-major, rasterised
//                        in groups of group_m rows of tiles, or down the
//                        columns with a CPU schedule's pack) and back, by
//                        the walk's inverse: one to one between sets of
//                        equal size, so onto;
//   coverage.persistent  persistent programs b < min(multiprocessors,
//                        tiles), for any count of multiprocessors (the
//                        device's, known at launch), taking tiles b + i x
//                        programs for
//                        i < ceil((tiles - b) / programs) take each tile
//                        exactly once;
//   coverage.elements    along each dimension, tile c's positions
//                        c x tile + p, kept by the store's mask, write
//                        each element below the extent exactly once and
//                        none past it;
//   coverage.split       a split reduction's chunks partition its extent
//                        (a split stream's too, its chunks constant or
//                        sized at launch from the extent), and the
//                        combining program adds every chunk;
//   coverage.sweep       a tile.sweep's loops (each thread of a group its
//                        points of the group's split: a main loop of
//                        several points a step, then the rest) write each
//                        point of the swept extent exactly once and none
//                        past it, whether the main loop runs or not.
// Together with layout.injective and layout.covers (each tile's elements
// held once by the threads), each output element is written exactly once.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

#include "llvm/Support/MathExtras.h"

using namespace nautilus;
using namespace nautilus::verify;

namespace {

/// The grid's walk is proved over tile counts (up to kMaxCount a
/// dimension, so 34 bits hold its sums without wrapping); a dimension's
/// elements over its extent, in as many bits as kMaxCount tiles of the
/// dimension's size need. Both multiply and divide by constants only
/// (tile sizes, group_m), which Z3 bit-blasts cheaply.
constexpr unsigned kCountWidth = 34;

z3::expr num(z3::context &ctx, int64_t value, unsigned width = kCountWidth) {
  return constant(ctx, value, width);
}
z3::expr var(z3::context &ctx, const std::string &name,
             unsigned width = kCountWidth) {
  return variable(ctx, name, width);
}

/// The grid's tile counts, symbolic where the extent is unbound, with
/// their constraints.
struct TileCounts {
  std::vector<z3::expr> tiles; // per dimension
  z3::expr allowed;
  z3::expr readable; // the symbolic counts at most kReadableCount
  std::vector<std::pair<std::string, z3::expr>> named;
};

TileCounts tileCountsOf(z3::context &ctx, const GridModel &grid) {
  TileCounts out{{}, ctx.bool_val(true), ctx.bool_val(true), {}};
  for (size_t d = 0; d < grid.tile.size(); ++d) {
    if (grid.extents[d]) {
      out.tiles.push_back(
          num(ctx, (*grid.extents[d] + grid.tile[d] - 1) / grid.tile[d]));
      continue;
    }
    // One variable a dimension, even where two share an extent (N x N in
    // tiles of 128 x 64): Z3 would take two constants of one name for one
    // variable, and their counts differ. Independent counts cover more
    // grids than the kernel has, never fewer.
    std::string name = "tiles along dimension " + std::to_string(d) + " (" +
                       grid.extentNames[d] + ")";
    z3::expr tiles = var(ctx, name);
    out.allowed = out.allowed && z3::uge(tiles, num(ctx, 1)) &&
                  z3::ule(tiles, num(ctx, kMaxCount));
    out.readable = out.readable && fitsBelow(tiles, kReadableCount);
    out.named.emplace_back(name, tiles);
    out.tiles.push_back(tiles);
  }
  return out;
}

/// A program id in mixed radix, as programCoordinates takes it apart: the
/// row-major coordinates of the leading dimensions, then (with group_m > 1)
/// the group of rows g, the column c and the row rr within the group, the
/// group g holding min(group_m, rows - g group_m) rows. Every id below the
/// grid's size has exactly one such decomposition (its divisions'
/// quotients and remainders), and the ids walk them in order, so the walk
/// is one to one exactly when the map from decompositions to tile
/// coordinates is.
struct ProgramDigits {
  std::vector<z3::expr> digits; // the decomposition's variables
  std::vector<z3::expr> coords; // the tile they take
  z3::expr valid;
};

ProgramDigits digitsOf(z3::context &ctx, const GridModel &grid,
                       const std::vector<z3::expr> &tiles,
                       const std::string &prefix) {
  size_t rank = tiles.size();
  ProgramDigits out{{}, {}, ctx.bool_val(true)};
  bool grouped = grid.groupM > 1 && rank >= 2;
  bool downColumns = grid.downColumns && rank >= 2;
  size_t rowMajorDims = grouped || downColumns ? rank - 2 : rank;
  for (size_t d = 0; d < rowMajorDims; ++d) {
    z3::expr c = var(ctx, prefix + "tile" + std::to_string(d));
    out.valid = out.valid && z3::ult(c, tiles[d]);
    out.digits.push_back(c);
    out.coords.push_back(c);
  }
  if (downColumns) {
    // The column, then the row within it (fastest).
    z3::expr c = var(ctx, prefix + "column"), r = var(ctx, prefix + "row");
    out.valid = out.valid && z3::ult(c, tiles[rank - 1]) &&
                z3::ult(r, tiles[rank - 2]);
    out.digits.insert(out.digits.end(), {c, r});
    out.coords.push_back(r);
    out.coords.push_back(c);
    return out;
  }
  if (!grouped)
    return out;
  z3::expr rows = tiles[rank - 2], columns = tiles[rank - 1];
  // (A group of more rows than any grid has walks as one of kMaxCount.)
  z3::expr group = num(ctx, std::min(grid.groupM, kMaxCount));
  z3::expr g = var(ctx, prefix + "row group");
  z3::expr c = var(ctx, prefix + "column"),
           rr = var(ctx, prefix + "row in group");
  z3::expr firstRow = g * group;
  z3::expr left = rows - firstRow;
  z3::expr groupRows = z3::ite(z3::ult(left, group), left, group);
  out.valid = out.valid &&
              z3::ult(g, z3::udiv(rows + group - num(ctx, 1), group)) &&
              z3::ult(c, columns) && z3::ult(rr, groupRows);
  out.digits.insert(out.digits.end(), {g, c, rr});
  out.coords.push_back(firstRow + rr);
  out.coords.push_back(c);
  return out;
}

std::string gridName(const ProgramModel &model) {
  const GridModel &g = *model.grid;
  std::string dims;
  for (size_t d = 0; d < g.tile.size(); ++d)
    dims +=
        (d ? ", " : "") + g.extentNames[d] + "/" + std::to_string(g.tile[d]);
  std::string out = "@" + model.name + ": the grid [" + dims + "]";
  if (g.groupM > 1)
    out += " in groups of " + std::to_string(g.groupM) + " rows of tiles";
  if (g.downColumns)
    out += " down its columns";
  return out;
}

void proveGrid(Prover &prover, const ProgramModel &model,
               std::vector<Finding> &findings) {
  // Two distinct program ids (distinct decompositions) on one tile, or one
  // outside the grid: one to one and into between sets of equal size
  // (the decompositions count rows x columns x ...), so onto.
  z3::context &ctx = prover.context();
  const GridModel &grid = *model.grid;
  TileCounts ex = tileCountsOf(ctx, grid);
  ProgramDigits a = digitsOf(ctx, grid, ex.tiles, "");
  ProgramDigits b = digitsOf(ctx, grid, ex.tiles, "other ");
  z3::expr outside = ctx.bool_val(false), same = ctx.bool_val(true);
  for (size_t d = 0; d < a.coords.size(); ++d) {
    outside = outside || z3::uge(a.coords[d], ex.tiles[d]);
    same = same && a.coords[d] == b.coords[d];
  }
  z3::expr distinct = ctx.bool_val(false);
  for (size_t i = 0; i < a.digits.size(); ++i)
    distinct = distinct || a.digits[i] != b.digits[i];
  z3::expr violation =
      ex.allowed && a.valid && (outside || (b.valid && distinct && same));
  findings.push_back(prover.prove(
      "coverage.grid", gridName(model), violation,
      [&](const z3::model &m) {
        std::string sizes = describeValues(m, ex.named);
        std::string prefix = sizes.empty() ? "" : sizes + ": ";
        if (m.eval(outside, true).is_true())
          return prefix + "a program takes tile " + describeTuple(m, a.coords) +
                 ", outside the grid " + describeTuple(m, ex.tiles);
        return prefix + "two programs " + describeTuple(m, a.digits) + " and " +
               describeTuple(m, b.digits) + " take tile " +
               describeTuple(m, a.coords);
      },
      ex.readable));
}

void provePersistent(Prover &prover, const ProgramModel &model,
                     std::vector<Finding> &findings) {
  // Over the integers: any tile count and any count of multiprocessors
  // (the persistent walk depends on the grid only through its tile
  // count). Divisions are stated by their definitions (a quotient and a
  // remainder, a ceiling between two multiples), which Z3's nonlinear
  // arithmetic settles far faster than its integer division.
  z3::context &ctx = prover.context();
  z3::expr tiles = ctx.int_const("tiles");
  z3::expr mp = ctx.int_const("multiprocessors");
  z3::expr programs = ctx.int_const("programs");
  z3::expr defs =
      tiles >= 1 && mp >= 1 && programs == z3::ite(tiles < mp, tiles, mp);
  // Block b runs count(b) = ceil((tiles - b) / programs) iterations.
  auto countOf = [&](const z3::expr &b, const std::string &name) {
    z3::expr c = ctx.int_const(name.c_str());
    defs = defs && c * programs >= tiles - b && (c - 1) * programs < tiles - b;
    return c;
  };
  auto takes = [&](const z3::expr &b, const z3::expr &i, const z3::expr &c) {
    return b >= 0 && b < programs && i >= 0 && i < c;
  };
  z3::expr b = ctx.int_const("block"), i = ctx.int_const("iteration");
  z3::expr b2 = ctx.int_const("other block"),
           i2 = ctx.int_const("other iteration");
  z3::expr c = countOf(b, "count"), c2 = countOf(b2, "other count");
  z3::expr stride = programs - int(model.grid->strideSlack);
  z3::expr tile = b + i * stride;
  z3::expr past = takes(b, i, c) && tile >= tiles;
  z3::expr twice = takes(b, i, c) && takes(b2, i2, c2) &&
                   (b != b2 || i != i2) && tile == b2 + i2 * stride;
  // Tile t's taker would be block t % programs at iteration t / programs:
  // it must run that iteration.
  z3::expr t = ctx.int_const("tile");
  z3::expr tb = ctx.int_const("taker block"),
           ti = ctx.int_const("taker iteration");
  z3::expr tc = countOf(tb, "taker count");
  defs = defs && t == tb + ti * stride && tb >= 0 && tb < stride && ti >= 0;
  z3::expr missed = t >= 0 && t < tiles && !takes(tb, ti, tc);
  findings.push_back(prover.prove(
      "coverage.persistent",
      "@" + model.name + ": persistent programs over the grid's tiles",
      defs && (past || twice || missed), [&](const z3::model &m) {
        std::string prefix =
            "tiles=" + m.eval(tiles, true).to_string() +
            ", multiprocessors=" + m.eval(mp, true).to_string() + ": ";
        if (m.eval(missed, true).is_true())
          return prefix + "tile " + m.eval(t, true).to_string() +
                 " is taken by no program";
        return prefix + "block " + m.eval(b, true).to_string() +
               " at iteration " + m.eval(i, true).to_string() + " takes tile " +
               m.eval(tile, true).to_string() +
               (m.eval(past, true).is_true() ? ", past the last"
                                             : ", which another takes too");
      }));
}

void proveElements(Prover &prover, const ProgramModel &model,
                   std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  const GridModel &grid = *model.grid;
  for (size_t d = 0; d < grid.tile.size(); ++d) {
    // Wide enough for kMaxCount tiles, a tile and the mask's slack.
    int64_t largest = grid.tile[d] * (kMaxCount + 2) + grid.maskSlack;
    unsigned width = llvm::Log2_64_Ceil(largest) + 1;
    auto n = [&](int64_t value) { return num(ctx, value, width); };
    auto v = [&](const std::string &name) { return var(ctx, name, width); };
    z3::expr step = n(grid.tile[d] - grid.originOverlap);
    z3::expr tile = n(grid.tile[d]);
    z3::expr c = v("tile"), p = v("position");
    z3::expr c2 = v("other tile"), p2 = v("other position");
    bool bound = grid.extents[d].has_value();
    z3::expr e = bound ? n(*grid.extents[d]) : v("size " + grid.extentNames[d]);
    z3::expr allowed =
        bound ? ctx.bool_val(true)
              : z3::uge(e, n(1)) && z3::ule(e, n(grid.tile[d] * kMaxCount));
    std::vector<std::pair<std::string, z3::expr>> named;
    if (!bound)
      named.emplace_back(grid.extentNames[d], e);
    z3::expr tiles = z3::udiv(e + tile - n(1), tile);
    auto writes = [&](const z3::expr &cc, const z3::expr &pp) {
      z3::expr x = cc * step + pp;
      return z3::ult(cc, tiles) && z3::ult(pp, tile) &&
             z3::ult(x, e + n(grid.maskSlack));
    };
    z3::expr x = c * step + p, x2 = c2 * step + p2;
    z3::expr outside = writes(c, p) && z3::uge(x, e);
    z3::expr twice =
        writes(c, p) && writes(c2, p2) && (c != c2 || p != p2) && x == x2;
    z3::expr element = v("element");
    z3::expr missed = z3::ult(element, e) &&
                      !writes(z3::udiv(element, step), z3::urem(element, step));
    std::string subject = "@" + model.name + ": dimension " +
                          std::to_string(d) + " (" + grid.extentNames[d] +
                          ", tiles of " + std::to_string(grid.tile[d]) + ")";
    findings.push_back(prover.prove(
        "coverage.elements", subject, allowed && (outside || twice || missed),
        [&](const z3::model &m) {
          std::string sizes = describeValues(m, named);
          std::string prefix = sizes.empty() ? "" : sizes + ": ";
          if (m.eval(missed, true).is_true())
            return prefix + "element " + std::to_string(valueOf(m, element)) +
                   " is written by no program";
          std::string who = describeValues(m, {{"tile", c}, {"position", p}});
          if (m.eval(outside, true).is_true())
            return prefix + who + " writes element " +
                   std::to_string(valueOf(m, x)) + ", past the extent " +
                   std::to_string(valueOf(m, e)) + " (the mask keeps it)";
          return prefix + who + " and " +
                 describeValues(m, {{"tile", c2}, {"position", p2}}) +
                 " both write element " + std::to_string(valueOf(m, x));
        },
        fitsBelow(e, grid.tile[d] * kReadableCount)));
  }
}

/// coverage.split: program s of the `splits` along the split dimension
/// reduces [s C, min(extent, (s + 1) C)), their union [0, min(extent,
/// splits x C)), so index k < extent lies in no chunk exactly where k >=
/// splits x C. C is the chunk, or for a stream split in parts sized at
/// launch max(1, ceil(ceil(extent / P) / G)) x G, as emitStreamChunk
/// computes it (G the granule).
void proveSplit(Prover &prover, const ProgramModel &model,
                std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  const SplitModel &split = *model.split;
  // The most points a chunk may cover, and the extents proved over: up to
  // kMaxCount chunks (of every part).
  int64_t reach = split.chunk * split.parts.value_or(1);
  unsigned width =
      llvm::Log2_64_Ceil(reach * (split.splits + 1) * (kMaxCount + 1)) + 2;
  z3::expr e = split.extent ? num(ctx, *split.extent, width)
                            : var(ctx, "size " + split.extentName, width);
  z3::expr chunk = num(ctx, split.chunk, width);
  std::string what = std::to_string(split.splits) + " chunks of " +
                     std::to_string(split.chunk) + " along " + split.extentName;
  if (split.parts) {
    z3::expr g = chunk, p = num(ctx, *split.parts, width);
    z3::expr one = num(ctx, 1, width);
    z3::expr granules = z3::udiv(z3::udiv(e + p - one, p) + g - one, g);
    chunk = z3::ite(granules == 0, one, granules) * g;
    what = std::to_string(split.splits) + " chunks of ceil(" +
           split.extentName + " / " + std::to_string(*split.parts) +
           ") rounded up to " + std::to_string(split.chunk) +
           ", sized at launch";
  }
  z3::expr splits = num(ctx, split.splits, width);
  z3::expr k = var(ctx, "index", width);
  z3::expr missed = z3::ult(k, e) && z3::uge(k, splits * chunk);
  z3::expr uncombined = num(ctx, split.combined, width) != splits;
  z3::expr allowed = split.extent
                         ? ctx.bool_val(true)
                         : z3::ule(e, num(ctx, reach * kMaxCount, width));
  findings.push_back(prover.prove(
      "coverage.split", "@" + model.name + ": " + what,
      allowed && (missed || uncombined),
      [&](const z3::model &m) {
        if (m.eval(uncombined, true).is_true())
          return "the combining program adds " +
                 std::to_string(split.combined) + " of the " +
                 std::to_string(split.splits) + " chunks";
        return split.extentName + "=" + std::to_string(valueOf(m, e)) +
               ": index " + std::to_string(valueOf(m, k)) + " lies in no chunk";
      },
      fitsBelow(e, reach * kReadableCount)));
}

/// One write of a sweep's loops: the thread `lane` of a group, in the main
/// loop (`main`) or the rest, at its iteration `iteration`, copy (or
/// point of its run) `copy`; `point` the point it writes and `valid` that
/// the loops run it.
struct SweepWrite {
  z3::expr lane, main, iteration, copy, point, valid, defs;
};

/// What a thread's loops take, over the integers (the lowering's index
/// arithmetic is signed: a main loop's end below its start runs none).
struct SweepLoops {
  z3::context &ctx;
  const tile::GroupSplitShape &s;
  z3::expr extent, nonEmpty;

  z3::expr num(int64_t v) const { return ctx.int_val(v); }
  z3::expr start(const z3::expr &lane) const {
    return lane * num(s.runs ? s.run : 1);
  }
  z3::expr mainEnd(const z3::expr &lane) const {
    return z3::ite(nonEmpty, extent - num((s.copies - 1) * s.spacing),
                   start(lane));
  }
  /// The first point after the main loop: its start and as many strides
  /// as it ran (`steps`, defined by `defs`).
  z3::expr rest(const z3::expr &lane, const z3::expr &steps,
                z3::expr &defs) const {
    z3::expr span = mainEnd(lane) - start(lane);
    z3::expr stride = num(s.stride);
    defs =
        defs &&
        z3::ite(span > 0, steps * stride >= span && (steps - 1) * stride < span,
                steps == 0);
    return start(lane) + steps * stride;
  }
  SweepWrite write(const std::string &prefix) const {
    z3::expr lane = ctx.int_const((prefix + "lane").c_str());
    z3::expr main = ctx.bool_const((prefix + "in the main loop").c_str());
    z3::expr i = ctx.int_const((prefix + "iteration").c_str());
    z3::expr j = ctx.int_const((prefix + "copy").c_str());
    z3::expr steps = ctx.int_const((prefix + "main steps").c_str());
    z3::expr defs = ctx.bool_val(true);
    z3::expr valid = lane >= 0 && lane < num(s.threads) && i >= 0 && j >= 0;
    if (s.copies == 1) // one loop, a point a step
      return {lane,
              ctx.bool_val(false),
              i,
              j,
              start(lane) + i * num(s.threads),
              valid && !main && j == 0 &&
                  start(lane) + i * num(s.threads) < extent,
              defs};
    z3::expr iv = start(lane) + i * num(s.stride);
    z3::expr inMain = iv < mainEnd(lane) && j < num(s.copies);
    z3::expr mainPoint = iv + j * num(s.spacing);
    z3::expr restStart = rest(lane, steps, defs);
    z3::expr restPoint(ctx), inRest(ctx);
    if (s.runs) { // run by run, a point at a time, up to the extent
      z3::expr runStart = restStart + i * num(s.stride);
      restPoint = runStart + j;
      inRest = runStart < extent && j < num(s.run) && restPoint < extent;
    } else {
      restPoint = restStart + i * num(s.threads);
      inRest = restPoint < extent && j == 0;
    }
    return {lane,
            main,
            i,
            j,
            z3::ite(main, mainPoint, restPoint),
            valid && z3::ite(main, inMain, inRest),
            defs};
  }
};

void proveSweep(Prover &prover, const ProgramModel &model,
                std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  const SweepModel &sweep = *model.sweep;
  const tile::GroupSplitShape &s = sweep.split;
  z3::expr extent = sweep.extent
                        ? ctx.int_val(*sweep.extent)
                        : ctx.int_const(("size " + sweep.extentName).c_str());
  z3::expr allowed = extent >= 0 && extent <= ctx.int_val(kMaxCount);
  SweepLoops loops{ctx, s, extent, ctx.bool_const("main loop runs")};
  SweepWrite a = loops.write(""), b = loops.write("other ");
  z3::expr outside = a.valid && (a.point < 0 || a.point >= extent);
  z3::expr twice = a.valid && b.valid && a.point == b.point &&
                   (a.lane != b.lane || a.main != b.main ||
                    a.iteration != b.iteration || a.copy != b.copy);
  // Point x's writer, were the loops right: the lane and iteration its
  // position in the group's split gives, in the main loop if that
  // iteration runs, else in the rest.
  z3::expr x = ctx.int_const("point");
  z3::expr steps = ctx.int_const("its lane's main steps");
  z3::expr defs = a.defs && b.defs;
  z3::expr covered(ctx);
  if (s.copies == 1) {
    covered = ctx.bool_val(true);
  } else {
    z3::expr unit = ctx.int_val(s.runs ? s.run : 1);
    z3::expr q = x / unit; // the run (or point) x is in
    z3::expr lane = z3::mod(q, ctx.int_val(s.threads));
    z3::expr base = x - z3::mod(x, unit) - lane * unit; // start + i stride
    z3::expr iv = loops.start(lane) +
                  (base / ctx.int_val(s.stride)) * ctx.int_val(s.stride);
    z3::expr restStart = loops.rest(lane, steps, defs);
    covered = iv < loops.mainEnd(lane) ||
              (s.runs ? x - z3::mod(x, unit) >= restStart : x >= restStart);
  }
  z3::expr missed = x >= 0 && x < extent && !covered;
  std::vector<std::pair<std::string, z3::expr>> named;
  if (!sweep.extent)
    named.emplace_back(sweep.extentName, extent);
  std::string subject = "@" + model.name + ": the sweep over " +
                        sweep.extentName + " (" + std::to_string(s.threads) +
                        " threads a group, " +
                        (s.runs ? "runs of " + std::to_string(s.run)
                                : std::to_string(s.copies) + " points a step") +
                        ")";
  findings.push_back(prover.prove(
      "coverage.sweep", subject,
      allowed && defs && (outside || twice || missed), [&](const z3::model &m) {
        auto value = [&](const z3::expr &e) {
          return m.eval(e, true).to_string();
        };
        std::string prefix =
            sweep.extentName + "=" + value(extent) +
            (m.eval(loops.nonEmpty, true).is_true() ? "" : ", no main loop") +
            ": ";
        auto who = [&](const SweepWrite &w) {
          return "thread " + value(w.lane) + " (" +
                 (m.eval(w.main, true).is_true() ? "main loop" : "rest") +
                 ", iteration " + value(w.iteration) + ", copy " +
                 value(w.copy) + ")";
        };
        if (m.eval(missed, true).is_true())
          return prefix + "point " + value(x) + " is written by no thread";
        if (m.eval(outside, true).is_true())
          return prefix + who(a) + " writes point " + value(a.point) +
                 ", outside the extent";
        return prefix + who(a) + " and " + who(b) + " both write point " +
               value(a.point);
      }));
}

} // namespace

void verify::proveCoverage(Prover &prover, const ProgramModel &model,
                           std::vector<Finding> &findings) {
  if (model.grid && !model.grid->tile.empty()) {
    proveGrid(prover, model, findings);
    if (model.grid->persistent)
      provePersistent(prover, model, findings);
    proveElements(prover, model, findings);
  }
  if (model.split)
    proveSplit(prover, model, findings);
  if (model.sweep)
    proveSweep(prover, model, findings);
}
