//===- KernelModel.cpp - What the verifier proves of a tile program -------===//
#include "compiler/Verify/KernelModel.h"

#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/GuardedReads.h"
#include "dialects/Tile/Utils/OperandMaps.h"
#include "dialects/Tile/Utils/ReductionKinds.h"
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "dialects/Tile/Utils/SiblingContracts.h"
#include "dialects/Tile/Utils/StagingRows.h"
#include "dialects/Tile/Utils/StreamSplits.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::verify;

namespace {

/// The row geometry of an operand's stage, as the mma.sync lowering lays
/// it out: K-major operands store rowTile rows of tile_k elements, the
/// others tile_k rows of rowTile.
StageLayout mmaSyncStage(const std::string &operand, bool kInnermost,
                         int64_t rowTile, int64_t tileK, int64_t elementBytes,
                         tile::MmaAttr mma) {
  StageLayout stage;
  stage.operand = operand;
  stage.elementBytes = elementBytes;
  stage.rows = kInnermost ? rowTile : tileK;
  stage.rowBytes = (kInnermost ? tileK : rowTile) * elementBytes;
  stage.swizzle =
      layout::SharedSwizzle::forRows(stage.rowBytes, mma.getSwizzle());
  stage.bytes = stage.rows * stage.rowBytes;
  stage.count = mma.getStages();
  stage.stride = stage.bytes;
  // The schedule's promise (#tile.mma): with the 128-byte swizzle, the 8
  // rows an ldmatrix reads fall in 8 distinct bank groups.
  stage.ldmatrixClaimsNoConflicts = mma.getSwizzle() == 128;
  stage.copiedByThreads = true;
  return stage;
}

/// The TMA boxes of a wgmma operand's stage (WgmmaPlan): rows of the
/// swizzle's bytes.
StageLayout wgmmaStage(const std::string &operand, const WgmmaOperandPlan &plan,
                       const WgmmaPlan &whole, int64_t stages) {
  StageLayout stage;
  stage.operand = operand;
  stage.rowBytes = whole.swizzleBytes;
  stage.rows = plan.boxBytes / whole.swizzleBytes;
  stage.swizzle =
      layout::SharedSwizzle::forRows(stage.rowBytes, whole.swizzleBytes);
  stage.offset = plan.stageOffset;
  stage.bytes = plan.stageBytes;
  stage.count = stages;
  stage.stride = whole.stageBytes;
  return stage;
}

/// Where a wgmma operand's writer puts element (row, k) of a box: the byte
/// strides of the box's row and K positions (TMA's boxes list the buffer's
/// dimensions innermost first, those of batch indices 1 wide; a computed
/// operand is stored K-major, rows of the swizzle).
std::pair<int64_t, int64_t> boxStrides(AffineMap map,
                                       const WgmmaOperandPlan &op,
                                       unsigned kDim, int64_t elementBytes,
                                       int64_t swizzleBytes) {
  if (!map)
    return {swizzleBytes, elementBytes};
  int64_t rowStride = 0, kStride = 0, stride = elementBytes;
  size_t position = 0;
  for (AffineExpr e : llvm::reverse(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    unsigned d = dim ? dim.getPosition() : ~0u;
    if (d == kDim)
      kStride = stride;
    else if (d == op.rowDim)
      rowStride = stride;
    stride *= position < op.box.size() ? op.box[position] : 1;
    ++position;
  }
  return {rowStride, kStride};
}

DescriptorRead descriptorRead(const std::string &operand,
                              const WgmmaOperandPlan &op, bool isLhs,
                              const WgmmaPlan &plan, AffineMap map,
                              tile::ScheduleAttr schedule,
                              int64_t elementBytes) {
  tile::MmaAttr mma = schedule.getMma();
  DescriptorRead read;
  read.operand = operand;
  read.isLhs = isLhs;
  read.kInnermost = op.kInnermost;
  read.elementBytes = elementBytes;
  read.rows = isLhs ? 64 : op.rowTile;
  read.kSteps = mma.getTileK() / 16;
  read.warpgroups = isLhs ? op.rowTile / 64 : 1;
  read.stages = mma.getStages();
  read.descriptor = planWgmmaDescriptor(plan, op, isLhs, elementBytes);
  // TMA's boxes, or (computed) the producers' K-major rows, swizzled
  // within the stage.
  read.writer = op.computed ? "the producers" : "TMA";
  read.swizzlesAddress = !op.computed;
  read.writerSwizzleBytes = plan.swizzleBytes;
  read.writerRowBytes = plan.swizzleBytes;
  read.rowSwizzle =
      layout::SharedSwizzle::forRows(plan.swizzleBytes, plan.swizzleBytes);
  read.writerStageBytes = plan.stageBytes;
  read.regionOffset = op.stageOffset;
  unsigned kDim = schedule.getTile().size();
  std::tie(read.rowStride, read.kStride) =
      boxStrides(map, op, kDim, elementBytes, plan.swizzleBytes);
  read.boxRows = op.kInnermost ? op.rowTile : plan.swizzleBytes / elementBytes;
  read.boxBytes = op.boxBytes;
  read.boxes = op.boxes;
  read.boxK = mma.getTileK();
  return read;
}

/// The flash kernel's wgmma reads (FlashWgmmaPlan): Q K^T's A from Q's
/// region and B from K's stage, P V's B from V's stage; each stage a row
/// of 64-column panels (128-byte rows) that TMA's boxes, or the threads'
/// cp.async, fill with the plan's swizzle.
std::vector<DescriptorRead> flashDescriptorReads(tile::ProgramOp program) {
  FlashWgmmaPlan plan = planFlashWgmma(program);
  bool tma = !flashTensorMaps(program).empty();
  auto read = [&](const char *name, bool isLhs, bool kInnermost,
                  WgmmaDescriptorPlan d, int64_t regionOffset,
                  int64_t panelBytes, int64_t panelRows) {
    DescriptorRead r;
    r.operand = name;
    r.isLhs = isLhs;
    r.kInnermost = kInnermost;
    r.descriptor = d;
    r.writer = tma ? "TMA" : "cp.async";
    r.swizzlesAddress = tma;
    // (TMA's maps, and the threads' copies without them, by the plan's
    // swizzle.)
    r.writerSwizzleBytes = FlashWgmmaPlan::kSwizzleBytes;
    r.rowSwizzle =
        layout::SharedSwizzle::forRows(128, FlashWgmmaPlan::kSwizzleBytes);
    r.writerStageBytes = plan.stageBytes();
    r.regionOffset = regionOffset;
    // A panel: `panelRows` rows of 64 columns (128 bytes). K-major: rows
    // are M/N, columns K (panels along K); V: rows are K (keys), columns
    // N (panels along N).
    if (kInnermost) {
      r.boxRows = panelRows, r.rowStride = 128, r.kStride = 2;
      r.kBox = 64, r.kBoxBytes = panelBytes, r.kBoxes = plan.panels();
    } else {
      r.boxRows = 64, r.rowStride = 2, r.boxBytes = panelBytes;
      r.kStride = 128, r.boxes = plan.panels(), r.boxK = plan.keyBlock;
    }
    return r;
  };
  DescriptorRead query = read("Q", true, true, plan.query(), plan.queryOffset(),
                              plan.queryPanelBytes(), plan.rows);
  query.kSteps = plan.headDim / 16;
  query.warpgroups = plan.rows / 64;
  DescriptorRead keys =
      read("K", false, true, plan.keys(), 0, plan.panelBytes(), plan.keyBlock);
  keys.rows = plan.keyBlock;
  keys.kSteps = plan.headDim / 16;
  keys.stages = plan.stages;
  DescriptorRead values = read("V", false, false, plan.values(),
                               plan.valueOffset(), plan.panelBytes(), 0);
  values.rows = plan.headDim;
  values.kSteps = plan.keyBlock / 16;
  values.stages = plan.stages;
  return {query, keys, values};
}

/// The name of `program`'s buffer `buffer` (empty: not a buffer argument).
std::string bufferNameOf(tile::ProgramOp program, Value buffer) {
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getArgNumber() >= program.getArgNames().size())
    return "";
  return cast<StringAttr>(program.getArgNames()[arg.getArgNumber()]).str();
}

/// An operand an mma.sync pipeline stages: side `side` of `contract`.
struct StagedOperand {
  tile::ContractOp contract;
  unsigned side;
  std::string name; // "lhs", "rhs", or a sibling's "rhs (Wg)"
};

/// The operands of `contract`'s pipeline in the order its stages lie:
/// the lhs, then its rhs and its siblings' (tile::siblingContracts).
std::vector<StagedOperand> stagedOperands(tile::ProgramOp program,
                                          tile::ContractOp contract) {
  SmallVector<tile::ContractOp> siblings = tile::siblingContracts(contract);
  std::vector<StagedOperand> out = {{siblings.front(), 0, "lhs"}};
  for (tile::ContractOp sibling : siblings)
    out.push_back(
        {sibling, 1,
         siblings.size() == 1
             ? std::string("rhs")
             : "rhs (" + bufferNameOf(program, sibling.getRhs()) + ")"});
  return out;
}

void addTensorCoreModel(tile::ProgramOp program, tile::ContractOp contract,
                        ProgramModel &model) {
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::MmaAttr mma = schedule.getMma();
  ArrayRef<int64_t> tileShape = schedule.getTile();
  unsigned rank = tileShape.size();
  int64_t tileM = tileShape[rank - 2], tileN = tileShape[rank - 1];
  int64_t elementBytes =
      contract.getOperandElementType().getIntOrFloatBitWidth() / 8;
  model.pipeline = tile::pipelineProtocol(mma);
  model.wgmma = mma.getInstr() == "wgmma";
  if (model.wgmma) {
    // The lhs's stage, then each sibling's rhs (the plan's order).
    WgmmaPlan plan = planWgmma(contract, schedule);
    for (auto [i, operand] :
         llvm::enumerate(stagedOperands(program, contract))) {
      const WgmmaOperandPlan &op = plan.operand(i);
      model.stages.push_back(
          wgmmaStage(operand.name, op, plan, mma.getStages()));
      model.descriptorReads.push_back(
          descriptorRead(operand.name, op, operand.side == 0, plan,
                         operand.contract.getOperandMap(operand.side), schedule,
                         elementBytes));
    }
    model.sharedBytes = plan.barrierOffset;
    return;
  }
  for (auto [side, fragment] :
       {std::make_pair(0u, "A"), std::make_pair(1u, "B")}) {
    layout::LinearLayout l =
        side == 0 ? layout::mmaOperandALayout() : layout::mmaOperandBLayout();
    model.layouts.push_back({std::string("the mma.sync ") + fragment +
                                 " fragment (PTX ISA, m16n8k16)",
                             l});
  }
  int64_t offset = 0;
  for (StagedOperand &operand : stagedOperands(program, contract)) {
    unsigned side = operand.side;
    bool kInnermost = isKInnermost(operand.contract.getOperandMap(side));
    StageLayout stage =
        mmaSyncStage(operand.name, kInnermost, side == 0 ? tileM : tileN,
                     mma.getTileK(), elementBytes, mma);
    stage.offset = offset;
    offset += stage.bytes * stage.count;
    model.stages.push_back(stage);
    FragmentLoad load;
    load.stage = stage.operand;
    load.isLhs = side == 0;
    load.kInnermost = kInnermost;
    // An rhs one n tile wide per warp reads its two matrices with .x2.
    load.twoMatrices = side == 1 && tileN / mma.getWarps()[1] == 8;
    load.matrices = layout::ldmatrixMatrixLayout(load.isLhs);
    load.readerSwizzle = stage.swizzle;
    model.fragments.push_back(load);
  }
  // What the launch requests (the runtime sizes dynamic shared memory by
  // it), against which the stages' offsets are checked.
  model.sharedBytes = contractSharedMemoryBytes(contract, schedule);
}

/// A flash kernel's (TileToGPU/StreamToMmaSync.cpp): K's and V's stages
/// (rows of keys, D elements each, K's stages then V's), the fragments
/// ldmatrix takes of them (Q's A fragments from V's second stage, K's B
/// fragments, V's by .trans), and the copy ring over the key blocks; on
/// wgmma, the panelled stages and Q's region.
void addFlashModel(tile::ProgramOp program, ProgramModel &model) {
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::MmaAttr mma = schedule.getMma();
  int64_t headDim = schedule.getTile().back(), elementBytes = 2;
  model.pipeline = tile::flashPipelineProtocol(mma);
  model.sharedBytes = streamSharedMemoryBytes(program);
  if (mma.getInstr() == "wgmma") {
    // Stages of panels 64 columns wide (rows of 128 bytes: a stage is its
    // panels' rows one after the other), then Q's region; wgmma reads them
    // by descriptors.
    int64_t rows = schedule.getTile()[schedule.getTile().size() - 2];
    auto panelled = [&](const char *name, int64_t tileRows, int64_t count) {
      StageLayout stage =
          mmaSyncStage(name, /*kInnermost=*/true, tileRows * headDim / 64,
                       /*tileK=*/64, elementBytes, mma);
      // (Swizzled as the descriptors read them, whatever the schedule's.)
      stage.swizzle = layout::SharedSwizzle::forRows(
          stage.rowBytes, FlashWgmmaPlan::kSwizzleBytes);
      stage.count = count;
      return stage;
    };
    StageLayout keys = panelled("K", mma.getTileK(), mma.getStages());
    StageLayout values = panelled("V", mma.getTileK(), mma.getStages());
    StageLayout query = panelled("Q", rows, 1);
    values.offset = keys.bytes * keys.count;
    query.offset = values.offset + values.bytes * values.count;
    query.ldmatrixClaimsNoConflicts = false; // (not read by ldmatrix)
    keys.ldmatrixClaimsNoConflicts = values.ldmatrixClaimsNoConflicts = false;
    model.stages = {keys, values, query};
    model.descriptorReads = flashDescriptorReads(program);
    return;
  }
  StageLayout keys = mmaSyncStage("K", /*kInnermost=*/true, mma.getTileK(),
                                  headDim, elementBytes, mma);
  StageLayout values = mmaSyncStage("V", /*kInnermost=*/false, headDim,
                                    mma.getTileK(), elementBytes, mma);
  values.offset = keys.bytes * keys.count;
  model.stages = {keys, values};
  for (auto [stage, isLhs, kInnermost] :
       {std::make_tuple("V", true, true), std::make_tuple("K", false, true),
        std::make_tuple("V", false, false)}) {
    FragmentLoad load;
    load.stage = stage;
    load.isLhs = isLhs;
    load.kInnermost = kInnermost;
    load.twoMatrices = false; // (D is a multiple of 16: pairs of n tiles)
    load.matrices = layout::ldmatrixMatrixLayout(isLhs);
    load.readerSwizzle = keys.swizzle;
    model.fragments.push_back(load);
  }
}

GridModel gridOf(tile::ProgramOp program, DictionaryAttr bindings) {
  tile::ScheduleAttr schedule = program.getSchedule();
  GridModel grid;
  grid.tile.assign(schedule.getTile().begin(), schedule.getTile().end());
  for (Attribute dim : program.getOutputDims()) {
    if (auto literal = dyn_cast<IntegerAttr>(dim)) {
      grid.extentNames.push_back(std::to_string(literal.getInt()));
      grid.extents.push_back(literal.getInt());
      continue;
    }
    StringRef name = cast<StringAttr>(dim).getValue();
    grid.extentNames.push_back(name.str());
    std::optional<int64_t> bound;
    if (bindings)
      if (auto value = bindings.getAs<IntegerAttr>(name))
        bound = value.getInt();
    grid.extents.push_back(bound);
  }
  grid.downColumns = schedule.walksDownColumns() && grid.tile.size() >= 2;
  if (tile::MmaAttr mma = schedule.getMma()) {
    if (grid.tile.size() >= 2)
      grid.groupM = mma.getGroupM();
    grid.persistent = mma.getPersistent() != 0;
  }
  return grid;
}

/// How `convert` stages the tile (LayoutConversion.cpp: its rows and
/// columns, the runs it moves, the widths its bands may take).
ConversionStaging stagingOf(tile::ProgramOp program,
                            tile::ConvertLayoutOp convert) {
  ArrayRef<int64_t> tile = program.getSchedule().getTile();
  ConversionStaging staging;
  staging.columns = tile.back();
  staging.rows = 1;
  for (int64_t t : tile.drop_back())
    staging.rows *= t;
  std::optional<layout::LinearLayout> from;
  if (tile::LinearLayoutAttr source = tile::layoutOf(convert.getSource()))
    from = source.getLayout();
  else
    from = program.getSchedule().getDistribution();
  Type element = convert.getType().getElementType();
  staging.unit =
      stagingRuns(from, convert.getLayout().getLayout(), element).unit;
  staging.elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  staging.widths = stagingWidths(staging.rows, staging.columns, staging.unit);
  return staging;
}

/// The size a block argument of the program stands for, by name.
std::string sizeNameOf(tile::ProgramOp program, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  ArrayAttr sizes = program.getSizes();
  unsigned buffers = program.getBody().getNumArguments() - sizes.size();
  if (!arg || arg.getArgNumber() < buffers)
    return "";
  return cast<StringAttr>(sizes[arg.getArgNumber() - buffers]).str();
}

/// The extents of the plan's buffer `name` (size names, or literals such
/// as "4"); std::nullopt where the plan has no such buffer or one of its
/// extents is a size the runtime derives (its relations to the other
/// sizes are not modelled).
std::optional<std::vector<std::string>> planDimsOf(tile::PlanOp plan,
                                                   StringRef name) {
  DictionaryAttr derived = plan.getDerivedSizesAttr();
  for (Attribute a : plan.getBuffers()) {
    auto entry = cast<DictionaryAttr>(a);
    if (cast<StringAttr>(entry.get("name")).getValue() != name)
      continue;
    std::vector<std::string> dims;
    for (Attribute dim : cast<ArrayAttr>(entry.get("dims"))) {
      if (auto literal = dyn_cast<IntegerAttr>(dim)) {
        dims.push_back(std::to_string(literal.getInt()));
        continue;
      }
      StringRef size = cast<StringAttr>(dim).getValue();
      if (derived && derived.get(size))
        return std::nullopt;
      dims.push_back(size.str());
    }
    return dims;
  }
  return std::nullopt;
}

/// Whether `map`'s results are pure affine with constants below 2^20
/// (BoundsInvariants.cpp's 64-bit terms then do not wrap).
bool isProvableMap(AffineMap map, ArrayRef<unsigned> positions) {
  bool provable = true;
  for (unsigned j : positions) {
    AffineExpr e = map.getResult(j);
    provable = provable && e.isPureAffine();
    e.walk([&](AffineExpr sub) {
      if (auto c = dyn_cast<AffineConstantExpr>(sub))
        provable = provable && std::abs(c.getValue()) < (int64_t(1) << 20);
    });
  }
  return provable;
}

/// `map` with the sizes `bindings` binds in place of their symbols (so
/// that a division by sizes, GQA's h / (H / G), becomes one by a
/// constant where they are bound).
AffineMap withBoundSizes(AffineMap map, ArrayRef<std::string> symbols,
                         DictionaryAttr bindings) {
  DenseMap<AffineExpr, AffineExpr> bound;
  for (unsigned i = 0; bindings && i < symbols.size(); ++i)
    if (auto value = bindings.getAs<IntegerAttr>(symbols[i]))
      bound[getAffineSymbolExpr(i, map.getContext())] =
          getAffineConstantExpr(value.getInt(), map.getContext());
  return simplifyAffineMap(map.replace(bound));
}

/// The reads of a flash kernel whose batch and head indices its copies do
/// not check: each load of a plan's buffer, with the results that read
/// only the grid's dimensions of tile 1 (and sizes), where those are
/// provable (pure affine once bound sizes are substituted; no derived
/// size among them) and no `where` on the batch or head guards the read.
std::vector<TileConstantRead> tileConstantReadsOf(tile::ProgramOp program) {
  std::vector<TileConstantRead> reads;
  tile::PlanOp plan = program.getPlan();
  if (!plan)
    return reads;
  DictionaryAttr bindings = plan.getBindingsAttr();
  DictionaryAttr derived = plan.getDerivedSizesAttr();
  ArrayRef<int64_t> tile = program.getSchedule().getTile();
  std::vector<std::string> symbols;
  for (Attribute size : program.getSizes())
    symbols.push_back(cast<StringAttr>(size).str());
  program.walk([&](tile::LoadOp load) {
    std::string name = bufferNameOf(program, load.getBuffer());
    std::optional<std::vector<std::string>> dims =
        name.empty() ? std::nullopt : planDimsOf(plan, name);
    if (!dims || tile::isGuardedOnTileCoordinate(load, tile))
      return;
    AffineMap map = withBoundSizes(load.getMap(), symbols, bindings);
    TileConstantRead read{name, map, {}, symbols, std::move(*dims)};
    for (unsigned j = 0; j < map.getNumResults(); ++j) {
      bool constant = !llvm::is_contained(load.getIndirectPositions(), j);
      for (unsigned d = 0; d < map.getNumDims(); ++d)
        if (map.getResult(j).isFunctionOfDim(d))
          constant = constant && d < tile.size() && tile[d] == 1;
      for (unsigned i = 0; i < symbols.size(); ++i)
        if (map.getResult(j).isFunctionOfSymbol(i))
          constant = constant && !(derived && derived.get(symbols[i]));
      if (constant)
        read.positions.push_back(j);
    }
    if (!read.positions.empty() && isProvableMap(map, read.positions) &&
        read.bufferDims.size() == map.getNumResults())
      reads.push_back(std::move(read));
  });
  return reads;
}

/// The mma.sync operands that copyTile may copy without bound checks: a
/// buffer read through a pure affine map (not computed), whose buffer the
/// kernel's plan names, with no size the runtime derives among the
/// extents the proof relates (their relations to the others are not
/// modelled: such a copy is left to the emulator).
std::vector<InteriorCopy> interiorCopiesOf(tile::ProgramOp program,
                                           tile::ContractOp contract,
                                           tile::PlanOp plan) {
  std::vector<InteriorCopy> copies;
  if (!plan)
    return copies;
  DictionaryAttr derived = plan.getDerivedSizesAttr();
  auto isDerived = [&](StringRef name) { return derived && derived.get(name); };
  ArrayRef<int64_t> tile = program.getSchedule().getTile();
  unsigned rank = tile.size();
  tile::MmaAttr mma = program.getSchedule().getMma();
  std::string kName = sizeNameOf(program, contract.getExtent());
  if (kName.empty() || isDerived(kName))
    return copies;
  std::vector<std::string> symbols;
  for (Attribute size : program.getSizes())
    symbols.push_back(cast<StringAttr>(size).str());
  for (const StagedOperand &operand : stagedOperands(program, contract)) {
    unsigned side = operand.side;
    tile::ContractOp contract = operand.contract;
    if (contract.isComputed(side))
      continue;
    std::string name = bufferNameOf(program, contract.getOperandBuffer(side));
    if (name.empty())
      continue;
    InteriorCopy copy;
    copy.operand = operand.name;
    copy.buffer = name;
    copy.map = contract.getOperandMap(side);
    copy.symbolNames = symbols;
    copy.kName = kName;
    copy.rowDim = side == 0 ? rank - 2 : rank - 1;
    copy.rowTile = tile[copy.rowDim];
    copy.tileK = mma.getTileK();
    if (contract.getOperandOffsets(side))
      copy.offsetPosition = contract.getOperandOffsetsPosition(side);
    std::optional<std::vector<std::string>> dims = planDimsOf(plan, name);
    bool modelled = dims.has_value();
    if (dims)
      copy.bufferDims = std::move(*dims);
    // The extents of the dimensions the map reads, and its symbols, must
    // not be derived either (a dimension it does not read only has its
    // tile's origin inside the grid, whatever its extent).
    ArrayAttr outputDims = program.getOutputDims();
    for (unsigned d = 0; d < rank; ++d)
      if (auto size = dyn_cast<StringAttr>(outputDims[d]))
        if (copy.map.isFunctionOfDim(d))
          modelled = modelled && !isDerived(size.getValue());
    for (unsigned i = 0; i < symbols.size(); ++i)
      if (copy.map.isFunctionOfSymbol(i))
        modelled = modelled && !isDerived(symbols[i]);
    modelled =
        modelled && isProvableMap(copy.map, llvm::to_vector(llvm::seq<unsigned>(
                                                0, copy.map.getNumResults())));
    if (modelled && copy.bufferDims.size() == copy.map.getNumResults())
      copies.push_back(std::move(copy));
  }
  return copies;
}

/// What the combining program of `program` (the one it is the partial
/// program of) folds: the count its stream, or its sums (split-K's, or by
/// Chan's rule), run over; `splits` where that program is not found.
static int64_t combinedCount(tile::ProgramOp program, int64_t splits) {
  std::string combiningName = combiningProgramName(program.getSymName());
  if (combiningName.empty())
    return splits;
  auto combining = SymbolTable::lookupNearestSymbolFrom<tile::ProgramOp>(
      program, StringAttr::get(program.getContext(), combiningName));
  if (!combining)
    return splits;
  for (Operation &op : combining.getBody().front()) {
    Value count;
    if (auto chunks = dyn_cast<tile::OnlineReduceOp>(op))
      count = chunks.getExtent();
    else if (auto sum = dyn_cast<tile::ReduceOp>(op);
             sum && sum.getExtents().size() == 1)
      count = sum.getExtents().front();
    if (std::optional<int64_t> folded =
            count ? getConstantIntValue(count) : std::nullopt)
      return *folded;
  }
  return splits;
}

std::optional<SplitModel> splitOf(tile::ProgramOp program,
                                  tile::ContractOp contract,
                                  DictionaryAttr bindings) {
  if (!contract || !contract.isSplit() || !contract.getSplitChunk())
    return std::nullopt;
  SplitModel split;
  split.chunk = *contract.getSplitChunk();
  split.extentName = sizeNameOf(program, contract.getExtent());
  if (bindings && !split.extentName.empty())
    if (auto value = bindings.getAs<IntegerAttr>(split.extentName))
      split.extent = value.getInt();
  Attribute along = program.getOutputDims()[*contract.getSplitDim()];
  auto literal = dyn_cast<IntegerAttr>(along);
  if (!literal)
    return std::nullopt;
  split.splits = literal.getInt();
  split.combined = combinedCount(program, split.splits);
  return split;
}

/// The split of a partial program's stream or reduction over `extent`:
/// `chunk` points a program along output dimension `splitDim` (or `parts`
/// sized at launch), or std::nullopt where the extent or the count of
/// programs is not known.
std::optional<SplitModel> foldSplitOf(tile::ProgramOp program, Value extent,
                                      int64_t chunk,
                                      std::optional<int64_t> parts,
                                      int64_t splitDim,
                                      DictionaryAttr bindings) {
  SplitModel split;
  split.chunk = chunk;
  split.parts = parts;
  split.extentName = sizeNameOf(program, extent);
  if (std::optional<int64_t> literal = getConstantIntValue(extent))
    split.extent = *literal;
  else if (split.extentName.empty())
    return std::nullopt; // (an extent the sizes do not name)
  if (bindings && !split.extentName.empty())
    if (auto value = bindings.getAs<IntegerAttr>(split.extentName))
      split.extent = value.getInt();
  if (split.extentName.empty())
    split.extentName = std::to_string(*split.extent);
  auto literal = dyn_cast<IntegerAttr>(program.getOutputDims()[splitDim]);
  if (!literal)
    return std::nullopt;
  split.splits = literal.getInt();
  split.combined = combinedCount(program, split.splits);
  return split;
}

/// The split of `program`'s stream (a split stream's partial program:
/// split-KV, constant chunks or parts sized at launch), or of its
/// reduction (`reduce_split`: chunks of its outermost reduced index), or
/// std::nullopt.
std::optional<SplitModel> streamSplitOf(tile::ProgramOp program,
                                        DictionaryAttr bindings) {
  if (tile::OnlineReduceOp stream = tile::onlyTopLevelStream(program))
    return stream.isSplit()
               ? foldSplitOf(program, stream.getExtent(),
                             *stream.getSplitChunk(), stream.getSplitParts(),
                             *stream.getSplitDim(), bindings)
               : std::nullopt;
  for (auto reduce : program.getBody().front().getOps<tile::ReduceOp>())
    if (reduce.isSplit() && reduce.getSplitChunk())
      return foldSplitOf(program, reduce.getExtents().front(),
                         *reduce.getSplitChunk(), std::nullopt,
                         *reduce.getSplitDim(), bindings);
  return std::nullopt;
}

/// The points of `program`'s sweep on a GPU (none without one).
std::optional<SweepModel> sweepOf(tile::ProgramOp program,
                                  DictionaryAttr bindings) {
  tile::SweepOp sweep;
  program.walk([&](tile::SweepOp s) { sweep = s; });
  if (!sweep)
    return std::nullopt;
  tile::ScheduleAttr schedule = program.getSchedule();
  SweepModel model;
  model.split = tile::sweepSplitShape(schedule.getReduceThreads(),
                                      schedule.getReductionRun(),
                                      schedule.getElementsPerThread());
  if (std::optional<int64_t> literal = getConstantIntValue(sweep.getExtent())) {
    model.extentName = std::to_string(*literal);
    model.extent = *literal;
    return model;
  }
  model.extentName = sizeNameOf(program, sweep.getExtent());
  if (model.extentName.empty())
    return std::nullopt; // (an extent the sizes do not name)
  if (bindings)
    if (auto value = bindings.getAs<IntegerAttr>(model.extentName))
      model.extent = value.getInt();
  return model;
}

} // namespace

std::vector<ProgramModel> verify::buildKernelModels(ModuleOp module) {
  std::vector<ProgramModel> models;
  std::string targetName;
  if (auto target = module->getAttrOfType<tile::TargetAttr>(
          tile::TargetAttr::kModuleAttrName))
    targetName = target.getName().str();
  module.walk([&](tile::ProgramOp program) {
    ProgramModel model;
    model.name = program.getSymName().str();
    model.targetName = targetName;
    tile::ScheduleAttr schedule = program.getSchedule();
    DictionaryAttr bindings;
    if (tile::PlanOp plan = program.getPlan())
      bindings = plan.getBindingsAttr();
    bool gpu = schedule.getThreads() > 1 || schedule.getMma();
    if (gpu) {
      if (std::optional<layout::LinearLayout> l = schedule.getDistribution())
        model.layouts.push_back({"the tile's distribution", *l});
      else
        model.blocked = BlockedDistribution{
            std::vector<int64_t>(schedule.getTile().begin(),
                                 schedule.getTile().end()),
            schedule.getTileThreads(), schedule.getElementsPerThread(),
            schedule.getTileRun()};
      program.walk([&](tile::ConvertLayoutOp convert) {
        model.layouts.push_back({"a tile.convert_layout's target layout",
                                 convert.getLayout().getLayout()});
        model.conversions.push_back(stagingOf(program, convert));
      });
    }
    // (The first of its contractions: with siblings, the pipeline's.)
    tile::ContractOp contract = findContract(program);
    if (contract)
      contract = tile::siblingContracts(contract).front();
    if (gpu && contract && schedule.getMma()) {
      addTensorCoreModel(program, contract, model);
      if (!model.wgmma) // wgmma's operands come by TMA, which checks bounds
        model.interiorCopies =
            interiorCopiesOf(program, contract, program.getPlan());
    } else if (gpu && streamSharedMemoryBytes(program)) {
      addFlashModel(program, model);
      model.tileConstantReads = tileConstantReadsOf(program);
    }
    if (bindings)
      for (NamedAttribute bound : bindings)
        if (auto value = dyn_cast<IntegerAttr>(bound.getValue()))
          model.boundSizes[bound.getName().str()] = value.getInt();
    model.grid = gridOf(program, bindings);
    model.split = splitOf(program, contract, bindings);
    if (!model.split)
      model.split = streamSplitOf(program, bindings);
    if (gpu)
      model.sweep = sweepOf(program, bindings);
    models.push_back(std::move(model));
  });
  return models;
}
