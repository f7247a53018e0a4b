//===- PtxMerge.cpp - Several PTX modules as one ---------------------------===//
#include "compiler/Pipeline/PtxMerge.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

using namespace nautilus;

/// Whether `line` starts a function (a kernel or a device function).
static bool startsFunction(llvm::StringRef line) {
  line = line.ltrim();
  for (llvm::StringRef linkage : {".visible ", ".weak ", ".extern "})
    if (line.consume_front(linkage))
      break;
  return line.starts_with(".entry ") || line.starts_with(".func ") ||
         line.starts_with(".entry\t") || line.starts_with(".func\t");
}

std::string nautilus::mergePtxModules(llvm::ArrayRef<std::string> modules) {
  std::string out;
  llvm::StringSet<> declared;
  for (auto [i, text] : llvm::enumerate(modules)) {
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(text).split(lines, '\n');
    bool inFunctions = false;
    for (llvm::StringRef line : lines) {
      inFunctions = inFunctions || startsFunction(line);
      llvm::StringRef trimmed = line.trim();
      if (!inFunctions) {
        // The declarations: the first module's all; the others' new ones.
        bool header = trimmed.starts_with(".version") ||
                      trimmed.starts_with(".target") ||
                      trimmed.starts_with(".address_size");
        bool fresh = declared.insert(trimmed).second;
        if (i > 0 && (header || !fresh || trimmed.empty() ||
                      trimmed.starts_with("//")))
          continue;
      }
      out += line;
      out += '\n';
    }
  }
  return out;
}
