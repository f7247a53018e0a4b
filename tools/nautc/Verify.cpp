//===- Verify.cpp - nautc verify ------------------------------------------===//
//
// Lowers the kernel to laid-out tile programs for the target (as compile
// does) and proves every invariant of compiler/Verify, printing each with
// its result and time; then lowers them on (to GPU kernels, or host code),
// so that schedules the lowering refuses are refused here as by compile. `--mutate NAME` breaks the kernel's model first, to
// show the invariant that guards against that fault refuting it.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/LoadKernel.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "compiler/Verify/KernelModel.h"
#include "compiler/Verify/Verifier.h"
#include "compiler/Pipeline/Pipelines.h"
#include "tools/nautc/Commands.h"

#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace nautilus;

namespace {

int listMutations() {
  llvm::outs() << "mutations (nautc verify --mutate NAME):\n";
  for (const verify::Mutation &m : verify::mutations())
    llvm::outs() << "  " << m.name << ": " << m.description << "\n";
  return kExitSuccess;
}

} // namespace

int nautilus::runVerify(const Options &opts) {
  if (opts.mutation == "list")
    return listMutations();
  if (!opts.mutation.empty()) {
    bool known = false;
    for (const verify::Mutation &m : verify::mutations())
      known |= m.name == opts.mutation;
    if (!known) {
      llvm::errs() << "nautc: unknown mutation '" << opts.mutation
                   << "' (nautc verify --mutate list names them)\n";
      return kExitUsage;
    }
  }
  DialectRegistry registry;
  registerPipelineDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  LoadedKernel loaded;
  if (int rc = loadKernel(opts.source(), context, sourceMgr,
                          /*bindShape=*/true, loaded))
    return rc;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
  RemarkFilter remarks(context, opts.explain);
  std::optional<TargetInfo> target =
      getTarget(opts.target, opts.multiprocessors);
  // The schedules compile and run would take (a --db record's too).
  std::shared_ptr<ScheduleProvider> schedules =
      scheduleProviderOf(opts, loaded.structuralHash, *target, opts.shape);
  if (!schedules)
    return kExitUserError;
  Compilation compilation(*loaded.module, *target, schedules);
  if (failed(compilation.lowerTo(Stage::Tile))) {
    if (compilation.fault() == Fault::Schedules) {
      blameScheduleFile(opts);
      return kExitUserError;
    }
    llvm::errs() << "nautc: internal error: " << compilation.failureMessage()
                 << "\n";
    return kExitInternal;
  }
  verify::VerificationReport report =
      verify::verifyModule(compilation.module(), opts.mutation, {},
                           compilation.launchPlan().requirements);
  report.print(llvm::outs());
  if (!opts.mutation.empty() && !report.mutationApplied)
    return kExitUsage;
  if (!report.allProved())
    return kExitRefuted;
  // The proofs are of the tile programs; the lowering past them may still
  // refuse their schedules (a flash kernel's tile_k below its rows, shared
  // memory past the part): what compile would say, said here too.
  if (!opts.mutation.empty())
    return kExitSuccess;
  compilation.setVerification(false); // (proved above)
  if (succeeded(compilation.lowerTo(target->isGPU() ? Stage::Gpu
                                                    : Stage::HostLLVM)))
    return kExitSuccess;
  if (compilation.fault() == Fault::Schedules) {
    llvm::errs() << "nautc: error: every invariant holds, but the lowering "
                    "refuses these schedules (see above), as compile would\n";
    blameScheduleFile(opts);
    return kExitUserError;
  }
  llvm::errs() << "nautc: internal error: " << compilation.failureMessage()
               << "\n";
  return kExitInternal;
}
