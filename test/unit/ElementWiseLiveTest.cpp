//===- ElementWiseLiveTest.cpp - Registers an element-wise tile keeps ---===//
//
// compiler/Schedule/ElementWiseLive: the values live across each operation
// of an element-wise program's body, and the special functions' expansions.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/ElementWiseLive.h"
#include "CpuModelHost.h"
#include "ParsedModule.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Transforms/LLVM/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <gtest/gtest.h>

using namespace nautilus;
using autosched::LivePoint;

namespace {

using Parsed = nautilus::test::ParsedModule;

/// An element-wise program over a 64 x 8192 f32 output Y[t, d] whose
/// `body` reads the buffers `args` (each `name: type`, read as `%name`),
/// stores %y, and whose tile is 4 x 64.
std::string elementWise(const std::string &args, const std::string &names,
                        const std::string &body) {
  return R"(module {
  tile.program @k_Y attributes {arg_names = [)" +
         names +
         R"(, "Y"], output_dims = ["T", "D"], schedule = #tile.schedule<tile = [4, 64], threads = 1>, sizes = ["T", "D"]} {
  ^bb0()" +
         args +
         R"(, %y: memref<?x?xf32>, %t: index, %d: index):
)" + body +
         R"(  }
}
)";
}

const char *kBoth = "affine_map<(d0, d1)[s0, s1] -> (d0, d1)>";
const char *kRow = "affine_map<(d0, d1)[s0, s1] -> (d0)>";
const char *kInner = "affine_map<(d0, d1)[s0, s1] -> (d1)>";

std::string load(const std::string &result, const std::string &buffer,
                 const std::string &map, const std::string &type) {
  return "    " + result + " = tile.load " + buffer + "[" + map +
         "] : " + type + " -> vector<4x64xf32>\n";
}

/// The widest registers of `points` at `rows` x `vectors`.
int64_t widest(const std::vector<LivePoint> &points, int64_t rows,
               int64_t vectors) {
  int64_t most = 0;
  for (const LivePoint &p : points)
    most = std::max(most, p.registers(rows, vectors));
  return most;
}

} // namespace

// A + B: one read folds into the add, the other takes a tile.
TEST(ElementWiseLive, OneReadOfTwoFolds) {
  std::string m = "memref<?x?xf32>";
  Parsed p(elementWise("%a: " + m + ", %b: " + m, R"("A", "B")",
                       load("%0", "%a", kBoth, m) + load("%1", "%b", kBoth, m) +
                           "    %2 = arith.addf %0, %1 : vector<4x64xf32>\n"
                           "    tile.store %2, %y : vector<4x64xf32> -> "
                           "memref<?x?xf32>\n"));
  ASSERT_TRUE(p.module);
  std::vector<LivePoint> points = elementWiseLivePoints(p.program(), 1, 32);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].tiles, 1);
  EXPECT_EQ(points[0].innerVectors, 0);
  EXPECT_EQ(points[0].rowValues, 0);
}

// A * B + C * E: A * B is live while C * E is computed (two tiles, where
// the reads that vary along both would have counted five until model
// version 13).
TEST(ElementWiseLive, AProductLiveAcrossAnother) {
  std::string m = "memref<?x?xf32>";
  Parsed p(elementWise(
      "%a: " + m + ", %b: " + m + ", %c: " + m + ", %e: " + m,
      R"("A", "B", "C", "E")",
      load("%0", "%a", kBoth, m) + load("%1", "%b", kBoth, m) +
          "    %2 = arith.mulf %0, %1 : vector<4x64xf32>\n" +
          load("%3", "%c", kBoth, m) + load("%4", "%e", kBoth, m) +
          "    %5 = arith.mulf %3, %4 : vector<4x64xf32>\n"
          "    %6 = arith.addf %2, %5 : vector<4x64xf32>\n"
          "    tile.store %6, %y : vector<4x64xf32> -> memref<?x?xf32>\n"));
  ASSERT_TRUE(p.module);
  std::vector<LivePoint> points = elementWiseLivePoints(p.program(), 1, 32);
  EXPECT_EQ(widest(points, 4, 4), 32);
  EXPECT_EQ(widest(points, 2, 4), 16);
}

// layernorm's Y, (X - Mu) * rsqrt(Var + eps) * g + b: a tile and a value
// a row (Mu's read folds into the subtraction; the scale's row values, g's
// and b's vectors each at its use): 4 x 64 keeps 16 + 4 registers, where
// the reads along the innermost dimension each counted a tile until model
// version 13 (64).
TEST(ElementWiseLive, LayernormOutputCountsRowsAndColumnsApart) {
  std::string m = "memref<?x?xf32>", v = "memref<?xf32>";
  Parsed p(elementWise(
      "%x: " + m + ", %g: " + v + ", %b: " + v + ", %mu: " + v + ", %var: " + v,
      R"("X", "g", "b", "Mu", "Var")",
      "    %cst = arith.constant dense<1.0e-05> : vector<4x64xf32>\n" +
          load("%0", "%x", kBoth, m) + load("%1", "%mu", kRow, v) +
          "    %2 = arith.subf %0, %1 : vector<4x64xf32>\n" +
          load("%3", "%var", kRow, v) +
          "    %4 = arith.addf %3, %cst : vector<4x64xf32>\n"
          "    %5 = math.rsqrt %4 : vector<4x64xf32>\n"
          "    %6 = arith.mulf %2, %5 : vector<4x64xf32>\n" +
          load("%7", "%g", kInner, v) +
          "    %8 = arith.mulf %6, %7 : vector<4x64xf32>\n" +
          load("%9", "%b", kInner, v) +
          "    %10 = arith.addf %8, %9 : vector<4x64xf32>\n"
          "    tile.store %10, %y : vector<4x64xf32> -> memref<?x?xf32>\n"));
  ASSERT_TRUE(p.module);
  std::vector<LivePoint> points = elementWiseLivePoints(p.program(), 1, 32);
  EXPECT_LE(widest(points, 4, 4), 28);
  EXPECT_GT(widest(points, 4, 8), 28);
  EXPECT_GT(widest(points, 8, 4), 28);
}

// The special functions' factors are what the legalize-math pass's
// expansion keeps live, in the order it emits: each expanded on one
// vector, every value a vector of registers.
TEST(ElementWiseLive, SpecialFunctionTilesMatchTheExpansion) {
  for (std::string name :
       {"exp", "exp2", "expm1", "tanh", "log", "log2", "log1p", "erf", "erfc",
        "powf", "rsqrt", "sqrt", "absf"}) {
    std::string operands = name == "powf" ? "%x, %x" : "%x";
    std::string ir = "func.func @f(%x: vector<16xf32>) -> vector<16xf32> {\n"
                     "  %y = math." +
                     name + " " + operands +
                     " : vector<16xf32>\n  return %y : vector<16xf32>\n}\n";
    Parsed original(ir), expanded(ir);
    ASSERT_TRUE(original.module && expanded.module);
    mlir::PassManager pm(expanded.context.get());
    pm.addPass(createLegalizeMath());
    pm.addPass(mlir::createCSEPass()); // as the pipeline runs after it
    ASSERT_TRUE(mlir::succeeded(pm.run(*expanded.module)));
    auto f = *expanded.module->getOps<mlir::func::FuncOp>().begin();
    // Expanded whole: no special function is left to count itself.
    f.walk([&](mlir::Operation *op) {
      EXPECT_EQ(specialFunctionTiles(op), 1)
          << op->getName().getStringRef().str();
    });
    // (A constant, the same in every lane, is an operand in memory.)
    auto widthOf = [](mlir::Value value) {
      LivePoint width;
      mlir::Operation *def = value.getDefiningOp();
      if (mlir::isa<mlir::VectorType>(value.getType()) &&
          !(def && def->hasTrait<mlir::OpTrait::ConstantLike>()))
        width.tiles = 1;
      return width;
    };
    int64_t most = 1;
    for (const LivePoint &point : livePointsOf(f.getBody().front(), widthOf))
      most = std::max(most, point.tiles);
    mlir::Operation *op =
        &(*original.module->getOps<mlir::func::FuncOp>().begin())
             .getBody()
             .front()
             .front();
    EXPECT_EQ(specialFunctionTiles(op), most) << name;
  }
}
