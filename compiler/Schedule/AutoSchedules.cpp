//===- AutoSchedules.cpp - Schedules the auto-scheduler chooses -----------===//
#include "compiler/Schedule/AutoSchedules.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "dialects/Tile/Utils/ReductionKinds.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::autosched;

namespace {

void printCost(llvm::raw_ostream &os, const CostBreakdown &cost) {
  os << llvm::format("%.1f us", cost.totalUs) << " (compute "
     << llvm::format("%.1f", cost.computeUs) << ", memory "
     << llvm::format("%.1f", cost.memoryUs) << ", latency "
     << llvm::format("%.1f", cost.latencyUs);
  if (cost.splitSumUs > 0)
    os << ", split sum " << llvm::format("%.1f", cost.splitSumUs);
  os << "; " << cost.programs << " programs, " << cost.blocksPerMultiprocessor
     << " a multiprocessor, " << cost.waves << " waves, last "
     << llvm::format("%.0f%%", 100 * cost.lastWaveFill) << " full)";
}

/// The provider the auto-scheduler falls back on (the heuristics), in the
/// structure the model chose: the kernel is lowered again with the same
/// programs, each scheduled by the heuristics.
class KeepsStructure final : public RewriteStatingProvider {
public:
  KeepsStructure(std::shared_ptr<ScheduleProvider> next, RewriteChoice rewrites)
      : RewriteStatingProvider(std::move(next)), rewrites(rewrites) {}
  std::optional<RewriteChoice> statedRewrites() const override {
    return rewrites;
  }
  std::string origin() const override {
    return next->origin() + " in the auto-scheduler's structure (the " +
           rewrites.describe() + ")";
  }

private:
  std::string refusalOf(StringRef) const override {
    return "the auto-scheduler chose the " + rewrites.describe();
  }

  RewriteChoice rewrites;
};

} // namespace

void nautilus::printLaunchDivision(
    llvm::raw_ostream &os, const LaunchRanges &division,
    const std::vector<std::string> &unbound, StringRef what,
    llvm::function_ref<std::string(size_t)> describe) {
  std::string samples;
  for (auto [i, extent] : llvm::enumerate(kLaunchRangeSamples))
    samples += (i == 0                                ? ""
                : i + 1 == kLaunchRangeSamples.size() ? " and "
                                                      : ", ") +
               std::to_string(extent);
  auto rangeText = [&](const LaunchRanges &d, const LaunchRange &range) {
    const std::string &size = unbound[d.size];
    std::string below = size + " < " + std::to_string(range.below.value_or(0));
    return !range.below    ? size + " >= " + std::to_string(range.atLeast)
           : range.atLeast ? std::to_string(range.atLeast) + " <= " + below
                           : below;
  };
  auto printOne = [&](const LaunchRange &range) {
    os << describe(range.candidate) << ": "
       << llvm::format("%.2fx", range.meanRegret)
       << " the best over its samples (geometric mean), "
       << llvm::format("%.2fx", range.worstRegret) << " at worst\n";
  };
  const std::string &size = unbound[division.size];
  bool dividedAgain = llvm::any_of(
      division.ranges, [](const LaunchRange &r) { return r.inner != nullptr; });
  os << "  chosen:    " << division.copies()
     << " copies of the program, for ranges of " << size
     << (dividedAgain ? " and within them of another size" : "")
     << ", launched by the sizes; " << size
     << "'s ranges alone: " << llvm::format("%.2fx", division.meanRegret)
     << " the best (geometric mean over " << division.sampleShapes
     << " sample shapes, " << size << " at " << samples << "), against "
     << llvm::format("%.2fx", division.oneTileMeanRegret) << " for one "
     << what;
  // (A division earned by the worst loss it removes, not its mean.)
  auto earnedByWorst = [&](const LaunchRanges &d) {
    if (d.earnedByWorst)
      os << " (earned by its worst: " << llvm::format("%.2fx", d.worstRegret)
         << " against " << llvm::format("%.2fx", d.oneTileWorstRegret) << ")";
  };
  earnedByWorst(division);
  os << "\n";
  for (const LaunchRange &range : division.ranges) {
    os << "    " << rangeText(division, range) << ": ";
    if (!range.inner) {
      printOne(range);
      continue;
    }
    const LaunchRanges &inner = *range.inner;
    os << "divided again by " << unbound[inner.size] << ": "
       << llvm::format("%.2fx", inner.meanRegret)
       << " the best (geometric mean over its " << inner.sampleShapes
       << " sample shapes), against "
       << llvm::format("%.2fx", inner.oneTileMeanRegret) << " for "
       << describe(range.candidate);
    earnedByWorst(inner);
    os << "\n";
    for (const LaunchRange &innerRange : inner.ranges) {
      os << "      " << rangeText(inner, innerRange) << ": ";
      printOne(innerRange);
    }
  }
}

tile::ScheduleAttr nautilus::scheduleOf(MLIRContext *ctx, unsigned rank,
                                        const ContractionCandidate &c) {
  SmallVector<int64_t> tile(rank, 1);
  tile[rank - 2] = c.tileM;
  tile[rank - 1] = c.tileN;
  tile::MmaAttr mma = tile::MmaAttr::get(
      ctx, c.wgmma ? "wgmma" : "mma_sync", c.tileK, {c.warpsM, c.warpsN},
      c.stages, c.groupM, /*producers=*/c.producer ? 1 : 0,
      /*persistent=*/c.producer ? 1 : 0, c.swizzleBytes, c.splitK,
      /*pingPong=*/0, /*overlapSoftmax=*/0);
  return tile::ScheduleAttr::get(ctx, tile, mma.getNumThreads(), mma);
}

std::optional<ContractionCandidate>
nautilus::candidateOf(tile::ScheduleAttr schedule) {
  tile::MmaAttr mma = schedule.getMma();
  if (!mma)
    return std::nullopt;
  ArrayRef<int64_t> tile = schedule.getTile();
  ContractionCandidate c;
  c.wgmma = mma.getInstr() == "wgmma";
  c.tileM = tile[tile.size() - 2];
  c.tileN = tile.back();
  c.tileK = mma.getTileK();
  c.warpsM = mma.getWarps()[0];
  c.warpsN = mma.getWarps()[1];
  c.stages = mma.getStages();
  c.splitK = mma.getSplitK();
  c.producer = mma.getProducers() != 0;
  c.swizzleBytes = mma.getSwizzle();
  c.groupM = mma.getGroupM();
  return c;
}

tile::ScheduleAttr
AutoSchedules::contraction(MLIRContext *ctx, unsigned rank,
                           const ContractionExtents &extents, bool wgmma,
                           ComputedSides computed, const TargetInfo &asked,
                           std::optional<int64_t> splittableK) {
  TargetInfo target = modelled(asked);
  // (A grouped GEMM's tiles must not straddle its groups' blocks: the
  // model knows them where its routing is bound, and only there.)
  if (!target.hasMmaSync() ||
      ((!extents.m || !extents.n) && (extents.grouped || extents.routed)))
    return next->contraction(ctx, rank, extents, wgmma, computed, target,
                             splittableK);
  if (!extents.m || !extents.n)
    return sampledContraction(ctx, rank, extents, wgmma, computed, target,
                              splittableK);
  ContractionProblem problem = problemOf(extents, wgmma, computed, splittableK);
  size_t keep = keepWith(
      llvm::count_if(refutedContractions, [&](const RefutedContraction &r) {
        return r.problem == problem;
      }));
  SearchResult search = searchContraction(
      problem, target, keep,
      optionsFor(llvm::formatv("contraction {0} x {1}", problem.m, problem.n)));
  endProgress(search.spaceSize);
  auto firstLive = llvm::find_if(search.ranked, [&](const RankedCandidate &r) {
    return !isRefuted(problem, scheduleOf(ctx, rank, r.candidate));
  });
  if (firstLive == search.ranked.end())
    return next->contraction(ctx, rank, extents, wgmma, computed, target,
                             splittableK);
  tile::ScheduleAttr chosen = scheduleOf(ctx, rank, firstLive->candidate);
  size_t chosenIndex = firstLive - search.ranked.begin();
  Choice choice{problem, std::move(search), chosenIndex};
  choice.fewestWaves = fewestWavesChoice(problem, target);
  choice.ctx = ctx;
  choice.rank = rank;
  if (std::optional<ContractionCandidate> rules = candidateOf(
          next->contraction(ctx, rank, extents, wgmma, computed, target,
                            splittableK)))
    choice.heuristics = RankedCandidate{*rules, estimate(problem, *rules,
                                                         target)};
  recordContraction(std::move(choice));
  return chosen;
}

ContractionProblem
AutoSchedules::problemOf(const ContractionExtents &extents, bool wgmma,
                         ComputedSides computed,
                         std::optional<int64_t> splittableK) {
  ContractionProblem problem = extents.problem();
  if (splittableK)
    problem.k = splittableK;
  problem.splittable = splittableK.has_value() && computed.siblings == 1;
  problem.computedLhs = computed.lhs;
  problem.computedRhs = computed.rhs;
  problem.wgmmaAllowed = wgmma;
  problem.siblings = computed.siblings;
  return problem;
}

void AutoSchedules::recordContraction(Choice choice) {
  const ContractionProblem &problem = choice.problem;
  std::lock_guard<std::mutex> lock(mutex);
  // The same program asked again replaces its first answer:
  // tile-form-contractions asks again once it knows K may be split, and
  // tile-materialize-computed-operands once the operand it computed is
  // loaded from a workspace.
  auto askedAgain = [&](const ContractionProblem &first) {
    bool computed = first.computedLhs || first.computedRhs;
    bool nowLoaded = !problem.computedLhs && !problem.computedRhs;
    return first.m == problem.m && first.n == problem.n &&
           first.k == problem.k && first.batch == problem.batch &&
           first.grouped == problem.grouped &&
           ((!first.splittable && problem.splittable) ||
            (computed && nowLoaded));
  };
  if (!choices.empty() && askedAgain(choices.back().problem))
    choices.pop_back();
  choices.push_back(std::move(choice));
}

FailureOr<tile::ScheduleAttr>
AutoSchedules::replacement(tile::ProgramOp program, const TargetInfo &target) {
  if (target.isGPU())
    return gpuReplacement(program, target);
  std::optional<CpuChoice> choice = rankCpuProgram(program, target);
  if (!choice)
    return next->replacement(program, target);
  auto firstLive = llvm::find_if(choice->ranked, [&](const CpuCandidate &c) {
    return !isRefuted(choice->program, c);
  });
  if (firstLive == choice->ranked.end())
    return next->replacement(program, target);
  choice->chosen = firstLive - choice->ranked.begin();
  const CpuCandidate best = *firstLive;
  if (choice->sampleShapes)
    choice->launchRanges = autosched::chooseCpuLaunchRanges(
        choice->unbound.size(),
        [&](const std::vector<int64_t> &extents) {
          return cpuProgramAtExtents(program, choice->unbound, extents);
        },
        best, target, cpuModelScales(),
        [&](const CpuCandidate &c) { return !isRefuted(choice->program, c); });
  {
    std::lock_guard<std::mutex> lock(mutex);
    cpuChoices.push_back(std::move(*choice));
  }
  if (best.sameSchedule(cpuCandidateOf(program.getSchedule())))
    return tile::ScheduleAttr();
  return cpuScheduleWithTile(program, best.tile, best.pack, best.split,
                             best.reduceBlock);
}

FailureOr<std::vector<ScheduleVariant>>
AutoSchedules::launchVariants(tile::ProgramOp program,
                              const TargetInfo &target) {
  if (target.isGPU()) {
    std::vector<ScheduleVariant> variants = contractionVariants(program);
    return variants.empty() ? gpuProgramVariants(program) : variants;
  }
  std::vector<ScheduleVariant> variants;
  std::lock_guard<std::mutex> lock(mutex);
  // (The latest choice for the program: the one `replacement` just made.)
  auto choice =
      llvm::find_if(llvm::reverse(cpuChoices), [&](const CpuChoice &c) {
        return c.program == program.getSymName();
      });
  if (choice == cpuChoices.rend() || !choice->launchRanges)
    return variants;
  choice->copies.clear();
  const CpuLaunchRanges &ranges = *choice->launchRanges;
  return rangeVariants(
      program, ranges.division, choice->unbound,
      [&](size_t candidate) {
        const CpuCandidate &tile = ranges.candidates[candidate];
        return cpuScheduleWithTile(program, tile.tile, tile.pack, tile.split,
                                   tile.reduceBlock);
      },
      choice->copies);
}

std::vector<ScheduleVariant> AutoSchedules::rangeVariants(
    tile::ProgramOp program, const LaunchRanges &division,
    const std::vector<std::string> &sizes,
    llvm::function_ref<tile::ScheduleAttr(size_t)> scheduleOfCandidate,
    std::vector<std::string> &copies) {
  std::vector<ScheduleVariant> variants;
  auto rangeAttr = [&](const LaunchRanges &d, const LaunchRange &range) {
    return tile::SizeRangeAttr::get(program.getContext(), sizes[d.size],
                                    range.atLeast, range.below);
  };
  auto add = [&](std::vector<tile::SizeRangeAttr> ranges, size_t candidate) {
    // (tile-apply-schedules names each copy so: a refuted one is found.)
    std::string name =
        tile::SizeRangeAttr::copyName(program.getSymName(), ranges);
    if (!llvm::is_contained(copies, name))
      copies.push_back(name);
    variants.push_back({std::move(ranges), scheduleOfCandidate(candidate)});
  };
  // A copy for each range, or for each inner range of a range divided
  // again.
  for (const LaunchRange &range : division.ranges) {
    if (!range.inner) {
      add({rangeAttr(division, range)}, range.candidate);
      continue;
    }
    for (const LaunchRange &inner : range.inner->ranges)
      add({rangeAttr(division, range), rangeAttr(*range.inner, inner)},
          inner.candidate);
  }
  return variants;
}

std::optional<AutoSchedules::CpuChoice>
AutoSchedules::rankCpuProgram(tile::ProgramOp program,
                              const TargetInfo &target) const {
  StringRef name = program.getSymName();
  // (Each tile in blocks of K too: --explain lists a tile's blocks once.)
  size_t keep = kCpuVariantsPerTile * keepWith(cpuRefutations(name));
  CpuTermScales scales = cpuModelScales();
  CpuCandidate own = cpuCandidateOf(program.getSchedule());
  CpuChoice choice;
  choice.program = name.str();
  if (std::optional<CpuProgram> facts = cpuProgramOf(program)) {
    choice.facts = *facts;
    choice.ranked = rankCpuTiles(*facts, target, keep, scales,
                                 optionsFor("program " + name.str()),
                                 &choice.spaceSize, &choice.predicted);
    endProgress(choice.spaceSize);
    choice.heuristics = own;
    choice.heuristics.cost = estimateCpu(*facts, own.tile, target, own.pack,
                                         scales, own.split, own.reduceBlock);
    return choice;
  }
  // Sizes unbound: one tile for every shape, ranked over samples.
  std::optional<CpuProgramSamples> samples = cpuProgramSamplesOf(program);
  if (!samples)
    return std::nullopt;
  choice.facts = samples->views.back();
  choice.unbound = samples->unbound;
  choice.sampleShapes = samples->views.size();
  std::vector<double> bestUs;
  choice.regrets =
      rankCpuTilesOverSamples(samples->views, target, keep, scales, &bestUs);
  for (const CpuSampledCandidate &c : choice.regrets)
    choice.ranked.push_back(c.candidate);
  // The heuristics' tile's regrets follow the ranked candidates'.
  choice.regrets.push_back(
      sampledCandidate(samples->views, bestUs, own, target, scales));
  choice.heuristics = choice.regrets.back().candidate;
  return choice;
}

std::shared_ptr<ScheduleProvider>
AutoSchedules::withStructure(std::vector<StructurePrediction> predictions,
                             size_t chosen) const {
  auto chosenHere =
      std::make_shared<AutoSchedules>(next, listed, calibration, searchOptions);
  chosenHere->structures = std::move(predictions);
  chosenHere->structureChosen = chosen;
  return chosenHere;
}

std::string AutoSchedules::refusalOf(StringRef) const {
  const StructurePrediction &chosen = structures[structureChosen];
  std::string why = "the auto-scheduler's " + chosen.model +
                    " model predicts " +
                    llvm::formatv("{0:f1} us", *chosen.predictedUs).str() +
                    " with the " + chosen.rewrites.describe();
  for (const StructurePrediction &other : structures)
    if (other.rewrites.isDefault())
      why += ", " + llvm::formatv("{0:f1} us", *other.predictedUs).str() +
             " with the " + other.rewrites.describe();
  return why;
}

std::optional<RewriteChoice> AutoSchedules::statedRewrites() const {
  if (structures.empty())
    return std::nullopt;
  return structures[structureChosen].rewrites;
}

void AutoSchedules::explainStructures(llvm::raw_ostream &os) const {
  if (structures.size() < 2)
    return;
  os << "explain: kernel structures (the alg rewrites), by the "
     << structures.front().model << " model's sum of each one's programs";
  if (!structures.front().predictedUs)
    os << " (the default kept: the model cannot predict it)";
  os << ":\n";
  for (auto [i, s] : llvm::enumerate(structures)) {
    os << (i == structureChosen ? "  chosen:    "
           : s.predictedUs      ? "  runner-up: "
                                : "  unranked:  ")
       << s.rewrites.describe() << ": ";
    if (s.predictedUs)
      os << llvm::format("%.1f us", *s.predictedUs) << "\n";
    else
      os << "not predicted (the model cannot cost program '" << s.uncosted
         << "')\n";
  }
}

void AutoSchedules::explainCpu(llvm::raw_ostream &os) const {
  auto print = [&](const char *label, const CpuCandidate &c,
                   const CpuChoice &choice,
                   const CpuSampledCandidate *regrets) {
    const CpuCost &cost = c.cost;
    os << label << c.describe() << ": ";
    if (regrets)
      os << llvm::format("%.2fx", regrets->meanRegret)
         << " the best (geometric mean), "
         << llvm::format("%.2fx", regrets->worstRegret) << " at worst ("
         << sampleShapeText(choice.unbound, regrets->worstSample)
         << "); at the largest: ";
    os << llvm::format("%.1f us", cost.totalUs) << " (compute "
       << llvm::format("%.1f", cost.computeUs) << ", memory "
       << llvm::format("%.1f", cost.memoryUs) << ", overhead "
       << llvm::format("%.1f", cost.overheadUs);
    if (cost.packUs > 0)
      os << ", packing " << llvm::format("%.1f", cost.packUs);
    os << "; " << cost.registers << " vector registers live";
    if (cost.spilled)
      os << ", " << cost.spilled << " spilled";
    os << "; " << cost.programs << " programs, " << cost.waves
       << " waves)\n";
  };
  if (!cpuChoices.empty()) {
    os << "explain: the CPU model (the CPU's default schedules; --schedule "
          "heuristics asks for the hand-written rules) describes this host: "
       << hostDescription() << "\n";
    explainCalibration(os);
  }
  for (const CpuChoice &choice : cpuChoices) {
    os << "explain: CPU program " << choice.program << " over "
       << CpuCandidate{choice.facts.extents, {}}.describe();
    if (choice.sampleShapes)
      os << " at the largest of " << choice.sampleShapes
         << " sample shapes (sizes " << llvm::join(choice.unbound, ", ")
         << " unbound, each at " << sampleExtentsText()
         << "; tiles ranked by the geometric mean over them of their time "
            "over the best tile's)";
    if (choice.facts.reduced && choice.facts.siblings > 1)
      os << ", " << choice.facts.siblings
         << " contractions side by side over " << choice.facts.reduced;
    else if (choice.facts.reduced)
      os << (choice.facts.contraction ? ", a contraction over "
             : choice.facts.stream    ? ", a stream over "
                                      : ", a reduction over ")
         << choice.facts.reduced;
    os << " (model only; `nautc tune` measures"
       << searchedText(choice.spaceSize, choice.predicted) << ")\n";
    auto regretsOf = [&](size_t i) {
      return choice.sampleShapes ? &choice.regrets[i] : nullptr;
    };
    size_t listed = 0, toList = keepWith(cpuRefutations(choice.program));
    for (auto [i, ranked] : llvm::enumerate(choice.ranked)) {
      bool refuted = isRefuted(choice.program, ranked);
      // A runner-up that only blocks K otherwise than one listed before is
      // left out (the same tile in blocks of 512 to 4096 would fill the
      // list), but where the whole space is asked for.
      auto otherBlocks = [&](const CpuCandidate &before) {
        CpuCandidate unblocked = before;
        unblocked.reduceBlock = ranked.reduceBlock;
        return unblocked.sameSchedule(ranked);
      };
      if (i != choice.chosen && !refuted && toList &&
          (listed >= toList ||
           std::any_of(choice.ranked.begin(), choice.ranked.begin() + i,
                       otherBlocks)))
        continue;
      ++listed;
      print(i == choice.chosen
                ? (choice.launchRanges ? "  one tile:  " : "  chosen:    ")
            : refuted ? "  refuted:   "
                      : "  runner-up: ",
            ranked, choice, regretsOf(i));
    }
    print("  heuristics: ", choice.heuristics, choice,
          regretsOf(choice.ranked.size()));
    if (const std::optional<CpuLaunchRanges> &ranges = choice.launchRanges)
      printLaunchDivision(os, ranges->division, choice.unbound, "tile",
                          [&](size_t candidate) {
                            return ranges->candidates[candidate].describe();
                          });
  }
}

void AutoSchedules::explainCalibration(llvm::raw_ostream &os) const {
  if (!calibration)
    return;
  os << "explain: tuning database '" << calibration->database << "' holds "
     << calibration->measurements << " measurements on "
     << calibration->machine;
  std::string refit = calibration->describeRefit();
  if (refit.empty()) {
    os << ", fewer than " << kMinRefitSamples
       << ": the model's terms are not refit (`nautc tune --db` adds "
          "measurements)\n";
    return;
  }
  os << "; the model's terms refit to them: " << refit << "; "
     << (calibration->used ? "ranking with them (--refit)"
                           : "not used (--refit ranks with them)")
     << "\n";
}

autosched::SearchOptions
AutoSchedules::optionsFor(const std::string &what) const {
  autosched::SearchOptions options = searchOptions;
  if (options.progress)
    options.onProgress = [what](size_t predicted, size_t budget, double) {
      std::lock_guard<std::mutex> lock(progressMutex());
      llvm::errs() << "\r\x1b[Ksearch: " << what << ": " << predicted << " of "
                   << budget << " candidates predicted";
      llvm::errs().flush();
    };
  return options;
}

std::mutex &AutoSchedules::progressMutex() {
  static std::mutex mutex; // compilations may search on several threads
  return mutex;
}

void AutoSchedules::endProgress(size_t spaceSize) const {
  // An evolution's progress line, cleared.
  if (searchOptions.progress && searchOptions.evolves(spaceSize)) {
    std::lock_guard<std::mutex> lock(progressMutex());
    llvm::errs() << "\r\x1b[K";
  }
}

std::string AutoSchedules::searchedText(size_t spaceSize,
                                        size_t predicted) const {
  if (!searchOptions.evolves(spaceSize))
    return "";
  return llvm::formatv(", {0} predicted by {1}", predicted,
                       searchOptions.evolutionText(spaceSize))
      .str();
}

void AutoSchedules::explain(llvm::raw_ostream &os) const {
  std::lock_guard<std::mutex> lock(mutex);
  explainStructures(os);
  explainCpu(os);
  // (The CPU's calibration comes with its host, in explainCpu.)
  if (cpuChoices.empty() && (!choices.empty() || !gpuChoices.empty()))
    explainCalibration(os);
  explainGpu(os);
  if (choices.empty() && cpuChoices.empty() && gpuChoices.empty()) {
    os << "explain: no program to search (the auto-scheduler takes "
          "tensor-core contractions, over sample shapes where M or N is "
          "unbound; and CPU programs, and GPU element-wise programs, "
          "reductions of rows or columns (row streams too) and flash "
          "kernels, whose extents are bound or over up to four unbound "
          "sizes)\n";
    next->explain(os);
    return;
  }
  for (const Choice &choice : choices) {
    if (!choice.unbound.empty()) {
      explainSampledContraction(os, choice);
      continue;
    }
    const ContractionProblem &p = choice.problem;
    os << "explain: contraction " << p.m << " x " << p.n << " x "
       << (p.k ? std::to_string(*p.k) : "K (unbound)");
    if (p.batch > 1)
      os << ", " << p.batch << " matrices";
    if (p.siblings > 1)
      os << ", " << p.siblings << " sibling contractions sharing the lhs tile";
    os << ": " << choice.search.spaceSize << " candidates"
       << searchedText(choice.search.spaceSize, choice.search.predicted)
       << "\n";
    for (auto [i, ranked] : llvm::enumerate(choice.search.ranked)) {
      // Candidates the verifier refuted in an earlier round are listed
      // where the model ranks them.
      bool refuted =
          isRefuted(p, scheduleOf(choice.ctx, choice.rank, ranked.candidate));
      os << (i == choice.chosen ? "  chosen:    "
             : refuted          ? "  refuted:   "
                                : "  runner-up: ")
         << ranked.candidate.describe() << ": ";
      printCost(os, ranked.cost);
      // As a schedule file takes it (bench/gpu/tuning.py measures these).
      os << " = " << Attribute(scheduleOf(choice.ctx, choice.rank,
                                          ranked.candidate))
         << "\n";
    }
    // The same model's view of other ways to choose.
    for (auto [label, other] :
         {std::make_pair("  heuristics: ", &choice.heuristics),
          std::make_pair("  fewest waves: ", &choice.fewestWaves)}) {
      if (!*other)
        continue;
      os << label << (*other)->candidate.describe() << ": ";
      printCost(os, (*other)->cost);
      os << "\n";
    }
  }
}

void AutoSchedules::explainSampledContraction(llvm::raw_ostream &os,
                                              const Choice &choice) const {
  const ContractionProblem &p = choice.problem;
  auto extent = [&](StringRef name, int64_t bound) {
    return llvm::is_contained(choice.unbound, name) ? name.str()
                                                    : std::to_string(bound);
  };
  size_t shapes = sampleShapesOf(choice.unbound.size());
  os << "explain: contraction " << extent("M", p.m) << " x " << extent("N", p.n)
     << " x " << (p.k ? std::to_string(*p.k) : "K (unbound)");
  if (p.batch > 1)
    os << ", " << p.batch << " matrices";
  if (p.siblings > 1)
    os << ", " << p.siblings << " sibling contractions sharing the lhs tile";
  os << " over " << shapes << " sample shapes ("
     << llvm::join(choice.unbound, ", ") << " unbound, each at "
     << sampleExtentsText() << "): " << choice.search.spaceSize
     << " candidates, each predicted at every shape\n";
  auto printRegrets = [&](const SampleRegrets &r, const CostBreakdown &cost) {
    os << llvm::format("%.2fx the best (geometric mean), %.2fx at worst (",
                       r.mean, r.worst)
       << sampleShapeText(choice.unbound, r.worstSample)
       << "); at the largest: ";
    printCost(os, cost);
  };
  for (auto [i, ranked] : llvm::enumerate(choice.search.ranked)) {
    bool refuted =
        isRefuted(p, scheduleOf(choice.ctx, choice.rank, ranked.candidate));
    // (With launch ranges, their copies, below, are chosen instead.)
    os << (i != choice.chosen    ? refuted ? "  refuted:   " : "  runner-up: "
           : choice.launchRanges ? "  one schedule: "
                                 : "  chosen:    ")
       << ranked.candidate.describe() << ": ";
    printRegrets(choice.regrets[i], ranked.cost);
    os << " = "
       << Attribute(scheduleOf(choice.ctx, choice.rank, ranked.candidate))
       << "\n";
  }
  if (choice.heuristics && choice.heuristicsRegrets) {
    os << "  heuristics: " << choice.heuristics->candidate.describe() << ": ";
    printRegrets(*choice.heuristicsRegrets, choice.heuristics->cost);
    os << "\n";
  }
  if (!choice.launchRanges)
    return;
  const ContractionLaunchRanges &ranges = *choice.launchRanges;
  printLaunchDivision(os, ranges.division, choice.unbound, "schedule",
                      [&](size_t candidate) {
                        return ranges.candidates[candidate].describe();
                      });
}

bool AutoSchedules::isRefuted(const ContractionProblem &problem,
                              tile::ScheduleAttr schedule) const {
  return llvm::any_of(refutedContractions, [&](const RefutedContraction &r) {
    return r.schedule == schedule && r.problem == problem;
  });
}

bool AutoSchedules::isRefuted(StringRef program,
                              const CpuCandidate &candidate) const {
  return llvm::any_of(refutedCpu, [&](const RefutedCpuProgram &r) {
    return r.program == program && r.schedule.sameSchedule(candidate);
  });
}

std::shared_ptr<ScheduleProvider>
AutoSchedules::fallback(ArrayRef<RefutedProgram> refuted) const {
  auto retry =
      std::make_shared<AutoSchedules>(next, listed, calibration, searchOptions);
  retry->refutedContractions = refutedContractions;
  retry->refutedCpu = refutedCpu;
  retry->refutedGpu = refutedGpu;
  retry->round = round + 1;
  retry->structures = structures;
  retry->structureChosen = structureChosen;
  // Each refuted program's schedule must be one of the model's choices
  // (as chosen: a split-K program's partial schedule, or a retiled one,
  // is not), or the next round would meet the same refutation.
  bool allChosenHere = !refuted.empty();
  std::lock_guard<std::mutex> lock(mutex);
  for (const RefutedProgram &program : refuted) {
    bool chosenHere = false;
    // A contraction program's schedule is the one chosen for its problem
    // (several problems may have chosen it: each passes over it).
    // A copy for a range: its schedule is refuted for the problem (the
    // proof does not depend on the range).
    for (const Choice &choice : choices)
      if (scheduleOf(choice.ctx, choice.rank,
                     choice.search.ranked[choice.chosen].candidate) ==
              program.schedule ||
          llvm::is_contained(choice.copies, program.name)) {
        retry->refutedContractions.push_back(
            {choice.problem, program.schedule});
        chosenHere = true;
      }
    // (A split stream's chunks run in its `_partial` program.)
    for (const CpuChoice &choice : cpuChoices) {
      // A copy for a range: its tile is refuted for the program (the
      // proof does not depend on the range), for the next round's one
      // tile and ranges alike.
      if (llvm::is_contained(choice.copies, program.name)) {
        retry->refutedCpu.push_back(
            {choice.program, cpuCandidateOf(program.schedule)});
        chosenHere = true;
        continue;
      }
      if (choice.program == program.name ||
          partialProgramName(choice.program) == program.name) {
        const CpuCandidate &chosen = choice.ranked[choice.chosen];
        retry->refutedCpu.push_back({choice.program, chosen});
        chosenHere = true;
      }
    }
    // (A split's chosen schedule runs in its `_partial` program. A copy
    // for a range: its schedule is refuted for the program, the proof not
    // depending on the range, for the next round's one schedule and
    // ranges alike.)
    for (const GpuChoice &choice : gpuChoices)
      if (llvm::is_contained(choice.copies, program.name)) {
        retry->refutedGpu.push_back({choice.program, program.schedule});
        chosenHere = true;
      } else if (program.name == choice.program
                     ? program.schedule == choice.ranked[choice.chosen].schedule
                     : program.name == partialProgramName(choice.program)) {
        retry->refutedGpu.push_back(
            {choice.program, choice.ranked[choice.chosen].schedule});
        chosenHere = true;
      }
    allChosenHere = allChosenHere && chosenHere;
  }
  // (The chosen structure is kept even where it is the default: the
  // heuristics' own rewrites may differ from the default's.)
  if (!allChosenHere || retry->round >= kMaxRounds)
    return statedRewrites()
               ? std::make_shared<KeepsStructure>(next, *statedRewrites())
               : next;
  return retry;
}
