//===- Bundle.cpp - A compiled kernel program as one file -----------------===//
#include "compiler/Pipeline/Bundle.h"
#include "compiler/Pipeline/AmdCodeObject.h"
#include "compiler/Pipeline/HostLibrary.h"
#include "compiler/Pipeline/Pipelines.h"

using namespace mlir;
using namespace nautilus;

bool nautilus::bundlesTarget(const TargetInfo &target) {
  return target.isNVIDIA() || target.isAMD() || target.isCPU();
}

LogicalResult nautilus::buildBundle(Compilation &compilation,
                                    rt::Bundle &out, bool kernelIR) {
  const TargetInfo &target = compilation.target();
  bool host = target.isCPU();
  if (failed(compilation.lowerTo(host ? Stage::HostLLVM : Stage::GpuLLVM)))
    return failure();
  out = rt::Bundle();
  out.plan = compilation.launchPlan();
  out.target = target.name;
  if (host) {
    out.chip = hostChipName();
    out.cpuFeatures = hostCheckedFeatures();
    std::string library;
    if (std::string e = buildHostLibrary(compilation.module(), out.plan,
                                         library);
        !e.empty())
      return compilation.markFailed(e);
    out.code["host_library"] = std::move(library);
    return success();
  }
  out.chip = target.chip;
  if (target.isAMD()) {
    std::string code;
    if (std::string e = buildAmdCodeObject(compilation.module(), target.chip,
                                           code);
        !e.empty())
      return compilation.markFailed(e);
    out.code["hsaco"] = std::move(code);
    return success();
  }
  // The IR first: serialising replaces the kernels' module by its binary.
  if (kernelIR &&
      failed(translateGPUModuleToLLVMIR(compilation.module(),
                                        out.code["nvvm_ir"])))
    return compilation.markFailed("translation of GPU kernels failed");
  std::string ptx;
  if (failed(serializeGPUModule(compilation.module(), ptx)))
    return compilation.markFailed("code generation for " + target.name +
                                  " failed");
  out.code["ptx"] = std::move(ptx);
  return success();
}
