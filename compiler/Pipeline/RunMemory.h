//===- RunMemory.h - Whether a run fits in the machine's memory -*- C++ -*-===//
//
// What a run of a kernel allocates on the host (inputs, outputs, the
// reference's outputs, the launch plan's workspaces), checked before
// anything is allocated, so that a run too large fails with the sizes to
// change rather than by the system's out-of-memory killer.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_RUNMEMORY_H
#define NAUTILUS_PIPELINE_RUNMEMORY_H

#include "dialects/Alg/KernelSignature.h"
#include "runtime/LaunchPlan.h"

#include <string>

namespace nautilus {

/// The bytes a run's inputs and outputs take (outputs twice with `check`:
/// the reference computes its own).
double tensorBytes(const KernelSignature &sig, const SizeValues &sizes,
                   bool check);

/// The launch plan's workspaces at these sizes: their bytes, and the
/// largest of them.
struct Workspaces {
  double bytes = 0, largestBytes = 0;
  std::string largest;
};
Workspaces workspaceBytes(const rt::LaunchPlan &plan,
                          const SizeValues &kernelSizes);

/// An error when the run's `tensors` bytes (inputs and outputs) and
/// `workspaces` need more memory than the machine has; "" otherwise.
std::string checkMemory(double tensors, const Workspaces &workspaces = {});

} // namespace nautilus

#endif
