//===- MemoryAccess.cpp - A kernel's loads and stores ---------------------===//
//
// Loads are guarded scalar loads at each element's indices, or for a run of
// consecutive elements of a row inside the buffer, one vector load; stores
// are guarded scalar stores, or vector stores of runs. Elements a block has
// read already are reused. Sizes the plan binds are constants, and buffers
// whose dimensions are all bound are seen through static views, so that
// bounds and alignment checks fold.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/TileToGPU/MemoryAccess.h"

#include "compiler/Conversion/TileToGPU/ComputedOperand.h"
#include "compiler/Conversion/TileToGPU/ThreadPlacement.h"
#include "dialects/Tile/Layout/LinearLayout.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/BoundBuffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tiletogpu;

int64_t tiletogpu::loadRunLength(KernelContext &kernel, tile::LoadOp load) {
  // Consecutive registers of the load's layout along the tile's rows
  // (innermostRun) read consecutive elements of the buffer's rows when
  // the buffer's innermost index is the tile's innermost dimension itself
  // and no other index reads that dimension (a gather's indices the same
  // along it: gathersRunsAlong; each run then reads at its first
  // element's).
  auto memType = cast<MemRefType>(load.getBuffer().getType());
  if (!memType.getElementType().isIntOrFloat())
    return 1;
  int64_t bytes = memType.getElementTypeBitWidth() / 8;
  bool contiguous = load.getIndirect().empty()
                        ? isContiguousAlong(load.getMap(), kernel.rank - 1)
                        : gathersRunsAlong(load, kernel.rank - 1);
  if (!memType.getLayout().isIdentity() || bytes == 0 || bytes > 16 ||
      !contiguous)
    return 1;
  std::optional<layout::LinearLayout> l =
      load.getLayoutAttr() ? load.getLayoutAttr().getLayout()
                           : kernel.program.getSchedule().getDistribution();
  if (!l)
    return 1;
  int64_t run = std::min<int64_t>(layout::innermostRun(*l), 16 / bytes);
  if (kernel.firstElement % run ||
      (kernel.endElement - kernel.firstElement) % run)
    return 1;
  return run;
}

bool tiletogpu::readsRunOf(tile::LoadOp load, unsigned dim) {
  auto memType = cast<MemRefType>(load.getBuffer().getType());
  return load.getIndirect().empty() &&
         memType.getElementType().isIntOrFloat() &&
         memType.getElementTypeBitWidth() >= 8 &&
         memType.getLayout().isIdentity() &&
         isContiguousAlong(load.getMap(), dim);
}

SmallVector<Value, 8> tiletogpu::loadRunAlongReduction(KernelContext &kernel,
                                                       tile::LoadOp load,
                                                       ArrayRef<Value> ivs) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  Value buffer = kernel.scalars.lookup(load.getBuffer());
  ArrayRef<Fragment> at = globalIndexIn(kernel, load.getLayoutAttr());
  auto indicesAt = [&](Value iv) {
    SmallVector<Value> dims;
    for (unsigned d = 0; d < kernel.rank; ++d)
      dims.push_back(at[d][0]);
    dims.append(kernel.reducedIVs.begin(), kernel.reducedIVs.end());
    dims.push_back(iv);
    SmallVector<Value> indices;
    for (AffineExpr e : load.getMap().getResults())
      indices.push_back(
          expandAffine(b, loc, e, b.getIndexType(), dims, kernel.sizeArgs));
    return indices;
  };
  return loadRun(b, loc, buffer, indicesAt(ivs.front()), ivs.size(), [&] {
    SmallVector<Value, 8> elements;
    for (Value iv : ivs)
      elements.push_back(emitClampedLoad(b, loc, buffer, indicesAt(iv)));
    return elements;
  });
}

void tiletogpu::lowerLoad(KernelContext &kernel, tile::LoadOp load,
                          Fragment &result) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  Value buffer = kernel.scalars.lookup(load.getBuffer());
  auto memType = cast<MemRefType>(buffer.getType());
  ArrayRef<int64_t> positions = load.getIndirectPositions();
  SmallVector<Fragment> indirect;
  for (Value v : load.getIndirect())
    indirect.push_back(kernel.lookup(v));
  // The dims the map reads: elements that agree on them (the same Values:
  // layoutPositions shares them) read the same element, once per block.
  SmallVector<unsigned> read;
  for (unsigned d = 0; d < load.getMap().getNumDims(); ++d)
    if (llvm::any_of(load.getMap().getResults(),
                     [&](AffineExpr e) { return involvesDim(e, d); }))
      read.push_back(d);
  // Each element's output index, in the load's layout.
  ArrayRef<Fragment> at = globalIndexIn(kernel, load.getLayoutAttr());
  auto dimsOf = [&](int64_t e) {
    SmallVector<Value> dims;
    for (unsigned d = 0; d < kernel.rank; ++d)
      dims.push_back(at[d][e]);
    dims.append(kernel.reducedIVs.begin(), kernel.reducedIVs.end());
    return dims;
  };
  auto loadedAt = [&](int64_t e) -> Value & {
    SmallVector<Value> dims = dimsOf(e);
    std::vector<const void *> key = {load.getOperation(),
                                     b.getInsertionBlock()};
    for (unsigned d : read)
      key.push_back(dims[d].getAsOpaquePointer());
    for (const Fragment &f : indirect)
      key.push_back(f[e].getAsOpaquePointer());
    return kernel.loadedElements[key];
  };
  auto indicesOf = [&](int64_t e) {
    SmallVector<Value> dims = dimsOf(e), idx;
    unsigned mapped = 0, gathered = 0;
    for (int64_t j = 0; j < memType.getRank(); ++j) {
      if (gathered < positions.size() && positions[gathered] == j)
        idx.push_back(indirect[gathered++][e]);
      else
        idx.push_back(expandAffine(b, loc, load.getMap().getResult(mapped++),
                                   b.getIndexType(), dims, kernel.sizeArgs));
    }
    return idx;
  };
  // A run of elements consecutive in memory is one vector load where it
  // lies inside the buffer, aligned (loadRun); elements read before in
  // this block are reused.
  int64_t run = kernel.clampedLoads ? 1 : loadRunLength(kernel, load);
  for (int64_t e = kernel.firstElement; e < kernel.endElement; e += run) {
    SmallVector<Value *> loaded;
    for (int64_t k = e; k < e + run; ++k)
      loaded.push_back(&loadedAt(k));
    if (llvm::all_of(loaded, [](Value *v) { return bool(*v); })) {
      for (int64_t k = e; k < e + run; ++k)
        result[k] = *loaded[k - e];
      continue;
    }
    SmallVector<Value, 8> values;
    if (run == 1)
      values.push_back(kernel.clampedLoads
                           ? emitClampedLoad(b, loc, buffer, indicesOf(e))
                           : emitGuardedLoad(b, loc, buffer, indicesOf(e)));
    else
      values = loadRun(b, loc, buffer, indicesOf(e), run, [&] {
        SmallVector<Value, 8> elements;
        for (int64_t k = e; k < e + run; ++k)
          elements.push_back(emitGuardedLoad(b, loc, buffer, indicesOf(k)));
        return elements;
      });
    for (int64_t k = e; k < e + run; ++k)
      result[k] = *loaded[k - e] = values[k - e];
  }
}

int64_t tiletogpu::storeWidth(KernelContext &kernel, Value value) {
  // Consecutive registers of a thread holding consecutive elements of a
  // row (the mma layout's register pairs; 16 bytes in a coalesced layout),
  // at most 16 bytes.
  int64_t run = 1;
  if (tile::LinearLayoutAttr layoutAttr = tile::layoutOf(value))
    run = layout::innermostRun(layoutAttr.getLayout());
  else if (kernel.program.getSchedule().getMma())
    run = 2;
  else
    run = kernel.program.getSchedule().getTileRun();
  int64_t bytes =
      cast<VectorType>(value.getType()).getElementTypeBitWidth() / 8;
  if (bytes == 0)
    return 1; // i1 tiles: element by element
  run = std::min<int64_t>(run, std::max<int64_t>(1, 16 / bytes));
  return kernel.perThread % run == 0 ? run : 1;
}

void tiletogpu::lowerStore(KernelContext &kernel, tile::StoreOp store) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  Value buffer = kernel.scalars.lookup(store.getBuffer());
  Fragment value = kernel.lookup(store.getValue());
  tile::LinearLayoutAttr layoutAttr = tile::layoutOf(store.getValue());
  ArrayRef<Fragment> index = globalIndexIn(kernel, layoutAttr);
  ArrayRef<Value> in =
      layoutAttr ? ArrayRef<Value>(placementOf(kernel, layoutAttr).inside)
                 : ArrayRef<Value>(kernel.inside);
  // A buffer over part of the output's dimensions (`along`) takes the
  // elements at global index 0 along the others (the value is the same
  // along them), each from the one thread that holds it.
  auto storeOne = [&](int64_t e) {
    SmallVector<Value> at;
    Value stores = in[e];
    for (unsigned d = 0; d < kernel.rank; ++d) {
      if (store.keepsDim(d)) {
        at.push_back(index[d][e]);
        continue;
      }
      stores = arith::AndIOp::create(
          b, loc, stores,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index[d][e],
                                kernel.cIndex(0)));
    }
    auto ifIn = scf::IfOp::create(b, loc, stores, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    memref::StoreOp::create(b, loc, value[e], buffer, at);
  };
  // Runs of `width` elements of a row in consecutive registers are stored
  // as one aligned vector when all are inside the output and the row
  // length keeps the run aligned; at ragged edges, element by element.
  int64_t width = store.getAlong() ? 1 : storeWidth(kernel, store.getValue());
  if (width == 1 || kernel.firstElement % width ||
      (kernel.endElement - kernel.firstElement) % width) {
    for (int64_t e = kernel.firstElement; e < kernel.endElement; ++e)
      storeOne(e);
    return;
  }
  Type element = cast<VectorType>(store.getValue().getType()).getElementType();
  Value rowLength = innermostExtent(kernel, store.getBuffer());
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, rowLength, kernel.cIndex(width)),
      kernel.cIndex(0));
  for (int64_t e = kernel.firstElement; e < kernel.endElement; e += width) {
    Value all = aligned;
    for (int64_t k = e; k < e + width; ++k)
      all = arith::AndIOp::create(b, loc, all, in[k]);
    auto ifAll = scf::IfOp::create(b, loc, all, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAll.getThenRegion().front());
    SmallVector<Value> at;
    for (unsigned d = 0; d < kernel.rank; ++d)
      at.push_back(index[d][e]);
    Value run = vector::FromElementsOp::create(
        b, loc, VectorType::get({width}, element),
        ValueRange(ArrayRef<Value>(value).slice(e, width)));
    vector::StoreOp::create(
        b, loc, run, buffer, at, /*nontemporal=*/false,
        b.getI64IntegerAttr(width * element.getIntOrFloatBitWidth() / 8));
    b.setInsertionPointToStart(&ifAll.getElseRegion().front());
    for (int64_t k = e; k < e + width; ++k)
      storeOne(k);
  }
}

Value tiletogpu::innermostExtent(KernelContext &kernel, Value buffer) {
  // The plan names each buffer's dimensions: a literal, or a size (bound at
  // compile time, or the program's size argument).
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  if (ArrayAttr dims = kernel.program.getBufferDims(
          cast<BlockArgument>(buffer).getArgNumber());
      dims && !dims.empty()) {
    Attribute inner = dims[dims.size() - 1];
    if (std::optional<int64_t> known = kernel.program.getKnownExtent(inner))
      return kernel.cIndex(*known);
    if (Value size =
            kernel.program.getSizeArg(cast<StringAttr>(inner).getValue()))
      return kernel.scalars.lookup(size);
  }
  Value mapped = kernel.scalars.lookup(buffer);
  return memref::DimOp::create(
      b, loc, mapped, cast<MemRefType>(mapped.getType()).getRank() - 1);
}

void tiletogpu::specialiseBoundSizes(KernelContext &kernel, Block &body) {
  // Sizes the plan binds (--shape) are constants in the kernel, and a
  // buffer whose dimensions are all bound is seen through a view of its
  // static shape (tile::boundBufferView): grid sizes, strides, bounds and
  // alignment checks then fold.
  unsigned numBuffers = kernel.program.getArgNames().size();
  for (auto [i, size] : llvm::enumerate(kernel.program.getSizes()))
    if (std::optional<int64_t> bound = kernel.program.getKnownExtent(size)) {
      Value constant = kernel.cIndex(*bound);
      kernel.sizeArgs[i] = constant;
      kernel.scalars.map(
          kernel.program.getBody().front().getArgument(numBuffers + i),
          constant);
    }
  for (unsigned i = 0; i < numBuffers; ++i)
    if (Value view = tile::boundBufferView(kernel.b, kernel.loc, kernel.program,
                                           i, body.getArgument(i)))
      kernel.scalars.map(kernel.program.getBody().front().getArgument(i), view);
}
