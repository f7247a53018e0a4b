//===- ComputedOperand.h - A contraction operand evaluated in place -*- C++ -*-===//
//
// A `tile.contract` operand computed by a region (a tile.load of f32 scores
// through exp, rounded to bf16, say) has no buffer to copy from: the
// tensor-core pipelines evaluate the region, element by element, for the
// part of each K step a thread fills, and store the elements into the
// stage's shared memory themselves.
//
// Evaluation comes in two phases so that a pipeline can issue the reads of
// a future step before the current step's matrix multiplies and finish the
// elements (the arithmetic, the conversion) after them, hiding the reads'
// latency behind tensor-core work.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_COMPUTEDOPERAND_H
#define NAUTILUS_CONVERSION_TILETOGPU_COMPUTEDOPERAND_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Region.h"

namespace nautilus {

/// Emits a load of `buffer` at `indices` when they lie inside it, zero
/// otherwise (a read out of range is undefined in the language but never
/// touches memory outside the buffer).
mlir::Value emitGuardedLoad(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value buffer, mlir::ValueRange indices);

/// The same without a branch, for a buffer known not to be empty: indices
/// outside it read its first element instead, and the value read is
/// replaced by zero. Loads in straight-line code can then all be in flight
/// together.
mlir::Value emitClampedLoad(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value buffer, mlir::ValueRange indices);

/// Whether no dimension of `buffer` is 0 (an i1).
mlir::Value emitNonEmpty(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value buffer);

/// Whether `map` (output dims, then the reduced index `kDim`) reads `length`
/// consecutive reduced indices from consecutive elements of `buffer`'s rows
/// in whole 16-byte vectors: the reduced index innermost and nowhere else.
bool readsRunContiguously(mlir::AffineMap map, unsigned kDim, int64_t length,
                          mlir::Value buffer);

/// The `length` consecutive elements of `buffer` from `first`: as vector
/// loads of 16 bytes (of the whole run, if shorter; `length` a power of two
/// or a multiple of 16 bytes) where the whole run lies inside the buffer on
/// a vector's boundary, else `elementByElement()` (guarded loads).
llvm::SmallVector<mlir::Value, 8>
loadRun(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer,
        mlir::ValueRange first, int64_t length,
        llvm::function_ref<llvm::SmallVector<mlir::Value, 8>()>
            elementByElement);

/// A run of consecutive elements along the reduced index, part way through
/// evaluation: each region value as one scalar (the same for the whole run)
/// or one scalar per element.
struct ComputedRun {
  int64_t length = 0;
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value, 8>> values;
};

class ComputedOperand {
public:
  /// `region`: the operand's region (one block taking the reduced index);
  /// `outer`: the scalars its ops use from outside it (buffers, sizes);
  /// `sizeArgs`: the maps' symbols.
  ComputedOperand(mlir::Region &region, const mlir::IRMapping &outer,
                  llvm::ArrayRef<mlir::Value> sizeArgs)
      : region(region), outer(outer), sizeArgs(sizeArgs) {}

  /// Phase one: the reads of the `length` elements at output indices
  /// `dims` (per output dimension) and reduced indices k, k + 1, ...,
  /// k + length - 1, and the ops computing a gather's indices. A load that
  /// does not read the reduced index is read once for the run.
  ComputedRun read(mlir::OpBuilder &b, mlir::Location loc,
                   llvm::ArrayRef<mlir::Value> dims, mlir::Value k,
                   int64_t length);
  /// Phase two: the rest of the region; returns the `length` elements.
  llvm::SmallVector<mlir::Value> finish(mlir::OpBuilder &b, mlir::Location loc,
                                        llvm::ArrayRef<mlir::Value> dims,
                                        ComputedRun &run);
  /// finish, with zero for the elements that contribute nothing: all of
  /// them unless `rowInside`, and those whose reduced index k + e is not
  /// below `extent`.
  llvm::SmallVector<mlir::Value>
  finishInside(mlir::OpBuilder &b, mlir::Location loc,
               llvm::ArrayRef<mlir::Value> dims, ComputedRun &run,
               mlir::Value rowInside, mlir::Value k, mlir::Value extent);

private:
  /// The scalars of region value `v` in `run` (one when uniform over it),
  /// or the outer scalar it names.
  llvm::SmallVector<mlir::Value, 8> scalarsOf(mlir::Value v,
                                              const ComputedRun &run);
  /// Evaluates `op` (not a load) for the run's elements into `run`.
  void evaluate(mlir::OpBuilder &b, mlir::Location loc,
                llvm::ArrayRef<mlir::Value> dims, mlir::Operation &op,
                ComputedRun &run);

  mlir::Region &region;
  const mlir::IRMapping &outer;
  llvm::ArrayRef<mlir::Value> sizeArgs;
};

} // namespace nautilus

#endif
