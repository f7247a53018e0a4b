//===- StreamLowering.cpp - tile.online_reduce as host vector code --------===//
//
// A stream becomes a loop over blocks of kStreamBlock keys, then a loop over
// the keys left, one at a time. A step over a block:
//
//  1. The body's ops that read no leader are lowered for every key of the
//     block, op by op. A tile.reduce among them (attention's scores,
//     recomputed from Q and K) becomes one loop nest carrying one
//     accumulator per key, so what it reads independently of the key (Q's
//     columns) is loaded once for the block.
//  2. Each leader folds the block's terms: new = old max t0 max t1 ... .
//  3. The repairs from the old leaders to the new are computed once.
//  4. The ops that read a leader are lowered for every key, at the new
//     leaders, and each follower becomes old * repair + its terms (fused
//     multiply-adds for products).
//
// A mean leader (Welford/Chan) holds the running mean: a block moves it by
// sum(t - old) / (keys before + keys of the block), and its repair adds
// to each follower (old + addend + terms), given the keys before.
//
// A row stream (softmax's, a norm's: tile::streamFoldsAlongReducedLanes)
// first folds its whole steps (kLaneStreamBlock vectors of keys: 64 f32
// keys with AVX-512) along vector lanes, each lane a stream of its own
// (ReducedLanes.cpp), the lanes' states merged by the same repairs; the
// loops above take the keys left (blocks of 8, then one at a time).
//
// Every value is computed at the shape it varies along (inferStreamVaries):
// in attention the scores, the leader, the repair and the denominator are
// columns over the query rows; only P V's terms span the head dimension.
// The accumulators are kept at their shapes and broadcast to the tile at
// the end. One spanning several rows whose terms are each a row times a
// column (P V) is kept in a scratch buffer of its rows, not carried by the
// loops: each block updates it a row at a time in place.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "dialects/Tile/Utils/ReducedLanes.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

/// The ops of `block` that read any of `args`, directly or through others.
static llvm::SmallPtrSet<Operation *, 16> readersOf(Block &block,
                                                    ValueRange args) {
  llvm::SmallPtrSet<Operation *, 16> readers;
  llvm::SmallPtrSet<Value, 16> tainted(args.begin(), args.end());
  for (Operation &op : block.without_terminator()) {
    bool reads = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        reads |= tainted.contains(v);
    });
    if (!reads)
      continue;
    readers.insert(&op);
    tainted.insert(op.result_begin(), op.result_end());
  }
  return readers;
}

SmallVector<int64_t> ProgramLowering::shapeOf(ArrayRef<bool> varies) {
  SmallVector<int64_t> shape(tileShape);
  for (unsigned d = 0; d < rank; ++d)
    if (!varies[d])
      shape[d] = 1;
  return shape;
}

Varies ProgramLowering::variesOf(Value v) {
  if (!isa<VectorType>(v.getType()))
    return Varies(rank, false);
  if (auto it = streamVaries.find(v); it != streamVaries.end())
    return it->second;
  // A tile.index (lowered at the tile's shape where it stands, outside
  // the stream or reduction reading it) varies along its dimension only:
  // lowerOp makes it anew at the shape of the op that reads it.
  if (auto index = v.getDefiningOp<tile::IndexOp>()) {
    Varies varies(rank, false);
    varies[index.getDim()] = true;
    return varies;
  }
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  if (constant && isa<SplatElementsAttr>(constant.getValue()))
    return Varies(rank, false);
  Varies varies(rank, true);
  if (Value lowered = mapping.lookupOrNull(v))
    if (auto type = dyn_cast<VectorType>(lowered.getType());
        type && type.getRank() == rank)
      for (unsigned d = 0; d < rank; ++d)
        varies[d] = type.getDimSize(d) > 1;
  return varies;
}

Varies ProgramLowering::opVaries(Operation &op) {
  Varies varies(rank, false);
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    for (unsigned d = 0; d < rank; ++d)
      varies[d] =
          !load.getIndirect().empty() ||
          llvm::any_of(load.getMap().getResults(), [&](AffineExpr e) {
            return !tile::isUniformOverTile(e, d, tileShape[d], knownSymbols);
          });
    return varies;
  }
  if (auto index = dyn_cast<tile::IndexOp>(op)) {
    varies[index.getDim()] = true;
    return varies;
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return variesAlong(reduce);
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue()) ? varies
                                                       : Varies(rank, true);
  for (Value operand : op.getOperands()) {
    Varies other = variesOf(operand);
    for (unsigned d = 0; d < rank; ++d)
      varies[d] = varies[d] || other[d];
  }
  return varies;
}

void ProgramLowering::inferStreamVaries(tile::OnlineReduceOp op) {
  Block &body = op.getBody().front();
  ValueRange leaderArgs = body.getArguments().drop_front();
  llvm::SmallPtrSet<Operation *, 16> late = readersOf(body, leaderArgs);
  auto infer = [&](Operation &inner) {
    Varies varies = opVaries(inner);
    for (Value r : inner.getResults())
      streamVaries[r] = varies;
  };
  for (Operation &inner : body.without_terminator())
    if (!late.contains(&inner))
      infer(inner);
  auto yielded = cast<tile::YieldOp>(body.getTerminator()).getValues();
  for (unsigned i = 0, j = 0; i < yielded.size(); ++i) {
    if (!op.isLeader(i))
      continue;
    Varies leader = variesOf(yielded[i]);
    streamVaries[leaderArgs[j]] = leader;
    for (Value arg : op.getRepairs()[j].getArguments())
      streamVaries[arg] = leader;
    ++j;
  }
  for (Operation &inner : body.without_terminator())
    if (late.contains(&inner))
      infer(inner);
  for (Region &repair : op.getRepairs())
    for (Operation &inner : repair.front().without_terminator())
      infer(inner);
}

void ProgramLowering::selectKey(int j) {
  if (!keys || keys->selected == j)
    return;
  if (keys->selected >= 0)
    std::swap(mapping, keys->mappings[keys->selected]);
  keys->selected = j;
  if (j < 0)
    return;
  std::swap(mapping, keys->mappings[j]);
  reducedIVs[keys->level] = keys->indices[j];
  if (reducedLanes.active) // the key's lanes start there
    base.back() = keys->indices[j];
}

void ProgramLowering::lowerAtItsShape(Operation &op, LogicalResult &status) {
  SmallVector<int64_t> outer = valueShape;
  valueShape = shapeOf(opVaries(op));
  if (failed(lowerOp(op)))
    status = failure();
  valueShape = outer;
}

void ProgramLowering::lowerForKeys(ArrayRef<Operation *> ops,
                                   LogicalResult &status) {
  for (Operation *op : ops) {
    // A nested reduction folds every key's copy in one loop nest.
    if (isa<tile::ReduceOp>(op)) {
      lowerAtItsShape(*op, status);
      continue;
    }
    for (unsigned j = 0; j < keys->indices.size(); ++j) {
      selectKey(j);
      lowerAtItsShape(*op, status);
    }
    selectKey(-1);
  }
}

/// `v` broadcast to the type of `like` where it is narrower.
static Value broadcastLike(OpBuilder &b, Location loc, Value v, Value like) {
  if (v.getType() == like.getType())
    return v;
  return vector::BroadcastOp::create(b, loc, like.getType(), v);
}

SmallVector<Value> ProgramLowering::stepOnlineReduce(
    tile::OnlineReduceOp op, ValueRange accumulators, Value first,
    int64_t count, LogicalResult &status) {
  Block &body = op.getBody().front();
  auto yield = cast<tile::YieldOp>(body.getTerminator());
  unsigned numAccumulators = accumulators.size();
  ValueRange leaderArgs = body.getArguments().drop_front();
  llvm::SmallPtrSet<Operation *, 16> late = readersOf(body, leaderArgs);
  SmallVector<Operation *> earlyOps, lateOps;
  for (Operation &inner : body.without_terminator())
    (late.contains(&inner) ? lateOps : earlyOps).push_back(&inner);

  StreamKeys block;
  block.level = reducedIVs.size();
  reducedIVs.push_back(first);
  for (int64_t j = 0; j < count; ++j) {
    Value index =
        j ? arith::AddIOp::create(b, loc, first, cIndex(j * streamKeyStride))
                .getResult()
          : first;
    block.indices.push_back(index);
    block.mappings.push_back(mapping);
    block.mappings.back().map(body.getArgument(0), index);
  }
  keys = &block;
  auto termsOf = [&](unsigned i) {
    SmallVector<Value> terms;
    for (IRMapping &keyMapping : block.mappings)
      terms.push_back(keyMapping.lookup(yield.getValues()[i]));
    return terms;
  };

  stageBlockReads(op, block);
  // The leaders' terms read no leader: fold them first.
  lowerForKeys(earlyOps, status);
  SmallVector<Value> next(numAccumulators), oldSafe, newSafe;
  Value keysBefore; // a mean's count, as a float
  for (unsigned i = 0, j = 0; i < numAccumulators; ++i) {
    if (!op.isLeader(i))
      continue;
    if (op.isMean(i)) {
      Value before = arith::SubIOp::create(b, loc, first, streamStart);
      if (streamKeyStride > 1) // each lane's keys before the block
        before =
            arith::DivSIOp::create(b, loc, before, cIndex(streamKeyStride));
      Value asInteger =
          arith::IndexCastOp::create(b, loc, b.getI64Type(), before);
      auto type = cast<VectorType>(accumulators[i].getType());
      keysBefore = vector::BroadcastOp::create(
          b, loc, type,
          arith::SIToFPOp::create(b, loc, type.getElementType(), asInteger));
      next[i] = foldMean(accumulators[i], termsOf(i), keysBefore);
      oldSafe.push_back(accumulators[i]);
      newSafe.push_back(next[i]);
      for (IRMapping &keyMapping : block.mappings)
        keyMapping.map(leaderArgs[j], next[i]);
      ++j;
      continue;
    }
    alg::ReductionKind kind = op.getAccumulatorKind(i);
    next[i] = accumulators[i];
    for (Value term : termsOf(i)) // (a term may be narrower: a lane's)
      next[i] = combineReduction(b, loc, kind, next[i],
                                 broadcastLike(b, loc, term, next[i]));
    auto [oldLeader, newLeader] = safeLeaders(kind, accumulators[i], next[i]);
    oldSafe.push_back(oldLeader);
    newSafe.push_back(newLeader);
    for (IRMapping &keyMapping : block.mappings)
      keyMapping.map(leaderArgs[j], newSafe.back());
    ++j;
  }
  lowerForKeys(lateOps, status);
  keys = nullptr;
  stagingBlock = nullptr;
  reducedIVs.pop_back();

  // Each follower: its partial sum repaired to the new leaders (a max's or
  // min's repair multiplies it, a mean's adds to it), plus its terms.
  SmallVector<Value> factors(numAccumulators), addends(numAccumulators);
  // (Folded along reduced lanes, a step's repair is one exponential of
  // every five; attention's, of a row's leader, is one of 16 rows x D
  // products, and its branch mispredicts: prefill 4.9 -> 5.7 ms.)
  if (reducedLanes.active)
    lowerRepairsWhereLeadersMoved(op, oldSafe, newSafe, keysBefore, factors,
                                  addends, status);
  else
    lowerRepairs(op, oldSafe, newSafe, keysBefore, factors, addends, status);
  llvm::SmallPtrSet<Operation *, 8> fused;
  for (unsigned i = 0; i < numAccumulators; ++i) {
    if (op.isLeader(i))
      continue;
    if (i < rowFollowers.size() && rowFollowers[i].slot)
      updateRowFollower(rowFollowers[i], factors[i], addends[i], termsOf(i),
                        fused);
    else
      next[i] = updateFollower(accumulators[i], factors[i], addends[i],
                               termsOf(i), fused);
  }
  for (Operation *product : fused)
    if (product->use_empty())
      product->erase();
  return next;
}

std::pair<Value, Value> ProgramLowering::safeLeaders(alg::ReductionKind kind,
                                                     Value oldLeader,
                                                     Value newLeader) {
  // A leader still at its identity (no finite term yet) reads as 0, and
  // the repair from the identity is 1: no term has read that leader yet.
  auto type = cast<VectorType>(newLeader.getType());
  Value identity = reductionIdentity(b, loc, kind, type);
  Value zero = arith::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), 0)));
  auto isIdentity = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                                 identity);
  };
  Value newSafe =
      arith::SelectOp::create(b, loc, isIdentity(newLeader), zero, newLeader);
  Value oldSafe = arith::SelectOp::create(b, loc, isIdentity(oldLeader),
                                          newSafe, oldLeader);
  return {oldSafe, newSafe};
}

void ProgramLowering::lowerRepairs(tile::OnlineReduceOp op,
                                   ArrayRef<Value> oldLeaders,
                                   ArrayRef<Value> newLeaders, Value keysBefore,
                                   MutableArrayRef<Value> factors,
                                   MutableArrayRef<Value> addends,
                                   LogicalResult &status) {
  unsigned numAccumulators = factors.size();
  bool mean = op.hasMeanLeader(); // then the only leader
  for (auto [j, repair] : llvm::enumerate(op.getRepairs())) {
    Block &repairBlock = repair.front();
    mapping.map(repairBlock.getArgument(0), oldLeaders[j]);
    mapping.map(repairBlock.getArgument(1), newLeaders[j]);
    if (mean)
      mapping.map(repairBlock.getArgument(2), keysBefore);
    for (Operation &inner : repairBlock.without_terminator())
      lowerAtItsShape(inner, status);
    auto yielded = cast<tile::YieldOp>(repairBlock.getTerminator()).getValues();
    for (unsigned i = 0, f = 0; i < numAccumulators; ++i) {
      if (op.isLeader(i))
        continue;
      Value repaired = mapping.lookup(yielded[f++]);
      if (mean)
        addends[i] = repaired;
      else
        factors[i] = factors[i]
                         ? arith::MulFOp::create(b, loc, factors[i], repaired)
                         : repaired;
    }
  }
}

void ProgramLowering::lowerRepairsWhereLeadersMoved(
    tile::OnlineReduceOp op, ArrayRef<Value> oldLeaders,
    ArrayRef<Value> newLeaders, Value keysBefore,
    MutableArrayRef<Value> factors, MutableArrayRef<Value> addends,
    LogicalResult &status) {
  if (op.hasMeanLeader() || oldLeaders.empty()) {
    lowerRepairs(op, oldLeaders, newLeaders, keysBefore, factors, addends,
                 status);
    return;
  }
  // Any lane's leader moved (or is NaN: unordered).
  Value moved;
  for (auto [oldLeader, newLeader] : llvm::zip(oldLeaders, newLeaders)) {
    Value differs = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE,
                                          oldLeader, newLeader);
    auto type = cast<VectorType>(differs.getType());
    Value flat = vector::ShapeCastOp::create(
        b, loc, VectorType::get({type.getNumElements()}, b.getI1Type()),
        differs);
    Value any =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, flat);
    moved = moved ? arith::OrIOp::create(b, loc, moved, any).getResult() : any;
  }
  // The repairs lowered in a region first, to learn the factors' types.
  auto computed = scf::IfOp::create(b, loc, TypeRange{}, moved,
                                    /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(computed.thenBlock()->getTerminator());
    lowerRepairs(op, oldLeaders, newLeaders, keysBefore, factors, addends,
                 status);
  }
  SmallVector<Value> repaired;
  for (Value factor : factors)
    if (factor)
      repaired.push_back(factor);
  auto chosen = scf::IfOp::create(b, loc, TypeRange(ValueRange(repaired)),
                                  moved, /*withElseRegion=*/true);
  chosen.getThenRegion().takeBody(computed.getThenRegion());
  computed.erase();
  {
    OpBuilder::InsertionGuard guard(b);
    Operation *empty = chosen.thenBlock()->getTerminator();
    b.setInsertionPoint(empty);
    scf::YieldOp::create(b, loc, repaired);
    empty->erase();
    b.setInsertionPointToStart(chosen.elseBlock());
    SmallVector<Value> ones;
    for (Value factor : repaired) {
      auto type = cast<VectorType>(factor.getType());
      ones.push_back(arith::ConstantOp::create(
          b, loc, type,
          DenseElementsAttr::get(type,
                                 b.getFloatAttr(type.getElementType(), 1))));
    }
    scf::YieldOp::create(b, loc, ones);
  }
  unsigned next = 0;
  for (Value &factor : factors)
    if (factor)
      factor = chosen.getResult(next++);
}

Value ProgramLowering::updateFollower(
    Value acc, Value factor, Value addend, ArrayRef<Value> terms,
    llvm::SmallPtrSetImpl<Operation *> &fused) {
  // Each term as the tile's shape: a product's two factors (an FMA), or
  // the term itself (an addition).
  SmallVector<std::pair<Value, Value>> wide;
  for (Value term : terms) {
    auto product = term.getDefiningOp<arith::MulFOp>();
    if (product && product->use_empty()) {
      wide.push_back({broadcastLike(b, loc, product.getLhs(), acc),
                      broadcastLike(b, loc, product.getRhs(), acc)});
      fused.insert(product);
    } else {
      wide.push_back({broadcastLike(b, loc, term, acc), Value()});
    }
  }
  Value wideFactor = factor ? broadcastLike(b, loc, factor, acc) : Value();
  Value wideAddend = addend ? broadcastLike(b, loc, addend, acc) : Value();
  auto update = [&](Value sum, auto pick) {
    if (wideFactor)
      sum = arith::MulFOp::create(b, loc, sum, pick(wideFactor));
    if (wideAddend)
      sum = arith::AddFOp::create(b, loc, sum, pick(wideAddend));
    for (auto [lhs, rhs] : wide)
      sum = rhs ? math::FmaOp::create(b, loc, pick(lhs), pick(rhs), sum)
                      .getResult()
                : arith::AddFOp::create(b, loc, sum, pick(lhs)).getResult();
    return sum;
  };
  // A tile of several rows, each a row of values, whose terms span the
  // tile (a row follower's do not: updateRowFollower): updated a row at a
  // time, so that the code holds one row's partial sums over the block's
  // keys rather than the whole tile's. The same operations, in the same
  // order, for each element.
  auto type = cast<VectorType>(acc.getType());
  ArrayRef<int64_t> leading = type.getShape().drop_back();
  int64_t rows = computeProduct(leading);
  if (type.getRank() < 2 || rows == 1 || type.getShape().back() == 1)
    return update(acc, [](Value v) { return v; });
  // The rows are joined by shuffles into one vector of rows x D elements
  // (a chain of inserts would be canonicalised into one element at a
  // time), reshaped to the tile.
  Value joined;
  SmallVector<int64_t> strides = computeStrides(leading);
  for (int64_t row = 0; row < rows; ++row) {
    SmallVector<int64_t> position = delinearize(row, strides);
    auto pick = [&](Value v) -> Value {
      return vector::ExtractOp::create(b, loc, v, position);
    };
    Value updated = update(pick(acc), pick);
    if (!joined) {
      joined = updated;
      continue;
    }
    int64_t length = cast<VectorType>(joined.getType()).getNumElements() +
                     type.getShape().back();
    joined = vector::ShuffleOp::create(
        b, loc, joined, updated,
        llvm::to_vector(llvm::seq<int64_t>(0, length)));
  }
  return vector::ShapeCastOp::create(b, loc, type, joined);
}

bool ProgramLowering::keepsRowsInMemory(tile::OnlineReduceOp op, unsigned i,
                                        Value acc) {
  auto type = cast<VectorType>(acc.getType());
  if (type.getRank() < 2 || type.getShape().back() == 1 ||
      computeProduct(type.getShape().drop_back()) == 1)
    return false;
  // A value a row of the tile, a column, or neither: not a whole tile.
  auto rowOrColumn = [&](Value v) {
    SmallVector<int64_t> shape = shapeOf(variesOf(v));
    return shape.back() == 1 ||
           computeProduct(ArrayRef(shape).drop_back()) == 1;
  };
  Block &body = op.getBody().front();
  Value term = cast<tile::YieldOp>(body.getTerminator()).getValues()[i];
  auto product = term.getDefiningOp<arith::MulFOp>();
  if (!product || !product->hasOneUse() || !rowOrColumn(product.getLhs()) ||
      !rowOrColumn(product.getRhs()))
    return false;
  unsigned follower = 0; // i's position among the followers
  for (unsigned k = 0; k < i; ++k)
    follower += !op.isLeader(k);
  for (Region &repair : op.getRepairs()) {
    auto yield = cast<tile::YieldOp>(repair.front().getTerminator());
    if (!rowOrColumn(yield.getValues()[follower]))
      return false;
  }
  return true;
}

void ProgramLowering::updateRowFollower(
    const RowFollower &follower, Value factor, Value addend,
    ArrayRef<Value> terms, llvm::SmallPtrSetImpl<Operation *> &fused) {
  int64_t width = follower.type.getShape().back();
  int64_t rows = follower.type.getNumElements() / width;
  Type element = follower.type.getElementType();
  auto rowType = VectorType::get({width}, element);
  // Each operand before the loop over the rows: a row's values (flat), a
  // column's (one element a row, picked in the loop), or one value.
  struct Operand {
    Value values;
    bool perRow = false;
  };
  auto prepare = [&](Value v) -> Operand {
    // (Lowered at the tile's shape, a product's operands are broadcast to
    // it: their values are the broadcasts' sources.)
    while (auto broadcast = v.getDefiningOp<vector::BroadcastOp>()) {
      if (!isa<VectorType>(broadcast.getSourceType()))
        return {vector::BroadcastOp::create(b, loc, rowType,
                                            broadcast.getSource())};
      v = broadcast.getSource();
    }
    // A splat constant (varying along nothing) may have been lowered at
    // the tile's shape (hoisted out of the stream: a repair of 1 for a
    // follower no leader rescales): made anew at a row's.
    if (auto constant = v.getDefiningOp<arith::ConstantOp>())
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
        return {arith::ConstantOp::create(
            b, loc, rowType,
            DenseElementsAttr::get(rowType, splat.getSplatValue<Attribute>()))};
    auto vType = cast<VectorType>(v.getType());
    int64_t along = vType.getShape().back();
    if (along > 1)
      return {vector::ShapeCastOp::create(b, loc, rowType, v)};
    if (computeProduct(vType.getShape()) == 1) {
      Value one = vector::ExtractOp::create(
          b, loc, v, SmallVector<int64_t>(vType.getRank(), 0));
      return {vector::BroadcastOp::create(b, loc, rowType, one)};
    }
    SmallVector<int64_t> column(follower.type.getShape());
    column.back() = 1;
    Value wide = vector::BroadcastOp::create(
        b, loc, VectorType::get(column, element), v);
    return {vector::ShapeCastOp::create(b, loc,
                                        VectorType::get({rows}, element), wide),
            /*perRow=*/true};
  };
  SmallVector<std::pair<Operand, std::optional<Operand>>> wide;
  for (Value term : terms) {
    auto product = term.getDefiningOp<arith::MulFOp>();
    assert(product && product->use_empty() && "keepsRowsInMemory's term");
    wide.push_back({prepare(product.getLhs()), prepare(product.getRhs())});
    fused.insert(product);
  }
  std::optional<Operand> wideFactor, wideAddend;
  if (factor)
    wideFactor = prepare(factor);
  if (addend)
    wideAddend = prepare(addend);

  auto loop = scf::ForOp::create(b, loc, cIndex(0), cIndex(rows), cIndex(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value row = loop.getInductionVar();
  auto pick = [&](const Operand &operand) -> Value {
    if (!operand.perRow)
      return operand.values;
    Value one = vector::ExtractOp::create(b, loc, operand.values,
                                          ArrayRef<OpFoldResult>{row});
    return vector::BroadcastOp::create(b, loc, rowType, one);
  };
  Value at = arith::MulIOp::create(b, loc, row, cIndex(width));
  // The operations of updateFollower, in its order.
  Value sum = vector::LoadOp::create(b, loc, rowType, follower.slot, at);
  if (wideFactor)
    sum = arith::MulFOp::create(b, loc, sum, pick(*wideFactor));
  if (wideAddend)
    sum = arith::AddFOp::create(b, loc, sum, pick(*wideAddend));
  for (auto &[lhs, rhs] : wide)
    sum = math::FmaOp::create(b, loc, pick(lhs), pick(*rhs), sum);
  vector::StoreOp::create(b, loc, sum, follower.slot, at);
}

void ProgramLowering::keepRowFollowers(tile::OnlineReduceOp op,
                                       ValueRange init) {
  rowFollowers.assign(init.size(), RowFollower());
  if (streamLanesOf(op, init) != 0) // (its lanes' states are carried)
    return;
  for (auto [i, acc] : llvm::enumerate(init)) {
    if (op.isLeader(i) || !keepsRowsInMemory(op, i, acc))
      continue;
    RowFollower &follower = rowFollowers[i];
    follower.type = cast<VectorType>(acc.getType());
    auto flat = VectorType::get({follower.type.getNumElements()},
                                follower.type.getElementType());
    Value size;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(instanceLoop);
      size = cIndex(flat.getNumElements());
    }
    follower.slot = allocateScratch(
        MemRefType::get({ShapedType::kDynamic}, flat.getElementType()), size);
    vector::StoreOp::create(b, loc,
                            vector::ShapeCastOp::create(b, loc, flat, acc),
                            follower.slot, cIndex(0));
  }
}

Value ProgramLowering::foldMean(Value old, ArrayRef<Value> terms,
                                Value keysBefore) {
  Value moved;
  for (Value term : terms) {
    Value gap =
        arith::SubFOp::create(b, loc, broadcastLike(b, loc, term, old), old);
    moved = moved ? Value(arith::AddFOp::create(b, loc, moved, gap)) : gap;
  }
  auto type = cast<VectorType>(old.getType());
  Value keys = arith::AddFOp::create(
      b, loc, keysBefore,
      arith::ConstantOp::create(
          b, loc, type,
          DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(),
                                                      double(terms.size())))));
  return arith::AddFOp::create(b, loc, old,
                               arith::DivFOp::create(b, loc, moved, keys));
}

std::pair<Value, Value> ProgramLowering::narrowToMask(
    tile::OnlineReduceOp op, Value first, Value end, LogicalResult &status) {
  SmallVector<KeyBound> bounds = maskedKeyBounds(op);
  if (bounds.empty())
    return {first, end};
  // The ops a bound reads, lowered before the loop (each key lowers them
  // again: folded away).
  Block &body = op.getBody().front();
  llvm::SmallPtrSet<Operation *, 16> needed;
  for (const KeyBound &bound : bounds) {
    SmallVector<Value> work{bound.other};
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (def && def->getBlock() == &body && needed.insert(def).second)
        llvm::append_range(work, def->getOperands());
    }
  }
  for (Operation &inner : body.without_terminator())
    if (needed.contains(&inner))
      lowerAtItsShape(inner, status);
  for (const KeyBound &bound : bounds) {
    Value other = mapping.lookup(bound.other);
    auto type = cast<VectorType>(other.getType());
    auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
    Value line = vector::ShapeCastOp::create(b, loc, flat, other);
    bool below = bound.isUpper();
    // The tile's largest e (for an upper bound) or smallest (a lower one).
    Value extreme = vector::ReductionOp::create(
        b, loc,
        below ? vector::CombiningKind::MAXSI : vector::CombiningKind::MINSI,
        line);
    if (!extreme.getType().isIndex())
      extreme = arith::IndexCastOp::create(b, loc, b.getIndexType(), extreme);
    Value limit = arith::AddIOp::create(b, loc, extreme, cIndex(bound.shift()));
    if (below)
      end = arith::MinSIOp::create(b, loc, end, limit);
    else
      first = arith::MaxSIOp::create(b, loc, first, limit);
  }
  // No key at all: an empty range.
  end = arith::MaxSIOp::create(b, loc, end, first);
  return {first, end};
}

SmallVector<Value>
ProgramLowering::lowerOnlineReduce(tile::OnlineReduceOp op,
                                   LogicalResult &status) {
  inferStreamVaries(op);
  // Each accumulator at the shape its terms (and repairs) vary along.
  Block &body = op.getBody().front();
  auto yielded = cast<tile::YieldOp>(body.getTerminator()).getValues();
  SmallVector<Varies> accVaries;
  for (Value term : yielded)
    accVaries.push_back(variesOf(term));
  for (Region &repair : op.getRepairs()) {
    auto factors = cast<tile::YieldOp>(repair.front().getTerminator());
    for (unsigned i = 0, f = 0; i < yielded.size(); ++i) {
      if (op.isLeader(i))
        continue;
      Varies factor = variesOf(factors.getValues()[f++]);
      for (unsigned d = 0; d < rank; ++d)
        accVaries[i][d] = accVaries[i][d] || factor[d];
    }
  }
  SmallVector<Value> init;
  for (unsigned i = 0; i < yielded.size(); ++i) {
    auto type = VectorType::get(
        shapeOf(accVaries[i]),
        cast<VectorType>(op.getResult(i).getType()).getElementType());
    init.push_back(reductionIdentity(b, loc, op.getAccumulatorKind(i), type));
  }
  // Wide followers kept in scratch buffers of their rows, not carried.
  keepRowFollowers(op, init);
  // The carried accumulators of all (`accs`), and all of the carried
  // (`values`: a row follower's entry null).
  auto carried = [&](ArrayRef<Value> accs) {
    SmallVector<Value> kept;
    for (auto [i, acc] : llvm::enumerate(accs))
      if (!rowFollowers[i].slot)
        kept.push_back(acc);
    return kept;
  };
  auto spread = [&](ValueRange values) {
    SmallVector<Value> all(rowFollowers.size());
    auto next = values.begin();
    for (auto [i, acc] : llvm::enumerate(all))
      if (!rowFollowers[i].slot)
        acc = *next++;
    return all;
  };
  stageReads(op, status);
  // Whole blocks of keys, then the keys left one at a time (of a split
  // stream, its chunk's keys).
  auto [first, end] =
      emitStreamedRange(b, loc, op, mapping.lookup(op.getExtent()), base);
  // A mean counts every key from the first: its stream is not narrowed.
  streamStart = first;
  if (!op.hasMeanLeader())
    std::tie(first, end) = narrowToMask(op, first, end, status);
  // A row stream's whole steps of keys fold along its lanes first (each
  // lane a stream of its own), their states merged into the accumulators
  // the loops below start from.
  if (int64_t lanes = streamLanesOf(op, init)) {
    Value fullEnd = wholeStepsEnd({op.getOperation()}, first, end,
                                  lanes * tile::kLaneStreamBlock);
    init = foldStreamAlongLanes(op, init, first, fullEnd, lanes, status);
    first = fullEnd;
  }
  Value blocked = arith::SubIOp::create(
      b, loc, end,
      arith::RemSIOp::create(b, loc, arith::SubIOp::create(b, loc, end, first),
                             cIndex(kStreamBlock)));
  auto stream = [&](Value from, Value to, int64_t step, ArrayRef<Value> accs) {
    auto loop =
        scf::ForOp::create(b, loc, from, to, cIndex(step), carried(accs));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next =
        stepOnlineReduce(op, spread(loop.getRegionIterArgs()),
                         loop.getInductionVar(), step, status);
    scf::YieldOp::create(b, loc, carried(next));
    return spread(loop.getResults());
  };
  SmallVector<Value> partial = stream(first, blocked, kStreamBlock, init);
  SmallVector<Value> results = stream(blocked, end, 1, partial);
  for (auto [follower, result] : llvm::zip(rowFollowers, results)) {
    if (!follower.slot)
      continue;
    auto flat = VectorType::get({follower.type.getNumElements()},
                                follower.type.getElementType());
    result = vector::ShapeCastOp::create(
        b, loc, follower.type,
        vector::LoadOp::create(b, loc, flat, follower.slot, cIndex(0)));
  }
  rowFollowers.clear();
  streamVaries.clear();
  for (auto [i, result] : llvm::enumerate(results))
    result = broadcastToTile(
        result, VectorType::get(valueShape, cast<VectorType>(result.getType())
                                                .getElementType()));
  return results;
}
