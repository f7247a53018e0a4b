//===- StageInvariants.cpp - Shared-memory stages: permutation, banks -----===//
//
//   shared.permutation     a stage's swizzle maps its bytes one to one into
//                          the stage (so, its sizes equal, onto it);
//   shared.disjoint        no two stages (or operands of a stage) overlap,
//                          and all end before what the program allocates;
//   shared.banks-ldmatrix  where the schedule claims it, the 8 rows an
//                          ldmatrix reads (8 consecutive rows from a
//                          multiple of 8, one chunk) lie in 8 distinct
//                          16-byte bank groups;
//   shared.banks-copies    the 16-byte copies of 8 consecutive threads
//                          (consecutive chunks of the stage) do too.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

using namespace nautilus;
using namespace nautilus::verify;

namespace {

std::string stageName(const ProgramModel &model, const StageLayout &s) {
  return "@" + model.name + ": the " + s.operand + " stage (" +
         std::to_string(s.rows) + " rows of " + std::to_string(s.rowBytes) +
         " bytes, swizzle " + std::to_string(s.swizzle.maxPhase * 16) +
         " bytes every " + std::to_string(s.swizzle.perPhase) + " rows)";
}

void provePermutation(Prover &prover, const std::string &subject,
                      const StageLayout &s, std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  z3::expr row = variable(ctx, "row"), byte = variable(ctx, "byte");
  z3::expr row2 = variable(ctx, "other row"), byte2 = variable(ctx, "other byte");
  auto valid = [&](const z3::expr &r, const z3::expr &b) {
    return z3::ult(r, constant(ctx, s.rows)) &&
           z3::ult(b, constant(ctx, s.rowBytes));
  };
  z3::expr at = storedOffset(ctx, s.swizzle, s.rowBytes, row, byte);
  z3::expr at2 = storedOffset(ctx, s.swizzle, s.rowBytes, row2, byte2);
  z3::expr outside = z3::uge(at, constant(ctx, s.rows * s.rowBytes));
  z3::expr collide = (row != row2 || byte != byte2) && at == at2;
  findings.push_back(prover.prove(
      "shared.permutation", subject,
      valid(row, byte) && valid(row2, byte2) && (outside || collide),
      [&](const z3::model &m) {
        std::string first =
            describeValues(m, {{"row", row}, {"byte", byte}});
        if (m.eval(outside, true).is_true())
          return first + " is stored at offset " +
                 std::to_string(valueOf(m, at)) + ", past the stage";
        return first + " and " +
               describeValues(m, {{"row", row2}, {"byte", byte2}}) +
               " are both stored at offset " + std::to_string(valueOf(m, at));
      }));
}

/// Two of 8 consecutive 16-byte accesses in one bank group: `at(i)` is
/// the stored offset of access i.
void proveConflictFree(Prover &prover, const char *invariant,
                       const std::string &subject, const z3::expr &valid,
                       const std::function<z3::expr(const z3::expr &)> &at,
                       const std::vector<std::pair<std::string, z3::expr>> &where,
                       std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  z3::expr i = variable(ctx, "access"), j = variable(ctx, "other access");
  auto group = [&](const z3::expr &k) {
    return z3::urem(z3::udiv(at(k), constant(ctx, 16)), constant(ctx, 8));
  };
  findings.push_back(prover.prove(
      invariant, subject,
      valid && z3::ult(i, constant(ctx, 8)) && z3::ult(j, constant(ctx, 8)) &&
          i != j && group(i) == group(j),
      [&](const z3::model &m) {
        return describeValues(m, where) + ": accesses " +
               std::to_string(valueOf(m, i)) + " and " +
               std::to_string(valueOf(m, j)) + " (offsets " +
               std::to_string(valueOf(m, at(i))) + " and " +
               std::to_string(valueOf(m, at(j))) +
               ") fall in bank group " + std::to_string(valueOf(m, group(i)));
      }));
}

void proveBanks(Prover &prover, const std::string &subject,
                const StageLayout &s, std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  int64_t chunks = s.rowBytes / 16;
  if (s.ldmatrixClaimsNoConflicts && s.rows % 8 == 0) {
    // Rows 8g .. 8g + 7 at chunk c.
    z3::expr g = variable(ctx, "row group"), c = variable(ctx, "chunk");
    z3::expr valid = z3::ult(g, constant(ctx, s.rows / 8)) &&
                     z3::ult(c, constant(ctx, chunks));
    proveConflictFree(
        prover, "shared.banks-ldmatrix", subject, valid,
        [&](const z3::expr &k) {
          return storedOffset(ctx, s.swizzle, s.rowBytes,
                              g * constant(ctx, 8) + k, c * constant(ctx, 16));
        },
        {{"row group", g}, {"chunk", c}}, findings);
  }
  int64_t total = s.rows * chunks;
  if (s.copiedByThreads && total % 8 == 0) {
    // Chunks 8g .. 8g + 7 of the stage, row-major.
    z3::expr g = variable(ctx, "chunk group");
    z3::expr valid = z3::ult(g, constant(ctx, total / 8));
    proveConflictFree(
        prover, "shared.banks-copies", subject, valid,
        [&](const z3::expr &k) {
          z3::expr q = g * constant(ctx, 8) + k;
          return storedOffset(ctx, s.swizzle, s.rowBytes,
                              z3::udiv(q, constant(ctx, chunks)),
                              z3::urem(q, constant(ctx, chunks)) *
                                  constant(ctx, 16));
        },
        {{"chunk group", g}}, findings);
  }
}

void proveDisjoint(Prover &prover, const ProgramModel &model,
                   std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  // Region (operand a, copy i) against (operand b, copy j).
  z3::expr i = variable(ctx, "stage"), j = variable(ctx, "other stage");
  z3::expr violation = ctx.bool_val(false);
  std::vector<std::pair<z3::expr, std::string>> cases;
  auto start = [&](const StageLayout &s, const z3::expr &k) {
    return constant(ctx, s.offset) + k * constant(ctx, s.stride);
  };
  for (size_t a = 0; a < model.stages.size(); ++a) {
    const StageLayout &sa = model.stages[a];
    z3::expr inA = z3::ult(i, constant(ctx, sa.count));
    z3::expr endA = start(sa, i) + constant(ctx, sa.bytes);
    z3::expr past = inA && z3::ugt(endA, constant(ctx, model.sharedBytes));
    cases.emplace_back(past, "the " + sa.operand + " stage " +
                                 "ends past the " +
                                 std::to_string(model.sharedBytes) +
                                 " bytes allocated");
    for (size_t b = a; b < model.stages.size(); ++b) {
      const StageLayout &sb = model.stages[b];
      z3::expr inB = z3::ult(j, constant(ctx, sb.count));
      z3::expr endB = start(sb, j) + constant(ctx, sb.bytes);
      z3::expr distinct = a == b ? i != j : ctx.bool_val(true);
      z3::expr overlap = inA && inB && distinct &&
                         z3::ult(start(sa, i), endB) &&
                         z3::ult(start(sb, j), endA);
      cases.emplace_back(overlap, "the " + sa.operand + " stage and the " +
                                      sb.operand + " stage overlap");
    }
  }
  for (const auto &[c, _] : cases)
    violation = violation || c;
  findings.push_back(prover.prove(
      "shared.disjoint", "@" + model.name + ": the operand stages",
      violation, [&](const z3::model &m) {
        for (const auto &[c, what] : cases)
          if (m.eval(c, true).is_true())
            return what + " (" +
                   describeValues(m, {{"stage", i}, {"other stage", j}}) + ")";
        return std::string("a violation");
      }));
}

} // namespace

void verify::proveStages(Prover &prover, const ProgramModel &model,
                         std::vector<Finding> &findings) {
  for (const StageLayout &s : model.stages) {
    std::string subject = stageName(model, s);
    provePermutation(prover, subject, s, findings);
    proveBanks(prover, subject, s, findings);
  }
  if (!model.stages.empty())
    proveDisjoint(prover, model, findings);
}
