//===- RunInputs.h - A run's sizes and input tensors -----------*- C++ -*-===//
//
// What `nautc run` and `nautc tune` run a kernel on: the sizes (from
// --shape and the inputs given) and the input tensors (read from --input
// files, the others drawn from --seed).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TOOLS_NAUTC_RUNINPUTS_H
#define NAUTILUS_TOOLS_NAUTC_RUNINPUTS_H

#include "compiler/Pipeline/ExitCode.h"
#include "dialects/Alg/AlgOps.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/HostTensor.h"
#include "tools/nautc/Options.h"

#include <vector>

namespace nautilus {

/// A run's inputs: the kernel's signature, the sizes, and the input
/// tensors (read from --input files, the others drawn).
struct RunInputs {
  KernelSignature sig;
  SizeValues sizes;
  std::vector<rt::HostTensor> tensors;
  double bytes = 0; // inputs and outputs (twice with --check)
};

/// Reads the inputs given, resolves the sizes (and checks the kernel's
/// requirements and the memory the run takes), then draws the others;
/// without `draw`, resolves the sizes only (nothing will run here).
/// Returns an exit code; a user error is printed.
int prepareInputs(const Options &opts, alg::KernelOp kernel, RunInputs &run,
                  bool draw = true);

} // namespace nautilus

#endif
