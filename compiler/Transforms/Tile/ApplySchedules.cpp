//===- ApplySchedules.cpp - Schedules that replace the formed ones --------===//
//
// Asks the schedule provider which programs' schedules it replaces as a
// whole (a schedule file's, a tuning database's), checks each against its
// program and the target, and gives it to the program (see
// TileApplySchedules in Passes.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Tile/Passes.h"
#include "compiler/Transforms/Tile/SplitContractions.h"
#include "compiler/Transforms/Tile/SplitReductions.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/PackedPanel.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

#include "compiler/Schedule/ScheduleFile.h"
#include "compiler/Schedule/SchedulingPass.h"

#include "mlir/IR/BuiltinOps.h"

namespace nautilus {
#define GEN_PASS_DEF_TILEAPPLYSCHEDULES
#include "compiler/Transforms/Tile/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// The most elements of a tile one GPU thread may hold (the widest default,
/// wgmma's 128 x 256 accumulators over two warpgroups, holds 128).
constexpr int64_t kMaxElementsPerThread = 128;
/// The most elements of a CPU program's tile (below).
constexpr int64_t kMaxCpuTileElements = 65536;

/// Why `schedule`'s tiles do not fit `target`'s registers ("" when they
/// do). On a GPU each thread holds its share of every tile in registers,
/// element by element (tensor cores: the consumer warps' accumulators);
/// past a share of 128 a thread runs out of its 255 registers, and
/// compiling the unrolled code takes minutes. The CPU computes a tile as
/// vectors of its elements: LLVM unrolls them all, and a tile of a million
/// took longer to compile than anyone waits (the models' largest: a
/// decoding step's row of 2048, 32 x 128).
std::string registersRefusal(tile::ScheduleAttr schedule,
                             const TargetInfo &target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t elements = schedule.getNumElements();
  if (!target.isGPU()) {
    if (elements > kMaxCpuTileElements)
      os << "a tile of " << elements << " elements; on the CPU at most "
         << kMaxCpuTileElements
         << " (each is a register's lane: tiles of 8 x 64 are typical)";
    return text;
  }
  int64_t holders = schedule.getTileThreads();
  if (schedule.getThreads() > target.maxThreadsPerProgram)
    os << "threads = " << schedule.getThreads()
       << ": a GPU block holds at most " << target.maxThreadsPerProgram
       << " threads";
  else if (elements / holders > kMaxElementsPerThread)
    os << "the schedule gives each thread " << elements / holders
       << " elements of a tile (" << elements << " over " << holders
       << " threads); at most " << kMaxElementsPerThread
       << " fit in a thread's registers: use more threads or a smaller tile";
  return text;
}

struct TileApplySchedulesPass
    : public SchedulingPass<
          nautilus::impl::TileApplySchedulesBase<TileApplySchedulesPass>> {
  using SchedulingPass::SchedulingPass;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // From nautc-opt: the schedules of the file the `path` option names;
    // the heuristics replace nothing.
    std::shared_ptr<ScheduleProvider> provider = schedules;
    if (!path.empty())
      provider = std::make_shared<ScheduleFile>(path, heuristicSchedules());
    else if (provider == heuristicSchedules())
      return;
    std::optional<TargetInfo> info = moduleTarget();
    if (!info)
      return;
    target = *info;
    if (failed(provider->beginReplacing(module)))
      return signalPassFailure();
    origin = provider->origin();
    for (auto program : llvm::to_vector(module.getOps<tile::ProgramOp>())) {
      FailureOr<tile::ScheduleAttr> replaced =
          provider->replacement(program, target);
      if (failed(replaced))
        return signalPassFailure();
      // Copies for ranges are made from the program as formed (each
      // checked with its own schedule), not as `replaced` would leave it.
      FailureOr<std::vector<ScheduleVariant>> variants =
          provider->launchVariants(program, target);
      if (failed(variants))
        return signalPassFailure();
      if (!variants->empty() ? failed(copyForRanges(program, *variants))
                             : *replaced && failed(apply(program, *replaced)))
        return signalPassFailure();
    }
  }

  /// Whether `ranges` cover every value of one size once, in order: the
  /// first from 0, each from where the one before ends, the last
  /// unbounded.
  static bool coverInOrder(ArrayRef<tile::SizeRangeAttr> ranges) {
    int64_t next = 0;
    for (auto [i, range] : llvm::enumerate(ranges))
      if (range.getSize() != ranges.front().getSize() ||
          range.getAtLeast() != next ||
          (i + 1 == ranges.size()) == range.getBelow().has_value())
        return false;
      else
        next = range.getBelow().value_or(0);
    return true;
  }

  /// Whether the variants' ranges cover every shape once: their first
  /// ranges cover one size in order (consecutive variants sharing one),
  /// and where several share a first range their second ranges cover
  /// another size in order.
  static bool coverEveryShape(ArrayRef<ScheduleVariant> variants) {
    if (llvm::any_of(variants, [](const ScheduleVariant &v) {
          return v.ranges.empty() || v.ranges.size() > 2;
        }))
      return false;
    SmallVector<tile::SizeRangeAttr> outer;
    for (size_t i = 0; i < variants.size();) {
      tile::SizeRangeAttr first = variants[i].ranges.front();
      size_t end = i;
      SmallVector<tile::SizeRangeAttr> inner;
      for (; end < variants.size() && variants[end].ranges.front() == first;
           ++end)
        if (variants[end].ranges.size() == 2)
          inner.push_back(variants[end].ranges[1]);
      bool divided = end - i > 1;
      if (inner.size() != (divided ? end - i : 0) ||
          (divided && (!coverInOrder(inner) ||
                       inner.front().getSize() == first.getSize())))
        return false;
      outer.push_back(first);
      i = end;
    }
    return coverInOrder(outer);
  }

  /// Replaces `program` by a copy for each variant's ranges with the
  /// variant's schedule (checked as `apply` checks), launched where the
  /// plan launched it, in the variants' order.
  LogicalResult copyForRanges(tile::ProgramOp program,
                              ArrayRef<ScheduleVariant> variants) {
    tile::PlanOp plan = program.getPlan();
    if (!plan || !coverEveryShape(variants))
      return program.emitError(origin)
             << ", program '" << program.getSymName()
             << "': the copies for ranges of sizes must cover each shape "
                "once, in order, in a planned program (a bug)";
    OpBuilder b(program);
    b.setInsertionPointAfter(program);
    SmallVector<Attribute> copies;
    for (const ScheduleVariant &variant : variants) {
      auto copy = cast<tile::ProgramOp>(b.clone(*program));
      copy.setSymName(
          tile::SizeRangeAttr::copyName(program.getSymName(), variant.ranges));
      copy.setLaunchRangesAttr(b.getArrayAttr(SmallVector<Attribute>(
          variant.ranges.begin(), variant.ranges.end())));
      if (failed(apply(copy, variant.schedule)))
        return failure();
      copies.push_back(FlatSymbolRefAttr::get(copy.getSymNameAttr()));
    }
    SmallVector<Attribute> launched;
    for (Attribute entry : plan.getPrograms()) {
      if (cast<FlatSymbolRefAttr>(entry).getValue() == program.getSymName())
        llvm::append_range(launched, copies);
      else
        launched.push_back(entry);
    }
    plan.setProgramsAttr(b.getArrayAttr(launched));
    program.erase();
    return success();
  }

  TargetInfo target;
  std::string origin;

  /// Checks `schedule` against `program` and gives it to it.
  LogicalResult apply(tile::ProgramOp program, tile::ScheduleAttr schedule) {
    auto error = [&]() {
      return program.emitError(origin)
             << ", program '" << program.getSymName() << "': ";
    };
    if (schedule.getTile().size() != program.getRank())
      return error() << "the schedule tiles " << schedule.getTile().size()
                     << " dimensions; the program's output has "
                     << program.getRank();
    tile::ContractOp contract = findContract(program);
    tile::MmaAttr mma = schedule.getMma();
    if (contract && !mma)
      return error() << "the program's contraction needs a tensor-core "
                        "schedule (mma = #tile.mma<...>)";
    // A stream's tensor-core schedule is its flash kernel's (its lowering
    // checks the tile's rows, warps and stages).
    tile::OnlineReduceOp stream = program.getFlashStream();
    if (!contract && mma && !stream)
      return error() << "a tensor-core schedule (mma) needs a contraction "
                        "or a stream (a flash kernel), and the program has "
                        "neither";
    // The program verifier's tensor-core rules, named here with the
    // schedule's origin.
    if (std::string refusal =
            schedule.tensorCoreRefusal(program.getRank(), mma && stream);
        !refusal.empty())
      return error() << refusal;
    if (stream && mma) {
      if (!target.isGPU())
        return error() << "a stream's tensor-core schedule (a flash "
                          "kernel) is for GPU targets, not "
                       << target.name;
      if (mma.getSplitK() > 1)
        return error() << "split_k: a flash kernel splits its keys with "
                          "reduce_split";
      unsigned rank = program.getRank();
      int64_t heads = rank >= 3 ? schedule.getTile()[rank - 3] : 1;
      std::string refusal = flashHeadsRefusal(stream, rank, heads,
                                              tile::knownSizeValues(program));
      if (!refusal.empty())
        return error() << "the flash kernel cannot hold " << heads
                       << " heads a tile: " << refusal;
    }
    if (mma && mma.getInstr() == "wgmma") {
      if (!target.hasWgmma())
        return error() << "wgmma runs on sm_90, not " << target.name;
      if (contract && (contract.isComputed(0) || contract.isComputed(1)) &&
          !mma.getProducers())
        return error() << "a computed operand under wgmma is evaluated by "
                          "the producer warpgroup: producers = 1";
      if (contract && mma.getPingPong())
        return error() << "ping_pong is a flash kernel's (a stream's "
                          "schedule); a contraction's consumers do not take "
                          "turns yet";
      if (contract && mma.getOverlapSoftmax())
        return error() << "overlap_softmax is a flash kernel's (a stream's "
                          "schedule): a contraction has no softmax to "
                          "overlap";
    }
    if (schedule.getPack()) {
      if (!target.isCPU())
        return error() << "pack is for CPU programs, not " << target.name;
      if (schedule.getReduceSplit() > 1)
        return error() << "pack and reduce_split do not combine (a split's "
                          "partial programs read their chunk of B, not its "
                          "panel)";
      SmallVector<tile::LoadOp> panels = tile::packablePanelLoads(program);
      if (panels.empty())
        return error() << "pack: the program has no contraction operand to "
                          "pack (one load, in each of its reductions over "
                          "one same index, of a buffer at [..., k, n] or "
                          "[..., n, k]: k the reduced index, n the output's "
                          "innermost index, the others batch dimensions; not "
                          "of bools)";
      for (tile::LoadOp load : panels) {
        tile::PanelLayout layout =
            *tile::panelLayoutOf(load, program.getRank());
        for (unsigned d : layout.batchDims)
          if (schedule.getTile()[d] != 1)
            return error() << "pack: the packed operand's panel depends on "
                              "output dimension "
                           << d << ", which the tile spans ("
                           << schedule.getTile()[d]
                           << "): give it a tile extent of 1";
      }
    }
    if (schedule.getReduceBlock()) {
      if (std::string refusal = tile::reductionBlockRefusal(program);
          !refusal.empty())
        return error() << "reduce_block = " << schedule.getReduceBlock() << ": "
                       << refusal << "; drop reduce_block";
    }
    if (schedule.getReduceThreads() > 1) {
      bool routes = false;
      program.walk([&](tile::RouteOp) { routes = true; });
      if (routes)
        return error() << "reduce_threads: the program routes rows (a "
                          "mixture of experts' bucketing), which groups of "
                          "threads do not share";
    }
    if (schedule.getReduceSplit() > 1) {
      std::string refusal =
          splitReductionRefusal(program, schedule.getReduceSplit());
      if (!refusal.empty())
        return error() << "reduce_split = " << schedule.getReduceSplit() << ": "
                       << refusal;
    }
    if (mma && mma.getSplitK() > 1) {
      std::string refusal = splitKRefusal(program, contract, mma);
      if (!refusal.empty())
        return error() << "split_k = " << mma.getSplitK() << ": " << refusal;
    }
    if (std::string refusal = registersRefusal(schedule, target);
        !refusal.empty())
      return error() << refusal;
    // Skipping tiles only saves work (tile.skip_if_negative): a tile that
    // cannot be skipped whole under the new schedule runs.
    if (auto skip = tile::SkipIfNegativeOp::find(program))
      if (!skip.isUniformOver(schedule.getTile()))
        skip.erase();
    program.retile(schedule);
    // A flash kernel's producer warpgroup issues TMA copies: it needs the
    // tensor maps the retiled program's Q, K and V take.
    if (stream && mma && mma.getProducers() && flashTensorMaps(program).empty())
      return error() << "producers = 1: a flash kernel's producer warpgroup "
                        "issues TMA copies, and Q's, K's or V's rows are read "
                        "through an expression no tensor map follows";
    return success();
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createTileApplySchedules(
    std::shared_ptr<ScheduleProvider> schedules) {
  return std::make_unique<TileApplySchedulesPass>(std::move(schedules));
}
