//===- GroupRoutedContractions.cpp - MoE contractions as grouped GEMMs ----===//
//
// A contraction whose weights are gathered per output row through a routing
// table (a mixture of experts: `G[t, j, f] = sum[d](X[t, d] *
// W[ids[t, j], d, f])`) cannot run on tensor cores as written: the rows of
// one tile use different experts' weights. This pass buckets the rows by
// expert first (`tile.route`) and computes the contraction over the bucketed
// rows, a block of rows sharing one expert, so that tile-form-contractions
// can make it a grouped GEMM (see TileGroupRoutedContractions in
// Passes.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "compiler/Transforms/Tile/Passes.h"
#include "compiler/Target/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace nautilus {
#define GEN_PASS_DEF_TILEGROUPROUTEDCONTRACTIONS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// Rows of a block share an expert: a contraction's tile of rows must
/// divide it (tile-form-contractions takes at most 128).
constexpr int64_t kRouteBlock = 128;
/// The threads of the routing program.
constexpr int64_t kRouteThreads = 256;

/// The routing table read by an index: `index_cast(load ids[map])` (the
/// load possibly sign-extended first) with the map's results distinct
/// output dimensions; null otherwise.
tile::LoadOp routingLoad(Value index, unsigned rank) {
  auto cast = index.getDefiningOp<arith::IndexCastOp>();
  if (!cast)
    return {};
  Value in = cast.getIn();
  if (auto ext = in.getDefiningOp<arith::ExtSIOp>())
    in = ext.getIn();
  auto load = in.getDefiningOp<tile::LoadOp>();
  if (!load || !load.getIndirect().empty() ||
      !load.getType().getElementType().isInteger(32))
    return {};
  llvm::SmallDenseSet<unsigned> seen;
  for (AffineExpr e : load.getMap().getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() >= rank || !seen.insert(dim.getPosition()).second)
      return {};
  }
  return load;
}

/// A program computing a routed contraction, or sibling contractions
/// routed by the same table (a mixture of experts' gate and up
/// projections, alg-fuse-shared-operands' siblings), as found.
struct Routed {
  tile::ProgramOp program;
  /// W[...] indirect(expert) at [...], one a contraction, and which of
  /// each's indirect operands is the expert.
  SmallVector<tile::LoadOp, 1> weights;
  SmallVector<unsigned, 1> expertOperands;
  Value ids;              // the routing table (a block argument)
  SmallVector<unsigned> rowDims; // output dims the table reads, in its order
  unsigned nDim;          // the other output dimension
  BlockArgument output;   // the workspace the program stores
  Attribute experts;      // the extent of W's expert dimension
};

class Grouper {
public:
  Grouper(ModuleOp module, tile::PlanOp plan, const TargetInfo &target,
          ScheduleProvider &schedules)
      : module(module), plan(plan), target(target), schedules(schedules) {}

  /// The program's routed contraction, if it is one this pass can group.
  std::optional<Routed> analyse(tile::ProgramOp program) {
    unsigned rank = program.getRank();
    if (rank < 2 || program.getSchedule().getMma())
      return std::nullopt;
    std::optional<Routed> found;
    tile::StoreOp store;
    bool ok = true;
    program.walk([&](Operation *op) {
      if (auto s = dyn_cast<tile::StoreOp>(op)) {
        ok &= !store;
        store = s;
        return;
      }
      if (op == program ||
          isa<tile::ReturnOp, tile::YieldOp, tile::ReduceOp, tile::IndexOp,
              tile::LoadOp>(op) ||
          (op->getNumRegions() == 0 && op->getNumResults() == 1 &&
           isa<arith::ArithDialect, math::MathDialect, vector::VectorDialect>(
               op->getDialect())))
        return;
      ok = false; // another op: leave the program alone
    });
    if (!ok || !store)
      return std::nullopt;
    program.walk([&](tile::LoadOp load) {
      for (auto [i, index] : llvm::enumerate(load.getIndirect())) {
        tile::LoadOp table = routingLoad(index, rank);
        // (A read through a slot this pass made is not a routing.)
        if (!table || isSlot(table.getBuffer()))
          continue;
        SmallVector<unsigned> rowDims;
        for (AffineExpr e : table.getMap().getResults())
          rowDims.push_back(cast<AffineDimExpr>(e).getPosition());
        if (found) {
          // Siblings' weights, routed by the same table at the same rows;
          // anything else is two routings.
          if (found->ids != table.getBuffer() || found->rowDims != rowDims ||
              llvm::is_contained(found->weights, load)) {
            ok = false;
            return;
          }
          found->weights.push_back(load);
          found->expertOperands.push_back(i);
          continue;
        }
        Routed r;
        r.program = program;
        r.weights = {load};
        r.expertOperands = {unsigned(i)};
        r.ids = table.getBuffer();
        r.rowDims = rowDims;
        found = r;
      }
    });
    if (!ok || !found || found->rowDims.size() + 1 != rank ||
        !isa<BlockArgument>(found->ids))
      return std::nullopt;
    Routed &r = *found;
    for (unsigned d = 0; d < rank; ++d)
      if (!llvm::is_contained(r.rowDims, d))
        r.nDim = d;
    // The weights' other indices read N and K, not the rows.
    for (tile::LoadOp weights : r.weights)
      for (AffineExpr e : weights.getMap().getResults())
        if (llvm::any_of(r.rowDims,
                         [&](unsigned d) { return e.isFunctionOfDim(d); }))
          return std::nullopt;
    // Every other read names a row only as a whole index.
    bool plain = true;
    program.walk([&](Operation *op) {
      if (auto index = dyn_cast<tile::IndexOp>(op))
        plain &= index.use_empty() ||
                 !llvm::is_contained(r.rowDims, index.getDim());
      if (auto load = dyn_cast<tile::LoadOp>(op))
        for (AffineExpr e : load.getMap().getResults())
          for (unsigned d : r.rowDims)
            plain &= !e.isFunctionOfDim(d) || isa<AffineDimExpr>(e);
    });
    if (!plain)
      return std::nullopt;
    // A workspace the kernel's other programs only read, plainly.
    auto output = dyn_cast<BlockArgument>(store.getBuffer());
    if (!output || program.getBufferRole(output.getArgNumber()) != "workspace")
      return std::nullopt;
    r.output = output;
    for (auto other : module.getOps<tile::ProgramOp>()) {
      Value buffer = other.getBody().getArgument(output.getArgNumber());
      for (Operation *user : buffer.getUsers()) {
        if (other == program && user == store)
          continue;
        auto load = dyn_cast<tile::LoadOp>(user);
        if (other == program || !load || !load.getIndirect().empty() ||
            load.getBuffer() != buffer)
          return std::nullopt;
      }
    }
    // Every weight tensor has as many experts (the routing's buckets).
    for (auto [weights, operand] : llvm::zip(r.weights, r.expertOperands)) {
      ArrayAttr weightDims = program.getBufferDims(
          cast<BlockArgument>(weights.getBuffer()).getArgNumber());
      if (!weightDims)
        return std::nullopt;
      Attribute experts = weightDims[weights.getIndirectPositions()[operand]];
      if (r.experts && r.experts != experts)
        return std::nullopt;
      r.experts = experts;
    }
    return r;
  }

  void group(Routed &r) {
    const RouteBuffers &route = routeFor(r);
    tile::ProgramOp program = r.program;
    MLIRContext *ctx = module.getContext();
    unsigned oldRank = program.getRank();
    Attribute nExtent = program.getOutputDims()[r.nDim];

    SmallVector<tile::LoadOp> loads;
    program.walk([&](tile::LoadOp load) { loads.push_back(load); });
    // Loads through a row's own slot first, while the slot read is as
    // written.
    std::stable_partition(loads.begin(), loads.end(), [&](tile::LoadOp load) {
      return llvm::any_of(load.getIndirect(), [&](Value index) {
        return isOwnSlot(r, route, index);
      });
    });
    for (tile::LoadOp load : loads)
      reindexLoad(r, route, load, oldRank);
    // Reads (of slots, say) that no load needs any more.
    SmallVector<Operation *> ops;
    program.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op))
        op->erase();
    program.walk([&](tile::IndexOp index) {
      if (index.use_empty())
        index.erase();
      else
        index.setDim(1); // N: analyse rejected used indices of rows
    });
    program.setOutputDimsAttr(
        ArrayAttr::get(ctx, {StringAttr::get(ctx, route.rows), nExtent}));
    program.retile(schedules.elementwise(
        ctx, {program.getKnownExtent(program.getOutputDims()[0]),
              program.getKnownExtent(nExtent)},
        target));
    // Blocks past the last expert's hold no row, and nothing reads their
    // rows back (the other programs read rows through their slots; one
    // grouped by this routing skips them too): skip them.
    OpBuilder b = OpBuilder::atBlockBegin(&program.getBody().front());
    auto blockOfRow = AffineMap::get(
        2, program.getSizes().size(),
        b.getAffineDimExpr(0).floorDiv(kRouteBlock));
    tile::SkipIfNegativeOp::create(
        b, program.getLoc(),
        program.getBody().getArgument(route.blockExperts),
        AffineMapAttr::get(blockOfRow));

    // The workspace now holds the bucketed rows; readers find a row's
    // through its slot.
    unsigned arg = r.output.getArgNumber();
    auto oldType = cast<MemRefType>(r.output.getType());
    auto newType = MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                                   oldType.getElementType());
    ArrayAttr oldDims = program.getBufferDims(arg);
    for (auto other : module.getOps<tile::ProgramOp>()) {
      BlockArgument buffer = other.getBody().getArgument(arg);
      buffer.setType(newType);
      if (other == program)
        continue;
      SmallVector<tile::LoadOp> readers;
      for (Operation *user : buffer.getUsers())
        readers.push_back(cast<tile::LoadOp>(user));
      for (tile::LoadOp reader : readers)
        readThroughSlot(r, route, other, reader);
    }
    SmallVector<Attribute> buffers(plan.getBuffers().getValue());
    NamedAttrList entry(cast<DictionaryAttr>(buffers[arg]));
    entry.set("type", TypeAttr::get(newType));
    entry.set("dims", ArrayAttr::get(ctx, {StringAttr::get(ctx, route.rows),
                                           oldDims[r.nDim]}));
    buffers[arg] = entry.getDictionary(ctx);
    plan.setBuffersAttr(ArrayAttr::get(ctx, buffers));
  }

private:
  /// What routing one table produced: buffer argument numbers and the
  /// capacity size's name.
  struct RouteBuffers {
    std::string rows;
    unsigned order, slot, blockExperts;
    SmallVector<Attribute> idsDims;
  };

  bool isSlot(Value buffer) {
    auto arg = dyn_cast<BlockArgument>(buffer);
    return arg && llvm::any_of(routes, [&](const auto &route) {
             return route.second.slot == arg.getArgNumber();
           });
  }

  /// The routing of `r`'s table, created (with its program, before `r`'s)
  /// the first time.
  const RouteBuffers &routeFor(const Routed &r) {
    unsigned idsArg = cast<BlockArgument>(r.ids).getArgNumber();
    auto [it, inserted] = routes.try_emplace(idsArg);
    RouteBuffers &route = it->second;
    if (!inserted)
      return route;
    MLIRContext *ctx = module.getContext();
    tile::ProgramOp program = r.program;
    std::string ids =
        cast<StringAttr>(program.getArgNames()[idsArg]).getValue().str();
    ArrayAttr idsDims = program.getBufferDims(idsArg);
    route.idsDims.assign(idsDims.begin(), idsDims.end());

    // Capacity: every row, and a partial block per expert.
    route.rows = "routed(" + ids + ")";
    rt::DerivedSize rows;
    rows.name = route.rows;
    rows.terms.resize(2);
    for (Attribute d : idsDims)
      multiply(rows.terms[0], d);
    rows.terms[1].coefficient = kRouteBlock - 1;
    multiply(rows.terms[1], r.experts);
    addDerivedSize(module, plan, rows);

    auto i32 = IntegerType::get(ctx, 32);
    auto vector1 = MemRefType::get({ShapedType::kDynamic}, i32);
    auto rowsDim = StringAttr::get(ctx, route.rows);
    route.order = addKernelBuffer(module, plan, ids + ".order", "workspace",
                                  vector1, {rowsDim});
    SmallVector<int64_t> idsShape(idsDims.size(), ShapedType::kDynamic);
    route.slot = addKernelBuffer(module, plan, ids + ".slot", "workspace",
                                 MemRefType::get(idsShape, i32),
                                 route.idsDims);
    route.blockExperts =
        addKernelBuffer(module, plan, ids + ".block_experts", "workspace",
                        vector1, {rowsDim});
    unsigned starts = addKernelBuffer(module, plan, ids + ".starts",
                                      "workspace", vector1, {r.experts});

    // The routing program, launched before the first grouped one.
    OpBuilder b(program);
    Location loc = program.getLoc();
    std::string name = (plan.getSymName() + "_route_" + ids).str();
    auto routeProgram = tile::ProgramOp::create(
        b, loc, name, program.getArgNames(), program.getSizes(),
        ArrayAttr::get(ctx, {b.getI64IntegerAttr(kRouteThreads)}),
        tile::ScheduleAttr::get(ctx, {kRouteThreads}, kRouteThreads));
    Block *entry = new Block();
    routeProgram.getBody().push_back(entry);
    for (Type t : program.getBody().front().getArgumentTypes())
      entry->addArgument(t, loc);
    b.setInsertionPointToStart(entry);
    Value experts;
    if (auto literal = dyn_cast<IntegerAttr>(r.experts))
      experts = arith::ConstantIndexOp::create(b, loc, literal.getInt());
    else
      experts =
          routeProgram.getSizeArg(cast<StringAttr>(r.experts).getValue());
    tile::RouteOp::create(b, loc, entry->getArgument(idsArg), experts,
                          b.getI64IntegerAttr(kRouteBlock),
                          entry->getArgument(route.order),
                          entry->getArgument(route.slot),
                          entry->getArgument(route.blockExperts),
                          entry->getArgument(starts));
    tile::ReturnOp::create(b, loc);
    launchBefore(plan, name, program.getSymName());
    return route;
  }

  static void multiply(rt::DerivedSize::Term &term, Attribute dim) {
    if (auto literal = dyn_cast<IntegerAttr>(dim))
      term.coefficient *= literal.getInt();
    else
      term.factors.push_back(cast<StringAttr>(dim).getValue().str());
  }

  /// A tile of `type`'s shape holding index `dim` of the program (a size
  /// or literal) at every element.
  Value splatExtent(OpBuilder &b, Location loc, tile::ProgramOp program,
                    Attribute dim, VectorType type) {
    if (auto literal = dyn_cast<IntegerAttr>(dim))
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getIndexAttr(literal.getInt())));
    Value size = program.getSizeArg(cast<StringAttr>(dim).getValue());
    return vector::BroadcastOp::create(b, loc, type, size);
  }

  /// Loads `buffer` (a program argument) at the single index `expr` of the
  /// grouped program's dims (with `dims` dims in scope) as index tiles.
  Value loadIndex(OpBuilder &b, Location loc, tile::ProgramOp program,
                  unsigned buffer, AffineExpr expr, unsigned dims,
                  ArrayRef<int64_t> shape) {
    MLIRContext *ctx = module.getContext();
    auto map = AffineMap::get(dims, program.getSizes().size(), expr);
    Value load = tile::LoadOp::create(
        b, loc, VectorType::get(shape, IntegerType::get(ctx, 32)),
        program.getBody().getArgument(buffer), ValueRange(),
        AffineMapAttr::get(map), b.getDenseI64ArrayAttr({}));
    return arith::IndexCastOp::create(
        b, loc, VectorType::get(shape, b.getIndexType()), load);
  }

  /// Rewrites `load` of the routed program over the bucketed rows: each
  /// index that names a row reads it from `order` (the row's coordinates
  /// in the table), the expert is the block's.
  void reindexLoad(const Routed &r, const RouteBuffers &route,
                   tile::LoadOp load, unsigned oldRank) {
    tile::ProgramOp program = r.program;
    OpBuilder b(load);
    Location loc = load.getLoc();
    AffineMap oldMap = load.getMap();
    unsigned reduced = oldMap.getNumDims() - oldRank;
    unsigned newDims = 2 + reduced;
    ArrayRef<int64_t> shape = load.getType().getShape();
    auto indexType = VectorType::get(shape, b.getIndexType());
    // Old dims in the new space: N -> 1, reduced i -> 2 + i (rows unused).
    SmallVector<AffineExpr> replacement;
    for (unsigned d = 0; d < oldMap.getNumDims(); ++d)
      replacement.push_back(
          d == r.nDim ? b.getAffineDimExpr(1)
          : d >= oldRank ? b.getAffineDimExpr(2 + d - oldRank)
                         : b.getAffineConstantExpr(0));
    SmallVector<AffineExpr> symbols;
    for (unsigned s = 0; s < oldMap.getNumSymbols(); ++s)
      symbols.push_back(b.getAffineSymbolExpr(s));
    // Buffer position -> gathered index tile; positions that read a row's
    // own slot (a workspace grouped by this routing, read back by a
    // program grouped by it too) read the bucketed row itself.
    std::map<int64_t, Value> gathered;
    llvm::SmallDenseSet<int64_t> ownRow;
    for (auto [i, position] : llvm::enumerate(load.getIndirectPositions())) {
      if (isOwnSlot(r, route, load.getIndirect()[i]))
        ownRow.insert(position);
      else
        gathered[position] = load.getIndirect()[i];
    }
    if (const auto *w = llvm::find(r.weights, load); w != r.weights.end()) {
      unsigned operand = r.expertOperands[w - r.weights.begin()];
      int64_t position = load.getIndirectPositions()[operand];
      AffineExpr block = b.getAffineDimExpr(0).floorDiv(kRouteBlock);
      gathered[position] = loadIndex(b, loc, program, route.blockExperts,
                                     block, newDims, shape);
    }
    SmallVector<AffineExpr> results;
    unsigned rank = cast<MemRefType>(load.getBuffer().getType()).getRank();
    unsigned mapped = 0;
    for (unsigned position = 0; position < rank; ++position) {
      if (gathered.count(position))
        continue;
      if (ownRow.contains(position)) {
        results.push_back(b.getAffineDimExpr(0));
        continue;
      }
      AffineExpr e = oldMap.getResult(mapped++);
      auto dim = dyn_cast<AffineDimExpr>(e);
      const unsigned *row =
          dim ? llvm::find(r.rowDims, dim.getPosition()) : r.rowDims.end();
      if (row == r.rowDims.end()) {
        results.push_back(e.replaceDimsAndSymbols(replacement, symbols));
        continue;
      }
      // The row's coordinate along table dimension `which`.
      unsigned which = row - r.rowDims.begin();
      Value p = loadIndex(b, loc, program, route.order, b.getAffineDimExpr(0),
                          newDims, shape);
      Value stride = nullptr;
      for (unsigned j = which + 1; j < route.idsDims.size(); ++j) {
        Value extent =
            splatExtent(b, loc, program, route.idsDims[j], indexType);
        stride = stride ? arith::MulIOp::create(b, loc, stride, extent)
                        : extent;
      }
      Value coordinate =
          stride ? arith::DivUIOp::create(b, loc, p, stride).getResult() : p;
      // The first coordinate of a position holding no row is past the
      // table: such reads are zero.
      if (which > 0)
        coordinate = arith::RemUIOp::create(
            b, loc, coordinate,
            splatExtent(b, loc, program, route.idsDims[which], indexType));
      gathered[position] = coordinate;
    }
    SmallVector<Value> indirect;
    SmallVector<int64_t> positions;
    for (auto &[position, index] : gathered) {
      positions.push_back(position);
      indirect.push_back(index);
    }
    auto map = AffineMap::get(newDims, oldMap.getNumSymbols(), results,
                              module.getContext());
    auto replacementLoad = tile::LoadOp::create(
        b, loc, load.getType(), load.getBuffer(), indirect,
        AffineMapAttr::get(map), b.getDenseI64ArrayAttr(positions));
    load.getResult().replaceAllUsesWith(replacementLoad.getResult());
    load.erase();
  }

  /// Whether `index` is `index_cast(slot[rows])` for `r`'s own routing,
  /// read at the program's rows in the table's order: at the bucketed row
  /// q holding table row p = order[q], that is slot[p] = q (rows past the
  /// last placed one are never read back).
  bool isOwnSlot(const Routed &r, const RouteBuffers &route, Value index) {
    auto cast = index.getDefiningOp<arith::IndexCastOp>();
    auto slot = cast ? cast.getIn().getDefiningOp<tile::LoadOp>()
                     : tile::LoadOp();
    if (!slot || !slot.getIndirect().empty())
      return false;
    auto buffer = dyn_cast<BlockArgument>(slot.getBuffer());
    if (!buffer || buffer.getArgNumber() != route.slot)
      return false;
    ArrayRef<AffineExpr> results = slot.getMap().getResults();
    if (results.size() != r.rowDims.size())
      return false;
    for (auto [e, d] : llvm::zip(results, r.rowDims))
      if (e != getAffineDimExpr(d, e.getContext()))
        return false;
    return true;
  }

  /// Rewrites `reader` (in another program) of `r`'s output to read the
  /// bucketed row its table row went to.
  void readThroughSlot(const Routed &r, const RouteBuffers &route,
                       tile::ProgramOp program, tile::LoadOp reader) {
    OpBuilder b(reader);
    Location loc = reader.getLoc();
    AffineMap map = reader.getMap();
    ArrayRef<int64_t> shape = reader.getType().getShape();
    SmallVector<AffineExpr> rowResults;
    for (unsigned d : r.rowDims)
      rowResults.push_back(map.getResult(d));
    auto slotMap = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                  rowResults, module.getContext());
    Value slot = tile::LoadOp::create(
        b, loc, VectorType::get(shape, b.getI32Type()),
        program.getBody().getArgument(route.slot), ValueRange(),
        AffineMapAttr::get(slotMap), b.getDenseI64ArrayAttr({}));
    Value row = arith::IndexCastOp::create(
        b, loc, VectorType::get(shape, b.getIndexType()), slot);
    auto columnMap = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                    map.getResult(r.nDim), module.getContext());
    auto load = tile::LoadOp::create(b, loc, reader.getType(),
                                     reader.getBuffer(), ValueRange{row},
                                     AffineMapAttr::get(columnMap),
                                     b.getDenseI64ArrayAttr({0}));
    reader.getResult().replaceAllUsesWith(load.getResult());
    reader.erase();
  }

  ModuleOp module;
  tile::PlanOp plan;
  const TargetInfo &target;
  ScheduleProvider &schedules;
  std::map<unsigned, RouteBuffers> routes; // by the table's argument
};

struct TileGroupRoutedContractionsPass
    : public SchedulingPass<nautilus::impl::TileGroupRoutedContractionsBase<
          TileGroupRoutedContractionsPass>> {
  using SchedulingPass::SchedulingPass;

  void runOnOperation() override {
    std::optional<TargetInfo> info = moduleTarget();
    if (!info)
      return;
    if (!info->hasMmaSync())
      return;
    ModuleOp module = getOperation();
    for (auto plan :
         llvm::make_early_inc_range(module.getOps<tile::PlanOp>())) {
      Grouper grouper(module, plan, *info, *schedules);
      for (tile::ProgramOp program : plan.getProgramOps())
        if (std::optional<Routed> routed = grouper.analyse(program))
          grouper.group(*routed);
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createTileGroupRoutedContractions(
    std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<TileGroupRoutedContractionsPass>(
      std::move(schedules));
}
