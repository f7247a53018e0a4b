//===- Options.cpp --------------------------------------------------------===//
#include "compiler/Pipeline/Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

std::string nautilus::parseShapeList(const std::string &text,
                                     std::map<std::string, int64_t> &shape) {
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(text).split(items, ',', -1, /*KeepEmpty=*/false);
  if (items.empty())
    return "--shape needs NAME=VALUE pairs, e.g. --shape M=128,N=64";
  for (llvm::StringRef item : items) {
    auto [name, value] = item.split('=');
    name = name.trim();
    value = value.trim();
    if (name.empty() || value.empty())
      return "--shape: expected NAME=VALUE, found '" + item.str() + "'";
    unsigned long long v = 0;
    if (value.getAsInteger(10, v))
      return "--shape: the value of " + name.str() + " must be a positive "
             "integer, found '" + value.str() + "'";
    if (v == 0 || v > static_cast<unsigned long long>(INT64_MAX))
      return "--shape: " + name.str() + "=" + value.str() +
             " is out of range (integer overflow in sizes: a size must be "
             "between 1 and 2^63-1)";
    shape[name.str()] = static_cast<int64_t>(v);
  }
  return "";
}

bool nautilus::blameScheduleFile(const Options &opts) {
  if (opts.schedulePath().empty())
    return false;
  llvm::errs() << "nautc: error: the schedules of '" << opts.schedulePath()
               << "' cannot be lowered (see above)\n";
  return true;
}
