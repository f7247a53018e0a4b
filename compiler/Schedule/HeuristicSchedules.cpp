//===- HeuristicSchedules.cpp - The hand-written rules as a provider ------===//
#include "compiler/Schedule/GpuPrograms.h"
#include "compiler/Schedule/ScheduleProvider.h"

using namespace mlir;
using namespace nautilus;

ScheduleProvider::~ScheduleProvider() = default;

void ScheduleProvider::explain(llvm::raw_ostream &os) const {
  os << "explain: every schedule from the hand-written heuristics "
        "(compiler/Schedule/Heuristics.cpp); --schedule auto ranks "
        "schedules with the cost model, `nautc tune` measures them (on the "
        "CPU, or an NVIDIA GPU with --device cuda)\n";
}

namespace {

class HeuristicSchedules final : public ScheduleProvider {
public:
  tile::ScheduleAttr elementwise(MLIRContext *ctx, Extents extents,
                                 const TargetInfo &target) override {
    return defaultSchedule(ctx, extents, target);
  }
  tile::ScheduleAttr reduction(MLIRContext *ctx, Extents extents,
                               std::optional<int64_t> reduced,
                               ReductionShape shape, const TargetInfo &target,
                               const ReductionScheduleOptions &options) override {
    return defaultReductionSchedule(ctx, extents, reduced, shape, target,
                                    options);
  }
  tile::ScheduleAttr vectorRuns(tile::ProgramOp program,
                                const TargetInfo &target) override {
    return withVectorRuns(program, target);
  }
  tile::ScheduleAttr contraction(MLIRContext *ctx, unsigned rank,
                                 const ContractionExtents &extents, bool wgmma,
                                 ComputedSides computed,
                                 const TargetInfo &target,
                                 std::optional<int64_t> splittableK) override {
    return defaultContractionSchedule(ctx, rank, extents, wgmma, computed,
                                      target, splittableK);
  }
  tile::ScheduleAttr splitSum(tile::ScheduleAttr schedule, Extents extents,
                              const TargetInfo &target) override {
    return spreadOverMachine(schedule, extents, target);
  }
  bool fusesReductions(const TargetInfo &target, std::string &why) override {
    return defaultFusesReductions(target, why);
  }
  bool recomputesInStreams(const TargetInfo &target,
                           std::string &why) override {
    return defaultRecomputesInStreams(target, why);
  }
  bool fusesSharedOperands(const TargetInfo &target,
                           std::string &why) override {
    return defaultFusesSharedOperands(target, why);
  }
  bool sweepsRowConsumers(const TargetInfo &target, std::string &why) override {
    return defaultSweepsRowConsumers(target, why);
  }
  bool recomputesOperands(const TargetInfo &target, std::string &why) override {
    return defaultRecomputesOperands(target, why);
  }
  std::string origin() const override { return "the hand-written heuristics"; }
};

} // namespace

// (The providers' base classes' out-of-line members, beside the rules.)
tile::ScheduleAttr
RewriteStatingProvider::sweepableRows(tile::ProgramOp rows,
                                      const TargetInfo &target) {
  if (asksFor(&autosched::RewriteChoice::sweepRowConsumers,
              autosched::kSweepRowConsumersKey))
    if (tile::ScheduleAttr shared = sweepableRowsSchedule(rows, target))
      return shared;
  return next->sweepableRows(rows, target);
}

std::shared_ptr<ScheduleProvider> nautilus::heuristicSchedules() {
  static std::shared_ptr<ScheduleProvider> rules =
      std::make_shared<HeuristicSchedules>();
  return rules;
}
