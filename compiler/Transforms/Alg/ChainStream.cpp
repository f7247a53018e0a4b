//===- ChainStream.cpp - The alg.online_reduce of a reduction chain ------===//
//
// StreamBuilder writes a chain's stream: its body (each leader's term,
// then each follower's at the running leaders), its epilogue (the
// consumer's, with the followers it reads; then each value stored beside
// the result), and its repairs (a factor, or a mean's addend, per
// follower). A mean's stream is widened to f64 (Widening.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Alg/Inlining.h"
#include "compiler/Transforms/Alg/ReductionChain.h"
#include "compiler/Transforms/Alg/Widening.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// `value` (a float) as `type`: truncated, extended or as it is.
Value convertFloat(OpBuilder &builder, Location loc, Value value,
                   FloatType type) {
  auto have = cast<FloatType>(value.getType());
  if (type.getWidth() < have.getWidth())
    return arith::TruncFOp::create(builder, loc, type, value);
  if (type != have)
    return arith::ExtFOp::create(builder, loc, type, value);
  return value;
}

class StreamBuilder {
public:
  StreamBuilder(const ReductionChain &chain)
      : chain(chain), consumer(chain.consumer), builder(consumer),
        accumulatorType(consumer.getBodyType()) {}

  alg::OnlineReduceOp build();

private:
  void buildBody(alg::OnlineReduceOp stream);
  void buildEpilogue(alg::OnlineReduceOp stream);
  void buildRepairs(alg::OnlineReduceOp stream);
  Value computeInEpilogue(const ChainComputed &c, ArrayRef<Value> accumulators,
                          ArrayRef<Value> followerValues);

  const ReductionChain &chain;
  SmallVector<Value> followerValues; // in the epilogue, as others read them
  alg::DefineOp consumer;
  OpBuilder builder;
  Type accumulatorType; // the consumer's, or f64 for a widened stream
};

alg::OnlineReduceOp StreamBuilder::build() {
  SmallVector<Attribute> kinds;
  for (const ChainLeader &l : chain.leaders)
    kinds.push_back(builder.getStringAttr(
        l.mean ? StringRef("mean")
               : alg::stringifyReductionKind(*l.def.getKind())));
  for (size_t i = 0; i < chain.followers.size(); ++i)
    kinds.push_back(builder.getStringAttr("sum"));
  // The exports: leaders, then followers, in the chain's order.
  SmallVector<Type> exportedTypes;
  SmallVector<Attribute> exportNames, exportDims;
  auto addExport = [&](alg::DefineOp def, ArrayRef<unsigned> along) {
    exportedTypes.push_back(def.getType());
    exportNames.push_back(def.getNameAttr());
    SmallVector<Attribute> positions;
    for (unsigned p : along)
      positions.push_back(builder.getI64IntegerAttr(p));
    exportDims.push_back(builder.getArrayAttr(positions));
  };
  for (const ChainLeader &l : chain.leaders)
    if (l.exported)
      addExport(l.def, l.along);
  for (const ChainFollower &f : chain.followers)
    if (f.exported)
      addExport(f.def, f.along);
  for (const ChainComputed &c : chain.computed)
    addExport(c.def, c.along);
  auto stream = alg::OnlineReduceOp::create(
      builder, consumer.getLoc(), consumer.getType(), exportedTypes,
      consumer.getNameAttr(), consumer.getDims(), consumer.getReduceDimsAttr(),
      builder.getArrayAttr(kinds),
      exportNames.empty() ? ArrayAttr() : builder.getArrayAttr(exportNames),
      exportDims.empty() ? ArrayAttr() : builder.getArrayAttr(exportDims),
      chain.leaders.size());
  buildBody(stream);
  // A mean's stream runs in f64 (Widening.h says why).
  if (chain.leaders.front().mean && !consumer.getBodyType().isF64() &&
      succeeded(widenToF64(stream.getBody().front())))
    accumulatorType = builder.getF64Type();
  buildEpilogue(stream);
  buildRepairs(stream);
  return stream;
}

void StreamBuilder::buildBody(alg::OnlineReduceOp stream) {
  unsigned rank = consumer.getRank();
  Type acc = consumer.getBodyType();
  Location loc = consumer.getLoc();
  Block *body = builder.createBlock(&stream.getBody());
  for (unsigned i = 0; i < rank + 1; ++i)
    body->addArgument(builder.getIndexType(), loc);
  for (size_t j = 0; j < chain.leaders.size(); ++j)
    body->addArgument(acc, loc);
  MLIRContext *ctx = consumer.getContext();
  SmallVector<Value> terms;
  for (const ChainLeader &l : chain.leaders) {
    SmallVector<AffineExpr> at(l.map.getResults());
    at.push_back(getAffineDimExpr(rank, ctx));
    IRMapping mapping;
    terms.push_back(
        inlineBlock(builder, l.def.getBody().front(),
                    AffineMap::get(rank + 1, l.map.getNumSymbols(), at, ctx),
                    mapping)
            ->front());
  }
  for (const ChainFollower &f : chain.followers) {
    IRMapping mapping;
    for (auto [j, l] : llvm::enumerate(chain.leaders))
      for (alg::LoadOp read : l.reads)
        if (read->getParentOp() == f.def)
          mapping.map(read.getResult(), body->getArgument(rank + 1 + j));
    terms.push_back(
        inlineBlock(builder, f.def.getBody().front(), f.at, mapping)->front());
  }
  alg::YieldOp::create(builder, loc, terms);
}

void StreamBuilder::buildEpilogue(alg::OnlineReduceOp stream) {
  unsigned rank = consumer.getRank();
  Type acc = consumer.getBodyType();
  Location loc = consumer.getLoc();
  Block *epilogue = builder.createBlock(&stream.getEpilogue());
  for (unsigned i = 0; i < rank; ++i)
    epilogue->addArgument(builder.getIndexType(), loc);
  // Each accumulator as the definitions' epilogues read it: rounded to
  // their type once, where the stream was widened.
  SmallVector<Value> accumulators;
  for (size_t i = 0; i < chain.leaders.size() + chain.followers.size(); ++i) {
    Value arg = epilogue->addArgument(accumulatorType, loc);
    accumulators.push_back(
        acc == accumulatorType
            ? arg
            : Value(arith::TruncFOp::create(builder, loc, acc, arg)));
  }
  auto accumulator = [&](size_t i) { return accumulators[i]; };
  followerValues.resize(chain.followers.size());
  // The stored value, then each exported leader's (its value is its
  // accumulator: a max, or a mean's mean), then each exported follower's
  // (its epilogue applied to its accumulator, as the consumer reads it).
  auto yield = [&](Value stored) {
    SmallVector<Value> values{stored};
    for (auto [j, l] : llvm::enumerate(chain.leaders)) {
      if (!l.exported)
        continue;
      auto element = cast<FloatType>(
          cast<RankedTensorType>(l.def.getType()).getElementType());
      values.push_back(convertFloat(builder, loc, accumulator(j), element));
    }
    for (auto [i, f] : llvm::enumerate(chain.followers))
      if (f.exported)
        values.push_back(followerValues[i]);
    for (const ChainComputed &c : chain.computed)
      values.push_back(computeInEpilogue(c, accumulators, followerValues));
    alg::YieldOp::create(builder, loc, values);
  };
  if (consumer.getEpilogue().empty()) {
    yield(accumulator(chain.leaders.size()));
    return;
  }
  Block &original = consumer.getEpilogue().front();
  IRMapping mapping;
  mapping.map(original.getArgument(rank), accumulator(chain.leaders.size()));
  // Leaders read in the epilogue at the stream's point are their values.
  for (auto load : original.getOps<alg::LoadOp>())
    for (auto [j, l] : llvm::enumerate(chain.leaders))
      if (definitionOf(load.getTensor()) == l.def &&
          widenMap(load.getMap(), rank + 1) == l.map)
        mapping.map(load.getResult(), accumulator(j));
  // The other followers: their epilogue applied to their accumulator.
  for (auto [i, f] : llvm::enumerate(chain.followers)) {
    if (!f.read)
      continue;
    Value folded = accumulator(chain.leaders.size() + i);
    if (!f.def.getEpilogue().empty()) {
      Block &theirs = f.def.getEpilogue().front();
      IRMapping inner;
      inner.map(theirs.getArgument(f.def.getRank()), folded);
      folded = inlineBlock(builder, theirs, f.read.getMap(), inner)->front();
    }
    mapping.map(f.read.getResult(), folded);
    followerValues[i] = folded;
  }
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(rank, builder.getContext());
  identity = AffineMap::get(rank, chain.leaders[0].map.getNumSymbols(),
                            identity.getResults(), builder.getContext());
  yield(inlineBlock(builder, original, identity, mapping)->front());
}

/// `c`'s value at the epilogue's point: its body, its reads of leaders
/// the accumulators and its reads of followers their values.
Value StreamBuilder::computeInEpilogue(const ChainComputed &c,
                                       ArrayRef<Value> accumulators,
                                       ArrayRef<Value> followerValues) {
  Location loc = consumer.getLoc();
  Block &body = c.def.getBody().front();
  IRMapping mapping;
  for (auto load : body.getOps<alg::LoadOp>()) {
    alg::DefineOp read = definitionOf(load.getTensor());
    Value value;
    for (auto [j, l] : llvm::enumerate(chain.leaders))
      if (l.def == read)
        value = accumulators[j];
    for (auto [i, f] : llvm::enumerate(chain.followers))
      if (f.def == read)
        value = followerValues[i];
    mapping.map(
        load.getResult(),
        convertFloat(builder, loc, value, cast<FloatType>(load.getType())));
  }
  MLIRContext *ctx = consumer.getContext();
  SmallVector<AffineExpr> at;
  for (unsigned p : c.along)
    at.push_back(getAffineDimExpr(p, ctx));
  return inlineBlock(builder, body,
                     AffineMap::get(consumer.getRank(),
                                    chain.leaders[0].map.getNumSymbols(), at,
                                    ctx),
                     mapping)
      ->front();
}

void StreamBuilder::buildRepairs(alg::OnlineReduceOp stream) {
  Type acc = accumulatorType;
  Location loc = consumer.getLoc();
  for (size_t j = 0; j < chain.leaders.size(); ++j) {
    Block *block = builder.createBlock(&stream.getRepairs()[j]);
    Value oldValue = block->addArgument(acc, loc);
    Value newValue = block->addArgument(acc, loc);
    SmallVector<Value> repairs;
    IRMapping mapping;
    if (chain.leaders[j].mean) {
      Value count = block->addArgument(acc, loc);
      for (const ChainFollower &f : chain.followers)
        repairs.push_back(buildMeanAddend(builder, loc, f.meanRepair, oldValue,
                                          newValue, count, mapping));
    } else {
      for (const ChainFollower &f : chain.followers)
        repairs.push_back(buildRepairFactor(builder, loc, f.repairs[j],
                                            oldValue, newValue, mapping));
    }
    alg::YieldOp::create(builder, loc, repairs);
  }
}

} // namespace

alg::OnlineReduceOp nautilus::buildStream(const ReductionChain &chain) {
  return StreamBuilder(chain).build();
}
