//===- Run.cpp - nautc run ------------------------------------------------===//
//
// Reads or draws the inputs and resolves the sizes (RunInputs.h), binds
// them, compiles the kernel for the device through the compile driver,
// runs it, and optionally saves the outputs, checks them against the
// reference interpreter (compiler/Pipeline/Check.h) and times the runs
// (runtime/Timing.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/Interpreter/AlgInterpreter.h"
#include "compiler/Pipeline/Check.h"
#include "compiler/Pipeline/CpuExecutor.h"
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/EmuExecutor.h"
#include "compiler/Pipeline/GpuExecutor.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/Precision.h"
#include "compiler/Pipeline/ReferenceGpuExecutor.h"
#include "compiler/Pipeline/ReferenceHost.h"
#include "compiler/Pipeline/RunMemory.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "dialects/Alg/KernelSignature.h"
#include "runtime/Npy.h"
#include "runtime/Timing.h"
#include "tools/nautc/Commands.h"
#include "tools/nautc/RunInputs.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <functional>

using namespace mlir;
using namespace nautilus;

TargetInfo nautilus::targetForDevice(const Options &opts) {
  TargetInfo target = *getTarget(opts.target, opts.multiprocessors);
  if (target.isCPU() && (opts.device == "emu" || opts.device == "cuda"))
    return *getTarget(firstTargetOf(TargetFamily::NVIDIA).name,
                      opts.multiprocessors);
  if (target.isCPU() && opts.device == "hip")
    return *getTarget(firstTargetOf(TargetFamily::AMD).name,
                      opts.multiprocessors);
  return target;
}

namespace {

int userError(const std::string &message) {
  llvm::errs() << "nautc: error: " << message << "\n";
  return kExitUserError;
}

int internalError(const std::string &message) {
  llvm::errs() << "nautc: internal error: " << message << "\n";
  return kExitInternal;
}

int usageError(const std::string &message) {
  llvm::errs() << "nautc: " << message << "\n";
  return kExitUsage;
}

/// The target the device runs, or a usage error: the emulator runs NVIDIA
/// kernels (the first NVIDIA target's unless one is named), the CPU the
/// host's.
int deviceTarget(const Options &opts, TargetInfo &target) {
  target = targetForDevice(opts);
  if (!opts.fibreOrder.empty() && opts.device != "emu")
    return usageError("--fibre-order orders the emulator's threads: use "
                      "--device emu");
  if (!opts.kernelIR.empty() && opts.device != "emu")
    return usageError("--kernel-ir runs NVIDIA kernels' LLVM IR on the "
                      "emulator: use --device emu");
  if (opts.device == "emu") {
    emu::FibreOrder order;
    if (const char *set = std::getenv("NAUTILUS_EMU_FIBRE_ORDER"))
      if (std::string e = emu::parseFibreOrder(set, order); !e.empty())
        return usageError("NAUTILUS_EMU_FIBRE_ORDER: " + e);
    if (!target.isNVIDIA())
      return usageError("--device emu runs NVIDIA kernels: use --target "
                        "sm_80 or sm_90");
    return kExitSuccess;
  }
  if (opts.device == "cpu") {
    if (!target.isCPU())
      return usageError("--device cpu runs --target cpu code");
    if (opts.profile)
      return usageError("--profile counts memory traffic on the emulator: "
                        "use --device emu");
    return kExitSuccess;
  }
  if (opts.device == "reference-host" || opts.device == "cuda" ||
      opts.device == "hip") {
    if (opts.profile)
      return usageError("--profile counts memory traffic on the emulator: "
                        "use --device emu");
    if (opts.device == "cuda" && !target.isNVIDIA())
      return usageError("--device cuda runs NVIDIA kernels: use --target "
                        "sm_80 or sm_90");
    if (opts.device == "hip" && !target.isAMD())
      return usageError("--device hip runs AMD kernels: use --target "
                        "gfx90a or gfx942");
    return kExitSuccess;
  }
  return usageError("--device " + opts.device +
                    " is not available in this build (devices: cpu, emu, "
                    "cuda, hip, reference-host)");
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
      {"loads", &profile.globalLoads},
      {"stores", &profile.globalStores},
      {"TMA loads", &profile.tmaLoads}};
  for (auto [name, traffic] : global)
    if (traffic->requests != 0)
      llvm::outs() << "profile: " << program << ": global " << name << " "
                   << traffic->requests << " requests, " << traffic->sectors
                   << " sectors of 32 bytes, "
                   << llvm::format("%.0f", 100.0 * double(traffic->bytes) /
                                               double(32 * traffic->sectors))
                   << "% of their bytes used\n";
}

/// The device a compiled kernel runs on: runOnce runs it over the inputs
/// (and says whether an error is the generated kernel's fault).
struct Device {
  std::unique_ptr<CpuExecutor> cpu;
  std::unique_ptr<EmuExecutor> emulator;
  std::unique_ptr<GpuExecutor> gpu;
  std::unique_ptr<ReferenceHostExecutor> reference;
  std::vector<std::pair<std::string, emu::MemoryProfile>> profiles;
  bool profileNext = false; // --profile: the first run only
  std::function<std::string(std::vector<rt::HostTensor> &, bool *)> runOnce;
};

/// --kernel-ir: the kernels of the file in place of the compiled ones, on
/// the emulator with the compiled launch plan.
int loadKernelIR(const Options &opts, Compilation &compilation,
                 Device &device) {
  auto context = std::make_unique<llvm::LLVMContext>();
  std::string error;
  std::unique_ptr<llvm::Module> kernels =
      EmuExecutor::readKernelsIR(opts.kernelIR, compilation.module(),
                                 compilation.launchPlan(), *context, error);
  if (!kernels)
    return userError("--kernel-ir: " + error);
  device.emulator = EmuExecutor::create(std::move(kernels), std::move(context),
                                        compilation.launchPlan(), error);
  if (!device.emulator)
    return userError("--kernel-ir: the emulator cannot run the kernels of " +
                     opts.kernelIR + ": " + error);
  return kExitSuccess;
}

/// Lowers `compilation` (at its Tile stage) for the device and loads it.
int makeDevice(const Options &opts, Compilation &compilation,
               const RunInputs &run, Device &device) {
  bool host = compilation.target().isCPU();
  if (failed(compilation.lowerTo(host ? Stage::HostLLVM : Stage::GpuLLVM))) {
    if (compilation.fault() == Fault::Schedules) {
      blameScheduleFile(opts);
      return kExitUserError;
    }
    if (isUsersToFix(compilation.fault()))
      return userError(compilation.failureMessage());
    return internalError(compilation.failureMessage());
  }
  std::string error;
  if (host) {
    device.cpu = CpuExecutor::create(compilation.module(),
                                     compilation.launchPlan(), error);
    if (!device.cpu)
      return internalError(error);
    device.runOnce = [&](std::vector<rt::HostTensor> &out, bool *fault) {
      return device.cpu->run(run.sizes, run.tensors, out, /*threads=*/0,
                             fault);
    };
    return kExitSuccess;
  }
  if (opts.kernelIR.empty()) {
    device.emulator = EmuExecutor::create(compilation.module(),
                                          compilation.launchPlan(), error);
    if (!device.emulator)
      return internalError(error);
  } else if (int rc = loadKernelIR(opts, compilation, device)) {
    return rc;
  }
  if (!opts.fibreOrder.empty()) {
    emu::FibreOrder order; // (parsed with the options)
    emu::parseFibreOrder(opts.fibreOrder, order);
    device.emulator->setFibreOrder(order);
  }
  device.profileNext = opts.profile;
  device.runOnce = [&](std::vector<rt::HostTensor> &out, bool *fault) {
    bool profile = device.profileNext;
    device.profileNext = false;
    return device.emulator->run(run.sizes, run.tensors, out, fault,
                                profile ? &device.profiles : nullptr);
  };
  return kExitSuccess;
}

int printChecks(const std::vector<OutputCheck> &checks);

/// --device cuda or hip: the bundle on device 0 of the target's kind (the
/// driver compiles the PTX; HIP loads the code object).
int makeGpuDevice(Compilation &compilation, const RunInputs &run,
                  Device &device) {
  std::string error;
  bool compilerFault = false;
  device.gpu = GpuExecutor::create(compilation, error, compilerFault);
  if (!device.gpu)
    return compilerFault ? internalError(error) : userError(error);
  device.runOnce = [&](std::vector<rt::HostTensor> &out, bool *) {
    return device.gpu->run(run.sizes, run.tensors, out);
  };
  return kExitSuccess;
}

/// --check on a GPU: each output against the reference kernels' on the same
/// GPU (ReferenceCuda.h, by NVRTC), which the interpreter could not match
/// at a GPU's sizes.
int reportGpuCheck(alg::KernelOp reference, const TargetInfo &target,
                   const RunInputs &run,
                   const std::vector<rt::HostTensor> &outputs,
                   const rt::Tolerance &tolerance) {
  std::string error;
  auto executor = ReferenceGpuExecutor::create(reference, target.chip, error);
  std::vector<rt::HostTensor> expected;
  if (executor)
    error = executor->run(run.sizes, run.tensors, expected);
  if (!error.empty())
    return userError("--check on cuda: " + error);
  std::vector<OutputCheck> checks;
  compareOutputs(reference, expected, outputs, tolerance, checks);
  return printChecks(checks);
}

/// --device reference-host: the reference kernels (ReferenceCuda.h) of the
/// alg kernel `kernel`, compiled for the host.
int makeReferenceDevice(alg::KernelOp kernel, const RunInputs &run,
                        Device &device) {
  std::string error;
  bool rejected = false;
  device.reference = ReferenceHostExecutor::create(kernel, error, &rejected);
  if (!device.reference)
    return rejected ? internalError(error) : userError(error);
  device.runOnce = [&](std::vector<rt::HostTensor> &out, bool *) {
    return device.reference->run(run.sizes, run.tensors, out);
  };
  return kExitSuccess;
}

/// What computed the outputs --check compares (Check.h).
CheckPath checkPath(const Options &opts) {
  if (opts.device == "emu")
    return CheckPath::Emulator;
  if (opts.device == "cuda" || opts.device == "hip")
    return CheckPath::Gpu;
  return CheckPath::Host; // cpu, reference-host
}

/// Writes each output as NAME.npy in --save's folder.
int saveOutputs(const std::string &dir, const KernelSignature &sig,
                const std::vector<rt::HostTensor> &outputs) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return userError("cannot create '" + dir + "': " + ec.message());
  for (size_t i = 0; i < outputs.size(); ++i) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, sig.outputs[i].name + ".npy");
    std::string e;
    if (!rt::writeNpy(path.str().str(), outputs[i], e))
      return userError(e);
  }
  return kExitSuccess;
}

/// --check: each output against the reference interpreter's, PASS or FAIL.
int reportCheck(alg::KernelOp reference, const RunInputs &run,
                const std::vector<rt::HostTensor> &outputs,
                const rt::Tolerance &tolerance) {
  std::vector<OutputCheck> checks;
  if (std::string e = checkOutputs(reference, run.sizes, run.tensors, outputs,
                                   tolerance, checks);
      !e.empty())
    return userError("the reference interpreter failed: " + e);
  return printChecks(checks);
}

/// Prints each check, PASS or FAIL, and the verdict: a mismatch exits with
/// its own status.
int printChecks(const std::vector<OutputCheck> &checks) {
  bool pass = true;
  for (const OutputCheck &check : checks) {
    const rt::Comparison &c = check.comparison;
    llvm::outs() << check.name << ": max abs error "
                 << llvm::format("%.3g", c.maxAbsError) << ", max rel error "
                 << llvm::format("%.3g", c.maxRelError) << "; worst element at "
                 << llvm::format("%.3g", c.worstRatio)
                 << " of its bound |error| <= "
                 << llvm::format("%g", c.tolerance.ulps) << " ulp + "
                 << llvm::format("%.3g", c.tolerance.relative)
                 << " * (|expected| + mean |expected|); mean error "
                 << llvm::format("%.3g", c.meanError) << " of at most "
                 << llvm::format("%.3g", c.meanErrorBound) << " "
                 << (c.pass() ? "PASS" : "FAIL") << "\n";
    if (c.widened)
      llvm::outs() << "  " << c.widened
                   << " elements within their bounds only as widened where "
                      "the reference's sums cancelled on the way to them "
                      "(|expected| + their excess in place of |expected|)\n";
    if (c.leftOutOfMean)
      llvm::outs() << "  " << c.leftOutOfMean
                   << " elements left out of the mean error: their excess "
                      "outweighs their scale (their error is mostly a "
                      "cancelled sum's, shared by the elements it reaches)\n";
    if (!c.elementsPass) {
      llvm::outs() << "  worst element #" << c.worst << ": got "
                   << c.worstActual << ", expected " << c.worstReference;
      if (c.worstExcess > 0)
        llvm::outs() << " (excess " << llvm::format("%.3g", c.worstExcess)
                     << ")";
      llvm::outs() << "\n";
    }
    if (!c.meanPasses)
      llvm::outs() << "  the mean error is a bias rounding does not explain, "
                      "as if every element were scaled by "
                   << llvm::format("%.6g", 1 + c.meanError) << "\n";
    pass &= c.pass();
  }
  llvm::outs() << (pass ? "PASS" : "FAIL") << "\n";
  return pass ? kExitSuccess : kExitMismatch;
}

} // namespace

int nautilus::runRun(const Options &opts) {
  TargetInfo target;
  if (int rc = deviceTarget(opts, target))
    return rc;
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts.source(), context, sourceMgr, /*bindShape=*/false,
                          loaded))
    return rc;
  RunInputs run;
  if (int rc = prepareInputs(opts, loaded.kernel, run))
    return rc;

  // From here on, diagnostics point into the source (and a schedule's
  // text), as `nautc compile` prints them.
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  RemarkFilter remarks(context, opts.explain);
  // Specialise the kernel to the sizes, and keep the alg IR for --check.
  if (failed(bindSizes(*loaded.module, run.sizes)))
    return kExitUserError;
  OwningOpRef<ModuleOp> reference = loaded.module->clone();

  std::shared_ptr<ScheduleProvider> schedules =
      scheduleProviderOf(opts, loaded.structuralHash, target, run.sizes);
  if (!schedules)
    return kExitUserError;
  Compilation compilation(*loaded.module, target, schedules);
  compilation.setVerification(!opts.noVerify);
  // Proved here (with any fallback the proofs call for), so that the
  // explanation and the workspace are those of the programs that run (the
  // reference device runs the alg kernel, none of them).
  if (failed(compilation.lowerTo(Stage::Tile)) ||
      (opts.device != "reference-host" &&
       failed(compilation.proveTilePrograms()))) {
    if (isUsersToFix(compilation.fault()))
      return userError(compilation.failureMessage());
    return compilation.fault() == Fault::Schedules
               ? kExitUserError
               : internalError(compilation.failureMessage());
  }
  if (opts.explain)
    compilation.scheduleProvider().explain(llvm::outs());
  if (std::string e = checkMemory(
          run.bytes, workspaceBytes(compilation.launchPlan(), run.sizes));
      !e.empty())
    return userError(e);
  std::optional<rt::DType> narrowed = roundedIntermediateType(*loaded.module);
  Device device;
  alg::KernelOp referenceKernel = *reference->getOps<alg::KernelOp>().begin();
  if (int rc = opts.device == "reference-host"
                   ? makeReferenceDevice(referenceKernel, run, device)
               : opts.device == "cuda" || opts.device == "hip"
                   ? makeGpuDevice(compilation, run, device)
                   : makeDevice(opts, compilation, run, device))
    return rc;

  std::vector<rt::HostTensor> outputs;
  bool kernelFault = false;
  if (std::string e = device.runOnce(outputs, &kernelFault); !e.empty()) {
    // A fault of the generated code (on the emulator: a race, an async
    // hazard, a deadlock, an access out of bounds) is nautc's bug, unless
    // the kernel itself reads out of range (undefined in the language; the
    // lowerings clamp most such reads, not every one: a flash kernel's
    // K and V blocks), which the interpreter names. Kernels given with
    // --kernel-ir are the user's.
    if (kernelFault && !opts.kernelIR.empty())
      return userError("the kernels of " + opts.kernelIR + " faulted: " + e);
    if (kernelFault) {
      std::vector<rt::HostTensor> ignored;
      std::string read =
          interpretKernel(referenceKernel, run.sizes, run.tensors, ignored);
      if (read.find(kOutOfRangeRead) != std::string::npos)
        return userError("the kernel reads out of range, which is undefined "
                         "(the reference interpreter: " +
                         read + "), and its code faulted: " + e);
      return internalError("the generated code faulted: " + e);
    }
    return userError(e);
  }
  for (const auto &[program, profile] : device.profiles)
    printMemoryProfile(program, profile);
  if (opts.time) {
    // On the CPU, the launches alone (the buffers allocated and the
    // programs looked up once); elsewhere each run as a whole.
    std::string e;
    std::optional<rt::Timing> launches =
        device.cpu ? device.cpu->timeLaunches(run.sizes, run.tensors,
                                              /*budgetSeconds=*/2.0, e)
                   : std::nullopt;
    if (device.cpu && !launches)
      return internalError("the timed launches failed: " + e);
    rt::Timing timing = launches ? *launches : rt::timeRuns([&] {
      std::vector<rt::HostTensor> scratch;
      device.runOnce(scratch, nullptr);
    });
    llvm::outs() << "time: median "
                 << llvm::format("%.3f", timing.medianSeconds * 1e3)
                 << " ms over " << timing.runs << " runs\n";
  }
  if (!opts.saveDir.empty())
    if (int rc = saveOutputs(opts.saveDir, run.sig, outputs))
      return rc;
  if (!opts.check) {
    for (size_t i = 0; i < outputs.size(); ++i)
      llvm::outs() << run.sig.outputs[i].name << ": "
                   << rt::dtypeName(outputs[i].dtype())
                   << rt::formatShape(outputs[i].shape()) << "\n";
    return kExitSuccess;
  }
  rt::Tolerance tolerance = checkTolerance(
      roundingSources(referenceKernel, run.sizes, narrowed), checkPath(opts));
  // (On an AMD GPU, the interpreter's: the reference kernels are CUDA.)
  if (opts.device == "cuda")
    return reportGpuCheck(referenceKernel, target, run, outputs, tolerance);
  return reportCheck(referenceKernel, run, outputs, tolerance);
}
