//===- AutoSchedulesSampled.cpp - Contractions of unbound sizes -----------===//
//
// `--schedule auto` on a GPU for a tensor-core contraction whose M or N
// is unbound (a GEMM compiled without its sizes, launched at every number
// of tokens): one schedule for every shape, the one the contraction model
// ranks first over sample shapes (autoscheduler/ContractionSamples.h),
// recorded with its runners-up and the heuristics' schedule, each with its
// regrets, for `--explain`.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/Search.h"
#include "compiler/Schedule/AutoSchedules.h"

#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::autosched;

tile::ScheduleAttr AutoSchedules::sampledContraction(
    MLIRContext *ctx, unsigned rank, const ContractionExtents &extents,
    bool wgmma, ComputedSides computed, const TargetInfo &target,
    std::optional<int64_t> splittableK) {
  // The largest sample stands for the problem (the costs --explain
  // prints); the problem with its unbound sizes 0 is the choice's key (a
  // refutation's, and the program's in contractionVariants), apart from
  // any bound problem's.
  ContractionExtents largest = extents;
  largest.m = extents.m.value_or(kUnboundSizeSamples.back());
  largest.n = extents.n.value_or(kUnboundSizeSamples.back());
  ContractionProblem problem = problemOf(largest, wgmma, computed, splittableK);
  ContractionProblem key = problem;
  key.m = extents.m.value_or(0);
  key.n = extents.n.value_or(0);
  std::vector<ContractionProblem> samples =
      contractionSamples(problem, !extents.m, !extents.n);
  std::vector<double> bestUs;
  std::vector<SampledContraction> ranked =
      rankContractionOverSamples(samples, target, 0, &bestUs);
  auto firstLive = llvm::find_if(ranked, [&](const SampledContraction &r) {
    return !isRefuted(key, scheduleOf(ctx, rank, r.candidate));
  });
  if (firstLive == ranked.end())
    return next->contraction(ctx, rank, extents, wgmma, computed, target,
                             splittableK);
  Choice choice{key, {}, size_t(firstLive - ranked.begin())};
  choice.ctx = ctx;
  choice.rank = rank;
  if (!extents.m)
    choice.unbound.push_back("M");
  if (!extents.n)
    choice.unbound.push_back("N");
  choice.search.spaceSize = ranked.size();
  choice.search.predicted = ranked.size() * samples.size();
  // The best `keep` listed, and the chosen: a rasterisation whose regrets
  // equal those of one listed before it (it walks no differently where it
  // matters) is no alternative worth listing, as in the bound search.
  size_t keep = keepWith(
      llvm::count_if(refutedContractions, [&](const RefutedContraction &r) {
        return r.problem == key;
      }));
  auto sameButRasterisation = [&](const SampledContraction &a,
                                  const SampledContraction &b) {
    ContractionCandidate other = b.candidate;
    other.groupM = a.candidate.groupM;
    return parametersOf(a.candidate) == parametersOf(other) &&
           a.regrets.mean == b.regrets.mean &&
           a.regrets.worst == b.regrets.worst;
  };
  size_t chosenIndex = choice.chosen;
  for (size_t i = 0; i < ranked.size(); ++i) {
    bool isChosen = i == chosenIndex;
    bool full = keep && choice.search.ranked.size() >= keep;
    if (!isChosen &&
        (full || llvm::any_of(llvm::seq(size_t(0), i), [&](size_t j) {
           return sameButRasterisation(ranked[j], ranked[i]);
         })))
      continue;
    if (isChosen)
      choice.chosen = choice.search.ranked.size();
    choice.search.ranked.push_back({ranked[i].candidate, ranked[i].atLargest});
    choice.regrets.push_back(ranked[i].regrets);
  }
  if (std::optional<ContractionCandidate> rules = candidateOf(next->contraction(
          ctx, rank, extents, wgmma, computed, target, splittableK))) {
    SampledContraction sampled =
        autosched::sampledContraction(samples, bestUs, *rules, target);
    choice.heuristics = RankedCandidate{*rules, sampled.atLargest};
    choice.heuristicsRegrets = sampled.regrets;
  }
  // Where one schedule serves some shapes badly: copies for ranges of M
  // or N, launched by the size. The copies are made from the program as
  // formed, unsplit (a split-K program is divided into its partial and
  // summing programs before the copies could be made): unsplit schedules
  // only, and none where the one schedule splits K.
  if (firstLive->candidate.splitK == 1)
    choice.launchRanges = chooseContractionLaunchRanges(
        problem, !extents.m, !extents.n, firstLive->candidate, target,
        [&](const ContractionCandidate &c) {
          return c.splitK == 1 && !isRefuted(key, scheduleOf(ctx, rank, c));
        });
  tile::ScheduleAttr chosen = scheduleOf(ctx, rank, firstLive->candidate);
  recordContraction(std::move(choice));
  return chosen;
}

std::vector<ScheduleVariant>
AutoSchedules::contractionVariants(tile::ProgramOp program) {
  std::vector<ScheduleVariant> variants;
  unsigned rank = program.getRank();
  if (!program.getSchedule().getMma() || rank < 2)
    return variants;
  std::lock_guard<std::mutex> lock(mutex);
  // The choice the program's schedule came from (the latest): its
  // problem's (M and N, 0 where unbound; K, the matrices) and its
  // schedule. (A choice names no program: two contractions of one
  // problem share its division, as they share its schedule.)
  ContractionExtents extents = contractionExtents(program);
  auto choice = llvm::find_if(llvm::reverse(choices), [&](const Choice &c) {
    const ContractionProblem &p = c.problem;
    return c.launchRanges && c.rank == rank && p.m == extents.m.value_or(0) &&
           p.n == extents.n.value_or(0) && p.k == extents.k &&
           p.batch == extents.batch.value_or(1) &&
           scheduleOf(c.ctx, c.rank, c.search.ranked[c.chosen].candidate) ==
               program.getSchedule();
  });
  if (choice == choices.rend())
    return variants;
  // M and N are the program's last two output dimensions: each must be
  // one of its sizes by name (not a literal, nor a routed table's rows),
  // which the launch condition reads.
  auto sizeName = [&](StringRef dim) -> std::string {
    auto name = dyn_cast<StringAttr>(
        program.getOutputDims()[dim == "M" ? rank - 2 : rank - 1]);
    if (!name ||
        !llvm::is_contained(program.getSizes().getAsValueRange<StringAttr>(),
                            name.getValue()))
      return "";
    return name.getValue().str();
  };
  std::vector<std::string> names;
  for (const std::string &dim : choice->unbound)
    if (std::string name = sizeName(dim); !name.empty())
      names.push_back(name);
  // (M and N one size, as C[N, N]: no copies, whose ranges could not be
  // of two sizes.)
  if (names.size() != choice->unbound.size() ||
      (names.size() == 2 && names[0] == names[1]))
    return variants;
  const ContractionLaunchRanges &ranges = *choice->launchRanges;
  return rangeVariants(
      program, ranges.division, names,
      [&](size_t candidate) {
        return scheduleOf(choice->ctx, rank, ranges.candidates[candidate]);
      },
      choice->copies);
}
