//===- Diagnostics.cpp ----------------------------------------------------===//
#include "compiler/Frontend/Diagnostics.h"

using namespace nautilus::frontend;

void Diagnostics::error(llvm::SMLoc loc, const llvm::Twine &message) {
  ++errors;
  sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Error, message);
}

void Diagnostics::note(llvm::SMLoc loc, const llvm::Twine &message) {
  sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Note, message);
}

void Diagnostics::error(const llvm::Twine &message) {
  ++errors;
  os << "error: " << message << "\n";
}
