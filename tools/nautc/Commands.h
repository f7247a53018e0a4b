//===- Commands.h - nautc's subcommands ------------------------*- C++ -*-===//
#ifndef NAUTILUS_TOOLS_NAUTC_COMMANDS_H
#define NAUTILUS_TOOLS_NAUTC_COMMANDS_H

#include "tools/nautc/Options.h"

namespace nautilus {
int runCompile(const Options &opts);
int runRun(const Options &opts);
} // namespace nautilus

#endif
