//===- ThreadPlacement.cpp - Where each thread's elements sit -------------===//
//
// The program id, delinearised over the grid, gives the tile's origin; the
// schedule's distribution of the tile over the threads (or a layout a
// value was converted to) gives each element's place in it, and from
// there its global indices and whether it lies inside the output.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/ThreadPlacement.h"

#include "dialects/Tile/Layout/LinearLayout.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

SmallVector<Value> tiletogpu::programCoordinates(KernelContext &kernel,
                                                 Value pid,
                                                 ArrayRef<Value> grid) {
  // Row-major over the grid (the last dimension fastest), except that a
  // tensor-core schedule with group_m > 1 walks the last two dimensions in
  // groups of group_m rows of tiles, down each column of a group before the
  // next: consecutive programs reuse rows of A and columns of B in L2.
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  unsigned rank = kernel.rank;
  SmallVector<Value> coords(rank);
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  int64_t group = mma && rank >= 2 ? mma.getGroupM() : 1;
  unsigned rowMajorDims = group > 1 ? rank - 2 : rank;
  Value rest = pid;
  if (group > 1) {
    Value rows = grid[rank - 2], columns = grid[rank - 1];
    Value perMatrix = arith::MulIOp::create(b, loc, rows, columns);
    Value within = arith::RemSIOp::create(b, loc, rest, perMatrix);
    rest = arith::DivSIOp::create(b, loc, rest, perMatrix);
    Value perGroup =
        arith::MulIOp::create(b, loc, kernel.cIndex(group), columns);
    Value groupId = arith::DivSIOp::create(b, loc, within, perGroup);
    Value firstRow =
        arith::MulIOp::create(b, loc, groupId, kernel.cIndex(group));
    Value groupRows =
        arith::MinSIOp::create(b, loc, kernel.cIndex(group),
                               arith::SubIOp::create(b, loc, rows, firstRow));
    Value inGroup = arith::RemSIOp::create(b, loc, within, perGroup);
    coords[rank - 2] = arith::AddIOp::create(
        b, loc, firstRow, arith::RemSIOp::create(b, loc, inGroup, groupRows));
    coords[rank - 1] = arith::DivSIOp::create(b, loc, inGroup, groupRows);
  }
  for (int64_t d = static_cast<int64_t>(rowMajorDims) - 1; d >= 0; --d) {
    coords[d] = arith::RemSIOp::create(b, loc, rest, grid[d]);
    rest = arith::DivSIOp::create(b, loc, rest, grid[d]);
  }
  return coords;
}

SmallVector<Fragment>
tiletogpu::layoutPositions(KernelContext &kernel,
                           const layout::LinearLayout &l) {
  // Register e's coordinates (constants) XOR the thread's (from its lane
  // and warp bits). Producer warpgroups come first and hold no elements.
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  tile::MmaAttr mma = kernel.program.getSchedule().getMma();
  int64_t producers = mma ? mma.getProducers() : 0;
  Value computing = arith::SubIOp::create(
      b, loc, kernel.threadId,
      kernel.cIndex(kernel.target.warpgroupThreads * producers));
  Value lane = arith::RemUIOp::create(b, loc, computing,
                                      kernel.cIndex(kernel.target.kernelLanes));
  Value warp = arith::DivUIOp::create(b, loc, computing,
                                      kernel.cIndex(kernel.target.kernelLanes));
  unsigned dims = l.getOutDims().size(), lead = kernel.rank - dims;
  SmallVector<Value> threadPart(dims, kernel.cIndex(0));
  for (auto [name, value] :
       {std::make_pair("lane", lane), std::make_pair("warp", warp)})
    for (const auto &in : l.getInDims()) {
      if (in.name != name)
        continue;
      for (auto [bit, basis] : llvm::enumerate(in.bases)) {
        Value set = arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, value, kernel.cIndex(bit)),
            kernel.cIndex(1));
        for (unsigned d = 0; d < dims; ++d)
          if (basis[d])
            threadPart[d] = arith::XOrIOp::create(
                b, loc, threadPart[d],
                arith::MulIOp::create(b, loc, set, kernel.cIndex(basis[d])));
      }
    }
  // Elements at the same coordinate along a dimension share its value (a
  // load that reads only that dimension is then made once: lowerLoad).
  SmallVector<Fragment> within(kernel.rank);
  llvm::DenseMap<std::pair<unsigned, int32_t>, Value> coordinates;
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    auto regPart = l.apply({{"register", int32_t(e)}});
    for (unsigned d = 0; d < lead; ++d)
      within[d].push_back(kernel.cIndex(0));
    for (unsigned d = 0; d < dims; ++d) {
      Value &at = coordinates[{d, regPart[d]}];
      if (!at)
        at = arith::XOrIOp::create(b, loc, threadPart[d],
                                   kernel.cIndex(regPart[d]));
      within[lead + d].push_back(at);
    }
  }
  return within;
}

SmallVector<Fragment> tiletogpu::tilePositions(KernelContext &kernel,
                                               Value tid) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  unsigned rank = kernel.rank;
  ArrayRef<int64_t> tileShape = kernel.tileShape;
  if (kernel.program.getSchedule().getMma())
    // The mma accumulator layout, its rows the leading dimensions
    // flattened.
    return layoutPositions(kernel,
                           *kernel.program.getSchedule().getDistribution());
  SmallVector<Fragment> within(rank);
  // Thread t's element e sits at row-major tile position e * T + t, or in
  // runs of V (`vector`): ((e / V) * T + t) * V + e % V.
  int64_t run = kernel.program.getSchedule().getTileRun();
  Value runStart =
      run == 1 ? tid : arith::MulIOp::create(b, loc, tid, kernel.cIndex(run));
  // A run lies in one row (V divides the innermost extent): its elements
  // share their outer coordinates, and their innermost ones step by 1 from
  // the run's first; shared Values let their loads of a row's broadcast
  // operand be one (lowerLoad reuses what equal indices read).
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
    llvm::DenseMap<int64_t, Value> ofRun;
    for (int64_t e = 0; e < kernel.perThread; ++e) {
      Value &start = ofRun[e / run];
      if (!start) {
        Value position = arith::AddIOp::create(
            b, loc, runStart, kernel.cIndex((e / run) * kernel.threads * run));
        start = arith::RemUIOp::create(
            b, loc,
            arith::DivUIOp::create(b, loc, position, kernel.cIndex(stride)),
            kernel.cIndex(tileShape[d]));
      }
      bool innermost = d + 1 == static_cast<int64_t>(rank);
      within[d].push_back(
          innermost && e % run != 0
              ? arith::AddIOp::create(b, loc, start, kernel.cIndex(e % run))
              : start);
    }
    stride *= tileShape[d];
  }
  return within;
}

SmallVector<Value> tiletogpu::originOf(KernelContext &kernel,
                                       ArrayRef<Value> coords) {
  SmallVector<Value> origin;
  for (unsigned d = 0; d < kernel.rank; ++d)
    origin.push_back(arith::MulIOp::create(kernel.b, kernel.loc, coords[d],
                                           kernel.cIndex(kernel.tileShape[d])));
  return origin;
}

void tiletogpu::placeTile(KernelContext &kernel, ArrayRef<Value> origin) {
  kernel.tileOrigin.assign(origin.begin(), origin.end());
  kernel.placements.clear();
  kernel.programWithin = tilePositions(kernel, kernel.threadId);
  locate(kernel, kernel.programWithin, kernel.globalIndex, kernel.inside);
}

void tiletogpu::locate(KernelContext &kernel, ArrayRef<Fragment> within,
                       SmallVector<Fragment> &globalIndex, Fragment &inside) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  globalIndex.assign(kernel.rank, Fragment());
  inside.assign(kernel.perThread, Value());
  for (unsigned d = 0; d < kernel.rank; ++d) {
    llvm::DenseMap<Value, Value> indices; // shared positions share indices
    for (int64_t e = 0; e < kernel.perThread; ++e) {
      Value &index = indices[within[d][e]];
      if (!index)
        index =
            arith::AddIOp::create(b, loc, kernel.tileOrigin[d], within[d][e]);
      globalIndex[d].push_back(index);
      Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index,
                                       kernel.extents[d]);
      inside[e] = inside[e]
                      ? arith::AndIOp::create(b, loc, inside[e], in).getResult()
                      : in;
    }
  }
  for (int64_t e = 0; e < kernel.perThread; ++e)
    if (!inside[e]) // rank 0: only the first element of the first thread
      inside[e] = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::AddIOp::create(b, loc, kernel.threadId,
                                kernel.cIndex(e * kernel.threads)),
          kernel.cIndex(0));
  // The threads of a group hold the same elements: the first one stores.
  if (kernel.laneInGroup) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        kernel.laneInGroup, kernel.cIndex(0));
    for (Value &in : inside)
      in = arith::AndIOp::create(b, loc, in, first);
  }
}

Placement &tiletogpu::placementOf(KernelContext &kernel,
                                  tile::LinearLayoutAttr layoutAttr) {
  auto it = kernel.placements.find(layoutAttr);
  if (it != kernel.placements.end())
    return it->second;
  Placement &p = kernel.placements[layoutAttr];
  p.within = layoutPositions(kernel, layoutAttr.getLayout());
  locate(kernel, p.within, p.globalIndex, p.inside);
  return p;
}

ArrayRef<Fragment> tiletogpu::globalIndexIn(KernelContext &kernel,
                                            tile::LinearLayoutAttr layout) {
  return layout ? ArrayRef<Fragment>(placementOf(kernel, layout).globalIndex)
                : ArrayRef<Fragment>(kernel.globalIndex);
}

std::optional<SmallVector<int64_t>>
tiletogpu::registerBands(const KernelContext &kernel,
                         tile::LinearLayoutAttr layout, int64_t bandExtent,
                         BandAxis axis) {
  // The coordinate banded: the column, or the flattened row. Tile extents
  // are powers of two: a flattened row concatenates the bits of the
  // leading coordinates, so XOR composes it as it does them.
  auto coordinate = [&](ArrayRef<int32_t> basis) {
    if (axis == BandAxis::Columns)
      return int64_t(basis[kernel.rank - 1]);
    int64_t row = 0;
    for (unsigned d = 0; d + 1 < kernel.rank; ++d)
      row = row * kernel.tileShape[d] + basis[d];
    return row;
  };
  layout::LinearLayout l = layout.getLayout();
  SmallVector<int64_t> registerCoordinates;
  for (const layout::LinearLayout::InDim &in : l.getInDims()) {
    for (const std::vector<int32_t> &basis : in.bases) {
      int64_t c = coordinate(basis);
      if (in.name == "register")
        registerCoordinates.push_back(c);
      else if (c >= bandExtent)
        return std::nullopt; // the band depends on the lane or warp
    }
  }
  SmallVector<int64_t> bands(kernel.perThread, 0);
  for (int64_t e = 0; e < kernel.perThread; ++e) {
    int64_t c = 0;
    for (auto [bit, r] : llvm::enumerate(registerCoordinates))
      if (e >> bit & 1)
        c ^= r;
    bands[e] = c / bandExtent;
  }
  return bands;
}
