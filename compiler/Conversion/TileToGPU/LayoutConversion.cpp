//===- LayoutConversion.cpp - tile.convert_layout through shared memory ---===//
//
// Every thread writes its elements of the tile into a row-major staging
// copy in shared memory (runs as vectors; rows swizzled or padded as the
// bank conflicts of warp 0's accesses say), the threads that hold the tile
// synchronise, and each reads back the elements the new layout gives it.
// A tile larger than the static shared memory left moves in bands. The
// element-local ops around the conversion run element by element, band by
// band where the layouts allow (ConvertLowering).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/LayoutConversion.h"

#include "compiler/Conversion/TileToGPU/KernelLowering.h"
#include "compiler/Conversion/TileToGPU/ThreadPlacement.h"
#include "dialects/Tile/Layout/LinearLayout.h"
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "dialects/Tile/Utils/StagingRows.h"
#include "runtime/SharedBanks.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

/// `then` under `cond`, yielding its value or `otherwise`.
static Value ifThenElse(OpBuilder &b, Location loc, Value cond, Type type,
                        function_ref<Value()> then, Value otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, otherwise);
  }
  return ifOp.getResult(0);
}

/// The bank wavefronts warp 0 takes to write a tile through `from` in runs
/// of `writeRun` elements and read it back through `to` in runs of
/// `readRun`, in staging rows laid out as `rows` says (rt::bankWavefronts):
/// what the layout of the rows is chosen by.
static uint64_t stagingWavefronts(const layout::LinearLayout *from,
                                  int64_t writeRun,
                                  const layout::LinearLayout &to,
                                  int64_t readRun, ArrayRef<int64_t> tileShape,
                                  const StagingRows &rows,
                                  int64_t elementBytes) {
  uint64_t total = 0;
  auto requests = [&](const layout::LinearLayout &l, int64_t run) {
    int32_t lanes = std::min<int32_t>(32, l.getInDimSize("lane"));
    for (int32_t e = 0; e < l.getInDimSize("register"); e += run) {
      std::vector<nautilus::rt::LaneAccess> request;
      for (int32_t lane = 0; lane < lanes; ++lane) {
        SmallVector<int32_t> at = l.apply({{"register", e}, {"lane", lane}});
        int64_t row = 0;
        for (size_t d = 0; d + 1 < at.size(); ++d)
          row = row * tileShape[d] + at[d];
        int64_t offset =
            rows.offset(row, at.back() % rows.width) * elementBytes;
        request.push_back(
            {uint32_t(lane), uint32_t(offset), uint32_t(run * elementBytes)});
      }
      total += nautilus::rt::bankWavefronts(request).wavefronts;
    }
  };
  if (from)
    requests(*from, writeRun);
  requests(to, readRun);
  return total;
}

namespace {

/// Lowers one layout conversion (with the feed and tail lowerConvert
/// takes). Through shared memory: every thread writes its elements where
/// the source distribution puts them in a row-major copy of the tile (runs
/// of a row in consecutive registers as one vector; rows swizzled or
/// padded as the bank conflicts of warp 0's writes and reads say), the
/// threads that hold the tile synchronise, and each reads the elements
/// the new layout gives it (runs as vectors too).
/// A tile larger than the static shared memory left moves in bands, one
/// after the other: of columns where both layouts put every register in
/// a band whatever the lane and warp (each element is then written and
/// read in a band known at compile time, and a register is free once
/// written), else of rows (each thread checks each element's band).
class ConvertLowering {
public:
  ConvertLowering(KernelContext &kernel, tile::ConvertLayoutOp convert,
                  llvm::iterator_range<Block::iterator> feed,
                  llvm::iterator_range<Block::iterator> tail);

  /// Emits the conversion, with its feed and tail.
  LogicalResult run();

private:
  /// The layout of staging rows `width` columns wide: the fewest
  /// wavefronts, and of layouts as good, the first of: plain rows, rows
  /// whose chunks are XOR-swizzled (no memory added), padded rows.
  StagingRows bestRows(int64_t width) const;
  /// Chooses the staging rows and the bands the tile moves in (one where
  /// it fits); fails where not even a row fits.
  LogicalResult planStaging();
  /// Bands of columns, where the static shared memory `space` left holds
  /// `rows` rows a band wide and both layouts put each register in a band
  /// known at compile time.
  void bandByColumns(int64_t space);
  /// Adds the staging buffer to the kernel's shared memory.
  void allocateStaging();
  /// Lowers the feed, unless its elements are computed band by band just
  /// before they are written.
  LogicalResult lowerFeedAhead();
  /// Each element's position and row in the tile, in both layouts.
  void locateElements();
  /// Whether each run of the tail's elements lies in one band known at
  /// compile time: then the tail runs band by band.
  bool tailInBands() const;
  /// Writes band `band`, reads it back and synchronises around the reads.
  LogicalResult moveBand(int64_t band);
  /// Writes this thread's elements of band `band` (computing the feed's
  /// just before, where it runs in bands).
  LogicalResult writeBand(int64_t band);
  /// Reads this thread's elements of band `band` back (running the tail on
  /// them, where it runs in bands).
  LogicalResult readBand(int64_t band);

  /// The flattened row (all but the innermost coordinate) of element `e`
  /// at positions `within`.
  Value rowOf(ArrayRef<Fragment> within, int64_t e);
  /// Where the element at `row`, `column` of the tile lies in band
  /// `band`'s staging.
  Value offsetOf(Value row, Value column, int64_t band);
  /// Whether `row` lies in band `band` (bands of rows).
  Value inBand(Value row, int64_t band);
  /// Synchronises the threads that hold the tile: all of them, or the
  /// consumers of a warp-specialised program (a named barrier for just
  /// those).
  void synchronise();
  /// Whether the staging buffer may be written after this conversion's
  /// last reads (by a later conversion, tile or pass of a loop).
  bool stagingWrittenAgain();
  /// Element `e` of the result, read from band `band`.
  Value readBack(int64_t e, int64_t band);
  /// Reads elements [first, end) of `band` into `into`: whole runs of
  /// `readRun` as one vector each, the rest one by one. (Only where each
  /// element's band is known: `readRun` is 1 otherwise.)
  void readRange(int64_t first, int64_t end, int64_t band, Fragment &into);
  /// Writes element `e` of the source to band `band` (if it lies in it).
  void write(int64_t e, int64_t band);
  /// Writes elements [first, end) to `band`: whole runs of `writeRun` as
  /// one vector each, the rest one by one.
  void writeRange(int64_t first, int64_t end, int64_t band);

  KernelContext &kernel;
  OpBuilder &b;
  Location loc;
  tile::ConvertLayoutOp convert;
  llvm::iterator_range<Block::iterator> feed, tail;
  Type element;
  int64_t elementBytes; // (i1 elements take a byte)
  /// The tile as rows of `columns` elements (the leading dims flattened).
  int64_t columns, rows;
  /// The source's layout (or the schedule's distribution; null: neither)
  /// and the target's.
  tile::LinearLayoutAttr from, to;
  std::optional<layout::LinearLayout> fromLayout;
  /// The elements written and read as one vector, and the staging rows'
  /// chunk (the larger of both).
  int64_t writeRun, readRun, unit;
  StagingRows staged{0};
  /// The tile moves in `bands` bands of `bandExtent` rows or columns.
  int64_t bands = 1, bandExtent = 0;
  BandAxis axis = BandAxis::Rows;
  /// The band of each register in either layout, where known at compile
  /// time.
  std::optional<SmallVector<int64_t>> fromBands, toBands;
  Value staging;
  /// The feed's elements go in runs of `feedStep`; whether each is computed
  /// just before its band's writes.
  int64_t feedStep = 1;
  bool feedInBands = false;
  /// Whether the tail runs band by band as the bands are read back.
  bool withTail = false;
  /// Each element's position in the tile and row, in either layout.
  SmallVector<Fragment> fromWithin, toWithin;
  SmallVector<Value> fromRows, toRows;
  /// The converted elements (read band by band), and the zero an element
  /// starts as where its band is tested.
  Fragment result;
  Value zero;
};

} // namespace

ConvertLowering::ConvertLowering(KernelContext &kernel,
                                 tile::ConvertLayoutOp convert,
                                 llvm::iterator_range<Block::iterator> feed,
                                 llvm::iterator_range<Block::iterator> tail)
    : kernel(kernel), b(kernel.b), loc(kernel.loc), convert(convert),
      feed(feed), tail(tail) {
  element = convert.getType().getElementType();
  elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  columns = kernel.tileShape.back();
  rows = 1;
  for (int64_t t : kernel.tileShape.drop_back())
    rows *= t;
  from = tile::layoutOf(convert.getSource());
  to = convert.getLayout();
  if (!from)
    if (std::optional<layout::LinearLayout> l =
            kernel.program.getSchedule().getDistribution())
      from = tile::LinearLayoutAttr::get(b.getContext(), *l, kernel.tileShape);
  // Runs of a row's consecutive elements in a thread's registers move as
  // one aligned vector of at most 16 bytes each way (stagingRuns); the
  // rows are laid out (StagingRows: plain, their chunks of both runs
  // XOR-swizzled, or padded) as warp 0's writes and reads take the fewest
  // bank wavefronts (stagingWavefronts).
  if (from)
    fromLayout = from.getLayout();
  StagingRuns runs = stagingRuns(fromLayout, to.getLayout(), element);
  writeRun = runs.write;
  readRun = runs.read;
  unit = runs.unit;
}

StagingRows ConvertLowering::bestRows(int64_t width) const {
  std::vector<StagingRows> candidates =
      stagingRowCandidates(width, unit, elementBytes);
  if (candidates.size() == 1)
    return candidates.front();
  StagingRows best = candidates.front();
  uint64_t fewest = std::numeric_limits<uint64_t>::max();
  for (const StagingRows &c : candidates) {
    uint64_t cost = stagingWavefronts(fromLayout ? &*fromLayout : nullptr,
                                      writeRun, to.getLayout(), readRun,
                                      kernel.tileShape, c, elementBytes);
    if (cost < fewest) {
      fewest = cost;
      best = c;
    }
  }
  return best;
}

LogicalResult ConvertLowering::planStaging() {
  staged = bestRows(columns);
  // Static shared memory in use (the mma.sync stages, other conversions'
  // staging), within the static limit and, on sm_90, what the wgmma
  // pipeline's dynamic stages leave of the block's 227 KiB.
  int64_t used = 0;
  for (BlockArgument a : kernel.func.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(a.getType()); // (i1 elements take a byte)
    used += type.getNumElements() *
            std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }
  int64_t limit = staticSharedBudget(kernel.program);
  bands = stagingBands(rows, staged.pitch() * elementBytes, limit - used);
  if (bands == 0)
    return convert.emitOpError("needs ")
           << staged.pitch() * elementBytes
           << " bytes of shared memory a row to move the tile, with " << used
           << " already in use; a block may use " << limit
           << " bytes of static shared memory beside its pipeline";
  axis = BandAxis::Rows;
  bandExtent = rows / bands;
  bandByColumns(limit - used);
  if (axis == BandAxis::Rows) {
    fromBands =
        from ? registerBands(kernel, from, bandExtent, axis) : std::nullopt;
    toBands = registerBands(kernel, to, bandExtent, axis);
  }
  // Where an element's band is not known at compile time it is written or
  // read alone, under a test of its row.
  if (bands > 1 && !fromBands)
    writeRun = 1;
  if (bands > 1 && !toBands)
    readRun = 1;
  return success();
}

void ConvertLowering::bandByColumns(int64_t space) {
  if (!(bands > 1 && columns % bands == 0 && (columns / bands) % unit == 0 &&
        rows * (columns / bands + staged.pad) * elementBytes <= space))
    return;
  fromBands =
      from ? registerBands(kernel, from, columns / bands, BandAxis::Columns)
           : std::nullopt;
  toBands = registerBands(kernel, to, columns / bands, BandAxis::Columns);
  if (!fromBands || !toBands)
    return;
  axis = BandAxis::Columns;
  bandExtent = columns / bands;
  // Rows a band wide may want another layout, if it fits.
  StagingRows band = bestRows(bandExtent);
  if (rows * band.pitch() * elementBytes > space)
    band = StagingRows{bandExtent, staged.pad, unit};
  staged = band;
}

void ConvertLowering::allocateStaging() {
  int64_t bufferElements =
      (axis == BandAxis::Rows ? bandExtent : rows) * staged.pitch();
  staging = kernel.func.addWorkgroupAttribution(
      MemRefType::get({bufferElements}, element, AffineMap(),
                      b.getI64IntegerAttr(3)),
      loc);
  if (unit > 1) // 16-byte aligned, for the vectors
    kernel.func.setWorkgroupAttributionAttr(
        kernel.func.getNumWorkgroupAttributions() - 1,
        LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
}

LogicalResult ConvertLowering::lowerFeedAhead() {
  // The feed's elements: each just before it is written where the band of
  // every register is known, else all before the first band's writes
  // (element by element, in runs of the source layout's consecutive
  // registers along a row).
  feedStep = from ? std::min<int64_t>(layout::innermostRun(from.getLayout()),
                                      kernel.perThread)
                  : 1;
  feedInBands = !feed.empty() && fromBands;
  for (int64_t e = 0; feedInBands && e < kernel.perThread; ++e)
    if ((*fromBands)[e] != (*fromBands)[e - e % feedStep])
      feedInBands = false;
  if (!feed.empty() && !feedInBands &&
      failed(lowerElementwise(kernel, feed, feedStep)))
    return failure();
  return success();
}

void ConvertLowering::locateElements() {
  // (Copies: placementOf's next entry may move the first.)
  fromWithin =
      tile::layoutOf(convert.getSource())
          ? placementOf(kernel, tile::layoutOf(convert.getSource())).within
          : kernel.programWithin;
  toWithin = placementOf(kernel, to).within;
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    fromRows.push_back(rowOf(fromWithin, e));
    toRows.push_back(rowOf(toWithin, e));
  }
}

bool ConvertLowering::tailInBands() const {
  // Where each register's band is known and each run of the epilogue's
  // elements lies in one band, the epilogue runs band by band as soon as
  // a band is written, each element read back just before its run: only a
  // band's elements are live at a time, not the whole tile's twice.
  if (tail.empty() || !toBands)
    return false;
  int64_t step = elementRun(kernel, tail);
  for (int64_t e = 0; e < kernel.perThread; ++e)
    if ((*toBands)[e] != (*toBands)[e - e % step])
      return false;
  return true;
}

LogicalResult ConvertLowering::run() {
  if (failed(planStaging()))
    return failure();
  allocateStaging();
  if (failed(lowerFeedAhead()))
    return failure();
  locateElements();
  result.assign(kernel.perThread, Value());
  zero = arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  withTail = tailInBands();
  if (withTail)
    kernel.slot(convert.getResult()) = result;
  for (int64_t band = 0; band < bands; ++band)
    if (failed(moveBand(band)))
      return failure();
  if (withTail)
    return success();
  kernel.slot(convert.getResult()) = result;
  return lowerElementwise(kernel, tail, elementRun(kernel, tail));
}

LogicalResult ConvertLowering::moveBand(int64_t band) {
  if (failed(writeBand(band)))
    return failure();
  synchronise();
  if (failed(readBand(band)))
    return failure();
  // The staging buffer is written again by the next band, the next tile
  // of a persistent program, another pass through a loop, or another
  // conversion: its reads must be done first. After the last use of the
  // last conversion of a program, nothing writes it again (a barrier there
  // was found redundant by scripts/mutate_sync.py).
  if (band + 1 < bands || stagingWrittenAgain())
    synchronise();
  return success();
}

bool ConvertLowering::stagingWrittenAgain() {
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  if (mma && mma.getPersistent())
    return true;
  if (convert->getParentOp() != kernel.program.getOperation())
    return true; // inside a loop or region: perhaps run again
  for (Operation *op = convert->getNextNode(); op; op = op->getNextNode()) {
    bool converts = false;
    op->walk([&](tile::ConvertLayoutOp) { converts = true; });
    if (converts)
      return true;
  }
  return false;
}

LogicalResult ConvertLowering::writeBand(int64_t band) {
  auto fromBand = [&](int64_t e) {
    return !fromBands || (*fromBands)[e] == band;
  };
  if (feedInBands)
    return lowerElementwise(
        kernel, feed, feedStep, fromBand, nullptr,
        [&](int64_t first, int64_t end) { writeRange(first, end, band); });
  // The band's elements, in ranges of consecutive registers.
  for (int64_t e = 0; e < kernel.perThread;) {
    int64_t end = e;
    while (end < kernel.perThread && fromBand(end))
      ++end;
    writeRange(e, end, band);
    e = std::max(end, e + 1);
  }
  return success();
}

LogicalResult ConvertLowering::readBand(int64_t band) {
  if (withTail)
    return lowerElementwise(
        kernel, tail, elementRun(kernel, tail),
        [&](int64_t e) { return (*toBands)[e] == band; },
        [&](int64_t first, int64_t end) {
          readRange(first, end, band, kernel.slot(convert.getResult()));
        });
  if (toBands) {
    for (int64_t e = 0; e < kernel.perThread;) {
      int64_t end = e;
      while (end < kernel.perThread && (*toBands)[end] == band)
        ++end;
      readRange(e, end, band, result);
      e = std::max(end, e + 1);
    }
    return success();
  }
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    result[e] = bands > 1 ? ifThenElse(
                                b, loc, inBand(toRows[e], band), element,
                                [&] { return readBack(e, band); },
                                result[e] ? result[e] : zero)
                          : readBack(e, band);
  }
  return success();
}

Value ConvertLowering::rowOf(ArrayRef<Fragment> within, int64_t e) {
  Value row = kernel.cIndex(0);
  for (unsigned d = 0; d + 1 < kernel.rank; ++d)
    row = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, row, kernel.cIndex(kernel.tileShape[d])),
        within[d][e]);
  return row;
}

Value ConvertLowering::offsetOf(Value row, Value column, int64_t band) {
  int64_t first = band * bandExtent;
  if (axis == BandAxis::Rows)
    row = arith::SubIOp::create(b, loc, row, kernel.cIndex(first));
  else
    column = arith::SubIOp::create(b, loc, column, kernel.cIndex(first));
  if (staged.maxPhase > 1) { // StagingRows::offset, as IR
    Value chunk = arith::XOrIOp::create(
        b, loc,
        arith::DivUIOp::create(b, loc, column, kernel.cIndex(staged.unit)),
        arith::RemUIOp::create(
            b, loc,
            arith::DivUIOp::create(b, loc, row, kernel.cIndex(staged.perPhase)),
            kernel.cIndex(staged.maxPhase)));
    column = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, chunk, kernel.cIndex(staged.unit)),
        arith::RemUIOp::create(b, loc, column, kernel.cIndex(staged.unit)));
  }
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, row, kernel.cIndex(staged.pitch())),
      column);
}

Value ConvertLowering::inBand(Value row, int64_t band) {
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::DivUIOp::create(b, loc, row, kernel.cIndex(bandExtent)),
      kernel.cIndex(band));
}

void ConvertLowering::synchronise() {
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  if (!mma || !mma.getProducers()) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  NVVM::BarrierOp::create(
      b, loc, Type(),
      arith::ConstantIntOp::create(
          b, loc, kernel.barriers.of(BarrierGroup::Consumers), 32),
      arith::ConstantIntOp::create(
          b, loc, kernel.program.getSchedule().getTileThreads(), 32),
      nullptr, Value());
}

Value ConvertLowering::readBack(int64_t e, int64_t band) {
  return memref::LoadOp::create(
      b, loc, staging,
      ValueRange{offsetOf(toRows[e], toWithin[kernel.rank - 1][e], band)});
}

void ConvertLowering::readRange(int64_t first, int64_t end, int64_t band,
                                Fragment &into) {
  for (int64_t e = first; e < end;) {
    if (readRun == 1 || e % readRun || e + readRun > end) {
      into[e] = readBack(e, band);
      ++e;
      continue;
    }
    Value run = vector::LoadOp::create(
        b, loc, VectorType::get({readRun}, element), staging,
        ValueRange{offsetOf(toRows[e], toWithin[kernel.rank - 1][e], band)},
        /*nontemporal=*/false, b.getI64IntegerAttr(readRun * elementBytes));
    for (int64_t k = 0; k < readRun; ++k)
      into[e + k] = vector::ExtractOp::create(b, loc, run, k);
    e += readRun;
  }
}

void ConvertLowering::write(int64_t e, int64_t band) {
  Value value = kernel.lookup(convert.getSource())[e];
  OpBuilder::InsertionGuard guard(b);
  if (bands > 1 && !fromBands) {
    auto ifIn = scf::IfOp::create(b, loc, inBand(fromRows[e], band),
                                  /*withElse=*/false);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
  }
  memref::StoreOp::create(
      b, loc, value, staging,
      ValueRange{offsetOf(fromRows[e], fromWithin[kernel.rank - 1][e], band)});
}

void ConvertLowering::writeRange(int64_t first, int64_t end, int64_t band) {
  for (int64_t e = first; e < end;) {
    if (writeRun == 1 || e % writeRun || e + writeRun > end) {
      write(e, band);
      ++e;
      continue;
    }
    Value run = vector::FromElementsOp::create(
        b, loc, VectorType::get({writeRun}, element),
        ValueRange(ArrayRef<Value>(kernel.lookup(convert.getSource()))
                       .slice(e, writeRun)));
    vector::StoreOp::create(
        b, loc, run, staging,
        ValueRange{offsetOf(fromRows[e], fromWithin[kernel.rank - 1][e], band)},
        /*nontemporal=*/false, b.getI64IntegerAttr(writeRun * elementBytes));
    e += writeRun;
  }
}

LogicalResult
tiletogpu::lowerConvert(KernelContext &kernel, tile::ConvertLayoutOp convert,
                        llvm::iterator_range<Block::iterator> feed,
                        llvm::iterator_range<Block::iterator> tail) {
  return ConvertLowering(kernel, convert, feed, tail).run();
}
