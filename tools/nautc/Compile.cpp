//===- Compile.cpp - nautc compile ----------------------------------------===//
#include "compiler/Pipeline/LoadKernel.h"
#include "tools/nautc/Commands.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace nautilus;

int nautilus::runCompile(const Options &opts) {
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts, context, sourceMgr, /*bindShape=*/true, loaded))
    return rc;

  std::string text;
  llvm::raw_string_ostream os(text);
  if (opts.emit == "alg") {
    loaded.module->print(os);
  } else {
    llvm::errs() << "nautc: --emit " << opts.emit
                 << " is not available in this build\n";
    return kExitUsage;
  }
  std::string path = opts.output.empty() ? "-" : opts.output;
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "nautc: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return kExitUserError;
  }
  out.os() << text;
  out.keep();
  return kExitSuccess;
}
