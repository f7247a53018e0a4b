//===- Structures.cpp - A kernel's structures under the rewrite choices ---===//
#include "compiler/Pipeline/Structures.h"
#include "autoscheduler/CpuSpace.h"
#include "autoscheduler/RoutingModel.h"
#include "autoscheduler/Search.h"
#include "autoscheduler/Tuner.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Schedule/AutoSchedules.h"
#include "compiler/Schedule/CpuPrograms.h"
#include "compiler/Schedule/GpuPrograms.h"
#include "compiler/Schedule/ScheduleFile.h"
#include "compiler/Transforms/Alg/Recomputation.h"
#include "compiler/Transforms/Tile/SplitContractions.h"
#include "compiler/Transforms/Tile/SplitReductions.h"
#include "dialects/Alg/AlgOps.h"
#include "dialects/Tile/Utils/SiblingContracts.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// The tile programs of `module`'s kernel under `rewrites`, with the
/// heuristics' schedules, as schedules see them (a stream not yet split
/// into chunks: its schedule's reduce_split says how many); null when they
/// do not lower.
OwningOpRef<ModuleOp> programsUnder(ModuleOp module, const TargetInfo &target,
                                    const RewriteChoice &rewrites) {
  OwningOpRef<ModuleOp> copy = module.clone();
  // A choice that does not lower is left out, not reported: the default
  // structure's compilation reports the kernel's own errors.
  ScopedDiagnosticHandler quiet(copy->getContext(),
                                [](Diagnostic &) { return success(); });
  auto schedules = std::make_shared<ScheduleFile>(
      "rewrite choice", heuristicSchedules(),
      scheduleFileText({rewrites, {}}, /*everyRewrite=*/true));
  if (failed(lowerAlgToScheduledTile(*copy, target, schedules)))
    return nullptr;
  // (A split the splitter would refuse fails the structure's compilation:
  // left out as well.)
  bool refused = false;
  copy->walk([&](tile::ProgramOp program) {
    int64_t split = program.getSchedule().getReduceSplit();
    refused |= split != 1 && !splitReductionRefusal(program, split).empty();
  });
  if (refused)
    return nullptr;
  return copy;
}

/// The best predicted time of `program` under the CPU model (its best
/// tile and split), or none where the model cannot cost it.
std::optional<double> cpuPrediction(tile::ProgramOp program,
                                    const TargetInfo &target,
                                    const CpuTermScales &scales) {
  std::optional<CpuProgram> facts = cpuProgramOf(program);
  std::vector<CpuCandidate> best = facts
                                       ? rankCpuTiles(*facts, target, 1, scales)
                                       : std::vector<CpuCandidate>{};
  if (best.empty())
    return std::nullopt;
  return best.front().cost.totalUs;
}

/// `program` as the contraction search sees it, where it is one
/// tensor-core contraction over bound M and N (not a flash kernel; a
/// grouped GEMM where its routing's rows and experts are bound, as
/// contractionExtents finds them): K splittable where
/// splitKRefusal allows, wgmma where its schedule took it. (Its element
/// widths, for the prediction: the search that schedules it at
/// tile-form-contractions assumes 16-bit operands with f32 results.)
std::optional<ContractionProblem>
contractionProblemOf(tile::ProgramOp program) {
  tile::MmaAttr mma = program.getSchedule().getMma();
  if (!mma || program.getFlashStream())
    return std::nullopt;
  tile::ContractOp contract;
  int contractions = 0;
  bool uncosted = false;
  program.walk([&](Operation *op) {
    if (auto c = dyn_cast<tile::ContractOp>(op)) {
      contract = c;
      ++contractions;
    }
    // (A reduction beside a contraction is a loop the model does not
    // cost: not predicted.)
    uncosted |= isa<tile::RouteOp, tile::ReduceOp>(op);
  });
  ContractionExtents extents = contractionExtents(program);
  bool skips = bool(tile::SkipIfNegativeOp::find(program));
  if (contractions == 0 || uncosted || !extents.m || !extents.n ||
      skips != extents.grouped.has_value())
    return std::nullopt;
  // Several contractions: siblings sharing the lhs tile, or none predicted.
  int64_t siblings = tile::siblingContracts(contract).size();
  if (siblings != contractions)
    return std::nullopt;
  ContractionProblem problem = extents.problem();
  problem.splittable = problem.k && splitKRefusal(program, contract).empty();
  problem.computedLhs = contract.isComputed(0);
  problem.computedRhs = contract.isComputed(1);
  problem.wgmmaAllowed = mma.getInstr() == "wgmma";
  problem.siblings = siblings;
  if (Type element = contract.getOperandElementType())
    problem.operandBytes =
        std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  program.walk([&](tile::StoreOp store) {
    Type element =
        cast<MemRefType>(store.getBuffer().getType()).getElementType();
    problem.outputBytes =
        std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  });
  return problem;
}

/// The routing problem of a mixture of experts' routing program (its
/// schedule is fixed); std::nullopt for any other program.
std::optional<RoutingProblem> routingProblemOf(tile::ProgramOp program) {
  tile::RouteOp route;
  program.walk([&](tile::RouteOp r) { route = r; });
  std::optional<ContractionProblem::Groups> groups =
      route ? routedGroupsOf(route) : std::nullopt;
  if (!groups)
    return std::nullopt;
  return RoutingProblem{groups->rows, groups->groups, groups->block,
                        program.getSchedule().getThreads()};
}

/// The best predicted time of `program` under the GPU models (a routing
/// program's own: its schedule is fixed).
std::optional<double> gpuPrediction(tile::ProgramOp program,
                                    const TargetInfo &target) {
  std::optional<GpuScheduleRanking> best =
      rankedGpuSchedules(program, target, 1);
  if (!best)
    return std::nullopt;
  if (!best->ranked.empty())
    return best->ranked.front().predictedUs;
  if (best->ownTerms)
    return scaledUs(*best->ownTerms, target.gpuModelScales);
  return std::nullopt;
}

/// The target's model's prediction of `programs`: the sum of each
/// program's best.
void predict(ModuleOp programs, const TargetInfo &target,
             const CpuTermScales &scales, StructurePrediction &prediction) {
  prediction.model = target.isCPU() ? "CPU" : "GPU";
  double total = 0;
  for (auto program : programs.getOps<tile::ProgramOp>()) {
    std::optional<double> us = target.isCPU()
                                   ? cpuPrediction(program, target, scales)
                                   : gpuPrediction(program, target);
    if (!us) {
      prediction.uncosted = program.getSymName().str();
      return;
    }
    total += *us;
  }
  prediction.predictedUs = total;
}

/// Whether `module`'s kernel has two reductions or an element-wise
/// definition that reads one: the reductions' rewrites may give it other
/// programs.
bool mayChainReductions(ModuleOp module) {
  int reductions = 0;
  bool readByElementwise = false;
  module.walk([&](alg::DefineOp def) {
    reductions += def.isReduction();
    if (!def.isReduction())
      def.walk([&](alg::LoadOp load) {
        auto source = load.getTensor().getDefiningOp<alg::DefineOp>();
        readByElementwise |= source && source.isReduction();
      });
  });
  return reductions >= 2 || readByElementwise;
}

/// Whether `module`'s kernel has an element-wise definition that a
/// reduction reads again, which storing it would keep from being
/// recomputed (its structures with `recomputeOperands` off).
bool mayStoreOperands(ModuleOp module) {
  bool found = false;
  module.walk([&](alg::DefineOp def) {
    found |= isRecomputable(def) &&
             isReadAgainByReduction(def, /*throughElementwise=*/true);
  });
  return found;
}

/// The rewrite choices worth trying on `module`'s kernel.
std::vector<RewriteChoice> choicesFor(ModuleOp module) {
  return rewriteChoices(mayChainReductions(module), mayStoreOperands(module));
}

/// `module`'s programs canonicalised, as text: choices that give the same
/// programs compare equal. (The programs the model reads stay as the
/// schedules see them.)
std::string canonicalTextOf(ModuleOp module) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager cleanup(copy->getContext());
  cleanup.addPass(createCanonicalizerPass());
  cleanup.addPass(createCSEPass());
  (void)cleanup.run(*copy);
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os);
  return text;
}

} // namespace

std::optional<GpuScheduleRanking>
nautilus::rankedGpuSchedules(tile::ProgramOp program, const TargetInfo &target,
                             size_t keep) {
  GpuScheduleRanking ranking;
  std::vector<RankedGpuSchedule> &ranked = ranking.ranked;
  if (std::optional<RoutingProblem> routing = routingProblemOf(program)) {
    // (Nothing to rank: its own schedule's terms only.)
    ranking.ownTerms = routingTerms(*routing, target);
    return ranking;
  }
  if (std::optional<ContractionProblem> problem =
          contractionProblemOf(program)) {
    for (const RankedCandidate &r :
         searchContraction(*problem, target, keep).ranked)
      ranked.push_back(
          {scheduleOf(program.getContext(), program.getRank(), r.candidate),
           r.cost.totalUs, r.cost.terms});
    if (std::optional<ContractionCandidate> own =
            candidateOf(program.getSchedule()))
      ranking.ownTerms = estimate(*problem, *own, target).terms;
    return ranking;
  }
  ranking.heuristicsTie = true;
  if (std::optional<FlashProblem> flash = flashProblemOf(program, target)) {
    for (const RankedFlashCandidate &r :
         rankFlashSchedules(*flash, target, keep))
      ranked.push_back({flashScheduleOf(program, r.candidate), r.cost.totalUs,
                        r.cost.terms});
    ranking.ownTerms =
        estimateFlash(*flash, flashCandidateOf(program.getSchedule()), target)
            .terms;
    return ranking;
  }
  std::optional<GpuProgram> facts = gpuProgramOf(program);
  if (!facts)
    return std::nullopt;
  for (const RankedGpuCandidate &r : rankGpuSchedules(*facts, target, keep))
    ranked.push_back(
        {gpuScheduleOf(program, r.candidate), r.cost.totalUs, r.cost.terms});
  ranking.ownTerms =
      estimateGpu(*facts, gpuCandidateOf(program.getSchedule()), target).terms;
  return ranking;
}

bool nautilus::mayHaveStructures(ModuleOp module) {
  return mayChainReductions(module) || mayStoreOperands(module);
}

std::vector<KernelStructure>
nautilus::kernelStructures(ModuleOp module, const TargetInfo &target,
                           const CpuTermScales &scales) {
  std::vector<KernelStructure> structures;
  std::vector<std::string> texts;
  for (const RewriteChoice &rewrites : choicesFor(module)) {
    OwningOpRef<ModuleOp> programs = programsUnder(module, target, rewrites);
    if (!programs)
      continue;
    std::string text = canonicalTextOf(*programs);
    if (llvm::is_contained(texts, text))
      continue;
    texts.push_back(std::move(text));
    KernelStructure structure{{rewrites, std::nullopt, ""},
                              std::move(programs)};
    predict(*structure.programs, target, scales, structure.prediction);
    structures.push_back(std::move(structure));
  }
  return structures;
}

size_t nautilus::preferredStructure(
    const std::vector<StructurePrediction> &structures) {
  if (structures.empty() || !structures.front().predictedUs)
    return 0;
  size_t best = 0;
  for (size_t i = 1; i < structures.size(); ++i)
    if (structures[i].predictedUs &&
        *structures[i].predictedUs < *structures[best].predictedUs)
      best = i;
  return best;
}

std::vector<StructurePrediction>
nautilus::predictionsOf(const std::vector<KernelStructure> &structures) {
  std::vector<StructurePrediction> predictions;
  for (const KernelStructure &s : structures)
    predictions.push_back(s.prediction);
  return predictions;
}
