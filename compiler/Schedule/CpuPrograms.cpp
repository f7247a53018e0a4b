//===- CpuPrograms.cpp - A tile program as the CPU model sees it ----------===//
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Schedule/ElementWiseLive.h"
#include "compiler/Schedule/Heuristics.h"
#include "compiler/Schedule/PointWork.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/PackedPanel.h"
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "dialects/Tile/Utils/ReductionKinds.h"
#include "dialects/Tile/Utils/StreamSplits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// What an operand of a reduction's product reads and computes within
/// the reduction's body: whether any read varies along the output's
/// innermost dimension, and the operations beyond its reads and widenings
/// (a transcendental function counted as kTranscendentalWork).
struct OperandSlice {
  bool variesAlongInner = false;
  int64_t work = 0;
};

/// Operations one exp, log or tanh costs, as the CPU evaluates them
/// (polynomials): roughly, for the model.
constexpr int64_t kTranscendentalWork = 10;

/// Operations a mean-led stream's step adds beyond its IR (the lowering's
/// foldMean: each key's gap from the mean and their sum, the count, and a
/// division): the division counted as kDivisionWork (fitted: a Welford
/// stream of f64 over 64 x 8192 ran 0.065 ms at every tile of 2 to 8 rows,
/// about 5 cycles a vector of 8 keys, where its body and repairs count 3
/// operations).
constexpr int64_t kDivisionWork = 20;
int64_t meanStepWork(int64_t keys) { return 2 * keys + 1 + kDivisionWork; }

/// What `op` costs a point (PointWork.h): a special function counts as
/// kTranscendentalWork.
int64_t workOfOp(Operation *op) {
  switch (pointWorkOf(op)) {
  case PointWork::None:
    return 0;
  case PointWork::Operation:
    return 1;
  case PointWork::SpecialFunction:
    return kTranscendentalWork;
  }
  return 1;
}

void accumulateSlice(Value value, Region &body, unsigned inner,
                     llvm::SmallPtrSetImpl<Operation *> &seen,
                     OperandSlice &slice) {
  Operation *op = value.getDefiningOp();
  if (!op || !body.isAncestor(op->getParentRegion()) || !seen.insert(op).second)
    return;
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    slice.variesAlongInner |=
        llvm::any_of(load.getMap().getResults(),
                     [&](AffineExpr e) { return involvesDim(e, inner); });
    return;
  }
  slice.work += workOfOp(op);
  for (Value operand : op->getOperands())
    accumulateSlice(operand, body, inner, seen, slice);
}

/// Whether `reduce` sums a product of two operands of which exactly one
/// varies along the output's innermost dimension `inner`: a register-
/// blocked GEMM's, whose other operand is broadcast along the row. The
/// broadcast operand's work a step and a row goes to `broadcastWork`.
bool isContraction(tile::ReduceOp reduce, unsigned inner,
                   int64_t &broadcastWork) {
  if (reduce.getKind() != alg::ReductionKind::sum)
    return false;
  auto yield = cast<tile::YieldOp>(reduce.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return false;
  Operation *product = yield.getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::MulIOp>(product))
    return false;
  OperandSlice slices[2];
  for (unsigned i = 0; i < 2; ++i) {
    llvm::SmallPtrSet<Operation *, 16> seen;
    accumulateSlice(product->getOperand(i), reduce.getBody(), inner, seen,
                    slices[i]);
  }
  if (slices[0].variesAlongInner == slices[1].variesAlongInner)
    return false;
  broadcastWork = slices[0].variesAlongInner ? slices[1].work : slices[0].work;
  return true;
}

/// Operations a point of `region` costs beyond its loads, stores,
/// widenings and constants (a transcendental function counted as
/// kTranscendentalWork).
int64_t workOf(Region &region) {
  int64_t work = 0;
  region.walk([&](Operation *op) { work += workOfOp(op); });
  return work;
}

/// An element-wise program's work a point (as workOf, but a widening of
/// a 16-bit float, a shift or a conversion on the host, counted as well,
/// and so is each load: the loads are what a tile's rows share), split
/// into what varies along its rows (the dimensions before the innermost
/// `inner`) and what varies along the innermost dimension alone (`work`,
/// `innerOnly`).
void elementWiseWorkOf(tile::ProgramOp program, unsigned inner, int64_t &work,
                       int64_t &innerOnly) {
  work = innerOnly = 0;
  llvm::DenseMap<Value, TileVariation> varies =
      tileVariationsOf(program, inner);
  program.getBody().walk([&](Operation *op) {
    if (op->getNumResults() == 0)
      return;
    int64_t cost = workOfOp(op);
    if (isa<tile::LoadOp>(op))
      cost = 1;
    else if (auto ext = dyn_cast<arith::ExtFOp>(op))
      cost = mlir::getElementTypeOrSelf(ext.getIn().getType())
                         .getIntOrFloatBitWidth() < 32
                 ? 1
                 : 0;
    TileVariation along = varies.lookup(op->getResult(0));
    if (along.rows)
      work += cost;
    else if (along.inner)
      innerOnly += cost;
  });
}

/// The bytes of an element `load` reads (1 for what is not a number).
int64_t elementBytesOf(tile::LoadOp load) {
  Type element = cast<MemRefType>(load.getBuffer().getType()).getElementType();
  return element.isIntOrFloat()
             ? std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8)
             : 1;
}

/// The bytes between the elements that the lanes of a reduction over
/// `reduced` points read, where its body reads along the reduced index
/// and not along the lanes (the output's innermost dimension `inner`): a
/// row of a [rows, reduced] operand a lane. 0 when every read is
/// contiguous along the lanes, or the same for all of them.
int64_t gatherStrideOf(Region &body, unsigned inner, int64_t reduced) {
  int64_t stride = 0;
  body.walk([&](tile::LoadOp load) {
    ArrayRef<AffineExpr> results = load.getMap().getResults();
    if (results.empty() || involvesDim(results.back(), inner) ||
        llvm::none_of(results,
                      [&](AffineExpr e) { return involvesDim(e, inner); }))
      return;
    stride = std::max(stride, reduced * elementBytesOf(load));
  });
  return stride;
}

/// Whether a contraction's rhs (its reads along the output's innermost
/// dimension `inner`) is read through gathered indices that vary along
/// the tile's rows (Wg[ids[t, j], d, f]: each row of a tile its own
/// expert's rows), by `program`'s values' variations.
bool routesRhsRows(tile::ProgramOp program, Region &body, unsigned inner) {
  llvm::DenseMap<Value, TileVariation> varies =
      tileVariationsOf(program, inner);
  bool routed = false;
  body.walk([&](tile::LoadOp load) {
    routed |=
        llvm::any_of(load.getMap().getResults(),
                     [&](AffineExpr e) { return involvesDim(e, inner); }) &&
        llvm::any_of(load.getIndirect(),
                     [&](Value index) { return varies.lookup(index).rows; });
  });
  return routed;
}

/// The bytes between consecutive reduced indices of a contraction's
/// broadcast operand read across its rows (A[k, m]: read along the
/// reduced index `inner + 1` and none of the output's innermost index
/// `inner`, its buffer's innermost index the output's rows, `inner - 1`,
/// of `rows` elements); 0 where there is none.
int64_t lhsStrideOf(Region &body, unsigned inner, int64_t rows) {
  int64_t stride = 0;
  body.walk([&](tile::LoadOp load) {
    ArrayRef<AffineExpr> results = load.getMap().getResults();
    if (inner == 0 || results.empty() || !load.getIndirect().empty() ||
        llvm::any_of(results,
                     [&](AffineExpr e) { return involvesDim(e, inner); }) ||
        !involvesDim(results.back(), inner - 1) ||
        involvesDim(results.back(), inner + 1) ||
        llvm::none_of(results,
                      [&](AffineExpr e) { return involvesDim(e, inner + 1); }))
      return;
    stride = std::max(stride, rows * elementBytesOf(load));
  });
  return stride;
}

/// The element width `reduce` folds in, and for a contraction whether its
/// operands are narrower (widened a load) and its rhs's width (the reads
/// along the output's innermost index `inner`), into `facts`.
void readWidthsOf(tile::ReduceOp reduce, unsigned inner,
                  autosched::CpuProgram &facts) {
  auto type = dyn_cast<VectorType>(reduce.getType());
  if (!type)
    return;
  facts.elementBits = type.getElementTypeBitWidth();
  reduce.getBody().walk([&](tile::LoadOp load) {
    Type element =
        cast<MemRefType>(load.getBuffer().getType()).getElementType();
    facts.widens |= facts.contraction && element.isIntOrFloat() &&
                    element.getIntOrFloatBitWidth() < facts.elementBits;
    bool alongInner =
        llvm::any_of(load.getMap().getResults(),
                     [&](AffineExpr e) { return involvesDim(e, inner); });
    if (facts.contraction && alongInner && element.isIntOrFloat())
      facts.operandBits =
          std::max<int64_t>(facts.operandBits, element.getIntOrFloatBitWidth());
  });
}

/// The bits a point of `body` (of a program of `rank` output dimensions)
/// reads along its reduced or streamed index: each buffer element read
/// through a map that involves a dimension past the outputs, once a map.
int64_t streamedBitsOf(Region &body, unsigned rank) {
  llvm::SmallVector<std::pair<Value, AffineMap>> seen;
  int64_t bits = 0;
  body.walk([&](tile::LoadOp load) {
    AffineMap map = load.getMap();
    bool alongReduced = false;
    for (unsigned d = rank; d < map.getNumDims(); ++d)
      alongReduced |= llvm::any_of(
          map.getResults(), [&](AffineExpr e) { return involvesDim(e, d); });
    std::pair<Value, AffineMap> key{load.getBuffer(), map};
    if (!alongReduced || llvm::is_contained(seen, key))
      return;
    seen.push_back(key);
    Type element =
        cast<MemRefType>(load.getBuffer().getType()).getElementType();
    bits += element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 8;
  });
  return bits;
}

/// The buffers `program` loads or stores along both its output's innermost
/// dimension `inner` and the one before it.
int64_t rowStreamsOf(tile::ProgramOp program, unsigned inner) {
  if (inner == 0)
    return 1;
  int64_t streams = 0;
  auto alongRows = [&](AffineMap map) {
    auto involves = [&](unsigned d) {
      return llvm::any_of(map.getResults(),
                          [&](AffineExpr e) { return involvesDim(e, d); });
    };
    return involves(inner) && involves(inner - 1);
  };
  program.walk([&](tile::LoadOp load) { streams += alongRows(load.getMap()); });
  // A store writes the whole output tile.
  program.walk([&](tile::StoreOp) { ++streams; });
  return std::max<int64_t>(1, streams);
}

/// The stream (tile.online_reduce) at the top of `program`, if any.
tile::OnlineReduceOp topLevelStream(tile::ProgramOp program) {
  auto streams = program.getBody().front().getOps<tile::OnlineReduceOp>();
  return streams.empty() ? tile::OnlineReduceOp() : *streams.begin();
}

} // namespace

/// Whether `program` combines the partials of its `_partial` program (its
/// reduction split, after tile-split-reductions).
static bool combinesPartials(tile::ProgramOp program) {
  return SymbolTable::lookupNearestSymbolFrom(
      program, StringAttr::get(program.getContext(),
                               partialProgramName(program.getSymName())));
}

namespace {

/// The CPU model's view of `stream` (of `reduced` keys) at the top of
/// `program`, into `facts`.
void streamFactsOf(tile::ProgramOp program, tile::OnlineReduceOp stream,
                   int64_t reduced, autosched::CpuProgram &facts) {
  unsigned inner = facts.extents.size() - 1;
  facts.stream = true;
  facts.reduced = reduced;
  facts.accumulators = stream->getNumResults();
  // Split-KV as the heuristics split (Heuristics.cpp, streamSchedule):
  // every extent bound, chunks of at least kMinStreamChunk keys, a power
  // of two of them; and only where the splitter accepts the program and
  // the chunks' partials fit its workspace (tile::streamSplitShapeRefusal,
  // kMaxPartialWorkspaceBytes).
  // (A stream over an unbound extent may be split in parts sized at
  // launch, but the CPU model's copies are unsplit: none is offered.)
  int64_t chunkBytes = tile::streamPartialBytesPerChunk(program);
  bool splittable = chunkBytes > 0 &&
                    program.getKnownExtent(stream.getExtent()).has_value() &&
                    tile::streamSplitShapeRefusal(program).empty();
  while (splittable && reduced / (facts.mostSplit * 2) >= kMinStreamChunk &&
         facts.mostSplit * 2 * chunkBytes <= tile::kMaxPartialWorkspaceBytes)
    facts.mostSplit *= 2;
  if (auto type = dyn_cast<VectorType>(stream->getResult(0).getType()))
    facts.elementBits = type.getElementTypeBitWidth();
  // The CPU lowering folds keys in blocks of kStreamBlock (their terms
  // live at once beside the accumulators) and repairs once a block.
  facts.work = workOf(stream.getBody());
  facts.streamedBits = streamedBitsOf(stream.getBody(), inner + 1);
  for (Region &repair : stream.getRepairs())
    facts.work += llvm::divideCeil(workOf(repair), kStreamBlock);
  if (stream.hasMeanLeader())
    facts.work += llvm::divideCeil(meanStepWork(kStreamBlock), kStreamBlock);
  facts.liveTiles = kStreamBlock + stream->getNumResults();
  if (tile::streamFoldsAlongReducedLanes(stream)) {
    facts.reducedLaneRows = tile::kMostReducedLaneRows;
    // A step of the model is a vector of keys; the lowering repairs
    // once kLaneStreamBlock of them, whose terms live at once.
    facts.foldedWork = workOf(stream.getBody());
    for (Region &repair : stream.getRepairs())
      facts.foldedWork +=
          llvm::divideCeil(workOf(repair), tile::kLaneStreamBlock);
    if (stream.hasMeanLeader())
      facts.foldedWork += llvm::divideCeil(
          meanStepWork(tile::kLaneStreamBlock), tile::kLaneStreamBlock);
    facts.foldedLiveTiles = stream->getNumResults() + tile::kLaneStreamBlock;
    facts.foldedStepVectors = tile::kLaneStreamBlock;
  }
  facts.gatherStrideBytes = gatherStrideOf(stream.getBody(), inner, reduced);
}

/// The row followers of `stream` (each a term that is one product read
/// once: P V, kept in memory a row at a time) and its column work a key,
/// into `facts`: what its body computes beside them and beside `scores`
/// (the nested reduction, costed apart; null where the scores are read),
/// each leader's and column follower's fold, and the repairs over a block.
void columnWorkOf(tile::OnlineReduceOp stream, Operation *scores,
                  autosched::CpuProgram &facts) {
  Block &body = stream.getBody().front();
  auto yielded = cast<tile::YieldOp>(body.getTerminator()).getValues();
  llvm::SmallPtrSet<Operation *, 4> rowTerms;
  for (auto [i, term] : llvm::enumerate(yielded)) {
    auto product = term.getDefiningOp<arith::MulFOp>();
    if (!stream.isLeader(i) && product && product->hasOneUse()) {
      ++facts.rowFollowers;
      rowTerms.insert(product);
    }
  }
  facts.blockKeys = kStreamBlock;
  facts.work = static_cast<int64_t>(yielded.size()) - facts.rowFollowers;
  for (Operation &op : body.without_terminator())
    if (&op != scores && !rowTerms.contains(&op))
      facts.work += workOfOp(&op);
  for (Region &repair : stream.getRepairs())
    facts.work += llvm::divideCeil(workOf(repair), kStreamBlock);
}

/// The CPU model's view of a stream whose body recomputes `scores` (a
/// reduction of `points` a key: attention's), into `facts` (after
/// streamFactsOf): the width of the keys' and values' rows, whether the
/// keys widen, and its row followers and column work (columnWorkOf).
void scoredStreamFactsOf(tile::OnlineReduceOp stream, tile::ReduceOp scores,
                         int64_t points, autosched::CpuProgram &facts) {
  unsigned keyDim = facts.extents.size(); // the maps' dims: outputs, key
  facts.scoredPoints = points;
  facts.operandBits = 0;
  facts.gatherStrideBytes = 0;
  scores.getBody().walk([&](tile::LoadOp load) {
    Type element =
        cast<MemRefType>(load.getBuffer().getType()).getElementType();
    bool keyed = llvm::any_of(load.getMap().getResults(), [&](AffineExpr e) {
      return involvesDim(e, keyDim);
    });
    if (!keyed || !element.isIntOrFloat())
      return;
    int64_t bits = element.getIntOrFloatBitWidth();
    facts.scoresWiden |= bits < facts.elementBits;
    facts.operandBits = std::max(facts.operandBits, bits); // K's rows
  });
  for (auto load : stream.getBody().front().getOps<tile::LoadOp>()) {
    Type element =
        cast<MemRefType>(load.getBuffer().getType()).getElementType();
    if (element.isIntOrFloat()) // V's rows, read a key
      facts.operandBits =
          std::max<int64_t>(facts.operandBits, element.getIntOrFloatBitWidth());
  }
  columnWorkOf(stream, scores, facts);
}

/// The CPU model's view of a stream over `reduced` keys whose body reads
/// its scores stored (attention's structure with S stored: S[n, m], a
/// column over the tile's rows a key) and keeps a row follower (P V),
/// into `facts` (after streamFactsOf); false when the stream is not one.
/// Its row followers and column work as columnWorkOf counts them.
bool storedScoresFactsOf(tile::OnlineReduceOp stream, int64_t reduced,
                         autosched::CpuProgram &facts) {
  unsigned inner = facts.extents.size() - 1, keyDim = inner + 1;
  if (inner == 0)
    return false;
  facts.operandBits = 0;
  facts.gatherStrideBytes = 0;
  for (auto load : stream.getBody().front().getOps<tile::LoadOp>()) {
    Type element =
        cast<MemRefType>(load.getBuffer().getType()).getElementType();
    auto involves = [&](unsigned d) {
      return llvm::any_of(load.getMap().getResults(),
                          [&](AffineExpr e) { return involvesDim(e, d); });
    };
    if (!element.isIntOrFloat())
      return false;
    int64_t bits = element.getIntOrFloatBitWidth();
    // A column of scores: S[..., n, m], the key its innermost index (its
    // rows `reduced` elements apart). Of several (a mask beside S), the
    // widest rows are counted, and one column's gather a key.
    auto key = dyn_cast<AffineDimExpr>(load.getMap().getResults().back());
    if (involves(inner)) // V's rows, read a key
      facts.operandBits = std::max(facts.operandBits, bits);
    else if (key && key.getPosition() == keyDim && involves(inner - 1))
      facts.storedScoresStrideBytes =
          std::max(facts.storedScoresStrideBytes,
                   reduced * std::max<int64_t>(1, bits / 8));
  }
  columnWorkOf(stream, nullptr, facts);
  return facts.storedScoresStrideBytes && facts.rowFollowers;
}

/// The CPU model's view of `program`, each size the plan does not bind at
/// the extent `unbound` gives it.
std::optional<autosched::CpuProgram> cpuProgramAt(tile::ProgramOp program,
                                                  UnboundExtent unbound) {
  // A stream of rows (softmax's, a norm's) chooses its tile and its split
  // like any reduction its tile; one that recomputes a reduction a key
  // (attention's scores) its rows and its split, its tile spanning the
  // head dimension whole; one whose tile spans more dimensions and reads
  // its scores (stored) its rows and its split, the rest of its tile its
  // own. One whose reductions nest deeper, or whose split is already made
  // (the program that combines its `_partial` program's chunks) keeps its
  // own.
  bool nested = false;
  tile::ReduceOp scores;
  program.walk([&](tile::OnlineReduceOp stream) {
    nested |= stream->getParentOp() != program;
    stream.getBody().walk([&](tile::ReduceOp reduce) {
      nested |= scores || reduce->getParentOp() != stream ||
                reduce.getExtents().size() != 1;
      scores = reduce;
    });
  });
  tile::OnlineReduceOp stream = topLevelStream(program);
  size_t outputs = program.getOutputDims().size();
  if (nested ||
      (stream && ((scores && outputs < 2) || combinesPartials(program))))
    return std::nullopt;
  auto extentOfDim = [&](Attribute dim) {
    return extentAt(program, dim, unbound);
  };
  auto extentOf = [&](Value extent) {
    return extentOfDim(program.getExtentDim(extent));
  };
  autosched::CpuProgram facts;
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = extentOfDim(dim);
    if (!extent)
      return std::nullopt;
    facts.extents.push_back(*extent);
  }
  if (facts.extents.empty())
    return std::nullopt;
  unsigned inner = facts.extents.size() - 1;
  int64_t contractions = 0;
  // Every reduction folds along its reduced lanes, or none is counted so.
  bool foldAlongLanes = !stream;
  for (auto reduce : program.getBody().front().getOps<tile::ReduceOp>()) {
    foldAlongLanes &= tile::foldsAlongReducedLanes(reduce);
    int64_t reduced = 1;
    for (Value extent : reduce.getExtents()) {
      std::optional<int64_t> e = extentOf(extent);
      if (!e)
        return std::nullopt;
      reduced *= *e;
    }
    facts.reduced = std::max(facts.reduced, reduced);
    int64_t work = 0;
    // (A reduction that folds along its lanes is none, though it scales
    // its rows by a constant: the lowering folds it along its lanes; but
    // one with a broadcast operand, X[t, d] of X W^T, is a contraction
    // whose small tiles fold and whose others take the contraction's
    // blocks and panels.)
    if ((!tile::foldsAlongReducedLanes(reduce) ||
         tile::foldsWithBroadcastOperand(reduce)) &&
        isContraction(reduce, inner, work)) {
      facts.contraction = true;
      ++contractions;
      facts.broadcastWork = std::max(facts.broadcastWork, work);
      facts.routedRhs |= routesRhsRows(program, reduce.getBody(), inner);
      if (inner > 0)
        facts.lhsStrideBytes = std::max(
            facts.lhsStrideBytes,
            lhsStrideOf(reduce.getBody(), inner, facts.extents[inner - 1]));
    }
    readWidthsOf(reduce, inner, facts);
    facts.work = std::max(facts.work, workOf(reduce.getBody()));
    facts.streamedBits = std::max(facts.streamedBits,
                                  streamedBitsOf(reduce.getBody(), inner + 1));
    facts.gatherStrideBytes =
        std::max(facts.gatherStrideBytes,
                 gatherStrideOf(reduce.getBody(), inner, reduced));
  }
  if (facts.reduced && foldAlongLanes) {
    facts.reducedLaneRows = tile::kMostReducedLaneRows;
    facts.foldedWork = facts.work;
  }
  if (stream) {
    std::optional<int64_t> reduced = extentOf(stream.getExtent());
    if (!reduced)
      return std::nullopt;
    streamFactsOf(program, stream, *reduced, facts);
    if (scores) {
      // (Its scores in this stream, and P V's rows beside them: else the
      // stream's tile is not rows x a head dimension.)
      std::optional<int64_t> points = extentOf(scores.getExtents()[0]);
      if (!points || scores->getParentOp() != stream)
        return std::nullopt;
      scoredStreamFactsOf(stream, scores, *points, facts);
      if (facts.rowFollowers == 0)
        return std::nullopt;
    } else if (outputs != 1 && !storedScoresFactsOf(stream, *reduced, facts)) {
      return std::nullopt;
    }
    if (facts.streamsScores())
      facts.heldTile.assign(program.getSchedule().getTile().begin(),
                            program.getSchedule().getTile().end());
  }
  if (!facts.reduced) {
    // Lanes of the widest type it reads or stores (it computes in that).
    facts.elementBits = 8;
    program.walk([&](Operation *op) {
      Value buffer;
      if (auto load = dyn_cast<tile::LoadOp>(op))
        buffer = load.getBuffer();
      else if (auto store = dyn_cast<tile::StoreOp>(op))
        buffer = store.getBuffer();
      else
        return;
      Type element = cast<MemRefType>(buffer.getType()).getElementType();
      if (element.isIntOrFloat())
        facts.elementBits = std::max<int64_t>(facts.elementBits,
                                              element.getIntOrFloatBitWidth());
    });
    if (inner > 0)
      elementWiseWorkOf(program, inner, facts.work, facts.innerOnlyWork);
    else
      facts.work = workOf(program.getBody());
    facts.rowStreams = rowStreamsOf(program, inner);
    facts.livePoints = elementWiseLivePoints(program, inner, facts.elementBits);
  }
  // Contractions side by side fold in one loop nest (the CPU lowering's
  // siblingReductions: alg-fuse-shared-operands' programs).
  facts.siblings = std::max<int64_t>(1, contractions);
  facts.packable =
      facts.contraction && !tile::packablePanelLoads(program).empty();
  facts.blockable =
      facts.packable && tile::reductionBlockRefusal(program).empty();
  return facts;
}

} // namespace

std::optional<autosched::CpuProgram>
nautilus::cpuProgramOf(tile::ProgramOp program) {
  return cpuProgramAt(program, [](StringRef) { return std::nullopt; });
}

/// A view's rows: its outer extents.
static std::vector<int64_t> rowsOf(const autosched::CpuProgram &view) {
  return std::vector<int64_t>(view.extents.begin(),
                              view.extents.end() -
                                  (view.extents.empty() ? 0 : 1));
}

/// Whether `program`'s rows depend on its unbound sizes `unbound`: its
/// views with them all at the smallest and at the largest sample differ
/// there.
static bool rowsVaryWith(tile::ProgramOp program,
                         const std::vector<std::string> &unbound) {
  auto at = [&](int64_t value) {
    return cpuProgramAt(program, [&](StringRef name) -> std::optional<int64_t> {
      if (!llvm::is_contained(unbound, name))
        return std::nullopt;
      return value;
    });
  };
  auto smallest = at(autosched::kUnboundSizeSamples.front());
  auto largest = at(autosched::kUnboundSizeSamples.back());
  return !smallest || !largest || rowsOf(*smallest) != rowsOf(*largest);
}

std::optional<CpuProgramSamples>
nautilus::cpuProgramSamplesOf(tile::ProgramOp program) {
  std::optional<CpuProgramSamples> samples =
      viewsAtSamples<autosched::CpuProgram>([&](UnboundExtent unbound) {
        return cpuProgramAt(program, unbound);
      });
  // (A scored stream's tile spans its head dimension whole: one tile for
  // every size is its own.)
  if (!samples || samples->views.front().streamsScores())
    return std::nullopt;
  // (The first sample has every unbound size at its smallest, the last at
  // its largest.)
  bool rowsVary =
      rowsOf(samples->views.front()) != rowsOf(samples->views.back());
  for (autosched::CpuProgram &sample : samples->views)
    sample.rowsVary = rowsVary;
  return samples;
}

std::optional<autosched::CpuProgram>
nautilus::cpuProgramAtExtents(tile::ProgramOp program,
                              const std::vector<std::string> &unbound,
                              const std::vector<int64_t> &extents) {
  auto atExtents =
      cpuProgramAt(program, [&](StringRef name) -> std::optional<int64_t> {
        return extentAmong(name, unbound, extents);
      });
  if (atExtents)
    atExtents->rowsVary = rowsVaryWith(program, unbound);
  return atExtents;
}

autosched::CpuCandidate nautilus::cpuCandidateOf(tile::ScheduleAttr schedule) {
  autosched::CpuCandidate c;
  c.tile.assign(schedule.getTile().begin(), schedule.getTile().end());
  c.pack = schedule.getPack();
  c.split = schedule.getReduceSplit();
  c.reduceBlock = schedule.getReduceBlock();
  return c;
}

tile::ScheduleAttr nautilus::cpuScheduleWithTile(tile::ProgramOp program,
                                                 ArrayRef<int64_t> tile,
                                                 bool pack, int64_t split,
                                                 int64_t block) {
  return tile::ScheduleAttr::get(program.getContext(), tile, /*threads=*/1,
                                 tile::MmaAttr(), /*reduceThreads=*/1, split,
                                 /*reduceInterleaved=*/false, /*vector=*/1,
                                 pack, block);
}
