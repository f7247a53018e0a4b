//===- Driver.h - The one compile driver -----------------------*- C++ -*-===//
//
// The stage sequence of the pipeline, written once: `nautc compile`, `nautc
// run` and the JIT all lower a kernel through a Compilation, stage by stage,
// and stop where they need (a printed stage, the host code to run, the
// kernels to serialise or emulate).
//
//   alg --Tile--> tile programs, scheduled and laid out; the launch plan
//       --HostLLVM--> the LLVM dialect for the host            (cpu)
//       --Gpu--> kernels in the gpu dialect                    (GPU targets)
//       --GpuLLVM--> NVVM- or ROCDL-level kernels              (GPU targets)
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_PIPELINE_DRIVER_H
#define NAUTILUS_PIPELINE_DRIVER_H

#include "compiler/Target/Target.h"
#include "compiler/Verify/ProofCacheOptions.h"
#include "runtime/LaunchPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace nautilus {

class ScheduleProvider;

/// How far a compilation has gone, in order.
enum class Stage { Alg, Tile, HostLLVM, Gpu, GpuLLVM };

/// Whose fault a failed stage is: the schedules a provider replaced (a
/// user's schedule file: a user error), the compiler's (a bug; Verification
/// when the verifier refuted an invariant of the tile programs, with a
/// counterexample), or no one's: what was asked for cannot be made here (a
/// library missing, such as NVRTC, an op the reference kernels do not
/// cover, or a function the target has no code for: a GPU's f64 exp, which
/// nautilus-libcalls-to-intrinsics marks), a user error; or the kernel's
/// own: OutOfRangeRead, where the only invariants refuted are the kernel's
/// reads out of range (`bounds.kernel-reads`: unguarded, undefined in the
/// language, at a point of the index space), a user error.
enum class Fault {
  None,
  Schedules,
  Compiler,
  Verification,
  Unavailable,
  OutOfRangeRead
};

/// Whether a failure with `fault` is the user's to fix, its message said as
/// it is (what cannot be made, or the kernel's read out of range).
inline bool isUsersToFix(Fault fault) {
  return fault == Fault::Unavailable || fault == Fault::OutOfRangeRead;
}

class Compilation {
public:
  /// Compiles the alg kernel of `module` for `target` with the schedules
  /// `schedules` decides (the heuristics when null).
  Compilation(mlir::ModuleOp module, TargetInfo target,
              std::shared_ptr<ScheduleProvider> schedules = nullptr);

  /// Runs the stages after the current one up to `last`, skipping those of
  /// the other family of targets (HostLLVM on a GPU target, Gpu and GpuLLVM
  /// on the host). Failure is diagnosed on the module's context; fault()
  /// and failureMessage() then say whose and where.
  mlir::LogicalResult lowerTo(Stage last);

  Stage stage() const { return current; }
  /// Whether the tile programs are proved (compiler/Verify) before any
  /// lowering past the Tile stage: on unless turned off (--no-verify). A
  /// refuted invariant fails the compilation (Fault::Verification) after
  /// printing its counterexample on stderr, unless the schedules have a
  /// fallback (ScheduleProvider::fallback: the auto-scheduler's, a tuning
  /// record's): the kernel is then lowered again with the fallback's
  /// schedules, with a warning. An invariant Z3 could not decide in time
  /// is a warning.
  void setVerification(bool on) { verifying = on; }
  /// Which proof caches the verifier reads and writes (both, in the
  /// kernel cache's default directory, unless set: the JIT sets them from
  /// its request's cache options).
  void setProofCache(verify::ProofCacheOptions options) {
    proofCache = std::move(options);
  }
  /// Proves the tile programs now (at the Tile stage), as lowerTo would
  /// before the next stage, falling back the same way; once.
  mlir::LogicalResult proveTilePrograms();
  /// Where the verifier's warnings and refutations go (stderr unless set;
  /// the JIT keeps them with its diagnostics). `os` must outlive the
  /// compilation's lowering.
  void setMessages(llvm::raw_ostream &os) { messages = &os; }
  /// The provider whose schedules the tile programs have (a fallback's,
  /// after a refutation).
  const ScheduleProvider &scheduleProvider() const { return *schedules; }
  Fault fault() const { return faulted; }
  /// What failed, for an internal error ("lowering to GPU kernels failed").
  const std::string &failureMessage() const { return failedWhat; }
  /// The launch plan, from the Tile stage on.
  const rt::LaunchPlan &launchPlan() const { return *plan; }
  const TargetInfo &target() const { return targetInfo; }
  mlir::ModuleOp module() const { return moduleOp; }

  /// Records a failure of what follows the last stage (code generation) as
  /// the compiler's: `what` failed. Returns failure.
  mlir::LogicalResult markFailed(std::string what) {
    return fail(Fault::Compiler, std::move(what));
  }
  /// Records that what follows the last stage cannot be made here, for
  /// the reason `why`. Returns failure.
  mlir::LogicalResult markUnavailable(std::string why) {
    return fail(Fault::Unavailable, std::move(why));
  }

private:
  mlir::LogicalResult runStage(Stage next);
  /// Where the schedules' model chooses the kernel's structure (the alg
  /// rewrites: Pipeline/Structures.h), predicts each and schedules with
  /// the provider under the one it prefers.
  void chooseStructure();
  mlir::LogicalResult verifyTilePrograms();
  /// Lowers the kept alg module to tile programs again with `fallback`'s
  /// schedules.
  mlir::LogicalResult
  lowerAgainWith(std::shared_ptr<ScheduleProvider> fallback);
  mlir::LogicalResult fail(Fault fault, std::string what);

  mlir::ModuleOp moduleOp;
  TargetInfo targetInfo;
  std::shared_ptr<ScheduleProvider> schedules;
  Stage current = Stage::Alg;
  Fault faulted = Fault::None;
  std::string failedWhat;
  std::optional<rt::LaunchPlan> plan;
  bool verifying = true;
  verify::ProofCacheOptions proofCache;
  /// The alg module as the Tile stage found it, kept while the schedules
  /// have a fallback to lower it with again.
  mlir::OwningOpRef<mlir::ModuleOp> algModule;
  bool fellBack = false, proved = false;
  llvm::raw_ostream *messages = nullptr; // (stderr)
};

} // namespace nautilus

#endif
