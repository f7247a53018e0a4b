//===- ReductionKinds.h - Identities and folds of reductions ---*- C++ -*-===//
#ifndef NAUTILUS_TILE_UTILS_REDUCTIONKINDS_H
#define NAUTILUS_TILE_UTILS_REDUCTIONKINDS_H

#include "dialects/Alg/AlgOps.h"
#include "dialects/Tile/TileOps.h"
#include "mlir/IR/Builders.h"

namespace nautilus {

/// The identity of `kind` (0, 1, -inf or +inf, the extreme integers) as a
/// constant of `type`: a scalar, or a vector splat.
mlir::Value reductionIdentity(mlir::OpBuilder &b, mlir::Location loc,
                              alg::ReductionKind kind, mlir::Type type);

/// `a` folded with `c` by `kind` (NaN-propagating max and min for floats).
mlir::Value combineReduction(mlir::OpBuilder &b, mlir::Location loc,
                             alg::ReductionKind kind, mlir::Value a,
                             mlir::Value c);

/// Points a float sum folds into a fresh partial before adding the partial
/// to its total (emitBlockedSum): the rounding error is then that of a
/// block plus a few ulps, not one that grows with the extent.
constexpr int64_t kSumBlock = 64;

/// Keys the CPU folds a step of a stream (tile.online_reduce): the
/// leaders' update and the repair are paid once a block, while each key's
/// scores and terms (16x1 columns for attention's 16-row tiles) stay in
/// registers through the step. The CPU model counts on it too.
constexpr int64_t kStreamBlock = 8;

/// The program a split reduction, stream or contraction computes its
/// chunks' partial results in, beside `program` (which combines them).
inline std::string partialProgramName(llvm::StringRef program) {
  return (program + "_partial").str();
}

/// The program that combines the partial results of `partial` (named by
/// partialProgramName), or "" where `partial` is not so named.
inline std::string combiningProgramName(llvm::StringRef partial) {
  llvm::StringRef base = partial;
  return base.consume_back("_partial") ? base.str() : std::string();
}

/// Whether `kind` over `element` is a float sum (which lowerings block).
bool isFloatSum(alg::ReductionKind kind, mlir::Type element);

/// A loop over [first, end) in blocks of kSumBlock, carrying `totals`:
/// `block(start, stop, zeros)` folds the points of a block into fresh
/// partials (one per total, starting from the `zeros` given), which are
/// added to the totals with Kahan's compensation. The builder is left
/// after the loop; returns the totals.
llvm::SmallVector<mlir::Value> emitBlockedSum(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value first, mlir::Value end,
    mlir::ValueRange totals,
    llvm::function_ref<llvm::SmallVector<mlir::Value>(
        mlir::Value start, mlir::Value stop, mlir::ValueRange zeros)>
        block);

/// The indices [first, end) of `reduce`'s outermost reduced dimension (of
/// `extent`) that the program whose tile starts at `origin` (per output
/// dimension) folds: [0, extent), or for a split reduction its chunk's,
/// [s x C, min(extent, (s + 1) x C)) with s = origin[split dim].
std::pair<mlir::Value, mlir::Value>
emitReducedRange(mlir::OpBuilder &b, mlir::Location loc, tile::ReduceOp reduce,
                 mlir::Value extent, llvm::ArrayRef<mlir::Value> origin);
/// The same for a stream (tile.online_reduce): its streamed indices.
/// (A stream over an unbound extent, split `in P` parts, computes C at
/// launch: emitStreamChunk.)
std::pair<mlir::Value, mlir::Value>
emitStreamedRange(mlir::OpBuilder &b, mlir::Location loc,
                  tile::OnlineReduceOp stream, mlir::Value extent,
                  llvm::ArrayRef<mlir::Value> origin);
/// The points each chunk of split stream `stream` (of `extent` points)
/// streams: its constant chunk, or, split into `P` parts, ceil(extent / P)
/// rounded up to a multiple of its granule.
mlir::Value emitStreamChunk(mlir::OpBuilder &b, mlir::Location loc,
                            tile::OnlineReduceOp stream, mlir::Value extent);

} // namespace nautilus

#endif
