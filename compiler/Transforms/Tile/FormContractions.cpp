//===- FormContractions.cpp - reductions of products to tile.contract -----===//
//
// Recognises the contractions that tensor cores can run (see
// TileFormContractions in Passes.td) and gives their programs a
// tensor-core schedule.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Target/Target.h"
#include "compiler/Transforms/Tile/Passes.h"
#include "compiler/Transforms/Tile/SplitContractions.h"
#include "dialects/Tile/Utils/SiblingContracts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace nautilus {
#define GEN_PASS_DEF_TILEFORMCONTRACTIONS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// A load widened to f32: the load, or null.
tile::LoadOp widenedLoad(Value v) {
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  if (!ext || !getElementTypeOrSelf(ext.getType()).isF32())
    return {};
  auto load = ext.getIn().getDefiningOp<tile::LoadOp>();
  if (!load || !load.getIndirect().empty())
    return {};
  Type in = load.getType().getElementType();
  return in.isF16() || in.isBF16() ? load : tile::LoadOp();
}

/// A widened 16-bit load that gathers one index through an i32 table read
/// the same over any tile (not along K; along M and N only as
/// `isUniformOverTile` allows): `W[ids..., n, k]` with the expert
/// `block_experts[m floordiv 128]`. Tensor-core copies can follow it once
/// the tile's entry is read (see tile.contract's offset tables).
struct TableGather {
  tile::LoadOp load, table;
  unsigned position = 0; // the buffer index the table gives
  AffineMap map;         // the load's map, 0 at `position`
};

std::optional<TableGather> tableGather(Value v, unsigned outputs) {
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  if (!ext || !getElementTypeOrSelf(ext.getType()).isF32())
    return std::nullopt;
  auto load = ext.getIn().getDefiningOp<tile::LoadOp>();
  if (!load || load.getIndirect().size() != 1)
    return std::nullopt;
  Type in = load.getType().getElementType();
  if (!in.isF16() && !in.isBF16())
    return std::nullopt;
  auto cast = load.getIndirect()[0].getDefiningOp<arith::IndexCastOp>();
  auto table =
      cast ? cast.getIn().getDefiningOp<tile::LoadOp>() : tile::LoadOp();
  // (In the reduction's body, as the load: its map takes the same dims.)
  if (!table || table->getBlock() != load->getBlock() ||
      !table.getIndirect().empty() ||
      !table.getType().getElementType().isInteger(32))
    return std::nullopt;
  for (AffineExpr e : table.getMap().getResults()) {
    if (e.isFunctionOfDim(outputs))
      return std::nullopt; // reads K
    for (unsigned d = 0; d < outputs; ++d)
      if (!tile::isUniformOverTile(e, d,
                                   d + 1 == outputs ? kMaxWideContractionTile
                                                    : kMaxContractionTile))
        return std::nullopt;
  }
  TableGather gather;
  gather.load = load;
  gather.table = table;
  gather.position = load.getIndirectPositions()[0];
  SmallVector<AffineExpr> results(load.getMap().getResults());
  results.insert(results.begin() + gather.position,
                 getAffineConstantExpr(0, load.getContext()));
  AffineMap old = load.getMap();
  gather.map = AffineMap::get(old.getNumDims(), old.getNumSymbols(), results,
                              load.getContext());
  return gather;
}

/// Whether `map` reads `row` and the reduced index `k` each exactly once as
/// a plain dimension, has `k` or `row` innermost, and indexes every other
/// dimension of the buffer (a batch dimension) by an expression of batch
/// dimensions and sizes alone (as a grouped-query head, `h / (H / G)`):
/// such an index is the same for the whole tile.
bool isOperandMap(AffineMap map, unsigned row, unsigned other, unsigned k) {
  unsigned rows = 0, ks = 0;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      if (dim.getPosition() == other)
        return false;
      rows += dim.getPosition() == row;
      ks += dim.getPosition() == k;
      continue;
    }
    for (unsigned d : {row, other, k})
      if (e.isFunctionOfDim(d))
        return false;
  }
  if (rows != 1 || ks != 1)
    return false;
  auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
  return inner && (inner.getPosition() == k || inner.getPosition() == row);
}


/// The ops of the reduction body that compute `value` (in body order), if
/// an operand region can: loads (gathers too) and indices that do not vary
/// along output dimension `other` within a tile, element-wise arith/math
/// ops, and splat constants and index tiles (which may come from outside
/// the body); null if not.
std::optional<SmallVector<Operation *>> computableSlice(Value value,
                                                        Block &body,
                                                        unsigned other) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!isa<VectorType>(v.getType()))
      continue; // a scalar: a size, the reduced index
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt; // a tile block argument
    if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
      if (!isa<SplatElementsAttr>(constant.getValue()))
        return std::nullopt;
      slice.insert(def);
      continue;
    }
    if (auto index = dyn_cast<tile::IndexOp>(def)) {
      // Index tiles are made once for the program (outside the body), and
      // copied into the region like the body's ops.
      if (static_cast<uint64_t>(index.getDim()) == other)
        return std::nullopt;
      slice.insert(def);
      continue;
    }
    if (def->getBlock() != &body || !slice.insert(def))
      continue;
    if (auto load = dyn_cast<tile::LoadOp>(def)) {
      if (llvm::any_of(load.getMap().getResults(), [&](AffineExpr e) {
            return !tile::isUniformOverTile(e, other, kMaxContractionTile);
          }))
        return std::nullopt;
      work.append(load.getIndirect().begin(), load.getIndirect().end());
      continue;
    }
    // Element-wise ops, and broadcasts of scalars (sizes).
    if (def->getNumRegions() || def->getNumResults() != 1 ||
        !(isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) ||
          isa<vector::BroadcastOp>(def)))
      return std::nullopt;
    work.append(def->operand_begin(), def->operand_end());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  // Outer constants and index tiles first, then the body's ops, each in
  // program order.
  llvm::sort(ordered, [&](Operation *a, Operation *b) {
    bool aIn = a->getBlock() == &body, bIn = b->getBlock() == &body;
    if (aIn != bIn)
      return !aIn;
    return a->getBlock() == b->getBlock() ? a->isBeforeInBlock(b) : a < b;
  });
  return ordered;
}

bool readBackOnlyAt16Bit(tile::StoreOp store, unsigned depth);

/// Whether `value` reaches memory only through a conversion to a 16-bit
/// float, after element-wise arithmetic and sums: then the contraction's
/// result is only ever seen at 16-bit precision, and rounding a computed
/// f32 operand to the 16-bit type of the other (FlashAttention's P before
/// P V; a mixture of experts' `silu(G) * U` before the down projection)
/// costs an error of the order of that final rounding. A value stored to a
/// workspace is followed into the programs that read it back.
bool seenOnlyAt16Bit(Value value, unsigned depth = 0) {
  // Kernels are a handful of programs deep; a deeper chain is not worth
  // following.
  constexpr unsigned kMaxPrograms = 8;
  for (Operation *user : value.getUsers()) {
    if (auto trunc = dyn_cast<arith::TruncFOp>(user)) {
      if (getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() > 16)
        return false;
      continue;
    }
    if (isa<tile::YieldOp>(user)) {
      auto reduce = dyn_cast<tile::ReduceOp>(user->getParentOp());
      if (!reduce || reduce.getKind() != alg::ReductionKind::sum ||
          !seenOnlyAt16Bit(reduce.getResult(), depth))
        return false;
      continue;
    }
    if (auto store = dyn_cast<tile::StoreOp>(user)) {
      if (store.getValue() != value || depth == kMaxPrograms ||
          !readBackOnlyAt16Bit(store, depth + 1))
        return false;
      continue;
    }
    if (user->getNumRegions() || user->getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(user->getDialect()) ||
        !isa<FloatType>(getElementTypeOrSelf(user->getResult(0).getType())) ||
        !seenOnlyAt16Bit(user->getResult(0), depth))
      return false;
  }
  return true;
}

/// Whether `store` writes a workspace whose every read, in any program of
/// the kernel, is only seen at 16 bits.
bool readBackOnlyAt16Bit(tile::StoreOp store, unsigned depth) {
  auto buffer = dyn_cast<BlockArgument>(store.getBuffer());
  auto program = store->getParentOfType<tile::ProgramOp>();
  tile::PlanOp plan = program ? program.getPlan() : tile::PlanOp();
  if (!buffer || !plan ||
      program.getBufferRole(buffer.getArgNumber()) != "workspace")
    return false;
  for (Attribute p : plan.getPrograms()) {
    auto reader = SymbolTable::lookupNearestSymbolFrom<tile::ProgramOp>(
        plan, cast<FlatSymbolRefAttr>(p));
    if (!reader)
      return false;
    for (Operation *user :
         reader.getBody().getArgument(buffer.getArgNumber()).getUsers()) {
      if (user == store.getOperation())
        continue;
      auto load = dyn_cast<tile::LoadOp>(user);
      if (!load || load.getBuffer() !=
                       reader.getBody().getArgument(buffer.getArgNumber()) ||
          !seenOnlyAt16Bit(load.getResult(), depth))
        return false;
    }
  }
  return true;
}

/// Whether the innermost extent of program argument `buffer` is known not
/// to be a multiple of 8 elements (16 bytes of f16/bf16), which TMA needs
/// of every row stride. Unknown (dynamic) extents are checked at launch.
bool innermostKnownUnaligned(tile::ProgramOp program, Value buffer) {
  ArrayAttr dims =
      program.getBufferDims(cast<BlockArgument>(buffer).getArgNumber());
  if (!dims || dims.empty())
    return false;
  std::optional<int64_t> extent = program.getKnownExtent(dims[dims.size() - 1]);
  return extent && *extent % 8 != 0;
}

/// How one factor of a reduced product becomes a contraction operand.
struct OperandChoice {
  enum Kind {
    None,
    /// A widened 16-bit load whose map tensor-core copies can follow
    /// (possibly after adding a table's entry to one index).
    Loaded,
    /// A widened 16-bit value computed from loads (a gather, say): the
    /// region yields it as it is.
    Computed16,
    /// An f32 value computed from loads, rounded to the other operand's
    /// type (allowed when the result is only seen at 16 bits).
    ComputedF32
  } kind = None;
  mutable tile::LoadOp load;      // Loaded (ops are handles)
  AffineMap map;                  // Loaded: the operand's map
  mutable tile::LoadOp table;     // Loaded: the offset table's read, if any
  unsigned position = 0;          //   and the index it adds to
  Value value;                    // Computed*: the value the region yields
  SmallVector<Operation *> ops;   // Computed*: the ops computing it
};

/// Factor `v` as the operand reading output dimension `row` (not `other`)
/// and the reduced index `k`.
OperandChoice classify(Value v, Block &body, unsigned row, unsigned other,
                       unsigned k) {
  OperandChoice choice;
  if (tile::LoadOp load = widenedLoad(v);
      load && isOperandMap(load.getMap(), row, other, k)) {
    choice.kind = OperandChoice::Loaded;
    choice.load = load;
    choice.map = load.getMap();
    return choice;
  }
  if (std::optional<TableGather> gather = tableGather(v, k);
      gather && isOperandMap(gather->map, row, other, k)) {
    choice.kind = OperandChoice::Loaded;
    choice.load = gather->load;
    choice.map = gather->map;
    choice.table = gather->table;
    choice.position = gather->position;
    return choice;
  }
  Value computed = v;
  choice.kind = OperandChoice::ComputedF32;
  if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
    Type in = getElementTypeOrSelf(ext.getIn().getType());
    if (in.isF16() || in.isBF16()) {
      computed = ext.getIn();
      choice.kind = OperandChoice::Computed16;
    }
  }
  std::optional<SmallVector<Operation *>> ops =
      computableSlice(computed, body, other);
  if (!ops)
    return OperandChoice();
  choice.value = computed;
  choice.ops = std::move(*ops);
  return choice;
}

/// The operands' 16-bit type (null when they have none in common).
Type operandType(const std::array<OperandChoice, 2> &operands) {
  Type type;
  for (const OperandChoice &o : operands) {
    Type t = o.kind == OperandChoice::Loaded
                 ? o.load.getType().getElementType()
             : o.kind == OperandChoice::Computed16
                 ? getElementTypeOrSelf(o.value.getType())
                 : Type();
    if (!t)
      continue;
    if (type && type != t)
      return {};
    type = t;
  }
  return type;
}

/// Whether the two choices make a contraction of `reduce`: both operands
/// formed, of one 16-bit type, an f32 one rounded only when the result is
/// only seen at 16 bits.
bool compatible(const std::array<OperandChoice, 2> &operands,
                tile::ReduceOp reduce) {
  if (llvm::any_of(operands, [](const OperandChoice &o) {
        return o.kind == OperandChoice::None;
      }))
    return false;
  if (!operandType(operands))
    return false; // different types, or both f32
  bool rounds = llvm::any_of(operands, [](const OperandChoice &o) {
    return o.kind == OperandChoice::ComputedF32;
  });
  return !rounds || seenOnlyAt16Bit(reduce.getResult());
}

struct TileFormContractionsPass
    : public SchedulingPass<
          nautilus::impl::TileFormContractionsBase<TileFormContractionsPass>> {
  using SchedulingPass::SchedulingPass;

  void runOnOperation() override {
    std::optional<TargetInfo> info = moduleTarget();
    if (!info)
      return;
    if (!info->hasMmaSync())
      return;
    for (auto program : getOperation().getOps<tile::ProgramOp>())
      formIn(program, *info);
  }

  /// Moves the ops computing `value` in `reduce`'s body into `contract`'s
  /// region for operand `side`, ending in the conversion to the operands'
  /// type when `value` is f32.
  void buildComputedOperand(tile::ContractOp contract, unsigned side,
                            tile::ReduceOp reduce, Value value,
                            ArrayRef<Operation *> ops, Type element) {
    Region &region = contract.getOperandBody(side);
    Block *block = new Block();
    region.push_back(block);
    Value k = block->addArgument(IndexType::get(contract.getContext()),
                                 contract.getLoc());
    IRMapping map;
    map.map(reduce.getBody().front().getArgument(0), k);
    OpBuilder b = OpBuilder::atBlockEnd(block);
    for (Operation *op : ops)
      b.clone(*op, map);
    Value yielded = map.lookup(value);
    if (getElementTypeOrSelf(value.getType()).isF32()) {
      auto type = VectorType::get(contract.getType().getShape(), element);
      yielded = arith::TruncFOp::create(b, contract.getLoc(), type, yielded);
    }
    tile::YieldOp::create(b, contract.getLoc(), yielded);
  }

  /// The ways `reduce` makes a contraction (either factor may be the
  /// lhs), the orientation that copies more operands from buffers first;
  /// none when it makes none.
  static SmallVector<std::array<OperandChoice, 2>, 2>
  orientationsOf(tile::ReduceOp reduce, unsigned m, unsigned n, unsigned k) {
    SmallVector<std::array<OperandChoice, 2>, 2> out;
    if (reduce.getKind() != alg::ReductionKind::sum ||
        reduce.getExtents().size() != 1 ||
        !reduce.getType().getElementType().isF32())
      return out;
    Block &body = reduce.getBody().front();
    auto yield = cast<tile::YieldOp>(body.getTerminator());
    auto mul = yield.getValue().getDefiningOp<arith::MulFOp>();
    if (!mul)
      return out;
    auto loaded = [](const std::array<OperandChoice, 2> &c) {
      return llvm::count_if(c, [](const OperandChoice &o) {
        return o.kind == OperandChoice::Loaded;
      });
    };
    for (auto [x, y] : {std::make_pair(mul.getLhs(), mul.getRhs()),
                        std::make_pair(mul.getRhs(), mul.getLhs())}) {
      std::array<OperandChoice, 2> choice = {classify(x, body, m, n, k),
                                             classify(y, body, n, m, k)};
      if (!compatible(choice, reduce))
        continue;
      if (!out.empty() && loaded(choice) > loaded(out.front()))
        out.insert(out.begin(), choice);
      else
        out.push_back(choice);
    }
    return out;
  }

  /// Sibling contractions: two or more sums of `program` over the same
  /// index that share their lhs tile (alg-fuse-shared-operands' gate and
  /// up projections), each with a loaded rhs of its own. The lhs is loaded
  /// from one buffer at one map, or computed alike by every sibling (a
  /// mixture of experts' rows gathered by expert, which
  /// tile-materialize-computed-operands then computes once into a
  /// workspace); the rhs's offset tables (the experts' weights) are all
  /// the same or absent. Their orientations, in the program's order; empty
  /// when the program has none.
  static SmallVector<std::pair<tile::ReduceOp, std::array<OperandChoice, 2>>>
  siblingsIn(tile::ProgramOp program, unsigned m, unsigned n, unsigned k) {
    SmallVector<std::pair<tile::ReduceOp, std::array<OperandChoice, 2>>> out;
    SmallVector<tile::ReduceOp> reduces(
        program.getBody().getOps<tile::ReduceOp>());
    if (reduces.size() < 2)
      return out;
    if (llvm::any_of(reduces, [](tile::ReduceOp r) {
          return r.getExtents().size() != 1;
        }))
      return out;
    // (A computed lhs is materialized over K: a size or a literal.)
    Value extent = reduces.front().getExtents()[0];
    bool namedExtent = bool(program.getExtentDim(extent));
    auto sharedLhs = [&](const OperandChoice &o) {
      return (o.kind == OperandChoice::Loaded && !o.table) ||
             (o.kind == OperandChoice::Computed16 && namedExtent &&
              materializable(o, reduces.front(), n));
    };
    // The shared lhs: the first sum's, that every sum can take as its lhs.
    for (const auto &first : orientationsOf(reduces.front(), m, n, k)) {
      if (!sharedLhs(first[0]) || first[1].kind != OperandChoice::Loaded)
        continue;
      out.clear();
      for (tile::ReduceOp reduce : reduces) {
        if (!tile::sameExtent(reduce.getExtents()[0], extent))
          break;
        for (const auto &choice : orientationsOf(reduce, m, n, k))
          if (sameLhs(first[0], reduces.front(), choice[0], reduce) &&
              choice[1].kind == OperandChoice::Loaded &&
              sameTable(first[1], choice[1])) {
            out.emplace_back(reduce, choice);
            break;
          }
      }
      if (out.size() == reduces.size())
        return out;
    }
    out.clear();
    return out;
  }

  /// Whether computed operand `o` of `reduce` can be computed apart (once
  /// into a workspace, over the program's rows and K): it reads neither
  /// output dimension `other` nor the reduced index but through its loads'
  /// maps.
  static bool materializable(const OperandChoice &o, tile::ReduceOp reduce,
                             unsigned other) {
    Value k = reduce.getBody().front().getArgument(0);
    return llvm::none_of(o.ops, [&](Operation *op) {
      return llvm::is_contained(op->getOperands(), k) ||
             tile::readsOutputDim(op, other);
    });
  }

  /// Whether lhs `b` of `bReduce` is lhs `a` of `aReduce`: the same buffer
  /// at the same map, or the same computation.
  static bool sameLhs(const OperandChoice &a, tile::ReduceOp aReduce,
                      const OperandChoice &b, tile::ReduceOp bReduce) {
    if (a.kind != b.kind)
      return false;
    if (a.kind == OperandChoice::Loaded)
      return !b.table && a.load.getBuffer() == b.load.getBuffer() &&
             a.map == b.map;
    return sameComputation(a.value, aReduce, b.value, bReduce);
  }

  /// Whether `a` (in `aReduce`'s body) and `b` (in `bReduce`'s) compute
  /// the same: the same value from outside the bodies, each body's
  /// reduced index, or the same operation of the same operands.
  static bool sameComputation(Value a, tile::ReduceOp aReduce, Value b,
                              tile::ReduceOp bReduce) {
    Block *aBody = &aReduce.getBody().front(),
          *bBody = &bReduce.getBody().front();
    if (a == b)
      return aReduce == bReduce ||
             (a.getParentBlock() != aBody && a.getParentBlock() != bBody);
    if (a == aBody->getArgument(0) || b == bBody->getArgument(0))
      return a == aBody->getArgument(0) && b == bBody->getArgument(0);
    auto x = dyn_cast<OpResult>(a), y = dyn_cast<OpResult>(b);
    if (!x || !y || x.getOwner()->getBlock() != aBody ||
        y.getOwner()->getBlock() != bBody ||
        x.getResultNumber() != y.getResultNumber())
      return false;
    return OperationEquivalence::isEquivalentTo(
        x.getOwner(), y.getOwner(),
        [&](Value l, Value r) {
          return success(sameComputation(l, aReduce, r, bReduce));
        },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
  }

  /// Whether loaded operands `a` and `b` add the same offset table's
  /// entry (read at the same map, to the same index), or neither has one.
  static bool sameTable(const OperandChoice &a, const OperandChoice &b) {
    if (!a.table || !b.table)
      return !a.table && !b.table;
    return a.table.getBuffer() == b.table.getBuffer() &&
           a.table.getMap() == b.table.getMap() && a.position == b.position;
  }

  /// Replaces `found` by the contraction of `operands`.
  tile::ContractOp
  replaceWithContract(tile::ReduceOp found,
                      const std::array<OperandChoice, 2> &operands) {
    OpBuilder b(found);
    // A loaded operand: its buffer and map, and its offset table, map and
    // position (null when it has none).
    struct Loaded {
      Value buffer, table;
      AffineMapAttr map, tableMap;
      IntegerAttr position;
    };
    auto operand = [&](const OperandChoice &o) {
      Loaded l;
      if (o.kind != OperandChoice::Loaded)
        return l;
      l.buffer = o.load.getBuffer();
      l.map = AffineMapAttr::get(o.map);
      if (o.table) {
        l.table = o.table.getBuffer();
        l.tableMap = o.table.getMapAttr();
        l.position = b.getI64IntegerAttr(o.position);
      }
      return l;
    };
    Loaded lhs = operand(operands[0]), rhs = operand(operands[1]);
    auto contract = tile::ContractOp::create(
        b, found.getLoc(), found.getType(), lhs.buffer, lhs.map, lhs.table,
        lhs.tableMap, lhs.position, rhs.buffer, rhs.map, rhs.table,
        rhs.tableMap, rhs.position, found.getExtents()[0],
        /*split_dim=*/IntegerAttr(), /*split_chunk=*/IntegerAttr());
    Type element = operandType(operands);
    for (unsigned side : {0u, 1u})
      if (operands[side].kind != OperandChoice::Loaded)
        buildComputedOperand(contract, side, found, operands[side].value,
                             operands[side].ops, element);
    found.getResult().replaceAllUsesWith(contract.getResult());
    found.erase();
    return contract;
  }

  /// Turns each of `siblings` into a contraction, in one tensor-core
  /// program (a stage holds the shared lhs tile once and each sibling's
  /// rhs tile; siblings never split K).
  void
  formSiblings(tile::ProgramOp program, const TargetInfo &info,
               ArrayRef<std::pair<tile::ReduceOp, std::array<OperandChoice, 2>>>
                   siblings) {
    // (TMA's rows start 16-byte aligned, as for one contraction.)
    bool tmaRows = llvm::none_of(siblings, [&](const auto &sibling) {
      return llvm::any_of(sibling.second, [&](const OperandChoice &o) {
        return o.kind == OperandChoice::Loaded &&
               innermostKnownUnaligned(program, o.load.getBuffer());
      });
    });
    // A computed lhs is materialized into a workspace whose rows run along
    // K.
    std::optional<int64_t> kExtent = program.getKnownExtent(
        tile::ReduceOp(siblings.front().first).getExtents()[0]);
    if (siblings.front().second[0].kind != OperandChoice::Loaded && kExtent &&
        *kExtent % 8 != 0)
      tmaRows = false;
    tile::ContractOp first;
    for (const auto &[reduce, operands] : siblings) {
      tile::ContractOp contract = replaceWithContract(reduce, operands);
      first = first ? first : contract;
    }
    // (The reduced extent where it is bound, which the siblings never
    // split.)
    ComputedSides computed;
    computed.siblings = siblings.size();
    program.retile(schedules->contraction(
        program.getContext(), program.getRank(), contractionExtents(program),
        info.hasWgmma() && tmaRows, computed, info,
        knownReducedExtent(program, first)));
  }

  void formIn(tile::ProgramOp program, const TargetInfo &info) {
    unsigned rank = program.getRank();
    if (rank < 2 || program.getSchedule().getMma())
      return;
    unsigned m = rank - 2, n = rank - 1, k = rank;
    if (auto siblings = siblingsIn(program, m, n, k); !siblings.empty()) {
      formSiblings(program, info, siblings);
      return;
    }
    tile::ReduceOp found;
    std::array<OperandChoice, 2> operands;
    for (auto reduce : program.getBody().getOps<tile::ReduceOp>()) {
      auto orientations = orientationsOf(reduce, m, n, k);
      if (!orientations.empty()) {
        found = reduce;
        operands = orientations.front();
        break;
      }
    }
    if (!found)
      return;
    // wgmma's operands come by TMA, whose rows must start 16-byte aligned;
    // bound sizes that do not allow it take the mma.sync pipeline (which
    // copies such rows element by element).
    bool tmaRows = llvm::none_of(operands, [&](const OperandChoice &o) {
      return o.kind == OperandChoice::Loaded &&
             innermostKnownUnaligned(program, o.load.getBuffer());
    });
    ComputedSides computed{operands[0].kind != OperandChoice::Loaded,
                           operands[1].kind != OperandChoice::Loaded};
    tile::ScheduleAttr schedule = schedules->contraction(
        program.getContext(), rank, contractionExtents(program),
        info.hasWgmma() && tmaRows, computed, info, std::nullopt);
    program.retile(schedule);
    tile::ContractOp contract = replaceWithContract(found, operands);
    // A problem too small to fill the machine even with the smallest tiles
    // may split K (tile-split-contractions realises it).
    if (splitKRefusal(program, contract).empty()) {
      tile::ScheduleAttr split = schedules->contraction(
          program.getContext(), rank, contractionExtents(program),
          info.hasWgmma() && tmaRows, computed, info,
          knownReducedExtent(program, contract));
      if (split != schedule)
        program.retile(split);
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createTileFormContractions(
    std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<TileFormContractionsPass>(std::move(schedules));
}
