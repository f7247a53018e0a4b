//===- ReductionChain.cpp - Finding a chain of reductions to stream ------===//
//
// ChainBuilder: from a sum over k, the leaders its term reads, the sums its
// epilogue reads that follow them, each with its repair (Repair.h,
// MeanRepair.h), and what the stream must store beside its result: the
// leaders and sums that later definitions read, over a projection of the
// stream's domain, and the element-wise definitions of them alone that it
// computes in its epilogue. Each refusal gives its reason.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Alg/ReductionChain.h"
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Inlining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

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

/// Merges loads of one element in `block` into the first, so that a
/// running value read twice is one value.
void mergeSameLoads(Block &block) {
  SmallVector<alg::LoadOp> seen;
  for (alg::LoadOp load :
       llvm::make_early_inc_range(block.getOps<alg::LoadOp>())) {
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

class ChainBuilder {
public:
  explicit ChainBuilder(alg::DefineOp consumer) : consumer(consumer) {}

  /// The chain of `consumer`, or failure with `why` empty when it reads no
  /// leader (nothing to fuse) or set when a fusion is refused.
  FailureOr<ReductionChain> analyse(std::string &why);

private:
  LogicalResult findLeaders(std::string &why);
  FailureOr<ChainFollower> follow(alg::DefineOp def, AffineMap at,
                                  std::string &why);
  void addEpilogueFollowers();
  bool computesLeaderTerm(Value v, AffineMap at);
  LogicalResult placeLeadersReadElsewhere(std::string &why);
  void exportFollowersReadElsewhere();
  void computeElementwiseReaders();
  std::optional<SmallVector<unsigned>> alongOf(alg::DefineOp def);
  /// Who reads `def` outside the chain: none, or the first such reader's
  /// definition (null for the kernel's return), and whether every such
  /// reader comes after the consumer (so the stream can give it the value).
  bool readElsewhere(alg::DefineOp def, alg::DefineOp &outsider,
                     bool &allAfter);
  std::optional<SmallVector<unsigned>>
  projectionOf(alg::DefineOp def, ArrayRef<AffineExpr> indices);

  alg::DefineOp consumer;
  ReductionChain chain;
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
                            [&](const ChainLeader &l) { return l.def == def; });
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
      llvm::any_of(chain.leaders,
                   [](const ChainLeader &l) { return l.mean; })) {
    why = "it reads a mean and another leader ('" +
          chain.leaders[0].def.getName().str() + "', '" +
          chain.leaders[1].def.getName().str() +
          "'): a stream follows a mean alone";
    return failure();
  }
  for (ChainLeader &l : chain.leaders)
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
FailureOr<ChainFollower> ChainBuilder::follow(alg::DefineOp def, AffineMap at,
                                              std::string &why) {
  ChainFollower f{def, at, {}, {}, nullptr};
  // (A repair scales a running sum once; a product's would take the
  // factor to the power of the terms it holds.)
  if (*def.getKind() != alg::ReductionKind::sum) {
    why = "'" + def.getName().str() + "' is a " +
          alg::stringifyReductionKind(*def.getKind()).str() +
          ": only sums follow a chain's leaders";
    return failure();
  }
  Block &body = def.getBody().front();
  mergeSameLoads(body);
  if (def.getBodyType() != consumer.getBodyType()) {
    why = "'" + def.getName().str() + "' accumulates in another type";
    return failure();
  }
  SmallVector<Value> running(chain.leaders.size());
  for (auto load : body.getOps<alg::LoadOp>()) {
    alg::DefineOp read = definitionOf(load.getTensor());
    auto it = llvm::find_if(
        chain.leaders, [&](const ChainLeader &l) { return l.def == read; });
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
  const ChainLeader &leader = chain.leaders.front();
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
                     [&](const ChainLeader &l) { return l.def == def; }))
      continue;
    if (llvm::any_of(chain.followers,
                     [&](const ChainFollower &f) { return f.def == def; }))
      continue;
    // Its body's domain: the epilogue's map of its indices, then k.
    SmallVector<AffineExpr> results(
        widenMap(load.getMap(), rank + 1).getResults());
    results.push_back(getAffineDimExpr(rank, ctx));
    AffineMap at =
        AffineMap::get(rank + 1, load.getMap().getNumSymbols(), results, ctx);
    std::string why;
    FailureOr<ChainFollower> f = follow(def, at, why);
    if (failed(f))
      continue;
    f->read = load;
    chain.followers.push_back(*f);
  }
}

FailureOr<ReductionChain> ChainBuilder::analyse(std::string &why) {
  chain.consumer = consumer;
  if (!consumer.isReduction() || consumer.getNumReduced() != 1 ||
      *consumer.getKind() != alg::ReductionKind::sum ||
      !isa<FloatType>(consumer.getBodyType()))
    return failure();
  if (failed(findLeaders(why)) || chain.leaders.empty())
    return failure();
  unsigned rank = consumer.getRank();
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(rank + 1, consumer.getContext());
  identity = AffineMap::get(rank + 1, chain.leaders[0].map.getNumSymbols(),
                            identity.getResults(), consumer.getContext());
  FailureOr<ChainFollower> self = follow(consumer, identity, why);
  if (failed(self))
    return failure();
  chain.followers.push_back(*self);
  addEpilogueFollowers();
  computeElementwiseReaders();
  exportFollowersReadElsewhere();
  if (failed(placeLeadersReadElsewhere(why)))
    return failure();
  return chain;
}

bool ChainBuilder::readElsewhere(alg::DefineOp def, alg::DefineOp &outsider,
                                 bool &allAfter) {
  bool elsewhere = false;
  allAfter = true;
  Block *kernelBody = consumer->getBlock();
  for (Operation *user : def->getUsers()) {
    alg::DefineOp reader = user->getParentOfType<alg::DefineOp>();
    // A follower the stream neither replaces nor stores stays where it is,
    // before the stream: it reads the leader ahead of it.
    bool staysBefore = false;
    for (const ChainFollower &f : chain.followers)
      if (reader && f.def == reader && f.def != consumer && !f.exported) {
        alg::DefineOp ignored;
        bool after;
        staysBefore = readElsewhere(f.def, ignored, after);
      }
    if (reader && chain.computes(reader) && !staysBefore)
      continue;
    if (!elsewhere)
      outsider = reader;
    elsewhere = true;
    Operation *top = kernelBody->findAncestorOpInBlock(*user);
    allAfter &= !staysBefore && top && consumer->isBeforeInBlock(top);
  }
  return elsewhere;
}

/// The positions in the stream's domain of `def`'s indices, given as
/// `indices` over it, when they are a projection of it: distinct indices
/// in increasing order, each over the same extent as the stream's there.
std::optional<SmallVector<unsigned>>
ChainBuilder::projectionOf(alg::DefineOp def, ArrayRef<AffineExpr> indices) {
  ArrayAttr dims = consumer.getDims();
  if (indices.size() != def.getRank())
    return std::nullopt;
  SmallVector<unsigned> along;
  for (auto [i, e] : llvm::enumerate(indices)) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() >= dims.size() ||
        (!along.empty() && dim.getPosition() <= along.back()) ||
        def.getDims()[i] != dims[dim.getPosition()])
      return std::nullopt;
    along.push_back(dim.getPosition());
  }
  return along;
}

/// Where a leader's or a follower's (other than the consumer) indices sit
/// in the stream's domain, when they project it.
std::optional<SmallVector<unsigned>> ChainBuilder::alongOf(alg::DefineOp def) {
  for (const ChainLeader &l : chain.leaders)
    if (l.def == def)
      return projectionOf(def, l.map.getResults());
  for (const ChainFollower &f : chain.followers)
    if (f.def == def && f.def != consumer && f.read)
      return projectionOf(def, f.at.getResults().drop_back());
  return std::nullopt;
}

/// Element-wise definitions after the consumer that read only the chain's
/// leaders and followers, each at the reader's own point, over the same
/// projection of the stream's domain (a log-sum-exp, Mx + log(L), beside
/// attention's O), are computed in the stream's epilogue and stored
/// beside its result: the leaders and sums they read then need no store.
void ChainBuilder::computeElementwiseReaders() {
  llvm::SetVector<alg::DefineOp> candidates;
  auto addReaders = [&](alg::DefineOp def) {
    for (Operation *user : def->getUsers())
      if (auto reader = user->getParentOfType<alg::DefineOp>())
        if (!reader.isReduction() &&
            reader->getBlock() == consumer->getBlock() &&
            consumer->isBeforeInBlock(reader))
          candidates.insert(reader);
  };
  for (const ChainLeader &l : chain.leaders)
    addReaders(l.def);
  for (const ChainFollower &f : chain.followers)
    if (f.def != consumer)
      addReaders(f.def);
  for (alg::DefineOp def : candidates) {
    std::optional<SmallVector<unsigned>> along;
    bool computable = def.getEpilogue().empty();
    def.getBody().walk([&](Operation *op) {
      auto load = dyn_cast<alg::LoadOp>(op);
      if (!load) {
        computable &= !isa<alg::ReduceOp>(op);
        return;
      }
      alg::DefineOp read = definitionOf(load.getTensor());
      std::optional<SmallVector<unsigned>> theirs =
          read ? alongOf(read) : std::nullopt;
      computable &=
          theirs && load.getIndirect().empty() && load.getMap().isIdentity() &&
          read.getDims() == def.getDims() && (!along || *along == *theirs);
      if (theirs)
        along = theirs;
    });
    if (computable && along)
      chain.computed.push_back({def, *along});
  }
}

/// A sum of the chain that definitions after the consumer read too
/// (attention's denominator, read by a log-sum-exp beside O) is stored by
/// the stream where its domain projects the stream's: it then takes no
/// stream of its own.
void ChainBuilder::exportFollowersReadElsewhere() {
  for (ChainFollower &f : chain.followers) {
    alg::DefineOp outsider;
    bool allAfter;
    if (f.def == consumer || !f.read ||
        !readElsewhere(f.def, outsider, allAfter) || !allAfter)
      continue;
    if (std::optional<SmallVector<unsigned>> along =
            projectionOf(f.def, f.at.getResults().drop_back())) {
      f.exported = true;
      f.along = *along;
    }
  }
}

/// A leader that definitions outside the chain read too (softmax's Y reads
/// Mx; layernorm's Y reads Mu) is stored by the stream beside its result
/// where every such reader comes after the consumer and the leader's
/// domain projects the stream's (the same, or attention's [N] of its
/// [N, D]); otherwise a max keeps a pass of its own, and a mean refuses
/// the stream: streaming it pays (terms in f64, no split across programs)
/// only where it replaces the mean's pass. (Layernorm's Var streamed with
/// Mu left in its own pass was no faster on the CPU, and 1.6x slower over 8
/// rows of 65536.)
LogicalResult ChainBuilder::placeLeadersReadElsewhere(std::string &why) {
  for (ChainLeader &leader : chain.leaders) {
    alg::DefineOp outsider;
    bool allAfter;
    if (!readElsewhere(leader.def, outsider, allAfter))
      continue;
    std::optional<SmallVector<unsigned>> along =
        projectionOf(leader.def, leader.map.getResults());
    if (allAfter && along) {
      leader.exported = true;
      leader.along = *along;
      continue;
    }
    if (leader.mean) {
      why = "its mean '" + leader.def.getName().str() + "' is read " +
            (outsider ? "by '" + outsider.getName().str() + "'"
                      : std::string("outside the chain")) +
            " too, and " +
            (!allAfter ? "a reader comes before the stream"
                       : "its domain does not project the stream's") +
            ": its pass would remain, and the stream would save none";
      return failure();
    }
  }
  return success();
}

} // namespace

FailureOr<ReductionChain>
nautilus::analyseReductionChain(alg::DefineOp consumer, std::string &why) {
  return ChainBuilder(consumer).analyse(why);
}
