//===- GpuPrograms.cpp - A tile program as the GPU model sees it ----------===//
#include "compiler/Schedule/GpuPrograms.h"
#include "autoscheduler/GpuUnboundSizes.h"
#include "compiler/Schedule/Heuristics.h"
#include "compiler/Schedule/PointWork.h"
#include "dialects/Tile/Utils/AffineExpansion.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/HeldRows.h"
#include "dialects/Tile/Utils/LeadingLoads.h"

using namespace mlir;
using namespace nautilus;
using autosched::GpuProgram;
using autosched::GpuProgramKind;

namespace {

int64_t bytesOf(Value buffer) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  return element.isIntOrFloat()
             ? std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8)
             : 4;
}

/// Counts `op`'s cost a point into `facts` (PointWork.h): a special
/// function is also an operation (the one around it).
void countWork(Operation *op, GpuProgram &facts) {
  PointWork work = pointWorkOf(op);
  facts.work += work != PointWork::None;
  facts.specialFunctions += work == PointWork::SpecialFunction;
}

/// The program's one top-level reduction (a tile.reduce, or a row stream:
/// a tile.online_reduce, which the model sees as a reduction doing its
/// body's work a point), or null, and the sweep after it (`sweep`);
/// failure where it has several, or other ops with regions (loops,
/// contractions).
FailureOr<Operation *> onlyReduction(tile::ProgramOp program,
                                     tile::SweepOp &sweep) {
  Operation *only = nullptr;
  for (Operation &op : program.getBody().front()) {
    if (isa<tile::ReduceOp, tile::OnlineReduceOp>(op)) {
      if (only)
        return failure();
      only = &op;
      continue;
    }
    if (auto s = dyn_cast<tile::SweepOp>(op); s && !sweep) {
      sweep = s;
      continue;
    }
    if (op.getNumRegions() != 0)
      return failure();
  }
  bool nested = false;
  for (Operation *root : {only, sweep.getOperation()})
    if (root)
      root->walk([&](Operation *op) {
        nested |= op->getNumRegions() != 0 && op != root;
      });
  if (nested || (sweep && !only))
    return failure();
  return only;
}

/// What a row reduction's loads read: their buffers and maps.
using ReadPlaces = llvm::DenseSet<std::pair<Value, AffineMap>>;

/// Counts `op`, inside `sweep`, into the sweep's facts: a load of what
/// the reduction read (`reread`: the same buffer at the same map) from the
/// caches, others from DRAM where they vary with every output and the
/// swept index; one the reduction's body loads first (`leading`: without
/// a gather, at its top level) as a load a thread may keep (HeldRows.h).
void countSweep(Operation *op, tile::SweepOp sweep, unsigned rank,
                const ReadPlaces &reread, const ReadPlaces &leading,
                GpuProgram::Sweep &facts) {
  if (op == sweep.getOperation()) {
    facts.storeBytesPerPoint += bytesOf(sweep.getBuffer());
    return;
  }
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    ++facts.loadsPerPoint;
    bool everyIndex = true;
    for (unsigned d = 0; d <= rank; ++d)
      everyIndex &= load.getMap().isFunctionOfDim(d);
    if (reread.contains({load.getBuffer(), load.getMap()})) {
      facts.rereadBytesPerPoint += bytesOf(load.getBuffer());
      if (tile::isLeadingLoad(load) &&
          leading.contains({load.getBuffer(), load.getMap()})) {
        facts.keptBytesPerPoint += tile::keptBytesOf(bytesOf(load.getBuffer()));
        ++facts.keptLoadsPerPoint;
      }
    } else if (everyIndex)
      facts.uniqueBytesPerPoint += bytesOf(load.getBuffer());
    return;
  }
  PointWork work = pointWorkOf(op);
  facts.work += work != PointWork::None;
  facts.specialFunctions += work == PointWork::SpecialFunction;
}

/// Whether every gather of `program` reads runs along its outputs'
/// innermost dimension, as a plain load of rows would (gathersRunsAlong:
/// a mixture of experts' rows of X, or of each expert's results); the model
/// costs such a gather as a load of the rows, and its table as a load.
bool gathersRows(tile::ProgramOp program) {
  unsigned innermost = program.getRank() - 1;
  bool rows = true;
  program.walk([&](tile::LoadOp load) {
    rows &= load.getIndirect().empty() || gathersRunsAlong(load, innermost);
  });
  return rows;
}

/// The rows of `program` (rank 2) that compute where it skips a routing
/// table's blocks (tile.skip_if_negative: a grouped GEMM's rows, the
/// operand it materialises), balanced routing assumed; its rows where it
/// skips none; none where the skip is not over whole blocks of rows for
/// every tile of the space (kMaxOuterTile rows, or kMaxReductionOutputs
/// for a reduction, `reduces`) or its routing is not bound.
std::optional<int64_t> busyRowsOf(tile::ProgramOp program,
                                  ArrayRef<int64_t> extents, bool reduces) {
  tile::SkipIfNegativeOp skip = tile::SkipIfNegativeOp::find(program);
  if (!skip)
    return extents.front();
  std::optional<autosched::ContractionProblem::Groups> groups =
      routedGroupsOf(program);
  if (!groups || extents.size() != 2 ||
      !skip.isUniformOver(
          {reduces ? autosched::kMaxReductionOutputs : autosched::kMaxOuterTile,
           int64_t(llvm::PowerOf2Ceil(extents.back()))}))
    return std::nullopt;
  return std::min(extents.front(), groups->busyRows());
}

/// Whether `load` reads another element as index `d` changes: through its
/// map, or, for a gather of rows (gathersRows), any index but the outputs'
/// innermost (`innermost`), along which it reads runs.
bool variesWith(tile::LoadOp load, unsigned d, unsigned innermost) {
  return load.getMap().isFunctionOfDim(d) ||
         (!load.getIndirect().empty() && d != innermost);
}

/// Whether `reduction`, which reductionShapeOf does not classify, is a
/// short fold of gathered rows that each thread folds alone (a mixture of
/// experts' combine, Y[t, c] = sum over j of w[t, j] Y_e[slot[t, j], c]):
/// a bound extent of at most kShortFold, with a gather of rows among its
/// reads (the others plain: the combine's weights w[t, j]). The model sees
/// it as a column reduction without groups.
constexpr int64_t kShortFold = 16;
bool isShortGatheredFold(Operation *reduction, std::optional<int64_t> reduced) {
  if (!reduced || *reduced > kShortFold)
    return false;
  bool gathered = false;
  reduction->walk(
      [&](tile::LoadOp load) { gathered |= !load.getIndirect().empty(); });
  return gathered;
}

/// The indices `reduction` folds over.
SmallVector<Value> reducedExtents(Operation *reduction) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(reduction))
    return llvm::to_vector(reduce.getExtents());
  return {cast<tile::OnlineReduceOp>(reduction).getExtent()};
}

/// The GPU model's view of `program`, each size the plan does not bind at
/// the extent `unbound` gives it (gpuProgramOf's, but for those sizes).
std::optional<GpuProgram> gpuProgramAt(tile::ProgramOp program,
                                       UnboundExtent unbound) {
  tile::ScheduleAttr schedule = program.getSchedule();
  if (schedule.getMma())
    return std::nullopt;
  bool routes = false;
  program.walk([&](tile::RouteOp) { routes = true; });
  // (A routing program's tile.route runs in one tile of the whole
  // output: its schedule is fixed.)
  tile::SweepOp sweep;
  FailureOr<Operation *> reduce = onlyReduction(program, sweep);
  if (routes || failed(reduce) || program.getRank() == 0 ||
      !gathersRows(program))
    return std::nullopt;
  auto extentOfDim = [&](Attribute dim) {
    return extentAt(program, dim, unbound);
  };
  GpuProgram facts;
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = extentOfDim(dim);
    if (!extent)
      return std::nullopt;
    facts.extents.push_back(*extent);
  }
  // (A routing table's blocks are skipped over bound sizes only: its groups
  // are read from the plan.)
  std::optional<int64_t> busyRows =
      busyRowsOf(program, facts.extents, /*reduces=*/*reduce != nullptr);
  if (!busyRows)
    return std::nullopt;
  facts.extents.front() = *busyRows;
  unsigned rank = facts.extents.size();
  if (*reduce) {
    SmallVector<Value> over = reducedExtents(*reduce);
    if (over.size() != 1)
      return std::nullopt;
    std::optional<int64_t> reduced =
        extentOfDim(program.getExtentDim(over.front()));
    if (!reduced)
      return std::nullopt;
    facts.reduced = *reduced;
    facts.reducedBound = program.getKnownExtent(over.front()).has_value();
    // Groups share the reduction; splits up to the heuristics' own (whose
    // rules checked it may split that far: fewer chunks need less
    // workspace). A short gathered fold takes neither.
    facts.maxReduceThreads = 1024;
    switch (reductionShapeOf(program, *reduce)) {
    case ReductionShape::Rows:
      facts.kind = GpuProgramKind::RowReduction;
      break;
    case ReductionShape::Columns:
      facts.kind = GpuProgramKind::ColumnReduction;
      break;
    case ReductionShape::Other:
      if (!isShortGatheredFold(*reduce, reduced))
        return std::nullopt;
      facts.kind = GpuProgramKind::ColumnReduction;
      facts.maxReduceThreads = 1;
      break;
    }
    if (sweep && facts.kind != GpuProgramKind::RowReduction)
      return std::nullopt;
    if (facts.maxReduceThreads > 1)
      for (int64_t split = 2; split <= schedule.getReduceSplit(); split *= 2)
        facts.splits.push_back(split);
  }
  // A point is an output element, times the reduced index in a reduction.
  unsigned pointDim = *reduce ? rank : rank - 1;
  facts.loadsPerPoint = 0;
  ReadPlaces reread, leading;
  if (sweep) {
    facts.sweep.emplace();
    (*reduce)->walk([&](tile::LoadOp load) {
      reread.insert({load.getBuffer(), load.getMap()});
    });
    for (tile::LoadOp load :
         tile::leadingLoadsOf((*reduce)->getRegion(0).front()))
      leading.insert({load.getBuffer(), load.getMap()});
  }
  program.walk([&](Operation *op) {
    if (sweep && sweep->isAncestor(op))
      return countSweep(op, sweep, rank, reread, leading, *facts.sweep);
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      bool inReduction = *reduce && (*reduce)->isAncestor(op);
      bool everyOutput = true;
      for (unsigned d = 0; d < rank; ++d)
        everyOutput &= variesWith(load, d, rank - 1);
      if (*reduce && !inReduction) {
        facts.bytesPerOutput += everyOutput ? bytesOf(load.getBuffer()) : 0;
        return;
      }
      if (*reduce && !variesWith(load, rank, rank - 1))
        return; // the same for the whole reduction: read once
      (everyOutput ? facts.uniqueBytesPerPoint : facts.sharedBytesPerPoint) +=
          bytesOf(load.getBuffer());
      facts.loadsPerPoint += variesWith(load, pointDim, rank - 1);
      return;
    }
    if (auto store = dyn_cast<tile::StoreOp>(op)) {
      facts.bytesPerOutput += bytesOf(store.getBuffer());
      return;
    }
    if (!*reduce || (*reduce)->isAncestor(op))
      countWork(op, facts);
  });
  facts.loadsPerPoint = std::max<int64_t>(1, facts.loadsPerPoint);
  // (A reduction's runs: along its reduced index where groups share it,
  // along the outputs where each thread folds alone.)
  facts.maxVector = maxVectorRun(program, /*ofReductions=*/*reduce &&
                                              facts.maxReduceThreads > 1);
  facts.elementBytes = 16 / facts.maxVector;
  if (facts.maxVector == 1) {
    facts.elementBytes = 4;
    program.walk([&](tile::LoadOp load) {
      facts.elementBytes =
          std::min(facts.elementBytes, bytesOf(load.getBuffer()));
    });
  }
  return facts;
}

} // namespace

std::optional<GpuProgram> nautilus::gpuProgramOf(tile::ProgramOp program) {
  return gpuProgramAt(program, [](StringRef) { return std::nullopt; });
}

std::optional<GpuProgramSamples>
nautilus::gpuProgramSamplesOf(tile::ProgramOp program) {
  return viewsAtSamples<GpuProgram>(
      [&](UnboundExtent unbound) { return gpuProgramAt(program, unbound); });
}

std::optional<GpuProgram>
nautilus::gpuProgramAtExtents(tile::ProgramOp program,
                              const std::vector<std::string> &unbound,
                              const std::vector<int64_t> &extents) {
  return gpuProgramAt(program, [&](StringRef name) -> std::optional<int64_t> {
    return extentAmong(name, unbound, extents);
  });
}

bool nautilus::sharesRowsForSweep(tile::ScheduleAttr schedule) {
  return !schedule.getMma() && schedule.getReduceSplit() == 1 &&
         schedule.getReduceThreads() > 1 && !schedule.getReduceInterleaved();
}

tile::ScheduleAttr nautilus::sweepableRowsSchedule(tile::ProgramOp rows,
                                                   const TargetInfo &target) {
  if (!target.isGPU())
    return tile::ScheduleAttr();
  // The model's ranking at bound extents, or over sample shapes (those
  // unsplit already).
  std::vector<autosched::GpuCandidate> ranked;
  if (std::optional<GpuProgram> facts = gpuProgramOf(rows)) {
    if (facts->kind != GpuProgramKind::RowReduction)
      return tile::ScheduleAttr();
    facts->splits = {1};
    for (const autosched::RankedGpuCandidate &r :
         autosched::rankGpuSchedules(*facts, target))
      ranked.push_back(r.candidate);
  } else if (std::optional<GpuProgramSamples> samples =
                 gpuProgramSamplesOf(rows)) {
    // (A sweep over rows of unbound length is left out: the checker's
    // proof of its loops, coverage.sweep, timed out at 10 s on some
    // groups, rmsnorm's 128 threads in runs of 8 among them.)
    const GpuProgram &first = samples->views.front();
    if (first.kind != GpuProgramKind::RowReduction || !first.reducedBound)
      return tile::ScheduleAttr();
    for (const autosched::GpuSampledCandidate &r :
         autosched::rankGpuOverSamples(samples->views, target))
      ranked.push_back(r.candidate);
  }
  for (const autosched::GpuCandidate &c : ranked) {
    tile::ScheduleAttr schedule = gpuScheduleOf(rows, c);
    if (sharesRowsForSweep(schedule))
      return schedule;
  }
  return tile::ScheduleAttr();
}

tile::ScheduleAttr nautilus::gpuScheduleOf(tile::ProgramOp program,
                                           const autosched::GpuCandidate &c) {
  return tile::ScheduleAttr::get(program.getContext(), c.tile, c.threads,
                                 tile::MmaAttr(), c.reduceThreads, c.split,
                                 c.interleaved, c.vector, /*pack=*/false);
}

autosched::GpuCandidate nautilus::gpuCandidateOf(tile::ScheduleAttr schedule) {
  autosched::GpuCandidate c;
  c.tile.assign(schedule.getTile().begin(), schedule.getTile().end());
  c.threads = schedule.getThreads();
  c.reduceThreads = schedule.getReduceThreads();
  c.vector = schedule.getVector();
  c.split = schedule.getReduceSplit();
  c.interleaved = schedule.getReduceInterleaved();
  return c;
}

/// The flash model's view of `program`, each size the plan does not bind
/// at the extent `unbound` gives it (flashProblemOf's, but for those
/// sizes: then one head a tile, and no split unless `unboundSplits`, a
/// copy's view).
static std::optional<autosched::FlashProblem>
flashProblemAt(tile::ProgramOp program, const TargetInfo &target,
               UnboundExtent unbound, bool unboundSplits = false) {
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::OnlineReduceOp stream = program.getFlashStream();
  if (!stream || !schedule.getMma() || program.getRank() < 2)
    return std::nullopt;
  unsigned rank = program.getRank();
  bool bound = true;
  auto extentOfDim = [&](Attribute dim) {
    bound &= program.getKnownExtent(dim).has_value();
    return extentAt(program, dim, unbound);
  };
  // (The head dimension is bound: its tensor-core tiles are made for it.)
  if (!program.getKnownExtent(program.getOutputDims()[rank - 1]))
    return std::nullopt;
  std::vector<int64_t> extents;
  for (Attribute dim : program.getOutputDims()) {
    std::optional<int64_t> extent = extentOfDim(dim);
    if (!extent)
      return std::nullopt;
    extents.push_back(*extent);
  }
  std::optional<int64_t> keys =
      extentOfDim(program.getExtentDim(stream.getExtent()));
  if (!keys)
    return std::nullopt;
  autosched::FlashProblem p;
  for (unsigned d = 0; d + 2 < rank; ++d)
    p.heads *= extents[d];
  p.queries = extents[rank - 2];
  p.headDim = extents[rank - 1];
  p.keys = *keys;
  p.operandBytes = 4;
  stream.getBody().walk([&](tile::LoadOp load) {
    p.operandBytes = std::min(p.operandBytes, bytesOf(load.getBuffer()));
  });
  program.walk(
      [&](tile::StoreOp store) { p.outputBytes = bytesOf(store.getBuffer()); });
  p.wgmmaAllowed = target.hasWgmma() && p.headDim % 64 == 0;
  if (!bound) {
    // A copy's splits: each chunk at least kFlashMinChunk keys (the
    // heuristics' rule), and sized at launch (SplitStreams.cpp).
    for (int64_t split = 2; unboundSplits && split <= kMostUnboundFlashSplit &&
                            p.keys / split >= kFlashMinChunk;
         split *= 2)
      p.splits.push_back(split);
    return p;
  }
  // Splits up to the heuristics' own (their rules checked that one).
  for (int64_t split = 2; split <= schedule.getReduceSplit(); split *= 2)
    p.splits.push_back(split);
  // Heads a tile may hold: those whose K and V reads are one row over the
  // tile's heads.
  if (rank >= 3) {
    SmallVector<std::optional<int64_t>> sizes = tile::knownSizeValues(program);
    for (int64_t heads = 2; heads <= p.heads && heads <= 64; heads *= 2) {
      if (!flashHeadsRefusal(stream, rank, heads, sizes).empty())
        break;
      p.maxHeadsPerTile = heads;
    }
  }
  return p;
}

std::optional<autosched::FlashProblem>
nautilus::flashProblemOf(tile::ProgramOp program, const TargetInfo &target) {
  return flashProblemAt(program, target,
                        [](StringRef) { return std::nullopt; });
}

std::optional<FlashProblemSamples>
nautilus::flashProblemSamplesOf(tile::ProgramOp program,
                                const TargetInfo &target) {
  return viewsAtSamples<autosched::FlashProblem>([&](UnboundExtent unbound) {
    return flashProblemAt(program, target, unbound);
  });
}

std::optional<autosched::FlashProblem>
nautilus::flashProblemAtExtents(tile::ProgramOp program,
                                const TargetInfo &target,
                                const std::vector<std::string> &unbound,
                                const std::vector<int64_t> &extents) {
  return flashProblemAt(
      program, target,
      [&](StringRef name) -> std::optional<int64_t> {
        return extentAmong(name, unbound, extents);
      },
      /*unboundSplits=*/true);
}

tile::ScheduleAttr
nautilus::flashScheduleOf(tile::ProgramOp program,
                          const autosched::FlashCandidate &c) {
  MLIRContext *ctx = program.getContext();
  SmallVector<int64_t> tile(program.getSchedule().getTile());
  tile[tile.size() - 2] = c.rowsPerHead();
  if (tile.size() >= 3)
    tile[tile.size() - 3] = c.heads;
  auto mma = tile::MmaAttr::get(ctx, c.wgmma ? "wgmma" : "mma_sync", c.keyBlock,
                                {c.warps, 1}, c.stages, /*groupM=*/1,
                                /*producers=*/0, /*persistent=*/0,
                                c.swizzleBytes, /*splitK=*/1,
                                /*pingPong=*/0, /*overlapSoftmax=*/0);
  return tile::ScheduleAttr::get(ctx, tile, c.threads(), mma,
                                 /*reduceThreads=*/1, c.split,
                                 /*reduceInterleaved=*/false, /*vector=*/1,
                                 /*pack=*/false);
}

autosched::FlashCandidate
nautilus::flashCandidateOf(tile::ScheduleAttr schedule) {
  tile::MmaAttr mma = schedule.getMma();
  autosched::FlashCandidate c;
  c.wgmma = mma.getInstr() == "wgmma";
  c.warps = mma.getWarps()[0];
  c.keyBlock = mma.getTileK();
  c.stages = mma.getStages();
  c.split = schedule.getReduceSplit();
  ArrayRef<int64_t> tile = schedule.getTile();
  c.heads = tile.size() >= 3 ? tile[tile.size() - 3] : 1;
  // (wgmma's stages are always 128-byte swizzled, whatever it says.)
  c.swizzleBytes = c.wgmma ? 128 : mma.getSwizzle();
  return c;
}
