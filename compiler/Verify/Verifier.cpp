//===- Verifier.cpp - Prove a tile module's kernels correct ---------------===//
#include "compiler/Verify/Verifier.h"

#include "compiler/Verify/Invariants.h"
#include "compiler/Verify/KernelModel.h"

#include "llvm/Support/Format.h"

#include <chrono>

using namespace mlir;
using namespace nautilus;
using namespace nautilus::verify;

unsigned VerificationReport::count(Verdict verdict) const {
  unsigned n = 0;
  for (const Finding &f : findings)
    n += f.verdict == verdict;
  return n;
}

namespace {

const char *verdictName(Verdict v) {
  switch (v) {
  case Verdict::Proved:
    return "proved ";
  case Verdict::Refuted:
    return "REFUTED";
  case Verdict::Unknown:
    return "UNKNOWN";
  }
  return "";
}

void printFinding(llvm::raw_ostream &os, const Finding &f) {
  os << verdictName(f.verdict) << "  "
     << llvm::format("%7.1f ms", f.seconds * 1000) << (f.cached ? "*" : " ")
     << " " << f.invariant << "  " << f.subject << "\n";
  if (!f.detail.empty())
    os << "    " << (f.verdict == Verdict::Refuted ? "counterexample: " : "")
       << f.detail << "\n";
}

} // namespace

void VerificationReport::print(llvm::raw_ostream &os) const {
  if (!mutation.empty())
    os << "mutation: " << mutation
       << (mutationApplied ? "" : " (applies to no program of this kernel)")
       << "\n";
  for (const Finding &f : findings)
    printFinding(os, f);
  os << count(Verdict::Proved) << " proved, " << count(Verdict::Refuted)
     << " refuted, " << count(Verdict::Unknown) << " unknown in "
     << llvm::format("%.2f", seconds) << " s";
  unsigned cached = 0;
  for (const Finding &f : findings)
    cached += f.cached;
  if (cached)
    os << " (" << cached << " from the proof cache, marked *)";
  os << "\n";
}

void VerificationReport::printFailures(llvm::raw_ostream &os) const {
  for (const Finding &f : findings)
    if (f.verdict != Verdict::Proved)
      printFinding(os, f);
}

VerificationReport
verify::verifyModule(ModuleOp module, StringRef mutation,
                     const ProofCacheOptions &cache,
                     const std::vector<rt::Requirement> &requirements) {
  auto start = std::chrono::steady_clock::now();
  VerificationReport report;
  std::vector<ProgramModel> models = buildKernelModels(module);
  for (ProgramModel &model : models)
    for (const rt::Requirement &r : requirements)
      model.requirements.push_back(r.condition);
  if (!mutation.empty()) {
    report.mutation = mutation.str();
    report.mutationApplied = applyMutation(mutation, models);
  }
  Prover prover(/*timeoutMs=*/10000, cache);
  for (const ProgramModel &model : models) {
    size_t first = report.findings.size();
    proveLayouts(prover, model, report.findings);
    proveStages(prover, model, report.findings);
    proveFragments(prover, model, report.findings);
    proveDescriptorReads(prover, model, report.findings);
    proveConversions(model, report.findings);
    proveCoverage(prover, model, report.findings);
    proveBounds(prover, model, report.findings);
    proveSync(prover, model, report.findings);
    if (llvm::any_of(
            llvm::drop_begin(report.findings, first),
            [](const Finding &f) { return f.verdict == Verdict::Refuted; }))
      report.refutedPrograms.push_back(model.name);
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return report;
}
