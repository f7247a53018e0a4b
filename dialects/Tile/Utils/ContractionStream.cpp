//===- ContractionStream.cpp - A stream that is two contractions ----------===//
#include "dialects/Tile/Utils/ContractionStream.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// The top-level domain dimensions (output dims and the streamed index)
/// a value of the body depends on, as bits, and whether it reads a leader.
struct Dependence {
  uint64_t dims = 0;
  bool leader = false;
  Dependence &operator|=(const Dependence &o) {
    dims |= o.dims;
    leader |= o.leader;
    return *this;
  }
  bool reads(unsigned dim) const { return dims >> dim & 1; }
};

class StreamAnalysis {
public:
  StreamAnalysis(Block &body, ArrayRef<bool> isLeader,
                 const StreamBodyView &view)
      : body(body), isLeader(isLeader), view(view), rank(view.rank) {}

  FailureOr<ContractionStream> run(std::string &why);

private:
  /// Bits of the top-level dims `map` reads (nested indices ignored).
  uint64_t mapDims(AffineMap map) const {
    uint64_t bits = 0;
    for (unsigned d = 0; d <= rank && d < map.getNumDims(); ++d)
      if (map.isFunctionOfDim(d))
        bits |= uint64_t(1) << d;
    return bits;
  }
  Dependence of(Value v) { return dependence.lookup(v); }
  LogicalResult computeDependences(std::string &why);
  LogicalResult analyseScores(Block &nested, ContractionStream &stream,
                              std::string &why);
  /// `v` as a read of a 16-bit float (through an extension), or null.
  std::optional<StreamRead> widenedRead(Value v);
  LogicalResult analyseFollower(unsigned i, Value term,
                                ContractionStream &stream, std::string &why);

  Block &body;
  ArrayRef<bool> isLeader;
  const StreamBodyView &view;
  unsigned rank;
  llvm::DenseMap<Value, Dependence> dependence;
  Operation *scores = nullptr;
};

} // namespace

std::optional<StreamRead> StreamAnalysis::widenedRead(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    v = ext.getIn();
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  std::optional<StreamRead> read = view.asRead(def);
  if (!read || !(read->element.isBF16() || read->element.isF16()))
    return std::nullopt;
  return read;
}

LogicalResult StreamAnalysis::computeDependences(std::string &why) {
  for (BlockArgument arg : body.getArguments()) {
    Dependence d;
    if (std::optional<unsigned> dim = view.argumentDim(arg))
      d.dims = uint64_t(1) << *dim;
    else
      d.leader = true;
    dependence[arg] = d;
  }
  for (Operation &op : body.without_terminator()) {
    if (view.gathers(&op)) {
      why = "it reads a gathered operand";
      return failure();
    }
    Dependence d;
    for (Value operand : op.getOperands())
      d |= of(operand);
    if (std::optional<StreamRead> read = view.asRead(&op)) {
      d.dims |= mapDims(read->map);
    } else if (auto dims = view.indexDims(&op)) {
      for (unsigned dim : *dims)
        d.dims |= uint64_t(1) << dim;
    } else if (Block *nested = view.asNestedSum(&op)) {
      if (scores) {
        why = "its body recomputes two reductions";
        return failure();
      }
      scores = &op;
      nested->walk([&](Operation *inner) {
        if (std::optional<StreamRead> read = view.asRead(inner))
          d.dims |= mapDims(read->map);
        for (Value operand : inner->getOperands())
          if (operand.getParentBlock() == &body)
            d |= of(operand);
      });
    } else if (view.isReduction(&op) || op.getNumRegions()) {
      why = "its body holds a nested reduction that is not a sum";
      return failure();
    }
    for (Value result : op.getResults())
      dependence[result] = d;
  }
  return success();
}

LogicalResult StreamAnalysis::analyseScores(Block &nested,
                                            ContractionStream &stream,
                                            std::string &why) {
  why = "its recomputed reduction is not a product of two 16-bit float "
        "reads, each with the reduced index innermost";
  Value yielded = nested.getTerminator()->getOperand(0);
  auto product = yielded.getDefiningOp<arith::MulFOp>();
  if (!product)
    return failure();
  std::optional<StreamRead> a = widenedRead(product.getLhs());
  std::optional<StreamRead> b = widenedRead(product.getRhs());
  if (!a || !b || a->element != b->element)
    return failure();
  unsigned nestedDim = rank + 1;
  for (const StreamRead *read : {&*a, &*b}) {
    AffineMap map = read->map;
    if (map.getNumDims() != rank + 2 || map.getNumResults() == 0)
      return failure();
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!innermost || innermost.getPosition() != nestedDim)
      return failure();
    for (AffineExpr e : map.getResults().drop_back())
      if (e.isFunctionOfDim(nestedDim))
        return failure();
    if (map.isFunctionOfDim(rank - 1)) {
      why = "its recomputed reduction reads the output's innermost index";
      return failure();
    }
  }
  bool aStreams = a->map.isFunctionOfDim(rank);
  bool bStreams = b->map.isFunctionOfDim(rank);
  if (aStreams == bStreams) {
    why = "its recomputed reduction is not a contraction of an operand "
          "read along the output with one read along the streamed index";
    return failure();
  }
  stream.lhs = aStreams ? *b : *a;
  stream.rhs = aStreams ? *a : *b;
  // The flash kernel copies each block of keys once for all its rows.
  if (stream.rhs.map.isFunctionOfDim(rank - 2)) {
    why = "its recomputed reduction's operand read along the streamed "
          "index also reads the output's rows (each row its own keys)";
    return failure();
  }
  why.clear();
  return success();
}

LogicalResult StreamAnalysis::analyseFollower(unsigned i, Value term,
                                              ContractionStream &stream,
                                              std::string &why) {
  if (!of(term).reads(rank - 1))
    return success(); // a value of the row (attention's L)
  why = "a sum's term varies along the output's innermost index other "
        "than as a value of its row times a 16-bit float operand read "
        "with that index innermost";
  auto product = term.getDefiningOp<arith::MulFOp>();
  if (!product)
    return failure();
  for (auto [factor, other] : {std::pair(product.getLhs(), product.getRhs()),
                               std::pair(product.getRhs(), product.getLhs())}) {
    if (of(factor).reads(rank - 1))
      continue;
    std::optional<StreamRead> read = widenedRead(other);
    if (!read || read->map.getNumDims() != rank + 1)
      continue;
    AffineMap map = read->map;
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!innermost || innermost.getPosition() != rank - 1 ||
        !map.isFunctionOfDim(rank) ||
        llvm::any_of(map.getResults().drop_back(),
                     [&](AffineExpr e) { return e.isFunctionOfDim(rank - 1); }))
      continue;
    if (read->element != stream.lhs.element)
      continue;
    if (map.isFunctionOfDim(rank - 2)) { // (copied once for all rows)
      why = "a sum contracts with an operand that also reads the output's "
            "rows (each row its own values)";
      return failure();
    }
    if (stream.value && (stream.value->buffer != read->buffer ||
                         stream.value->map != read->map)) {
      why = "two sums contract with different operands";
      return failure();
    }
    stream.value = *read;
    stream.factors[i] = factor;
    why.clear();
    return success();
  }
  return failure();
}

FailureOr<ContractionStream> StreamAnalysis::run(std::string &why) {
  if (rank < 2) {
    why = "its output has fewer than two dimensions";
    return failure();
  }
  if (failed(computeDependences(why)))
    return failure();
  if (!scores) {
    why = "its body recomputes no contraction";
    return failure();
  }
  ContractionStream stream;
  stream.scores = scores;
  stream.factors.assign(isLeader.size(), Value());
  if (failed(analyseScores(*view.asNestedSum(scores), stream, why)))
    return failure();
  Operation *yield = body.getTerminator();
  for (auto [i, term] : llvm::enumerate(yield->getOperands())) {
    if (isLeader[i]) {
      if (of(term).reads(rank - 1)) {
        why = "a leader's term varies along the output's innermost index";
        return failure();
      }
      continue;
    }
    if (failed(analyseFollower(i, term, stream, why)))
      return failure();
  }
  return stream;
}

FailureOr<ContractionStream>
nautilus::analyseContractionStream(Block &body, ArrayRef<bool> isLeader,
                                   const StreamBodyView &view,
                                   std::string &why) {
  return StreamAnalysis(body, isLeader, view).run(why);
}

FailureOr<ContractionStream>
nautilus::analyseTileStream(tile::OnlineReduceOp stream, unsigned rank,
                            std::string &why) {
  SmallVector<bool> isLeader;
  for (unsigned i = 0; i < stream.getNumResults(); ++i)
    isLeader.push_back(stream.isLeader(i));
  return analyseContractionStream(stream.getBody().front(), isLeader,
                                  tileStreamView(stream, rank), why);
}

StreamBodyView nautilus::algStreamView(alg::OnlineReduceOp stream) {
  StreamBodyView view;
  unsigned rank = stream.getRank();
  view.rank = rank;
  view.asRead = [](Operation *op) -> std::optional<StreamRead> {
    auto load = dyn_cast<alg::LoadOp>(op);
    if (!load || !load.getIndirect().empty())
      return std::nullopt;
    return StreamRead{op, load.getTensor(), load.getMap(),
                      load.getResult().getType()};
  };
  view.gathers = [](Operation *op) {
    auto load = dyn_cast<alg::LoadOp>(op);
    return load && !load.getIndirect().empty();
  };
  view.asNestedSum = [](Operation *op) -> Block * {
    auto reduce = dyn_cast<alg::ReduceOp>(op);
    if (!reduce || reduce.getKind() != alg::ReductionKind::sum ||
        reduce.getReduceDims().size() != 1)
      return nullptr;
    return &reduce.getBody().front();
  };
  view.isReduction = [](Operation *op) { return isa<alg::ReduceOp>(op); };
  view.indexDims = [](Operation *op) -> std::optional<SmallVector<unsigned>> {
    auto apply = dyn_cast<alg::ApplyOp>(op);
    if (!apply)
      return std::nullopt;
    SmallVector<unsigned> dims;
    for (unsigned d = 0; d < apply.getMap().getNumDims(); ++d)
      if (apply.getMap().isFunctionOfDim(d))
        dims.push_back(d);
    return dims;
  };
  view.argumentDim = [rank](BlockArgument arg) -> std::optional<unsigned> {
    if (arg.getArgNumber() <= rank)
      return arg.getArgNumber();
    return std::nullopt;
  };
  return view;
}

StreamBodyView nautilus::tileStreamView(tile::OnlineReduceOp stream,
                                        unsigned rank) {
  StreamBodyView view;
  view.rank = rank;
  view.asRead = [](Operation *op) -> std::optional<StreamRead> {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load || !load.getIndirect().empty())
      return std::nullopt;
    return StreamRead{op, load.getBuffer(), load.getMap(),
                      getElementTypeOrSelf(load.getResult().getType())};
  };
  view.gathers = [](Operation *op) {
    auto load = dyn_cast<tile::LoadOp>(op);
    return load && !load.getIndirect().empty();
  };
  view.asNestedSum = [](Operation *op) -> Block * {
    auto reduce = dyn_cast<tile::ReduceOp>(op);
    if (!reduce || reduce.getKind() != alg::ReductionKind::sum ||
        reduce.getExtents().size() != 1)
      return nullptr;
    return &reduce.getBody().front();
  };
  view.isReduction = [](Operation *op) { return isa<tile::ReduceOp>(op); };
  Value streamed = stream.getBody().front().getArgument(0);
  view.indexDims =
      [rank, streamed](Operation *op) -> std::optional<SmallVector<unsigned>> {
    if (auto index = dyn_cast<tile::IndexOp>(op))
      return SmallVector<unsigned>{static_cast<unsigned>(index.getDim())};
    if (auto broadcast = dyn_cast<vector::BroadcastOp>(op);
        broadcast && broadcast.getSource() == streamed)
      return SmallVector<unsigned>{rank};
    return std::nullopt;
  };
  view.argumentDim = [rank](BlockArgument arg) -> std::optional<unsigned> {
    if (arg.getArgNumber() == 0)
      return rank;
    return std::nullopt;
  };
  return view;
}

std::string nautilus::flashStreamRefusal(alg::OnlineReduceOp stream,
                                         std::optional<int64_t> headDim) {
  if (stream.hasMeanLeader())
    return "its leader is a mean (a Welford/Chan stream: the CPU runs it; "
           "a GPU reduces the row twice in registers)";
  if (!stream.getAccumulatorType().isF32())
    return "its accumulators are not f32";
  if (stream.getRank() < 2)
    return "its output has fewer than two dimensions";
  if (!headDim)
    return "the output's innermost extent is not bound (--shape), which "
           "the flash kernel keeps in registers";
  if (!isFlashHeadDim(*headDim))
    return "the output's innermost extent, " + std::to_string(*headDim) +
           ", is not a power of two from 16 to 256";
  SmallVector<bool> leaders;
  for (unsigned i = 0; i < stream.getAccumulators().size(); ++i)
    leaders.push_back(stream.isLeader(i));
  std::string why;
  FailureOr<ContractionStream> analysed = analyseContractionStream(
      stream.getBody().front(), leaders, algStreamView(stream), why);
  if (failed(analysed))
    return why;
  if (!analysed->value)
    return "no sum contracts with an operand read along the output's "
           "innermost index (a second contraction)";
  return "";
}

bool nautilus::recomputesReduction(alg::OnlineReduceOp stream) {
  return stream.getBody()
      .walk([](alg::ReduceOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

std::string nautilus::gpuStreamRefusal(alg::OnlineReduceOp stream,
                                       std::optional<int64_t> headDim,
                                       bool tensorCores) {
  if (recomputesReduction(stream))
    return tensorCores ? flashStreamRefusal(stream, headDim)
                       : "the flash kernel's contractions are on tensor "
                         "cores, which this target's lowering does not have";
  // (A mean's stream accumulates in f64: Welford/Chan.)
  Type accumulators = stream.getAccumulatorType();
  if (!accumulators.isF32() && !accumulators.isF64())
    return "its accumulators are neither f32 nor f64";
  unsigned rank = stream.getRank(); // (at least 1: alg-fuse-reductions
                                    // streams no scalar's chain)
  // Two reads along the streamed index, each missing an output dimension
  // the other reads, make the stream a contraction (scores given as an
  // input, S[n, m], times V[m, d]): as a row stream each output element
  // would read both again, on CUDA cores; apart, it is a tensor-core
  // contraction. (One read that misses dimensions, a bias along the row,
  // is only shared.)
  SmallVector<uint64_t> reads;
  stream.getBody().walk([&](alg::LoadOp load) {
    AffineMap map = load.getMap();
    if (!map.isFunctionOfDim(rank))
      return;
    uint64_t dims = 0;
    for (unsigned d = 0; d < rank && d < 64; ++d)
      dims |= uint64_t(map.isFunctionOfDim(d)) << d;
    reads.push_back(dims);
  });
  bool contracts = false;
  for (uint64_t a : reads)
    for (uint64_t b : reads)
      contracts |= (a & ~b) && (b & ~a);
  if (contracts)
    return std::string("a read along the streamed index serves several "
                       "output elements (a contraction") +
           (tensorCores ? ", which a row stream would run without tensor "
                          "cores)"
                        : ": a flash kernel would run it on tensor cores, "
                          "which this target's lowering does not have)");
  return "";
}

llvm::SmallVector<FlashTensorMap>
nautilus::flashTensorMaps(tile::ProgramOp program) {
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::MmaAttr mma = schedule.getMma();
  auto streams = program.getBody().getOps<tile::OnlineReduceOp>();
  if (!mma || mma.getInstr() != "wgmma" || streams.empty())
    return {};
  tile::OnlineReduceOp stream = *streams.begin();
  unsigned rank = program.getRank();
  std::string why;
  FailureOr<ContractionStream> roles = analyseTileStream(stream, rank, why);
  if (failed(roles) || !roles->value)
    return {};
  ArrayRef<int64_t> tile = schedule.getTile();
  // Rows along `rowDim` (a plain index of the map), the innermost a plain
  // index too; no other index may read the rows, the keys or the columns
  // (it must be the same over a box).
  auto mapOf = [&](const StreamRead &read, unsigned rowDim,
                   int64_t rows) -> std::optional<FlashTensorMap> {
    AffineMap map = read.map;
    SmallVector<int64_t> box;
    bool sawRows = false;
    for (AffineExpr e : llvm::reverse(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (box.empty()) {
        if (!dim)
          return std::nullopt;
        box.push_back(64);
        continue;
      }
      if (dim && dim.getPosition() == rowDim && !sawRows) {
        box.push_back(rows);
        sawRows = true;
        continue;
      }
      for (unsigned d = rank - 2; d < map.getNumDims(); ++d)
        if (e.isFunctionOfDim(d))
          return std::nullopt;
      box.push_back(1);
    }
    if (!sawRows)
      return std::nullopt;
    return FlashTensorMap{read, box};
  };
  std::optional<FlashTensorMap> keys = mapOf(roles->rhs, rank, mma.getTileK());
  std::optional<FlashTensorMap> values =
      mapOf(*roles->value, rank, mma.getTileK());
  std::optional<FlashTensorMap> query =
      mapOf(roles->lhs, rank - 2, tile[rank - 2]);
  if (!keys || !values || !query)
    return {};
  return {*keys, *values, *query};
}

std::string
nautilus::flashHeadsRefusal(tile::OnlineReduceOp stream, unsigned rank,
                            int64_t heads,
                            llvm::ArrayRef<std::optional<int64_t>> sizes) {
  if (heads == 1)
    return "";
  if (rank < 3)
    return "the output has no dimension before the rows to take heads from";
  std::string why;
  FailureOr<ContractionStream> roles = analyseTileStream(stream, rank, why);
  if (failed(roles) || !roles->value)
    return "it is not a flash kernel: " +
           (why.empty() ? std::string("it has no second contraction") : why);
  for (const StreamRead *read : {&roles->rhs, &*roles->value})
    if (!llvm::all_of(read->map.getResults(), [&](AffineExpr e) {
          return tile::isUniformOverTile(e, rank - 3, heads, sizes);
        }))
      return "a tile's heads (dimension " + std::to_string(rank - 3) +
             ") read different rows of its " +
             (read == &roles->rhs ? "keys" : "values") +
             " (tile that dimension by 1, or by a divisor of the heads "
             "that share each key, with the sizes bound)";
  return "";
}
