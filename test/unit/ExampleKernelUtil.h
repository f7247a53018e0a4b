//===- ExampleKernelUtil.h - Example kernels, for unit tests ---*- C++ -*-===//
#ifndef NAUTILUS_TEST_UNIT_EXAMPLEKERNELUTIL_H
#define NAUTILUS_TEST_UNIT_EXAMPLEKERNELUTIL_H

#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <string>

namespace nautilus::test {

/// Kernel `kernel` of examples/`file` with its sizes bound to `shape`, in
/// a context of its own with the pipeline's dialects; `loaded()` says
/// whether it loaded (the diagnostics went to stderr).
struct ExampleKernel {
  ExampleKernel(const std::string &file, const std::string &kernel,
                std::map<std::string, int64_t> shape)
      : context(registry()) {
    KernelSource source{std::string(NAUTILUS_EXAMPLES) + "/" + file, kernel,
                        std::move(shape)};
    status =
        loadKernel(source, context, sourceMgr, /*bindShape=*/true, kernelOf);
  }
  bool loaded() const { return status == 0; }
  mlir::ModuleOp module() { return *kernelOf.module; }

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  LoadedKernel kernelOf;
  int status = 1;

private:
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerPipelineDialects(r);
    return r;
  }
};

} // namespace nautilus::test

#endif
