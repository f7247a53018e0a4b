//===- SharedObjectLink.cpp - An object file linked by a system tool ------===//
#include "compiler/Pipeline/SharedObjectLink.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace nautilus;

std::string nautilus::linkSharedObject(const std::string &linker,
                                       const std::string &object,
                                       const std::vector<std::string> &extra,
                                       const std::string &what,
                                       std::string &out) {
  llvm::SmallString<128> objectPath, outputPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("nautilus", "o", fd, objectPath) ||
      llvm::sys::fs::createTemporaryFile("nautilus", "so", outputPath))
    return "cannot create temporary files to link " + what;
  llvm::FileRemover removeObject(objectPath), removeOutput(outputPath);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
  }
  llvm::SmallVector<llvm::StringRef> argv = {linker, "-shared", "-o",
                                             outputPath, objectPath};
  for (const std::string &arg : extra)
    argv.push_back(arg);
  std::string message;
  if (llvm::sys::ExecuteAndWait(linker, argv, std::nullopt, {}, 0, 0,
                                &message) != 0)
    return "'" + linker + " -shared' failed to link " + what +
           (message.empty() ? "" : ": " + message);
  auto bytes = llvm::MemoryBuffer::getFile(outputPath, /*IsText=*/false);
  if (!bytes)
    return "cannot read " + what + " once linked";
  out = (*bytes)->getBuffer().str();
  return "";
}
