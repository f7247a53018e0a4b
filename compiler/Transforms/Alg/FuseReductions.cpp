//===- FuseReductions.cpp - Stream chains of reductions in one pass -------===//
//
// A sum C over index k that reads a max (or min) R over the same k through
// a repairable term (Repair.h) becomes one alg.online_reduce with R as its
// leader; the sums C's epilogue reads that follow the same leaders join it
// (softmax's denominator beside attention's numerator). Reductions the
// stream's body reads point by point (attention's S) are then recomputed
// there as nested alg.reduce, so that nothing of the stream's full domain
// is stored. Each fusion, and each refusal with its reason, is a remark.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Inlining.h"
#include "compiler/Transforms/Alg/MeanRepair.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/Repair.h"
#include "compiler/Transforms/Alg/Widening.h"
#include "dialects/Tile/Utils/ContractionStream.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGFUSEREDUCTIONS
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// A reduction that folds one index, the same as `over`.
bool foldsOnly(alg::DefineOp def, Attribute over) {
  return def && def.isReduction() && def.getNumReduced() == 1 &&
         def.getReduceDimsAttr()[0] == over;
}

bool isLeaderKind(alg::DefineOp def) {
  return *def.getKind() == alg::ReductionKind::max ||
         *def.getKind() == alg::ReductionKind::min;
}

/// `map` read at `at`: its dims replaced by `at`'s results (both over the
/// kernel's sizes as symbols).
AffineMap substituteDims(AffineMap map, AffineMap at) {
  SmallVector<AffineExpr> symbols;
  for (unsigned i = 0; i < map.getNumSymbols(); ++i)
    symbols.push_back(getAffineSymbolExpr(i, map.getContext()));
  return map.replaceDimsAndSymbols(at.getResults(), symbols, at.getNumDims(),
                                   map.getNumSymbols());
}

/// Whether `def` is a mean over `over`: a float sum whose epilogue divides
/// it by the index's extent (`sum[d](x) / D`).
bool isMeanOver(alg::DefineOp def, Attribute over) {
  if (*def.getKind() != alg::ReductionKind::sum || def.getEpilogue().empty() ||
      !isa<FloatType>(def.getBodyType()))
    return false;
  Block &epilogue = def.getEpilogue().front();
  auto div = cast<alg::YieldOp>(epilogue.getTerminator())
                 .getValue()
                 .getDefiningOp<arith::DivFOp>();
  if (!div || div.getLhs() != epilogue.getArgument(def.getRank()))
    return false;
  Value by = div.getRhs();
  while (Operation *cast = by.getDefiningOp()) {
    if (!isa<arith::SIToFPOp, arith::UIToFPOp, arith::IndexCastOp,
             arith::ExtFOp, arith::TruncFOp>(cast))
      break;
    by = cast->getOperand(0);
  }
  if (auto size = by.getDefiningOp<alg::SizeOp>())
    return isa<StringAttr>(over) &&
           size.getName() == cast<StringAttr>(over).getValue();
  // A bound extent (--shape) is a constant by now: the binding's, or the
  // literal extent's.
  std::optional<double> k = evaluatePointFree(div.getRhs());
  std::optional<int64_t> extent;
  if (auto literal = dyn_cast<IntegerAttr>(over))
    extent = literal.getInt();
  else if (DictionaryAttr bindings =
               def->getParentOfType<alg::KernelOp>().getBindingsAttr())
    if (auto bound = bindings.getAs<IntegerAttr>(cast<StringAttr>(over)))
      extent = bound.getInt();
  return k && extent && *k == double(*extent);
}

/// Whether `a` (in a block whose domain is over the stream's by `aAt`)
/// computes what `b` does (likewise by `bAt`): the same ops on the same
/// elements.
bool sameComputation(Value a, AffineMap aAt, Value b, AffineMap bAt) {
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || x->getName() != y->getName() ||
      x->getNumOperands() != y->getNumOperands() || x->getNumRegions() ||
      y->getNumRegions() || a.getType() != b.getType())
    return false;
  if (auto loadA = dyn_cast<alg::LoadOp>(x)) {
    auto loadB = cast<alg::LoadOp>(y);
    return loadA.getTensor() == loadB.getTensor() &&
           loadA.getIndirect().empty() && loadB.getIndirect().empty() &&
           substituteDims(loadA.getMap(), aAt) ==
               substituteDims(loadB.getMap(), bAt);
  }
  if (x->getAttrDictionary() != y->getAttrDictionary())
    return false;
  for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
    if (p != q && !sameComputation(p, aAt, q, bAt))
      return false;
  return true;
}

bool readsDim(AffineMap map, unsigned dim) {
  return llvm::any_of(map.getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(dim); });
}

/// `map` (over `from` dims) over `to` dims, the extra ones unused.
AffineMap widen(AffineMap map, unsigned to) {
  return AffineMap::get(to, map.getNumSymbols(), map.getResults(),
                        map.getContext());
}

/// Merges loads of one element in `block` into the first, so that a
/// running value read twice is one value.
void mergeSameLoads(Block &block) {
  SmallVector<alg::LoadOp> seen;
  for (alg::LoadOp load : llvm::make_early_inc_range(block.getOps<alg::LoadOp>())) {
    auto same = llvm::find_if(seen, [&](alg::LoadOp earlier) {
      return earlier.getTensor() == load.getTensor() &&
             earlier.getMap() == load.getMap() &&
             earlier.getIndirect().empty() && load.getIndirect().empty();
    });
    if (same == seen.end()) {
      seen.push_back(load);
      continue;
    }
    load.getResult().replaceAllUsesWith(same->getResult());
    load.erase();
  }
}

/// A leader of a stream: the definition and where the consumer reads it.
// (Op handles are mutable: their accessors are not const.)
struct Leader {
  mutable alg::DefineOp def;
  AffineMap map; // over the stream's domain (left-hand indices, then k)
  SmallVector<alg::LoadOp> reads; // in the bodies that will be streamed
  bool mean = false; // a mean (then the chain's only leader), not a max/min
  bool exported = false; // others read it: the stream stores it too
};

/// A follower: a sum over k whose term reads the leaders.
struct Follower {
  mutable alg::DefineOp def;
  AffineMap at;   // its body's domain over the stream's domain
  SmallVector<Repair> repairs; // one per leader (max or min)
  MeanRepair meanRepair;       // of a chain whose leader is a mean
  mutable alg::LoadOp read; // where the consumer's epilogue reads it (null: C)
};

/// One chain: the stream that replaces `consumer`.
struct Chain {
  alg::DefineOp consumer;
  SmallVector<Leader> leaders;
  SmallVector<Follower, 2> followers; // the consumer first
};

class ChainBuilder {
public:
  /// `storesLeaders`: whether the target's streams may store a leader
  /// that others read beside their result (the CPU's), rather than leave
  /// it a pass of its own.
  ChainBuilder(alg::DefineOp consumer, bool storesLeaders = false)
      : consumer(consumer), storesLeaders(storesLeaders) {}

  /// The chain of `consumer`, or failure with `why` empty when it reads no
  /// leader (nothing to fuse) or set when a fusion is refused.
  FailureOr<Chain> analyse(std::string &why);

private:
  LogicalResult findLeaders(std::string &why);
  FailureOr<Follower> follow(alg::DefineOp def, AffineMap at,
                             std::string &why);
  void addEpilogueFollowers();
  bool computesLeaderTerm(Value v, AffineMap at);
  LogicalResult placeLeadersReadElsewhere(std::string &why);

  alg::DefineOp consumer;
  bool storesLeaders;
  Chain chain;
};

LogicalResult ChainBuilder::findLeaders(std::string &why) {
  Attribute over = consumer.getReduceDimsAttr()[0];
  unsigned k = consumer.getRank();
  mergeSameLoads(consumer.getBody().front());
  for (auto load : consumer.getBody().front().getOps<alg::LoadOp>()) {
    alg::DefineOp def = definitionOf(load.getTensor());
    if (!foldsOnly(def, over) || readsDim(load.getMap(), k) ||
        !load.getIndirect().empty())
      continue;
    bool mean = !isLeaderKind(def) && isMeanOver(def, over);
    if (!isLeaderKind(def) && !mean) {
      why = "it reads '" + def.getName().str() + "', a " +
            alg::stringifyReductionKind(*def.getKind()).str() +
            " over the same index that is not a mean (its sum divided by "
            "the index's extent): only a max, a min or a mean can lead a "
            "stream";
      return failure();
    }
    if (def.getBodyType() != consumer.getBodyType()) {
      why = "its leader '" + def.getName().str() +
            "' accumulates in another type";
      return failure();
    }
    if (!def.getEpilogue().empty() && !mean) {
      why = "its leader '" + def.getName().str() +
            "' has an epilogue: the running value would pass through it";
      return failure();
    }
    auto it = llvm::find_if(chain.leaders,
                            [&](const Leader &l) { return l.def == def; });
    if (it == chain.leaders.end()) {
      chain.leaders.push_back({def, load.getMap(), {load}, mean});
    } else if (it->map != load.getMap()) {
      why = "it reads '" + def.getName().str() + "' at two points";
      return failure();
    } else {
      it->reads.push_back(load);
    }
  }
  if (chain.leaders.size() > 1 &&
      llvm::any_of(chain.leaders, [](const Leader &l) { return l.mean; })) {
    why = "it reads a mean and another leader ('" +
          chain.leaders[0].def.getName().str() + "', '" +
          chain.leaders[1].def.getName().str() +
          "'): a stream follows a mean alone";
    return failure();
  }
  for (Leader &l : chain.leaders)
    for (auto load : l.def.getBody().front().getOps<alg::LoadOp>())
      if (foldsOnly(definitionOf(load.getTensor()), over) &&
          !readsDim(load.getMap(), l.def.getRank())) {
        why = "its leader '" + l.def.getName().str() +
              "' itself reads a reduction over the same index";
        return failure();
      }
  return success();
}

/// `def` (a sum over k) as a follower of the chain's leaders, its body's
/// domain given over the stream's by `at`.
FailureOr<Follower> ChainBuilder::follow(alg::DefineOp def, AffineMap at,
                                         std::string &why) {
  Follower f{def, at, {}, {}, nullptr};
  Block &body = def.getBody().front();
  mergeSameLoads(body);
  if (def.getBodyType() != consumer.getBodyType()) {
    why = "'" + def.getName().str() + "' accumulates in another type";
    return failure();
  }
  SmallVector<Value> running(chain.leaders.size());
  for (auto load : body.getOps<alg::LoadOp>()) {
    alg::DefineOp read = definitionOf(load.getTensor());
    auto it = llvm::find_if(chain.leaders,
                            [&](const Leader &l) { return l.def == read; });
    if (it == chain.leaders.end()) {
      if (foldsOnly(read, consumer.getReduceDimsAttr()[0]) &&
          !readsDim(load.getMap(), def.getRank())) {
        why = "'" + def.getName().str() + "' reads '" + read.getName().str() +
              "', which is not a leader of the chain";
        return failure();
      }
      continue;
    }
    AffineMap composed = substituteDims(load.getMap(), at);
    unsigned j = it - chain.leaders.begin();
    if (composed != it->map || (running[j] && running[j] != load)) {
      why = "'" + def.getName().str() + "' reads '" + read.getName().str() +
            "' at another point";
      return failure();
    }
    running[j] = load;
    if (def != consumer)
      it->reads.push_back(load);
  }
  Value term = cast<alg::YieldOp>(body.getTerminator()).getValue();
  if (chain.leaders.front().mean) {
    std::string reason;
    FailureOr<MeanRepair> repair =
        running[0]
            ? deriveMeanRepair(
                  term, running[0],
                  [&](Value v) { return computesLeaderTerm(v, at); }, reason)
            : FailureOr<MeanRepair>(MeanRepair{});
    if (failed(repair)) {
      why = "the term of '" + def.getName().str() + "' has no repair in '" +
            chain.leaders[0].def.getName().str() + "': " + reason;
      return failure();
    }
    f.meanRepair = *repair;
    return f;
  }
  for (auto [j, value] : llvm::enumerate(running)) {
    std::string reason;
    FailureOr<Repair> repair =
        value ? deriveRepair(term, value, reason) : FailureOr<Repair>(Repair{});
    if (failed(repair)) {
      why = "the term of '" + def.getName().str() + "' has no repair in '" +
            chain.leaders[j].def.getName().str() + "': " + reason;
      return failure();
    }
    f.repairs.push_back(*repair);
  }
  return f;
}

/// Whether `v` (in a follower's body, its domain over the stream's by
/// `at`) computes the mean leader's own term.
bool ChainBuilder::computesLeaderTerm(Value v, AffineMap at) {
  const Leader &leader = chain.leaders.front();
  Block &theirs = leader.def.getBody().front();
  Value term = cast<alg::YieldOp>(theirs.getTerminator()).getValue();
  SmallVector<AffineExpr> results(leader.map.getResults());
  results.push_back(
      getAffineDimExpr(consumer.getRank(), consumer.getContext()));
  AffineMap theirsAt =
      AffineMap::get(consumer.getRank() + 1, leader.map.getNumSymbols(),
                     results, consumer.getContext());
  return sameComputation(v, at, term, theirsAt);
}

/// The sums over k that the consumer's epilogue reads and that follow the
/// same leaders join the chain; the others stay passes of their own.
void ChainBuilder::addEpilogueFollowers() {
  if (consumer.getEpilogue().empty())
    return;
  unsigned rank = consumer.getRank();
  Attribute over = consumer.getReduceDimsAttr()[0];
  MLIRContext *ctx = consumer.getContext();
  for (auto load : consumer.getEpilogue().front().getOps<alg::LoadOp>()) {
    alg::DefineOp def = definitionOf(load.getTensor());
    if (!foldsOnly(def, over) || isLeaderKind(def) ||
        !load.getIndirect().empty() || def == consumer ||
        llvm::any_of(chain.leaders,
                     [&](const Leader &l) { return l.def == def; }))
      continue;
    if (llvm::any_of(chain.followers,
                     [&](const Follower &f) { return f.def == def; }))
      continue;
    // Its body's domain: the epilogue's map of its indices, then k.
    SmallVector<AffineExpr> results(widen(load.getMap(), rank + 1).getResults());
    results.push_back(getAffineDimExpr(rank, ctx));
    AffineMap at = AffineMap::get(rank + 1, load.getMap().getNumSymbols(),
                                  results, ctx);
    std::string why;
    FailureOr<Follower> f = follow(def, at, why);
    if (failed(f))
      continue;
    f->read = load;
    chain.followers.push_back(*f);
  }
}

FailureOr<Chain> ChainBuilder::analyse(std::string &why) {
  chain.consumer = consumer;
  if (!consumer.isReduction() || consumer.getNumReduced() != 1 ||
      *consumer.getKind() != alg::ReductionKind::sum ||
      !isa<FloatType>(consumer.getBodyType()))
    return failure();
  if (failed(findLeaders(why)) || chain.leaders.empty())
    return failure();
  unsigned rank = consumer.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(
      rank + 1, consumer.getContext());
  identity = AffineMap::get(rank + 1, chain.leaders[0].map.getNumSymbols(),
                            identity.getResults(), consumer.getContext());
  FailureOr<Follower> self = follow(consumer, identity, why);
  if (failed(self))
    return failure();
  chain.followers.push_back(*self);
  addEpilogueFollowers();
  if (failed(placeLeadersReadElsewhere(why)))
    return failure();
  return chain;
}

/// A leader that definitions outside the chain read too (softmax's Y reads
/// Mx; layernorm's Y reads Mu) is stored by the stream beside its result
/// where the target allows (`storesLeaders`) and the leader's domain is the
/// stream's; otherwise a max keeps a pass of its own, and a mean refuses
/// the stream: streaming it pays (terms in f64, no split across programs)
/// only where it replaces the mean's pass. (Layernorm's Var streamed with
/// Mu left in its own pass was no faster on the CPU, and 1.6x slower over 8
/// rows of 65536.)
LogicalResult ChainBuilder::placeLeadersReadElsewhere(std::string &why) {
  unsigned rank = consumer.getRank();
  for (Leader &leader : chain.leaders) {
    bool elsewhere = false;
    alg::DefineOp outsider;
    for (Operation *user : leader.def->getUsers()) {
      alg::DefineOp reader = user->getParentOfType<alg::DefineOp>();
      if (reader && llvm::any_of(chain.followers, [&](const Follower &f) {
            return f.def == reader;
          }))
        continue;
      elsewhere = true;
      outsider = reader;
    }
    if (!elsewhere)
      continue;
    bool sameDomain =
        leader.def.getDims() == consumer.getDims() &&
        leader.map.getResults() ==
            AffineMap::getMultiDimIdentityMap(rank, consumer.getContext())
                .getResults();
    if (storesLeaders && sameDomain) {
      leader.exported = true;
      continue;
    }
    if (leader.mean) {
      why = "its mean '" + leader.def.getName().str() + "' is read " +
            (outsider ? "by '" + outsider.getName().str() + "'"
                      : std::string("outside the chain")) +
            " too, and " +
            (storesLeaders ? "its domain is not the stream's"
                           : "this target's streams do not store it") +
            ": its pass would remain, and the stream would save none";
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Building the stream
//===----------------------------------------------------------------------===//

class StreamBuilder {
public:
  StreamBuilder(const Chain &chain)
      : chain(chain), consumer(chain.consumer), builder(consumer),
        accumulatorType(consumer.getBodyType()) {}

  alg::OnlineReduceOp build();

private:
  void buildBody(alg::OnlineReduceOp stream);
  void buildEpilogue(alg::OnlineReduceOp stream);
  void buildRepairs(alg::OnlineReduceOp stream);

  const Chain &chain;
  alg::DefineOp consumer;
  OpBuilder builder;
  Type accumulatorType; // the consumer's, or f64 for a widened stream
};

alg::OnlineReduceOp StreamBuilder::build() {
  SmallVector<Attribute> kinds;
  for (const Leader &l : chain.leaders)
    kinds.push_back(builder.getStringAttr(
        l.mean ? StringRef("mean")
               : alg::stringifyReductionKind(*l.def.getKind())));
  for (size_t i = 0; i < chain.followers.size(); ++i)
    kinds.push_back(builder.getStringAttr("sum"));
  SmallVector<Type> exportedTypes;
  SmallVector<Attribute> exportNames;
  for (const Leader &l : chain.leaders)
    if (l.exported) {
      exportedTypes.push_back(l.def.getType());
      exportNames.push_back(l.def.getNameAttr());
    }
  auto stream = alg::OnlineReduceOp::create(
      builder, consumer.getLoc(), consumer.getType(), exportedTypes,
      consumer.getNameAttr(), consumer.getDims(), consumer.getReduceDimsAttr(),
      builder.getArrayAttr(kinds),
      exportNames.empty() ? ArrayAttr() : builder.getArrayAttr(exportNames),
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
  for (const Leader &l : chain.leaders) {
    SmallVector<AffineExpr> at(l.map.getResults());
    at.push_back(getAffineDimExpr(rank, ctx));
    IRMapping mapping;
    terms.push_back(inlineBlock(builder, l.def.getBody().front(),
                                AffineMap::get(rank + 1, l.map.getNumSymbols(),
                                               at, ctx),
                                mapping)
                        ->front());
  }
  for (const Follower &f : chain.followers) {
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
  // The stored value, then each exported leader's (its value is its
  // accumulator: a max, or a mean's mean).
  auto yield = [&](Value stored) {
    SmallVector<Value> values{stored};
    for (auto [j, l] : llvm::enumerate(chain.leaders)) {
      if (!l.exported)
        continue;
      Value value = accumulator(j);
      auto element = cast<FloatType>(
          cast<RankedTensorType>(l.def.getType()).getElementType());
      if (value.getType() != element)
        value =
            element.getWidth() < cast<FloatType>(value.getType()).getWidth()
                ? Value(arith::TruncFOp::create(builder, loc, element, value))
                : Value(arith::ExtFOp::create(builder, loc, element, value));
      values.push_back(value);
    }
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
          widen(load.getMap(), rank + 1) == l.map)
        mapping.map(load.getResult(), accumulator(j));
  // The other followers: their epilogue applied to their accumulator.
  for (auto [i, f] : llvm::enumerate(chain.followers)) {
    if (!f.read)
      continue;
    Value folded = accumulator(chain.leaders.size() + i);
    if (f.def.getEpilogue().empty()) {
      mapping.map(f.read.getResult(), folded);
      continue;
    }
    Block &theirs = f.def.getEpilogue().front();
    IRMapping inner;
    inner.map(theirs.getArgument(f.def.getRank()), folded);
    mapping.map(f.read.getResult(),
                inlineBlock(builder, theirs, f.read.getMap(), inner)->front());
  }
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, builder.getContext());
  identity = AffineMap::get(rank, chain.leaders[0].map.getNumSymbols(),
                            identity.getResults(), builder.getContext());
  yield(inlineBlock(builder, original, identity, mapping)->front());
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
      for (const Follower &f : chain.followers)
        repairs.push_back(buildMeanAddend(builder, loc, f.meanRepair, oldValue,
                                          newValue, count, mapping));
    } else {
      for (const Follower &f : chain.followers)
        repairs.push_back(buildRepairFactor(builder, loc, f.repairs[j],
                                            oldValue, newValue, mapping));
    }
    alg::YieldOp::create(builder, loc, repairs);
  }
}

//===----------------------------------------------------------------------===//
// Recomputing what a stream reads point by point
//===----------------------------------------------------------------------===//

/// Replaces `load` (in a stream's body, of the reduction `def`) by a
/// nested alg.reduce computing the element, and `def`'s epilogue.
void recomputeAt(alg::DefineOp def, alg::LoadOp load) {
  OpBuilder builder(load);
  MLIRContext *ctx = def.getContext();
  Location loc = load.getLoc();
  AffineMap map = load.getMap();
  unsigned domain = map.getNumDims(), reduced = def.getNumReduced();
  auto reduce = alg::ReduceOp::create(builder, loc, def.getBodyType(),
                                      *def.getKind(), def.getReduceDimsAttr());
  Block *body = builder.createBlock(&reduce.getBody());
  for (unsigned i = 0; i < domain + reduced; ++i)
    body->addArgument(builder.getIndexType(), loc);
  SmallVector<AffineExpr> at(widen(map, domain + reduced).getResults());
  for (unsigned i = 0; i < reduced; ++i)
    at.push_back(getAffineDimExpr(domain + i, ctx));
  IRMapping mapping;
  Value term = inlineBlock(builder, def.getBody().front(),
                           AffineMap::get(domain + reduced,
                                          map.getNumSymbols(), at, ctx),
                           mapping)
                   ->front();
  alg::YieldOp::create(builder, loc, term);
  builder.setInsertionPointAfter(reduce);
  Value value = reduce.getResult();
  if (!def.getEpilogue().empty()) {
    Block &epilogue = def.getEpilogue().front();
    IRMapping inner;
    inner.map(epilogue.getArgument(def.getRank()), value);
    value = inlineBlock(builder, epilogue, map, inner)->front();
  }
  load.getResult().replaceAllUsesWith(value);
  load.erase();
}

/// Whether every read of `def` is a load in the body of a stream.
bool readOnlyByStreams(alg::DefineOp def) {
  return llvm::all_of(def->getUsers(), [](Operation *user) {
    auto load = dyn_cast<alg::LoadOp>(user);
    return load && load.getIndirect().empty() &&
           isa<alg::OnlineReduceOp>(load->getParentOp()) &&
           load->getParentRegion() ==
               &cast<alg::OnlineReduceOp>(load->getParentOp()).getBody();
  });
}

std::string names(const Chain &chain) {
  std::string s;
  for (const Follower &f : chain.followers)
    s += (s.empty() ? "'" : ", '") + f.def.getName().str() + "'";
  return s;
}

struct AlgFuseReductionsPass
    : public SchedulingPass<
          nautilus::impl::AlgFuseReductionsBase<AlgFuseReductionsPass>> {
  using SchedulingPass::SchedulingPass;

  void setExplain(bool value) { explain = value; }

  void runOnOperation() override {
    std::optional<TargetInfo> target = moduleTarget();
    if (!target)
      return;
    for (auto kernel :
         llvm::make_early_inc_range(getOperation().getOps<alg::KernelOp>())) {
      if (target->isCPU())
        fuse(kernel, *target, explain);
      else
        fuseWhereStreamsRun(kernel, *target);
    }
  }

  /// A GPU runs a stream as one flash kernel (flashStreamRefusal says
  /// which): the kernel's chains are fused on a copy first, and the fusion
  /// is kept only if every stream it made is one; otherwise the
  /// reductions stay separate programs, with the reason as a remark.
  void fuseWhereStreamsRun(alg::KernelOp kernel, const TargetInfo &target) {
    OpBuilder b(kernel);
    auto trial = cast<alg::KernelOp>(b.clone(*kernel));
    fuse(trial, target, /*explainNow=*/false);
    std::string refusal;
    alg::OnlineReduceOp refused;
    for (auto stream : trial.getBody().getOps<alg::OnlineReduceOp>()) {
      refusal = flashStreamRefusal(stream, innermostExtent(kernel, stream));
      if (!refusal.empty()) {
        refused = stream;
        break;
      }
    }
    if (!refused) {
      trial.erase();
      fuse(kernel, target, explain);
      return;
    }
    if (explain)
      for (auto def : kernel.getBody().getOps<alg::DefineOp>()) {
        std::string why;
        if (def.getName() == refused.getName())
          def.emitRemark() << "'" << def.getName() << "' could stream, but "
                           << "not as a flash kernel on " << target.name
                           << ": " << refusal;
        else if (failed(ChainBuilder(def).analyse(why)) && !why.empty())
          def.emitRemark() << "'" << def.getName()
                           << "' is not streamed: " << why;
      }
    trial.erase();
  }

  /// The bound extent of `stream`'s innermost output dimension.
  static std::optional<int64_t> innermostExtent(alg::KernelOp kernel,
                                                alg::OnlineReduceOp stream) {
    auto name = cast<StringAttr>(stream.getDims().getValue().back());
    if (DictionaryAttr bindings = kernel.getBindingsAttr())
      if (auto value = bindings.getAs<IntegerAttr>(name))
        return value.getInt();
    return std::nullopt;
  }

  /// Streams every chain of `kernel` that the provider lets fuse, with
  /// the remarks when `explainNow`.
  void fuse(alg::KernelOp kernel, const TargetInfo &target, bool explainNow) {
    alg::ReturnOp ret = kernel.getReturn();
    SmallVector<alg::DefineOp> defines(kernel.getBody().getOps<alg::DefineOp>());
    llvm::SmallPtrSet<Operation *, 8> erased;
    auto dropIfDead = [&](alg::DefineOp def) {
      if (def->use_empty() &&
          !llvm::is_contained(ret.getOutputs(), def.getResult()) &&
          erased.insert(def).second)
        def.erase();
    };
    // Last first: a consumer takes the sums its epilogue reads with it.
    for (alg::DefineOp consumer : llvm::reverse(defines)) {
      if (erased.contains(consumer))
        continue;
      std::string why;
      FailureOr<Chain> chain =
          ChainBuilder(consumer, target.isCPU()).analyse(why);
      if (failed(chain)) {
        if (!why.empty() && explainNow)
          consumer.emitRemark() << "'" << consumer.getName()
                                << "' is not streamed: " << why;
        continue;
      }
      std::string refusal;
      if (!schedules->fusesReductions(target, refusal)) {
        if (explainNow)
          consumer.emitRemark() << "'" << consumer.getName()
                                << "' could stream, but not on "
                                << target.name << ": " << refusal;
        continue;
      }
      alg::OnlineReduceOp stream = StreamBuilder(*chain).build();
      if (explainNow) {
        InFlightDiagnostic remark = consumer.emitRemark();
        remark << "streamed " << names(*chain) << " over "
               << chain->consumer.getReduceDimsAttr()[0] << " with leader";
        for (const Leader &l : chain->leaders)
          remark << " '" << l.def.getName() << "'"
                 << (l.mean ? " (a mean)" : "")
                 << (l.exported ? " (stored beside it)" : "");
        remark << "; repairs:";
        for (const Follower &f : chain->followers) {
          remark << " '" << f.def.getName() << "'";
          if (chain->leaders.front().mean)
            remark << " " << describeMeanRepair(f.meanRepair);
          for (const Repair &r : f.repairs)
            remark << " " << describeRepair(r);
        }
      }
      consumer.getResult().replaceAllUsesWith(stream.getResult());
      erased.insert(consumer);
      consumer.erase();
      unsigned e = 0;
      for (const Leader &l : chain->leaders)
        if (l.exported) {
          l.def.getResult().replaceAllUsesWith(stream.getExported()[e++]);
          erased.insert(l.def);
          l.def.erase();
        }
      for (const Follower &f : chain->followers)
        if (f.def != chain->consumer)
          dropIfDead(f.def);
      for (const Leader &l : chain->leaders)
        if (!l.exported)
          dropIfDead(l.def);
    }
    recomputeReadsOfStreams(kernel, ret, target, explainNow);
  }

  /// Reductions read only point by point by streams (attention's S) are
  /// recomputed there, and no longer stored, where the provider says so.
  void recomputeReadsOfStreams(alg::KernelOp kernel, alg::ReturnOp ret,
                               const TargetInfo &target, bool explainNow) {
    SmallVector<alg::DefineOp> defines(kernel.getBody().getOps<alg::DefineOp>());
    for (alg::DefineOp def : defines) {
      if (!def.isReduction() || def->use_empty() ||
          llvm::is_contained(ret.getOutputs(), def.getResult()) ||
          !readOnlyByStreams(def))
        continue;
      std::string why;
      if (!schedules->recomputesInStreams(target, why)) {
        if (explainNow)
          def.emitRemark() << "'" << def.getName() << "' stays stored: "
                           << why;
        continue;
      }
      for (alg::LoadOp load : mergeIdenticalReads(def.getResult()))
        recomputeAt(def, load);
      if (explainNow)
        def.emitRemark() << "'" << def.getName()
                         << "' is recomputed where the streams read it, "
                            "and not stored";
      def.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createAlgFuseReductions(
    std::shared_ptr<ScheduleProvider> schedules, bool explain) {
  auto pass = std::make_unique<AlgFuseReductionsPass>(std::move(schedules));
  pass->setExplain(explain);
  return pass;
}
