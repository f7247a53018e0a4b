//===- AutoSchedulesGpu.cpp - The GPU models' choices beside contractions -===//
//
// `--schedule auto` on a GPU for the programs without a contraction
// problem: element-wise programs and reductions of rows or columns
// (autoscheduler/GpuSpace.h; over sample shapes where sizes are unbound,
// autoscheduler/GpuUnboundSizes.h) and flash kernels (autoscheduler/
// FlashSpace.h), read from the tile program (GpuPrograms.h), each choice
// recorded with its runners-up and the heuristics' schedule for
// `--explain`.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/GpuUnboundSizes.h"
#include "compiler/Schedule/AutoSchedules.h"
#include "compiler/Schedule/GpuPrograms.h"
#include "dialects/Tile/Utils/StreamSplits.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// A count to a tenth: "4", "3.2".
std::string tenthsText(double count) {
  double tenths = std::round(count * 10);
  if (std::fmod(tenths, 10) == 0)
    return llvm::formatv("{0}", int64_t(tenths / 10)).str();
  return llvm::formatv("{0:f1}", tenths / 10).str();
}

std::string describe(const RankedGpuCandidate &r) {
  const GpuCost &cost = r.cost;
  std::string s =
      llvm::formatv("{0}: {1:f1} us (memory {2:f1}, cache {3:f1}, "
                    "compute {4:f1}, latency {5:f1}",
                    r.candidate.describe(), cost.totalUs, cost.memoryUs,
                    cost.cacheUs, cost.computeUs, cost.latencyUs);
  if (cost.splitSumUs > 0)
    s += llvm::formatv(", split sum {0:f1}", cost.splitSumUs).str();
  s += llvm::formatv("; {0} programs, {1} a multiprocessor, {2} waves, "
                     "{3} registers, {4} sectors a warp load",
                     cost.programs, cost.blocksPerMultiprocessor, cost.waves,
                     cost.registers, tenthsText(cost.sectorsPerLoad))
           .str();
  // Where the loads do not coalesce: the fewest their bytes would take;
  // where runs fall back to loads element by element, how many a run takes.
  if (cost.sectorsPerLoad > cost.fewestSectorsPerLoad + 0.05)
    s += " (fewest " + tenthsText(cost.fewestSectorsPerLoad) + ")";
  if (cost.requestsPerLoad > 1.05)
    s += ", a run in " + tenthsText(cost.requestsPerLoad) + " loads";
  if (cost.sweepRereads == "registers")
    s += ", the rows kept in registers for the sweep";
  else if (!cost.sweepRereads.empty())
    s += ", the sweep reads again from " + cost.sweepRereads;
  return s + ")";
}

std::string describe(const RankedFlashCandidate &r) {
  const FlashCost &cost = r.cost;
  std::string s =
      llvm::formatv("{0}: {1:f1} us (tensor {2:f1}, softmax "
                    "{3:f1}, memory {4:f1}, latency {5:f1}",
                    r.candidate.describe(), cost.totalUs, cost.tensorUs,
                    cost.softmaxUs, cost.memoryUs, cost.latencyUs);
  if (cost.splitSumUs > 0)
    s += llvm::formatv(", split sum {0:f1}", cost.splitSumUs).str();
  return s + llvm::formatv("; {0} programs, {1} a multiprocessor, {2} waves, "
                           "{3} registers, {4} KiB shared)",
                           cost.programs, cost.blocksPerMultiprocessor,
                           cost.waves, cost.registers, cost.sharedBytes / 1024)
                 .str();
}

std::string extentsOf(const std::vector<int64_t> &extents) {
  return CpuCandidate{extents, {}}.describe();
}

/// A candidate's regrets over sample shapes of the sizes `unbound`, then its
/// cost at the largest (`atLargest`, described).
std::string regretsText(const SampleRegrets &regrets,
                        const std::vector<std::string> &unbound,
                        const std::string &atLargest) {
  return llvm::formatv("{0:f2}x the best (geometric mean), {1:f2}x at worst "
                       "({2}); at the largest: ",
                       regrets.mean, regrets.worst,
                       sampleShapeText(unbound, regrets.worstSample))
             .str() +
         atLargest;
}

/// `--explain`'s note of a choice over `shapes` sample shapes of the sizes
/// `unbound`, after what the program is at the largest.
std::string samplesText(const std::vector<std::string> &unbound,
                        size_t shapes) {
  return " at the largest of " + std::to_string(shapes) +
         " sample shapes (sizes " + llvm::join(unbound, ", ") +
         " unbound, each at " + sampleExtentsText() +
         "; schedules ranked by the geometric mean over them of their time "
         "over the best schedule's)";
}

/// ", a reduction of rows of 50000", or "" for an element-wise program.
std::string kindText(const GpuProgram &facts) {
  if (facts.kind == GpuProgramKind::RowReduction)
    return ", a reduction of rows of " + std::to_string(facts.reduced);
  if (facts.kind == GpuProgramKind::ColumnReduction)
    return ", a reduction of columns of " + std::to_string(facts.reduced);
  return "";
}

/// A division (GpuLaunchRanges, FlashLaunchRanges) as its copies'
/// schedules (`scheduleOf` a candidate) and descriptions.
template <typename Ranges, typename ScheduleOf>
AutoSchedules::GpuRangeCopies rangeCopiesOf(const Ranges &ranges,
                                            ScheduleOf scheduleOf) {
  AutoSchedules::GpuRangeCopies copies{ranges.division, {}, {}};
  for (const auto &candidate : ranges.candidates) {
    copies.schedules.push_back(scheduleOf(candidate));
    copies.descriptions.push_back(candidate.describe());
  }
  return copies;
}

/// Whether the launch reads each of `unbound` by name: a program's size,
/// not a routed table's rows (a copy's range must be one it can test).
bool launchReadsSizes(tile::ProgramOp program,
                      const std::vector<std::string> &unbound) {
  auto sizes = program.getSizes().getAsValueRange<StringAttr>();
  return llvm::all_of(unbound, [&](const std::string &size) {
    return llvm::is_contained(sizes, size);
  });
}

/// The upper bound (exclusive) each leaf of `division` puts on each of
/// `unbound` (none where it puts none), and the leaf's candidate.
std::vector<std::pair<std::vector<std::optional<int64_t>>, size_t>>
leavesOf(const LaunchRanges &division, size_t unbound) {
  std::vector<std::pair<std::vector<std::optional<int64_t>>, size_t>> leaves;
  for (const LaunchRange &range : division.ranges) {
    std::vector<std::optional<int64_t>> below(unbound);
    below[division.size] = range.below;
    if (!range.inner) {
      leaves.push_back({below, range.candidate});
      continue;
    }
    for (const LaunchRange &inner : range.inner->ranges) {
      below[range.inner->size] = inner.below;
      leaves.push_back({below, inner.candidate});
    }
  }
  return leaves;
}

/// Whether every split copy of `ranges` keeps its partial results within
/// what a split may take (kMaxPartialWorkspaceBytes) over its whole range:
/// each of the program's output dimensions bound, or bounded above by the
/// copy's range. (A workspace is allocated only where its copy launches,
/// but there at its full size.)
bool splitCopiesFit(tile::ProgramOp program, const FlashLaunchRanges &ranges,
                    const std::vector<std::string> &unbound) {
  tile::OnlineReduceOp stream = program.getFlashStream();
  for (const auto &[below, candidate] :
       leavesOf(ranges.division, unbound.size())) {
    int64_t split = ranges.candidates[candidate].split;
    if (split == 1)
      continue;
    double bytes = double(split) * tile::streamPartialElementBytes(stream);
    for (Attribute dim : program.getOutputDims()) {
      std::optional<int64_t> extent = program.getKnownExtent(dim);
      if (!extent) {
        auto at = llvm::find(unbound, cast<StringAttr>(dim).getValue().str());
        if (at == unbound.end() || !below[at - unbound.begin()])
          return false;
        extent = *below[at - unbound.begin()] - 1;
      }
      bytes *= double(*extent);
    }
    if (bytes > double(tile::kMaxPartialWorkspaceBytes))
      return false;
  }
  return true;
}

} // namespace

FailureOr<tile::ScheduleAttr>
AutoSchedules::gpuReplacement(tile::ProgramOp program,
                              const TargetInfo &asked) {
  TargetInfo target = modelled(asked);
  StringRef name = program.getSymName();
  size_t keep =
      keepWith(llvm::count_if(refutedGpu, [&](const RefutedGpuProgram &r) {
        return r.program == name;
      }));
  GpuChoice choice;
  choice.program = name.str();
  if (std::optional<FlashProblem> flash = flashProblemOf(program, target)) {
    for (const RankedFlashCandidate &r : rankFlashSchedules(
             *flash, target, keep, &choice.spaceSize,
             optionsFor("flash kernel " + name.str()), &choice.predicted))
      choice.ranked.push_back(
          {flashScheduleOf(program, r.candidate), describe(r), r.cost.totalUs});
    FlashCandidate own = flashCandidateOf(program.getSchedule());
    RankedFlashCandidate heuristics{own, estimateFlash(*flash, own, target)};
    choice.heuristics = {program.getSchedule(), describe(heuristics),
                         heuristics.cost.totalUs};
    choice.heuristicsInSpace =
        llvm::is_contained(flashSpace(*flash, target), own);
    choice.what = llvm::formatv("over {0} heads of {1} queries x {2} keys, "
                                "head dimension {3}, a flash kernel",
                                flash->heads, flash->queries, flash->keys,
                                flash->headDim);
    return recordGpuChoice(program, std::move(choice), target);
  }
  if (std::optional<FlashProblemSamples> samples =
          flashProblemSamplesOf(program, target))
    return sampledFlashReplacement(program, target, std::move(choice), keep,
                                   *samples);
  std::optional<GpuProgram> facts = gpuProgramOf(program);
  if (!facts)
    return sampledGpuReplacement(program, target, std::move(choice), keep);
  for (const RankedGpuCandidate &r :
       rankGpuSchedules(*facts, target, keep, &choice.spaceSize,
                        optionsFor("program " + name.str()), &choice.predicted))
    choice.ranked.push_back(
        {gpuScheduleOf(program, r.candidate), describe(r), r.cost.totalUs});
  GpuCandidate own = gpuCandidateOf(program.getSchedule());
  RankedGpuCandidate heuristics{own, estimateGpu(*facts, own, target)};
  choice.heuristics = {program.getSchedule(), describe(heuristics),
                       heuristics.cost.totalUs};
  choice.heuristicsInSpace = llvm::is_contained(gpuSpace(*facts, target), own);
  choice.what = "over " + extentsOf(facts->extents) + kindText(*facts);
  return recordGpuChoice(program, std::move(choice), target);
}

template <typename Sampled, typename ScheduleOf, typename Describe>
void AutoSchedules::fillSampledChoice(GpuChoice &choice,
                                      std::vector<Sampled> ranked,
                                      const Sampled &mine,
                                      tile::ScheduleAttr own, size_t keep,
                                      size_t shapes, ScheduleOf scheduleOf,
                                      Describe describe) {
  choice.spaceSize = ranked.size();
  choice.predicted = ranked.size() * shapes;
  if (keep && ranked.size() > keep)
    ranked.resize(keep);
  for (const Sampled &c : ranked)
    choice.ranked.push_back(
        {scheduleOf(c.candidate), describe(c), c.regrets.mean});
  choice.heuristics = {own, describe(mine), mine.regrets.mean};
}

FailureOr<tile::ScheduleAttr>
AutoSchedules::sampledGpuReplacement(tile::ProgramOp program,
                                     const TargetInfo &target, GpuChoice choice,
                                     size_t keep) {
  std::optional<GpuProgramSamples> samples = gpuProgramSamplesOf(program);
  if (!samples)
    return next->replacement(program, target);
  const std::vector<GpuProgram> &views = samples->views;
  std::vector<double> bestUs;
  GpuCandidate own = gpuCandidateOf(program.getSchedule());
  std::vector<GpuSampledCandidate> ranked =
      rankGpuOverSamples(views, target, 0, &bestUs);
  fillSampledChoice(
      choice, std::move(ranked),
      sampledGpuCandidate(views, bestUs, own, target), program.getSchedule(),
      keep, views.size(),
      [&](const GpuCandidate &c) { return gpuScheduleOf(program, c); },
      [&](const GpuSampledCandidate &c) {
        return regretsText(
            c.regrets, samples->unbound,
            describe(RankedGpuCandidate{c.candidate, c.atLargest}));
      });
  choice.heuristicsInSpace = own.split == 1 && isPowerOfTwoTile(own.tile) &&
                             llvm::all_of(views, [&](const GpuProgram &view) {
                               return fitsGpuTarget(view, own, target);
                             });
  choice.unbound = samples->unbound;
  choice.what = "over " + extentsOf(views.back().extents) +
                kindText(views.back()) +
                samplesText(samples->unbound, views.size());
  bool recorded = false;
  FailureOr<tile::ScheduleAttr> chosen =
      recordGpuChoice(program, std::move(choice), target, &recorded);
  // (None recorded where no ranked schedule was live: the heuristics
  // decide.)
  if (failed(chosen) || !recorded)
    return chosen;
  // Where one schedule serves some shapes badly: copies for ranges of a
  // size, launched by it (each unsplit, of a power-of-two tile, as the one
  // schedule must be for them to be compared).
  // Each size must be one the launch reads by name (a program's size, not
  // a routed table's rows).
  GpuCandidate one = gpuCandidateOf(*chosen ? *chosen : program.getSchedule());
  if (one.split != 1 || !isPowerOfTwoTile(one.tile) ||
      !launchReadsSizes(program, samples->unbound))
    return chosen;
  std::optional<GpuLaunchRanges> ranges = chooseGpuLaunchRanges(
      samples->unbound.size(),
      [&](const std::vector<int64_t> &extents) {
        return gpuProgramAtExtents(program, samples->unbound, extents);
      },
      one, target,
      [&](const GpuCandidate &c) {
        return !isRefuted(program.getSymName(), gpuScheduleOf(program, c));
      });
  if (ranges)
    recordLaunchRanges(program,
                       rangeCopiesOf(*ranges, [&](const GpuCandidate &c) {
                         return gpuScheduleOf(program, c);
                       }));
  return chosen;
}

void AutoSchedules::recordLaunchRanges(tile::ProgramOp program,
                                       GpuRangeCopies copies) {
  std::lock_guard<std::mutex> lock(mutex);
  // (The choice just recorded.)
  auto latest =
      llvm::find_if(llvm::reverse(gpuChoices), [&](const GpuChoice &c) {
        return c.program == program.getSymName();
      });
  if (latest != gpuChoices.rend())
    latest->launchRanges = std::move(copies);
}

FailureOr<tile::ScheduleAttr> AutoSchedules::sampledFlashReplacement(
    tile::ProgramOp program, const TargetInfo &target, GpuChoice choice,
    size_t keep, const FlashProblemSamples &samples) {
  const std::vector<FlashProblem> &views = samples.views;
  std::vector<double> bestUs;
  FlashCandidate own = flashCandidateOf(program.getSchedule());
  std::vector<FlashSampledCandidate> ranked =
      rankFlashOverSamples(views, target, 0, &bestUs);
  fillSampledChoice(
      choice, std::move(ranked),
      sampledFlashCandidate(views, bestUs, own, target), program.getSchedule(),
      keep, views.size(),
      [&](const FlashCandidate &c) { return flashScheduleOf(program, c); },
      [&](const FlashSampledCandidate &c) {
        return regretsText(
            c.regrets, samples.unbound,
            describe(RankedFlashCandidate{c.candidate, c.atLargest}));
      });
  choice.heuristicsInSpace =
      own.split == 1 && own.heads == 1 &&
      llvm::is_contained(flashSpace(views.back(), target), own);
  choice.unbound = samples.unbound;
  const FlashProblem &largest = views.back();
  choice.what = llvm::formatv("over {0} heads of {1} queries x {2} keys, "
                              "head dimension {3}, a flash kernel",
                              largest.heads, largest.queries, largest.keys,
                              largest.headDim)
                    .str() +
                samplesText(samples.unbound, views.size());
  bool recorded = false;
  FailureOr<tile::ScheduleAttr> chosen =
      recordGpuChoice(program, std::move(choice), target, &recorded);
  if (failed(chosen) || !recorded)
    return chosen;
  // Copies for ranges of the sizes, as for other GPU programs; a copy may
  // also split the keys (split-KV where few heads meet many keys), its
  // chunks sized at launch and its partials allocated only where it runs.
  FlashCandidate one =
      flashCandidateOf(*chosen ? *chosen : program.getSchedule());
  if (one.split != 1 || one.heads != 1 ||
      !launchReadsSizes(program, samples.unbound))
    return chosen;
  const std::vector<std::string> &unbound = samples.unbound;
  auto problemAt = [&](const std::vector<int64_t> &extents) {
    return flashProblemAtExtents(program, target, unbound, extents);
  };
  auto allowed = [&](const FlashCandidate &c) {
    return !isRefuted(program.getSymName(), flashScheduleOf(program, c));
  };
  std::optional<FlashLaunchRanges> ranges =
      chooseFlashLaunchRanges(unbound.size(), problemAt, one, target, allowed);
  // A split copy over a range with no bound on some output extent would
  // allocate partials of any size there: then the copies do not split.
  if (ranges && !splitCopiesFit(program, *ranges, unbound))
    ranges = chooseFlashLaunchRanges(
        unbound.size(), problemAt, one, target,
        [&](const FlashCandidate &c) { return c.split == 1 && allowed(c); });
  if (ranges)
    recordLaunchRanges(program,
                       rangeCopiesOf(*ranges, [&](const FlashCandidate &c) {
                         return flashScheduleOf(program, c);
                       }));
  return chosen;
}

std::vector<ScheduleVariant>
AutoSchedules::gpuProgramVariants(tile::ProgramOp program) {
  std::lock_guard<std::mutex> lock(mutex);
  // (The latest choice for the program: the one `replacement` just made.)
  auto choice =
      llvm::find_if(llvm::reverse(gpuChoices), [&](const GpuChoice &c) {
        return c.program == program.getSymName();
      });
  if (choice == gpuChoices.rend() || !choice->launchRanges)
    return {};
  choice->copies.clear();
  const GpuRangeCopies &ranges = *choice->launchRanges;
  return rangeVariants(
      program, ranges.division, choice->unbound,
      [&](size_t candidate) { return ranges.schedules[candidate]; },
      choice->copies);
}

FailureOr<tile::ScheduleAttr>
AutoSchedules::recordGpuChoice(tile::ProgramOp program, GpuChoice choice,
                               const TargetInfo &target, bool *recorded) {
  endProgress(choice.spaceSize);
  auto isLive = [&](const RankedSchedule &r) {
    return !isRefuted(choice.program, r.schedule);
  };
  auto firstLive = llvm::find_if(choice.ranked, isLive);
  if (firstLive == choice.ranked.end())
    return next->replacement(program, target);
  // The model departs from the heuristics only for a predicted gain: where
  // their schedule is in the space (within the target's limits), not
  // refuted, and within kHeuristicsTie of the best live candidate, it is
  // chosen.
  if (choice.heuristicsInSpace && isLive(choice.heuristics) &&
      choice.heuristics.predictedUs <=
          firstLive->predictedUs * (1 + kHeuristicsTie)) {
    auto own = llvm::find_if(choice.ranked, [&](const RankedSchedule &r) {
      return r.schedule == choice.heuristics.schedule;
    });
    RankedSchedule first =
        own == choice.ranked.end() ? choice.heuristics : *own;
    if (own != choice.ranked.end())
      choice.ranked.erase(own);
    choice.ranked.insert(choice.ranked.begin(), std::move(first));
    firstLive = choice.ranked.begin();
  }
  choice.chosen = firstLive - choice.ranked.begin();
  tile::ScheduleAttr best = firstLive->schedule;
  {
    std::lock_guard<std::mutex> lock(mutex);
    gpuChoices.push_back(std::move(choice));
  }
  if (recorded)
    *recorded = true;
  if (best == program.getSchedule())
    return tile::ScheduleAttr();
  return best;
}

bool AutoSchedules::isRefuted(StringRef program,
                              tile::ScheduleAttr schedule) const {
  return llvm::any_of(refutedGpu, [&](const RefutedGpuProgram &r) {
    return r.program == program && r.schedule == schedule;
  });
}

void AutoSchedules::explainGpu(llvm::raw_ostream &os) const {
  for (const GpuChoice &choice : gpuChoices) {
    os << "explain: GPU program " << choice.program << " " << choice.what
       << ": " << choice.spaceSize << " candidates"
       << searchedText(choice.spaceSize, choice.predicted) << "\n";
    for (auto [i, ranked] : llvm::enumerate(choice.ranked))
      // (With launch ranges, their copies, below, are chosen instead.)
      os << (i == choice.chosen
                 ? choice.launchRanges ? "  one schedule: " : "  chosen:    "
             : isRefuted(choice.program, ranked.schedule) ? "  refuted:   "
                                                          : "  runner-up: ")
         << ranked.description << " = " << Attribute(ranked.schedule) << "\n";
    os << "  heuristics: " << choice.heuristics.description
       << (choice.heuristicsInSpace
               ? ""
               : " (outside the space: beyond the target's registers or "
                 "shared memory, or a shape the space does not hold)")
       << "\n";
    if (const std::optional<GpuRangeCopies> &ranges = choice.launchRanges)
      printLaunchDivision(
          os, ranges->division, choice.unbound, "schedule",
          [&](size_t candidate) { return ranges->descriptions[candidate]; });
  }
}
