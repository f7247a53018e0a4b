//===- AlgEmitter.h - Checked .tensor kernels to the alg dialect -*- C++ -*-===//
#ifndef NAUTILUS_FRONTEND_ALGEMITTER_H
#define NAUTILUS_FRONTEND_ALGEMITTER_H

#include "compiler/Frontend/Sema.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace nautilus::frontend {

/// Emits one `alg.kernel` into `module` for a kernel that sema accepted.
void emitAlgKernel(mlir::ModuleOp module, const CheckedKernel &kernel,
                   llvm::SourceMgr &sourceMgr);

/// The whole frontend: parses the main buffer of `sourceMgr`, checks it and
/// returns a module of alg kernels, or null after printing diagnostics to
/// `diagOS`.
mlir::OwningOpRef<mlir::ModuleOp>
importTensorFile(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
                 llvm::raw_ostream &diagOS);

} // namespace nautilus::frontend

#endif
