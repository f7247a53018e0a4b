//===- VerifyTest.cpp - The Z3 checker on hand-made kernel models ---------===//
//
// Models built by hand (not from tile IR): the invariants prove the
// lowering's real pieces and refute broken ones with counterexamples that
// name the kernel's terms; the proof cache answers a repeated query, in a
// fresh Z3 context too.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Invariants.h"
#include "compiler/Verify/KernelModel.h"
#include "compiler/Verify/Prover.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace nautilus;
using namespace nautilus::verify;

namespace {

class VerifyTest : public ::testing::Test {
protected:
  // Every answer made here, not read from a disk cache another run left.
  void SetUp() override { setenv("NAUTILUS_PROOF_CACHE", "0", 1); }
};

const Finding &find(const std::vector<Finding> &all, llvm::StringRef name) {
  for (const Finding &f : all)
    if (f.invariant == name)
      return f;
  ADD_FAILURE() << "no finding " << name.str();
  return all.front();
}

ProgramModel withLayout(layout::LinearLayout l) {
  ProgramModel m;
  m.name = "p";
  m.layouts.push_back({"the layout", std::move(l)});
  return m;
}

TEST_F(VerifyTest, AccumulatorLayoutIsProved) {
  Prover prover;
  std::vector<Finding> findings;
  proveLayouts(prover, withLayout(layout::mmaAccumulatorLayout(64, 64, 2, 2)),
               findings);
  ASSERT_EQ(findings.size(), 3u);
  for (const Finding &f : findings)
    EXPECT_EQ(f.verdict, Verdict::Proved) << f.invariant << ": " << f.detail;
}

TEST_F(VerifyTest, DuplicatedBasisIsRefutedWithTwoHolders) {
  // Lane bit 0 steps column 1, as register bit 0 does: lane 1 register 0
  // and lane 0 register 1 hold the same element, and some element has no
  // holder.
  layout::LinearLayout good = layout::mmaAccumulatorLayout(16, 8, 1, 1);
  std::vector<layout::LinearLayout::InDim> ins = good.getInDims();
  for (auto &in : ins)
    if (in.name == "lane")
      in.bases[0] = {0, 1};
  Prover prover;
  std::vector<Finding> findings;
  proveLayouts(prover,
               withLayout(layout::LinearLayout(ins, good.getOutDims())),
               findings);
  const Finding &injective = find(findings, "layout.injective");
  EXPECT_EQ(injective.verdict, Verdict::Refuted);
  EXPECT_NE(injective.detail.find("both hold element"), std::string::npos)
      << injective.detail;
  const Finding &covers = find(findings, "layout.covers");
  EXPECT_EQ(covers.verdict, Verdict::Refuted);
  EXPECT_NE(covers.detail.find("is held by no thread"), std::string::npos)
      << covers.detail;
}

TEST_F(VerifyTest, LdmatrixFragmentsAreThePtxOnes) {
  // A K-major lhs stage of 64 rows of 64 bf16 with the 128-byte swizzle,
  // read by ldmatrix.x4; then the same read as the rhs's matrices would be.
  ProgramModel m;
  m.name = "p";
  StageLayout stage;
  stage.operand = "lhs";
  stage.rows = 64;
  stage.rowBytes = 128;
  stage.swizzle = layout::SharedSwizzle::forRows(128, 128);
  m.stages.push_back(stage);
  FragmentLoad load;
  load.stage = "lhs";
  load.isLhs = true;
  load.matrices = layout::ldmatrixMatrixLayout(true);
  load.readerSwizzle = stage.swizzle;
  m.fragments.push_back(load);
  Prover prover;
  std::vector<Finding> findings;
  proveFragments(prover, m, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].verdict, Verdict::Proved) << findings[0].detail;

  m.fragments[0].matrices = layout::ldmatrixMatrixLayout(false);
  findings.clear();
  proveFragments(prover, m, findings);
  EXPECT_EQ(findings[0].verdict, Verdict::Refuted);
  EXPECT_NE(findings[0].detail.find("but mma.sync needs"), std::string::npos);
}

TEST_F(VerifyTest, RepeatedQueryComesFromTheCache) {
  ProgramModel m = withLayout(layout::mmaAccumulatorLayout(32, 32, 1, 2));
  std::vector<Finding> first, again;
  {
    Prover prover;
    proveLayouts(prover, m, first);
  }
  {
    // A fresh context: Z3's term ids differ, the canonical query not.
    Prover prover;
    std::vector<Finding> unrelated;
    proveLayouts(prover, withLayout(layout::mmaOperandALayout()), unrelated);
    proveLayouts(prover, m, again);
  }
  ASSERT_EQ(first.size(), again.size());
  for (size_t i = 0; i < again.size(); ++i) {
    if (again[i].invariant != "layout.covers") { // counted, not queried
      EXPECT_TRUE(again[i].cached) << again[i].invariant;
    }
  }
}

// The cache's key is the formula's structure: formulas that differ only in
// an extract's indices, a numeral, or a variable's width are different
// queries, in one context and across contexts.
TEST_F(VerifyTest, QueriesThatDifferOnlyInIndicesOrWidthsDoNotShareAnAnswer) {
  auto none = [](const z3::model &) { return std::string("a model"); };
  Prover prover;
  z3::context &ctx = prover.context();
  z3::expr x = ctx.bv_const("x", 32);
  EXPECT_EQ(
      prover.prove("t", "same bits", x.extract(3, 3) != x.extract(3, 3), none)
          .verdict,
      Verdict::Proved);
  EXPECT_EQ(
      prover.prove("t", "other bits", x.extract(3, 3) != x.extract(2, 2), none)
          .verdict,
      Verdict::Refuted);
  EXPECT_EQ(prover
                .prove("t", "in range",
                       z3::ugt(x.extract(7, 0), ctx.bv_val(255, 8)), none)
                .verdict,
            Verdict::Proved);
  EXPECT_EQ(prover
                .prove("t", "out of range",
                       z3::ugt(x.extract(7, 0), ctx.bv_val(254, 8)), none)
                .verdict,
            Verdict::Refuted);
  Prover other;
  z3::expr narrow = other.context().bv_const("x", 8);
  EXPECT_EQ(other
                .prove("t", "narrow",
                       z3::ugt(narrow, other.context().bv_val(255, 8)), none)
                .verdict,
            Verdict::Proved);
  z3::expr wide = other.context().bv_const("x", 16);
  Finding widened = other.prove(
      "t", "wide", z3::ugt(wide, other.context().bv_val(255, 16)), none);
  EXPECT_EQ(widened.verdict, Verdict::Refuted);
  EXPECT_FALSE(widened.cached);
}

TEST_F(VerifyTest, PipelineProtocolsOfTheLoweringsAreProved) {
  for (bool producers : {false, true}) {
    ProgramModel m;
    m.name = "p";
    tile::PipelineProtocol p;
    p.stages = 4;
    p.prefetch = 3;
    p.copyWaitPending = 2;
    if (producers) {
      p.kind = tile::PipelineProtocol::Kind::ProducerConsumer;
      p.wgmmaInFlight = 1;
    }
    m.pipeline = p;
    Prover prover;
    std::vector<Finding> findings;
    proveSync(prover, m, findings);
    ASSERT_FALSE(findings.empty());
    for (const Finding &f : findings)
      EXPECT_EQ(f.verdict, Verdict::Proved) << f.invariant << ": " << f.detail;
  }
}

/// wgmma's B over an M/N-major stage of `boxes` TMA boxes (64 of N x 64
/// of K, 8 KiB each), two stages, descriptors as the GEMM lowering plans
/// them.
ProgramModel mnMajorOperand(int64_t boxes) {
  WgmmaPlan plan;
  WgmmaOperandPlan &rhs = plan.rhs.emplace_back();
  rhs.kInnermost = false;
  rhs.rowTile = 64 * boxes;
  rhs.boxes = boxes;
  rhs.boxBytes = 64 * 64 * 2;
  rhs.stageBytes = boxes * rhs.boxBytes;
  plan.stageBytes = rhs.stageBytes;
  DescriptorRead r;
  r.operand = "rhs";
  r.isLhs = false;
  r.kInnermost = false;
  r.rows = rhs.rowTile;
  r.kSteps = 4;
  r.stages = 2;
  r.descriptor = planWgmmaDescriptor(plan, rhs, /*isLhs=*/false, 2);
  r.writerStageBytes = plan.stageBytes;
  r.boxRows = 64, r.rowStride = 2, r.boxBytes = rhs.boxBytes;
  r.kStride = 128, r.boxes = boxes, r.boxK = 64;
  ProgramModel m;
  m.name = "p";
  m.descriptorReads.push_back(r);
  return m;
}

TEST_F(VerifyTest, WgmmaDescriptorsReadWhatTmaWrote) {
  Prover prover;
  std::vector<Finding> findings;
  proveDescriptorReads(prover, mnMajorOperand(2), findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].verdict, Verdict::Proved) << findings[0].detail;
  // TMA writing rows of K 64 bytes apart (as if its box were 32 wide).
  ProgramModel narrow = mnMajorOperand(2);
  narrow.descriptorReads[0].kStride = 64;
  findings.clear();
  proveDescriptorReads(prover, narrow, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].verdict, Verdict::Refuted);
  EXPECT_NE(findings[0].detail.find("wgmma reads shared byte"),
            std::string::npos)
      << findings[0].detail;
}

TEST_F(VerifyTest, DescriptorsReachOnlyTheBoxesIssued) {
  // One box issued of the two the descriptors read: the second box's rows
  // are held by none.
  ProgramModel m = mnMajorOperand(2);
  m.descriptorReads[0].boxes = 1;
  Prover prover;
  std::vector<Finding> findings;
  proveDescriptorReads(prover, m, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].verdict, Verdict::Refuted);
  EXPECT_NE(findings[0].detail.find("which no box the writer issues holds"),
            std::string::npos)
      << findings[0].detail;
}

TEST_F(VerifyTest, BoxesOffTmaAlignmentAreRefuted) {
  // Boxes 8 KiB + 128 bytes apart (the leading byte offset says so): TMA
  // writes them, the descriptors read them. 8 KiB + 8 bytes: a box TMA
  // cannot start there (nor the descriptor's 16-byte units say).
  for (int64_t slack : {128, 8}) {
    ProgramModel m = mnMajorOperand(2);
    DescriptorRead &r = m.descriptorReads[0];
    r.descriptor.leadingBytes = r.boxBytes = 8192 + slack;
    r.writerStageBytes = r.descriptor.stageBytes = 3 * 8192;
    Prover prover;
    std::vector<Finding> findings;
    proveDescriptorReads(prover, m, findings);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].verdict,
              slack == 128 ? Verdict::Proved : Verdict::Refuted)
        << slack << ": " << findings[0].detail;
  }
}

// A sweep's points (softmax's Y written by its rows' threads): every split
// the lowering takes (tile::sweepSplitShape) covers any extent once, and
// a split whose stride is one short, or whose runs overlap the next
// thread's, is refuted with the point written twice.
TEST_F(VerifyTest, SweepSplitsCoverEveryPointOnce) {
  auto sweepOver = [](tile::GroupSplitShape split) {
    ProgramModel m;
    m.name = "softmax_Y";
    m.sweep = SweepModel{"C", std::nullopt, split};
    return m;
  };
  for (auto [threads, run, elements] :
       {std::make_tuple(64, 4, 1), std::make_tuple(64, 1, 1),
        std::make_tuple(32, 8, 1), std::make_tuple(64, 4, 2),
        std::make_tuple(32, 1, 8), std::make_tuple(1, 1, 1)}) {
    Prover prover;
    std::vector<Finding> findings;
    proveCoverage(prover,
                  sweepOver(tile::sweepSplitShape(threads, run, elements)),
                  findings);
    const Finding &sweep = find(findings, "coverage.sweep");
    EXPECT_EQ(sweep.verdict, Verdict::Proved)
        << threads << " " << run << " " << elements << ": " << sweep.detail;
  }
  tile::GroupSplitShape shortStride = tile::sweepSplitShape(64, 1, 1);
  shortStride.stride -= 1;
  tile::GroupSplitShape longRuns = tile::sweepSplitShape(64, 4, 1);
  longRuns.run = longRuns.copies = 5;
  for (const tile::GroupSplitShape &broken : {shortStride, longRuns}) {
    Prover prover;
    std::vector<Finding> findings;
    proveCoverage(prover, sweepOver(broken), findings);
    const Finding &sweep = find(findings, "coverage.sweep");
    EXPECT_EQ(sweep.verdict, Verdict::Refuted);
    EXPECT_NE(sweep.detail.find("C="), std::string::npos) << sweep.detail;
  }
}

} // namespace
