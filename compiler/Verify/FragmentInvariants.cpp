//===- FragmentInvariants.cpp - mma.sync operands hold the right elements -===//
//
// dataflow.mma-operands follows each element from the copies into the
// stage to the register ldmatrix puts it in, and checks it against the
// fragment the PTX ISA says mma.sync m16n8k16 takes there:
//
//  1. The copies store logical element (row, column) of the stored tile at
//     `storedOffset(the stage's swizzle, row, column bytes)`.
//  2. Lane l of ldmatrix gives the address of row l % 8 of matrix l / 8:
//     the matrix's origin (ldmatrixMatrixLayout, as the lowering addresses
//     it) plus l % 8 along the stored rows, through the reader's swizzle.
//  3. ldmatrix (PTX ISA) gives thread t, from matrix i, the two 16-bit
//     elements 2 (t % 4) and 2 (t % 4) + 1 of the matrix's row t / 4;
//     with .trans, element t / 4 of its rows 2 (t % 4) and 2 (t % 4) + 1.
//  4. Matrix i is the lhs's register a_i; the rhs's matrices 2n and 2n + 1
//     are b0 and b1 of its n-th 8-column tile.
//
// For every thread, matrix, half and warp tile origin (multiples of 16 in
// the stage), the element read back (the inverse of the stage's swizzle
// at the byte read) must be the one the fragment layout
// (mmaOperandALayout / mmaOperandBLayout) places in that register. Both
// fragments are taken at the same K origin, so both operands of an mma
// read the same slice of K.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

using namespace nautilus;
using namespace nautilus::verify;

namespace {

struct Symbols {
  z3::expr thread, matrix, half, rowBase, kBase;
};

/// The logical (M/N row, K) element ldmatrix gives (thread, matrix, half).
std::pair<z3::expr, z3::expr> delivered(z3::context &ctx, const FragmentLoad &f,
                                        const StageLayout &stage,
                                        const Symbols &s) {
  z3::expr four = constant(ctx, 4), eight = constant(ctx, 8);
  z3::expr quad = z3::urem(s.thread, four), group = z3::udiv(s.thread, four);
  // The lane whose address gives the row read, and the element of it.
  z3::expr lane = s.matrix * eight +
                  (f.kInnermost ? group : quad * constant(ctx, 2) + s.half);
  z3::expr element = f.kInnermost ? quad * constant(ctx, 2) + s.half : group;
  std::vector<z3::expr> origin =
      applyLayout(ctx, f.matrices, {{"matrix", z3::udiv(lane, eight)}});
  z3::expr inMatrix = z3::urem(lane, eight);
  z3::expr mn = s.rowBase + origin[0], k = s.kBase + origin[1];
  z3::expr storedRow = (f.kInnermost ? mn : k) + inMatrix;
  z3::expr column = f.kInnermost ? k : mn;
  z3::expr eb = constant(ctx, stage.elementBytes);
  z3::expr address = storedOffset(ctx, f.readerSwizzle, stage.rowBytes,
                                  storedRow, column * eb) +
                     element * eb;
  auto [row, byte] = logicalByte(ctx, stage.swizzle, stage.rowBytes, address);
  z3::expr at = z3::udiv(byte, eb);
  return f.kInnermost ? std::make_pair(row, at) : std::make_pair(at, row);
}

/// The (M/N row, K) element the fragment layout places there.
std::pair<z3::expr, z3::expr> required(z3::context &ctx, const FragmentLoad &f,
                                       const Symbols &s) {
  z3::expr two = constant(ctx, 2);
  if (f.isLhs) {
    std::vector<z3::expr> rk = applyLayout(
        ctx, layout::mmaOperandALayout(),
        {{"register", s.half + s.matrix * two}, {"lane", s.thread}});
    return {s.rowBase + rk[0], s.kBase + rk[1]};
  }
  std::vector<z3::expr> kn =
      applyLayout(ctx, layout::mmaOperandBLayout(),
                  {{"register", s.half + z3::urem(s.matrix, two) * two},
                   {"lane", s.thread}});
  return {s.rowBase + kn[1] + z3::udiv(s.matrix, two) * constant(ctx, 8),
          s.kBase + kn[0]};
}

} // namespace

void verify::proveFragments(Prover &prover, const ProgramModel &model,
                            std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  for (const FragmentLoad &f : model.fragments) {
    const StageLayout *stage = nullptr;
    for (const StageLayout &s : model.stages)
      if (s.operand == f.stage)
        stage = &s;
    if (!stage)
      continue;
    Symbols s{variable(ctx, "thread"), variable(ctx, "matrix"),
              variable(ctx, "half"), variable(ctx, "row origin"),
              variable(ctx, "k origin")};
    int64_t mnRows =
        f.kInnermost ? stage->rows : stage->rowBytes / stage->elementBytes;
    int64_t kRows =
        f.kInnermost ? stage->rowBytes / stage->elementBytes : stage->rows;
    // A warp's tile starts at a multiple of 16 rows (8 for an rhs one n
    // tile wide) and of 16 along K.
    int64_t rowAlign = f.twoMatrices ? 8 : 16, sixteen = 16;
    z3::expr valid =
        z3::ult(s.thread, constant(ctx, 32)) &&
        z3::ult(s.matrix, constant(ctx, f.twoMatrices ? 2 : 4)) &&
        z3::ult(s.half, constant(ctx, 2)) &&
        z3::urem(s.rowBase, constant(ctx, rowAlign)) == constant(ctx, 0) &&
        z3::ult(s.rowBase, constant(ctx, mnRows)) &&
        z3::urem(s.kBase, constant(ctx, sixteen)) == constant(ctx, 0) &&
        z3::ult(s.kBase, constant(ctx, kRows));
    auto got = delivered(ctx, f, *stage, s);
    auto want = required(ctx, f, s);
    std::string subject = "@" + model.name + ": the " +
                          (f.isLhs ? std::string("A") : "B") +
                          " fragments from the " + f.stage +
                          " stage by ldmatrix" +
                          (f.kInnermost ? "" : ".trans") +
                          (f.twoMatrices ? ".x2" : ".x4");
    findings.push_back(prover.prove(
        "dataflow.mma-operands", subject,
        valid && (got.first != want.first || got.second != want.second),
        [&](const z3::model &m) {
          return describeValues(m, {{"thread", s.thread},
                                    {"matrix", s.matrix},
                                    {"half", s.half},
                                    {"row origin", s.rowBase},
                                    {"k origin", s.kBase}}) +
                 ": the register holds (row, k) = " +
                 describeTuple(m, {got.first, got.second}) +
                 " but mma.sync needs " +
                 describeTuple(m, {want.first, want.second});
        }));
  }
}
