//===- SiblingContracts.h - Contractions sharing an lhs tile ----*- C++ -*-===//
//
// alg-fuse-shared-operands computes a gated MLP's gate and up projections
// in one definition; on NVIDIA GPUs tile-form-contractions makes each a
// `tile.contract` of one program, both loading the same lhs. Such sibling
// contractions run in one tensor-core pipeline (mma.sync's or wgmma's): a
// stage holds the lhs tile once and each sibling's rhs tile, and each
// sibling keeps its own accumulators. The GPU lowering, the shared-memory
// budget, the verifier and the auto-scheduler's GPU model ask this.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_SIBLINGCONTRACTS_H
#define NAUTILUS_TILE_UTILS_SIBLINGCONTRACTS_H

#include "dialects/Tile/TileOps.h"

namespace nautilus::tile {

/// Whether `a` and `b` may share one pipeline: the same lhs buffer at the
/// same map, over the same extent, both operands of each loaded (not
/// computed), the same offset tables or none (a mixture of experts'
/// weights, each by the tile's expert), neither split.
bool shareLhsTile(ContractOp a, ContractOp b);

/// Whether extents `a` and `b` are the same: one value, or two constants
/// of one value (each reduction of a literal extent has its own).
bool sameExtent(mlir::Value a, mlir::Value b);

/// The contractions of `contract`'s block that share its lhs tile
/// (shareLhsTile), in the block's order, `contract` among them: one for a
/// contraction alone.
llvm::SmallVector<ContractOp> siblingContracts(ContractOp contract);

/// Whether `program`'s contractions are one group of siblings (or fewer
/// than two): what the GPU lowering runs. When not, one that is not a
/// sibling of the first.
ContractOp contractOutsideSiblings(ProgramOp program);

} // namespace nautilus::tile

#endif
