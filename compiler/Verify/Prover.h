//===- Prover.h - Invariants proved by Z3, with counterexamples -*- C++ -*-===//
//
// Every invariant is proved the same way: the checker states what a
// violation would be (a formula over the kernel's symbolic threads,
// registers, addresses and sizes) and asks Z3 for one. Unsatisfiable means
// proved; a model is a counterexample, which the invariant describes in
// the kernel's own terms (thread, lane, register, logical indices, sizes).
// Results are cached by the query's structure (its formula's DAG printed
// without Z3's term ids), in the process and on disk (the kernel cache's
// directory, proofs/; NAUTILUS_PROOF_CACHE=0 turns that off; a compile's
// ProofCacheOptions may turn either off or name the directory), so a repeated
// compile of the same structure pays nothing for its proofs.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_VERIFY_PROVER_H
#define NAUTILUS_VERIFY_PROVER_H

#include "compiler/Verify/ProofCacheOptions.h"

#include "llvm/ADT/DenseMap.h"

#include <z3++.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nautilus::verify {

enum class Verdict { Proved, Refuted, Unknown };

/// The outcome of one invariant on one subject (a layout, a stage, a
/// program's grid, ...).
struct Finding {
  std::string invariant; // "layout.injective", "sync.copy-ring", ...
  std::string subject;   // what it was proved of, in the kernel's terms
  Verdict verdict = Verdict::Unknown;
  /// The counterexample (Refuted) or why no answer came (Unknown).
  std::string detail;
  double seconds = 0;
  bool cached = false;
};

/// Z3's text of a context's symbols and sorts, by id, for the proof
/// cache's keys (Prover.cpp: printing through Z3 is slow, so each is
/// printed once).
struct PrintedNames {
  llvm::DenseMap<unsigned, std::string> symbols, sorts;
  /// What was printed, held: Z3 reuses the id of a term it frees, and a
  /// text kept under a reused id would name the wrong symbol.
  std::vector<z3::ast> held;
};

/// Z3's context and the proof cache of one verification.
class Prover {
public:
  /// Milliseconds Z3 may spend on one query before its answer is Unknown.
  explicit Prover(unsigned timeoutMs = 10000, ProofCacheOptions cache = {});

  z3::context &context() { return ctx; }

  /// Proves `invariant` of `subject` by showing that `violation` (a
  /// formula over the subject's variables) has no model. A model is
  /// described by `describe`, which reads the variables' values from it;
  /// one that also meets `preferred` (small sizes, say, for a readable
  /// counterexample) is described when there is one.
  Finding prove(std::string invariant, std::string subject,
                const z3::expr &violation,
                const std::function<std::string(const z3::model &)> &describe,
                std::optional<z3::expr> preferred = std::nullopt);

private:
  z3::context ctx;
  unsigned timeoutMs;
  ProofCacheOptions cache;
  /// The context's symbols and sorts as the proof cache's keys print them.
  PrintedNames printedNames;
};

/// The value of `e` in `model` as an unsigned integer (0 if unassigned).
uint64_t valueOf(const z3::model &model, const z3::expr &e);

} // namespace nautilus::verify

#endif
