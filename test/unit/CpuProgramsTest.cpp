//===- CpuProgramsTest.cpp - A tile program as the CPU model sees it ------===//
//
// compiler/Schedule/CpuPrograms: what cpuProgramOf and cpuProgramSamplesOf
// read from a tile program's IR.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/CpuPrograms.h"
#include "ParsedModule.h"
#include "compiler/Pipeline/Pipelines.h"
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "dialects/Tile/Utils/StreamSplits.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace nautilus;

namespace {

/// rmsnorm's Y over bf16 (Y[t, d] = X[t, d] * R[t] * g[d]), its sizes
/// bound by a plan when `bindings` is not empty.
std::string rmsnormY(llvm::StringRef bindings) {
  std::string plan =
      bindings.empty()
          ? ""
          : R"(  tile.plan @rms {bindings = {)" + bindings.str() +
                R"(}, buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["T"], name = "R", role = "workspace", type = memref<?xf32>}, {dims = ["D"], name = "g", role = "input", type = memref<?xbf16>}, {dims = ["T", "D"], name = "Y", role = "output", type = memref<?x?xbf16>}], programs = [@rms_Y], sizes = ["T", "D"]}
)";
  return R"(module {
  tile.program @rms_Y attributes {arg_names = ["X", "R", "g", "Y"], output_dims = ["T", "D"], schedule = #tile.schedule<tile = [1, 128], threads = 1>, sizes = ["T", "D"]} {
  ^bb0(%x: memref<?x?xbf16>, %r: memref<?xf32>, %g: memref<?xbf16>, %y: memref<?x?xbf16>, %t: index, %d: index):
    %0 = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<1x128xbf16>
    %1 = arith.extf %0 : vector<1x128xbf16> to vector<1x128xf32>
    %2 = tile.load %r[affine_map<(d0, d1)[s0, s1] -> (d0)>] : memref<?xf32> -> vector<1x128xf32>
    %3 = arith.mulf %1, %2 : vector<1x128xf32>
    %4 = tile.load %g[affine_map<(d0, d1)[s0, s1] -> (d1)>] : memref<?xbf16> -> vector<1x128xbf16>
    %5 = arith.extf %4 : vector<1x128xbf16> to vector<1x128xf32>
    %6 = arith.mulf %3, %5 : vector<1x128xf32>
    %7 = arith.truncf %6 : vector<1x128xf32> to vector<1x128xbf16>
    tile.store %7, %y : vector<1x128xbf16> -> memref<?x?xbf16>
  }
)" + plan +
         "}\n";
}

using Parsed = nautilus::test::ParsedModule;

} // namespace

// An element-wise program's work: its loads and 16-bit widenings count;
// what varies along the columns alone (g[d] loaded and widened) is
// inner-only work, done once for a tile's rows.
TEST(CpuPrograms, SplitsElementWiseWorkByWhatItVariesAlong) {
  Parsed bound(rmsnormY("D = 4096 : i64, T = 1024 : i64"));
  ASSERT_TRUE(bound.module);
  std::optional<autosched::CpuProgram> facts = cpuProgramOf(bound.program());
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->extents, (std::vector<int64_t>{1024, 4096}));
  // X's load and widening, R's load (along the rows), two products, the
  // narrowing.
  EXPECT_EQ(facts->work, 6);
  // g's load and widening.
  EXPECT_EQ(facts->innerOnlyWork, 2);
  EXPECT_FALSE(cpuProgramSamplesOf(bound.program()));
}

// Sizes unbound: no view at bound extents, one at each sample shape.
TEST(CpuPrograms, ViewsUnboundSizesAtSampleShapes) {
  Parsed unbound(rmsnormY(""));
  ASSERT_TRUE(unbound.module);
  EXPECT_FALSE(cpuProgramOf(unbound.program()));
  std::optional<CpuProgramSamples> samples =
      cpuProgramSamplesOf(unbound.program());
  ASSERT_TRUE(samples);
  EXPECT_EQ(samples->unbound, (std::vector<std::string>{"T", "D"}));
  ASSERT_EQ(samples->views.size(), 9u);
  for (size_t shape = 0; shape < 9; ++shape)
    EXPECT_EQ(samples->views[shape].extents,
              (std::vector<int64_t>{autosched::sampleExtentOf(shape, 0, 2),
                                    autosched::sampleExtentOf(shape, 1, 2)}));
  EXPECT_EQ(samples->views.back().extents, (std::vector<int64_t>{4096, 4096}));
  EXPECT_EQ(samples->views.back().innerOnlyWork, 2);
  // One size bound: only the other is sampled.
  Parsed half(rmsnormY("D = 4096 : i64"));
  ASSERT_TRUE(half.module);
  std::optional<CpuProgramSamples> rows = cpuProgramSamplesOf(half.program());
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->unbound, (std::vector<std::string>{"T"}));
  ASSERT_EQ(rows->views.size(), 3u);
  EXPECT_EQ(rows->views.front().extents, (std::vector<int64_t>{32, 4096}));
}

// A row reduction over bf16 rows (rmsnorm's sum of squares) folds along
// its reduced lanes, and reads 16 bits a point (X, loaded once though
// read twice); so does one that reads a vector broadcast down its rows (a
// matrix-vector product's x[k], a contraction).
TEST(CpuPrograms, ReadsWhetherARowReductionFoldsAlongItsLanes) {
  auto reduction = [](llvm::StringRef load, llvm::StringRef term) {
    return R"(module {
  tile.program @k_R attributes {arg_names = ["X", "V", "R"], output_dims = ["T"], schedule = #tile.schedule<tile = [8], threads = 1>, sizes = ["T", "D"]} {
  ^bb0(%x: memref<?x?xbf16>, %v: memref<?xbf16>, %r: memref<?xf32>, %t: index, %d: index):
    %0 = tile.reduce sum over(%d) : vector<8xf32> {
    ^bb0(%k: index):
      %1 = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xbf16> -> vector<8xbf16>
      %2 = arith.extf %1 : vector<8xbf16> to vector<8xf32>
      )" + load.str() +
           R"(
      %4 = arith.mulf %2, )" +
           term.str() + R"( : vector<8xf32>
      tile.yield %4 : vector<8xf32>
    }
    tile.store %0, %r : vector<8xf32> -> memref<?xf32>
  }
  tile.plan @k {bindings = {D = 4096 : i64, T = 4096 : i64}, buffers = [{dims = ["T", "D"], name = "X", role = "input", type = memref<?x?xbf16>}, {dims = ["D"], name = "V", role = "input", type = memref<?xbf16>}, {dims = ["T"], name = "R", role = "output", type = memref<?xf32>}], programs = [@k_R], sizes = ["T", "D"]}
}
)";
  };
  Parsed squares(
      reduction("%3 = arith.constant dense<1.0> : vector<8xf32>", "%2"));
  ASSERT_TRUE(squares.module);
  std::optional<autosched::CpuProgram> facts = cpuProgramOf(squares.program());
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->reducedLaneRows, tile::kMostReducedLaneRows);
  EXPECT_EQ(facts->streamedBits, 16);
  Parsed matvec(
      reduction("%v1 = tile.load %v[affine_map<(d0, d1)[s0, s1] -> (d1)>] : "
                "memref<?xbf16> -> vector<8xbf16>\n      %3 = arith.extf %v1 : "
                "vector<8xbf16> to vector<8xf32>",
                "%3"));
  ASSERT_TRUE(matvec.module);
  facts = cpuProgramOf(matvec.program());
  ASSERT_TRUE(facts);
  // A matrix-vector product (X[t, d] V[d]: V one row shared by the tile's
  // elements) folds too, and is a contraction, whose other tiles keep
  // their lanes along the rows.
  EXPECT_EQ(facts->reducedLaneRows, tile::kMostReducedLaneRows);
  EXPECT_TRUE(facts->contraction);
  EXPECT_EQ(facts->streamedBits, 32);
}

// A row stream (softmax's max and sum) folds along its lanes too: its
// work a step is its body's and a fourth of its repair's (repaired once
// a step of 4 vectors of keys), and it keeps its 2 accumulators and those
// 4 vectors' terms live.
/// A program of softmax's row stream (max and sum) over R x C, its
/// outputs stored, with `beside` at its top level after the stream (its
/// ops may read %x and %c), over the sizes `bindings`.
static std::string rowStreamModule(llvm::StringRef beside,
                                   llvm::StringRef bindings) {
  return (R"(module {
  tile.program @s_L attributes {arg_names = ["X", "L", "Mx"], output_dims = ["R"], schedule = #tile.schedule<tile = [4], threads = 1>, sizes = ["R", "C"]} {
  ^bb0(%x: memref<?x?xf32>, %l: memref<?xf32>, %mx: memref<?xf32>, %rr: index, %c: index):
    %r:2 = tile.online_reduce over(%c) accumulators ["max", "sum"] : vector<4xf32>, vector<4xf32> {
    ^bb0(%key: index, %m: vector<4xf32>):
      %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
      %d = arith.subf %v, %m : vector<4xf32>
      %e = math.exp %d : vector<4xf32>
      tile.yield %v, %e : vector<4xf32>, vector<4xf32>
    } repairs {
    ^bb0(%old: vector<4xf32>, %new: vector<4xf32>):
      %d = arith.subf %old, %new : vector<4xf32>
      %f = math.exp %d : vector<4xf32>
      tile.yield %f : vector<4xf32>
    }
    tile.store %r#0, %mx : vector<4xf32> -> memref<?xf32>
    tile.store %r#1, %l : vector<4xf32> -> memref<?xf32>
)" + beside +
          R"(
  }
  tile.plan @s {bindings = {)" +
          bindings +
          R"(}, buffers = [{dims = ["R", "C"], name = "X", role = "input", type = memref<?x?xf32>}, {dims = ["R"], name = "L", role = "output", type = memref<?xf32>}, {dims = ["R"], name = "Mx", role = "output", type = memref<?xf32>}], programs = [@s_L], sizes = ["R", "C"]}
}
)")
      .str();
}

TEST(CpuPrograms, ReadsWhetherARowStreamFoldsAlongItsLanes) {
  Parsed stream(rowStreamModule("", "C = 1024 : i64, R = 4096 : i64"));
  ASSERT_TRUE(stream.module);
  std::optional<autosched::CpuProgram> facts = cpuProgramOf(stream.program());
  ASSERT_TRUE(facts);
  EXPECT_TRUE(facts->stream);
  EXPECT_EQ(facts->reducedLaneRows, tile::kMostReducedLaneRows);
  EXPECT_EQ(facts->foldedLiveTiles, 2 + tile::kLaneStreamBlock);
  EXPECT_EQ(facts->foldedStepVectors, tile::kLaneStreamBlock);
  // The body's subtraction and exponential (10), and the repair's 11 over
  // the 4 vectors of a step.
  EXPECT_EQ(facts->foldedWork, 11 + 3);
  EXPECT_EQ(facts->streamedBits, 32);
  // Its keys may be split as the heuristics split them: chunks of at least
  // kMinStreamChunk (512) of the 1024, so 2; each chunk stores 2
  // accumulators a row.
  EXPECT_EQ(facts->mostSplit, 2);
  EXPECT_EQ(facts->accumulators, 2);
}

// A stream with a reduction beside it at its program's top level is one
// the splitter refuses (tile::streamSplitShapeRefusal): the model offers
// it no split, however long its rows.
TEST(CpuPrograms, OffersNoSplitTheSplitterRefuses) {
  Parsed beside(rowStreamModule(R"(
    %s = tile.reduce sum over(%c) : vector<4xf32> {
    ^bb0(%k: index):
      %v = tile.load %x[affine_map<(d0, d1)[s0, s1] -> (d0, d1)>] : memref<?x?xf32> -> vector<4xf32>
      tile.yield %v : vector<4xf32>
    }
    tile.store %s, %l : vector<4xf32> -> memref<?xf32>)",
                                "C = 65536 : i64, R = 2 : i64"));
  ASSERT_TRUE(beside.module);
  EXPECT_FALSE(tile::streamSplitShapeRefusal(beside.program()).empty());
  std::optional<autosched::CpuProgram> facts = cpuProgramOf(beside.program());
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->mostSplit, 1);
}

namespace {

/// Attention's fused stream on the CPU (N x D, bf16 operands, f32 out),
/// its sizes bound when `bound`.
std::string attentionStream(bool bound) {
  std::string program = R"(module {
  tile.program @attn_O attributes {arg_names = ["Q", "K", "V", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 64], threads = 1>, sizes = ["N", "D", "M"]} {
  ^bb0(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
    %l2e = arith.constant dense<1.44269502> : vector<16x64xf32>
    %nl2e = arith.constant dense<-1.44269502> : vector<16x64xf32>
    %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<16x64xf32>, vector<16x64xf32>, vector<16x64xf32> {
    ^bb0(%key: index, %mx: vector<16x64xf32>):
      %s = tile.reduce sum over(%d) : vector<16x64xf32> {
      ^bb0(%point: index):
        %qv = tile.load %q[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d0, d3)>] : memref<?x?xbf16> -> vector<16x64xbf16>
        %qw = arith.extf %qv : vector<16x64xbf16> to vector<16x64xf32>
        %kv = tile.load %k[affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> (d2, d3)>] : memref<?x?xbf16> -> vector<16x64xbf16>
        %kw = arith.extf %kv : vector<16x64xbf16> to vector<16x64xf32>
        %qk = arith.mulf %qw, %kw : vector<16x64xf32>
        tile.yield %qk : vector<16x64xf32>
      }
      %scaled = arith.mulf %mx, %nl2e : vector<16x64xf32>
      %t = math.fma %s, %l2e, %scaled : vector<16x64xf32>
      %p = math.exp2 %t : vector<16x64xf32>
      %vv = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x64xbf16>
      %vw = arith.extf %vv : vector<16x64xbf16> to vector<16x64xf32>
      %pv = arith.mulf %p, %vw : vector<16x64xf32>
      tile.yield %s, %pv, %p : vector<16x64xf32>, vector<16x64xf32>, vector<16x64xf32>
    } repairs {
    ^bb0(%old: vector<16x64xf32>, %new: vector<16x64xf32>):
      %diff = arith.subf %new, %old : vector<16x64xf32>
      %arg = arith.mulf %diff, %nl2e : vector<16x64xf32>
      %f = math.exp2 %arg : vector<16x64xf32>
      tile.yield %f, %f : vector<16x64xf32>, vector<16x64xf32>
    }
    %out = arith.divf %r#1, %r#2 : vector<16x64xf32>
    tile.store %out, %o : vector<16x64xf32> -> memref<?x?xf32>
  }
)";
  std::string plan =
      R"(  tile.plan @attn {bindings = {D = 64 : i64, M = 2048 : i64, N = 1024 : i64}, buffers = [{dims = ["N", "D"], name = "Q", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "D"], name = "K", role = "input", type = memref<?x?xbf16>}, {dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@attn_O], sizes = ["N", "D", "M"]}
)";
  return program + (bound ? plan : "") + "}\n";
}

} // namespace

// Attention's fused stream on the CPU (its scores, sum[d] Q[n, d] K[m, d],
// recomputed a key): the model reads its scores' points, its keys widened
// (bf16), its row follower (P V) and its column work, and starts its space
// from the program's own tile. Its sizes unbound, it keeps its own tile
// (no tile over sample shapes: its tile spans the head dimension whole).
TEST(CpuPrograms, ReadsAStreamThatRecomputesItsScores) {
  Parsed attention(attentionStream(/*bound=*/true));
  ASSERT_TRUE(attention.module);
  std::optional<autosched::CpuProgram> facts =
      cpuProgramOf(attention.program());
  ASSERT_TRUE(facts);
  EXPECT_TRUE(facts->stream);
  EXPECT_EQ(facts->extents, (std::vector<int64_t>{1024, 64}));
  EXPECT_EQ(facts->reduced, 2048);
  EXPECT_EQ(facts->scoredPoints, 64);
  EXPECT_TRUE(facts->scoresWiden);
  EXPECT_EQ(facts->operandBits, 16);
  EXPECT_EQ(facts->rowFollowers, 1);
  EXPECT_EQ(facts->blockKeys, 8);
  // The column's work a key: the multiply, the fma and the exp2 (10), the
  // leader's and the denominator's folds, and the repair's 12 over a block.
  EXPECT_EQ(facts->work, 1 + 1 + 10 + 2 + 2);
  EXPECT_EQ(facts->heldTile, (std::vector<int64_t>{16, 64}));
  EXPECT_EQ(facts->accumulators, 3);
  Parsed unbound(attentionStream(/*bound=*/false));
  ASSERT_TRUE(unbound.module);
  EXPECT_FALSE(cpuProgramOf(unbound.program()));
  EXPECT_FALSE(cpuProgramSamplesOf(unbound.program()));
}

// Attention's stream reading its scores stored by another program (S[n,
// m], f32; the structure with S stored): the model reads the bytes
// between S's rows (a column of them gathered a key), V's width, its row
// follower and its column work, and starts from its own tile, the head
// dimension split.
TEST(CpuPrograms, ReadsAStreamOfStoredScores) {
  Parsed attention(R"(module {
  tile.program @attn_O attributes {arg_names = ["V", "S", "O"], output_dims = ["N", "D"], schedule = #tile.schedule<tile = [16, 32], threads = 1>, sizes = ["N", "D", "M"]} {
  ^bb0(%v: memref<?x?xbf16>, %sc: memref<?x?xf32>, %o: memref<?x?xf32>, %n: index, %d: index, %m: index):
    %c = arith.constant dense<0.125> : vector<16x32xf32>
    %nc = arith.constant dense<-0.125> : vector<16x32xf32>
    %r:3 = tile.online_reduce over(%m) accumulators ["max", "sum", "sum"] : vector<16x32xf32>, vector<16x32xf32>, vector<16x32xf32> {
    ^bb0(%key: index, %mx: vector<16x32xf32>):
      %s = tile.load %sc[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d2)>] : memref<?x?xf32> -> vector<16x32xf32>
      %scaled = arith.mulf %mx, %nc : vector<16x32xf32>
      %t = math.fma %s, %c, %scaled : vector<16x32xf32>
      %p = math.exp2 %t : vector<16x32xf32>
      %vv = tile.load %v[affine_map<(d0, d1, d2)[s0, s1, s2] -> (d2, d1)>] : memref<?x?xbf16> -> vector<16x32xbf16>
      %vw = arith.extf %vv : vector<16x32xbf16> to vector<16x32xf32>
      %pv = arith.mulf %p, %vw : vector<16x32xf32>
      tile.yield %s, %pv, %p : vector<16x32xf32>, vector<16x32xf32>, vector<16x32xf32>
    } repairs {
    ^bb0(%old: vector<16x32xf32>, %new: vector<16x32xf32>):
      %diff = arith.subf %new, %old : vector<16x32xf32>
      %arg = arith.mulf %diff, %nc : vector<16x32xf32>
      %f = math.exp2 %arg : vector<16x32xf32>
      tile.yield %f, %f : vector<16x32xf32>, vector<16x32xf32>
    }
    %out = arith.divf %r#1, %r#2 : vector<16x32xf32>
    tile.store %out, %o : vector<16x32xf32> -> memref<?x?xf32>
  }
  tile.plan @attn {bindings = {D = 128 : i64, M = 512 : i64, N = 1024 : i64}, buffers = [{dims = ["M", "D"], name = "V", role = "input", type = memref<?x?xbf16>}, {dims = ["N", "M"], name = "S", role = "workspace", type = memref<?x?xf32>}, {dims = ["N", "D"], name = "O", role = "output", type = memref<?x?xf32>}], programs = [@attn_O], sizes = ["N", "D", "M"]}
}
)");
  ASSERT_TRUE(attention.module);
  std::optional<autosched::CpuProgram> facts =
      cpuProgramOf(attention.program());
  ASSERT_TRUE(facts);
  EXPECT_TRUE(facts->stream);
  EXPECT_TRUE(facts->streamsScores());
  EXPECT_EQ(facts->scoredPoints, 0);
  EXPECT_EQ(facts->storedScoresStrideBytes, 512 * 4);
  EXPECT_EQ(facts->extents, (std::vector<int64_t>{1024, 128}));
  EXPECT_EQ(facts->operandBits, 16);
  EXPECT_EQ(facts->rowFollowers, 1);
  // The column's work a key: the multiply, the fma and the exp2 (10), the
  // leader's and the denominator's folds, and the repair's 12 over a block
  // of 8 (as the scored stream's).
  EXPECT_EQ(facts->work, 1 + 1 + 10 + 2 + 2);
  EXPECT_EQ(facts->heldTile, (std::vector<int64_t>{16, 32}));
}
