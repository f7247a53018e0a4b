//===- Verifier.h - Prove a tile module's kernels correct -------*- C++ -*-===//
//
// The entry point of compiler/Verify: builds the models of a laid-out tile
// module's programs (KernelModel.h) and proves every invariant of each
// (Invariants.h), with Z3. `nautc compile` and `nautc run` verify by
// default before lowering to a target (--no-verify skips it), and
// `nautc verify` prints each invariant with its result and time.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_VERIFY_VERIFIER_H
#define NAUTILUS_VERIFY_VERIFIER_H

#include "compiler/Verify/Prover.h"
#include "runtime/SizeExpr.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace nautilus::verify {

struct VerificationReport {
  std::vector<Finding> findings;
  double seconds = 0;
  /// The mutation applied (empty: none), and whether it applied to any
  /// program.
  std::string mutation;
  bool mutationApplied = false;
  /// The programs (by symbol name) with an invariant refuted, in the
  /// module's order.
  std::vector<std::string> refutedPrograms;

  unsigned count(Verdict verdict) const;
  bool allProved() const {
    return count(Verdict::Refuted) == 0 && count(Verdict::Unknown) == 0;
  }
  /// One line an invariant: result, time, invariant, subject, and the
  /// counterexample or reason; then a summary line.
  void print(llvm::raw_ostream &os) const;
  /// The failures only (for a compile that stops on them).
  void printFailures(llvm::raw_ostream &os) const;
};

/// Proves every invariant of every program of `module` (tile programs,
/// scheduled and laid out), after applying `mutation` (a name from
/// mutations(); empty for none), with the proof caches `cache` names.
/// The bounds proofs range over the sizes `requirements` admit (the
/// kernel's `require` lines, which the runtime checks at every launch, and
/// the implicit ones, such as a divisor of sizes above 0).
VerificationReport
verifyModule(mlir::ModuleOp module, llvm::StringRef mutation = "",
             const ProofCacheOptions &cache = {},
             const std::vector<rt::Requirement> &requirements = {});

} // namespace nautilus::verify

#endif
