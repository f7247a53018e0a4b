//===- KernelText.h - An alg kernel from source text, for unit tests -*- C++
//-*-===//
#ifndef NAUTILUS_TEST_UNIT_KERNELTEXT_H
#define NAUTILUS_TEST_UNIT_KERNELTEXT_H

#include "compiler/Frontend/AlgEmitter.h"
#include "dialects/Alg/AlgOps.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace nautilus::test {

/// A `.tensor` source imported to the alg dialect; `messages` holds the
/// frontend's diagnostics when it fails.
struct KernelText {
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string messages;

  /// The first kernel of `text`, or null.
  alg::KernelOp compile(llvm::StringRef text) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.tensor"),
        llvm::SMLoc());
    llvm::raw_string_ostream os(messages);
    module = frontend::importTensorFile(sourceMgr, context, os);
    if (!module)
      return nullptr;
    return *module->getOps<alg::KernelOp>().begin();
  }
};

} // namespace nautilus::test

#endif
