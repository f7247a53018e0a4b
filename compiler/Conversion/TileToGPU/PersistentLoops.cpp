//===- PersistentLoops.cpp - A kernel's loops over its tiles --------------===//
//
// One program per multiprocessor loops over the tiles block id + i x grid
// size: the producer warpgroup copies for all of them in turn, and the
// consumers run the whole tile program for each. Skipped tiles are not
// counted, so that the pipeline's stages and phases carry over them.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/PersistentLoops.h"

#include "compiler/Conversion/TileToGPU/Contractions.h"
#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "compiler/Conversion/TileToGPU/ThreadPlacement.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

LogicalResult tiletogpu::runPersistent(KernelContext &kernel,
                                       ArrayRef<Value> grid) {
  // One program per multiprocessor, each looping over the tiles block id +
  // i x grid size (in the rasterised order): the producer warpgroup's
  // thread 0 copies for all of them in turn, the consumers run the whole
  // tile program (main loop, then epilogue) for each.
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  tile::ContractOp contract = findContract(kernel.program);
  if (!contract || contract->getBlock() != &kernel.program.getBody().front())
    return kernel.program.emitOpError(
        "a persistent schedule needs a tile.contract at the program's top "
        "level");
  Value tiles = kernel.cIndex(1);
  for (Value g : grid)
    tiles = arith::MulIOp::create(b, loc, tiles, g);
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value blocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value localTiles = arith::CeilDivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, tiles, block), blocks);
  auto tileAt = [&](Value i) {
    return arith::AddIOp::create(b, loc, block,
                                 arith::MulIOp::create(b, loc, i, blocks));
  };
  // The context's tile origin is unused here: each tile's origin goes to
  // produceTile, and the consumers never need it.
  kernel.persistentContext = std::make_unique<ContractLoweringContext>(
      contractContext(kernel, contract));
  kernel.persistent =
      std::make_unique<PersistentWgmma>(b, contract, *kernel.persistentContext);
  kernel.persistentWarpgroup = kernel.persistent->setup();
  Value isProducer = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, kernel.persistentWarpgroup,
      arith::ConstantIntOp::create(b, loc, 0, 32));
  auto split = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&split.getThenRegion().front());
    kernel.persistent->enterProducer();
    Value producing = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, kernel.threadId,
        kernel.cIndex(kernel.persistent->producerThreads()));
    auto ifProducing = scf::IfOp::create(b, loc, producing, /*withElse=*/false);
    b.setInsertionPointToStart(&ifProducing.getThenRegion().front());
    if (failed(loopOverTiles(kernel, localTiles, tileAt, grid,
                             [&](Value run, ArrayRef<Value> origin) {
                               kernel.persistent->produceTile(run, origin);
                               return success();
                             })))
      return failure();
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&split.getElseRegion().front());
  kernel.persistent->enterConsumer();
  return loopOverTiles(
      kernel, localTiles, tileAt, grid, [&](Value run, ArrayRef<Value> origin) {
        kernel.persistentLocalTile = run;
        placeTile(kernel, origin);
        return lowerBlock(kernel, kernel.program.getBody().front());
      });
}

Value tiletogpu::tileRuns(KernelContext &kernel, ArrayRef<Value> origin) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  auto skip = tile::SkipIfNegativeOp::find(kernel.program);
  if (!skip)
    return {};
  Value entry = loadTableEntry(b, loc, kernel.scalars.lookup(skip.getTable()),
                               skip.getMap(), origin, kernel.sizeArgs,
                               /*outside=*/-1);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, entry,
                               kernel.cIndex(0));
}

LogicalResult tiletogpu::loopOverTiles(
    KernelContext &kernel, Value count, llvm::function_ref<Value(Value)> tileAt,
    ArrayRef<Value> grid,
    llvm::function_ref<LogicalResult(Value, ArrayRef<Value>)> body) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  bool skips = static_cast<bool>(tile::SkipIfNegativeOp::find(kernel.program));
  SmallVector<Value> initial;
  if (skips)
    initial.push_back(kernel.cIndex(0));
  auto loop = scf::ForOp::create(b, loc, kernel.cIndex(0), count,
                                 kernel.cIndex(1), initial);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> origin = originOf(
      kernel, programCoordinates(kernel, tileAt(loop.getInductionVar()), grid));
  if (!skips)
    return body(loop.getInductionVar(), origin);
  Value runs = tileRuns(kernel, origin);
  Value run = loop.getRegionIterArg(0);
  auto ifRuns = scf::IfOp::create(b, loc, runs, /*withElse=*/false);
  b.setInsertionPointToStart(&ifRuns.getThenRegion().front());
  if (failed(body(run, origin)))
    return failure();
  b.setInsertionPointAfter(ifRuns);
  Value next = arith::AddIOp::create(b, loc, run,
                                     arith::SelectOp::create(b, loc, runs,
                                                             kernel.cIndex(1),
                                                             kernel.cIndex(0)));
  scf::YieldOp::create(b, loc, next);
  return success();
}
