//===- ContractToMmaSync.h - tile.contract on sm_80 tensor cores -*- C++ -*-===//
//
// The main loop of a `tile.contract` scheduled with `#tile.mma<instr =
// "mma_sync">`, emitted inside the program's gpu.func (see
// ContractToMmaSync.cpp for the pipeline).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_CONTRACTTOMMASYNC_H
#define NAUTILUS_CONVERSION_CONTRACTTOMMASYNC_H

#include "dialects/Tile/TileOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace nautilus {

/// What the contraction's lowering takes from the program's.
struct ContractLoweringContext {
  mlir::gpu::GPUFuncOp func;              // gets the shared-memory buffers
  mlir::Value lhs, rhs, extent;           // the contract's operands, mapped
  llvm::ArrayRef<mlir::Value> sizeArgs;   // the sizes (the maps' symbols)
  llvm::ArrayRef<mlir::Value> tileOrigin; // per output dim, the tile's first index
  mlir::Value threadId;
  tile::ScheduleAttr schedule;
  // The innermost extent of lhs and rhs, from the kernel's sizes (constants
  // when the sizes are bound, so that alignment checks fold away).
  mlir::Value lhsInnerExtent, rhsInnerExtent;
};

/// The shared memory (bytes) the contraction's pipeline needs.
int64_t contractSharedMemoryBytes(tile::ContractOp contract,
                                  tile::ScheduleAttr schedule);

/// Emits the pipelined tensor-core main loop at `b`'s insertion point and
/// returns this thread's accumulators, register r of the mma accumulator
/// layout (mmaAccumulatorLayout) at position r.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerContractToMmaSync(mlir::OpBuilder &b, tile::ContractOp contract,
                       const ContractLoweringContext &context);

} // namespace nautilus

#endif
