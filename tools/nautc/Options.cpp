//===- Options.cpp --------------------------------------------------------===//
#include "tools/nautc/Options.h"

#include "llvm/Support/raw_ostream.h"

bool nautilus::blameScheduleFile(const Options &opts) {
  if (opts.schedulePath().empty())
    return false;
  llvm::errs() << "nautc: error: the schedules of '" << opts.schedulePath()
               << "' cannot be lowered (see above)\n";
  return true;
}
