//===- ExitCode.h - The exit statuses of every nautilus tool ---*- C++ -*-===//
//
// The pipeline's helpers that face a user (loading a kernel) return these,
// and the tools exit with them.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_EXITCODE_H
#define NAUTILUS_PIPELINE_EXITCODE_H

namespace nautilus {

enum ExitCode : int {
  kExitSuccess = 0,
  kExitUserError = 1, // an error in the user's input, with a diagnostic
  kExitUsage = 2,     // bad command-line usage
  kExitInternal = 3,  // a bug in nautilus
  kExitMismatch = 4,  // `run --check`: the results differ from the reference
  kExitRefuted = 5,   // `verify`: an invariant refuted (or undecided)
};

} // namespace nautilus

#endif
