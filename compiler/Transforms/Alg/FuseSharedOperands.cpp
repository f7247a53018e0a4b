//===- FuseSharedOperands.cpp - Contractions sharing an operand, fused ----===//
//
// A gated MLP reads X twice: G = X Wg and U = X Wu are two contractions
// over the same index that share their lhs, and A = silu(G) * U reads both
// point by point. Stored, G and U cost two passes over X, two buffers of
// A's size written and read back, and (once A is inlined into the down
// projection) silu recomputed at every step of that projection. Fused,
// A's definition computes G and U itself, as nested reductions over the
// same index: one program reads each tile of X once for both, keeps both
// accumulators, and stores A alone.
//
// The rewrite applies to an element-wise definition A and the sums it
// reads at its own point (the identity map, no indirect index) that
// nothing else reads and that are not outputs, over the same reduced
// dimensions, when every one of them loads one element in common (the
// same tensor at the same map: the shared operand). Each such sum moves
// into A's body as an `alg.reduce` (its epilogue, if any, after it), and
// its definition goes. Each fusion, and each group refused with its
// reason, is a remark; the schedule provider says whether the target's
// lowering runs several contractions in one program, and on GPUs the
// sums must be what sibling contractions take (tensorCoreSiblings).
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Inlining.h"
#include "compiler/Transforms/Alg/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGFUSESHAREDOPERANDS
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// An element read by a body: the tensor and the index map.
using ElementRead = std::pair<Value, AffineMap>;

/// The reads of `def`'s body (its top-level block), without repeats.
SmallVector<ElementRead> readsOf(alg::DefineOp def) {
  SmallVector<ElementRead> reads;
  for (auto load : def.getBody().front().getOps<alg::LoadOp>())
    if (load.getIndirect().empty() &&
        !llvm::is_contained(reads,
                            ElementRead{load.getTensor(), load.getMap()}))
      reads.push_back({load.getTensor(), load.getMap()});
  return reads;
}

/// Whether `producer` is a sum that only `consumer` reads, each read at
/// the consumer's own point, and whose body and epilogue can move into the
/// consumer's body. When not, `why` (empty when it is no sum at all).
bool movesInto(alg::DefineOp producer, alg::DefineOp consumer,
               alg::ReturnOp ret, std::string &why) {
  if (producer.getKind() != alg::ReductionKind::sum)
    return false;
  if (llvm::is_contained(ret.getOutputs(), producer.getResult())) {
    why = "it is an output";
    return false;
  }
  for (Operation *user : producer.getResult().getUsers()) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (load && load->getParentOp() != consumer && consumer->isAncestor(load)) {
      why = "'" + consumer.getName().str() +
            "' reads it inside a nested reduction";
      return false;
    }
    if (!load || load->getParentOp() != consumer) {
      why = "other definitions read it too";
      return false;
    }
    if (!load.getIndirect().empty() || !load.getMap().isIdentity()) {
      why = "'" + consumer.getName().str() +
            "' reads it at another point than its own";
      return false;
    }
  }
  if (producer.getDims() != consumer.getDims()) {
    why = "its extents are not '" + consumer.getName().str() + "''s";
    return false;
  }
  bool nested = false;
  producer.walk([&](alg::ReduceOp) { nested = true; });
  if (nested) {
    why = "it holds a nested reduction";
    return false;
  }
  return true;
}

/// The element every definition of `group` reads, if any.
std::optional<ElementRead> sharedRead(ArrayRef<alg::DefineOp> group) {
  for (const ElementRead &read : readsOf(group.front()))
    if (llvm::all_of(group.drop_front(), [&](alg::DefineOp other) {
          return llvm::is_contained(readsOf(other), read);
        }))
      return read;
  return std::nullopt;
}

/// A product's factor as a tensor-core operand reads it: a 16-bit float
/// loaded (possibly gathered through an index table) and widened to f32
/// (null: not such a factor).
alg::LoadOp widened16BitLoad(Value factor) {
  auto ext = factor.getDefiningOp<arith::ExtFOp>();
  auto load = ext ? ext.getIn().getDefiningOp<alg::LoadOp>() : alg::LoadOp();
  if (!load)
    return {};
  Type element = load.getType();
  return element.isF16() || element.isBF16() ? load : alg::LoadOp();
}

/// Whether `a` and `b`, scalars of two definitions of one group (the same
/// domain), are the same computation: the same value, the same index of
/// their domains, or the same operation of the same operands.
bool sameScalar(Value a, Value b) {
  if (a == b)
    return true;
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  if (argA || argB)
    return argA && argB && argA.getArgNumber() == argB.getArgNumber() &&
           isa<alg::DefineOp>(argA.getOwner()->getParentOp()) &&
           isa<alg::DefineOp>(argB.getOwner()->getParentOp());
  auto x = cast<OpResult>(a), y = cast<OpResult>(b);
  return x.getResultNumber() == y.getResultNumber() &&
         OperationEquivalence::isEquivalentTo(
             x.getOwner(), y.getOwner(),
             [](Value l, Value r) { return success(sameScalar(l, r)); },
             /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// Whether `a` and `b` gather through the same index table reads (a
/// mixture of experts' gate and up weights, both by the token's expert).
bool sameGather(alg::LoadOp a, alg::LoadOp b) {
  return a.getIndirectPositions() == b.getIndirectPositions() &&
         llvm::all_of(llvm::zip(a.getIndirect(), b.getIndirect()),
                      [](auto pair) {
                        return sameScalar(std::get<0>(pair), std::get<1>(pair));
                      });
}

/// Whether `load` gathers through one routing table read at the rows:
/// `W[index_cast(ids[rows...]), ...]`, `ids` an i32 tensor read plainly at
/// each of output dimensions 0 .. `outputs` - 2 once (what
/// tile-group-routed-contractions buckets the rows by).
bool gathersByRows(alg::LoadOp load, unsigned outputs) {
  if (load.getIndirect().size() != 1)
    return false;
  auto cast = load.getIndirect().front().getDefiningOp<arith::IndexCastOp>();
  Value in = cast ? cast.getIn() : Value();
  if (auto ext = in ? in.getDefiningOp<arith::ExtSIOp>() : arith::ExtSIOp())
    in = ext.getIn();
  auto table = in ? in.getDefiningOp<alg::LoadOp>() : alg::LoadOp();
  if (!table || !table.getIndirect().empty() || !table.getType().isInteger(32))
    return false;
  SmallVector<unsigned> rows;
  for (AffineExpr e : table.getMap().getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() + 1 >= outputs ||
        llvm::is_contained(rows, dim.getPosition()))
      return false;
    rows.push_back(dim.getPosition());
  }
  return rows.size() + 1 == outputs;
}

/// Why tile-group-routed-contractions could not bucket `consumer`'s rows
/// once `group` (sums gathering their weights by rows) moves into it, or
/// "": its other reads and those of the sums' shared operand name a row
/// only as a whole index and gather nothing; the definitions that read it
/// read it plainly; the weights have one extent of experts. (The pass
/// checks the same of the program it groups.)
std::string unroutableReader(alg::DefineOp consumer,
                             ArrayRef<alg::DefineOp> group, unsigned outputs,
                             ArrayRef<alg::LoadOp> weights) {
  auto plainRows = [&](alg::LoadOp load) {
    for (AffineExpr e : load.getMap().getResults())
      for (unsigned d = 0; d + 1 < outputs; ++d)
        if (e.isFunctionOfDim(d) && !isa<AffineDimExpr>(e))
          return false;
    return true;
  };
  std::string name = consumer.getName().str();
  SmallVector<alg::DefineOp> definitions = {consumer};
  definitions.append(group.begin(), group.end());
  for (alg::DefineOp def : definitions) {
    for (auto load : def.getBody().front().getOps<alg::LoadOp>()) {
      if (llvm::is_contained(weights, load) ||
          llvm::is_contained(group, definitionOf(load.getTensor())))
        continue;
      if (!load.getIndirect().empty() || !plainRows(load))
        return "'" + def.getName().str() + "' reads '" +
               tensorName(load.getTensor()) +
               "' gathered or at an expression of its rows, which a "
               "grouped GEMM's bucketed rows cannot follow";
    }
  }
  for (Operation *user : consumer.getResult().getUsers()) {
    auto load = dyn_cast<alg::LoadOp>(user);
    if (!load || !load.getIndirect().empty())
      return "'" + name +
             "' is read gathered, and a grouped GEMM's workspace of "
             "bucketed rows is read through its slots";
  }
  Attribute experts;
  for (alg::LoadOp load : weights) {
    ArrayAttr dims;
    if (auto input = load.getTensor().getDefiningOp<alg::InputOp>())
      dims = input.getDims();
    else if (auto def = load.getTensor().getDefiningOp<alg::DefineOp>())
      dims = def.getDims();
    int64_t position = load.getIndirectPositions().front();
    Attribute extent = dims ? dims[position] : Attribute();
    if (!extent || (experts && experts != extent))
      return "'" + tensorName(load.getTensor()) +
             "' has another number of "
             "experts than '" +
             tensorName(alg::LoadOp(weights.front()).getTensor()) + "'";
    experts = extent;
  }
  return "";
}

/// Whether a GPU's tensor cores run `group` as sibling contractions of
/// `consumer`'s program (tile-form-contractions takes every sum of a
/// program or none): `consumer` computes no other reduction, and each sum
/// is the product of two widened 16-bit loads of one type, one of them
/// `shared`, which reads the rows and not the columns (the output's last
/// dimension; the rows are the one before, or for gathered weights every
/// other output dimension, which tile-group-routed-contractions buckets
/// into one), the other the columns and not the rows. The other factors
/// are all plain, or all gathered through the same routing table read at
/// the rows (a mixture of experts' gate and up weights, by each token's
/// expert: grouped GEMMs over the same buckets of rows, which store a
/// workspace, so `consumer` is not an output). When not, `why`.
bool tensorCoreSiblings(alg::DefineOp consumer, ArrayRef<alg::DefineOp> group,
                        const ElementRead &shared, alg::ReturnOp ret,
                        std::string &why) {
  if (consumer.getBody()
          .walk([](alg::ReduceOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    why = "'" + consumer.getName().str() +
          "' computes another reduction, and a GPU program runs one group "
          "of sibling contractions and nothing else reduced";
    return false;
  }
  Type element;
  alg::LoadOp firstOther;
  SmallVector<alg::LoadOp> weights; // the gathered other factors
  for (alg::DefineOp def : group) {
    Block &body = def.getBody().front();
    unsigned outputs = body.getNumArguments() - def.getReduceDimsAttr().size();
    auto yield = cast<alg::YieldOp>(body.getTerminator());
    auto mul = yield.getValue().getDefiningOp<arith::MulFOp>();
    alg::LoadOp x = mul ? widened16BitLoad(mul.getLhs()) : alg::LoadOp();
    alg::LoadOp y = mul ? widened16BitLoad(mul.getRhs()) : alg::LoadOp();
    if (!x || !y) {
      why = "'" + def.getName().str() +
            "' is not a product of two 16-bit tensors, which its tensor "
            "cores need";
      return false;
    }
    auto isShared = [&](alg::LoadOp load) {
      return load.getIndirect().empty() &&
             ElementRead{load.getTensor(), load.getMap()} == shared;
    };
    if (!isShared(x) && !isShared(y)) {
      why = "'" + def.getName().str() + "' reads '" + tensorName(shared.first) +
            "' inside a larger factor";
      return false;
    }
    auto typeName = [](Type t) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << t;
      return s;
    };
    if (x.getType() != y.getType()) {
      why = "'" + def.getName().str() + "' multiplies " +
            typeName(x.getType()) + " by " + typeName(y.getType()) +
            ", and its tensor cores take one type";
      return false;
    }
    if (element && element != x.getType()) {
      why = "'" + def.getName().str() + "' multiplies " +
            typeName(x.getType()) + ", '" +
            alg::DefineOp(group.front()).getName().str() + "' " +
            typeName(element);
      return false;
    }
    element = x.getType();
    alg::LoadOp own = isShared(x) ? x : y, other = isShared(x) ? y : x;
    if (!firstOther)
      firstOther = other;
    std::string firstName = alg::DefineOp(group.front()).getName().str();
    if (firstOther.getIndirect().empty() != other.getIndirect().empty()) {
      bool firstGathered = !firstOther.getIndirect().empty();
      alg::LoadOp routed = firstGathered ? firstOther : other;
      alg::LoadOp plain = firstGathered ? other : firstOther;
      std::string routedBy = firstGathered ? firstName : def.getName().str();
      std::string plainBy = firstGathered ? def.getName().str() : firstName;
      why = "'" + routedBy + "' reads '" + tensorName(routed.getTensor()) +
            "' through an index table and '" + plainBy + "' reads '" +
            tensorName(plain.getTensor()) +
            "' directly: a grouped GEMM and a plain one share no tile";
      return false;
    }
    if (!sameGather(firstOther, other)) {
      why = "'" + def.getName().str() + "' reads '" +
            tensorName(other.getTensor()) + "' through another index than '" +
            firstName + "' reads '" + tensorName(firstOther.getTensor()) +
            "' (siblings' grouped GEMMs must bucket the rows alike)";
      return false;
    }
    bool gathered = !other.getIndirect().empty();
    if (gathered && !gathersByRows(other, outputs)) {
      why = "'" + def.getName().str() + "' reads '" +
            tensorName(other.getTensor()) +
            "' through an index that is not a routing table read at its "
            "rows, by which a grouped GEMM buckets them";
      return false;
    }
    if (gathered &&
        llvm::is_contained(ret.getOutputs(), consumer.getResult())) {
      why = "'" + consumer.getName().str() +
            "' is an output, and grouped GEMMs store a workspace of rows "
            "bucketed by expert";
      return false;
    }
    auto reads = [](alg::LoadOp load, unsigned dim) {
      return load.getMap().isFunctionOfDim(dim);
    };
    auto readsRows = [&](alg::LoadOp load) {
      for (unsigned d = gathered ? 0 : outputs - 2; d + 1 < outputs; ++d)
        if (reads(load, d))
          return true;
      return false;
    };
    if (outputs < 2 || !readsRows(own) || reads(own, outputs - 1)) {
      why = "'" + tensorName(shared.first) +
            "' is not read along the rows (its tensor cores share the "
            "lhs tile)";
      return false;
    }
    if (!reads(other, outputs - 1) || readsRows(other)) {
      why = "'" + def.getName().str() +
            "' reads its other operand across the rows, not along the "
            "columns";
      return false;
    }
    if (gathered)
      weights.push_back(other);
  }
  if (!weights.empty()) {
    unsigned outputs = consumer.getBody().front().getNumArguments();
    why = unroutableReader(consumer, group, outputs, weights);
    return why.empty();
  }
  return true;
}

/// Moves `producer` into `consumer`'s body as a nested alg.reduce at
/// `builder`'s insertion point (then its epilogue), replaces its reads
/// there, and erases it; `builder` is left after what it made. Returns
/// the reduction.
alg::ReduceOp moveInto(alg::DefineOp producer, alg::DefineOp consumer,
                       OpBuilder &builder) {
  Block &block = consumer.getBody().front();
  Location loc = producer.getLoc();
  auto reduce =
      alg::ReduceOp::create(builder, loc, producer.getBodyType(),
                            *producer.getKind(), producer.getReduceDimsAttr());
  reduce.getBody().takeBody(producer.getBody());
  Value result = reduce.getResult();
  builder.setInsertionPointAfter(reduce);
  if (Region &epilogue = producer.getEpilogue(); !epilogue.empty()) {
    Block &body = epilogue.front();
    IRMapping mapping;
    mapping.map(body.getArguments().back(), result);
    for (auto [arg, index] :
         llvm::zip(body.getArguments().drop_back(), block.getArguments()))
      mapping.map(arg, index);
    // A read of the producer in the consumer is the identity over the
    // consumer's domain, with the kernel's sizes as symbols: the map the
    // epilogue's own reads (a bias) compose with.
    AffineMap at =
        cast<alg::LoadOp>(*producer.getResult().getUsers().begin()).getMap();
    FailureOr<SmallVector<Value>> values =
        inlineBlock(builder, body, at, mapping);
    assert(succeeded(values) && "movesInto refuses nested reductions");
    result = values->front();
  }
  Operation *last = &*std::prev(builder.getInsertionPoint());
  for (Operation *user :
       llvm::make_early_inc_range(producer.getResult().getUsers())) {
    user->getResult(0).replaceAllUsesWith(result);
    user->erase();
  }
  producer.erase();
  // (the reads erased may have been where the builder pointed)
  builder.setInsertionPointAfter(last);
  return reduce;
}

struct AlgFuseSharedOperandsPass
    : public SchedulingPass<nautilus::impl::AlgFuseSharedOperandsBase<
          AlgFuseSharedOperandsPass>> {
  using SchedulingPass::SchedulingPass;

  void setExplain(bool value) { explain = value; }

  void runOnOperation() override {
    std::optional<TargetInfo> target = moduleTarget();
    if (!target)
      return;
    for (auto kernel : getOperation().getOps<alg::KernelOp>()) {
      SmallVector<alg::DefineOp> defines(
          kernel.getBody().getOps<alg::DefineOp>());
      for (alg::DefineOp def : defines)
        if (!def.isReduction())
          fuseInto(def, kernel.getReturn(), *target);
    }
  }

  /// Fuses into `consumer` each group of the sums it reads that share an
  /// operand.
  void fuseInto(alg::DefineOp consumer, alg::ReturnOp ret,
                const TargetInfo &target) {
    // The sums it reads, grouped by their reduced dimensions; those that
    // cannot move, with the reason.
    llvm::MapVector<Attribute, SmallVector<alg::DefineOp>> groups;
    SmallVector<std::pair<alg::DefineOp, std::string>> refused;
    SmallVector<alg::DefineOp> seen;
    for (auto load : consumer.getBody().front().getOps<alg::LoadOp>()) {
      auto producer = definitionOf(load.getTensor());
      if (!producer || llvm::is_contained(seen, producer))
        continue;
      seen.push_back(producer);
      std::string why;
      if (movesInto(producer, consumer, ret, why))
        groups[producer.getReduceDimsAttr()].push_back(producer);
      else if (!why.empty())
        refused.push_back({producer, why});
    }
    // Where it reads several sums, those that cannot move are reported.
    size_t sums = refused.size();
    for (auto &entry : groups)
      sums += entry.second.size();
    if (explain && sums > 1)
      for (auto &[def, why] : refused)
        consumer.emitRemark()
            << "'" << def.getName() << "' stays a program of its own: " << why;
    for (auto &[dims, group] : groups) {
      if (group.size() < 2)
        continue;
      std::string names;
      for (alg::DefineOp def : group)
        names += (names.empty() ? "'" : ", '") + def.getName().str() + "'";
      std::optional<ElementRead> shared = sharedRead(group);
      std::string why;
      if (!shared)
        why = "they share no operand";
      else if (!schedules->fusesSharedOperands(target, why) ||
               (target.isGPU() &&
                !tensorCoreSiblings(consumer, group, *shared, ret, why)))
        why = "on " + target.name + ", " + why;
      if (!why.empty()) {
        if (explain)
          consumer.emitRemark() << names << " stay separate programs: " << why;
        continue;
      }
      if (explain)
        consumer.emitRemark()
            << names << " share '" << tensorName(shared->first)
            << "' and are computed in '" << consumer.getName()
            << "' in one pass over it, not stored";
      // In the order A reads them, at the start of its body, the
      // reductions side by side before any epilogue (the CPU lowering
      // folds consecutive reductions together).
      Block &body = consumer.getBody().front();
      OpBuilder builder = OpBuilder::atBlockBegin(&body);
      SmallVector<alg::ReduceOp> reductions;
      for (alg::DefineOp def : group)
        reductions.push_back(moveInto(def, consumer, builder));
      for (alg::ReduceOp reduce : llvm::reverse(reductions))
        reduce->moveBefore(&body.front());
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createAlgFuseSharedOperands(
    std::shared_ptr<ScheduleProvider> schedules, bool explain) {
  auto pass = std::make_unique<AlgFuseSharedOperandsPass>(std::move(schedules));
  pass->setExplain(explain);
  return pass;
}
