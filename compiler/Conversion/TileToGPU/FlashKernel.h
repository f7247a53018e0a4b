//===- FlashKernel.h - The flash kernel's lowering, shared by its parts -*- C++
//-*-===//
//
// The lowering of a contraction stream to one flash kernel (see
// StreamToMmaSync.cpp for what it makes), split by concern: the main loop
// and the online softmax (StreamToMmaSync.cpp), the copies of Q, K and V
// by cp.async or TMA and the key range (FlashCopies.cpp), the wgmma
// contractions of sm_90 (FlashWgmma.cpp), and the softmax overlapped with
// the previous block's P V (`overlap_softmax`: FlashOverlap.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_CONVERSION_TILETOGPU_FLASHKERNEL_H
#define NAUTILUS_CONVERSION_TILETOGPU_FLASHKERNEL_H

#include "compiler/Conversion/TileToGPU/ContractLowering.h"
#include "compiler/Conversion/TileToGPU/KernelContext.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/PipelineProtocol.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <optional>

namespace nautilus {
namespace tiletogpu {

using mlir::ArrayRef;
using mlir::Block;
using mlir::DenseMap;
using mlir::FailureOr;
using mlir::IRMapping;
using mlir::Location;
using mlir::MutableArrayRef;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::SmallVector;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;
namespace arith = mlir::arith;

/// A row of the flash kernel's tile in the output: its index along the
/// rows' dimension (rank - 2) and along the one before (rank - 3: the
/// head, null at rank 2). A tile holding several heads of a group (tile
/// [..., h, n, D], h > 1) has h x n rows, row-major.
struct OutputRow {
  Value head, row;
};

/// Where one score element of a thread sits: its output row and key.
struct ScorePlace {
  OutputRow at;
  Value key, keyInside; // index, i1
  unsigned half;        // 0: the quad's row, 1: 8 rows below
};

class FlashLowering {
public:
  FlashLowering(KernelContext &kernel, tile::OnlineReduceOp stream,
                ContractionStream roles)
      : kernel(kernel), b(kernel.b), loc(stream.getLoc()), stream(stream),
        roles(std::move(roles)), body(stream.getBody().front()) {}

  FailureOr<SmallVector<Fragment>> run();

private:
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32Type(),
                                     b.getF32FloatAttr(v));
  }

  void setUp();
  /// The buffer indices of `read` at the output row `at` (the tile's
  /// other output dims at its origin, the innermost at `inner`), key
  /// `key` and nested index `nested` (null where the map has none).
  SmallVector<Value> indicesOf(const StreamRead &read, OutputRow at,
                               Value inner, Value key, Value nested);
  /// Whether `indices` (of `read` in `buffer`) lie inside the buffer along
  /// the batch and head, where a where(...) on those coordinates guards
  /// the read (else nothing to check: null).
  Value guardedHeadsInside(const StreamRead &read, Value buffer,
                           ArrayRef<Value> indices);
  /// Row `rowInTile` (0 .. rows - 1) of the tile in the output.
  OutputRow outputRow(Value rowInTile);
  /// Whether output row `at` lies inside the output's extents.
  Value insideOutput(OutputRow at);
  Value packPair(Value lo, Value hi);
  /// The element offset of stored row `row`, 16-byte chunk `chunk` of
  /// `tile`'s `stage`: its rows swizzled whole (mma.sync), or in panels of
  /// 64 columns (wgmma's descriptors).
  Value stagedOffset(const StagedTile &tile, Value stage, Value row,
                     Value chunk);
  /// The wgmma matrix descriptor `d` (of sharedPlan) of `stage` at k step
  /// `kStep`, `groupBytes` (i32: a warpgroup's rows) further.
  Value descriptor(const WgmmaDescriptorPlan &d, Value stage, int64_t kStep,
                   Value groupBytes = Value());
  /// acc += A B on wgmma: A from registers (4 of them) or by its
  /// descriptor (one i64), B by its descriptor. `fresh`: acc = A B, the
  /// accumulators written but not read (scale-d 0, no tied inputs: no
  /// zeros to set inside the wgmma pipeline, where ptxas would serialise
  /// it).
  void emitWgmma(MutableArrayRef<Value> acc, ArrayRef<Value> a,
                 Value bDescriptor, bool transposeB, bool fresh = false);
  /// Commits the wgmma group and waits for it.
  void waitForWgmma(MutableArrayRef<Value> acc);
  /// Q's A fragments, read with key block `firstBlock`'s copies.
  void loadQuery(Value firstBlock);
  /// The keys the stream's mask leaves some row of the tile: [first, end)
  /// (uniform over the block).
  std::pair<Value, Value> keyRange();
  /// Issues the copies of key block `block` into `stage` (one group; by
  /// TMA, Q's boxes too `withQuery`).
  void copyBlock(Value block, Value stage, bool withQuery = false);
  /// TMA: tensor map `which`'s boxes (a panel each) of rows from
  /// `firstRow` to `destinationBytes` of the dynamic shared memory.
  void issueBoxes(unsigned which, Value firstRow, Value destinationBytes,
                  Value stage);
  /// TMA: the mbarrier of `stage` ("full": its copies landed), and their
  /// initialisation; with a producer warpgroup, the stage's "empty" one
  /// (the consumers released it).
  Value barrierPointer(Value stage);
  Value emptyPointer(Value stage);
  void initBarriers();
  /// The producer's copies: every block from `firstBlock` on, Q's with
  /// the first, a stage reused once the consumers released it.
  void produceBlocks(Value firstBlock);
  /// The main loop over the blocks from `firstBlock` (carrying `init`,
  /// the stage last): the accumulators it leaves (not the stage).
  SmallVector<Value> mainLoop(Value firstBlock, ValueRange init);
  /// A producer warpgroup, which ends with its copies, and the consumers'
  /// main loop; the builder is left in the consumers' branch, where the
  /// rest of the program follows.
  SmallVector<Value> warpSpecialized(Value firstBlock, ValueRange init);
  /// Ping-pong: the consumer warpgroups' turn barriers, and the second's
  /// arrival that gives the first its first turn.
  void setUpTurns(Value firstBlock);
  /// `bar.arrive barrier, kTurnThreads` (the intrinsic the emulator takes).
  void emitTurnArrive(Value barrier);
  Value one() { return arith::ConstantIntOp::create(b, loc, 1, 1); }
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }

  /// Copies `read`'s rows of keys [firstKey, firstKey + tile_k) into
  /// `tile`'s `stage`, keys past the streamed extent zero-filled; or, with
  /// a null `firstKey`, the tile's output rows (Q's), those outside the
  /// output zero-filled.
  void copyRows(const StreamRead &read, const StagedTile &tile, Value stage,
                Value firstKey);
  SmallVector<Value> scores(Value stage);
  /// Classifies the body's ops: those evaluated a score element at a time
  /// (`early`: reading no leader; `late`), and the values they serve.
  void planEvaluation();
  Value valueAt(Value v, IRMapping &map, const ScorePlace *place);
  void evaluate(Operation &op, IRMapping &map, const ScorePlace *place);
  Value foldQuad(alg::ReductionKind kind, Value v);
  /// A block's scores, each element's place, and its evaluation so far.
  struct BlockScores {
    SmallVector<Value> values;
    SmallVector<ScorePlace> places;
    SmallVector<IRMapping> maps;
  };
  /// A value of each of the thread's two rows.
  using RowPair = std::array<Value, 2>;
  BlockScores placeScores(Value block, Value stage, bool masked);
  void evaluateAll(ArrayRef<Operation *> ops, BlockScores &scored);
  /// Each leader's new running value into `updated` (carried first), and
  /// the old and new values read safely.
  void foldLeaders(BlockScores &scored, ValueRange carried,
                   MutableArrayRef<Value> updated,
                   SmallVector<RowPair> &oldSafe,
                   SmallVector<RowPair> &newSafe);
  /// The repair of each follower, by accumulator index.
  DenseMap<unsigned, RowPair> repairFactors(ArrayRef<RowPair> oldSafe,
                                            ArrayRef<RowPair> newSafe);
  /// P's A fragments for the block (4 registers each 16 keys), the
  /// follower's factor `term` rounded to V's type.
  SmallVector<SmallVector<Value, 4>> valueFragments(Value term,
                                                    BlockScores &scored);
  /// acc += P V for the block, P the follower's factor `term`.
  void contractWithValues(Value term, BlockScores &scored, Value stage,
                          MutableArrayRef<Value> acc);
  /// wgmma: issues acc += P V from P's `fragments` and V's `stage`; the
  /// caller commits and waits.
  void issueValues(ArrayRef<SmallVector<Value, 4>> fragments, Value stage,
                   MutableArrayRef<Value> acc);

  // overlap_softmax (FlashOverlap.cpp). The loop carries, after the
  // accumulators, each contracted follower's P of the previous block (as
  // i32 A registers) and that block's stage; a step issues their P V
  // after its Q K^T (scores(), through `deferred`), waits for the scores
  // only, runs its softmax, then waits for P V and repairs O. The first
  // step's P is zero, over its own stage.
  struct DeferredValues {
    SmallVector<SmallVector<SmallVector<Value, 4>>> p; // a follower's
    Value stage;
    SmallVector<Value> *carried = nullptr; // the step's carried values
  };
  bool overlapSoftmax = false;
  std::optional<DeferredValues> deferred;
  /// The A registers of a block's P (a follower's).
  int64_t pRegisters() const { return keyBlock / 16 * 4; }
  /// The accumulators the loop carries before the deferred values.
  unsigned accumulatorCount() const {
    return 2 * (leaders.size() + rowSums.size()) +
           contracted.size() * headTiles * 4;
  }
  /// The contracted followers' accumulators (O's) among `carried` (a
  /// follower's headTiles x 4 after the other's).
  MutableArrayRef<Value>
  contractedAccumulators(MutableArrayRef<Value> carried) {
    return carried.slice(2 * (leaders.size() + rowSums.size()),
                         contracted.size() * headTiles * 4);
  }
  /// Waits for the deferred P V: O's accumulators in `carried` tied to
  /// the wait.
  void waitForDeferred(MutableArrayRef<Value> carried);
  /// The deferred values' initial state (P zero, stage 0).
  void appendDeferredInit(SmallVector<Value> &init);
  /// Reads the deferred values from a step's `carried` (which it updates).
  void beginOverlappedStep(SmallVector<Value> &carried);
  /// scores(): the deferred P V, issued and committed after Q K^T's group.
  void issueDeferred();
  /// After the softmax: waits for the deferred P V (its O tied, the P it
  /// read held to the wait), and stores this block's P and `stage` as the
  /// next step's deferred values.
  void endOverlappedStep(BlockScores &scored, Value stage,
                         SmallVector<Value> &updated);
  /// After the loop: the last block's P V where there was a block; the
  /// accumulators without the deferred values.
  SmallVector<Value> drainDeferred(ValueRange finals, Value firstBlock);
  /// One block's step: the accumulators carried by the loop, updated.
  /// Unless `masked`, every key of the block is inside the chunk and
  /// passes the mask's key bounds for every row: neither is evaluated.
  SmallVector<Value> step(Value block, Value stage, ValueRange carried,
                          bool masked);
  SmallVector<Fragment> results(ValueRange finals);

  KernelContext &kernel;
  OpBuilder &b;
  Location loc;
  tile::OnlineReduceOp stream;
  ContractionStream roles;
  Block &body;
  unsigned rank = 0;
  // The tile's rows: `heads` (along rank - 3) of `headRows` each.
  int64_t rows = 0, heads = 1, headRows = 0;
  int64_t headDim = 0, keyBlock = 0, keyTiles = 0, headTiles = 0;
  Type element;
  Value lane, warp, quadRow, quadColumn, extent;
  // Producer warpgroups (0 or 1, before the consumers), and the thread's
  // index among the computing threads.
  int64_t producers = 0;
  Value computing;
  // Ping-pong: the two consumer warpgroups meet at a turn barrier (both
  // warpgroups' threads), this one's and the other's ids (i32), whether
  // this is the second, and whether this step's issue hands over the turn.
  static constexpr int64_t kTurnThreads = 256;
  bool pingPong = false;
  Value ownTurn, otherTurn, secondConsumer, arriveAfterIssue;
  Value endBlock;             // the blocks past the last a row sees
  Value chunkFirst, chunkEnd; // the keys streamed (a split's chunk)
  // The keys every row of the tile sees (inside the chunk, every mask's
  // comparison true), and those comparisons.
  Value fullFirst, fullEnd;
  SmallVector<Operation *> maskComparisons;
  tile::PipelineProtocol protocol;
  StagedTile keyStages, valueStages;
  // wgmma: both contractions on wgmma, K and V read by descriptors.
  bool wgmma = false;
  Value sharedAddress;                    // i32
  FlashWgmmaPlan sharedPlan; // K's and V's stages, Q's region, descriptors
  StagedTile queryRegion;
  // TMA (sm_90 with tensor maps): K, V and Q by boxes on mbarriers.
  bool tma = false;
  SmallVector<FlashTensorMap> maps;
  Value sharedBase;
  int64_t barrierBytes = 0; // the stages' mbarriers
  // mma.sync: K's and V's fragments, each ldmatrix at a base and an
  // immediate.
  std::optional<StagedFragmentLoader> keyLoader, valueLoader;
  SmallVector<Value> queryFragments; // D / 16 x 4 registers
  SmallVector<unsigned> leaders, rowSums, contracted;
  llvm::SetVector<Operation *> early, late;
  DenseMap<Value, Value> outsideScalars;
};

} // namespace tiletogpu
} // namespace nautilus

#endif
