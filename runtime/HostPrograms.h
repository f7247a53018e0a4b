//===- HostPrograms.h - Running a plan's programs on the host --*- C++ -*-===//
//
// On the host, each program of a launch plan is a function that runs the
// tiles [first, last) of its grid. Its packed entry point takes a pointer
// to each parameter (PackedArgs.h), then to `first` and to `last`. The CPU
// device (a bundle's shared library) and `nautc run --device cpu` (the ORC
// JIT) both launch the programs here: in plan order, each grid split into
// equal contiguous ranges over the host's threads (kept between launches:
// HostWorkers.h).
//
// Plain C++17; no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_HOSTPROGRAMS_H
#define NAUTILUS_RUNTIME_HOSTPROGRAMS_H

#include "runtime/LaunchPlan.h"

#include <string>
#include <vector>

namespace nautilus::rt {

/// A host program's packed entry point.
using PackedProgram = void (*)(void **);

/// The name of program `program`'s packed entry point in a host library.
std::string packedEntryName(const std::string &program);

/// Runs `programs` (one entry point for each of plan.programs) with the
/// parameters `args` (PackedArgs::pointers) on `threads` host threads (0:
/// every hardware thread). `sizes` hold every size, derived ones included.
void runHostPrograms(const LaunchPlan &plan, const SizeValues &sizes,
                     const std::vector<void *> &args,
                     const std::vector<PackedProgram> &programs,
                     unsigned threads = 0);

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_HOSTPROGRAMS_H
