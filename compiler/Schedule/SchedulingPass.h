//===- SchedulingPass.h - A pass that decides schedules --------*- C++ -*-===//
//
// The passes that form programs (convert-alg-to-tile, the tile passes that
// regroup, form, materialise and split contractions and reductions) ask a
// ScheduleProvider for every schedule they write. Each derives from
// SchedulingPass over its TableGen base: made by the pipeline with the
// provider the compilation uses, or from nautc-opt with the heuristics.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_SCHEDULE_SCHEDULINGPASS_H
#define NAUTILUS_SCHEDULE_SCHEDULINGPASS_H

#include "compiler/Schedule/ScheduleProvider.h"
#include "compiler/Target/Target.h"

#include <memory>
#include <optional>

namespace nautilus {

template <typename PassBase>
class SchedulingPass : public PassBase {
public:
  using PassBase::PassBase;
  SchedulingPass() = default;
  explicit SchedulingPass(std::shared_ptr<ScheduleProvider> schedules)
      : schedules(std::move(schedules)) {}

protected:
  /// The target of the module the pass runs on; when the module has none
  /// (reported), the pass fails.
  std::optional<TargetInfo> moduleTarget() {
    std::optional<TargetInfo> info = getModuleTarget(this->getOperation());
    if (!info)
      this->signalPassFailure();
    return info;
  }

  std::shared_ptr<ScheduleProvider> schedules = heuristicSchedules();
};

} // namespace nautilus

#endif
