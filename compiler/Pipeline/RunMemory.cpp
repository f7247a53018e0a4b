//===- RunMemory.cpp - Whether a run fits in the machine's memory ---------===//
#include "compiler/Pipeline/RunMemory.h"
#include "runtime/FormatBytes.h"
#include "runtime/LaunchChecks.h"

#include "llvm/ADT/StringRef.h"

#include <unistd.h>

using namespace nautilus;

double nautilus::tensorBytes(const KernelSignature &sig,
                             const SizeValues &sizes, bool check) {
  double bytes = 0;
  for (const Param &p : sig.inputs)
    bytes += double(rt::dtypeSize(p.dtype)) *
             double(*rt::shapeNumElements(shapeOf(p, sizes)));
  for (const Param &p : sig.outputs)
    bytes += (check ? 2.0 : 1.0) * double(rt::dtypeSize(p.dtype)) *
             double(*rt::shapeNumElements(shapeOf(p, sizes)));
  return bytes;
}

Workspaces nautilus::workspaceBytes(const rt::LaunchPlan &plan,
                                    const SizeValues &kernelSizes) {
  const SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  Workspaces all;
  for (const rt::BufferDesc &b : plan.buffers) {
    if (b.role != rt::BufferRole::Workspace)
      continue;
    double bytes = double(rt::dtypeSize(b.dtype));
    for (int64_t extent : rt::extentsOf(b, sizes)) // (0: not allocated here)
      bytes *= double(extent);
    all.bytes += bytes;
    if (bytes > all.largestBytes)
      all = {all.bytes, bytes, b.name};
  }
  return all;
}

std::string nautilus::checkMemory(double tensors,
                                  const Workspaces &workspaces) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return "";
  double memory = double(pages) * double(pageSize);
  if (tensors + workspaces.bytes <= memory)
    return "";
  std::string exceeds = ", more than this machine's " +
                        rt::formatBytes(memory) +
                        " of memory (give smaller sizes with --shape";
  if (workspaces.bytes == 0)
    return "the inputs and outputs of this run take " +
           rt::formatBytes(tensors) + exceeds + ")";
  // A split's partial results (split_k, reduce_split) go to
  // "<program>.partial".
  bool partials = llvm::StringRef(workspaces.largest).ends_with(".partial");
  return "the inputs, outputs and workspaces of this run take " +
         rt::formatBytes(tensors + workspaces.bytes) + " (the workspaces " +
         rt::formatBytes(workspaces.bytes) + ", the largest '" +
         workspaces.largest + "' " + rt::formatBytes(workspaces.largestBytes) +
         ")" + exceeds +
         (partials ? ", or a schedule that splits less: split_k, reduce_split)"
                   : ")");
}
