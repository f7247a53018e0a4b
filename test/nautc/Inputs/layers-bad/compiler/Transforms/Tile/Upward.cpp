// A tile pass that reaches up into the pipeline and asks a target's name.
#include "compiler/Pipeline/Driver.h"
#include "compiler/Target/Target.h"

bool wgmma(const nautilus::TargetInfo &target) {
  return target.name == "sm_90";
}
