//===- Widening.h - A body's float arithmetic computed in f64 ---*- C++ -*-===//
//
// A stream led by a mean (Welford/Chan) is as accurate as two passes only
// if its running mean is: in f32, each update of a mean near 10^4 rounds
// by up to 2^-11, and after a few hundred updates the variance centred on
// it is off by 1e-4 of itself where two passes are off by 3e-7 (rows of
// 4096 values near 10^4 with unit variance). So alg-fuse-reductions
// computes such a stream in f64: its loads and constants are extended,
// its arithmetic is f64, and its accumulators are. Conversions to a
// narrower type in the body keep their rounding.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TRANSFORMS_ALG_WIDENING_H
#define NAUTILUS_TRANSFORMS_ALG_WIDENING_H

#include "mlir/IR/Block.h"
#include "mlir/Support/LogicalResult.h"

namespace nautilus {

/// Rewrites `block` (an alg body) so that every float value it computes is
/// an f64. Fails, changing nothing, when the block has an op it cannot
/// widen: one with regions, or a float op outside arith, math and alg.load.
mlir::LogicalResult widenToF64(mlir::Block &block);

} // namespace nautilus

#endif
