//===- ProgramLowering.h - one tile.program as host vector code -*- C++ -*-===//
//
// Each tile.program becomes a func.func that runs a range of program ids:
//
//   func @P(buffers..., sizes..., %first: index, %last: index)
//     for %pid = %first to %last: the program at %pid
//
// so the runtime can split the grid among host threads. A tile stays a
// vector. A tile.load reads only along the output dimensions its index map
// depends on and broadcasts along the others (A[m, k] is a column, B[k, n] a
// row); along a contiguous innermost dimension it is one masked vector load
// per row, otherwise a masked gather (Loads.cpp). tile.reduce is a loop nest
// carrying the accumulator tile (ProgramLowering.cpp); tile.online_reduce a
// loop over blocks of the streamed index (StreamLowering.cpp), the reads of
// a reduction nested in it staged in scratch buffers (StagedReads.cpp);
// tile.store is a masked vector store per row. With `pack`, a contraction's
// rhs is read from a panel copied once a column of tiles (PackedPanels.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_COMPILER_CONVERSION_TILETOCPU_PROGRAMLOWERING_H
#define NAUTILUS_COMPILER_CONVERSION_TILETOCPU_PROGRAMLOWERING_H

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/PackedPanel.h"
#include "dialects/Tile/Utils/StreamMasks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace nautilus::cpu {

/// A tile.load being lowered: the buffer it reads and the part of the tile
/// its values depend on.
struct TileLoad {
  tile::LoadOp op;
  mlir::Value buffer;
  mlir::MemRefType memType;
  mlir::VectorType fullType; // the loaded tile
  mlir::AffineMap map;
  bool indirect = false; // some buffer indices are read from tiles
  /// The tile extent along the output dimensions the map involves (all if
  /// indirect), 1 along the others; and its number of elements.
  llvm::SmallVector<int64_t> shape;
  int64_t count = 1;
};

/// For each output dimension, whether a value varies along it.
using Varies = llvm::SmallVector<bool, 4>;

/// The keys of a block of a stream being lowered together: each has its
/// own mapping of the body's values, swapped into `mapping` while an op is
/// lowered for it (selectKey).
struct StreamKeys {
  llvm::SmallVector<mlir::IRMapping> mappings;
  llvm::SmallVector<mlir::Value> indices; // each key's index
  unsigned level = 0; // the streamed index's position in reducedIVs
  int selected = -1;  // the key whose mapping is `mapping`; -1: none
};

class ProgramLowering {
public:
  /// `vectorBits`: the host's vector width (the reduced lanes' count).
  ProgramLowering(tile::ProgramOp program, int64_t vectorBits)
      : program(program), b(program.getContext()),
        tileShape(program.getSchedule().getTile()), rank(program.getRank()),
        knownSymbols(tile::knownSizeValues(program)), vectorBits(vectorBits) {}

  mlir::LogicalResult run();

private:
  mlir::LogicalResult lowerBlock(mlir::Block &block);
  mlir::LogicalResult lowerOp(mlir::Operation &op);

  // Loads and stores (Loads.cpp).
  mlir::Value lowerLoad(tile::LoadOp op);
  /// `op` as lowerLoad sees it at valueShape.
  TileLoad describeLoad(tile::LoadOp op);
  // The forms of a load, from the cheapest (see lowerLoad).
  /// The element for the whole tile (or of a rank-0 buffer), broadcast.
  mlir::Value loadOneElement(const TileLoad &load);
  /// Whether along the innermost output dimension the load reads
  /// consecutive elements of the buffer's innermost dimension (a gathered
  /// load too, where its gathered indices are the same along it: a
  /// mixture of experts' W[ids[t, j], d, f], a row an expert).
  bool hasContiguousRows(const TileLoad &load);
  /// Whether the tile `v` is the same along output dimension `d` (a
  /// uniform tile, a load whose map is uniform over the tile along it:
  /// tile::isUniformOverTile, a tile.index of another dimension, or a cast
  /// of one).
  bool isUniformAlong(mlir::Value v, unsigned d);
  /// One masked vector load per row of the dependent shape.
  mlir::Value loadRows(const TileLoad &load, llvm::ArrayRef<mlir::Value> stride,
                       mlir::Value flat);
  /// One clamped scalar load per element of the dependent shape (with
  /// `zeroOutside`, an element whose indices lie outside the buffer is
  /// zero: bools, whatever their indices).
  mlir::Value loadElements(const TileLoad &load, bool zeroOutside = false);
  /// The one element of a rank-0 tile read at gathered indices.
  mlir::Value loadGatheredElement(const TileLoad &load);
  /// The buffer indices `load` reads at: a gathered position's from
  /// `gathered` (given the gathered value), the others from `mapped`
  /// (given their map result).
  llvm::SmallVector<mlir::Value>
  loadIndices(const TileLoad &load,
              llvm::function_ref<mlir::Value(mlir::Value)> gathered,
              llvm::function_ref<mlir::Value(mlir::AffineExpr)> mapped);
  /// A masked gather over the dependent shape.
  mlir::Value loadGather(const TileLoad &load,
                         llvm::ArrayRef<mlir::Value> stride, mlir::Value flat);
  /// The buffer indices of the element at `offset` from the program's base
  /// (at the current reduction indices); a gathered position's from its
  /// index tile's element there.
  llvm::SmallVector<mlir::Value> loadIndices(const TileLoad &load,
                                             llvm::ArrayRef<int64_t> offset);
  /// `v` (a tile of a sub-shape) broadcast to `fullType`.
  mlir::Value broadcastToTile(mlir::Value v, mlir::VectorType fullType);
  void lowerStore(tile::StoreOp store);
  /// Stores the lanes of `row` that `rowMask` keeps at `flat[start + lane]`,
  /// each alone (a bool's row: see lowerStore).
  void storeEachLane(mlir::Value row, mlir::Value flat, mlir::Value start,
                     mlir::Value rowMask);

  // Contractions' rhs panels packed (PackedPanels.cpp).
  /// A packed panel: the load it replaces, how that reads its buffer,
  /// and the panel's buffer [rows, tile].
  struct PackedPanel {
    tile::LoadOp load;
    tile::PanelLayout layout;
    mlir::Value panel;
  };
  /// Finds the loads the schedule's `pack` asks to pack (sets `packed`:
  /// one, or one a contraction side by side); fails where there is none.
  mlir::LogicalResult findPackedPanels();
  /// Before the loop over the program ids: the panels' buffers
  /// (allocateScratch), and the key of the panels they hold.
  void allocatePackedPanels();
  /// At an instance's start: copies the panels of its column of tiles
  /// (and batch) unless the buffers hold them.
  void packPanelsIfNew();
  /// Copies panel `p` of the instance's column of tiles (inside
  /// packPanelsIfNew's test): a row of it a reduced index, each row
  /// loaded contiguously, or gathered across the rows of a transposed B.
  void copyPanel(PackedPanel &p);
  /// The tile of packed panel `index`, at the current reduced index.
  mlir::Value loadPackedPanel(size_t index, mlir::VectorType fullType);

  // A packed contraction's reduction folded a block at a time, with
  // `reduce_block` (ReductionBlocks.cpp).
  /// With `reduce_block`: checks that the program's top-level reductions
  /// (the packed contractions) fold as one group and that it has no
  /// stream, and sets `blocks.size`; fails, saying why, otherwise.
  mlir::LogicalResult findReductionBlocks();
  /// The loops over a call's program ids [first, last) with
  /// `reduce_block`: for each column of tiles (and batch) the run enters,
  /// each group of the run's ids in the column, each block of the
  /// reduction, and each id of the group: that id (the builder left in its
  /// loop). Sets `instanceLoop` (the outermost) and `blocks`.
  mlir::Value emitBlockedInstanceLoops(mlir::Value first, mlir::Value last,
                                       llvm::ArrayRef<mlir::Value> grid);
  /// Whether `group` folds the current block only (the packed
  /// contractions, with `reduce_block`).
  bool foldsInBlocks(llvm::ArrayRef<tile::ReduceOp> group);
  /// [first, end) narrowed to the current block.
  std::pair<mlir::Value, mlir::Value> withinBlock(mlir::Value first,
                                                  mlir::Value end);
  /// The `count` accumulators (tiles of `type`) a block's fold starts
  /// from: `identity` in the first block, else what the block before
  /// stored in the scratch (allocated on the first call).
  llvm::SmallVector<mlir::Value>
  blockStartValues(unsigned count, mlir::VectorType type, mlir::Value identity);
  /// After a block's fold: in every block but the last, the accumulators
  /// `folded` are stored in the scratch; the builder is left in the last
  /// block's branch, where the rest of the program runs.
  void continueInLastBlock(llvm::ArrayRef<mlir::Value> folded);
  struct ReductionBlocks {
    int64_t size = 0; // KC (0: the reduction is not blocked)
    /// The most ids of a group (ReductionBlocks.cpp's kBlockedGroupRows
    /// rows, at most the grid's rows of tiles), the blocks of the
    /// reduction, the current block and its first index, the instance's
    /// place in its group, and the accumulators kept between blocks
    /// ([place x accumulator x tile row, tile width]).
    mlir::Value groupIds, count, index, start, slot, scratch;
  } blocks;

  /// A store into a buffer over part of the output's dimensions (`along`).
  void lowerProjectedStore(tile::StoreOp store);

  // Reductions (ProgramLowering.cpp).
  /// Lowers the reductions `group` (one, or siblings: see
  /// siblingReductions) in one loop nest and maps their results (for every
  /// key of a stream's block being lowered: see foldReduce).
  void lowerReduce(llvm::ArrayRef<tile::ReduceOp> group,
                   mlir::LogicalResult &status);
  /// The reductions from `first` on, consecutive in its block, that fold in
  /// `first`'s loops: the same kind, extents, type and shape, none split,
  /// none reading another's result (alg-fuse-shared-operands' gate and up
  /// projections, which then read each tile of their shared operand in
  /// the same step). Only `first` inside a stream's block.
  llvm::SmallVector<tile::ReduceOp> siblingReductions(tile::ReduceOp first);
  /// The loops of `group`, folding tiles of `type`: one result a reduction,
  /// or in a stream's block one per key, all folded in the same loops (what
  /// does not depend on the key, or is read by several reductions, is then
  /// computed once); the results reduction by reduction.
  llvm::SmallVector<mlir::Value>
  foldReduce(llvm::ArrayRef<tile::ReduceOp> group, mlir::VectorType type,
             mlir::LogicalResult &status);
  /// `acc` folded with `term` by `kind` (a sum of a product no other op
  /// reads: a fused multiply-add, the product erased).
  mlir::Value foldTerm(alg::ReductionKind kind, mlir::Value acc,
                       mlir::Value term);
  /// The output dimensions `reduce`'s body varies along.
  Varies variesAlong(tile::ReduceOp reduce);
  /// The shape `reduce`'s body is computed at (see valueShape).
  llvm::SmallVector<int64_t> narrowShape(tile::ReduceOp reduce);
  /// `copy` (of an op lowered at valueShape) with its results retyped to
  /// valueShape, narrower operands broadcast to it and splat constants
  /// from outside made at it.
  void fitToValueShape(mlir::Operation *copy);

  // Reductions folded with their vector lanes along the reduced index
  // (ReducedLanes.cpp; dialects/Tile/Utils/ReducedLanes.h).
  /// Whether `group` (folding tiles of `type`) takes that form here: each
  /// reduction tile::foldsAlongReducedLanes, the tile is small enough, no
  /// stream's keys or enclosing reduction, no packed panel, the tiles it
  /// reads from outside no wider than `type`, and a float sum's block a
  /// whole number of steps.
  bool foldsAlongReducedLanes(llvm::ArrayRef<tile::ReduceOp> group,
                              mlir::VectorType type);
  /// What foldReduce computes, that way: the reduced index a last
  /// dimension of the tile, `lanes` wide, based at each step's first
  /// index; whole steps inside the buffers, and masked steps after them
  /// (one, but where a kernel reads out of range) whose lanes past the
  /// range fold the identity; each result reduced across its lanes at the
  /// end.
  llvm::SmallVector<mlir::Value>
  foldAlongReducedLanes(llvm::ArrayRef<tile::ReduceOp> group,
                        mlir::VectorType type, mlir::LogicalResult &status);
  /// The lanes a step of `type`'s elements folds (0: not two).
  int64_t reducedLanesOf(mlir::VectorType type) const;
  /// The end of the whole steps of `lanes` from `first`: within `end` and
  /// every buffer the `reductions` read along the reduced index (none in a
  /// buffer without rows).
  mlir::Value wholeStepsEnd(llvm::ArrayRef<mlir::Operation *> reductions,
                            mlir::Value first, mlir::Value end, int64_t lanes);
  /// What enterReducedLanes changed, for leaveReducedLanes to restore.
  struct ReducedLanesView {
    llvm::ArrayRef<int64_t> tile;
    llvm::SmallVector<int64_t> shape, laneTile;
    /// Tiles from outside the reductions and their lowered values.
    llvm::SmallVector<std::pair<mlir::Value, mlir::Value>> outside;
  };
  /// Makes the reduced index a last dimension of the tile, of
  /// `laneShape`'s last extent, ending at `end`: values computed at
  /// `laneShape`, the tiles the `reductions` read from outside mapped to
  /// columns [..., 1] of theirs.
  void enterReducedLanes(llvm::ArrayRef<mlir::Operation *> reductions,
                         llvm::ArrayRef<int64_t> laneShape, mlir::Value end,
                         ReducedLanesView &view);
  void leaveReducedLanes(ReducedLanesView &view);
  /// Each row of `total` ([rows..., lanes]) reduced across its lanes by
  /// `kind`: a tile of `type`.
  mlir::Value reduceAcrossLanes(mlir::Value total, alg::ReductionKind kind,
                                mlir::VectorType type);
  /// `v` (a tile of [rows...]) broadcast along `lanes` lanes.
  mlir::Value broadcastAlongLanes(mlir::Value v, int64_t lanes);
  /// The lanes a row stream folds along its keys here (0: it does not):
  /// tile::streamFoldsAlongReducedLanes, the tile small enough, outside a
  /// stream or reduction; its accumulators' (`init`) lanes.
  int64_t streamLanesOf(tile::OnlineReduceOp op, mlir::ValueRange init);
  /// The keys [first, fullEnd) of `op`, whole steps of `lanes`, folded
  /// along the lanes (each lane a stream of its own, every lanes-th key)
  /// from the identities, the lanes' states then merged by the stream's
  /// repairs into accumulators of `init`'s types.
  llvm::SmallVector<mlir::Value>
  foldStreamAlongLanes(tile::OnlineReduceOp op, mlir::ValueRange init,
                       mlir::Value first, mlir::Value fullEnd, int64_t lanes,
                       mlir::LogicalResult &status);
  /// The lanes' states `lanesAcc` of `op` (keys before: `count` a lane)
  /// merged: each leader its lanes' (a mean the mean of their means, the
  /// counts equal), each follower repaired from its lane's leaders to
  /// them, then summed across the lanes.
  llvm::SmallVector<mlir::Value>
  mergeStreamLanes(tile::OnlineReduceOp op, mlir::ValueRange lanesAcc,
                   mlir::ValueRange init, mlir::Value count, int64_t lanes,
                   mlir::LogicalResult &status);
  /// While a stream folds along lanes: its lanes, the keys between one
  /// key of a block and the next (1 otherwise), by which a mean's count of
  /// keys before a block is divided.
  int64_t streamKeyStride = 1;
  /// A load that reads the reduced index, in a reduction folded along its
  /// lanes: each row of its dependent shape one vector load of the step's
  /// lanes (the other indices clamped into the buffer: a row outside the
  /// output is never stored), masked to the buffer in the last step.
  mlir::Value loadReducedLanes(const TileLoad &load);
  /// While a reduction or stream folds along its reduced lanes (between
  /// enterReducedLanes and leaveReducedLanes: the tile IR's types then
  /// lack the lanes' dimension), and whether the step being lowered is a
  /// masked one, whose lanes may pass a buffer's end.
  struct ReducedLanesStep {
    bool active = false;
    bool masked = false;
  } reducedLanes;

  // A stream's nested reductions' reads that do not depend on the key,
  // staged once an instance (StagedReads.cpp).
  /// A value of a nested reduction's body stored a row a point, and the
  /// scratch buffer [points, elements] holding it.
  struct StagedValue {
    mlir::Value original;
    mlir::Value scratch;
  };
  /// A nested reduction's staged ops (its key-invariant gathered loads and
  /// the element-wise ops on them alone), the values stored (those an
  /// unstaged op reads), and the shape they are computed at.
  struct StagedReduction {
    llvm::SmallPtrSet<mlir::Operation *, 8> ops;
    llvm::SmallVector<StagedValue> values;
    llvm::SmallVector<int64_t> shape;
  };
  /// Whether `load` reads without the stream's key (reduced dimension
  /// `keyDim` of its map) and would be gathered.
  bool isStageableLoad(tile::LoadOp load, unsigned keyDim);
  /// Fills `staged` for `reduce` (nested in a stream's body); leaves it
  /// empty where nothing is worth staging.
  void findStagedReads(tile::ReduceOp reduce, unsigned keyDim,
                       StagedReduction &staged);
  /// Before `stream`'s loop: its nested reductions' staged values stored
  /// for every point (their scratch allocated at the function's start).
  void stageReads(tile::OnlineReduceOp stream, mlir::LogicalResult &status);
  /// The loop storing `staged`'s values at each of `points`.
  void emitStagingLoop(tile::ReduceOp reduce, StagedReduction &staged,
                       mlir::Value points, mlir::LogicalResult &status);
  /// Whether `op` is staged: then a stored value's row at the current
  /// point is mapped to its result (an op feeding only staged ops needs
  /// nothing).
  bool lowerStagedOp(mlir::Operation &op);
  /// A read of one element a point that depends on the key, contiguous
  /// along the points and widened (attention's K[m, d] in bf16): a block's
  /// keys' values widened a vector at a time into a scratch [keys, points]
  /// before the block's step, each point then one scalar load broadcast.
  struct BlockStagedRead {
    tile::LoadOp load;
    mlir::arith::ExtFOp widen;
    mlir::Value scratch;
    mlir::Value points;
  };
  bool isBlockStageableLoad(tile::LoadOp load, unsigned keyDim,
                            unsigned pointDim);
  /// At the start of a step over `block`: its keys' block-staged reads
  /// stored; makes `block` the one lowerStagedOp reads them for.
  void stageBlockReads(tile::OnlineReduceOp stream, StreamKeys &block);
  void emitBlockStaging(BlockStagedRead &read, StreamKeys &block);
  /// A reduction's `extent` before the loop over the program ids (a size
  /// or a literal); null where it is computed in the program.
  mlir::Value extentAtStart(mlir::Value extent);
  /// A buffer of `type` (its one dynamic size `size`) allocated before the
  /// loop over the program ids, freed at the function's end (freeScratch:
  /// packed panels and staged reads).
  mlir::Value allocateScratch(mlir::MemRefType type, mlir::Value size);
  void freeScratch();

  // Streams (StreamLowering.cpp).
  /// A streamed reduction: a loop carrying the running leaders and the
  /// partial sums (see tile.online_reduce); its results.
  llvm::SmallVector<mlir::Value> lowerOnlineReduce(tile::OnlineReduceOp op,
                                                   mlir::LogicalResult &status);
  /// One step of it over the keys `first`, ..., `first + count - 1`: the
  /// new accumulators.
  llvm::SmallVector<mlir::Value>
  stepOnlineReduce(tile::OnlineReduceOp op, mlir::ValueRange accumulators,
                   mlir::Value first, int64_t count,
                   mlir::LogicalResult &status);
  /// A max or min leader's values for its repair from `oldLeader` to
  /// `newLeader`: a leader still at its identity (no finite term yet)
  /// reads as 0, and the old one at its identity as the new (a repair of
  /// 1: nothing has read it).
  std::pair<mlir::Value, mlir::Value> safeLeaders(alg::ReductionKind kind,
                                                  mlir::Value oldLeader,
                                                  mlir::Value newLeader);
  /// The stream's repairs lowered from the leaders `oldLeaders` to
  /// `newLeaders` (a mean's, given `keysBefore`): each follower's product
  /// of its factors (`factors`) or its addend (`addends`), by accumulator.
  void lowerRepairs(tile::OnlineReduceOp op,
                    llvm::ArrayRef<mlir::Value> oldLeaders,
                    llvm::ArrayRef<mlir::Value> newLeaders,
                    mlir::Value keysBefore,
                    llvm::MutableArrayRef<mlir::Value> factors,
                    llvm::MutableArrayRef<mlir::Value> addends,
                    mlir::LogicalResult &status);
  /// lowerRepairs where some leader moved (a max's or a min's: the repairs
  /// are computed in an scf.if on any lane's leader differing; else each
  /// factor is 1, which the repairs would compute from equal leaders:
  /// exp2(0)). Most steps of a long row move no leader, and skip their
  /// repairs' exponentials. A mean always moves: its repairs always run.
  /// Used by streams folded along reduced lanes, where a step's repair is
  /// a large share of its work.
  void lowerRepairsWhereLeadersMoved(tile::OnlineReduceOp op,
                                     llvm::ArrayRef<mlir::Value> oldLeaders,
                                     llvm::ArrayRef<mlir::Value> newLeaders,
                                     mlir::Value keysBefore,
                                     llvm::MutableArrayRef<mlir::Value> factors,
                                     llvm::MutableArrayRef<mlir::Value> addends,
                                     mlir::LogicalResult &status);
  /// A follower's partial sum `acc` repaired (times `factor`, plus
  /// `addend`, either null) and with the block's `terms` added, a row of
  /// the tile at a time (each row's partial sum kept in registers over the
  /// block's keys); products among the terms become FMAs and go to `fused`.
  mlir::Value updateFollower(mlir::Value acc, mlir::Value factor,
                             mlir::Value addend,
                             llvm::ArrayRef<mlir::Value> terms,
                             llvm::SmallPtrSetImpl<mlir::Operation *> &fused);
  /// The follower `acc` of a stream kept in a scratch buffer of its rows
  /// (a tile of several rows, each a row of values: attention's O, rows x
  /// D) rather than carried by the loops over the keys: its slot and the
  /// tile's type. Carried, the whole tile is live across a block's step,
  /// far beyond the vector registers, and each row's update spills and
  /// reloads it (attention at D = 256: four instructions a multiply-add).
  struct RowFollower {
    mlir::Value slot; // the tile's elements, row-major
    mlir::VectorType type;
  };
  /// Whether follower `acc` (its initial value) is kept so: rows > 1 and
  /// width > 1, its term one product read once, and each of its repair
  /// factors and addends and each of the product's operands a column of
  /// the tile (varying along its rows alone), a row (along its innermost
  /// dimension alone) or neither.
  bool keepsRowsInMemory(tile::OnlineReduceOp op, unsigned i, mlir::Value acc);
  /// `follower` repaired and with the block's `terms` added (as
  /// updateFollower), in place: a loop over its rows, each loaded, updated
  /// by the same operations in the same order, and stored.
  void updateRowFollower(const RowFollower &follower, mlir::Value factor,
                         mlir::Value addend, llvm::ArrayRef<mlir::Value> terms,
                         llvm::SmallPtrSetImpl<mlir::Operation *> &fused);
  /// While a stream is lowered: each accumulator's row follower (no slot:
  /// carried by the loops).
  llvm::SmallVector<RowFollower> rowFollowers;
  /// Fills rowFollowers for `op`, whose accumulators start at `init`: each
  /// follower keepsRowsInMemory takes gets its scratch (allocated before
  /// the loop over the program ids), set to its initial value here.
  void keepRowFollowers(tile::OnlineReduceOp op, mlir::ValueRange init);
  /// Lowers `ops` of a stream's body for every key of the block, each at
  /// the shape it varies along.
  void lowerForKeys(llvm::ArrayRef<mlir::Operation *> ops,
                    mlir::LogicalResult &status);
  /// Lowers `op` (of a stream's repairs) at the shape it varies along.
  void lowerAtItsShape(mlir::Operation &op, mlir::LogicalResult &status);
  /// [first, end) narrowed to the keys the stream's mask leaves some
  /// element of the tile (maskedKeyBounds).
  std::pair<mlir::Value, mlir::Value>
  narrowToMask(tile::OnlineReduceOp op, mlir::Value first, mlir::Value end,
               mlir::LogicalResult &status);
  /// A mean leader's running mean `old` of `keysBefore` keys moved by the
  /// block's `terms` (Welford/Chan): old + sum(t - old) / (keysBefore + n).
  mlir::Value foldMean(mlir::Value old, llvm::ArrayRef<mlir::Value> terms,
                       mlir::Value keysBefore);
  /// Makes key `j`'s mapping (-1: the mapping outside the keys) current.
  void selectKey(int j);
  /// What `v` varies along: from the stream's analysis, or from its
  /// lowered shape (a splat constant: nothing).
  Varies variesOf(mlir::Value v);
  /// Whether the vector `v` is wider than valueShape along a dimension.
  bool isWiderThanValueShape(mlir::Value v) const;
  /// What the results of `op` (in a stream) vary along.
  Varies opVaries(mlir::Operation &op);
  /// Fills streamVaries for the body and repairs of `op`.
  void inferStreamVaries(tile::OnlineReduceOp op);
  /// The shape of a tile varying along `varies`.
  llvm::SmallVector<int64_t> shapeOf(llvm::ArrayRef<bool> varies);

  mlir::Value cIndex(int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }
  /// Global index along output dimension `d` of each element of a tile of
  /// `shape` (a sub-shape of the tile where some dims are 1).
  mlir::Value indexVector(unsigned d, llvm::ArrayRef<int64_t> shape);
  /// Elements of a tile of `shape` inside the output.
  mlir::Value maskVector(llvm::ArrayRef<int64_t> shape);
  /// Whether the `lanes` indices from `first` on are all within [0, size)
  /// (an i1 scalar).
  mlir::Value allLanesInside(mlir::Value first, int64_t lanes,
                             mlir::Value size);
  /// A vector of `lanes` i1: whether each of the indices `first`, ...,
  /// `first + lanes - 1` lies within [0, size).
  mlir::Value lanesInside(mlir::Value first, int64_t lanes, mlir::Value size);
  /// The element offset of `indices` in a buffer of `stride` (row-major).
  mlir::Value linearIndex(llvm::ArrayRef<mlir::Value> indices,
                          llvm::ArrayRef<mlir::Value> stride);
  /// Row-major strides of `buffer`.
  llvm::SmallVector<mlir::Value> strides(mlir::Value buffer);
  mlir::Value flatView(mlir::Value buffer);
  /// `index` clamped into [0, size of dimension `dim` of `buffer`).
  mlir::Value clampInto(mlir::Value buffer, unsigned dim, mlir::Value index);
  /// Whether the scalar `indices` (all but the last `skipLast`) lie inside
  /// `buffer`.
  mlir::Value insideBuffer(mlir::Value buffer,
                           llvm::ArrayRef<mlir::Value> indices, bool skipLast);

  /// The packed rhs panels (none without `pack`); the reductions' extent
  /// (in the program, and its value in the function: the panels' rows),
  /// and which column of tiles (and batch: a rank-0 buffer holding its
  /// key) the panels hold.
  llvm::SmallVector<PackedPanel> packed;
  /// The panel each packed load reads (siblings reading one B share it).
  llvm::DenseMap<mlir::Operation *, size_t> panelOfLoad;
  mlir::Value packedExtent, packedRows, packedKey;

  tile::ProgramOp program;
  mlir::OpBuilder b;
  mlir::Location loc = program.getLoc();
  llvm::ArrayRef<int64_t> tileShape;
  /// The shape values are computed at: the tile's, or inside a reduction
  /// whose body does not vary along some output dimensions, 1 along those
  /// (narrowShape); the reduction's result is broadcast to the tile. In a
  /// stream, each op's own (inferStreamVaries).
  llvm::SmallVector<int64_t> valueShape{tileShape};
  unsigned rank;
  /// The sizes bound at compile time, by symbol position
  /// (tile::isUniformOverTile).
  llvm::SmallVector<std::optional<int64_t>> knownSymbols;
  mlir::IRMapping mapping;
  llvm::SmallVector<mlir::Value> sizeArgs, extents, base, reducedIVs;
  int64_t vectorBits;
  /// While a stream is lowered: what each value of its body and repairs
  /// varies along, and the block of keys being lowered (null between
  /// blocks, and while one key's copy of a nested reduction is lowered).
  llvm::DenseMap<mlir::Value, Varies> streamVaries;
  StreamKeys *keys = nullptr;
  /// The first key of the stream being lowered (a mean counts from it).
  mlir::Value streamStart;
  /// The (outermost) loop over a call's program ids (scratch buffers are
  /// allocated before it), and the nested reductions whose reads are
  /// staged.
  mlir::scf::ForOp instanceLoop;
  llvm::SmallVector<StagedReduction> stagedReductions;
  llvm::SmallVector<mlir::Value> scratchBuffers;
  llvm::SmallVector<BlockStagedRead> blockStagedReads;
  /// The block of keys whose block-staged reads are stored (null outside
  /// a step).
  StreamKeys *stagingBlock = nullptr;
};

} // namespace nautilus::cpu

#endif // NAUTILUS_COMPILER_CONVERSION_TILETOCPU_PROGRAMLOWERING_H
