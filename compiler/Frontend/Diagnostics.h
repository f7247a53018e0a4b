//===- Diagnostics.h - Errors with file, line, column and caret -*- C++ -*-===//
//
// Every frontend error goes through here and prints as
//   FILE:LINE:COL: error: MESSAGE
//   <the source line>
//        ^
// llvm::SourceMgr does the formatting (this class draws the caret itself
// under a line that is not all ASCII, where SourceMgr leaves it out); it
// counts the errors and lets tests capture the text.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_FRONTEND_DIAGNOSTICS_H
#define NAUTILUS_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace nautilus::frontend {

class Diagnostics {
public:
  Diagnostics(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
      : sourceMgr(sourceMgr), os(os) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message);
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  /// A warning: printed, not counted (the input is still accepted).
  void warning(llvm::SMLoc loc, const llvm::Twine &message);
  /// An error with no position in the source (for example a --shape value).
  void error(const llvm::Twine &message);

  unsigned errorCount() const { return errors; }
  bool hadError() const { return errors != 0; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
             const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned errors = 0;
};

} // namespace nautilus::frontend

#endif
