//===- Contractions.h - tile.contract in a kernel ---------------*- C++ -*-===//
//
// A tile.contract with a tensor-core schedule: the checks of what the
// target allows, what its main loop (ContractLowering.h) takes from the
// program's lowering, and the dispatch to the mma.sync or wgmma pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_CONTRACTIONS_H
#define NAUTILUS_CONVERSION_TILETOGPU_CONTRACTIONS_H

#include "compiler/Conversion/TileToGPU/KernelContext.h"

namespace nautilus {
namespace tiletogpu {

/// What the contraction's lowering takes from the program's (creating
/// the evaluators of computed operands).
ContractLoweringContext contractContext(KernelContext &kernel,
                                        tile::ContractOp contract);

/// This thread's accumulators of `contract` and of its siblings
/// (tile::siblingContracts, in their order; register r of the mma
/// accumulator layout at position r), from one pipeline; failure, with a
/// diagnostic, where the schedule or the target does not allow it.
mlir::FailureOr<llvm::SmallVector<Fragment>>
lowerContract(KernelContext &kernel, tile::ContractOp contract);

} // namespace tiletogpu
} // namespace nautilus

#endif
