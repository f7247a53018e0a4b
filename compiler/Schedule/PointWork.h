//===- PointWork.h - What an operation costs the models at a point -*- C++
//-*-===//
//
// The CPU and GPU models (CpuPrograms.h, GpuPrograms.h) count the work of
// a point of a program's body the same way: this says how each operation
// counts.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_POINTWORK_H
#define NAUTILUS_SCHEDULE_POINTWORK_H

#include "mlir/IR/Operation.h"

namespace nautilus {

enum class PointWork {
  None,            // the tile dialect's ops (loads, indices, yields),
                   // widenings and constants
  Operation,       // any other arithmetic (a math.fma, absf, copysign,
                   // floor, ceil, trunc or roundeven too)
  SpecialFunction, // another math function (exp, log, tanh, rsqrt, ...)
};

/// How `op`, in a program's body, counts in the work of a point.
PointWork pointWorkOf(mlir::Operation *op);

} // namespace nautilus

#endif
