//===- AssignLayouts.cpp - where each tile of a program lives -------------===//
//
// See TileAssignLayouts in Passes.td. Three steps over each program's body:
// conversions where stores want another layout (anchorStores), conversions
// moved toward the values they convert and removed where those can be
// produced in the new layout (moveConversionsToSources), and element-wise
// ops given operands in one layout (unifyOperands).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "compiler/Transforms/Tile/Passes.h"
#include "mlir/IR/TypeUtilities.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/IR/Builders.h"

#include <deque>

namespace nautilus {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// The layouts of one program's tiles.
class LayoutAssignment {
public:
  LayoutAssignment(tile::ProgramOp program, tile::LinearLayoutAttr scheduled)
      : program(program), body(program.getBody().front()),
        scheduled(scheduled) {}

  void anchorStores();
  void moveConversionsToSources();
  void unifyOperands();

private:
  /// The layout `v` is distributed by (`tile::layoutOf`, with the
  /// schedule's distribution named); null for a uniform tile, which is in
  /// every layout. An element-wise op computes in its first tile operand's
  /// layout that is not recomputable (the others are produced in it or
  /// converted to it), else its first recomputable one's.
  tile::LinearLayoutAttr layoutOf(Value v);
  /// A load (without gathered indices) or index tile of the program's
  /// body, or an element-wise op of such tiles (a widened residual): each
  /// thread computes its elements from their indices alone, so the tile
  /// can be produced in any layout at the cost of any other.
  bool isRecomputable(Value v);
  /// An element-wise op (arith, math) of the program's body producing a
  /// tile.
  bool isElementwise(Operation *op);
  /// Whether converting `op`'s operands instead of its result moves no
  /// more data and gains something: every operand but at most one is
  /// uniform or recomputable, that one is no wider than the result, and
  /// moving on reaches a recomputable tile (which then needs no move), a
  /// conversion (which folds) or the target layout (where the conversion
  /// vanishes).
  bool worthMovingThrough(Operation *op, tile::LinearLayoutAttr target);
  /// `v` (recomputable) produced in `layout` for `user`: `v` itself when
  /// only `user` uses it, else a copy (of its element-wise ops too, down
  /// to the loads and index tiles, which take the layout).
  Value produceIn(Value v, tile::LinearLayoutAttr layout, Operation *user);

  tile::ProgramOp program;
  Block &body;
  tile::LinearLayoutAttr scheduled; // the schedule's distribution
  llvm::DenseMap<Value, bool> recomputable; // isRecomputable's answers
};

tile::LinearLayoutAttr LayoutAssignment::layoutOf(Value v) {
  if (tile::isUniformTile(v))
    return {};
  tile::LinearLayoutAttr stated = tile::layoutOf(
      v, [&](Value operand) { return isRecomputable(operand); });
  return stated ? stated : scheduled;
}

bool LayoutAssignment::isRecomputable(Value v) {
  // Memoised: element-wise ops form DAGs (a chain of ops each using the
  // previous twice), which a plain recursion walks in exponential time.
  // Moving conversions keeps each value's answer (an op gets a converted
  // operand only where it was not recomputable, recomputed ones where it
  // was); erased conversions leave the table (Value addresses are reused).
  if (auto known = recomputable.find(v); known != recomputable.end())
    return known->second;
  Operation *def = v.getDefiningOp();
  bool result = false;
  if (!def || def->getBlock() != &body)
    result = false;
  else if (auto load = dyn_cast<tile::LoadOp>(def))
    result = load.getIndirect().empty();
  else if (isa<tile::IndexOp>(def))
    result = true;
  else
    result = isElementwise(def) && !tile::isUniformTile(v) &&
             llvm::all_of(def->getOperands(), [&](Value operand) {
               return !isa<VectorType>(operand.getType()) ||
                      tile::isUniformTile(operand) || isRecomputable(operand);
             });
  recomputable[v] = result;
  return result;
}

bool LayoutAssignment::isElementwise(Operation *op) {
  return op && op->getBlock() == &body && op->getNumResults() == 1 &&
         op->getNumRegions() == 0 &&
         isa<VectorType>(op->getResult(0).getType()) &&
         op->hasTrait<OpTrait::Elementwise>();
}

bool LayoutAssignment::worthMovingThrough(Operation *op,
                                          tile::LinearLayoutAttr target) {
  if (!isElementwise(op) || !op->getResult(0).hasOneUse())
    return false;
  Value moved; // the one operand that must be moved
  bool recomputes = false;
  for (Value operand : op->getOperands()) {
    if (!isa<VectorType>(operand.getType()) || tile::isUniformTile(operand))
      continue;
    if (isRecomputable(operand)) {
      recomputes = true;
      continue;
    }
    if (moved)
      return false; // two tiles to move instead of one
    moved = operand;
  }
  if (!moved)
    return true; // the conversion vanishes
  auto bits = [](Value v) -> unsigned {
    Type element = getElementTypeOrSelf(v);
    return element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  };
  if (bits(moved) > bits(op->getResult(0)))
    return false; // a wider tile to move (a conversion before a truncation)
  return recomputes || moved.getDefiningOp<tile::ConvertLayoutOp>() ||
         layoutOf(moved) == target ||
         worthMovingThrough(moved.getDefiningOp(), target);
}

Value LayoutAssignment::produceIn(Value v, tile::LinearLayoutAttr layout,
                                  Operation *user) {
  Operation *def = v.getDefiningOp();
  if (llvm::any_of(v.getUsers(), [&](Operation *other) {
        return other != user;
      })) { // a copy, where the original is (program order kept)
    OpBuilder b(def->getContext());
    b.setInsertionPointAfter(def);
    def = b.clone(*def);
  }
  if (auto load = dyn_cast<tile::LoadOp>(def)) {
    load.setLayoutAttr(layout);
  } else if (auto index = dyn_cast<tile::IndexOp>(def)) {
    index.setLayoutAttr(layout);
  } else {
    for (OpOperand &operand : def->getOpOperands())
      if (isa<VectorType>(operand.get().getType()) &&
          !tile::isUniformTile(operand.get()))
        operand.set(produceIn(operand.get(), layout, def));
  }
  return def->getResult(0);
}

void LayoutAssignment::anchorStores() {
  tile::ScheduleAttr schedule = program.getSchedule();
  if (!schedule.getMma())
    return; // a CUDA-core program's stores are coalesced already
  // In the accumulator layout a warp's store covers 8 rows of a few bytes
  // each: stored tiles go through a layout with 16 bytes of a row a thread
  // where the static shared memory the pipeline leaves holds the move.
  int64_t available = staticSharedBudget(program);
  ArrayRef<int64_t> shape = schedule.getTile();
  int64_t rows = schedule.getMmaRows();
  for (auto store : llvm::to_vector(body.getOps<tile::StoreOp>())) {
    Value value = store.getValue();
    if (value.getDefiningOp<tile::ConvertLayoutOp>() || store.getAlong())
      continue; // (a projected store writes a few elements as they are)
    auto type = cast<VectorType>(value.getType());
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    if (bytes == 0)
      continue; // i1 tiles are stored element by element
    int64_t padding = std::max<int64_t>(1, 4 / bytes);
    int64_t pitch = shape.back() + padding;
    int64_t bands = stagingBands(rows, pitch * bytes, available);
    // In bands of rows each band repeats the writes of every element a
    // thread holds (under a predicate): past two bands the code grows more
    // than the stores gain (a 128 x 256 f32 tile: 512 shared stores; ptxas
    // and LLVM took 3x as long), and the accumulator layout's 8-byte
    // stores still fill whole 32-byte sectors. (Column blocks would not
    // repeat the writes; whether four of them pay needs a GPU.)
    constexpr int64_t kMaxBands = 2;
    if (bands == 0 || bands > kMaxBands)
      continue;
    // A move in bands goes a block of columns at a time where the stored
    // tile's layout puts each register in one block whatever the lane and
    // warp (wgmma's accumulators): the lowering then knows each register's
    // band on both sides. Each block's rows still take whole 32-byte
    // sectors.
    tile::LinearLayoutAttr from = layoutOf(value);
    int64_t blockColumns = shape.back() / bands;
    int64_t blocks = bands > 1 && blockColumns * bytes >= 32 && from &&
                             layout::columnBlocksFollowRegisters(
                                 from.getLayout(), blockColumns)
                         ? bands
                         : 1;
    // Bands of rows repeat every write; with 4-byte elements the
    // accumulator layout's stores fill whole sectors already (mma.sync's
    // f32 128 x 128 with warps along N): not worth it.
    if (bands > 1 && blocks == 1 && bytes >= 4)
      continue;
    // A tile too small for the threads' 16-byte runs (16 x 32 bf16 over
    // 128 threads) keeps the accumulator layout: its warps would cover
    // rows past the tile (another program's, a race on the GPU).
    std::optional<layout::LinearLayout> rowsCoalesced = layout::coalescedLayout(
        rows, shape.back(), schedule.getTileThreads(), bytes, blocks);
    if (!rowsCoalesced)
      continue;
    layout::LinearLayout coalesced =
        layout::withRowsOverLeadingDims(*rowsCoalesced, shape);
    OpBuilder b(store);
    auto convert = tile::ConvertLayoutOp::create(
        b, store.getLoc(), value.getType(), value,
        tile::LinearLayoutAttr::get(program.getContext(), coalesced, shape));
    store.getValueMutable().assign(convert.getResult());
    available -= blocks > 1 ? rows * (blockColumns + padding) * bytes
                            : rows / bands * pitch * bytes;
  }
}

void LayoutAssignment::moveConversionsToSources() {
  std::deque<tile::ConvertLayoutOp> work;
  for (auto convert : body.getOps<tile::ConvertLayoutOp>())
    work.push_back(convert);
  auto erase = [&](tile::ConvertLayoutOp convert) {
    recomputable.erase(convert.getResult());
    convert->erase();
  };
  auto replace = [&](tile::ConvertLayoutOp convert, Value by) {
    convert.getResult().replaceAllUsesWith(by);
    erase(convert);
  };
  while (!work.empty()) {
    tile::ConvertLayoutOp convert = work.front();
    work.pop_front();
    Value source = convert.getSource();
    tile::LinearLayoutAttr target = convert.getLayout();
    if (auto inner = source.getDefiningOp<tile::ConvertLayoutOp>()) {
      // A conversion of a conversion converts the original.
      convert.getSourceMutable().assign(inner.getSource());
      if (inner->use_empty())
        erase(inner);
      work.push_front(convert);
      continue;
    }
    if (layoutOf(source) == target || tile::isUniformTile(source)) {
      replace(convert, source);
      continue;
    }
    if (isRecomputable(source)) {
      replace(convert, produceIn(source, target, convert));
      continue;
    }
    Operation *op = source.getDefiningOp();
    if (!worthMovingThrough(op, target))
      continue;
    // Convert the operands instead: the op then computes in `target`.
    OpBuilder b(op);
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      if (!isa<VectorType>(v.getType()) || tile::isUniformTile(v) ||
          layoutOf(v) == target) // (an operand used twice, done)
        continue;
      if (isRecomputable(v)) {
        operand.set(produceIn(v, target, op));
        continue;
      }
      auto moved = tile::ConvertLayoutOp::create(b, convert.getLoc(),
                                                 v.getType(), v, target);
      operand.set(moved.getResult());
      work.push_back(moved);
    }
    replace(convert, source);
  }
}

void LayoutAssignment::unifyOperands() {
  // The lowering computes an element-wise op element by element, so its
  // tile operands must be distributed alike (in the layout of the result,
  // see layoutOf): the others are recomputed in it or converted to it.
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (!isElementwise(&op))
      continue;
    tile::LinearLayoutAttr wanted = layoutOf(op.getResult(0));
    if (!wanted)
      continue;
    OpBuilder b(&op);
    for (OpOperand &operand : op.getOpOperands()) {
      Value v = operand.get();
      if (!isa<VectorType>(v.getType()) || tile::isUniformTile(v) ||
          layoutOf(v) == wanted)
        continue;
      operand.set(isRecomputable(v)
                      ? produceIn(v, wanted, &op)
                      : tile::ConvertLayoutOp::create(b, op.getLoc(),
                                                      v.getType(), v, wanted)
                            .getResult());
    }
  }
}

struct TileAssignLayoutsPass
    : public nautilus::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
    for (auto program : getOperation().getOps<tile::ProgramOp>()) {
      tile::ScheduleAttr schedule = program.getSchedule();
      std::optional<layout::LinearLayout> distribution =
          schedule.getDistribution();
      if (!distribution)
        continue; // tiles no linear layout distributes: nothing converts
      LayoutAssignment assignment(
          program, tile::LinearLayoutAttr::get(&getContext(), *distribution,
                                               schedule.getTile()));
      assignment.anchorStores();
      assignment.moveConversionsToSources();
      assignment.unifyOperands();
    }
  }
};

} // namespace
