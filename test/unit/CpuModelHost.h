//===- CpuModelHost.h - The host the CPU model's unit tests pin -*- C++ -*-===//
//
// The host CPU as the CPU model's tests see it, whatever machine runs them:
// AVX-512, two threads, Zen 4's caches (32 KiB L1d of 8 ways, 1 MiB L2) and
// pipes (integer operations off the FMA ports), the machine the model's
// terms were fitted on.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TEST_UNIT_CPUMODELHOST_H
#define NAUTILUS_TEST_UNIT_CPUMODELHOST_H

#include "compiler/Target/Target.h"

namespace nautilus::test {

inline TargetInfo avx512Host() {
  TargetInfo target = *getTarget("cpu");
  target.vectorBits = 512;
  target.multiprocessors = 2;
  target.l1DataBytes = 32 << 10;
  target.l1Ways = 8;
  target.l2Bytes = 1 << 20;
  target.scalarOpsShareFmaPorts = false;
  return target;
}

} // namespace nautilus::test

#endif
