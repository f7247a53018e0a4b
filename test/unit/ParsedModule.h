//===- ParsedModule.h - A module parsed from text, for unit tests -*- C++
//-*-===//
#ifndef NAUTILUS_TEST_UNIT_PARSEDMODULE_H
#define NAUTILUS_TEST_UNIT_PARSEDMODULE_H

#include "compiler/Pipeline/Pipelines.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <memory>
#include <string>

namespace nautilus::test {

/// `ir` parsed in a context of its own with the pipeline's dialects;
/// `module` is null where it does not parse (the diagnostics went to
/// stderr).
struct ParsedModule {
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  explicit ParsedModule(const std::string &ir) {
    registerPipelineDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    context->loadAllAvailableDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(ir, context.get());
  }
  /// The module's first tile program.
  tile::ProgramOp program() {
    return *module->getOps<tile::ProgramOp>().begin();
  }
};

} // namespace nautilus::test

#endif
