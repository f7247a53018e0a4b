//===- CoalesceStores.cpp - store tensor-core results coalesced -----------===//
//
// See TileCoalesceStores in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/ContractLowering.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Conversion/WgmmaPlan.h"

#include "mlir/IR/Builders.h"

namespace nautilus {
#define GEN_PASS_DEF_TILECOALESCESTORES
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

struct TileCoalesceStoresPass
    : public nautilus::impl::TileCoalesceStoresBase<TileCoalesceStoresPass> {
  void runOnOperation() override {
    for (auto program : getOperation().getOps<tile::ProgramOp>())
      coalesceIn(program);
  }

  void coalesceIn(tile::ProgramOp program) {
    tile::ScheduleAttr schedule = program.getSchedule();
    tile::MmaAttr mma = schedule.getMma();
    if (!mma)
      return;
    // The static shared memory the pipeline leaves (staticSharedBudget).
    int64_t available = staticSharedBudget(program);
    ArrayRef<int64_t> shape = schedule.getTile();
    int64_t rows = 1;
    for (int64_t t : shape.drop_back())
      rows *= t;
    for (auto store : llvm::to_vector(program.getBody().getOps<tile::StoreOp>())) {
      Value value = store.getValue();
      if (value.getDefiningOp<tile::ConvertLayoutOp>())
        continue;
      auto type = cast<VectorType>(value.getType());
      int64_t bytes = type.getElementTypeBitWidth() / 8;
      int64_t pitch = shape.back() + std::max<int64_t>(1, 4 / bytes);
      int64_t bands =
          stagingBands(rows, pitch * bytes, available);
      // Each band repeats the writes of every element a thread holds (under
      // a predicate): past two bands the code grows more than the stores
      // gain (a 128 x 256 f32 tile: 512 shared stores; ptxas and LLVM took
      // 3x as long), and the accumulator layout's 8-byte stores still fill
      // whole 32-byte sectors.
      constexpr int64_t kMaxBands = 2;
      if (bands == 0 || bands > kMaxBands)
        continue;
      layout::LinearLayout coalesced = layout::withLeadingUnitDims(
          layout::coalescedLayout(shape[shape.size() - 2], shape.back(),
                                  schedule.getTileThreads(), bytes),
          shape.size());
      OpBuilder b(store);
      auto convert = tile::ConvertLayoutOp::create(
          b, store.getLoc(), value.getType(), value,
          tile::LinearLayoutAttr::get(program.getContext(), coalesced, shape));
      store.getValueMutable().assign(convert.getResult());
      available -= rows / bands * pitch * bytes;
    }
  }
};

} // namespace
