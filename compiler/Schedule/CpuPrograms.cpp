//===- CpuPrograms.cpp - A tile program as the CPU model sees it ----------===//
#include "compiler/Schedule/CpuPrograms.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/PackedPanel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace nautilus;

namespace {

/// What an operand of a reduction's product reads and computes within
/// the reduction's body: whether any read varies along the output's
/// innermost dimension, and the operations beyond its reads and widenings
/// (a transcendental function counted as kTranscendentalWork).
struct OperandSlice {
  bool variesAlongInner = false;
  int64_t work = 0;
};

/// Operations one exp, log or tanh costs, as the CPU evaluates them
/// (polynomials): roughly, for the model.
constexpr int64_t kTranscendentalWork = 10;

void accumulateSlice(Value value, Region &body, unsigned inner,
                     llvm::SmallPtrSetImpl<Operation *> &seen,
                     OperandSlice &slice) {
  Operation *op = value.getDefiningOp();
  if (!op || !body.isAncestor(op->getParentRegion()) || !seen.insert(op).second)
    return;
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    slice.variesAlongInner |=
        llvm::any_of(load.getMap().getResults(),
                     [&](AffineExpr e) { return involvesDim(e, inner); });
    return;
  }
  if (!isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp, arith::ConstantOp,
           tile::IndexOp>(op))
    slice.work +=
        op->getDialect()->getNamespace() == "math" ? kTranscendentalWork : 1;
  for (Value operand : op->getOperands())
    accumulateSlice(operand, body, inner, seen, slice);
}

/// Whether `reduce` sums a product of two operands of which exactly one
/// varies along the output's innermost dimension `inner`: a register-
/// blocked GEMM's, whose other operand is broadcast along the row. The
/// broadcast operand's work a step and a row goes to `broadcastWork`.
bool isContraction(tile::ReduceOp reduce, unsigned inner,
                   int64_t &broadcastWork) {
  if (reduce.getKind() != alg::ReductionKind::sum)
    return false;
  auto yield = cast<tile::YieldOp>(reduce.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return false;
  Operation *product = yield.getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::MulIOp>(product))
    return false;
  OperandSlice slices[2];
  for (unsigned i = 0; i < 2; ++i) {
    llvm::SmallPtrSet<Operation *, 16> seen;
    accumulateSlice(product->getOperand(i), reduce.getBody(), inner, seen,
                    slices[i]);
  }
  if (slices[0].variesAlongInner == slices[1].variesAlongInner)
    return false;
  broadcastWork = slices[0].variesAlongInner ? slices[1].work : slices[0].work;
  return true;
}

} // namespace

std::optional<autosched::CpuProgram>
nautilus::cpuProgramOf(tile::ProgramOp program) {
  bool stream = false;
  program.walk([&](tile::OnlineReduceOp) { stream = true; });
  if (stream)
    return std::nullopt;
  autosched::CpuProgram facts;
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = program.getKnownExtent(dim);
    if (!extent)
      return std::nullopt;
    facts.extents.push_back(*extent);
  }
  if (facts.extents.empty())
    return std::nullopt;
  unsigned inner = facts.extents.size() - 1;
  for (auto reduce : program.getBody().front().getOps<tile::ReduceOp>()) {
    int64_t reduced = 1;
    for (Value extent : reduce.getExtents()) {
      std::optional<int64_t> e = program.getKnownExtent(extent);
      if (!e)
        return std::nullopt;
      reduced *= *e;
    }
    facts.reduced = std::max(facts.reduced, reduced);
    int64_t work = 0;
    if (isContraction(reduce, inner, work)) {
      facts.contraction = true;
      facts.broadcastWork = std::max(facts.broadcastWork, work);
    }
    if (auto type = dyn_cast<VectorType>(reduce.getType()))
      facts.elementBits = type.getElementTypeBitWidth();
  }
  facts.packable = facts.contraction && tile::packablePanelLoad(program);
  return facts;
}

tile::ScheduleAttr nautilus::cpuScheduleWithTile(tile::ProgramOp program,
                                                 ArrayRef<int64_t> tile,
                                                 bool pack) {
  return tile::ScheduleAttr::get(program.getContext(), tile, /*threads=*/1,
                                 tile::MmaAttr(), /*reduceThreads=*/1,
                                 /*reduceSplit=*/1,
                                 /*reduceInterleaved=*/false, /*vector=*/1,
                                 pack);
}
