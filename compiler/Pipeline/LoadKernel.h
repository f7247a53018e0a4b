//===- LoadKernel.h - From a .tensor file to one alg kernel ----*- C++ -*-===//
#ifndef NAUTILUS_PIPELINE_LOADKERNEL_H
#define NAUTILUS_PIPELINE_LOADKERNEL_H

#include "compiler/Pipeline/ExitCode.h"
#include "dialects/Alg/AlgOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <string>

namespace nautilus {

/// Which kernel to load: the .tensor file ("-": standard input), the
/// kernel's name (empty: the file's only one) and the sizes to bind.
struct KernelSource {
  std::string file; // the path, or the name diagnostics give `text`
  std::string kernel;
  std::map<std::string, int64_t> shape;
  /// The source itself; when empty, `file` is read ("-": stdin).
  std::string text = {};
};

struct LoadedKernel {
  mlir::OwningOpRef<mlir::ModuleOp> module; // holds only `kernel`
  alg::KernelOp kernel;
  /// The kernel's structural hash before any size was bound (a tuning
  /// database's key: structuralHash).
  std::string structuralHash;
};

/// A hash of `kernel`'s alg IR as printed without locations: the same
/// for the same definitions, whatever the file, its comments or its
/// layout; different when an operation, a type or a name differs. 16 hex
/// digits.
std::string structuralHash(alg::KernelOp kernel);

/// Reads `source.file`, runs the frontend, keeps the kernel `source.kernel`
/// names (or the only one) and binds the sizes of `source.shape` when
/// `bindShape`. Prints diagnostics to stderr and returns an ExitCode.
/// Parses the source, keeps the kernel it names (the only one when none is
/// named) and binds its shape when `bindShape`. Returns an exit code
/// (ExitCode.h); errors are written to `errs`.
int loadKernel(const KernelSource &source, mlir::MLIRContext &context,
               llvm::SourceMgr &sourceMgr, bool bindShape, LoadedKernel &out,
               llvm::raw_ostream &errs = llvm::errs());

/// Binds `sizes` in the module's kernel (the alg-bind-sizes pass): constants
/// for the sizes, the `require`s checked. Diagnostics go to the context's
/// handler.
mlir::LogicalResult bindSizes(mlir::ModuleOp module,
                              const std::map<std::string, int64_t> &sizes);

/// Registers every dialect the pipelines use.
void registerNautilusDialects(mlir::MLIRContext &context);

} // namespace nautilus

#endif
