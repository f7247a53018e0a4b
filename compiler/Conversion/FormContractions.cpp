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
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
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

/// Gives every tile-shaped value of `program` the shape of `schedule`.
void reshapeTiles(tile::ProgramOp program, tile::ScheduleAttr schedule) {
  ArrayRef<int64_t> from = program.getSchedule().getTile();
  ArrayRef<int64_t> to = schedule.getTile();
  auto retype = [&](Type t) -> Type {
    auto vec = dyn_cast<VectorType>(t);
    if (!vec || vec.getShape() != from)
      return t;
    return VectorType::get(to, vec.getElementType());
  };
  program.walk([&](Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
        if (auto type = dyn_cast<ShapedType>(retype(splat.getType()));
            type && type != splat.getType())
          constant.setValueAttr(SplatElementsAttr::get(
              type, splat.getSplatValue<Attribute>()));
    for (Value r : op->getResults())
      r.setType(retype(r.getType()));
  });
  program.setScheduleAttr(schedule);
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

  void formIn(tile::ProgramOp program) {
    unsigned rank = program.getRank();
    if (rank < 2 || program.getSchedule().getMma())
      return;
    unsigned m = rank - 2, n = rank - 1, k = rank;
    tile::ReduceOp found;
    tile::LoadOp lhs, rhs;
    for (auto reduce : program.getBody().getOps<tile::ReduceOp>()) {
      if (reduce.getKind() != alg::ReductionKind::sum ||
          reduce.getExtents().size() != 1 ||
          !reduce.getType().getElementType().isF32())
        continue;
      auto yield = cast<tile::YieldOp>(reduce.getBody().front().getTerminator());
      auto mul = yield.getValue().getDefiningOp<arith::MulFOp>();
      if (!mul)
        continue;
      tile::LoadOp a = widenedLoad(mul.getLhs()), b = widenedLoad(mul.getRhs());
      if (!a || !b || a.getType().getElementType() != b.getType().getElementType())
        continue;
      if (!isOperandMap(a.getMap(), m, n, k))
        std::swap(a, b);
      if (!isOperandMap(a.getMap(), m, n, k) || !isOperandMap(b.getMap(), n, m, k))
        continue;
      found = reduce;
      lhs = a;
      rhs = b;
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
    bool tmaRows = !innermostKnownUnaligned(program, lhs.getBuffer()) &&
                   !innermostKnownUnaligned(program, rhs.getBuffer());
    if (target == "sm_90" && tmaRows) {
      // wgmma: a warpgroup per 64 rows, tiles of 64 or 128 (M) by 64 or
      // 128 (N), 64 of K a stage, 4 stages of TMA copies (128 KiB for
      // 128 x 128).
      tileShape[m] = std::max<int64_t>(tileShape[m], 64);
      tileShape[n] = std::max<int64_t>(tileShape[n], 64);
      mma = tile::MmaAttr::get(ctx, "wgmma", /*tileK=*/64,
                               /*warps=*/{tileShape[m] / 16, 1}, /*stages=*/4,
                               /*groupM=*/8, /*producers=*/1,
                               /*persistent=*/1);
    } else {
      // 8 warps, 2 along M and 4 along N: a 128 x 128 tile leaves each
      // thread 64 accumulators (with 4 warps, 128 of them and an epilogue
      // spill registers).
      int64_t warpsN = std::min<int64_t>(4, tileShape[n] / 16);
      mma = tile::MmaAttr::get(ctx, "mma_sync", /*tileK=*/32,
                               /*warps=*/{2, warpsN}, /*stages=*/3,
                               /*groupM=*/8, /*producers=*/0,
                               /*persistent=*/0);
    }
    auto schedule =
        tile::ScheduleAttr::get(ctx, tileShape, mma.getNumThreads(), mma);
    reshapeTiles(program, schedule);
    OpBuilder b(found);
    auto contract = tile::ContractOp::create(
        b, found.getLoc(), found.getType(), lhs.getBuffer(), lhs.getMapAttr(),
        rhs.getBuffer(), rhs.getMapAttr(), found.getExtents()[0]);
    found.getResult().replaceAllUsesWith(contract.getResult());
    found.erase();
  }
};

} // namespace
