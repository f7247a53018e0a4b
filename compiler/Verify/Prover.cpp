//===- Prover.cpp - Invariants proved by Z3, with counterexamples ---------===//
#include "compiler/Verify/Prover.h"

#include "runtime/Hash.h"
#include "runtime/KernelCache.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>

using namespace nautilus;
using namespace nautilus::verify;

namespace {

/// What a query answered: its verdict and counterexample. Shared by every
/// Prover of the process (the JIT compiles many kernels in one).
struct CachedAnswer {
  Verdict verdict;
  std::string detail;
};

std::mutex cacheMutex;
llvm::StringMap<CachedAnswer> &answers() {
  static llvm::StringMap<CachedAnswer> cache;
  return cache;
}

/// The proofs on disk, beside the compiled kernels: an entry holds the
/// verdict, then the counterexample's line, then the whole query (compared
/// on load, so a colliding hash is a miss, not a wrong answer).
/// NAUTILUS_PROOF_CACHE=0 turns it off.
std::optional<rt::KernelCache> diskCache() {
  const char *off = std::getenv("NAUTILUS_PROOF_CACHE");
  if (off && std::string(off) == "0")
    return std::nullopt;
  std::string dir = rt::defaultCacheDirectory();
  if (dir.empty())
    return std::nullopt;
  return rt::KernelCache(dir + "/proofs");
}

std::optional<CachedAnswer> loadAnswer(const std::string &key) {
  std::optional<rt::KernelCache> cache = diskCache();
  if (!cache)
    return std::nullopt;
  std::optional<std::string> entry = cache->load(rt::fnv1a64(key));
  if (!entry)
    return std::nullopt;
  size_t first = entry->find('\n');
  size_t second =
      first == std::string::npos ? first : entry->find('\n', first + 1);
  if (second == std::string::npos || entry->compare(second + 1,
                                                    std::string::npos, key))
    return std::nullopt;
  std::string verdict = entry->substr(0, first);
  if (verdict != "proved" && verdict != "refuted")
    return std::nullopt;
  return CachedAnswer{verdict == "proved" ? Verdict::Proved : Verdict::Refuted,
                      entry->substr(first + 1, second - first - 1)};
}

void storeAnswer(const std::string &key, const CachedAnswer &answer) {
  if (std::optional<rt::KernelCache> cache = diskCache())
    (void)cache->store(rt::fnv1a64(key),
                       std::string(answer.verdict == Verdict::Proved
                                       ? "proved"
                                       : "refuted") +
                           "\n" + answer.detail + "\n" + key);
}

} // namespace

/// `smt2` with the let-bound names Z3 makes from its terms' ids ($x1121,
/// ?x87) renumbered in order of appearance: the ids depend on what the
/// process built before, the renumbered text only on the query.
static std::string canonicalQuery(const std::string &smt2) {
  std::string out;
  llvm::StringMap<unsigned> names;
  for (size_t i = 0; i < smt2.size();) {
    char c = smt2[i];
    size_t j = i + 1;
    if ((c == '$' || c == '?') && j < smt2.size() && std::isalpha(smt2[j])) {
      while (j < smt2.size() && std::isalpha(smt2[j]))
        ++j;
      size_t digits = j;
      while (j < smt2.size() && std::isdigit(smt2[j]))
        ++j;
      if (j > digits) {
        std::string name = smt2.substr(i, j - i);
        unsigned n = names.try_emplace(name, names.size()).first->second;
        out += smt2.substr(i, digits - i) + std::to_string(n);
        i = j;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

Prover::Prover(unsigned timeoutMs) : timeoutMs(timeoutMs) {}

Finding
Prover::prove(std::string invariant, std::string subject,
              const z3::expr &violation,
              const std::function<std::string(const z3::model &)> &describe) {
  auto start = std::chrono::steady_clock::now();
  Finding finding;
  finding.invariant = std::move(invariant);
  finding.subject = std::move(subject);
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", timeoutMs);
  solver.set(params);
  solver.add(violation);
  // The query's text names the invariant too: two invariants may pose the
  // same formula and describe its models differently.
  std::string key = finding.invariant + "\n" + canonicalQuery(solver.to_smt2());
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = answers().find(key);
    std::optional<CachedAnswer> found;
    if (it != answers().end())
      found = it->second;
    else if ((found = loadAnswer(key)))
      answers()[key] = *found;
    if (found) {
      finding.verdict = found->verdict;
      finding.detail = found->detail;
      finding.cached = true;
      finding.seconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count();
      return finding;
    }
  }
  switch (solver.check()) {
  case z3::unsat:
    finding.verdict = Verdict::Proved;
    break;
  case z3::sat:
    finding.verdict = Verdict::Refuted;
    finding.detail = describe(solver.get_model());
    break;
  case z3::unknown:
    finding.verdict = Verdict::Unknown;
    finding.detail = "Z3 gave no answer (" + solver.reason_unknown() + ")";
    break;
  }
  finding.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (finding.verdict != Verdict::Unknown) {
    CachedAnswer answer{finding.verdict, finding.detail};
    storeAnswer(key, answer);
    std::lock_guard<std::mutex> lock(cacheMutex);
    answers()[key] = answer;
  }
  return finding;
}

uint64_t verify::valueOf(const z3::model &model, const z3::expr &e) {
  z3::expr v = model.eval(e, /*model_completion=*/true);
  uint64_t out = 0;
  if (v.is_numeral_u64(out))
    return out;
  return 0;
}
