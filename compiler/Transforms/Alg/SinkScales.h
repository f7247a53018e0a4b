//===- SinkScales.h - Whether a scale can move into the readers -*- C++ -*-===//
//
// The analysis of alg-sink-scales, for alg-factor-reductions: a max or min
// that leads a stream must not keep a factor in its epilogue (a stream's
// leader has none), so its factors leave its term only when the reads of
// it would take them on.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_SINKSCALES_H
#define NAUTILUS_TRANSFORMS_ALG_SINKSCALES_H

#include "dialects/Alg/AlgOps.h"
#include <string>

namespace nautilus {

/// A reduction over the same indices as `def` that reads it in its term
/// (a stream could follow `def`), or null.
alg::DefineOp streamFollowerOf(alg::DefineOp def);

/// Whether every read of `def` would take a positive scale of it, as
/// alg-sink-scales moves one (`def` not being an output); `why` says why
/// not.
bool readsTakeScale(alg::DefineOp def, std::string &why);

} // namespace nautilus

#endif
