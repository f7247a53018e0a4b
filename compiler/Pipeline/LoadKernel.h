//===- LoadKernel.h - From a .tensor file to one alg kernel ----*- C++ -*-===//
#ifndef NAUTILUS_PIPELINE_LOADKERNEL_H
#define NAUTILUS_PIPELINE_LOADKERNEL_H

#include "compiler/Pipeline/Options.h"
#include "dialects/Alg/AlgOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace nautilus {

struct LoadedKernel {
  mlir::OwningOpRef<mlir::ModuleOp> module; // holds only `kernel`
  alg::KernelOp kernel;
};

/// Reads `opts.file`, runs the frontend, keeps the kernel named by `-k` (or
/// the only one) and binds the sizes of `opts.shape` when `bindShape`.
/// Prints diagnostics to stderr and returns an ExitCode.
int loadKernel(const Options &opts, mlir::MLIRContext &context,
               llvm::SourceMgr &sourceMgr, bool bindShape, LoadedKernel &out);

/// Binds `sizes` in the module's kernel (the alg-bind-sizes pass): constants
/// for the sizes, the `require`s checked. Diagnostics go to the context's
/// handler.
mlir::LogicalResult bindSizes(mlir::ModuleOp module,
                              const std::map<std::string, int64_t> &sizes);

/// Registers every dialect the pipelines use.
void registerNautilusDialects(mlir::MLIRContext &context);

} // namespace nautilus

#endif
