//===- RunInputs.cpp - A run's sizes and input tensors -------------------===//
#include "tools/nautc/RunInputs.h"
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/RandomInputs.h"
#include "compiler/Pipeline/RunMemory.h"
#include "runtime/Npy.h"

#include "llvm/Support/raw_ostream.h"

using namespace nautilus;

static int userError(const std::string &message) {
  llvm::errs() << "nautc: error: " << message << "\n";
  return kExitUserError;
}

/// Why a given index tensor (`--input`) reads outside what it indexes ("" if
/// it does not): each value must lie in [0, the extent of the dimension it
/// indexes) (the kernel would read out of its buffers; only --check saw it).
static std::string
checkGivenIndices(const KernelSignature &sig,
                  const std::vector<const rt::HostTensor *> &given,
                  const SizeValues &sizes) {
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    if (!given[i])
      continue;
    for (const IndexUse &use : sig.indexUses) {
      if (use.indexTensor != sig.inputs[i].name)
        continue;
      int64_t extent = rt::extentOf(use.extent, sizes);
      const rt::HostTensor &t = *given[i];
      for (size_t e = 0; e < t.numElements(); ++e) {
        int64_t v = t.getAsInt64(e);
        if (v < 0 || v >= extent)
          return "--input " + use.indexTensor + ": value " + std::to_string(v) +
                 " (element " + std::to_string(e) + ") indexes outside [0, " +
                 std::to_string(extent) +
                 ") of the dimension it gathers along" +
                 (use.extent.isLiteral() ? "" : " (" + use.extent.size + ")");
      }
    }
  }
  return "";
}

int nautilus::prepareInputs(const Options &opts, alg::KernelOp kernel,
                            RunInputs &run, bool draw) {
  run.sig = getSignature(kernel);
  const KernelSignature &sig = run.sig;
  for (const auto &[name, path] : opts.inputs)
    if (llvm::none_of(sig.inputs,
                      [&](const Param &p) { return p.name == name; }))
      return userError("--input names '" + name +
                       "', which is not an input "
                       "of kernel '" +
                       sig.name + "'");
  run.tensors.assign(sig.inputs.size(), rt::HostTensor());
  std::vector<const rt::HostTensor *> given(sig.inputs.size(), nullptr);
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    auto it = opts.inputs.find(sig.inputs[i].name);
    if (it == opts.inputs.end())
      continue;
    std::string error;
    if (!rt::readNpyAs(it->second, sig.inputs[i].dtype, nullptr, run.tensors[i],
                       error))
      return userError(error);
    given[i] = &run.tensors[i];
  }
  if (std::string e = resolveSizes(sig, opts.shape, given, run.sizes);
      !e.empty())
    return userError(e);
  if (std::string e = checkRequirements(kernel, run.sizes); !e.empty())
    return userError(e);
  if (std::string e = checkGivenIndices(sig, given, run.sizes); !e.empty())
    return userError(e);
  if (!draw)
    return kExitSuccess;
  run.bytes = tensorBytes(sig, run.sizes, opts.check);
  if (std::string e = checkMemory(run.bytes); !e.empty())
    return userError(e);
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    if (!given[i])
      run.tensors[i] = drawInput(sig.inputs[i], sig, run.sizes, opts.seed, i);
  return kExitSuccess;
}
