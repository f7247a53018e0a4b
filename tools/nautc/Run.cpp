//===- Run.cpp - nautc run ------------------------------------------------===//
//
// Reads or draws the inputs, resolves and binds the sizes, compiles the
// kernel for the device, runs it, and optionally saves the outputs, checks
// them against the reference interpreter and times the runs.
//
//===----------------------------------------------------------------------===//
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/CpuExecutor.h"
#include "compiler/Pipeline/EmuExecutor.h"
#include "compiler/Pipeline/KernelSignature.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/Precision.h"
#include "runtime/Compare.h"
#include "runtime/FormatBytes.h"
#include "runtime/Npy.h"
#include "tools/nautc/Commands.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <unistd.h>

using namespace mlir;
using namespace nautilus;

namespace {

/// splitmix64: a small, portable, seeded generator.
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; } // [0, 1)
};

int userError(const std::string &message) {
  llvm::errs() << "nautc: error: " << message << "\n";
  return kExitUserError;
}

/// The bytes the run's inputs and outputs take (outputs twice for
/// --check: the reference computes its own).
double tensorBytes(const KernelSignature &sig, const SizeValues &sizes,
                   bool check) {
  double bytes = 0;
  for (const Param &p : sig.inputs)
    bytes += double(rt::dtypeSize(p.dtype)) *
             double(*rt::shapeNumElements(shapeOf(p, sizes)));
  for (const Param &p : sig.outputs)
    bytes += (check ? 2.0 : 1.0) * double(rt::dtypeSize(p.dtype)) *
             double(*rt::shapeNumElements(shapeOf(p, sizes)));
  return bytes;
}

/// The launch plan's workspaces at these sizes: their bytes, and the
/// largest of them.
struct Workspaces {
  double bytes = 0, largestBytes = 0;
  std::string largest;
};
Workspaces workspaceBytes(const rt::LaunchPlan &plan,
                          const SizeValues &kernelSizes) {
  const SizeValues sizes = plan.withDerivedSizes(kernelSizes);
  Workspaces all;
  for (const rt::BufferDesc &b : plan.buffers) {
    if (b.role != rt::BufferRole::Workspace)
      continue;
    double bytes = double(rt::dtypeSize(b.dtype));
    for (const rt::Dim &d : b.dims)
      bytes *= double(rt::extentOf(d, sizes));
    all.bytes += bytes;
    if (bytes > all.largestBytes)
      all = {all.bytes, bytes, b.name};
  }
  return all;
}

/// An error when the run's `tensors` bytes (inputs and outputs) and
/// `workspaces` need more memory than the machine has.
std::string checkMemory(double tensors, const Workspaces &workspaces = {}) {
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

/// `profile: PROGRAM: shared KIND R requests, W wavefronts (C from bank
/// conflicts)` for each kind of shared access the program made, then
/// `profile: PROGRAM: global KIND R requests, S sectors of 32 bytes, P% of
/// their bytes used` for its global loads and stores.
void printMemoryProfile(const std::string &program,
                        const emu::MemoryProfile &profile) {
  const std::pair<const char *, const emu::SharedTraffic *> kinds[] = {
      {"loads", &profile.loads},
      {"stores", &profile.stores},
      {"ldmatrix", &profile.ldmatrix},
      {"cp.async", &profile.asyncCopies}};
  bool any = false;
  for (auto [name, traffic] : kinds) {
    if (traffic->requests == 0)
      continue;
    any = true;
    llvm::outs() << "profile: " << program << ": shared " << name << " "
                 << traffic->requests << " requests, " << traffic->wavefronts
                 << " wavefronts (" << traffic->conflicts()
                 << " from bank conflicts)\n";
  }
  if (!any)
    llvm::outs() << "profile: " << program << ": no shared memory access\n";
  const std::pair<const char *, const emu::GlobalTraffic *> global[] = {
      {"loads", &profile.globalLoads}, {"stores", &profile.globalStores}};
  for (auto [name, traffic] : global)
    if (traffic->requests != 0)
      llvm::outs() << "profile: " << program << ": global " << name << " "
                   << traffic->requests << " requests, " << traffic->sectors
                   << " sectors of 32 bytes, "
                   << llvm::format("%.0f", 100.0 * double(traffic->bytes) /
                                               double(32 * traffic->sectors))
                   << "% of their bytes used\n";
}

/// Draws input `p`: floats uniform in [-1, 1), integers used as indices in
/// [0, extent), other integers in [-8, 8), bools 0 or 1.
rt::HostTensor drawInput(const Param &p, const KernelSignature &sig,
                         const SizeValues &sizes, uint64_t seed,
                         unsigned index) {
  std::vector<int64_t> shape = p.isScalar ? std::vector<int64_t>{}
                                          : shapeOf(p, sizes);
  rt::HostTensor t = rt::HostTensor::zeros(p.dtype, shape);
  Random rng(seed * 1000003ull + index * 7919ull + 1);
  int64_t bound = -1;
  for (const IndexUse &use : sig.indexUses)
    if (use.indexTensor == p.name) {
      int64_t e = rt::extentOf(use.extent, sizes);
      bound = bound < 0 ? e : std::min(bound, e);
    }
  for (size_t i = 0; i < t.numElements(); ++i) {
    if (rt::isFloat(p.dtype))
      t.setFromDouble(i, 2.0 * rng.uniform() - 1.0);
    else if (p.dtype == rt::DType::Bool)
      t.setFromInt64(i, rng.next() & 1);
    else if (bound > 0)
      t.setFromInt64(i, static_cast<int64_t>(rng.next() % bound));
    else
      t.setFromInt64(i, static_cast<int64_t>(rng.next() % 16) - 8);
  }
  return t;
}

/// The tolerance of --check: the output's rounding; the roundings of
/// intermediates, once an element, to the types the source gives them or
/// the compiler narrows them to (`rounded`, see Precision.h); and the
/// rounding accumulated along each reduction in its accumulator's type.
/// Rounding each term of a sum moves it by about the unit roundoff of the
/// sum's magnitude (mean |expected|) for random inputs; the tails of
/// products of several such terms reach a few times more (a mixture of
/// experts' silu(G) x U rounded to bf16: up to 7 units at D = 512), hence
/// 8 units. An accumulator rounds at every step: its error grows as the
/// square root of the reduction's length.
double checkTolerance(alg::KernelOp kernel, const SizeValues &sizes,
                      rt::DType outputType, std::optional<rt::DType> rounded) {
  double elementRoundoff = rounded ? rt::unitRoundoff(*rounded) : 0;
  double accumulation = 0;
  kernel.walk([&](alg::DefineOp def) {
    auto type = cast<RankedTensorType>(def.getType()).getElementType();
    bool isOutput =
        llvm::is_contained(kernel.getReturn().getOutputs(), def.getResult());
    if (!isOutput)
      if (auto dt = dtypeOf(type))
        elementRoundoff = std::max(elementRoundoff, rt::unitRoundoff(*dt));
    // Values a definition computes in a narrow type (tanh of an f16 input,
    // bf16(x) + R) round there too: all but the value an output stores,
    // whose rounding is the output's, and exact reads and widenings.
    Operation *stored = nullptr; // (none when the folded sum is stored)
    if (isOutput) {
      Region &region = def.getEpilogue().empty() ? def.getBody() : def.getEpilogue();
      if (!def.isReduction() || &region == &def.getEpilogue())
        stored = cast<alg::YieldOp>(region.front().getTerminator())
                     .getValue()
                     .getDefiningOp();
    }
    def->walk([&](Operation *op) {
      if (op == stored || op->getNumResults() != 1 ||
          isa<alg::LoadOp, arith::ExtFOp, arith::ConstantOp>(op))
        return;
      if (auto dt = dtypeOf(op->getResult(0).getType()); dt && rt::isFloat(*dt))
        elementRoundoff = std::max(elementRoundoff, rt::unitRoundoff(*dt));
    });
    if (!def.isReduction())
      return;
    std::optional<rt::DType> accumulator = dtypeOf(def.getBodyType());
    if (!accumulator)
      return;
    double length = 1;
    if (def.getReduceDimsAttr())
      for (Attribute d : def.getReduceDimsAttr())
        length *= isa<StringAttr>(d)
                      ? sizes.at(cast<StringAttr>(d).getValue().str())
                      : cast<IntegerAttr>(d).getInt();
    accumulation = std::max(
        accumulation, rt::unitRoundoff(*accumulator) * std::sqrt(length));
  });
  return 4 * rt::unitRoundoff(outputType) + 8 * elementRoundoff +
         16 * accumulation;
}

} // namespace

int nautilus::runRun(const Options &opts) {
  std::string targetName = opts.target;
  if (opts.device == "emu") {
    // The emulator runs NVIDIA kernels; sm_80 unless told otherwise.
    if (targetName == "cpu")
      targetName = "sm_80";
    if (!llvm::StringRef(targetName).starts_with("sm_"))
      return llvm::errs() << "nautc: --device emu runs NVIDIA kernels: use "
                             "--target sm_80 or sm_90\n",
             kExitUsage;
  } else if (opts.device == "cpu") {
    if (targetName != "cpu")
      return llvm::errs() << "nautc: --device cpu runs --target cpu code\n",
             kExitUsage;
    if (opts.profile)
      return llvm::errs() << "nautc: --profile counts memory traffic "
                             "on the emulator: use --device emu\n",
             kExitUsage;
  } else {
    return llvm::errs() << "nautc: --device " << opts.device
                        << " is not available in this build (devices: cpu, "
                           "emu)\n",
           kExitUsage;
  }
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts, context, sourceMgr, /*bindShape=*/false,
                          loaded))
    return rc;
  KernelSignature sig = getSignature(loaded.kernel);

  // Inputs from files, then the sizes, then random inputs for the rest.
  for (const auto &[name, path] : opts.inputs)
    if (llvm::none_of(sig.inputs, [&](const Param &p) { return p.name == name; }))
      return userError("--input names '" + name + "', which is not an input "
                       "of kernel '" + sig.name + "'");
  std::vector<rt::HostTensor> inputs(sig.inputs.size());
  std::vector<const rt::HostTensor *> given(sig.inputs.size(), nullptr);
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    auto it = opts.inputs.find(sig.inputs[i].name);
    if (it == opts.inputs.end())
      continue;
    std::string error;
    if (!rt::readNpyAs(it->second, sig.inputs[i].dtype, nullptr, inputs[i],
                       error))
      return userError(error);
    given[i] = &inputs[i];
  }
  SizeValues sizes;
  if (std::string e = resolveSizes(sig, opts.shape, given, sizes); !e.empty())
    return userError(e);
  if (std::string e = checkRequirements(loaded.kernel, sizes); !e.empty())
    return userError(e);
  double runBytes = tensorBytes(sig, sizes, opts.check);
  if (std::string e = checkMemory(runBytes); !e.empty())
    return userError(e);
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    if (!given[i])
      inputs[i] = drawInput(sig.inputs[i], sig, sizes, opts.seed, i);

  // From here on, diagnostics point into the source (and a schedule's
  // text), as `nautc compile` prints them.
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  // Specialise the kernel to the sizes, and keep the alg IR for --check.
  if (failed(bindSizes(*loaded.module, sizes)))
    return kExitUserError;
  OwningOpRef<ModuleOp> reference = loaded.module->clone();

  std::optional<TargetInfo> target = getTarget(targetName);
  if (opts.multiprocessors)
    target->multiprocessors = opts.multiprocessors;
  bool scheduleRejected = false;
  if (failed(lowerAlgToTile(*loaded.module, *target, opts.schedulePath(),
                            &scheduleRejected))) {
    if (scheduleRejected)
      return kExitUserError;
    llvm::errs() << "nautc: internal error: lowering to tile programs failed\n";
    return kExitInternal;
  }
  rt::LaunchPlan plan = extractLaunchPlan(*loaded.module);
  if (std::string e = checkMemory(runBytes, workspaceBytes(plan, sizes));
      !e.empty())
    return userError(e);
  std::optional<rt::DType> rounded = roundedIntermediateType(*loaded.module);
  // The device: a function that runs the kernel once (and says whether an
  // error is the generated kernel's fault).
  std::function<std::string(std::vector<rt::HostTensor> &, bool *)> runOnce;
  std::vector<std::pair<std::string, emu::MemoryProfile>> profiles;
  bool profileNext = opts.profile; // the first run only
  std::unique_ptr<CpuExecutor> cpu;
  std::unique_ptr<EmuExecutor> emulated;
  std::string error;
  if (opts.device == "cpu") {
    if (failed(lowerTileToHostLLVM(*loaded.module))) {
      llvm::errs() << "nautc: internal error: lowering to host code failed\n";
      return kExitInternal;
    }
    cpu = CpuExecutor::create(*loaded.module, plan, error);
    if (!cpu) {
      llvm::errs() << "nautc: internal error: " << error << "\n";
      return kExitInternal;
    }
    runOnce = [&](std::vector<rt::HostTensor> &out, bool *kernelFault) {
      return cpu->run(sizes, inputs, out, /*threads=*/0, kernelFault);
    };
  } else {
    if (failed(lowerTileToGPU(*loaded.module))) {
      if (blameScheduleFile(opts))
        return kExitUserError;
      llvm::errs() << "nautc: internal error: lowering to GPU kernels failed\n";
      return kExitInternal;
    }
    if (failed(lowerGPUToLLVM(*loaded.module, *target))) {
      llvm::errs() << "nautc: internal error: lowering to GPU kernels failed\n";
      return kExitInternal;
    }
    emulated = EmuExecutor::create(*loaded.module, plan, error);
    if (!emulated) {
      llvm::errs() << "nautc: internal error: " << error << "\n";
      return kExitInternal;
    }
    runOnce = [&](std::vector<rt::HostTensor> &out, bool *kernelFault) {
      bool profile = profileNext;
      profileNext = false;
      return emulated->run(sizes, inputs, out, kernelFault,
                           profile ? &profiles : nullptr);
    };
  }
  std::vector<rt::HostTensor> outputs;
  bool kernelFault = false;
  if (std::string e = runOnce(outputs, &kernelFault); !e.empty()) {
    // A fault of the generated code (on the emulator: a race, an async
    // hazard, a deadlock, an access out of bounds) is nautc's bug, whatever
    // the inputs: reads out of range are clamped, never faults.
    if (kernelFault) {
      llvm::errs() << "nautc: internal error: the generated code faulted: "
                   << e << "\n";
      return kExitInternal;
    }
    llvm::errs() << "nautc: error: " << e << "\n";
    return kExitUserError;
  }

  for (const auto &[program, profile] : profiles)
    printMemoryProfile(program, profile);

  if (opts.time) {
    std::vector<double> times;
    auto start = std::chrono::steady_clock::now();
    while (times.size() < 5 ||
           (times.size() < 100 &&
            std::chrono::steady_clock::now() - start < std::chrono::seconds(2))) {
      auto t0 = std::chrono::steady_clock::now();
      std::vector<rt::HostTensor> scratch;
      runOnce(scratch, nullptr);
      times.push_back(std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    llvm::outs() << "time: median " << llvm::format("%.3f", times[times.size() / 2] * 1e3)
                 << " ms over " << times.size() << " runs\n";
  }

  if (!opts.saveDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(opts.saveDir))
      return userError("cannot create '" + opts.saveDir + "': " + ec.message());
    for (size_t i = 0; i < outputs.size(); ++i) {
      llvm::SmallString<256> path(opts.saveDir);
      llvm::sys::path::append(path, sig.outputs[i].name + ".npy");
      std::string e;
      if (!rt::writeNpy(path.str().str(), outputs[i], e))
        return userError(e);
    }
  }

  if (!opts.check) {
    for (size_t i = 0; i < outputs.size(); ++i)
      llvm::outs() << sig.outputs[i].name << ": "
                   << rt::dtypeName(outputs[i].dtype())
                   << rt::formatShape(outputs[i].shape()) << "\n";
    return kExitSuccess;
  }
  auto refKernel = *reference->getOps<alg::KernelOp>().begin();
  std::vector<rt::HostTensor> expected;
  if (std::string e = interpretKernel(refKernel, sizes, inputs, expected);
      !e.empty())
    return userError("the reference interpreter failed: " + e);
  bool pass = true;
  for (size_t i = 0; i < outputs.size(); ++i) {
    double tol = checkTolerance(refKernel, sizes, outputs[i].dtype(), rounded);
    rt::Comparison c = rt::compareTensors(outputs[i], expected[i], tol);
    llvm::outs() << sig.outputs[i].name << ": max abs error "
                 << llvm::format("%.3g", c.maxAbsError) << ", max rel error "
                 << llvm::format("%.3g", c.maxRelError)
                 << "; worst element at "
                 << llvm::format("%.3g", c.worstRatio)
                 << " of its bound |error| <= "
                 << llvm::format("%.3g", tol)
                 << " * (|expected| + mean |expected|) "
                 << (c.pass ? "PASS" : "FAIL") << "\n";
    if (!c.pass)
      llvm::outs() << "  worst element #" << c.worst << ": got "
                   << c.worstActual << ", expected " << c.worstReference
                   << "\n";
    pass &= c.pass;
  }
  llvm::outs() << (pass ? "PASS" : "FAIL") << "\n";
  return pass ? kExitSuccess : kExitUserError;
}
