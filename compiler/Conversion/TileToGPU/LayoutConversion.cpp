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

/// The longest run (a power of two, at most `maxRun`) of a row's
/// consecutive elements that `l` puts in consecutive registers of a thread
/// and that starts at a column multiple of it: each such run moves through
/// shared memory as one aligned vector.
static int64_t alignedRun(const layout::LinearLayout &l, int64_t maxRun) {
  int64_t run = std::min<int64_t>(layout::innermostRun(l), maxRun);
  size_t inner = l.getOutDims().size() - 1;
  auto aligned = [&](int64_t r) {
    for (const auto &in : l.getInDims())
      for (auto [bit, basis] : llvm::enumerate(in.bases))
        if (!(in.name == "register" && (int64_t(1) << bit) < r) &&
            basis[inner] % r != 0)
          return false;
    return true;
  };
  while (run > 1 && !aligned(run))
    run /= 2;
  return run;
}

namespace {
/// How a layout conversion lays its staging rows out in shared memory:
/// `width` columns a row (the tile's, or a band's), `pad` elements after
/// each, and the row's chunks of `unit` elements XOR-swizzled, chunk c of
/// row r stored at c ^ ((r / perPhase) % maxPhase) (maxPhase 1: none).
struct StagingRows {
  int64_t width, pad = 0, unit = 1, perPhase = 1, maxPhase = 1;

  int64_t pitch() const { return width + pad; }
  /// Where element (`row`, `column`) of the staging lies, in elements.
  int64_t offset(int64_t row, int64_t column) const {
    int64_t chunk = column / unit ^ (row / perPhase) % maxPhase;
    return row * pitch() + chunk * unit + column % unit;
  }
};
} // namespace

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

LogicalResult
tiletogpu::lowerConvert(KernelContext &kernel, tile::ConvertLayoutOp convert,
                        llvm::iterator_range<Block::iterator> feed,
                        llvm::iterator_range<Block::iterator> tail) {
  // Through shared memory: every thread writes its elements where the
  // source distribution puts them in a row-major copy of the tile (runs of
  // a row in consecutive registers as one vector; rows swizzled or padded
  // as the bank conflicts of warp 0's writes and reads say), the
  // threads that hold the tile synchronise, and each reads the elements
  // the new layout gives it (runs as vectors too).
  // A tile larger than the static shared memory left moves in bands, one
  // after the other: of columns where both layouts put every register in
  // a band whatever the lane and warp (each element is then written and
  // read in a band known at compile time, and a register is free once
  // written), else of rows (each thread checks each element's band).
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  Type element = convert.getType().getElementType();
  // (i1 elements take a byte)
  int64_t elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  int64_t columns = kernel.tileShape.back(), rows = 1;
  for (int64_t t : kernel.tileShape.drop_back())
    rows *= t;
  tile::LinearLayoutAttr from = tile::layoutOf(convert.getSource());
  tile::LinearLayoutAttr to = convert.getLayout();
  if (!from)
    if (std::optional<layout::LinearLayout> l =
            kernel.program.getSchedule().getDistribution())
      from = tile::LinearLayoutAttr::get(b.getContext(), *l, kernel.tileShape);
  // Runs of a row's consecutive elements in a thread's registers move as
  // one aligned vector of at most 16 bytes each way (bytes, not i1's bits);
  // the rows are laid out (StagingRows: plain, their chunks of both runs
  // XOR-swizzled, or padded) as warp 0's writes and reads take the fewest
  // bank wavefronts (stagingWavefronts).
  bool wholeBytes = element.getIntOrFloatBitWidth() % 8 == 0;
  int64_t maxRun = wholeBytes ? std::max<int64_t>(1, 16 / elementBytes) : 1;
  int64_t writeRun = from ? alignedRun(from.getLayout(), maxRun) : 1;
  int64_t readRun = alignedRun(to.getLayout(), maxRun);
  int64_t unit = std::max({writeRun, readRun, int64_t(1)});
  std::optional<layout::LinearLayout> fromLayout;
  if (from)
    fromLayout = from.getLayout();
  // The layout of staging rows `width` columns wide: the fewest
  // wavefronts, and of layouts as good, the first of: plain rows, rows
  // whose chunks are XOR-swizzled (no memory added), padded rows.
  auto bestRows = [&](int64_t width) {
    StagingRows plain{width};
    plain.unit = unit;
    if (unit == 1) { // element by element: a word of padding, as always
      plain.pad = std::max<int64_t>(1, 4 / elementBytes);
      return plain;
    }
    SmallVector<StagingRows> candidates = {plain};
    for (int64_t maxPhase = 2; maxPhase <= width / unit; maxPhase *= 2)
      for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2) {
        StagingRows swizzled = plain;
        swizzled.maxPhase = maxPhase;
        swizzled.perPhase = perPhase;
        candidates.push_back(swizzled);
      }
    for (int64_t pad = unit; pad * elementBytes <= 128; pad += unit) {
      StagingRows padded = plain;
      padded.pad = pad;
      candidates.push_back(padded);
    }
    StagingRows best = plain;
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
  };
  StagingRows staged = bestRows(columns);
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
  int64_t bands =
      stagingBands(rows, staged.pitch() * elementBytes, limit - used);
  if (bands == 0)
    return convert.emitOpError("needs ")
           << staged.pitch() * elementBytes
           << " bytes of shared memory a row to move the tile, with " << used
           << " already in use; a block may use " << limit
           << " bytes of static shared memory beside its pipeline";
  BandAxis axis = BandAxis::Rows;
  int64_t bandExtent = rows / bands;
  std::optional<SmallVector<int64_t>> fromBands, toBands;
  if (bands > 1 && columns % bands == 0 && (columns / bands) % unit == 0 &&
      rows * (columns / bands + staged.pad) * elementBytes <= limit - used) {
    fromBands =
        from ? registerBands(kernel, from, columns / bands, BandAxis::Columns)
             : std::nullopt;
    toBands = registerBands(kernel, to, columns / bands, BandAxis::Columns);
    if (fromBands && toBands) {
      axis = BandAxis::Columns;
      bandExtent = columns / bands;
      // Rows a band wide may want another layout, if it fits.
      StagingRows band = bestRows(bandExtent);
      if (rows * band.pitch() * elementBytes > limit - used)
        band = StagingRows{bandExtent, staged.pad, unit};
      staged = band;
    }
  }
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
  int64_t bufferElements =
      (axis == BandAxis::Rows ? bandExtent : rows) * staged.pitch();
  Value staging = kernel.func.addWorkgroupAttribution(
      MemRefType::get({bufferElements}, element, AffineMap(),
                      b.getI64IntegerAttr(3)),
      loc);
  if (unit > 1) // 16-byte aligned, for the vectors
    kernel.func.setWorkgroupAttributionAttr(
        kernel.func.getNumWorkgroupAttributions() - 1,
        LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
  auto rowOf = [&](ArrayRef<Fragment> within, int64_t e) {
    Value row = kernel.cIndex(0);
    for (unsigned d = 0; d + 1 < kernel.rank; ++d)
      row = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, row,
                                kernel.cIndex(kernel.tileShape[d])),
          within[d][e]);
    return row;
  };
  // Where element `e` (at `row`, `column` of the tile) lies in band `band`'s
  // staging, and whether it lies in that band at all (null: known).
  auto offsetOf = [&](Value row, Value column, int64_t band) -> Value {
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
              arith::DivUIOp::create(b, loc, row,
                                     kernel.cIndex(staged.perPhase)),
              kernel.cIndex(staged.maxPhase)));
      column = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, chunk, kernel.cIndex(staged.unit)),
          arith::RemUIOp::create(b, loc, column, kernel.cIndex(staged.unit)));
    }
    return arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, row, kernel.cIndex(staged.pitch())),
        column);
  };
  auto inBand = [&](Value row, int64_t band) -> Value {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::DivUIOp::create(b, loc, row, kernel.cIndex(bandExtent)),
        kernel.cIndex(band));
  };
  // The threads that hold the tile: all of them, or the consumers of a
  // warp-specialised program (a named barrier for just those).
  auto synchronise = [&] {
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
  };
  // The feed's elements: each just before it is written where the band of
  // every register is known, else all before the first band's writes
  // (element by element, in runs of the source layout's consecutive
  // registers along a row).
  int64_t feedStep =
      from ? std::min<int64_t>(layout::innermostRun(from.getLayout()),
                               kernel.perThread)
           : 1;
  bool feedInBands = !feed.empty() && fromBands;
  for (int64_t e = 0; feedInBands && e < kernel.perThread; ++e)
    if ((*fromBands)[e] != (*fromBands)[e - e % feedStep])
      feedInBands = false;
  if (!feed.empty() && !feedInBands &&
      failed(lowerElementwise(kernel, feed, feedStep)))
    return failure();
  SmallVector<Fragment> fromWithin(
      tile::layoutOf(convert.getSource())
          ? placementOf(kernel, tile::layoutOf(convert.getSource())).within
          : kernel.programWithin);
  SmallVector<Fragment> toWithin(placementOf(kernel, to).within);
  SmallVector<Value> fromRows, toRows;
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    fromRows.push_back(rowOf(fromWithin, e));
    toRows.push_back(rowOf(toWithin, e));
  }
  Fragment result(kernel.perThread, Value());
  Value zero =
      arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  // Where each register's band is known and each run of the epilogue's
  // elements lies in one band, the epilogue runs band by band as soon as
  // a band is written, each element read back just before its run: only a
  // band's elements are live at a time, not the whole tile's twice.
  bool withTail = !tail.empty() && toBands;
  if (withTail) {
    int64_t step = elementRun(kernel, tail);
    for (int64_t e = 0; e < kernel.perThread; ++e)
      if ((*toBands)[e] != (*toBands)[e - e % step])
        withTail = false;
  }
  auto readBack = [&](int64_t e, int64_t band) -> Value {
    return memref::LoadOp::create(
        b, loc, staging,
        ValueRange{offsetOf(toRows[e], toWithin[kernel.rank - 1][e], band)});
  };
  // Reads elements [first, end) of `band` into `into`: whole runs of
  // `readRun` as one vector each, the rest one by one. (Only where each
  // element's band is known: `readRun` is 1 otherwise.)
  auto readRange = [&](int64_t first, int64_t end, int64_t band,
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
  };
  if (withTail)
    kernel.slot(convert.getResult()) = result;
  auto write = [&](int64_t e, int64_t band) {
    Value value = kernel.lookup(convert.getSource())[e];
    OpBuilder::InsertionGuard guard(b);
    if (bands > 1 && !fromBands) {
      auto ifIn = scf::IfOp::create(b, loc, inBand(fromRows[e], band),
                                    /*withElse=*/false);
      b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    }
    memref::StoreOp::create(
        b, loc, value, staging,
        ValueRange{
            offsetOf(fromRows[e], fromWithin[kernel.rank - 1][e], band)});
  };
  // Writes elements [first, end) to `band`: whole runs of `writeRun` as one
  // vector each, the rest one by one.
  auto writeRange = [&](int64_t first, int64_t end, int64_t band) {
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
          ValueRange{
              offsetOf(fromRows[e], fromWithin[kernel.rank - 1][e], band)},
          /*nontemporal=*/false, b.getI64IntegerAttr(writeRun * elementBytes));
      e += writeRun;
    }
  };
  for (int64_t band = 0; band < bands; ++band) {
    auto fromBand = [&](int64_t e) {
      return !fromBands || (*fromBands)[e] == band;
    };
    if (feedInBands) {
      if (failed(lowerElementwise(kernel, feed, feedStep, fromBand, nullptr,
                                  [&](int64_t first, int64_t end) {
                                    writeRange(first, end, band);
                                  })))
        return failure();
    } else {
      // The band's elements, in ranges of consecutive registers.
      for (int64_t e = 0; e < kernel.perThread;) {
        int64_t end = e;
        while (end < kernel.perThread && fromBand(end))
          ++end;
        writeRange(e, end, band);
        e = std::max(end, e + 1);
      }
    }
    synchronise();
    if (withTail) {
      if (failed(lowerElementwise(
              kernel, tail, elementRun(kernel, tail),
              [&](int64_t e) { return (*toBands)[e] == band; },
              [&](int64_t first, int64_t end) {
                readRange(first, end, band, kernel.slot(convert.getResult()));
              })))
        return failure();
    } else if (toBands) {
      for (int64_t e = 0; e < kernel.perThread;) {
        int64_t end = e;
        while (end < kernel.perThread && (*toBands)[end] == band)
          ++end;
        readRange(e, end, band, result);
        e = std::max(end, e + 1);
      }
    } else {
      for (int64_t e = 0; e < kernel.perThread; ++e) {
        result[e] = bands > 1 ? ifThenElse(
                                    b, loc, inBand(toRows[e], band), element,
                                    [&] { return readBack(e, band); },
                                    result[e] ? result[e] : zero)
                              : readBack(e, band);
      }
    }
    // The staging buffer is written again by the next band, the next tile
    // of a persistent program, or another pass through a loop.
    synchronise();
  }
  if (withTail)
    return success();
  kernel.slot(convert.getResult()) = result;
  return lowerElementwise(kernel, tail, elementRun(kernel, tail));
}
