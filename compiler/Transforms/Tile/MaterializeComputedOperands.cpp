//===- MaterializeComputedOperands.cpp - computed operands to workspaces --===//
//
// A computed contraction operand is evaluated by the threads of every
// program instance that needs it: once per tile along the other operand's
// dimension. Where that dimension spans many tiles (a mixture of experts'
// down projection: silu(G) x U, read from the siblings' f32 workspace A
// for each of D / 128 column tiles), computing it once into a 16-bit
// workspace and copying it like any loaded operand (cp.async, TMA) costs
// far less. Sibling contractions (its gate and up projections, whose lhs
// is the rows of X gathered) share a loaded lhs tile only: theirs is
// always computed once (see TileMaterializeComputedOperands in
// Passes.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Tile/SplitContractions.h"
#include "compiler/Transforms/Tile/KernelEditing.h"
#include "compiler/Transforms/Tile/Passes.h"
#include "compiler/Target/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace nautilus {
#define GEN_PASS_DEF_TILEMATERIALIZECOMPUTEDOPERANDS
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// A computed operand is materialized when the other operand's dimension
/// spans at least this many tiles (it would be computed that many times).
constexpr int64_t kMinRecomputations = 4;

/// Whether `region` never reads output dimension `other` (not even as an
/// expression the same over a tile: the new program tiles K in its place)
/// and uses the reduced index only through its maps.
bool independentOf(Region &region, unsigned other) {
  Block &body = region.front();
  if (!body.getArgument(0).use_empty())
    return false;
  return llvm::none_of(body.without_terminator(), [&](Operation &op) {
    return tile::readsOutputDim(&op, other);
  });
}

/// The tiles a program skips (`tile.skip_if_negative`) when the entry does
/// not read output dimension `other`: a program computing its operand over
/// (dims, K in place of `other`) may skip them too. Null otherwise.
tile::SkipIfNegativeOp skipWithout(tile::ProgramOp program, unsigned other) {
  auto skip = tile::SkipIfNegativeOp::find(program);
  return skip && !skip.getMap().isFunctionOfDim(other) ? skip
                                                       : tile::SkipIfNegativeOp();
}

/// Whether `program` computes more than one contraction (siblings, which
/// tile-form-contractions gave one computed lhs, the same for each).
bool hasSiblings(tile::ProgramOp program) {
  unsigned contracts = 0;
  program.walk([&](tile::ContractOp) { ++contracts; });
  return contracts > 1;
}

class Materializer {
public:
  Materializer(ModuleOp module, tile::PlanOp plan, const TargetInfo &target,
               ScheduleProvider &schedules)
      : module(module), plan(plan), target(target), schedules(schedules) {}

  /// Materializes `contract`'s computed operand `side` if it pays; returns
  /// the contraction that replaces `contract` then (null otherwise).
  tile::ContractOp run(tile::ContractOp contract, unsigned side) {
    auto program = contract->getParentOfType<tile::ProgramOp>();
    unsigned rank = program.getRank();
    unsigned other = side == 0 ? rank - 1 : rank - 2;
    Region &region = contract.getOperandBody(side);
    tile::MmaAttr mma = program.getSchedule().getMma();
    if (!mma || !independentOf(region, other))
      return {};
    tile::sinkIntoComputedOperands(contract);
    // Recomputed once per tile along `other`: worth a workspace only when
    // that is known to be many times. Sibling contractions share a loaded
    // lhs tile only (tile::shareLhsTile): theirs is always materialized.
    ArrayAttr dims = program.getOutputDims();
    std::optional<int64_t> otherExtent = program.getKnownExtent(dims[other]);
    int64_t otherTile = program.getSchedule().getTile()[other];
    bool siblings = hasSiblings(program);
    if (!siblings &&
        (!otherExtent || *otherExtent < kMinRecomputations * otherTile))
      return {};
    // The workspace's dimensions: the program's, K in place of `other`.
    Attribute kDim = program.getExtentDim(contract.getExtent());
    if (!kDim)
      return {};
    SmallVector<Attribute> workspaceDims(dims.begin(), dims.end());
    workspaceDims[other] = kDim;
    // TMA (wgmma) copies rows that start 16-byte aligned (8 elements).
    std::optional<int64_t> rowLength =
        program.getKnownExtent(workspaceDims.back());
    if (mma.getInstr() == "wgmma" && rowLength &&
        *rowLength % 8 != 0)
      return {};

    MLIRContext *ctx = module.getContext();
    // The same operand computed for another contraction (a mixture of
    // experts' gate and up projections gather the same rows) shares its
    // workspace, computed before the first: the buffers it reads do not
    // change in between (a kernel's intermediates are each written by one
    // program, before any reads them).
    std::string key = operandKey(program, region, other, workspaceDims);
    auto [it, first] = workspaces.try_emplace(key, 0);
    if (first) {
      Type element = contract.getOperandElementType();
      auto type = MemRefType::get(
          SmallVector<int64_t>(rank, ShapedType::kDynamic), element);
      std::string name =
          (program.getSymName() + (side == 0 ? ".lhs" : ".rhs")).str();
      it->second = addKernelBuffer(module, plan, name, "workspace", type,
                                   workspaceDims);
      buildProgram(program, region, other, it->second, name, workspaceDims);
    }
    unsigned buffer = it->second;

    // The operand is now loaded from the workspace: index `other` reads K.
    SmallVector<AffineExpr> results;
    for (unsigned d = 0; d < rank; ++d)
      results.push_back(getAffineDimExpr(d == other ? rank : d, ctx));
    auto map = AffineMap::get(rank + 1, program.getSizes().size(), results,
                              ctx);
    tile::ContractOp rebuilt = replaceOperand(
        contract, side, program.getBody().getArgument(buffer), map);
    // With every operand copied, a wgmma program's producer has registers
    // to spare: it may take the wider default tile (or split K, as
    // tile-form-contractions would for a loaded contraction). Siblings keep
    // theirs: tile-form-contractions tiled them for their count, and a
    // retile would change the next sibling's operand (its tiles' shapes)
    // before it is materialized.
    if (!siblings && !rebuilt.isComputed(0) && !rebuilt.isComputed(1) &&
        mma.getInstr() == "wgmma") {
      std::optional<int64_t> splittableK;
      if (splitKRefusal(program, rebuilt).empty())
        splittableK = knownReducedExtent(program, rebuilt);
      tile::ScheduleAttr wider = schedules.contraction(
          ctx, rank, contractionExtents(program), /*wgmma=*/true,
          /*computed=*/{}, target, splittableK);
      if (wider != program.getSchedule())
        program.retile(wider);
    }
    return rebuilt;
  }

private:
  /// What makes two computed operands the same: their ops in order (names,
  /// attributes, types; operands as the kernel's buffers and sizes by name,
  /// the region's earlier results or the reduced index), the dimension K
  /// replaces, and the workspace's dimensions. (Argument numbers would not
  /// do: each new workspace shifts the sizes'.)
  static std::string operandKey(tile::ProgramOp program, Region &region,
                                unsigned other, ArrayRef<Attribute> dims) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << other;
    for (Attribute d : dims)
      os << " " << d;
    Block &body = region.front();
    llvm::DenseMap<Value, unsigned> results;
    auto name = [&](Value v) {
      unsigned buffers = program.getArgNames().size();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == &body)
          os << " k";
        else if (arg.getArgNumber() < buffers)
          os << " buffer " << program.getArgNames()[arg.getArgNumber()];
        else
          os << " size " << program.getSizes()[arg.getArgNumber() - buffers];
      } else if (results.count(v))
        os << " r" << results.lookup(v);
      else
        os << " ?" << v.getAsOpaquePointer(); // from elsewhere: unique
    };
    auto print = [&](Operation &op) {
      os << "\n" << op.getName() << " " << op.getAttrDictionary();
      for (Value v : op.getOperands())
        name(v);
      for (Value r : op.getResults()) {
        os << " : " << r.getType();
        results[r] = results.size();
      }
    };
    // Programs that skip different tiles leave different rows unwritten.
    if (auto skip = skipWithout(program, other))
      print(*skip);
    for (Operation &op : body)
      print(op);
    return key;
  }

  /// A program over `dims` (the contract program's, K in place of `other`)
  /// that evaluates `region` and stores it to buffer `buffer`, launched
  /// before the contract's program.
  void buildProgram(tile::ProgramOp program, Region &region, unsigned other,
                    unsigned buffer, StringRef name,
                    ArrayRef<Attribute> dims) {
    MLIRContext *ctx = module.getContext();
    Location loc = program.getLoc();
    unsigned rank = program.getRank();
    std::string symbol = (name.str() + "_materialized");
    for (char &c : symbol)
      if (c == '.')
        c = '_';
    OpBuilder b(ctx);
    IRMapping mapping;
    tile::ProgramOp materialized =
        createSiblingProgram(b, program, symbol, dims, mapping);
    Block *entry = &materialized.getBody().front();
    // The region's maps take (dims..., k): K now is dimension `other`.
    SmallVector<AffineExpr> replacement;
    for (unsigned d = 0; d <= rank; ++d)
      replacement.push_back(
          getAffineDimExpr(d == rank ? other : d, ctx));
    Block &body = region.front();
    for (Operation &op : body.without_terminator()) {
      Operation *clone = b.clone(op, mapping);
      if (auto load = dyn_cast<tile::LoadOp>(clone)) {
        AffineMap map = load.getMap();
        load.setMapAttr(AffineMapAttr::get(
            map.replaceDimsAndSymbols(replacement, {}, rank,
                                      map.getNumSymbols())));
      }
    }
    Value value = mapping.lookup(
        cast<tile::YieldOp>(body.getTerminator()).getValue());
    tile::StoreOp::create(b, loc, value, entry->getArgument(buffer));
    tile::ReturnOp::create(b, loc);
    SmallVector<std::optional<int64_t>> extents;
    for (Attribute d : dims)
      extents.push_back(materialized.getKnownExtent(d));
    materialized.retile(schedules.elementwise(ctx, extents, target));
    // Runs of the rows it copies (a gather's too) move as vectors.
    materialized.retile(schedules.vectorRuns(materialized, target));
    // Tiles the contraction skips (a grouped GEMM's unused blocks of rows)
    // need no operand: the new program skips them too, where the entry
    // does not read the dimension K replaced and is the same over its tile.
    if (auto skip = skipWithout(program, other))
      if (skip.isUniformOver(materialized.getSchedule().getTile())) {
        b.setInsertionPointToStart(entry);
        b.clone(*skip, mapping);
      }
    launchBefore(plan, symbol, program.getSymName());
  }

  /// Rebuilds `contract` with operand `side` loaded from `buffer` at `map`
  /// (the other operand as it was).
  static tile::ContractOp replaceOperand(tile::ContractOp contract,
                                         unsigned side, Value buffer,
                                         AffineMap map) {
    OpBuilder b(contract);
    std::array<Value, 2> buffers = {contract.getLhs(), contract.getRhs()};
    std::array<AffineMapAttr, 2> maps = {contract.getLhsMapAttr(),
                                         contract.getRhsMapAttr()};
    buffers[side] = buffer;
    maps[side] = AffineMapAttr::get(map);
    auto rebuilt = tile::ContractOp::create(
        b, contract.getLoc(), contract.getType(), buffers[0], maps[0],
        contract.getLhsOffsets(), contract.getLhsOffsetsMapAttr(),
        contract.getLhsOffsetsPositionAttr(), buffers[1], maps[1],
        contract.getRhsOffsets(), contract.getRhsOffsetsMapAttr(),
        contract.getRhsOffsetsPositionAttr(), contract.getExtent(),
        contract.getSplitDimAttr(), contract.getSplitChunkAttr());
    unsigned kept = 1 - side;
    if (contract.isComputed(kept))
      rebuilt.getOperandBody(kept).takeBody(contract.getOperandBody(kept));
    contract.getResult().replaceAllUsesWith(rebuilt.getResult());
    contract.erase();
    return rebuilt;
  }

  ModuleOp module;
  tile::PlanOp plan;
  const TargetInfo &target;
  ScheduleProvider &schedules;
  /// The workspaces made so far (buffer argument numbers), by operandKey.
  std::map<std::string, unsigned> workspaces;
};

struct TileMaterializeComputedOperandsPass
    : public SchedulingPass<nautilus::impl::TileMaterializeComputedOperandsBase<
          TileMaterializeComputedOperandsPass>> {
  using SchedulingPass::SchedulingPass;

  void runOnOperation() override {
    std::optional<TargetInfo> info = moduleTarget();
    if (!info)
      return;
    ModuleOp module = getOperation();
    for (auto plan : module.getOps<tile::PlanOp>()) {
      Materializer materializer(module, plan, *info, *schedules);
      SmallVector<tile::ContractOp> contracts;
      for (tile::ProgramOp program : plan.getProgramOps())
        program.walk([&](tile::ContractOp c) { contracts.push_back(c); });
      for (tile::ContractOp contract : contracts)
        for (unsigned side : {0u, 1u})
          if (contract.isComputed(side))
            if (tile::ContractOp rebuilt = materializer.run(contract, side))
              contract = rebuilt;
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createTileMaterializeComputedOperands(
    std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<TileMaterializeComputedOperandsPass>(
      std::move(schedules));
}
