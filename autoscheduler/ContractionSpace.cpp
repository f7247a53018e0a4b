//===- ContractionSpace.cpp - The legal schedules of a contraction --------===//
#include "autoscheduler/ContractionSpace.h"
#include "dialects/Tile/Utils/PipelineLimits.h"

#include <algorithm>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// The most chunks the space splits K into.
constexpr int64_t kMaxSplitK = 64;

/// The registers a computing thread of `c` has.
int64_t computingRegisters(const ContractionCandidate &c,
                           const ContractionProblem &problem,
                           const TargetInfo &target) {
  int64_t even = evenRegisterSplit(c.threads());
  bool producerComputes = problem.computedLhs || problem.computedRhs;
  if (!c.wgmma || !c.producer || producerComputes ||
      c.threads() <= target.warpgroupThreads)
    return even;
  return std::max(even, reallocatedConsumerRegisters(c.threads()));
}

void addSplits(std::vector<ContractionCandidate> &out,
               ContractionCandidate c, const ContractionProblem &problem) {
  out.push_back(c);
  if (!problem.splittable || !problem.k)
    return;
  for (int64_t split = 2; split <= kMaxSplitK; split *= 2) {
    if (*problem.k / split < kMinSplitSteps * c.tileK)
      break;
    c.splitK = split;
    out.push_back(c);
  }
}

/// `c` under each rasterisation that walks the problem's rows of tiles
/// differently (a group of at least all of them walks as all of them),
/// the heuristics' 8 first: among equal predictions the search keeps the
/// first enumerated.
void addRasterisations(std::vector<ContractionCandidate> &out,
                       ContractionCandidate c,
                       const ContractionProblem &problem) {
  int64_t tilesM = problem.busyTilesM(c.tileM);
  llvm::SmallVector<int64_t, 4> walks;
  for (int64_t groupM : {8, 16, 4, 1}) {
    int64_t walk = std::min(groupM, tilesM);
    if (llvm::is_contained(walks, walk))
      continue;
    walks.push_back(walk);
    c.groupM = groupM;
    addSplits(out, c, problem);
  }
}

} // namespace

int64_t ContractionProblem::Groups::groupSpan() const {
  int64_t perGroup = (rows + groups - 1) / groups;
  return (perGroup + block - 1) / block * block;
}

int64_t ContractionProblem::Groups::activeGroups() const {
  return std::max<int64_t>(1, std::min(groups, rows));
}

int64_t ContractionProblem::Groups::busyRows() const {
  return activeGroups() * groupSpan();
}

int64_t ContractionProblem::busyTilesM(int64_t tileM) const {
  int64_t tiles = (m + tileM - 1) / tileM;
  if (!grouped)
    return tiles;
  // A tile within a group's last block computes even where it holds none
  // of its rows.
  return std::min(tiles, (grouped->busyRows() + tileM - 1) / tileM);
}

double ContractionProblem::groupsSpanned(int64_t bandRows,
                                         int64_t tileM) const {
  if (!grouped)
    return 1;
  // A band of L rows starting at any tile boundary overlaps, on average,
  // (L + S - tileM) / S groups of S rows.
  double span = double(grouped->groupSpan());
  double spanned = (double(bandRows) + span - double(tileM)) / span;
  return std::clamp(spanned, 1.0, double(grouped->activeGroups()));
}

int64_t ContractionCandidate::threads() const {
  return 32 * warpsM * warpsN + (producer ? 128 : 0);
}

int64_t
ContractionCandidate::sharedBytes(const ContractionProblem &problem) const {
  int64_t stage =
      (tileM + problem.siblings * tileN) * tileK * problem.operandBytes;
  if (!wgmma)
    return stages * stage;
  // A "full" mbarrier a stage, and with a producer an "empty" one.
  return stages * stage + 8 * stages * (producer ? 2 : 1);
}

int64_t ContractionCandidate::accumulatorsPerThread(
    const ContractionProblem &problem) const {
  return problem.siblings * tileM * tileN / (32 * warpsM * warpsN);
}

std::string ContractionCandidate::describe() const {
  std::string s = (wgmma ? "wgmma " : "mma_sync ") + std::to_string(tileM) +
                  "x" + std::to_string(tileN) + "x" + std::to_string(tileK) +
                  " warps [" + std::to_string(warpsM) + ", " +
                  std::to_string(warpsN) + "] stages " +
                  std::to_string(stages);
  if (splitK > 1)
    s += " split_k " + std::to_string(splitK);
  if (groupM != 8)
    s += " group_m " + std::to_string(groupM);
  return s;
}

std::string autosched::resourceRefusal(const ContractionCandidate &c,
                                       const ContractionProblem &problem,
                                       const TargetInfo &target) {
  if (c.threads() > target.maxThreadsPerProgram)
    return "more threads than a block holds";
  if (problem.grouped && problem.grouped->block % c.tileM != 0)
    return "its tiles straddle the groups' blocks of rows";
  // The mma.sync pipeline keeps to an A100's shared memory on either
  // target (Heuristics.h, ResourceBudget.h).
  int64_t sharedLimit =
      c.wgmma ? target.maxSharedBytes
              : std::min(target.maxSharedBytes, kSm80SharedLimit);
  if (c.sharedBytes(problem) > sharedLimit)
    return "its stages exceed the shared memory of a block";
  int64_t registers = computingRegisters(c, problem, target);
  if (c.accumulatorsPerThread(problem) >
      std::min(kAccumulatorLimit, registers - kOtherRegisters))
    return "its accumulators exceed a thread's registers";
  return "";
}

std::vector<ContractionCandidate>
autosched::enumerateCandidates(const ContractionProblem &problem,
                               const TargetInfo &target) {
  std::vector<ContractionCandidate> all;
  if (!target.hasMmaSync())
    return all;
  bool computed = problem.computedLhs || problem.computedRhs;
  if (target.hasWgmma() && problem.wgmmaAllowed) {
    // A warpgroup per 64 rows; N a multiple of 64 up to 256; tile_k of
    // one 128-byte swizzle span; a persistent producer warpgroup.
    for (int64_t tileM : {64, 128})
      for (int64_t tileN : {64, 128, 256})
        for (int64_t stages : {2, 3, 4, 5}) {
          ContractionCandidate c;
          c.wgmma = true;
          c.tileM = tileM, c.tileN = tileN, c.tileK = 64;
          c.warpsM = tileM / 16, c.warpsN = 1;
          c.stages = stages;
          c.producer = true;
          if (tileN == 256 && (tileM != 128 || computed))
            continue; // the consumers' registers come from a copying producer
          if (resourceRefusal(c, problem, target).empty())
            addRasterisations(all, c, problem);
        }
  }
  // mma.sync: 2 warps along M and up to 4 along N, 16 x 8 fragments.
  for (int64_t tileM : {32, 64, 128})
    for (int64_t tileN : {32, 64, 128})
      for (int64_t tileK : {32, 64})
        for (int64_t stages : {2, 3, 4}) {
          ContractionCandidate c;
          c.tileM = tileM, c.tileN = tileN, c.tileK = tileK;
          c.warpsM = 2, c.warpsN = std::min<int64_t>(4, tileN / 16);
          c.stages = stages;
          // A computed operand's threads hold a step's elements in
          // registers: tile_k 32.
          if (computed && tileK != 32)
            continue;
          if (resourceRefusal(c, problem, target).empty())
            addRasterisations(all, c, problem);
        }
  return all;
}
