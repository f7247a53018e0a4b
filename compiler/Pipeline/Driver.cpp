//===- Driver.cpp - The one compile driver --------------------------------===//
#include "compiler/Pipeline/Driver.h"
#include "compiler/Pipeline/Pipelines.h"
#include "compiler/Pipeline/Requirements.h"
#include "compiler/Pipeline/Structures.h"
#include "compiler/Schedule/ScheduleProvider.h"
#include "compiler/Transforms/LLVM/Passes.h"
#include "compiler/Verify/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace nautilus;

Compilation::Compilation(ModuleOp module, TargetInfo target,
                         std::shared_ptr<ScheduleProvider> schedules)
    : moduleOp(module), targetInfo(std::move(target)),
      schedules(schedules ? std::move(schedules) : heuristicSchedules()) {}

LogicalResult Compilation::fail(Fault fault, std::string what) {
  faulted = fault;
  failedWhat = std::move(what);
  return failure();
}

LogicalResult Compilation::runStage(Stage next) {
  switch (next) {
  case Stage::Alg:
    return success();
  case Stage::Tile: {
    if (schedules->choosesStructure(targetInfo))
      chooseStructure();
    // Kept to lower again with the fallback's schedules if the verifier
    // refutes these.
    if (verifying && schedules->canFallBack())
      algModule = cast<ModuleOp>(moduleOp->clone());
    // The kernel's `require` lines, for the runtime to check at launch.
    std::vector<rt::Requirement> requirements;
    for (auto kernel : moduleOp.getOps<alg::KernelOp>())
      if (failed(requirementsOf(kernel, requirements)))
        return fail(Fault::Compiler, "recording the kernel's requirements "
                                     "failed");
    bool rejected = false;
    if (failed(lowerAlgToTile(moduleOp, targetInfo, schedules, &rejected)))
      return fail(rejected ? Fault::Schedules : Fault::Compiler,
                  "lowering to tile programs failed");
    plan = extractLaunchPlan(moduleOp);
    plan->requirements = std::move(requirements);
    return success();
  }
  case Stage::HostLLVM:
    if (failed(lowerTileToHostLLVM(moduleOp)))
      return fail(Fault::Compiler, "lowering to host code failed");
    return success();
  case Stage::Gpu:
    // Schedules a user gave that the lowering cannot meet (too many stages
    // for the shared memory) are the user's to change.
    if (failed(lowerTileToGPU(moduleOp)))
      return fail(schedules->isUsers() ? Fault::Schedules : Fault::Compiler,
                  "lowering to GPU kernels failed");
    return success();
  case Stage::GpuLLVM:
    if (failed(lowerGPUToLLVM(moduleOp, targetInfo))) {
      // (A function the target has no code for: the user's to change,
      // diagnosed at its operation.)
      bool needsLibrary = false;
      moduleOp.walk([&](Operation *op) {
        needsLibrary |= op->hasAttr(kNeedsDeviceLibraryAttrName);
      });
      if (needsLibrary)
        return fail(Fault::Unavailable, "the kernel computes functions " +
                                            targetInfo.name +
                                            " has no code for (see above)");
      return fail(Fault::Compiler, "lowering GPU kernels to LLVM failed");
    }
    return success();
  }
  llvm_unreachable("a stage of the pipeline");
}

void Compilation::chooseStructure() {
  if (!mayHaveStructures(moduleOp))
    return;
  TargetInfo modelled = targetInfo;
  modelled.gpuModelScales = schedules->gpuModelScales();
  std::vector<KernelStructure> structures =
      kernelStructures(moduleOp, modelled, schedules->cpuModelScales());
  // (When the default rewrites do not lower, the lowering below says why.)
  if (structures.empty() || !structures.front().prediction.rewrites.isDefault())
    return;
  std::vector<StructurePrediction> predictions = predictionsOf(structures);
  size_t chosen = preferredStructure(predictions);
  if (std::shared_ptr<ScheduleProvider> chosenHere =
          schedules->withStructure(std::move(predictions), chosen))
    schedules = std::move(chosenHere);
}

LogicalResult Compilation::proveTilePrograms() {
  if (!verifying || proved || current != Stage::Tile)
    return success();
  if (failed(verifyTilePrograms()))
    return failure();
  proved = true;
  algModule = nullptr; // (no more fallbacks to lower it with)
  return success();
}

/// The programs of `module` the verifier refuted, with their schedules.
static std::vector<RefutedProgram>
refutedPrograms(ModuleOp moduleOp, const verify::VerificationReport &report) {
  std::vector<RefutedProgram> refuted;
  for (const std::string &name : report.refutedPrograms)
    for (auto program : moduleOp.getOps<tile::ProgramOp>())
      if (program.getSymName() == name)
        refuted.push_back({name, program.getSchedule()});
  return refuted;
}

/// The user's error where every invariant refuted is `bounds.kernel-reads`
/// (at a point of the index space, the kernel's own read is out of range,
/// unguarded), naming the first; std::nullopt otherwise.
static std::optional<std::string>
kernelsOwnReadOutOfRange(const verify::VerificationReport &report) {
  const verify::Finding *first = nullptr;
  for (const verify::Finding &f : report.findings) {
    if (f.verdict != verify::Verdict::Refuted)
      continue;
    if (f.invariant != "bounds.kernel-reads")
      return std::nullopt;
    first = first ? first : &f;
  }
  if (!first)
    return std::nullopt;
  // (The subject is "@PROGRAM: the lhs copies of A without bound checks".)
  StringRef copies = StringRef(first->subject).split(": ").second;
  return "the kernel reads out of range where no where(...) guards the "
         "read, which is undefined, and " +
         (copies.empty() ? first->subject : copies.str()) +
         " would read outside the buffer (" + first->detail +
         "): guard the read, or state the sizes under which it stays in "
         "range (a `require` line, or --shape)";
}

LogicalResult Compilation::verifyTilePrograms() {
  llvm::raw_ostream &out = messages ? *messages : llvm::errs();
  for (;;) {
    // NAUTILUS_VERIFY_MUTATION (a test hook) breaks the models first, as
    // `nautc verify --mutate` does: a compile then stops on the
    // refutation, or lowers again with the schedules' fallback, whose
    // programs the hook leaves alone (it stands for a bug in the first
    // schedules' programs).
    const char *mutation =
        fellBack ? nullptr : std::getenv("NAUTILUS_VERIFY_MUTATION");
    verify::VerificationReport report = verify::verifyModule(
        moduleOp, mutation ? mutation : "", proofCache,
        plan ? plan->requirements : std::vector<rt::Requirement>{});
    if (report.allProved())
      return success();
    if (report.count(verify::Verdict::Refuted) == 0) {
      out << "nautc: warning: the verifier could not decide every "
             "invariant of the tile programs:\n";
      report.printFailures(out);
      return success();
    }
    std::shared_ptr<ScheduleProvider> next =
        algModule ? schedules->fallback(refutedPrograms(moduleOp, report))
                  : nullptr;
    if (!next)
      if (std::optional<std::string> read = kernelsOwnReadOutOfRange(report))
        return fail(Fault::OutOfRangeRead, *read);
    if (!next) {
      out << "nautc: error: the verifier refuted invariants of the "
             "tile programs (nautc verify shows them all; "
             "--no-verify skips the proofs):\n";
      report.printFailures(out);
      return fail(Fault::Verification,
                  "the tile programs failed verification (a bug in "
                  "nautilus's scheduling or layouts)");
    }
    out << "nautc: warning: the verifier refuted invariants of the "
           "tile programs scheduled by "
        << schedules->origin() << ":\n";
    report.printFailures(out);
    out << "nautc: warning: lowering the kernel again with " << next->origin()
        << " instead\n";
    if (failed(lowerAgainWith(std::move(next))))
      return failure();
  }
}

LogicalResult
Compilation::lowerAgainWith(std::shared_ptr<ScheduleProvider> fallback) {
  // The alg module back in place of the tile programs.
  moduleOp.getBodyRegion().takeBody(algModule->getBodyRegion());
  moduleOp->setAttrs(algModule->getOperation()->getAttrDictionary());
  algModule = nullptr;
  schedules = std::move(fallback);
  fellBack = true;
  plan.reset();
  current = Stage::Alg;
  if (failed(runStage(Stage::Tile)))
    return failure();
  current = Stage::Tile;
  return success();
}

LogicalResult Compilation::lowerTo(Stage last) {
  if (faulted != Fault::None)
    return failure();
  for (Stage next : {Stage::Tile, Stage::HostLLVM, Stage::Gpu, Stage::GpuLLVM}) {
    if (next <= current || next > last)
      continue;
    bool hostStage = next == Stage::HostLLVM;
    bool gpuStage = next == Stage::Gpu || next == Stage::GpuLLVM;
    if ((hostStage && targetInfo.isGPU()) || (gpuStage && targetInfo.isCPU()))
      continue;
    // The tile programs are proved once, before the first lowering past
    // them.
    if (current == Stage::Tile && failed(proveTilePrograms()))
      return failure();
    if (failed(runStage(next)))
      return failure();
    current = next;
  }
  return success();
}
