//===- FormContractions.cpp - reductions of products to tile.contract -----===//
//
// Recognises the contractions that tensor cores can run (see
// TileFormContractions in Passes.td) and gives their programs a
// tensor-core schedule.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/Passes.h"
#include "compiler/Target/Target.h"

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
#include "compiler/Conversion/Passes.h.inc"
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
/// an operand region can: loads (not gathers) and indices that do not vary
/// along output dimension `other`, element-wise arith/math ops, and splat
/// constants (which may come from outside the body); null if not.
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
    if (def->getBlock() != &body || !slice.insert(def))
      continue;
    if (auto load = dyn_cast<tile::LoadOp>(def)) {
      if (!load.getIndirect().empty() ||
          llvm::any_of(load.getMap().getResults(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(other); }))
        return std::nullopt;
      continue;
    }
    if (auto index = dyn_cast<tile::IndexOp>(def)) {
      if (static_cast<uint64_t>(index.getDim()) == other)
        return std::nullopt;
      continue;
    }
    if (def->getNumRegions() || def->getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(def->getDialect()))
      return std::nullopt;
    work.append(def->operand_begin(), def->operand_end());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  // Outer constants first, then the body's ops in order.
  llvm::sort(ordered, [&](Operation *a, Operation *b) {
    bool aIn = a->getBlock() == &body, bIn = b->getBlock() == &body;
    if (aIn != bIn)
      return !aIn;
    return aIn ? a->isBeforeInBlock(b) : a < b;
  });
  return ordered;
}

/// Whether `value` reaches memory only through a conversion to a 16-bit
/// float, after element-wise arithmetic: then the contraction's result is
/// only ever seen at 16-bit precision, and rounding a computed f32 operand
/// to the 16-bit type of the other (FlashAttention's P before P V) costs
/// an error of the order of that final rounding.
bool seenOnlyAt16Bit(Value value) {
  for (Operation *user : value.getUsers()) {
    if (auto trunc = dyn_cast<arith::TruncFOp>(user)) {
      if (getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() > 16)
        return false;
      continue;
    }
    if (user->getNumRegions() || user->getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(user->getDialect()) ||
        !isa<FloatType>(getElementTypeOrSelf(user->getResult(0).getType())) ||
        !seenOnlyAt16Bit(user->getResult(0)))
      return false;
  }
  return true;
}

/// The tile extent for an output extent (known or not): a power of two
/// from 32 to 128.
int64_t contractionTile(std::optional<int64_t> extent) {
  if (!extent)
    return 128;
  return std::clamp<int64_t>(llvm::PowerOf2Ceil(*extent), 32, 128);
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

struct TileFormContractionsPass
    : public nautilus::impl::TileFormContractionsBase<TileFormContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    auto info = getTarget(target);
    if (!info) {
      getOperation().emitError("unknown target '") << target << "'";
      return signalPassFailure();
    }
    if (info->family != TargetFamily::NVIDIA)
      return;
    for (auto program : getOperation().getOps<tile::ProgramOp>())
      formIn(program);
  }

  /// Moves the ops computing `value` in `reduce`'s body into `contract`'s
  /// region for operand `side`, ending in the conversion to the other
  /// operand's type.
  void buildComputedOperand(tile::ContractOp contract, unsigned side,
                            tile::ReduceOp reduce, Value value,
                            ArrayRef<Operation *> ops) {
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
    Type element = contract.getOperandElementType();
    auto type = VectorType::get(contract.getType().getShape(), element);
    Value rounded =
        arith::TruncFOp::create(b, contract.getLoc(), type, map.lookup(value));
    tile::YieldOp::create(b, contract.getLoc(), rounded);
  }

  void formIn(tile::ProgramOp program) {
    unsigned rank = program.getRank();
    if (rank < 2 || program.getSchedule().getMma())
      return;
    unsigned m = rank - 2, n = rank - 1, k = rank;
    tile::ReduceOp found;
    tile::LoadOp lhs, rhs;
    // A computed operand (side 0: lhs, 1: rhs): the f32 factor and the ops
    // computing it.
    std::optional<unsigned> computedSide;
    Value computedValue;
    SmallVector<Operation *> computedOps;
    for (auto reduce : program.getBody().getOps<tile::ReduceOp>()) {
      if (reduce.getKind() != alg::ReductionKind::sum ||
          reduce.getExtents().size() != 1 ||
          !reduce.getType().getElementType().isF32())
        continue;
      Block &body = reduce.getBody().front();
      auto yield = cast<tile::YieldOp>(body.getTerminator());
      auto mul = yield.getValue().getDefiningOp<arith::MulFOp>();
      if (!mul)
        continue;
      tile::LoadOp a = widenedLoad(mul.getLhs()), b = widenedLoad(mul.getRhs());
      if (a && b && a.getType().getElementType() == b.getType().getElementType()) {
        if (!isOperandMap(a.getMap(), m, n, k))
          std::swap(a, b);
        if (isOperandMap(a.getMap(), m, n, k) &&
            isOperandMap(b.getMap(), n, m, k)) {
          found = reduce;
          lhs = a;
          rhs = b;
          break;
        }
      }
      // One widened load and an f32 factor computed from loads, rounded to
      // the load's type when the result is only seen at 16 bits.
      Value other = mul.getRhs();
      if (!a && b) {
        a = b;
        other = mul.getLhs();
      }
      if (!a || widenedLoad(other) || !seenOnlyAt16Bit(reduce.getResult()))
        continue;
      for (unsigned side : {0u, 1u}) {
        // The load is the operand that is not computed.
        unsigned loadRow = side == 0 ? n : m, loadOther = side == 0 ? m : n;
        if (!isOperandMap(a.getMap(), loadRow, loadOther, k))
          continue;
        std::optional<SmallVector<Operation *>> ops =
            computableSlice(other, body, /*other=*/loadRow);
        if (!ops)
          continue;
        found = reduce;
        (side == 0 ? rhs : lhs) = a;
        computedSide = side;
        computedValue = other;
        computedOps = std::move(*ops);
        break;
      }
      if (found)
        break;
    }
    if (!found)
      return;
    MLIRContext *ctx = program.getContext();
    SmallVector<int64_t> tileShape(rank, 1);
    ArrayAttr dims = program.getOutputDims();
    tileShape[m] = contractionTile(program.getKnownExtent(dims[m]));
    tileShape[n] = contractionTile(program.getKnownExtent(dims[n]));
    tile::MmaAttr mma;
    // wgmma's operands come by TMA, whose rows must start 16-byte aligned;
    // bound sizes that do not allow it take the mma.sync pipeline (which
    // copies such rows element by element).
    // (A computed operand is evaluated into shared memory by the threads:
    // the producer warpgroup with wgmma.)
    bool tmaRows = llvm::none_of(std::array<tile::LoadOp, 2>{lhs, rhs},
                                 [&](tile::LoadOp load) {
                                   return load && innermostKnownUnaligned(
                                                      program, load.getBuffer());
                                 });
    if (target == "sm_90" && tmaRows) {
      // wgmma: a warpgroup per 64 rows, tiles of 64 or 128 (M) by 64 or
      // 128 (N), 64 of K a stage, 4 stages of TMA copies (128 KiB for
      // 128 x 128).
      tileShape[m] = std::max<int64_t>(tileShape[m], 64);
      tileShape[n] = std::max<int64_t>(tileShape[n], 64);
      mma = tile::MmaAttr::get(ctx, "wgmma", /*tileK=*/64,
                               /*warps=*/{tileShape[m] / 16, 1}, /*stages=*/4,
                               /*groupM=*/8, /*producers=*/1,
                               /*persistent=*/1, /*swizzle=*/128);
    } else {
      // 8 warps, 2 along M and 4 along N: a 128 x 128 tile leaves each
      // thread 64 accumulators (with 4 warps, 128 of them and an epilogue
      // spill registers).
      int64_t warpsN = std::min<int64_t>(4, tileShape[n] / 16);
      mma = tile::MmaAttr::get(ctx, "mma_sync", /*tileK=*/32,
                               /*warps=*/{2, warpsN}, /*stages=*/3,
                               /*groupM=*/8, /*producers=*/0,
                               /*persistent=*/0, /*swizzle=*/128);
    }
    auto schedule =
        tile::ScheduleAttr::get(ctx, tileShape, mma.getNumThreads(), mma);
    program.retile(schedule);
    OpBuilder b(found);
    auto operand = [&](tile::LoadOp load) {
      return std::make_pair(load ? load.getBuffer() : Value(),
                            load ? load.getMapAttr() : AffineMapAttr());
    };
    auto [lhsBuffer, lhsMap] = operand(lhs);
    auto [rhsBuffer, rhsMap] = operand(rhs);
    auto contract = tile::ContractOp::create(
        b, found.getLoc(), found.getType(), lhsBuffer, lhsMap, rhsBuffer,
        rhsMap, found.getExtents()[0]);
    if (computedSide)
      buildComputedOperand(contract, *computedSide, found, computedValue,
                           computedOps);
    found.getResult().replaceAllUsesWith(contract.getResult());
    found.erase();
  }
};

} // namespace
