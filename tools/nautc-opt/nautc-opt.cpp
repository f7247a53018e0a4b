//===- nautc-opt.cpp - mlir-opt with Nautilus's dialects and passes -------===//
//
// Drives any pass or pipeline on its own, for lit tests and for compiler
// engineers: Nautilus's dialects, passes and named pipelines
// (nautilus-alg-to-tile, nautilus-tile-to-host-llvm, nautilus-tile-to-nvvm,
// ...), and upstream MLIR's passes.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/Passes.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Target/Passes.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/LLVM/Passes.h"
#include "compiler/Transforms/Tile/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  nautilus::registerPipelineDialects(registry);
  mlir::registerAllPasses();
  nautilus::registerNautilusAlgTransformsPasses();
  nautilus::registerNautilusTileTransformsPasses();
  nautilus::registerNautilusLLVMTransformsPasses();
  nautilus::registerNautilusConversionPasses();
  nautilus::registerNautilusTargetPasses();
  nautilus::registerNautilusPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Nautilus optimizer driver\n", registry));
}
