//===- FoldConversionPrograms.cpp - A workspace's rounding in its writer --===//
//
// A program that only reads a workspace at its own points, rounds it to a
// narrower float and stores it (tile-materialize-computed-operands' copy
// of a gated MLP's f32 A into the bf16 operand of the down projection)
// folds into the one program that writes that workspace: the writer
// stores the rounded value into the copy's buffer, and the copy and the
// workspace go (see TileFoldConversionPrograms in Passes.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "compiler/Transforms/Tile/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace nautilus {
#define GEN_PASS_DEF_TILEFOLDCONVERSIONPROGRAMS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// The buffer argument number `value` is (none: not an argument).
std::optional<unsigned> argumentOf(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getArgNumber();
  return std::nullopt;
}

/// A conversion program: its body loads buffer `from` at the program's
/// own point, rounds it (arith.truncf) and stores it to buffer `to`. (It
/// may skip tiles, as a grouped GEMM's operand does: what a skipped tile
/// would write is never read, see tile.skip_if_negative, so the writer's
/// stores serve the copy's readers whichever tiles either skips.)
struct Conversion {
  tile::LoadOp load;
  arith::TruncFOp round;
  tile::StoreOp store;
  unsigned from = 0, to = 0;
};

std::optional<Conversion> conversionOf(tile::ProgramOp program) {
  Block &body = program.getBody().front();
  Conversion c;
  for (Operation &op : body) {
    if (auto load = dyn_cast<tile::LoadOp>(op); load && !c.load)
      c.load = load;
    else if (auto round = dyn_cast<arith::TruncFOp>(op); round && !c.round)
      c.round = round;
    else if (auto store = dyn_cast<tile::StoreOp>(op); store && !c.store)
      c.store = store;
    else if (!isa<tile::ReturnOp, tile::SkipIfNegativeOp>(op))
      return std::nullopt;
  }
  if (!c.load || !c.round || !c.store || !c.load.getIndirect().empty() ||
      c.round.getIn() != c.load.getResult() ||
      c.store.getValue() != c.round.getResult() || c.store.getAlong() ||
      !c.load.getMap().isIdentity() ||
      c.load.getMap().getNumDims() != program.getRank())
    return std::nullopt;
  std::optional<unsigned> from = argumentOf(c.load.getBuffer());
  std::optional<unsigned> to = argumentOf(c.store.getBuffer());
  if (!from || !to)
    return std::nullopt;
  c.from = *from;
  c.to = *to;
  return c;
}

/// The stores of buffer `arg` in `program`, and whether it reads it.
struct Uses {
  SmallVector<tile::StoreOp> stores;
  bool reads = false;
};

Uses usesOf(tile::ProgramOp program, unsigned arg) {
  Uses uses;
  Value buffer = program.getBody().front().getArgument(arg);
  for (OpOperand &use : buffer.getUses()) {
    auto store = dyn_cast<tile::StoreOp>(use.getOwner());
    if (store && use.get() == store.getBuffer())
      uses.stores.push_back(store);
    else
      uses.reads = true;
  }
  return uses;
}

/// Folds `conversion` (program `copy` of `plan`) into the one program that
/// writes its source, where that is all that touches the source besides
/// the copy and the writer writes it once, at its own points, over the
/// copy's dimensions. Returns whether it did.
bool foldInto(tile::PlanOp plan, tile::ProgramOp copy, Conversion &c) {
  if (copy.getBufferRole(c.from) != "workspace")
    return false;
  // The writer comes before the copy, and what reads the copy's buffer
  // after it (which then reads the writer's values, as it read the
  // copy's); nothing else writes that buffer.
  tile::ProgramOp writer;
  tile::StoreOp written;
  bool afterCopy = false;
  for (tile::ProgramOp program : plan.getProgramOps()) {
    if (program == copy) {
      afterCopy = true;
      continue;
    }
    Uses uses = usesOf(program, c.from), target = usesOf(program, c.to);
    if (uses.reads || !target.stores.empty() || (target.reads && !afterCopy))
      return false;
    if (uses.stores.empty())
      continue;
    if (writer || afterCopy || uses.stores.size() != 1)
      return false;
    writer = program;
    written = uses.stores.front();
  }
  // (A store writes the program's own points: with `along`, fewer.)
  if (!writer || writer.getOutputDims() != copy.getOutputDims() ||
      written.getAlong())
    return false;
  // The writer stores the rounded value into the copy's buffer.
  OpBuilder b(written);
  auto type =
      VectorType::get(cast<VectorType>(written.getValue().getType()).getShape(),
                      getElementTypeOrSelf(c.round.getType()));
  Value rounded =
      arith::TruncFOp::create(b, c.round.getLoc(), type, written.getValue());
  written.getBufferMutable().assign(writer.getBody().front().getArgument(c.to));
  written.getValueMutable().assign(rounded);
  // The copy goes, then the workspace no program uses now.
  eraseProgram(plan, copy);
  (void)removeUnusedKernelBuffer(plan, c.from);
  return true;
}

struct TileFoldConversionProgramsPass
    : public nautilus::impl::TileFoldConversionProgramsBase<
          TileFoldConversionProgramsPass> {
  void runOnOperation() override {
    for (auto plan : getOperation().getOps<tile::PlanOp>())
      for (tile::ProgramOp program : plan.getProgramOps())
        if (std::optional<Conversion> c = conversionOf(program))
          foldInto(plan, program, *c);
  }
};

} // namespace
