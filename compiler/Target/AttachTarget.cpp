//===- AttachTarget.cpp - Record the target on the module -----------------===//
#include "compiler/Target/Passes.h"
#include "compiler/Target/Target.h"

namespace nautilus {
#define GEN_PASS_DEF_ATTACHTARGET
#include "compiler/Target/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

struct AttachTargetPass
    : public nautilus::impl::AttachTargetBase<AttachTargetPass> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    std::optional<TargetInfo> info = getTarget(target, multiprocessors);
    if (!info) {
      getOperation().emitError()
          << "unknown target '" << target << "' (" << targetNameList() << ")";
      return signalPassFailure();
    }
    setModuleTarget(getOperation(), *info);
  }
};

} // namespace
