//===- AlgToTile.cpp - alg kernels to tile programs -----------------------===//
//
// One tile.program per alg.define. The program's values are tiles: every
// scalar of the alg body becomes a vector of the tile shape, so the body is
// copied op by op with vector types. Indices become `tile.index` (output
// dimensions) or the `tile.reduce` block arguments (reduced dimensions).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/Passes.h"
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Target/Target.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/ContractionStream.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

namespace nautilus {
#define GEN_PASS_DEF_CONVERTALGTOTILE
#include "compiler/Conversion/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// A buffer of the launch plan.
struct Buffer {
  std::string name;
  std::string role; // input, output, workspace, scalar
  Type type;        // memref type, or the scalar type
  ArrayAttr dims;
  Value algValue;   // the alg value it holds
};

class KernelLowering {
public:
  KernelLowering(alg::KernelOp kernel, const TargetInfo &target,
                 ScheduleProvider &schedules)
      : kernel(kernel), target(target), schedules(schedules),
        builder(kernel.getContext()) {}

  LogicalResult run();

private:
  /// A new program computing `name` over `dims`, its entry block and the
  /// tile.index of each output dimension.
  tile::ProgramOp createProgram(Location loc, StringRef name, ArrayAttr dims,
                                SmallVectorImpl<Value> &outputIndex);
  /// Ends `program` storing `result` to the buffer of `value`, and sets
  /// its schedule (a reduction's over `reduced` when `reduction`).
  void finishProgram(tile::ProgramOp program, Value result, Value value,
                     std::optional<int64_t> reduced,
                     std::optional<ReductionShape> reduction,
                     const ReductionScheduleOptions &options = {});
  LogicalResult lowerDefine(alg::DefineOp def);
  LogicalResult lowerStream(alg::OnlineReduceOp stream);
  LogicalResult copyRegion(Block &from, IRMapping &mapping,
                           tile::ProgramOp program, VectorType shape,
                           ArrayRef<Value> outputIndex,
                           ArrayRef<Value> reducedIndex,
                           SmallVectorImpl<Value> &yielded);
  LogicalResult copyRegion(Block &from, IRMapping &mapping,
                           tile::ProgramOp program, VectorType shape,
                           ArrayRef<Value> outputIndex,
                           ArrayRef<Value> reducedIndex, Value &yielded) {
    SmallVector<Value, 1> values;
    if (failed(copyRegion(from, mapping, program, shape, outputIndex,
                          reducedIndex, values)))
      return failure();
    yielded = values.front();
    return success();
  }
  /// A nested alg.reduce as a tile.reduce in the region being copied.
  LogicalResult copyReduce(alg::ReduceOp reduce, IRMapping &mapping,
                           tile::ProgramOp program, VectorType shape,
                           ArrayRef<Value> outputIndex,
                           ArrayRef<Value> reducedIndex);
  /// A tile.reduce of `kind` over `extents` whose body is `from` copied
  /// (its reduced indices after `enclosingReduced`), folding `accType`;
  /// the builder is left after it.
  FailureOr<tile::ReduceOp> buildReduce(Block &from, ValueRange extents,
                                        alg::ReductionKind kind,
                                        VectorType accType,
                                        tile::ProgramOp program,
                                        ArrayRef<Value> outputIndex,
                                        ArrayRef<Value> enclosingReduced);
  /// The extents of `dims` (sizes or constants) as index values.
  SmallVector<Value> extentValues(tile::ProgramOp program, ArrayAttr dims,
                                  Location loc);
  Value broadcast(Value scalar, VectorType shape, Location loc) {
    auto type = VectorType::get(shape.getShape(), scalar.getType());
    return vector::BroadcastOp::create(builder, loc, type, scalar);
  }
  std::optional<int64_t> extentOf(Attribute dim) {
    if (auto name = dyn_cast<StringAttr>(dim))
      return kernel.getBinding(name.getValue());
    return cast<IntegerAttr>(dim).getInt();
  }

  /// Per output dimension of `program` but the innermost, how many
  /// consecutive indices one load of some operand reading it serves (up to
  /// kWholeInnermostRows; 1: none): grouped-query attention's K[b,
  /// h floordiv (H floordiv G), m, d] serves H / G heads.
  SmallVector<int64_t> sharedLoadGroups(tile::ProgramOp program) {
    SmallVector<std::optional<int64_t>> symbols;
    for (Attribute size : program.getSizes())
      symbols.push_back(extentOf(size));
    unsigned rank = program.getRank();
    SmallVector<int64_t> groups(rank ? rank - 1 : 0, 1);
    program.walk([&](tile::LoadOp load) {
      if (!load.getIndirect().empty()) // (a gather is loaded element-wise)
        return;
      for (unsigned d = 0; d + 1 < rank; ++d)
        for (int64_t c = kWholeInnermostRows; c > groups[d]; --c)
          if (llvm::any_of(
                  load.getMap().getResults(),
                  [&](AffineExpr e) { return e.isFunctionOfDim(d); }) &&
              llvm::all_of(load.getMap().getResults(), [&](AffineExpr e) {
                return tile::isUniformOverTile(e, d, c, symbols);
              })) {
            groups[d] = c;
            break;
          }
    });
    return groups;
  }

  /// The most heads (a power of two up to kFlashRows) a flash kernel's
  /// tile of `program`'s stream may hold (ReductionScheduleOptions::
  /// flashHeads).
  int64_t flashHeadLimit(tile::ProgramOp program) {
    SmallVector<std::optional<int64_t>> symbols;
    for (Attribute size : program.getSizes())
      symbols.push_back(extentOf(size));
    tile::OnlineReduceOp stream = program.getFlashStream();
    int64_t heads = kFlashRows;
    while (
        heads > 1 &&
        (!stream ||
         !flashHeadsRefusal(stream, program.getRank(), heads, symbols).empty()))
      heads /= 2;
    return heads;
  }

  alg::KernelOp kernel;
  const TargetInfo &target;
  ScheduleProvider &schedules;
  OpBuilder builder;
  SmallVector<Buffer> buffers;
  SmallVector<Attribute> programs;
};

Type memrefFor(RankedTensorType t) {
  return MemRefType::get(t.getShape(), t.getElementType());
}

LogicalResult KernelLowering::run() {
  MLIRContext *ctx = kernel.getContext();
  // The buffers: inputs, then one per definition (output or workspace).
  alg::ReturnOp ret = kernel.getReturn();
  for (Operation &op : kernel.getBody().front()) {
    if (auto in = dyn_cast<alg::InputOp>(op)) {
      Buffer b{in.getName().str(), "input", in.getType(), in.getDims(), in};
      if (auto t = dyn_cast<RankedTensorType>(in.getType()))
        b.type = memrefFor(t);
      else
        b.role = "scalar";
      buffers.push_back(b);
    } else if (isa<alg::DefineOp, alg::OnlineReduceOp>(op)) {
      // A stream's exports (values it stores too) are buffers after its
      // result, over their part of its domain.
      auto stream = dyn_cast<alg::OnlineReduceOp>(op);
      auto dims = op.getAttrOfType<ArrayAttr>("dims");
      for (auto [i, result] : llvm::enumerate(op.getResults())) {
        bool isOutput = llvm::is_contained(ret.getOutputs(), result);
        auto name = cast<StringAttr>(i == 0 ? op.getAttr("name")
                                            : (*stream.getExports())[i - 1]);
        ArrayAttr bufferDims = dims;
        if (i > 0) {
          SmallVector<Attribute> kept;
          for (unsigned p : stream.getExportDimPositions(i - 1))
            kept.push_back(dims[p]);
          bufferDims = ArrayAttr::get(ctx, kept);
        }
        buffers.push_back({name.str(), isOutput ? "output" : "workspace",
                           memrefFor(cast<RankedTensorType>(result.getType())),
                           bufferDims, result});
      }
    }
  }
  // Outputs in the kernel's order (the runtime returns them in buffer
  // order): a stream's export comes after its result, though its
  // definition came first.
  SmallVector<size_t> outputSlots;
  SmallVector<Buffer> outputs;
  for (auto [i, b] : llvm::enumerate(buffers))
    if (b.role == "output") {
      outputSlots.push_back(i);
      outputs.push_back(b);
    }
  llvm::stable_sort(outputs, [&](const Buffer &a, const Buffer &b) {
    return llvm::find(ret.getOutputs(), a.algValue) <
           llvm::find(ret.getOutputs(), b.algValue);
  });
  for (auto [slot, b] : llvm::zip(outputSlots, outputs))
    buffers[slot] = b;
  for (Operation &op : kernel.getBody().front()) {
    if (auto def = dyn_cast<alg::DefineOp>(op); def && failed(lowerDefine(def)))
      return failure();
    if (auto stream = dyn_cast<alg::OnlineReduceOp>(op);
        stream && failed(lowerStream(stream)))
      return failure();
  }

  builder.setInsertionPoint(kernel);
  SmallVector<Attribute> bufferAttrs;
  for (const Buffer &b : buffers) {
    NamedAttrList entry;
    entry.append("name", builder.getStringAttr(b.name));
    entry.append("role", builder.getStringAttr(b.role));
    entry.append("type", TypeAttr::get(b.type));
    entry.append("dims", b.dims);
    bufferAttrs.push_back(entry.getDictionary(ctx));
  }
  tile::PlanOp::create(builder, kernel.getLoc(), kernel.getSymNameAttr(),
                       kernel.getSizes(), kernel.getBindingsAttr(),
                       /*derived_sizes=*/DictionaryAttr(),
                       builder.getArrayAttr(bufferAttrs),
                       builder.getArrayAttr(programs));
  return success();
}

LogicalResult KernelLowering::copyRegion(Block &from, IRMapping &mapping,
                                         tile::ProgramOp program,
                                         VectorType shape,
                                         ArrayRef<Value> outputIndex,
                                         ArrayRef<Value> reducedIndex,
                                         SmallVectorImpl<Value> &yielded) {
  Location loc = program.getLoc();
  Block &entry = program.getBody().front();
  // Index arguments: tile.index for output dimensions (made on first use),
  // broadcast reduction indices.
  for (auto [i, arg] : llvm::enumerate(from.getArguments())) {
    if (!arg.getType().isIndex() || arg.use_empty())
      continue;
    if (i < outputIndex.size())
      mapping.map(arg, outputIndex[i]);
    else
      mapping.map(arg, broadcast(reducedIndex[i - outputIndex.size()], shape,
                                 arg.getLoc()));
  }
  // Values from outside the region are scalar inputs, or constants a
  // canonicalization hoisted out of the body: broadcast to the tile.
  auto mapOuter = [&](Value v, Location at) -> LogicalResult {
    if (mapping.contains(v))
      return success();
    if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
      auto type = VectorType::get(shape.getShape(), c.getType());
      mapping.map(v, arith::ConstantOp::create(
                         builder, c.getLoc(), type,
                         DenseElementsAttr::get(type, c.getValue())));
      return success();
    }
    auto it = llvm::find_if(buffers,
                            [&](const Buffer &b) { return b.algValue == v; });
    if (it == buffers.end())
      return failure();
    mapping.map(v, broadcast(entry.getArgument(it - buffers.begin()), shape,
                             at));
    return success();
  };
  for (Operation &op : from) {
    if (auto yield = dyn_cast<alg::YieldOp>(op)) {
      // (a definition may yield a scalar input as it is: C[i] = s)
      for (Value v : yield.getValues()) {
        if (failed(mapOuter(v, yield.getLoc())))
          return yield.emitOpError("yields a value the tile program cannot see");
        yielded.push_back(mapping.lookup(v));
      }
      return success();
    }
    if (auto reduce = dyn_cast<alg::ReduceOp>(op)) {
      if (failed(copyReduce(reduce, mapping, program, shape, outputIndex,
                            reducedIndex)))
        return failure();
      continue;
    }
    if (auto load = dyn_cast<alg::LoadOp>(op)) {
      auto it = llvm::find_if(buffers, [&](const Buffer &b) {
        return b.algValue == load.getTensor();
      });
      Value buffer = entry.getArgument(it - buffers.begin());
      SmallVector<Value> indirect;
      for (Value v : load.getIndirect())
        indirect.push_back(mapping.lookup(v));
      auto type = VectorType::get(shape.getShape(), load.getType());
      mapping.map(load.getResult(),
                  tile::LoadOp::create(builder, load.getLoc(), type, buffer,
                                       indirect, load.getMapAttr(),
                                       load.getIndirectPositionsAttr()));
      continue;
    }
    if (auto size = dyn_cast<alg::SizeOp>(op)) {
      mapping.map(size.getResult(),
                  broadcast(program.getSizeArg(size.getName()), shape,
                            size.getLoc()));
      continue;
    }
    if (auto apply = dyn_cast<alg::ApplyOp>(op)) {
      // Expand the affine expression on index tiles.
      SmallVector<Value> dims;
      for (BlockArgument arg : from.getArguments())
        if (arg.getType().isIndex()) {
          unsigned i = arg.getArgNumber();
          dims.push_back(i < outputIndex.size()
                             ? outputIndex[i]
                             : broadcast(reducedIndex[i - outputIndex.size()],
                                         shape, loc));
        }
      SmallVector<Value> syms;
      for (Attribute s : program.getSizes())
        syms.push_back(broadcast(
            program.getSizeArg(cast<StringAttr>(s).getValue()), shape, loc));
      auto indexTile = VectorType::get(shape.getShape(), builder.getIndexType());
      mapping.map(apply.getResult(),
                  expandAffine(builder, loc, apply.getMap().getResult(0),
                               indexTile, dims, syms));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = VectorType::get(shape.getShape(), constant.getType());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(
                      builder, constant.getLoc(), type,
                      DenseElementsAttr::get(type, constant.getValue())));
      continue;
    }
    if (op.getNumRegions() != 0 || op.getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
      return op.emitOpError("cannot be turned into tile code");
    for (Value operand : op.getOperands())
      if (failed(mapOuter(operand, op.getLoc())))
        return op.emitOpError("uses a value the tile program cannot see");
    Operation *copy = builder.clone(op, mapping);
    Type scalar = op.getResult(0).getType();
    copy->getResult(0).setType(VectorType::get(shape.getShape(), scalar));
  }
  return failure();
}

SmallVector<Value> KernelLowering::extentValues(tile::ProgramOp program,
                                                ArrayAttr dims, Location loc) {
  SmallVector<Value> extents;
  for (Attribute d : dims) {
    if (auto s = dyn_cast<StringAttr>(d))
      extents.push_back(program.getSizeArg(s.getValue()));
    else
      extents.push_back(arith::ConstantIndexOp::create(
          builder, loc, cast<IntegerAttr>(d).getInt()));
  }
  return extents;
}

LogicalResult KernelLowering::copyReduce(alg::ReduceOp reduce,
                                         IRMapping &mapping,
                                         tile::ProgramOp program,
                                         VectorType shape,
                                         ArrayRef<Value> outputIndex,
                                         ArrayRef<Value> reducedIndex) {
  Location loc = reduce.getLoc();
  SmallVector<Value> extents;
  {
    // The extents are sizes or constants: made at the program's start.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&program.getBody().front());
    extents = extentValues(program, reduce.getReduceDims(), loc);
  }
  auto accType = VectorType::get(shape.getShape(), reduce.getType());
  FailureOr<tile::ReduceOp> tileReduce =
      buildReduce(reduce.getBody().front(), extents, reduce.getKind(), accType,
                  program, outputIndex, reducedIndex);
  if (failed(tileReduce))
    return failure();
  mapping.map(reduce.getResult(), tileReduce->getResult());
  return success();
}

FailureOr<tile::ReduceOp> KernelLowering::buildReduce(
    Block &from, ValueRange extents, alg::ReductionKind kind,
    VectorType accType, tile::ProgramOp program, ArrayRef<Value> outputIndex,
    ArrayRef<Value> enclosingReduced) {
  Location loc = program.getLoc();
  auto reduce = tile::ReduceOp::create(builder, loc, accType, extents, kind);
  Block *body = builder.createBlock(&reduce.getBody());
  SmallVector<Value> reduced(enclosingReduced);
  for (unsigned i = 0; i < extents.size(); ++i)
    reduced.push_back(body->addArgument(builder.getIndexType(), loc));
  Value folded;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(body);
    IRMapping mapping;
    if (failed(copyRegion(from, mapping, program, accType, outputIndex,
                          reduced, folded)))
      return failure();
    tile::YieldOp::create(builder, loc, folded);
  }
  builder.setInsertionPointAfter(reduce);
  return reduce;
}

tile::ProgramOp KernelLowering::createProgram(Location loc, StringRef name,
                                              ArrayAttr dims,
                                              SmallVectorImpl<Value> &outputIndex) {
  MLIRContext *ctx = kernel.getContext();
  SmallVector<std::optional<int64_t>> extents;
  for (Attribute d : dims)
    extents.push_back(extentOf(d));
  tile::ScheduleAttr schedule = schedules.elementwise(ctx, extents, target);

  SmallVector<Attribute> argNames;
  SmallVector<Type> argTypes;
  for (const Buffer &b : buffers) {
    argNames.push_back(builder.getStringAttr(b.name));
    argTypes.push_back(b.type);
  }
  for (unsigned i = 0; i < kernel.getSizes().size(); ++i)
    argTypes.push_back(builder.getIndexType());

  builder.setInsertionPoint(kernel);
  std::string programName = (kernel.getSymName() + "_" + name).str();
  auto program = tile::ProgramOp::create(
      builder, loc, builder.getStringAttr(programName),
      builder.getArrayAttr(argNames), kernel.getSizes(), dims, schedule);
  programs.push_back(SymbolRefAttr::get(ctx, programName));
  Block *entry = builder.createBlock(&program.getBody());
  for (Type t : argTypes)
    entry->addArgument(t, loc);
  builder.setInsertionPointToStart(entry);

  auto indexTile = VectorType::get(schedule.getTile(), builder.getIndexType());
  for (unsigned d = 0; d < dims.size(); ++d)
    outputIndex.push_back(tile::IndexOp::create(builder, loc, indexTile, d));
  return program;
}

void KernelLowering::finishProgram(tile::ProgramOp program, Value result,
                                   Value value, std::optional<int64_t> reduced,
                                   std::optional<ReductionShape> reduction,
                                   const ReductionScheduleOptions &options) {
  Location loc = program.getLoc();
  auto it = llvm::find_if(buffers,
                          [&](const Buffer &b) { return b.algValue == value; });
  tile::StoreOp::create(builder, loc, result,
                        program.getBody().front().getArgument(it - buffers.begin()));
  tile::ReturnOp::create(builder, loc);
  MLIRContext *ctx = kernel.getContext();
  SmallVector<std::optional<int64_t>> extents;
  for (Attribute d : program.getOutputDims())
    extents.push_back(extentOf(d));
  if (reduction)
    program.retile(schedules.reduction(ctx, extents, reduced, *reduction,
                                       target, options));
  program.retile(schedules.vectorRuns(program, target));
}

LogicalResult KernelLowering::lowerDefine(alg::DefineOp def) {
  Location loc = def.getLoc();
  SmallVector<Value> outputIndex;
  tile::ProgramOp program =
      createProgram(loc, def.getName(), def.getDims(), outputIndex);
  auto elementType = cast<RankedTensorType>(def.getType()).getElementType();
  VectorType shape = program.getTileType(elementType);

  Value result;
  if (!def.isReduction()) {
    IRMapping mapping;
    if (failed(copyRegion(def.getBody().front(), mapping, program, shape,
                          outputIndex, {}, result)))
      return failure();
    finishProgram(program, result, def.getResult(), std::nullopt,
                  std::nullopt);
    return success();
  }
  SmallVector<Value> reduceExtents =
      extentValues(program, def.getReduceDimsAttr(), loc);
  auto accType = VectorType::get(shape.getShape(), def.getBodyType());
  FailureOr<tile::ReduceOp> reduce =
      buildReduce(def.getBody().front(), reduceExtents, *def.getKind(),
                  accType, program, outputIndex, {});
  if (failed(reduce))
    return failure();
  result = reduce->getResult();
  if (!def.getEpilogue().empty()) {
    Block &epilogue = def.getEpilogue().front();
    IRMapping mapping;
    mapping.map(epilogue.getArgument(def.getRank()), result);
    if (failed(copyRegion(epilogue, mapping, program, shape, outputIndex, {},
                          result)))
      return failure();
  }
  finishProgram(program, result, def.getResult(),
                extentOf(def.getReduceDimsAttr()[0]),
                reductionShapeOf(program, *reduce));
  return success();
}

LogicalResult KernelLowering::lowerStream(alg::OnlineReduceOp stream) {
  Location loc = stream.getLoc();
  SmallVector<Value> outputIndex;
  tile::ProgramOp program =
      createProgram(loc, stream.getName(), stream.getDims(), outputIndex);
  auto elementType =
      cast<RankedTensorType>(stream.getResult().getType()).getElementType();
  VectorType shape = program.getTileType(elementType);
  auto accType = VectorType::get(shape.getShape(), stream.getAccumulatorType());
  unsigned count = stream.getAccumulators().size();
  Value extent = extentValues(program, stream.getOver(), loc).front();
  auto online = tile::OnlineReduceOp::create(
      builder, loc, SmallVector<Type>(count, accType), extent,
      stream.getAccumulators(), stream.getRepairs().size());
  Block &from = stream.getBody().front();
  unsigned rank = stream.getRank();
  Block *body = builder.createBlock(&online.getBody());
  Value index = body->addArgument(builder.getIndexType(), loc);
  IRMapping mapping;
  for (BlockArgument leader : from.getArguments().drop_front(rank + 1))
    mapping.map(leader, body->addArgument(accType, loc));
  SmallVector<Value> terms;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(body);
    if (failed(copyRegion(from, mapping, program, accType, outputIndex,
                          {index}, terms)))
      return failure();
    tile::YieldOp::create(builder, loc, terms);
  }
  for (auto [region, repair] :
       llvm::zip(online.getRepairs(), stream.getRepairs())) {
    OpBuilder::InsertionGuard guard(builder);
    Block &theirs = repair.front();
    Block *block = builder.createBlock(&region);
    IRMapping inner;
    for (BlockArgument arg : theirs.getArguments())
      inner.map(arg, block->addArgument(accType, loc));
    SmallVector<Value> factors;
    if (failed(copyRegion(theirs, inner, program, accType, outputIndex, {},
                          factors)))
      return failure();
    tile::YieldOp::create(builder, loc, factors);
  }
  builder.setInsertionPointAfter(online);
  Block &epilogue = stream.getEpilogue().front();
  IRMapping epilogueMapping;
  for (unsigned i = 0; i < count; ++i)
    epilogueMapping.map(epilogue.getArgument(rank + i), online.getResult(i));
  SmallVector<Value> stored; // the result, then each export
  if (failed(copyRegion(epilogue, epilogueMapping, program, shape, outputIndex,
                        {}, stored)))
    return failure();
  Value result = stored.front();
  for (auto [e, exported] : llvm::enumerate(stream.getExported())) {
    auto it = llvm::find_if(
        buffers, [&](const Buffer &b) { return b.algValue == exported; });
    SmallVector<int64_t> along;
    for (unsigned p : stream.getExportDimPositions(e))
      along.push_back(p);
    auto store = tile::StoreOp::create(
        builder, loc, stored[1 + e],
        program.getBody().front().getArgument(it - buffers.begin()));
    if (along.size() < stream.getRank())
      store.setAlong(along);
  }
  // Scores recomputed in the stream: one program per query row computes
  // them (on the CPU, where the tile then spans the head dimension; on a
  // GPU the stream is a flash kernel). A stream of a row's own values is
  // shared by groups of threads on a GPU as a reduction of rows is.
  ReductionScheduleOptions options;
  options.stream = true;
  stream.getBody().walk([&](alg::ReduceOp) { options.wholeInnermost = true; });
  options.sharedLoadGroups = sharedLoadGroups(program);
  if (target.isGPU())
    options.flashHeads = flashHeadLimit(program);
  finishProgram(program, result, stream.getResult(),
                extentOf(stream.getOver()[0]),
                reductionShapeOf(program, online), options);
  return success();
}

struct ConvertAlgToTilePass
    : public SchedulingPass<
          nautilus::impl::ConvertAlgToTileBase<ConvertAlgToTilePass>> {
  using SchedulingPass::SchedulingPass;

  void runOnOperation() override {
    std::optional<TargetInfo> info = moduleTarget();
    if (!info)
      return;
    SmallVector<alg::KernelOp> kernels(getOperation().getOps<alg::KernelOp>());
    for (alg::KernelOp kernel : kernels) {
      if (failed(KernelLowering(kernel, *info, *schedules).run()))
        return signalPassFailure();
      kernel.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass>
nautilus::createConvertAlgToTile(std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<ConvertAlgToTilePass>(std::move(schedules));
}
