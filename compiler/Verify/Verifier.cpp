//===- Verifier.cpp - Prove a tile module's kernels correct ---------------===//
#include "compiler/Verify/Verifier.h"

#include "compiler/Verify/Invariants.h"
#include "compiler/Verify/KernelModel.h"

#include "llvm/Support/Format.h"

#include <chrono>
#include <map>
#include <mutex>

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

namespace {

/// Everything a model's findings depend on, as text.
std::string fingerprint(const ProgramModel &m) {
  std::string out = m.name + "|" + m.targetName + "|";
  for (const DistributedLayout &d : m.layouts)
    out += d.what + ":" + d.layout.str() + "|";
  if (m.blocked) {
    for (int64_t e : m.blocked->shape)
      out += std::to_string(e) + ",";
    out += "/" + std::to_string(m.blocked->holders) + "/" +
           std::to_string(m.blocked->perHolder) + "/" +
           std::to_string(m.blocked->run) + "|";
  }
  auto swizzle = [](const layout::SharedSwizzle &s) {
    return std::to_string(s.perPhase) + "." + std::to_string(s.maxPhase);
  };
  for (const StageLayout &s : m.stages)
    out += s.operand + ":" + std::to_string(s.rows) + "," +
           std::to_string(s.rowBytes) + "," + std::to_string(s.elementBytes) +
           "," + swizzle(s.swizzle) + "," + std::to_string(s.offset) + "," +
           std::to_string(s.bytes) + "," + std::to_string(s.count) + "," +
           std::to_string(s.stride) + "," +
           std::to_string(s.ldmatrixClaimsNoConflicts) +
           std::to_string(s.copiedByThreads) + "|";
  out += "shared " + std::to_string(m.sharedBytes) + "|";
  for (const FragmentLoad &f : m.fragments)
    out += std::to_string(f.isLhs) + std::to_string(f.kInnermost) +
           std::to_string(f.twoMatrices) + f.matrices.str() + swizzle(f.writer) +
           swizzle(f.reader) + std::to_string(f.rowBytes) + "|";
  if (m.grid) {
    for (size_t d = 0; d < m.grid->tile.size(); ++d)
      out += m.grid->extentNames[d] + "=" +
             (m.grid->extents[d] ? std::to_string(*m.grid->extents[d]) : "?") +
             "/" + std::to_string(m.grid->tile[d]) + ",";
    out += std::to_string(m.grid->groupM) + std::to_string(m.grid->persistent) +
           std::to_string(m.grid->maskSlack) +
           std::to_string(m.grid->originOverlap) +
           std::to_string(m.grid->strideSlack) + "|";
  }
  if (m.split)
    out += m.split->extentName + "=" +
           (m.split->extent ? std::to_string(*m.split->extent) : "?") + "/" +
           std::to_string(m.split->chunk) + "/" +
           std::to_string(m.split->splits) + "/" +
           std::to_string(m.split->combined) + "|";
  if (const auto &p = m.pipeline)
    out += std::to_string(int(p->kind)) + "," + std::to_string(p->stages) +
           "," + std::to_string(p->prefetch) + "," +
           std::to_string(p->copyWaitPending) + "," +
           std::to_string(p->barrierBeforeIssue) + "," +
           std::to_string(p->wgmmaInFlight) + "," +
           std::to_string(p->releaseLag) + "," +
           std::to_string(p->epilogueWait);
  return out;
}

/// The findings of the models verified in this process, by fingerprint: a
/// program compiled again (the JIT with its kernel caches off, a second
/// kernel with the same program) skips even building its queries.
std::mutex modelsMutex;
std::map<std::string, std::vector<Finding>> &provedModels() {
  static std::map<std::string, std::vector<Finding>> cache;
  return cache;
}

void proveModel(Prover &prover, const ProgramModel &model,
                std::vector<Finding> &findings) {
  std::string key = fingerprint(model);
  {
    std::lock_guard<std::mutex> lock(modelsMutex);
    auto it = provedModels().find(key);
    if (it != provedModels().end()) {
      for (Finding f : it->second) {
        f.cached = true;
        f.seconds = 0;
        findings.push_back(std::move(f));
      }
      return;
    }
  }
  size_t first = findings.size();
  proveLayouts(prover, model, findings);
  proveStages(prover, model, findings);
  proveFragments(prover, model, findings);
  proveCoverage(prover, model, findings);
  proveSync(prover, model, findings);
  std::vector<Finding> made(findings.begin() + first, findings.end());
  for (const Finding &f : made)
    if (f.verdict == Verdict::Unknown)
      return; // a timeout may not recur: ask again next time
  std::lock_guard<std::mutex> lock(modelsMutex);
  provedModels()[key] = std::move(made);
}

} // namespace

VerificationReport verify::verifyModule(ModuleOp module, StringRef mutation) {
  auto start = std::chrono::steady_clock::now();
  VerificationReport report;
  std::vector<ProgramModel> models = buildKernelModels(module);
  if (!mutation.empty()) {
    report.mutation = mutation.str();
    report.mutationApplied = applyMutation(mutation, models);
  }
  Prover prover;
  for (const ProgramModel &model : models)
    proveModel(prover, model, report.findings);
  report.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  return report;
}
