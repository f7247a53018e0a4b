//===- CpuLaunchRanges.cpp - CPU tiles chosen at launch by a size ---------===//
#include "autoscheduler/CpuLaunchRanges.h"

#include <map>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

/// The CPU model as a division asks it: the program at each shape, its
/// ranking of tiles there, and each candidate tile's time.
class CpuRangeModel final : public LaunchRangeModel {
public:
  CpuRangeModel(const CpuProgramAtExtents &programAt, const TargetInfo &target,
                const CpuTermScales &scales, const CandidateFilter &allowed)
      : programAt(programAt), target(target), scales(scales), allowed(allowed) {
  }

  std::optional<Sample> sampleAt(const std::vector<int64_t> &extents) override {
    const CpuProgram *program = programOf(extents);
    if (!program)
      return std::nullopt;
    std::vector<CpuCandidate> ranked =
        rankCpuTiles(*program, target, 0, scales);
    Sample sample;
    sample.bestUs = ranked.empty() ? 0 : ranked.front().cost.totalUs;
    std::vector<CpuCandidate> allowedHere;
    addSampleCandidates(ranked, allowedHere, allowed);
    for (const CpuCandidate &c : allowedHere)
      sample.candidates.push_back(idOf(c));
    return sample;
  }

  std::optional<double> timeOf(size_t candidate,
                               const std::vector<int64_t> &extents) override {
    const CpuProgram *program = programOf(extents);
    if (!program)
      return std::nullopt;
    return costAt(candidate, *program).totalUs;
  }

  /// The candidate's number (numbered as first seen).
  size_t idOf(const CpuCandidate &c) {
    for (size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].sameSchedule(c))
        return i;
    candidates.push_back(c);
    return candidates.size() - 1;
  }

  /// The tiles, numbered as first seen.
  std::vector<CpuCandidate> candidates;

private:
  const CpuProgram *programOf(const std::vector<int64_t> &extents) {
    auto found = programs.find(extents);
    if (found == programs.end())
      found = programs.emplace(extents, programAt(extents)).first;
    return found->second ? &*found->second : nullptr;
  }

  CpuCost costAt(size_t candidate, const CpuProgram &program) const {
    const CpuCandidate &c = candidates[candidate];
    return estimateCpu(program, c.tile, target, c.pack, scales, c.split,
                       c.reduceBlock);
  }

  const CpuProgramAtExtents &programAt;
  const TargetInfo &target;
  const CpuTermScales &scales;
  const CandidateFilter &allowed;
  std::map<std::vector<int64_t>, std::optional<CpuProgram>> programs;
};

} // namespace

std::optional<CpuLaunchRanges> nautilus::autosched::chooseCpuLaunchRanges(
    size_t unboundSizes, const CpuProgramAtExtents &programAt,
    const CpuCandidate &oneTile, const TargetInfo &target,
    const CpuTermScales &scales, const CandidateFilter &allowed) {
  CpuRangeModel model(programAt, target, scales, allowed);
  size_t oneTileId = model.idOf(oneTile);
  std::optional<LaunchRanges> division =
      chooseLaunchRanges(unboundSizes, model, oneTileId);
  if (!division)
    return std::nullopt;
  return CpuLaunchRanges{std::move(*division), std::move(model.candidates)};
}
