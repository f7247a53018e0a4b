//===- Bundle.cpp - A compiled kernel program as one file -----------------===//
#include "compiler/Pipeline/Bundle.h"

using namespace nautilus;

rt::Bundle nautilus::makeBundle(const rt::LaunchPlan &plan,
                                const std::string &target,
                                const std::string &chip, std::string ptx) {
  rt::Bundle bundle;
  bundle.plan = plan;
  bundle.target = target;
  bundle.chip = chip;
  bundle.code["ptx"] = std::move(ptx);
  return bundle;
}
