//===- TileOps.cpp - The tile dialect -------------------------------------===//
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FoldInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::tile;

#include "dialects/Tile/TileDialect.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.cpp.inc"

namespace {
/// Constants used in a computed contraction operand stay in its region:
/// the region computes the operand from what it holds alone (the verifier
/// checks it), so the folder must not hoist them out of it.
struct TileFoldInterface : public DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;

  bool shouldMaterializeInto(Region *region) const final {
    return isa<ContractOp>(region->getParentOp());
  }
};
} // namespace

void TileDialect::initialize() {
  addInterfaces<TileFoldInterface>();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyTileShape(Operation *op, Type type);

/// `layout` distributes a tile of `type` over the threads that hold the
/// tiles of the enclosing program.
static LogicalResult verifyDistribution(Operation *op, LinearLayoutAttr layout,
                                        Type type) {
  if (layout.getShape() != cast<VectorType>(type).getShape())
    return op->emitOpError("layout of a [")
           << layout.getShape() << "] tile for a tile of type " << type;
  if (auto program = op->getParentOfType<ProgramOp>())
    if (layout.getNumThreads() != program.getSchedule().getTileThreads())
      return op->emitOpError("layout over ")
             << layout.getNumThreads() << " threads in a program of "
             << program.getSchedule().getTileThreads();
  return success();
}

/// A tile produced in a layout of its own (`tile.load`, `tile.index`): in
/// the program's body, where no reduction folds it with tiles in the
/// schedule's layout.
static LogicalResult verifyProducedLayout(Operation *op,
                                          LinearLayoutAttr layout, Type type) {
  if (!layout)
    return success();
  if (!isa_and_nonnull<ProgramOp>(op->getParentOp()))
    return op->emitOpError("has a layout but is not in a program's body "
                           "(a reduction's tiles are in the schedule's "
                           "layout)");
  return verifyDistribution(op, layout, type);
}

LogicalResult ConvertLayoutOp::verify() {
  if (failed(verifyTileShape(*this, getType())))
    return failure();
  return verifyDistribution(*this, getLayout(), getType());
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  // A conversion of a conversion converts the original value.
  if (auto inner = getSource().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getLayout() == getLayout())
      return getSource();
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  // A tile with one value throughout is in every layout already.
  if (tile::isUniformTile(getSource()))
    return getSource();
  return {};
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

VectorType ProgramOp::getTileType(Type element) {
  return VectorType::get(getSchedule().getTile(), element);
}

Value ProgramOp::getSizeArg(StringRef name) {
  Block &entry = getBody().front();
  unsigned first = getArgNames().size();
  for (auto [i, s] : llvm::enumerate(getSizes()))
    if (cast<StringAttr>(s).getValue() == name)
      return entry.getArgument(first + i);
  return {};
}

PlanOp ProgramOp::getPlan() {
  auto module = (*this)->getParentOfType<ModuleOp>();
  if (!module)
    return {};
  for (auto plan : module.getOps<PlanOp>())
    for (Attribute p : plan.getPrograms())
      if (cast<SymbolRefAttr>(p).getRootReference() == getSymNameAttr())
        return plan;
  return {};
}

SmallVector<ProgramOp, 8> PlanOp::getProgramOps() {
  SmallVector<ProgramOp, 8> programs;
  for (Attribute p : getPrograms())
    if (auto program = SymbolTable::lookupNearestSymbolFrom<ProgramOp>(
            *this, cast<SymbolRefAttr>(p)))
      programs.push_back(program);
  return programs;
}

/// The plan's entry for buffer argument `argNumber` (found by name), or
/// null.
static DictionaryAttr bufferEntry(ProgramOp program, unsigned argNumber) {
  PlanOp plan = program.getPlan();
  if (!plan || argNumber >= program.getArgNames().size())
    return {};
  StringRef name = cast<StringAttr>(program.getArgNames()[argNumber]).getValue();
  for (Attribute entry : plan.getBuffers()) {
    auto dict = cast<DictionaryAttr>(entry);
    if (dict.getAs<StringAttr>("name").getValue() == name)
      return dict;
  }
  return {};
}

ArrayAttr ProgramOp::getBufferDims(unsigned argNumber) {
  DictionaryAttr entry = bufferEntry(*this, argNumber);
  return entry ? entry.getAs<ArrayAttr>("dims") : ArrayAttr();
}

StringRef ProgramOp::getBufferRole(unsigned argNumber) {
  DictionaryAttr entry = bufferEntry(*this, argNumber);
  auto role = entry ? entry.getAs<StringAttr>("role") : StringAttr();
  return role ? role.getValue() : StringRef();
}

std::optional<int64_t> ProgramOp::getKnownExtent(Attribute dim) {
  if (auto literal = dyn_cast<IntegerAttr>(dim))
    return literal.getInt();
  if (PlanOp plan = getPlan())
    if (DictionaryAttr bindings = plan.getBindingsAttr())
      if (auto bound =
              bindings.getAs<IntegerAttr>(cast<StringAttr>(dim).getValue()))
        return bound.getInt();
  return std::nullopt;
}

std::optional<std::vector<int64_t>>
nautilus::tile::knownOutputExtents(ProgramOp program) {
  std::vector<int64_t> extents;
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = program.getKnownExtent(dim);
    if (!extent)
      return std::nullopt;
    extents.push_back(*extent);
  }
  return extents;
}

std::optional<int64_t> ProgramOp::getKnownExtent(Value extent) {
  Attribute dim = getExtentDim(extent);
  return dim ? getKnownExtent(dim) : std::nullopt;
}

Attribute ProgramOp::getExtentDim(Value extent) {
  // (A literal as output dimensions and buffer dims state one: i64.)
  if (auto constant = extent.getDefiningOp<arith::ConstantIndexOp>())
    return IntegerAttr::get(IntegerType::get(getContext(), 64),
                            constant.value());
  auto arg = dyn_cast<BlockArgument>(extent);
  unsigned buffers = getArgNames().size();
  if (!arg || arg.getOwner() != &getBody().front() ||
      arg.getArgNumber() < buffers)
    return Attribute();
  return getSizes()[arg.getArgNumber() - buffers];
}

Value ProgramOp::getOutputExtent(OpBuilder &b, Location loc, unsigned d) {
  Attribute dim = getOutputDims()[d];
  if (auto name = dyn_cast<StringAttr>(dim))
    return getSizeArg(name.getValue());
  return arith::ConstantIndexOp::create(b, loc,
                                        cast<IntegerAttr>(dim).getInt());
}

void ProgramOp::retile(ScheduleAttr schedule) {
  retileTiles(*this, getSchedule().getTile(), schedule.getTile());
  setScheduleAttr(schedule);
}

void nautilus::tile::retileTiles(Operation *root, ArrayRef<int64_t> from,
                                 ArrayRef<int64_t> to) {
  auto retype = [&](Type t) -> Type {
    auto vec = dyn_cast<VectorType>(t);
    if (!vec || vec.getShape() != from)
      return t;
    return VectorType::get(to, vec.getElementType());
  };
  root->walk([&](Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
        if (auto type = dyn_cast<ShapedType>(retype(splat.getType()));
            type && type != splat.getType())
          constant.setValueAttr(SplatElementsAttr::get(
              type, splat.getSplatValue<Attribute>()));
    for (Value r : op->getResults())
      r.setType(retype(r.getType()));
    // Tiles taken by nested regions (a stream's leaders and repairs).
    for (Region &region : op->getRegions())
      for (BlockArgument arg : region.getArguments())
        arg.setType(retype(arg.getType()));
  });
}

OnlineReduceOp ProgramOp::getFlashStream() {
  auto streams = getBody().getOps<OnlineReduceOp>();
  if (streams.empty() ||
      getBody()
          .walk([](ContractOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return nullptr;
  return *streams.begin();
}

LogicalResult ProgramOp::verify() {
  Block &entry = getBody().front();
  if (entry.getNumArguments() != getArgNames().size() + getSizes().size())
    return emitOpError("takes ")
           << getArgNames().size() << " buffers and " << getSizes().size()
           << " sizes, but its block has " << entry.getNumArguments()
           << " arguments";
  for (unsigned i = getArgNames().size(); i < entry.getNumArguments(); ++i)
    if (!entry.getArgument(i).getType().isIndex())
      return emitOpError("size arguments must be of type index");
  if (getSchedule().getTile().size() != getRank())
    return emitOpError("the schedule tiles ")
           << getSchedule().getTile().size() << " dimensions but the output "
           << "has " << getRank();
  // What only a flash kernel (a stream on tensor cores) takes.
  ScheduleAttr schedule = getSchedule();
  bool flash = schedule.getMma() && getFlashStream();
  if (std::string refusal = schedule.tensorCoreRefusal(getRank(), flash);
      !refusal.empty())
    return emitOpError(refusal);
  if (ArrayAttr ranges = getLaunchRangesAttr()) {
    if (ranges.empty() || ranges.size() > 2)
      return emitOpError("launch_ranges: ")
             << ranges.size() << " ranges; a copy is launched for ranges of "
             << "one or two sizes";
    llvm::SmallVector<StringRef> seen;
    for (auto range : ranges.getAsRange<SizeRangeAttr>()) {
      if (!getSizeArg(range.getSize()))
        return emitOpError("launch_ranges: '")
               << range.getSize() << "' is not one of its sizes";
      if (llvm::is_contained(seen, range.getSize()))
        return emitOpError("launch_ranges: '")
               << range.getSize() << "' has two ranges";
      seen.push_back(range.getSize());
    }
  }
  for (Attribute d : getOutputDims()) {
    if (auto name = dyn_cast<StringAttr>(d)) {
      if (!getSizeArg(name.getValue()))
        return emitOpError("output dim '") << name.getValue()
                                           << "' is not one of its sizes";
    } else if (!isa<IntegerAttr>(d)) {
      return emitOpError("output dims are size names or integers");
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Tile-shaped values
//===----------------------------------------------------------------------===//

static LogicalResult verifyTileShape(Operation *op, Type type) {
  auto program = op->getParentOfType<ProgramOp>();
  if (!program)
    return success();
  auto vec = dyn_cast<VectorType>(type);
  if (!vec || vec.getShape() != program.getSchedule().getTile())
    return op->emitOpError("expects the program's tile shape [")
           << program.getSchedule().getTile() << "], found " << type;
  return success();
}

LogicalResult verifyTileShapeOf(Operation *op, Type type) {
  return verifyTileShape(op, type);
}

LogicalResult IndexOp::verify() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  if (program && getDim() >= program.getRank())
    return emitOpError("dimension ") << getDim() << " is out of range";
  if (failed(verifyTileShape(*this, getType())))
    return failure();
  return verifyProducedLayout(*this, getLayoutAttr(), getType());
}

/// Number of reduced indices in scope of `op`: those of enclosing reduces
/// and the one of an enclosing contraction's computed operand.
static unsigned countReducedInScope(Operation *op) {
  unsigned n = 0;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto r = dyn_cast<ReduceOp>(parent))
      n += r.getExtents().size();
    else if (isa<ContractOp, OnlineReduceOp, SweepOp>(parent))
      n += 1;
  }
  return n;
}

LogicalResult LoadOp::verify() {
  if (failed(verifyTileShape(*this, getType())))
    return failure();
  auto buffer = cast<MemRefType>(getBuffer().getType());
  if (buffer.getElementType() != getType().getElementType())
    return emitOpError("loads ") << buffer.getElementType()
                                 << " elements into a tile of "
                                 << getType().getElementType();
  if (getMap().getNumResults() + getIndirect().size() !=
      static_cast<size_t>(buffer.getRank()))
    return emitOpError("indexes a rank-")
           << buffer.getRank() << " buffer with " << getMap().getNumResults()
           << " mapped and " << getIndirect().size() << " indirect indices";
  if (getIndirectPositions().size() != getIndirect().size())
    return emitOpError("needs one position per indirect index");
  for (Value v : getIndirect())
    if (failed(verifyTileShape(*this, v.getType())))
      return failure();
  if (auto program = (*this)->getParentOfType<ProgramOp>()) {
    unsigned dims = program.getRank() + countReducedInScope(*this);
    if (getMap().getNumDims() != dims)
      return emitOpError("map has ")
             << getMap().getNumDims() << " dims but " << dims
             << " indices (output and reduced) are in scope";
    if (getMap().getNumSymbols() != program.getSizes().size())
      return emitOpError("map has ") << getMap().getNumSymbols()
                                     << " symbols but the program has "
                                     << program.getSizes().size() << " sizes";
  }
  if (getLayoutAttr() && !getIndirect().empty())
    return emitOpError("has a layout and gathered indices (the indices' "
                       "tiles are in the schedule's layout)");
  return verifyProducedLayout(*this, getLayoutAttr(), getType());
}

LogicalResult StoreOp::verify() {
  auto buffer = cast<MemRefType>(getBuffer().getType());
  auto vec = cast<VectorType>(getValue().getType());
  if (buffer.getElementType() != vec.getElementType())
    return emitOpError("stores a tile of ")
           << vec.getElementType() << " into a buffer of "
           << buffer.getElementType();
  auto program = (*this)->getParentOfType<ProgramOp>();
  if (std::optional<ArrayRef<int64_t>> along = getAlong()) {
    int64_t previous = -1;
    for (int64_t d : *along) {
      if (d <= previous || d >= program.getRank())
        return emitOpError("`along` lists increasing output dimensions below ")
               << program.getRank();
      previous = d;
    }
    if (buffer.getRank() != static_cast<int64_t>(along->size()))
      return emitOpError("the buffer's rank differs from the number of "
                         "dimensions it keeps (`along`)");
  } else if (buffer.getRank() != program.getRank()) {
    return emitOpError("the buffer's rank differs from the output's");
  }
  return verifyTileShape(*this, vec);
}

/// A reduction (tile.reduce, tile.online_reduce) split into chunks of
/// `chunk` along output dimension `splitDim`: the tile takes that dimension
/// one at a time and `body` does not read it.
LogicalResult verifySplitChunks(Operation *op, Region &body, int64_t splitDim,
                                int64_t chunk, ArrayRef<int64_t> shape) {
  if (splitDim < 0 || splitDim >= static_cast<int64_t>(shape.size()))
    return op->emitOpError("is split along output dimension ")
           << splitDim << " of a rank-" << shape.size() << " tile";
  if (shape[splitDim] != 1)
    return op->emitOpError("is split along output dimension ")
           << splitDim << ", which its tile must take one at a time";
  if (chunk <= 0)
    return op->emitOpError("splits its reduction into chunks of ")
           << chunk << "; they must be positive";
  // The body may not read the split dimension: each chunk folds the same
  // elements for every index along it but its own indices.
  WalkResult reads = body.walk([&](Operation *inner) {
    auto load = dyn_cast<LoadOp>(inner);
    auto index = dyn_cast<IndexOp>(inner);
    if ((load && llvm::any_of(load.getMap().getResults(),
                              [&](AffineExpr e) {
                                return e.isFunctionOfDim(splitDim);
                              })) ||
        (index && static_cast<int64_t>(index.getDim()) == splitDim))
      return WalkResult::interrupt();
    for (Value v : inner->getOperands())
      if (auto outside = v.getDefiningOp<IndexOp>();
          outside && static_cast<int64_t>(outside.getDim()) == splitDim)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (reads.wasInterrupted())
    return op->emitOpError("the body reads output dimension ")
           << splitDim << ", along which the reduction is split";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyTileShape(*this, getType())))
    return failure();
  Block &body = getBody().front();
  if (body.getNumArguments() != getExtents().size() ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError("the body takes one index per reduced dimension");
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValue().getType() != getType())
    return emitOpError("the body must yield a tile of the result type");
  if (getSplitDim().has_value() != getSplitChunk().has_value())
    return emitOpError("a split reduction needs both split_dim and "
                       "split_chunk");
  if (!isSplit())
    return success();
  if (getExtents().empty())
    return emitOpError("is split but has no reduced index");
  return verifySplitChunks(*this, getBody(), getSplitDimAttr().getInt(),
                           getSplitChunkAttr().getInt(), getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// ContractOp
//===----------------------------------------------------------------------===//

Type ContractOp::getOperandElementType() {
  for (unsigned side : {0u, 1u})
    if (Value buffer = getOperandBuffer(side))
      return cast<MemRefType>(buffer.getType()).getElementType();
  for (unsigned side : {0u, 1u}) {
    Region &body = getOperandBody(side);
    if (!body.empty() && !body.front().empty())
      if (auto yield = dyn_cast<YieldOp>(body.front().back()))
        return getElementTypeOrSelf(yield.getValue().getType());
  }
  return {};
}

/// Whether `expr` (over the program's output dims, then the reduced index)
/// reads output dimension `dim`.
static bool readsDim(AffineMap map, unsigned dim, int64_t tileExtent) {
  return llvm::any_of(map.getResults(), [&](AffineExpr e) {
    return !isUniformOverTile(e, dim, tileExtent);
  });
}

tile::LinearLayoutAttr
nautilus::tile::layoutOf(Value value, function_ref<bool(Value)> deferred) {
  // Along the operand that decides, one op a level (each level asks
  // whether its operands are uniform: remembered, the chain is walked once).
  UniformTiles uniform;
  while (!uniform.isUniform(value)) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return {};
    if (auto convert = dyn_cast<ConvertLayoutOp>(def))
      return convert.getLayout();
    if (auto load = dyn_cast<LoadOp>(def))
      return load.getLayoutAttr();
    if (auto index = dyn_cast<IndexOp>(def))
      return index.getLayoutAttr();
    if (def->getNumResults() != 1 || def->getNumRegions() ||
        !def->hasTrait<OpTrait::Elementwise>())
      return {};
    Value decides, firstDeferred;
    for (Value operand : def->getOperands()) {
      if (!isa<VectorType>(operand.getType()) || uniform.isUniform(operand))
        continue;
      if (!deferred || !deferred(operand)) {
        decides = operand;
        break;
      }
      if (!firstDeferred)
        firstDeferred = operand;
    }
    value = decides ? decides : firstDeferred;
    if (!value)
      return {};
  }
  return {};
}

/// A tile a computed operand's region may take from outside and copy in:
/// a splat tile, or an index tile in the program's layout (CSE merges a
/// region's copy of either with an identical op outside it).
static bool isCopyableIntoRegion(Value value) {
  if (auto index = value.getDefiningOp<IndexOp>())
    return !index.getLayoutAttr();
  return isSplatTile(value);
}

void nautilus::tile::sinkIntoComputedOperands(ContractOp contract) {
  for (unsigned side : {0u, 1u}) {
    if (!contract.isComputed(side))
      continue;
    Region &region = contract.getOperandBody(side);
    Block &body = region.front();
    llvm::DenseMap<Value, Value> sunk;
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    body.walk([&](Operation *op) {
      for (OpOperand &use : op->getOpOperands()) {
        Value v = use.get();
        if (v.getParentRegion() == &region ||
            region.isAncestor(v.getParentRegion()) ||
            !isa<VectorType>(v.getType()) ||
            !isCopyableIntoRegion(v))
          continue;
        Value &copy = sunk[v];
        if (!copy)
          copy = b.clone(*v.getDefiningOp())->getResult(0);
        use.set(copy);
      }
    });
  }
}

bool nautilus::tile::readsOutputDim(Operation *op, unsigned dim) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getMap().isFunctionOfDim(dim);
  if (auto index = dyn_cast<IndexOp>(op))
    return static_cast<uint64_t>(index.getDim()) == dim;
  return false;
}

/// Checks computed operand `side`'s region: one index argument, a yield of
/// the result's shape in `element`, element-wise ops and loads that do not
/// vary along `otherDim`.
static LogicalResult verifyComputedOperand(ContractOp op, unsigned side,
                                           Type element,
                                           std::optional<unsigned> otherDim) {
  StringRef name = side == 0 ? "lhs" : "rhs";
  Region &region = op.getOperandBody(side);
  if (!region.hasOneBlock())
    return op.emitOpError("the computed ") << name << " has one block";
  Block &body = region.front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return op.emitOpError("the computed ")
           << name << " takes the reduced index";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  auto expected = VectorType::get(op.getType().getShape(), element);
  // Reads of the other dimension that are the same over the whole tile
  // (`isUniformOverTile`) do not vary along it.
  int64_t otherTile = otherDim ? op.getType().getShape()[*otherDim] : 1;
  if (!yield || yield.getValue().getType() != expected)
    return op.emitOpError("the computed ")
           << name << " must yield a tile of type " << expected;
  auto variesAlongOther = [&](Operation *at) {
    return at->emitOpError("varies along output dimension ")
           << *otherDim << ", which the contraction's " << name
           << " cannot read";
  };
  for (Operation &inner : body.without_terminator()) {
    for (Value operand : inner.getOperands()) {
      if (!isa<VectorType>(operand.getType()) ||
          operand.getParentRegion() == &region)
        continue;
      if (!isCopyableIntoRegion(operand))
        return inner.emitOpError("uses a tile defined outside the computed ")
               << name << " (the region must compute it from loads)";
      auto index = operand.getDefiningOp<IndexOp>();
      if (index && otherDim &&
          static_cast<uint64_t>(index.getDim()) == *otherDim)
        return variesAlongOther(&inner);
    }
    if (auto load = dyn_cast<LoadOp>(inner)) {
      // A gather's indices are region values, checked as such.
      if (otherDim && readsDim(load.getMap(), *otherDim, otherTile))
        return variesAlongOther(&inner);
      continue;
    }
    if (auto index = dyn_cast<IndexOp>(inner)) {
      if (otherDim && static_cast<uint64_t>(index.getDim()) == *otherDim)
        return variesAlongOther(&inner);
      continue;
    }
    if (inner.getNumRegions() || inner.getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect, vector::VectorDialect>(
            inner.getDialect()))
      return inner.emitOpError("cannot compute a contraction operand (only "
                               "loads, indices and element-wise ops can)");
  }
  return success();
}

/// Checks loaded operand `side`'s offset table: i32 entries, one index per
/// table dimension, added to an index of the operand's buffer (of rank
/// `rank`), and the same over the whole tile.
static LogicalResult verifyOffsets(ContractOp op, unsigned side,
                                   int64_t rank) {
  StringRef name = side == 0 ? "lhs" : "rhs";
  auto table = cast<MemRefType>(op.getOperandOffsets(side).getType());
  AffineMap map = op.getOperandOffsetsMap(side);
  if (!table.getElementType().isInteger(32))
    return op.emitOpError("the ")
           << name << "'s offset table holds i32, not "
           << table.getElementType();
  if (!map || map.getNumResults() != static_cast<unsigned>(table.getRank()))
    return op.emitOpError("indexes the ")
           << name << "'s rank-" << table.getRank()
           << " offset table with " << (map ? map.getNumResults() : 0)
           << " indices";
  unsigned position = op.getOperandOffsetsPosition(side);
  if (position + 1 >= static_cast<uint64_t>(rank))
    return op.emitOpError("adds the ")
           << name << "'s offset to index " << position << " of a rank-"
           << rank << " buffer (it must be an index before the innermost)";
  ArrayRef<int64_t> shape = op.getType().getShape();
  unsigned outputs = shape.size();
  // The index it adds to is a batch index: copies take it as one
  // coordinate for the whole tile.
  AffineExpr indexed = op.getOperandMap(side).getResult(position);
  for (unsigned d : {outputs - 2, outputs - 1, outputs})
    if (outputs >= 2 && indexed.isFunctionOfDim(d))
      return op.emitOpError("adds the ")
             << name << "'s offset to index " << position
             << ", which reads M, N or K; it must be a batch index";
  for (AffineExpr e : map.getResults()) {
    if (e.isFunctionOfDim(outputs))
      return op.emitOpError("the ")
             << name << "'s offset reads the reduced index; it must be the "
             << "same for the whole tile";
    for (unsigned d = 0; d < outputs; ++d)
      if (!isUniformOverTile(e, d, shape[d]))
        return op.emitOpError("the ")
               << name << "'s offset varies along output dimension " << d
               << " within a tile; it must be the same for the whole tile";
  }
  return success();
}

LogicalResult ContractOp::verify() {
  if (failed(verifyTileShape(*this, getType())))
    return failure();
  auto program = (*this)->getParentOfType<ProgramOp>();
  unsigned rank = getType().getRank();
  for (unsigned side : {0u, 1u}) {
    StringRef name = side == 0 ? "lhs" : "rhs";
    bool loaded = static_cast<bool>(getOperandBuffer(side));
    if (loaded == isComputed(side))
      return emitOpError("the ") << name
             << " is either a buffer with a map or computed by a region";
    if (loaded != static_cast<bool>(getOperandMap(side)))
      return emitOpError("the loaded ") << name << " needs an index map";
    if (!loaded && getOperandOffsets(side))
      return emitOpError("the computed ")
             << name << " takes no offset table (its region reads what it "
             << "needs)";
  }
  // A computed operand's type is checked with its region (below).
  Type in = getOperandElementType();
  std::array<Type, 2> types = {in, in};
  for (unsigned side : {0u, 1u})
    if (Value buffer = getOperandBuffer(side))
      types[side] = cast<MemRefType>(buffer.getType()).getElementType();
  if (!in || types[0] != types[1] || !(in.isF16() || in.isBF16()))
    return emitOpError("contracts f16 or bf16 operands of one type, not ")
           << types[0] << " and " << types[1];
  if (!getType().getElementType().isF32())
    return emitOpError("accumulates in f32, not ")
           << getType().getElementType();
  if (getSplitDim().has_value() != getSplitChunk().has_value())
    return emitOpError("a split contraction needs both split_dim and "
                       "split_chunk");
  if (isSplit()) {
    int64_t splitDim = getSplitDimAttr().getInt();
    int64_t chunk = getSplitChunkAttr().getInt();
    if (rank < 3 || splitDim < 0 || splitDim >= static_cast<int64_t>(rank) - 2)
      return emitOpError("is split along output dimension ")
             << splitDim << ", which is not a batch dimension";
    if (getType().getShape()[splitDim] != 1)
      return emitOpError("is split along output dimension ")
             << splitDim << ", which its tile must take one at a time";
    if (chunk <= 0)
      return emitOpError("splits K into chunks of ")
             << chunk << "; they must be positive";
    // A computed operand may not read the split dimension either.
    for (unsigned side : {0u, 1u}) {
      if (!isComputed(side))
        continue;
      WalkResult reads = getOperandBody(side).walk([&](Operation *inner) {
        auto load = dyn_cast<LoadOp>(inner);
        auto index = dyn_cast<IndexOp>(inner);
        if ((load && llvm::any_of(load.getMap().getResults(),
                                  [&](AffineExpr e) {
                                    return e.isFunctionOfDim(*getSplitDim());
                                  })) ||
            (index && index.getDim() == *getSplitDim()))
          return WalkResult::interrupt();
        for (Value v : inner->getOperands())
          if (auto outside = v.getDefiningOp<IndexOp>();
              outside && outside.getDim() == *getSplitDim())
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (reads.wasInterrupted())
        return emitOpError("the computed ")
               << (side == 0 ? "lhs" : "rhs") << " reads output dimension "
               << *getSplitDim() << ", along which the contraction is split";
    }
  }
  for (unsigned side : {0u, 1u}) {
    if (isComputed(side)) {
      std::optional<unsigned> otherDim;
      if (rank >= 2)
        otherDim = side == 0 ? rank - 1 : rank - 2;
      if (failed(verifyComputedOperand(*this, side, in, otherDim)))
        return failure();
      continue;
    }
    auto buffer = cast<MemRefType>(getOperandBuffer(side).getType());
    AffineMap map = getOperandMap(side);
    if (map.getNumResults() != static_cast<unsigned>(buffer.getRank()))
      return emitOpError("indexes a rank-")
             << buffer.getRank() << " buffer with " << map.getNumResults()
             << " indices";
    SmallVector<AffineMap, 2> maps = {map};
    if (getOperandOffsets(side)) {
      if (failed(verifyOffsets(*this, side, buffer.getRank())))
        return failure();
      maps.push_back(getOperandOffsetsMap(side));
    } else if (getOperandOffsetsMap(side)) {
      return emitOpError("the ")
             << (side == 0 ? "lhs" : "rhs") << "'s offset map needs a table";
    }
    if (isSplit())
      for (AffineMap m : maps)
        for (AffineExpr e : m.getResults())
          if (e.isFunctionOfDim(*getSplitDim()))
            return emitOpError("the ")
                   << (side == 0 ? "lhs" : "rhs")
                   << " reads output dimension " << *getSplitDim()
                   << ", along which the contraction is split";
    if (program) {
      unsigned dims = program.getRank() + 1;
      for (AffineMap m : maps) {
        if (m.getNumDims() != dims)
          return emitOpError("maps take ") << dims
                 << " dims (the output dimensions and the reduced index), "
                    "not "
                 << m.getNumDims();
        if (m.getNumSymbols() != program.getSizes().size())
          return emitOpError("maps take the ") << program.getSizes().size()
                 << " sizes as symbols";
      }
    }
  }
  return success();
}

// tile.contract LHS `,` RHS `over` `(` %extent `)` attr-dict `:` TYPES `->`
// type (`lhs` region)? (`rhs` region)?, where an operand is `%buffer[#map]`
// or `computed`, and TYPES are the loaded operands' buffer types.
ParseResult ContractOp::parse(OpAsmParser &parser, OperationState &result) {
  using Operand = OpAsmParser::UnresolvedOperand;
  std::array<std::optional<Operand>, 2> buffers, offsets;
  std::array<StringRef, 2> mapNames = {"lhs_map", "rhs_map"};
  std::array<StringRef, 2> offsetsMapNames = {"lhs_offsets_map",
                                              "rhs_offsets_map"};
  std::array<StringRef, 2> positionNames = {"lhs_offsets_position",
                                            "rhs_offsets_position"};
  Builder &builder = parser.getBuilder();
  for (unsigned side : {0u, 1u}) {
    if (side == 1 && parser.parseComma())
      return failure();
    if (succeeded(parser.parseOptionalKeyword("computed")))
      continue;
    Operand buffer;
    AffineMapAttr map;
    if (parser.parseOperand(buffer) || parser.parseLSquare() ||
        parser.parseAttribute(map, mapNames[side], result.attributes) ||
        parser.parseRSquare())
      return failure();
    buffers[side] = buffer;
    if (failed(parser.parseOptionalKeyword("offset")))
      continue;
    Operand table;
    AffineMapAttr tableMap;
    int64_t position = 0;
    if (parser.parseLParen() || parser.parseOperand(table) ||
        parser.parseLSquare() ||
        parser.parseAttribute(tableMap, offsetsMapNames[side],
                              result.attributes) ||
        parser.parseRSquare() || parser.parseKeyword("at") ||
        parser.parseInteger(position) || parser.parseRParen())
      return failure();
    result.addAttribute(positionNames[side],
                        builder.getI64IntegerAttr(position));
    offsets[side] = table;
  }
  Operand extent;
  VectorType resultType;
  if (parser.parseKeyword("over") || parser.parseLParen() ||
      parser.parseOperand(extent) || parser.parseRParen())
    return failure();
  if (succeeded(parser.parseOptionalKeyword("chunks"))) {
    int64_t chunk = 0, dim = 0;
    if (parser.parseLParen() || parser.parseInteger(chunk) ||
        parser.parseKeyword("along") || parser.parseInteger(dim) ||
        parser.parseRParen())
      return failure();
    result.addAttribute("split_chunk", builder.getI64IntegerAttr(chunk));
    result.addAttribute("split_dim", builder.getI64IntegerAttr(dim));
  }
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  std::array<Type, 2> types, offsetsTypes;
  bool first = true;
  auto parseType = [&](Type &type) {
    if ((!first && parser.parseComma()) || parser.parseType(type))
      return failure();
    first = false;
    return success();
  };
  for (unsigned side : {0u, 1u}) {
    if (buffers[side] && failed(parseType(types[side])))
      return failure();
    if (offsets[side] && failed(parseType(offsetsTypes[side])))
      return failure();
  }
  if (parser.parseArrow() || parser.parseType(resultType))
    return failure();
  for (unsigned side : {0u, 1u}) {
    if (buffers[side] &&
        parser.resolveOperand(*buffers[side], types[side], result.operands))
      return failure();
    if (offsets[side] && parser.resolveOperand(*offsets[side],
                                               offsetsTypes[side],
                                               result.operands))
      return failure();
  }
  if (parser.resolveOperand(extent, builder.getIndexType(), result.operands))
    return failure();
  result.addAttribute(
      ContractOp::getOperandSegmentSizeAttr(),
      builder.getDenseI32ArrayAttr({buffers[0] ? 1 : 0, offsets[0] ? 1 : 0,
                                    buffers[1] ? 1 : 0, offsets[1] ? 1 : 0,
                                    1}));
  result.addTypes(resultType);
  for (unsigned side : {0u, 1u}) {
    Region *region = result.addRegion();
    if (buffers[side])
      continue;
    if (parser.parseKeyword(side == 0 ? "lhs" : "rhs") ||
        parser.parseRegion(*region, /*arguments=*/{}))
      return failure();
  }
  return success();
}

void ContractOp::print(OpAsmPrinter &p) {
  for (unsigned side : {0u, 1u}) {
    p << (side == 0 ? " " : ", ");
    if (isComputed(side)) {
      p << "computed";
      continue;
    }
    p << getOperandBuffer(side) << "[";
    p.printAttributeWithoutType(AffineMapAttr::get(getOperandMap(side)));
    p << "]";
    if (Value table = getOperandOffsets(side)) {
      p << " offset(" << table << "[";
      p.printAttributeWithoutType(
          AffineMapAttr::get(getOperandOffsetsMap(side)));
      p << "] at " << getOperandOffsetsPosition(side) << ")";
    }
  }
  p << " over(" << getExtent() << ")";
  if (isSplit())
    p << " chunks(" << *getSplitChunk() << " along " << *getSplitDim() << ")";
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {"lhs_map", "rhs_map", "lhs_offsets_map", "rhs_offsets_map",
       "lhs_offsets_position", "rhs_offsets_position", "split_dim",
       "split_chunk", getOperandSegmentSizeAttr()});
  p << " :";
  bool first = true;
  for (unsigned side : {0u, 1u})
    for (Value v : {getOperandBuffer(side), getOperandOffsets(side)}) {
      if (!v)
        continue;
      p << (first ? " " : ", ") << v.getType();
      first = false;
    }
  p << " -> " << getType();
  for (unsigned side : {0u, 1u}) {
    if (!isComputed(side))
      continue;
    p << (side == 0 ? " lhs " : " rhs ");
    p.printRegion(getOperandBody(side), /*printEntryBlockArgs=*/true);
  }
}
