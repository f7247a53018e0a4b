//===- Diagnostics.cpp ----------------------------------------------------===//
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Unicode.h"

using namespace nautilus::frontend;

/// The caret line under `column` (0-based, in bytes) of `line`: a blank of
/// the same display width for each character before it, tabs kept.
static std::string caretLine(llvm::StringRef line, unsigned column) {
  std::string caret;
  llvm::StringRef before = line.take_front(column);
  while (!before.empty()) {
    size_t tab = before.find('\t');
    int width = llvm::sys::unicode::columnWidthUTF8(before.take_front(tab));
    caret.append(width > 0 ? width : before.take_front(tab).size(), ' ');
    if (tab == llvm::StringRef::npos)
      break;
    caret += '\t';
    before = before.drop_front(tab + 1);
  }
  return caret + "^";
}

void Diagnostics::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                        const llvm::Twine &message) {
  llvm::SMDiagnostic d = sourceMgr.GetMessage(loc, kind, message);
  llvm::StringRef line = d.getLineContents();
  // llvm::SourceMgr leaves the caret out under a line with any character
  // that is not ASCII; the caret is what points at the error.
  if (d.getColumnNo() < 0 || llvm::all_of(line, [](char c) {
        return static_cast<unsigned char>(c) < 0x80;
      })) {
    sourceMgr.PrintMessage(os, d);
    return;
  }
  os << d.getFilename() << ":" << d.getLineNo() << ":" << d.getColumnNo() + 1
     << ": "
     << (kind == llvm::SourceMgr::DK_Error     ? "error"
         : kind == llvm::SourceMgr::DK_Warning ? "warning"
                                               : "note")
     << ": " << d.getMessage() << "\n"
     << line << "\n"
     << caretLine(line, d.getColumnNo()) << "\n";
}

void Diagnostics::error(llvm::SMLoc loc, const llvm::Twine &message) {
  ++errors;
  print(loc, llvm::SourceMgr::DK_Error, message);
}

void Diagnostics::warning(llvm::SMLoc loc, const llvm::Twine &message) {
  print(loc, llvm::SourceMgr::DK_Warning, message);
}

void Diagnostics::note(llvm::SMLoc loc, const llvm::Twine &message) {
  print(loc, llvm::SourceMgr::DK_Note, message);
}

void Diagnostics::error(const llvm::Twine &message) {
  ++errors;
  os << "error: " << message << "\n";
}
