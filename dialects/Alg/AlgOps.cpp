//===- AlgOps.cpp - Verifiers and helpers of the alg dialect --------------===//
#include "dialects/Alg/AlgOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace nautilus::alg;

#define GET_OP_CLASSES
#include "dialects/Alg/AlgOps.cpp.inc"

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

int64_t KernelOp::getSizeIndex(StringRef name) {
  for (auto [i, attr] : llvm::enumerate(getSizes()))
    if (cast<StringAttr>(attr).getValue() == name)
      return i;
  return -1;
}

std::optional<int64_t> KernelOp::getBinding(StringRef name) {
  if (!getBindings())
    return std::nullopt;
  if (auto value = dyn_cast_or_null<IntegerAttr>(getBindingsAttr().get(name)))
    return value.getInt();
  return std::nullopt;
}

ReturnOp KernelOp::getReturn() {
  return cast<ReturnOp>(getBody().front().getTerminator());
}

LogicalResult KernelOp::verify() {
  llvm::StringSet<> seen;
  for (Attribute attr : getSizes())
    if (!seen.insert(cast<StringAttr>(attr).getValue()).second)
      return emitOpError("size '")
             << cast<StringAttr>(attr).getValue() << "' is listed twice";
  if (getBindings()) {
    for (NamedAttribute binding : getBindingsAttr()) {
      auto value = dyn_cast<IntegerAttr>(binding.getValue());
      if (!value || value.getInt() <= 0)
        return emitOpError("binding of '")
               << binding.getName().getValue()
               << "' must be a positive integer";
      if (getSizeIndex(binding.getName().getValue()) < 0)
        return emitOpError("binds '") << binding.getName().getValue()
                                      << "', which is not one of its sizes";
    }
  }
  return success();
}

static KernelOp getKernel(Operation *op) {
  return op->getParentOfType<KernelOp>();
}

/// Checks that each entry of `dims` is a size of the kernel or a positive
/// integer, and that there are `rank` of them.
static LogicalResult verifyDims(Operation *op, ArrayAttr dims, int64_t rank,
                                StringRef what) {
  if (static_cast<int64_t>(dims.size()) != rank)
    return op->emitOpError() << what << " has " << dims.size()
                             << " dims but the type has rank " << rank;
  KernelOp kernel = getKernel(op);
  for (Attribute d : dims) {
    if (auto name = dyn_cast<StringAttr>(d)) {
      if (kernel && kernel.getSizeIndex(name.getValue()) < 0)
        return op->emitOpError("dim '")
               << name.getValue() << "' is not a size of the kernel";
      continue;
    }
    auto literal = dyn_cast<IntegerAttr>(d);
    if (!literal || literal.getInt() <= 0)
      return op->emitOpError("each dim must be a size name or a positive "
                             "integer, found ")
             << d;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// InputOp
//===----------------------------------------------------------------------===//

LogicalResult InputOp::verify() {
  Type type = getResult().getType();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return verifyDims(*this, getDims(), tensor.getRank(), "input");
  if (!type.isIntOrFloat())
    return emitOpError("a scalar input must have an integer or float type");
  if (!getDims().empty())
    return emitOpError("a scalar input has no dims");
  return success();
}

//===----------------------------------------------------------------------===//
// DefineOp
//===----------------------------------------------------------------------===//

Type DefineOp::getBodyType() {
  return cast<YieldOp>(getBody().front().getTerminator()).getValue().getType();
}

static LogicalResult verifyIndexArgs(Operation *op, Block &block,
                                     unsigned count, StringRef what) {
  if (block.getNumArguments() < count)
    return op->emitOpError() << "the " << what << " needs " << count
                             << " index arguments";
  for (unsigned i = 0; i < count; ++i)
    if (!block.getArgument(i).getType().isIndex())
      return op->emitOpError() << "argument " << i << " of the " << what
                               << " must be an index";
  return success();
}

LogicalResult DefineOp::verify() {
  auto type = cast<RankedTensorType>(getResult().getType());
  if (failed(verifyDims(*this, getDims(), type.getRank(), "define")))
    return failure();
  if (getKind().has_value() != (getReduceDimsAttr() != nullptr))
    return emitOpError("a reduction needs both a kind and reduced dims");
  if (getReduceDims() &&
      failed(verifyDims(*this, *getReduceDims(), getReduceDims()->size(),
                        "define")))
    return failure();
  if (getReduceDims() && getReduceDims()->empty())
    return emitOpError("a reduction reduces over at least one index");

  Block &body = getBody().front();
  unsigned domain = getRank() + getNumReduced();
  if (body.getNumArguments() != domain)
    return emitOpError("the body takes ")
           << domain << " index arguments (" << getRank() << " left-hand, "
           << getNumReduced() << " reduced), found " << body.getNumArguments();
  if (failed(verifyIndexArgs(*this, body, domain, "body")))
    return failure();
  if (cast<YieldOp>(body.getTerminator()).getValues().size() != 1 ||
      (!getEpilogue().empty() &&
       cast<YieldOp>(getEpilogue().front().getTerminator()).getValues().size() !=
           1))
    return emitOpError("a body and an epilogue yield one value");
  Type bodyType = getBodyType();
  Type elementType = type.getElementType();

  if (getEpilogue().empty()) {
    if (bodyType != elementType)
      return emitOpError("yields ")
             << bodyType << " but stores " << elementType
             << "; add an epilogue that converts";
    return success();
  }
  if (!isReduction())
    return emitOpError("only a reduction has an epilogue");
  Block &epilogue = getEpilogue().front();
  if (epilogue.getNumArguments() != getRank() + 1 ||
      failed(verifyIndexArgs(*this, epilogue, getRank(), "epilogue")) ||
      epilogue.getArgument(getRank()).getType() != bodyType)
    return emitOpError("the epilogue takes the ")
           << getRank() << " left-hand indices and the folded " << bodyType;
  Type epilogueType =
      cast<YieldOp>(epilogue.getTerminator()).getValue().getType();
  if (epilogueType != elementType)
    return emitOpError("the epilogue yields ")
           << epilogueType << " but the result stores " << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  auto tensor = cast<RankedTensorType>(getTensor().getType());
  if (getResult().getType() != tensor.getElementType())
    return emitOpError("result type must be the element type ")
           << tensor.getElementType();
  AffineMap map = getMap();
  ArrayRef<int64_t> positions = getIndirectPositions();
  if (positions.size() != getIndirect().size())
    return emitOpError("has ") << getIndirect().size()
                               << " indirect indices but "
                               << positions.size() << " positions";
  if (map.getNumResults() + positions.size() !=
      static_cast<size_t>(tensor.getRank()))
    return emitOpError("indexes a rank-")
           << tensor.getRank() << " tensor with " << map.getNumResults()
           << " mapped and " << positions.size() << " indirect indices";
  int64_t previous = -1;
  for (int64_t p : positions) {
    if (p <= previous || p >= tensor.getRank())
      return emitOpError("indirect positions must be increasing and within "
                         "the rank");
    previous = p;
  }
  Block *block = getOperation()->getBlock();
  unsigned indexArgs = 0;
  for (BlockArgument arg : block->getArguments())
    if (arg.getType().isIndex())
      ++indexArgs;
  if (map.getNumDims() != indexArgs)
    return emitOpError("map has ")
           << map.getNumDims() << " dims but the enclosing block has "
           << indexArgs << " index arguments";
  if (KernelOp kernel = getKernel(*this))
    if (map.getNumSymbols() != kernel.getSizes().size())
      return emitOpError("map has ")
             << map.getNumSymbols() << " symbols but the kernel has "
             << kernel.getSizes().size() << " sizes";
  return success();
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

static unsigned countIndexArgs(Block *block) {
  unsigned n = 0;
  for (BlockArgument arg : block->getArguments())
    n += arg.getType().isIndex();
  return n;
}

LogicalResult ApplyOp::verify() {
  if (getMap().getNumResults() != 1)
    return emitOpError("map must have one result");
  if (getMap().getNumDims() != countIndexArgs(getOperation()->getBlock()))
    return emitOpError("map dims must match the enclosing block's indices");
  return success();
}

//===----------------------------------------------------------------------===//
// SizeOp
//===----------------------------------------------------------------------===//

LogicalResult SizeOp::verify() {
  KernelOp kernel = getKernel(*this);
  if (kernel && kernel.getSizeIndex(getName()) < 0)
    return emitOpError("'") << getName() << "' is not a size of the kernel";
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (getReduceDims().empty())
    return emitOpError("reduces over at least one index");
  if (failed(verifyDims(*this, getReduceDims(), getReduceDims().size(),
                        "reduce")))
    return failure();
  Block &body = getBody().front();
  unsigned enclosing = countIndexArgs(getOperation()->getBlock());
  unsigned domain = enclosing + getReduceDims().size();
  if (body.getNumArguments() != domain ||
      failed(verifyIndexArgs(*this, body, domain, "body")))
    return emitOpError("the body takes the enclosing block's ")
           << enclosing << " indices and " << getReduceDims().size()
           << " reduced ones";
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValue().getType() != getResult().getType())
    return emitOpError("the body yields one ") << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// OnlineReduceOp
//===----------------------------------------------------------------------===//

ReductionKind OnlineReduceOp::getAccumulatorKind(unsigned i) {
  if (isMean(i))
    return ReductionKind::sum;
  return *symbolizeReductionKind(
      cast<StringAttr>(getAccumulators()[i]).getValue());
}

bool nautilus::alg::isMeanAccumulator(ArrayAttr accumulators, unsigned i) {
  return cast<StringAttr>(accumulators[i]).getValue() == "mean";
}

bool nautilus::alg::hasMeanAccumulator(ArrayAttr accumulators) {
  return llvm::any_of(accumulators, [](Attribute a) {
    return cast<StringAttr>(a).getValue() == "mean";
  });
}

bool OnlineReduceOp::isMean(unsigned i) {
  return isMeanAccumulator(getAccumulators(), i);
}

bool OnlineReduceOp::hasMeanLeader() {
  return hasMeanAccumulator(getAccumulators());
}

bool OnlineReduceOp::isLeader(unsigned i) {
  if (isMean(i))
    return true;
  ReductionKind kind = getAccumulatorKind(i);
  return kind == ReductionKind::max || kind == ReductionKind::min;
}

SmallVector<unsigned> OnlineReduceOp::getLeaders() {
  SmallVector<unsigned> leaders;
  for (unsigned i = 0; i < getAccumulators().size(); ++i)
    if (isLeader(i))
      leaders.push_back(i);
  return leaders;
}

SmallVector<unsigned> OnlineReduceOp::getFollowers() {
  SmallVector<unsigned> followers;
  for (unsigned i = 0; i < getAccumulators().size(); ++i)
    if (!isLeader(i))
      followers.push_back(i);
  return followers;
}

Type OnlineReduceOp::getAccumulatorType() {
  return cast<YieldOp>(getBody().front().getTerminator())
      .getValues()
      .front()
      .getType();
}

SmallVector<unsigned> OnlineReduceOp::getExportDimPositions(unsigned e) {
  SmallVector<unsigned> positions;
  for (Attribute p : cast<ArrayAttr>(getExportDimsAttr()[e]))
    positions.push_back(cast<IntegerAttr>(p).getInt());
  return positions;
}

/// Whether `hits` holds for `value` or for any value it is computed from.
static bool anyInSlice(Value value, function_ref<bool(Value)> hits) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (hits(v))
      return true;
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// Whether `value` is computed (in `block`) from any of `args`.
static bool dependsOnAny(Value value, ArrayRef<BlockArgument> args) {
  return anyInSlice(value, [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && llvm::is_contained(args, arg);
  });
}

/// Whether `value` (computed in a block whose first index arguments are a
/// domain) varies along any of the domain's dimensions `dims`: through
/// those arguments, or through a load or apply whose map reads them.
static bool variesAlong(Value value, ArrayRef<unsigned> dims, Block &block) {
  SmallVector<BlockArgument> args;
  for (unsigned d : dims)
    args.push_back(block.getArgument(d));
  auto readsDims = [&](AffineMap map) {
    return llvm::any_of(map.getResults(), [&](AffineExpr e) {
      return llvm::any_of(dims,
                          [&](unsigned d) { return e.isFunctionOfDim(d); });
    });
  };
  return anyInSlice(value, [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return llvm::is_contained(args, arg);
    if (auto load = v.getDefiningOp<LoadOp>())
      return readsDims(load.getMap());
    if (auto apply = v.getDefiningOp<ApplyOp>())
      return readsDims(apply.getMap());
    return false;
  });
}

/// Each export's `along`: increasing positions in `dims`, its type's shape
/// the result's at those positions, and its value in the epilogue free of
/// the indices it leaves out.
LogicalResult OnlineReduceOp::verifyExportDims(Block &epilogue) {
  ArrayAttr along = getExportDimsAttr();
  if (!along || along.size() != getExported().size())
    return emitOpError("gives each export its dimensions (`along`)");
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(getResult().getType()).getShape();
  auto stored = cast<YieldOp>(epilogue.getTerminator());
  for (auto [e, exported] : llvm::enumerate(getExported())) {
    auto positions = dyn_cast<ArrayAttr>(along[e]);
    if (!positions || llvm::any_of(positions, [](Attribute a) {
          return !isa<IntegerAttr>(a);
        }))
      return emitOpError("export ") << e
                                    << "'s dimensions are a list of "
                                       "positions in `dims`";
    SmallVector<int64_t> expected;
    int64_t previous = -1;
    for (Attribute a : positions) {
      int64_t p = cast<IntegerAttr>(a).getInt();
      if (p <= previous || p >= static_cast<int64_t>(getRank()))
        return emitOpError("export ")
               << e << "'s dimensions must be increasing positions below "
               << getRank();
      previous = p;
      expected.push_back(shape[p]);
    }
    if (cast<RankedTensorType>(exported.getType()).getShape() !=
        ArrayRef<int64_t>(expected))
      return emitOpError("export ")
             << e << "'s shape is not the result's along its dimensions";
    SmallVector<unsigned> left;
    Block &body = getBody().front();
    for (unsigned d = 0; d < getRank(); ++d)
      if (!llvm::is_contained(getExportDimPositions(e), d))
        left.push_back(d);
    // Nor through an accumulator it reads: their terms (and the terms of
    // the leaders those read) must not vary along them either.
    auto terms = cast<YieldOp>(body.getTerminator()).getValues();
    SmallVector<unsigned> read;
    for (unsigned i = 0; i < terms.size(); ++i)
      if (dependsOnAny(stored.getValues()[1 + e],
                       {epilogue.getArgument(getRank() + i)}))
        read.push_back(i);
    SmallVector<unsigned> leaders = getLeaders();
    for (size_t r = 0; r < read.size(); ++r)
      for (auto [j, leader] : llvm::enumerate(leaders))
        if (!llvm::is_contained(read, leader) &&
            dependsOnAny(terms[read[r]], {body.getArgument(getRank() + 1 + j)}))
          read.push_back(leader);
    bool varies = variesAlong(stored.getValues()[1 + e], left, epilogue) ||
                  llvm::any_of(read, [&](unsigned i) {
                    return variesAlong(terms[i], left, body);
                  });
    if (varies)
      return emitOpError("export ")
             << e << "'s value depends on an index its domain leaves out";
  }
  return success();
}

LogicalResult OnlineReduceOp::verify() {
  auto type = cast<RankedTensorType>(getResult().getType());
  if (failed(verifyDims(*this, getDims(), type.getRank(), "online_reduce")) ||
      failed(verifyDims(*this, getOver(), 1, "online_reduce")))
    return failure();
  unsigned count = getAccumulators().size();
  for (Attribute a : getAccumulators()) {
    StringRef name = cast<StringAttr>(a).getValue();
    std::optional<ReductionKind> kind = symbolizeReductionKind(name);
    if (name != "mean" && (!kind || *kind == ReductionKind::prod))
      return emitOpError("an accumulator is max, min, mean (a leader) or sum "
                         "(a follower), not '")
             << name << "'";
  }
  SmallVector<unsigned> leaders = getLeaders(), followers = getFollowers();
  if (leaders.empty() || followers.empty())
    return emitOpError("needs at least one leader and one follower");
  if (hasMeanLeader() && leaders.size() != 1)
    return emitOpError("a stream with a mean leader has no other leader");
  if (getRepairs().size() != leaders.size())
    return emitOpError("has ") << getRepairs().size()
                               << " repairs for " << leaders.size()
                               << " leaders";

  Block &body = getBody().front();
  unsigned rank = getRank();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != count)
    return emitOpError("the body yields one term per accumulator (")
           << count << ")";
  Type acc = getAccumulatorType();
  if (!isa<FloatType>(acc) ||
      llvm::any_of(yield.getValues(),
                   [&](Value v) { return v.getType() != acc; }))
    return emitOpError("the accumulators are of one float type");
  if (body.getNumArguments() != rank + 1 + leaders.size() ||
      failed(verifyIndexArgs(*this, body, rank + 1, "body")) ||
      llvm::any_of(body.getArguments().drop_front(rank + 1),
                   [&](BlockArgument a) { return a.getType() != acc; }))
    return emitOpError("the body takes ")
           << rank + 1 << " indices and one " << acc << " per leader";
  SmallVector<BlockArgument> leaderArgs(body.getArguments().drop_front(rank + 1));
  for (unsigned j : leaders)
    if (dependsOnAny(yield.getValues()[j], leaderArgs))
      return emitOpError("the term of leader ")
             << j << " depends on a leader's value";

  for (Region &repair : getRepairs()) {
    Block &block = repair.front();
    auto factors = cast<YieldOp>(block.getTerminator());
    unsigned arguments = hasMeanLeader() ? 3 : 2;
    if (block.getNumArguments() != arguments ||
        llvm::any_of(block.getArgumentTypes(),
                     [&](Type t) { return t != acc; }) ||
        factors.getValues().size() != followers.size() ||
        llvm::any_of(factors.getValues(),
                     [&](Value v) { return v.getType() != acc; }))
      return emitOpError("a repair takes the old and new ")
             << acc
             << (arguments == 3 ? " (and a mean's count of points before)" : "")
             << " and yields one " << (arguments == 3 ? "addend" : "factor")
             << " per follower (" << followers.size() << ")";
  }

  Block &epilogue = getEpilogue().front();
  auto stored = cast<YieldOp>(epilogue.getTerminator());
  if (epilogue.getNumArguments() != rank + count ||
      failed(verifyIndexArgs(*this, epilogue, rank, "epilogue")) ||
      llvm::any_of(epilogue.getArguments().drop_front(rank),
                   [&](BlockArgument a) { return a.getType() != acc; }))
    return emitOpError("the epilogue takes the ")
           << rank << " left-hand indices and the " << count
           << " accumulators";
  size_t exports = getExports() ? getExports()->size() : 0;
  if (getExported().size() != exports)
    return emitOpError("has one result after the first per export");
  if (stored.getValues().size() != 1 + exports ||
      stored.getValues().front().getType() != type.getElementType() ||
      llvm::any_of(llvm::zip(getExported(), stored.getValues().drop_front()),
                   [](auto pair) {
                     return cast<RankedTensorType>(std::get<0>(pair).getType())
                                .getElementType() !=
                            std::get<1>(pair).getType();
                   }))
    return emitOpError("the epilogue yields one ")
           << type.getElementType() << ", then one element per export";
  if (!exports && getExportDimsAttr())
    return emitOpError("gives dimensions (`along`) but exports nothing");
  if (exports && failed(verifyExportDims(epilogue)))
    return failure();
  return success();
}
