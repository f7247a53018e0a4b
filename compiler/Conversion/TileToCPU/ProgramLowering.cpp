//===- ProgramLowering.cpp - tile programs to host vector code ------------===//
//
// The program's loop over its ids, the dispatch of its ops, and
// tile.reduce as a loop nest carrying the accumulator tile (see
// ProgramLowering.h); the pass.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/BoundBuffers.h"
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace nautilus {
#define GEN_PASS_DEF_CONVERTTILETOCPU
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

void ProgramLowering::lowerReduce(ArrayRef<tile::ReduceOp> group,
                                  LogicalResult &status) {
  // A body that does not vary along some output dimensions folds a
  // narrower tile, broadcast at the end (attention's scores, recomputed in
  // a stream whose tile spans the head dimension).
  tile::ReduceOp reduce = group.front();
  SmallVector<int64_t> outer = valueShape;
  valueShape = narrowShape(reduce);
  auto type = VectorType::get(valueShape, reduce.getType().getElementType());
  SmallVector<Value> folded = foldsAlongReducedLanes(group, type)
                                  ? foldAlongReducedLanes(group, type, status)
                                  : foldReduce(group, type, status);
  if (foldsInBlocks(group))
    continueInLastBlock(folded);
  valueShape = outer;
  auto outerType = VectorType::get(outer, type.getElementType());
  if (!keys) {
    for (auto [i, value] : llvm::enumerate(folded))
      mapping.map(tile::ReduceOp(group[i]).getResult(),
                  broadcastToTile(value, outerType));
    return;
  }
  int selected = keys->selected;
  for (auto [j, value] : llvm::enumerate(folded)) {
    selectKey(j);
    mapping.map(reduce.getResult(), broadcastToTile(value, outerType));
  }
  selectKey(selected);
}

Value ProgramLowering::foldTerm(alg::ReductionKind kind, Value acc,
                                Value term) {
  // A sum of products accumulates with fused multiply-adds.
  auto product = term.getDefiningOp<arith::MulFOp>();
  if (kind == alg::ReductionKind::sum && product && product->use_empty()) {
    Value fma =
        math::FmaOp::create(b, loc, product.getLhs(), product.getRhs(), acc);
    product.erase();
    return fma;
  }
  return combineReduction(b, loc, kind, acc, term);
}

SmallVector<tile::ReduceOp>
ProgramLowering::siblingReductions(tile::ReduceOp first) {
  SmallVector<tile::ReduceOp> group{first};
  if (keys || first.isSplit())
    return group;
  SmallVector<int64_t> shape = narrowShape(first);
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    auto next = dyn_cast<tile::ReduceOp>(op);
    if (!next || next.isSplit() || next.getKind() != first.getKind() ||
        next.getType() != first.getType() ||
        next.getExtents() != first.getExtents() || narrowShape(next) != shape)
      break;
    bool readsGroup = false;
    next.getBody().walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        readsGroup |= llvm::any_of(
            group, [&](tile::ReduceOp r) { return operand == r.getResult(); });
    });
    if (readsGroup)
      break;
    group.push_back(next);
  }
  return group;
}

SmallVector<Value> ProgramLowering::foldReduce(ArrayRef<tile::ReduceOp> group,
                                               VectorType type,
                                               LogicalResult &status) {
  // In a stream's block, one copy of the body per key, each in its key's
  // mapping, folded in the same loops; siblings' bodies one after another
  // at each point (their common reads then load once).
  StreamKeys *copies = keys;
  unsigned count = copies ? copies->indices.size() : 1;
  int selected = copies ? copies->selected : -1;
  tile::ReduceOp reduce = group.front();
  SmallVector<Value> ivs;
  // The bodies at one point, for each copy: the accumulators folded.
  auto foldPoint = [&](ValueRange accs) {
    SmallVector<Value> next;
    for (tile::ReduceOp sibling : group) {
      Block &body = sibling.getBody().front();
      for (unsigned j = 0; j < count; ++j) {
        if (copies)
          selectKey(j);
        keys = nullptr; // a reduction nested in this body: this copy only
        for (auto [arg, iv] : llvm::zip(body.getArguments(), ivs))
          mapping.map(arg, iv);
        if (failed(lowerBlock(body)))
          status = failure();
        keys = copies;
        auto yield = cast<tile::YieldOp>(body.getTerminator());
        next.push_back(foldTerm(reduce.getKind(), accs[next.size()],
                                mapping.lookup(yield.getValue())));
      }
    }
    if (copies)
      selectKey(selected);
    return next;
  };
  std::function<SmallVector<Value>(unsigned, ValueRange)> nest;
  // A loop over [from, to) at `level`, carrying `accs`.
  auto loopOver = [&](unsigned level, Value from, Value to, ValueRange accs) {
    auto loop = scf::ForOp::create(b, loc, from, to, cIndex(1), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
    reducedIVs.push_back(loop.getInductionVar());
    SmallVector<Value> next = nest(level + 1, loop.getRegionIterArgs());
    reducedIVs.pop_back();
    ivs.pop_back();
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(loop.getResults());
  };
  Value init = reductionIdentity(b, loc, reduce.getKind(), type);
  bool blocked = isFloatSum(reduce.getKind(), type);
  // A loop per reduced dimension, the accumulators carried through all.
  nest = [&](unsigned level, ValueRange accs) -> SmallVector<Value> {
    if (level == reduce.getExtents().size())
      return foldPoint(accs);
    Value extent = mapping.lookup(reduce.getExtents()[level]);
    if (level != 0)
      return loopOver(level, cIndex(0), extent, accs);
    auto [first, end] = emitReducedRange(b, loc, reduce, extent, base);
    if (foldsInBlocks(group))
      std::tie(first, end) = withinBlock(first, end);
    if (!blocked)
      return loopOver(level, first, end, accs);
    // A float sum folds blocks of kSumBlock points into fresh partials,
    // added to the totals with Kahan's compensation (emitBlockedSum).
    return emitBlockedSum(b, loc, first, end, accs,
                          [&](Value start, Value stop, ValueRange zeros) {
                            return loopOver(level, start, stop, zeros);
                          });
  };
  unsigned accumulators = count * group.size();
  return nest(0, foldsInBlocks(group)
                     ? blockStartValues(accumulators, type, init)
                     : SmallVector<Value>(accumulators, init));
}

LogicalResult ProgramLowering::lowerOp(Operation &op) {
  if (lowerStagedOp(op))
    return success();
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    mapping.map(index.getResult(), indexVector(index.getDim(), valueShape));
    return success();
  }
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    mapping.map(load.getResult(), lowerLoad(load));
    return success();
  }
  if (auto store = dyn_cast<tile::StoreOp>(op)) {
    lowerStore(store);
    return success();
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    LogicalResult status = success();
    lowerReduce({reduce}, status);
    return status;
  }
  if (auto online = dyn_cast<tile::OnlineReduceOp>(op)) {
    LogicalResult status = success();
    SmallVector<Value> results = lowerOnlineReduce(online, status);
    for (auto [from, to] : llvm::zip(online.getResults(), results))
      mapping.map(from, to);
    return status;
  }
  if (isa<tile::ReturnOp, tile::YieldOp>(op))
    return success();
  if (isa<tile::SkipIfNegativeOp>(op))
    return success(); // around the whole tile (run)
  if (isa<tile::TileDialect>(op.getDialect()) || op.getNumRegions())
    return op.emitOpError("has no CPU lowering");
  // A tile.index lowered at a wider shape than this op's (outside a
  // stream or a reduction that computes a narrower tile: a column of row
  // indices there would span the head dimension, and so would everything
  // computed from it) is made anew at this op's shape, for this op alone.
  SmallVector<std::pair<Value, Value>> widerIndices;
  for (Value operand : op.getOperands()) {
    auto index = operand.getDefiningOp<tile::IndexOp>();
    Value lowered = index ? mapping.lookupOrNull(operand) : Value();
    if (!lowered || !isWiderThanValueShape(lowered))
      continue;
    widerIndices.push_back({operand, lowered});
    SmallVector<int64_t> shape(valueShape.size(), 1);
    shape[index.getDim()] = valueShape[index.getDim()];
    mapping.map(operand, indexVector(index.getDim(), shape));
  }
  fitToValueShape(b.clone(op, mapping));
  for (auto [original, lowered] : llvm::reverse(widerIndices))
    mapping.map(original, lowered);
  return success();
}

bool ProgramLowering::isWiderThanValueShape(Value v) const {
  auto type = dyn_cast<VectorType>(v.getType());
  if (!type || type.getRank() != static_cast<int64_t>(valueShape.size()))
    return false;
  for (auto [have, want] : llvm::zip(type.getShape(), valueShape))
    if (have > want)
      return true;
  return false;
}

LogicalResult ProgramLowering::lowerBlock(Block &block) {
  for (auto it = block.begin(); it != block.end(); ++it) {
    auto reduce = dyn_cast<tile::ReduceOp>(*it);
    if (!reduce) {
      if (failed(lowerOp(*it)))
        return failure();
      continue;
    }
    // Consecutive sibling reductions fold in one loop nest.
    SmallVector<tile::ReduceOp> group = siblingReductions(reduce);
    LogicalResult status = success();
    lowerReduce(group, status);
    if (failed(status))
      return failure();
    std::advance(it, group.size() - 1);
  }
  return success();
}

Varies ProgramLowering::variesAlong(tile::ReduceOp reduce) {
  Varies varies(rank, false);
  auto join = [&](ArrayRef<bool> other) {
    for (unsigned d = 0; d < rank; ++d)
      varies[d] = varies[d] || other[d];
  };
  reduce.getBody().walk([&](Operation *op) {
    if (isa<tile::LoadOp, tile::IndexOp>(op))
      return join(opVaries(*op));
    // Tiles from outside the reduction: what they vary along.
    for (Value operand : op->getOperands())
      if (isa<VectorType>(operand.getType()) &&
          !reduce->isAncestor(operand.getParentBlock()->getParentOp()))
        join(variesOf(operand));
  });
  return varies;
}

SmallVector<int64_t> ProgramLowering::narrowShape(tile::ReduceOp reduce) {
  Varies varies = variesAlong(reduce);
  SmallVector<int64_t> shape(valueShape);
  for (unsigned d = 0; d < rank; ++d)
    if (!varies[d])
      shape[d] = 1;
  return shape;
}

void ProgramLowering::fitToValueShape(Operation *copy) {
  // (Folding along reduced lanes, the tile IR's types lack the lanes'
  // dimension.)
  int64_t irRank =
      static_cast<int64_t>(valueShape.size()) - (reducedLanes.active ? 1 : 0);
  auto atValueShape = [&](Type t) -> Type {
    auto vec = dyn_cast<VectorType>(t);
    if (!vec || (vec.getRank() != static_cast<int64_t>(valueShape.size()) &&
                 vec.getRank() != irRank))
      return t;
    return VectorType::get(valueShape, vec.getElementType());
  };
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(copy);
  for (OpOperand &operand : copy->getOpOperands()) {
    Type want = atValueShape(operand.get().getType());
    if (want == operand.get().getType())
      continue;
    auto have = cast<VectorType>(operand.get().getType());
    bool narrower = llvm::all_of(
        llvm::zip(have.getShape(), valueShape),
        [](auto dims) { return std::get<0>(dims) <= std::get<1>(dims); });
    if (narrower) {
      operand.set(vector::BroadcastOp::create(b, loc, want, operand.get()));
      continue;
    }
    // Wider: a splat constant from outside (hoisted there), made anew.
    auto constant = operand.get().getDefiningOp<arith::ConstantOp>();
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    operand.set(arith::ConstantOp::create(
        b, loc, cast<ShapedType>(want),
        SplatElementsAttr::get(cast<ShapedType>(want),
                               splat.getSplatValue<Attribute>())));
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(copy))
    if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
      constant.setValueAttr(SplatElementsAttr::get(
          cast<ShapedType>(atValueShape(splat.getType())),
          splat.getSplatValue<Attribute>()));
  for (Value r : copy->getResults())
    r.setType(atValueShape(r.getType()));
}

LogicalResult ProgramLowering::run() {
  Block &entry = program.getBody().front();
  SmallVector<Type> argTypes(entry.getArgumentTypes());
  argTypes.push_back(b.getIndexType()); // first program id
  argTypes.push_back(b.getIndexType()); // one past the last
  b.setInsertionPoint(program);
  auto func = func::FuncOp::create(b, loc, program.getSymName(),
                                   b.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  for (auto [from, to] : llvm::zip(entry.getArguments(),
                                   body->getArguments().drop_back(2)))
    mapping.map(from, to);
  unsigned numBuffers = program.getArgNames().size();
  for (unsigned i = numBuffers; i < entry.getNumArguments(); ++i)
    sizeArgs.push_back(body->getArgument(i));
  // Sizes the plan binds (--shape) are constants, and a buffer whose
  // dimensions are all bound is read through a view of its static shape
  // (tile::boundBufferView): extents, strides and the clamps against them
  // fold, and loops over bound extents have constant trip counts.
  for (auto [i, size] : llvm::enumerate(program.getSizes()))
    if (std::optional<int64_t> bound = program.getKnownExtent(size)) {
      sizeArgs[i] = cIndex(*bound);
      mapping.map(entry.getArgument(numBuffers + i), sizeArgs[i]);
    }
  for (unsigned i = 0; i < numBuffers; ++i)
    if (Value view =
            tile::boundBufferView(b, loc, program, i, body->getArgument(i)))
      mapping.map(entry.getArgument(i), view);

  // Grid extents, then the loop over this call's program ids.
  SmallVector<Value> grid;
  for (unsigned d = 0; d < rank; ++d) {
    Value extent = mapping.lookupOrDefault(program.getOutputExtent(b, loc, d));
    extents.push_back(extent);
    grid.push_back(arith::CeilDivSIOp::create(b, loc, extent,
                                              cIndex(tileShape[d])));
  }
  Value first = body->getArgument(body->getNumArguments() - 2);
  Value last = body->getArgument(body->getNumArguments() - 1);
  if (failed(findPackedPanels()) || failed(findReductionBlocks()))
    return failure();
  auto ret = func::ReturnOp::create(b, loc);
  b.setInsertionPoint(ret);
  Value rest;
  if (blocks.size) {
    rest = emitBlockedInstanceLoops(first, last, grid);
  } else {
    instanceLoop = scf::ForOp::create(b, loc, first, last, cIndex(1));
    b.setInsertionPointToStart(instanceLoop.getBody());
    rest = instanceLoop.getInductionVar();
  }
  allocatePackedPanels();
  base.assign(rank, Value());
  // Program ids walk the grid row-major (the last dimension fastest); with
  // a packed panel, the last two dimensions down the columns (rows of
  // tiles fastest), so that consecutive instances share the panel.
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  if (program.getSchedule().walksDownColumns() && rank >= 2)
    std::swap(order[0], order[1]);
  for (unsigned d : order) {
    Value coord = arith::RemSIOp::create(b, loc, rest, grid[d]);
    rest = arith::DivSIOp::create(b, loc, rest, grid[d]);
    base[d] = arith::MulIOp::create(b, loc, coord, cIndex(tileShape[d]));
  }
  packPanelsIfNew();
  if (auto skip = tile::SkipIfNegativeOp::find(program)) {
    Value tableEntry = loadTableEntry(
        b, loc, mapping.lookup(skip.getTable()), skip.getMap(), base,
        sizeArgs, /*outside=*/-1);
    auto ifRuns = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, tableEntry,
                              cIndex(0)),
        /*withElse=*/false);
    b.setInsertionPointToStart(&ifRuns.getThenRegion().front());
  }
  if (failed(lowerBlock(entry)))
    return failure();
  b.setInsertionPoint(ret);
  freeScratch();
  program.erase();
  return success();
}

namespace {

struct ConvertTileToCPUPass
    : public nautilus::impl::ConvertTileToCPUBase<ConvertTileToCPUPass> {
  using ConvertTileToCPUBase::ConvertTileToCPUBase;
  void runOnOperation() override {
    SmallVector<tile::ProgramOp> programs(
        getOperation().getOps<tile::ProgramOp>());
    int64_t bits = vectorBits;
    if (bits <= 0)
      bits = getTarget("cpu")->vectorBits;
    for (tile::ProgramOp p : programs)
      if (failed(ProgramLowering(p, bits).run()))
        return signalPassFailure();
  }
};

} // namespace
