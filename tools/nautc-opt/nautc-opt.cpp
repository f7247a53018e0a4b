//===- nautc-opt.cpp - mlir-opt with Nautilus's dialects and passes -------===//
#include "compiler/Conversion/Passes.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Alg/AlgOps.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<nautilus::alg::AlgDialect, nautilus::tile::TileDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::vector::VectorDialect, mlir::memref::MemRefDialect>();
  nautilus::registerNautilusPasses();
  nautilus::registerNautilusConversionPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Nautilus optimizer driver\n", registry));
}
