//===- LoadKernel.cpp -----------------------------------------------------===//
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Frontend/AlgEmitter.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "dialects/Alg/KernelSignature.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace nautilus;

void nautilus::registerNautilusDialects(MLIRContext &context) {
  context.loadDialect<alg::AlgDialect, arith::ArithDialect,
                      math::MathDialect>();
}

int nautilus::loadKernel(const KernelSource &opts, MLIRContext &context,
                         llvm::SourceMgr &sourceMgr, bool bindShape,
                         LoadedKernel &out, llvm::raw_ostream &errs) {
  if (!opts.text.empty()) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(opts.text, opts.file),
        llvm::SMLoc());
  } else {
    auto buffer =
        llvm::MemoryBuffer::getFileOrSTDIN(opts.file, /*IsText=*/true);
    if (std::error_code ec = buffer.getError()) {
      errs << "nautc: cannot read '" << opts.file << "': " << ec.message()
           << "\n";
      return kExitUserError;
    }
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  }
  registerNautilusDialects(context);
  context.printOpOnDiagnostic(false); // users see their source, not our IR
  out.module = frontend::importTensorFile(sourceMgr, context, errs);
  if (!out.module)
    return kExitUserError;

  SmallVector<alg::KernelOp> kernels(out.module->getOps<alg::KernelOp>());
  std::string names;
  for (alg::KernelOp k : kernels)
    names += (names.empty() ? "" : ", ") + k.getSymName().str();
  if (opts.kernel.empty()) {
    if (kernels.size() > 1) {
      errs << "nautc: '" << opts.file << "' defines several kernels ("
                   << names << "); choose one with -k NAME\n";
      return kExitUsage;
    }
    out.kernel = kernels.front();
  } else {
    for (alg::KernelOp k : kernels)
      if (k.getSymName() == opts.kernel)
        out.kernel = k;
    if (!out.kernel) {
      errs << "nautc: '" << opts.file << "' has no kernel '"
                   << opts.kernel << "' (its kernels: " << names << ")\n";
      return kExitUserError;
    }
  }
  for (alg::KernelOp k : kernels)
    if (k != out.kernel)
      k.erase();

  out.structuralHash = structuralHash(out.kernel);
  if (!bindShape)
    return kExitSuccess;
  // With no --shape the pass only checks the literal extents' byte sizes.
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, errs);
  return failed(bindSizes(*out.module, opts.shape)) ? kExitUserError
                                                    : kExitSuccess;
}

LogicalResult
nautilus::bindSizes(ModuleOp module,
                    const std::map<std::string, int64_t> &sizes) {
  PassManager pm(module.getContext());
  AlgBindSizesOptions options;
  options.sizes = formatShapeList(sizes);
  pm.addNestedPass<alg::KernelOp>(createAlgBindSizes(options));
  return pm.run(module);
}

std::string nautilus::structuralHash(alg::KernelOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  kernel->print(os, OpPrintingFlags().enableDebugInfo(false));
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true,
                         /*Width=*/16);
}
