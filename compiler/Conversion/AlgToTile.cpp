//===- AlgToTile.cpp - alg kernels to tile programs -----------------------===//
//
// One tile.program per alg.define. The program's values are tiles: every
// scalar of the alg body becomes a vector of the tile shape, so the body is
// copied op by op with vector types. Indices become `tile.index` (output
// dimensions) or the `tile.reduce` block arguments (reduced dimensions).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Target/Target.h"

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
  LogicalResult lowerDefine(alg::DefineOp def, unsigned index);
  LogicalResult copyRegion(Block &from, IRMapping &mapping,
                           tile::ProgramOp program, VectorType shape,
                           ArrayRef<Value> outputIndex,
                           ArrayRef<Value> reducedIndex, Value &yielded);
  Value broadcast(Value scalar, VectorType shape, Location loc) {
    auto type = VectorType::get(shape.getShape(), scalar.getType());
    return vector::BroadcastOp::create(builder, loc, type, scalar);
  }
  std::optional<int64_t> extentOf(Attribute dim) {
    if (auto name = dyn_cast<StringAttr>(dim))
      return kernel.getBinding(name.getValue());
    return cast<IntegerAttr>(dim).getInt();
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
    } else if (auto def = dyn_cast<alg::DefineOp>(op)) {
      bool isOutput = llvm::is_contained(ret.getOutputs(), def.getResult());
      buffers.push_back({def.getName().str(),
                         isOutput ? "output" : "workspace",
                         memrefFor(cast<RankedTensorType>(def.getType())),
                         def.getDims(), def.getResult()});
    }
  }
  unsigned index = 0;
  for (auto def : kernel.getBody().getOps<alg::DefineOp>())
    if (failed(lowerDefine(def, index++)))
      return failure();

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
                                         Value &yielded) {
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
      if (failed(mapOuter(yield.getValue(), yield.getLoc())))
        return yield.emitOpError("yields a value the tile program cannot see");
      yielded = mapping.lookup(yield.getValue());
      return success();
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

/// How `reduce` (in `program`) reads what it folds (ReductionShape): each
/// read that depends on the outermost reduced index must depend on every
/// output dimension (no two elements of a tile share it, as a GEMM's tile
/// shares A across its columns) and be contiguous along the reduced index
/// (rows) or along the output's innermost dimension, the reduced index an
/// outer one (columns); and there must be such a read.
static ReductionShape reductionShape(tile::ProgramOp program,
                                     tile::ReduceOp reduce) {
  unsigned rank = program.getRank(), reducedDim = rank;
  bool rows = true, columns = rank > 0, any = false;
  reduce.getBody().walk([&](tile::LoadOp load) {
    AffineMap map = load.getMap();
    auto involves = [&](unsigned d) {
      return llvm::any_of(map.getResults(),
                          [&](AffineExpr e) { return e.isFunctionOfDim(d); });
    };
    if (!involves(reducedDim))
      return;
    any = true;
    auto type = cast<MemRefType>(load.getBuffer().getType());
    bool everyOutput = true;
    for (unsigned d = 0; d < rank; ++d)
      everyOutput &= involves(d);
    if (!everyOutput || !load.getIndirect().empty() ||
        !type.getLayout().isIdentity()) {
      rows = columns = false;
      return;
    }
    rows &= isContiguousAlong(map, reducedDim);
    columns &= rank > 0 && isContiguousAlong(map, rank - 1);
  });
  if (!any)
    return ReductionShape::Other;
  return rows ? ReductionShape::Rows
              : columns ? ReductionShape::Columns : ReductionShape::Other;
}

LogicalResult KernelLowering::lowerDefine(alg::DefineOp def, unsigned index) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = def.getLoc();
  SmallVector<std::optional<int64_t>> extents;
  for (Attribute d : def.getDims())
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
  std::string name = (kernel.getSymName() + "_" + def.getName()).str();
  auto program = tile::ProgramOp::create(
      builder, loc, builder.getStringAttr(name), builder.getArrayAttr(argNames),
      kernel.getSizes(), def.getDims(), schedule);
  programs.push_back(SymbolRefAttr::get(ctx, name));
  Block *entry = builder.createBlock(&program.getBody());
  for (Type t : argTypes)
    entry->addArgument(t, loc);
  builder.setInsertionPointToStart(entry);

  auto elementType = cast<RankedTensorType>(def.getType()).getElementType();
  VectorType shape = program.getTileType(elementType);
  auto indexTile = VectorType::get(schedule.getTile(), builder.getIndexType());
  SmallVector<Value> outputIndex;
  for (unsigned d = 0; d < def.getRank(); ++d)
    outputIndex.push_back(
        tile::IndexOp::create(builder, loc, indexTile, d));

  Value result;
  tile::ReduceOp reduction;
  std::optional<int64_t> reducedExtent;
  if (!def.isReduction()) {
    IRMapping mapping;
    if (failed(copyRegion(def.getBody().front(), mapping, program, shape,
                          outputIndex, {}, result)))
      return failure();
  } else {
    SmallVector<Value> reduceExtents;
    for (Attribute d : def.getReduceDimsAttr()) {
      if (auto s = dyn_cast<StringAttr>(d))
        reduceExtents.push_back(program.getSizeArg(s.getValue()));
      else
        reduceExtents.push_back(arith::ConstantIndexOp::create(
            builder, loc, cast<IntegerAttr>(d).getInt()));
    }
    auto accType = VectorType::get(schedule.getTile(), def.getBodyType());
    auto reduce = tile::ReduceOp::create(builder, loc, accType, reduceExtents,
                                         *def.getKind());
    Block *body = builder.createBlock(&reduce.getBody());
    SmallVector<Value> reduced;
    for (unsigned i = 0; i < reduceExtents.size(); ++i)
      reduced.push_back(body->addArgument(builder.getIndexType(), loc));
    Value folded;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(body);
      IRMapping mapping;
      if (failed(copyRegion(def.getBody().front(), mapping, program, accType,
                            outputIndex, reduced, folded)))
        return failure();
      tile::YieldOp::create(builder, loc, folded);
    }
    builder.setInsertionPointAfter(reduce);
    result = reduce.getResult();
    reducedExtent = extentOf(def.getReduceDimsAttr()[0]);
    reduction = reduce;
    if (!def.getEpilogue().empty()) {
      Block &epilogue = def.getEpilogue().front();
      IRMapping mapping;
      mapping.map(epilogue.getArgument(def.getRank()), result);
      if (failed(copyRegion(epilogue, mapping, program, shape, outputIndex, {},
                            result)))
        return failure();
    }
  }
  auto it = llvm::find_if(
      buffers, [&](const Buffer &b) { return b.algValue == def.getResult(); });
  tile::StoreOp::create(builder, loc, result,
                        entry->getArgument(it - buffers.begin()));
  tile::ReturnOp::create(builder, loc);
  if (reduction)
    program.retile(schedules.reduction(ctx, extents, reducedExtent,
                                       reductionShape(program, reduction),
                                       target, ReductionScheduleOptions()));
  program.retile(schedules.vectorRuns(program, target));
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
