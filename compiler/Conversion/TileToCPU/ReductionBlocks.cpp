//===- ReductionBlocks.cpp - A packed contraction's k folded in blocks ----===//
//
// With `reduce_block = KC` in its schedule (and `pack`), a contraction
// program on the CPU walks its reduced index k in blocks of KC (BLIS's
// kc). A call's program ids are taken a column of tiles at a time (the
// ids of its run that share a column and batch, consecutive: the grid
// walks down the columns); for each block of k, the panel of the block's
// KC rows of B is packed and each instance of the column folds the block
// in turn, starting from the accumulators the previous block left in a
// scratch buffer (a tile a reduction an instance) and storing them back;
// in the last block the instance runs the rest of its program (the
// epilogue, the stores) instead:
//
//   for each column of tiles the run [first, last) enters:
//     for each group of its ids in the column (kBlockedGroupRows rows):
//       for each block [j KC, min(K, (j + 1) KC)):
//         for each id of the group: the instance, its reductions folded
//           over the block only
//
// Unblocked, a panel of K rows that outgrows the L2 cache (K x tile width
// x bytes: 2 MiB at K = 8192 and 64 f32 columns) is read from beyond it
// by every instance; a block's panel stays in L2 for the whole column.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToCPU/ProgramLowering.h"
#include "dialects/Tile/Utils/PackedPanel.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::cpu;

/// The output rows whose instances take the blocks in turn (BLIS's mc):
/// their accumulators are the scratch (4096 x 64 f32: 1 MiB), and their
/// blocks' panels are packed once a group (K x 64 copied for 4096 x 64 x
/// K multiply-adds).
constexpr int64_t kBlockedGroupRows = 4096;

LogicalResult ProgramLowering::findReductionBlocks() {
  int64_t size = program.getSchedule().getReduceBlock();
  if (!size)
    return success();
  auto refuse = [&](StringRef why) {
    return program.emitError()
           << "reduce_block = " << size << ": " << why << "; drop reduce_block";
  };
  if (std::string why = tile::reductionBlockRefusal(program); !why.empty())
    return refuse(why);
  // (The lowering's own grouping: the same, unless the contractions'
  // bodies vary along different dimensions.)
  SmallVector<tile::ReduceOp> reductions(
      program.getBody().front().getOps<tile::ReduceOp>());
  if (siblingReductions(reductions.front()).size() != reductions.size())
    return refuse("the program's contractions do not fold in one loop nest "
                  "(their bodies vary along different dimensions)");
  blocks.size = size;
  return success();
}

Value ProgramLowering::emitBlockedInstanceLoops(Value first, Value last,
                                                ArrayRef<Value> grid) {
  // The ids walk the rows of tiles fastest (walksDownColumns): a column's
  // ids are gridRows consecutive ones.
  Value gridRows = grid[rank - 2];
  Value firstColumn = arith::DivSIOp::create(b, loc, first, gridRows);
  Value endColumn = arith::CeilDivSIOp::create(b, loc, last, gridRows);
  auto columns = scf::ForOp::create(b, loc, firstColumn, endColumn, cIndex(1));
  instanceLoop = columns;
  b.setInsertionPointToStart(columns.getBody());
  Value columnStart =
      arith::MulIOp::create(b, loc, columns.getInductionVar(), gridRows);
  Value columnRunStart = arith::MaxSIOp::create(b, loc, first, columnStart);
  Value columnRunEnd = arith::MinSIOp::create(
      b, loc, last, arith::AddIOp::create(b, loc, columnStart, gridRows));
  // The run in groups of at most kBlockedGroupRows rows of the output (a
  // whole number of tiles), so that the scratch stays bounded whatever M;
  // each group packs its blocks' panels anew.
  int64_t groupIds =
      std::max<int64_t>(1, kBlockedGroupRows / tileShape[rank - 2]);
  auto groups = scf::ForOp::create(b, loc, columnRunStart, columnRunEnd,
                                   cIndex(groupIds));
  b.setInsertionPointToStart(groups.getBody());
  Value runStart = groups.getInductionVar();
  Value runEnd = arith::MinSIOp::create(
      b, loc, columnRunEnd,
      arith::AddIOp::create(b, loc, runStart, cIndex(groupIds)));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(columns);
    blocks.groupIds =
        arith::MinSIOp::create(b, loc, gridRows, cIndex(groupIds));
  }
  // (An empty reduction is one block: its instances still store.)
  Value reduced = extentAtStart(packedExtent);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(columns);
    blocks.count = arith::MaxSIOp::create(
        b, loc, cIndex(1),
        arith::CeilDivSIOp::create(b, loc, reduced, cIndex(blocks.size)));
  }
  auto steps = scf::ForOp::create(b, loc, cIndex(0), blocks.count, cIndex(1));
  b.setInsertionPointToStart(steps.getBody());
  blocks.index = steps.getInductionVar();
  blocks.start =
      arith::MulIOp::create(b, loc, blocks.index, cIndex(blocks.size));
  auto ids = scf::ForOp::create(b, loc, runStart, runEnd, cIndex(1));
  b.setInsertionPointToStart(ids.getBody());
  Value id = ids.getInductionVar();
  blocks.slot = arith::SubIOp::create(b, loc, id, runStart);
  return id;
}

bool ProgramLowering::foldsInBlocks(ArrayRef<tile::ReduceOp> group) {
  return blocks.size && !keys &&
         group.front()->getParentOp() == program.getOperation();
}

std::pair<Value, Value> ProgramLowering::withinBlock(Value first, Value end) {
  Value blockEnd =
      arith::AddIOp::create(b, loc, blocks.start, cIndex(blocks.size));
  return {arith::MaxSIOp::create(b, loc, first, blocks.start),
          arith::MinSIOp::create(b, loc, end, blockEnd)};
}

/// The position of row `r` (row-major) among a tile's leading dimensions.
static SmallVector<int64_t> rowPosition(int64_t r, ArrayRef<int64_t> leading) {
  SmallVector<int64_t> at(leading.size());
  for (size_t d = leading.size(); d-- > 0;) {
    at[d] = r % leading[d];
    r /= leading[d];
  }
  return at;
}

/// The scratch rows of accumulator `j` (of `count`) of the instance at
/// `slot` in its column, `rows` rows each.
static Value scratchRow(OpBuilder &b, Location loc, Value slot, unsigned j,
                        unsigned count, int64_t rows, int64_t row) {
  Value at = arith::MulIOp::create(
      b, loc, slot, arith::ConstantIndexOp::create(b, loc, count * rows));
  return arith::AddIOp::create(
      b, loc, at, arith::ConstantIndexOp::create(b, loc, j * rows + row));
}

SmallVector<Value> ProgramLowering::blockStartValues(unsigned count,
                                                     VectorType type,
                                                     Value identity) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t width = shape.back();
  int64_t rows = type.getNumElements() / width;
  if (!blocks.scratch) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(instanceLoop);
    blocks.scratch = allocateScratch(
        MemRefType::get({ShapedType::kDynamic, width}, type.getElementType()),
        arith::MulIOp::create(b, loc, blocks.groupIds, cIndex(count * rows)));
  }
  auto rowType = VectorType::get({width}, type.getElementType());
  SmallVector<Type> types(count, type);
  auto first =
      scf::IfOp::create(b, loc, types,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              blocks.index, cIndex(0)),
                        /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  scf::YieldOp::create(b, loc, SmallVector<Value>(count, identity));
  // After the first block: each accumulator's rows from the scratch.
  b.setInsertionPointToStart(&first.getElseRegion().front());
  SmallVector<Value> loaded;
  for (unsigned j = 0; j < count; ++j) {
    Value acc = identity;
    for (int64_t r = 0; r < rows; ++r) {
      Value row = vector::LoadOp::create(
          b, loc, rowType, blocks.scratch,
          ValueRange{scratchRow(b, loc, blocks.slot, j, count, rows, r),
                     cIndex(0)});
      SmallVector<int64_t> at = rowPosition(r, shape.drop_back());
      acc = vector::InsertOp::create(b, loc, row, acc, at);
    }
    loaded.push_back(acc);
  }
  scf::YieldOp::create(b, loc, loaded);
  return SmallVector<Value>(first.getResults());
}

void ProgramLowering::continueInLastBlock(ArrayRef<Value> folded) {
  auto type = cast<VectorType>(folded.front().getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = type.getNumElements() / shape.back();
  Value lastBlock = arith::SubIOp::create(b, loc, blocks.count, cIndex(1));
  auto isLast =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              blocks.index, lastBlock),
                        /*withElseRegion=*/true);
  // Before the last block: the accumulators kept for the next.
  b.setInsertionPoint(isLast.getElseRegion().front().getTerminator());
  unsigned count = folded.size();
  for (auto [j, acc] : llvm::enumerate(folded))
    for (int64_t r = 0; r < rows; ++r) {
      SmallVector<int64_t> at = rowPosition(r, shape.drop_back());
      Value row = vector::ExtractOp::create(b, loc, acc, at);
      vector::StoreOp::create(
          b, loc, row, blocks.scratch,
          ValueRange{scratchRow(b, loc, blocks.slot, j, count, rows, r),
                     cIndex(0)});
    }
  b.setInsertionPoint(isLast.getThenRegion().front().getTerminator());
}
