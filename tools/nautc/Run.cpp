//===- Run.cpp - nautc run ------------------------------------------------===//
#include "tools/nautc/Commands.h"
#include "llvm/Support/raw_ostream.h"

int nautilus::runRun(const Options &opts) {
  llvm::errs() << "nautc: run needs the cpu backend, which this build lacks\n";
  return kExitUsage;
}
