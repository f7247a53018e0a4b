//===- ContractionStream.h - A stream that is two contractions --*- C++ -*-===//
//
// A stream (alg.online_reduce, or its tile form) whose body recomputes a
// contraction, and whose followers' terms are either values of its row or
// such a value times an operand read along the output's innermost
// dimension: attention, where the scores are `sum[d](Q[n, d] K[m, d])`,
// the row terms `exp(S - Mx)` (L) and the other term `exp(S - Mx) V[m, d]`
// (O). On a GPU such a stream is one flash kernel: the scores come from a
// tensor-core contraction over a block of the streamed index, the row's
// leaders and sums stay in registers, and the other terms are a second
// contraction over the block, of P with the read operand
// (compiler/Conversion/TileToGPU/StreamToMmaSync.cpp).
//
// The analysis is written once for both forms: alg-fuse-reductions asks it
// of the alg stream (whether a GPU runs the stream, or keeps the
// reductions apart), the GPU lowering of the tile stream it became. What
// differs between the two is behind StreamBodyView.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TILE_UTILS_CONTRACTIONSTREAM_H
#define NAUTILUS_TILE_UTILS_CONTRACTIONSTREAM_H

#include "dialects/Alg/AlgOps.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace nautilus {

/// A read of a buffer in a stream's body: its map over (the output
/// dimensions, the streamed index, then a nested reduction's indices).
struct StreamRead {
  mlir::Operation *op = nullptr;
  mlir::Value buffer;
  mlir::AffineMap map;
  mlir::Type element;
};

/// What one form of the IR gives the analysis.
struct StreamBodyView {
  /// The output's rank (the streamed index is dimension `rank`).
  unsigned rank = 0;
  /// A load (without gathered indices) as a StreamRead; std::nullopt for
  /// other ops (a gathered load is refused by `gathers`).
  std::function<std::optional<StreamRead>(mlir::Operation *)> asRead;
  std::function<bool(mlir::Operation *)> gathers;
  /// A nested sum: its body block (std::nullopt for other ops, or
  /// another kind of reduction, which `isReduction` still reports).
  std::function<mlir::Block *(mlir::Operation *)> asNestedSum;
  std::function<bool(mlir::Operation *)> isReduction;
  /// The domain dimensions an index op reads (tile.index, alg.apply, a
  /// broadcast of the streamed index); std::nullopt for other ops.
  std::function<std::optional<llvm::SmallVector<unsigned>>(mlir::Operation *)>
      indexDims;
  /// The domain dimension of a block argument of the body (std::nullopt
  /// for a leader's value).
  std::function<std::optional<unsigned>(mlir::BlockArgument)> argumentDim;
};

/// The roles in a contraction stream.
struct ContractionStream {
  /// The nested sum (the scores) and the two reads it multiplies: `lhs`
  /// does not read the streamed index, `rhs` does; both read the nested
  /// index innermost.
  mlir::Operation *scores = nullptr;
  StreamRead lhs, rhs;
  /// The read the second contraction multiplies by (V), when a follower
  /// has such a term.
  std::optional<StreamRead> value;
  /// Per accumulator: for a follower whose term is `factor * value`, the
  /// factor (a value of the row: P); null for leaders and row terms.
  llvm::SmallVector<mlir::Value> factors;
};

/// The contraction stream of `body` (yielding one term per accumulator;
/// `isLeader[i]` for accumulator i), or failure with `why`.
mlir::FailureOr<ContractionStream>
analyseContractionStream(mlir::Block &body, llvm::ArrayRef<bool> isLeader,
                         const StreamBodyView &view, std::string &why);

/// The contraction stream of a tile.online_reduce in a program of rank
/// `rank`, or failure with `why`.
mlir::FailureOr<ContractionStream>
analyseTileStream(tile::OnlineReduceOp stream, unsigned rank, std::string &why);

/// The view of an alg.online_reduce's body, and of a tile.online_reduce's.
StreamBodyView algStreamView(alg::OnlineReduceOp stream);
StreamBodyView tileStreamView(tile::OnlineReduceOp stream, unsigned rank);

/// Why a GPU cannot run `stream` as a flash kernel (its leaders and sums
/// in registers, both contractions on tensor cores), or the empty string
/// when it can. `headDim`: the output's innermost extent where bound.
std::string flashStreamRefusal(alg::OnlineReduceOp stream,
                               std::optional<int64_t> headDim);

/// Why a GPU cannot run `stream` at all, or the empty string when it can:
/// a stream whose body recomputes a reduction (a contraction) as a flash
/// kernel (flashStreamRefusal), any other as a row stream, each output
/// element's points streamed by a group of threads that then merge their
/// leaders and repaired sums (TileToGPU/ElementStreams.cpp: softmax's
/// maximum and denominator in one pass).
/// `tensorCores`: whether the target's lowering has the flash kernel's
/// tensor-core contractions (NVIDIA's).
std::string gpuStreamRefusal(alg::OnlineReduceOp stream,
                             std::optional<int64_t> headDim, bool tensorCores);

/// Whether `stream`'s body recomputes a reduction (attention's scores): a
/// GPU runs it as a flash kernel, else as a row stream.
bool recomputesReduction(alg::OnlineReduceOp stream);

/// Why the flash kernel of `stream` (in a program of rank `rank`, its sizes
/// `sizes` where known, by position) cannot hold `heads` heads a tile
/// (output dimension rank - 3; the tile copies each K and V block once, at
/// its first head's rows, so every read of the keys and values must be one
/// row over each aligned tile of `heads` heads: grouped-query attention's
/// K[b, h floordiv (H floordiv G), m, d] with `heads` dividing H / G), or
/// the empty string when it can.
std::string flashHeadsRefusal(tile::OnlineReduceOp stream, unsigned rank,
                              int64_t heads,
                              llvm::ArrayRef<std::optional<int64_t>> sizes);

/// A TMA tensor map a wgmma flash kernel reads its operand rows through.
struct FlashTensorMap {
  StreamRead read;
  /// Elements a box takes of each buffer dimension, innermost first: 64
  /// (one 128-byte swizzle span) of the innermost, the keys of a block (K,
  /// V) or the program's rows (Q) of the dimension the map reads them
  /// along, 1 of the others.
  llvm::SmallVector<int64_t> box;
};

/// The tensor maps of `program`, a flash kernel with a wgmma schedule,
/// in the order its kernel takes them (after its sizes): K, V, then Q;
/// empty when it has none (another program, or operands whose rows a
/// box cannot follow: the copies are then cp.async).
llvm::SmallVector<FlashTensorMap> flashTensorMaps(tile::ProgramOp program);

/// The head dimensions the flash kernel takes: powers of two from 16 to
/// 256 (its output accumulators stay in registers, in the mma
/// accumulator layout of a power-of-two tile).
inline bool isFlashHeadDim(int64_t d) {
  return d >= 16 && d <= 256 && (d & (d - 1)) == 0;
}

} // namespace nautilus

#endif
