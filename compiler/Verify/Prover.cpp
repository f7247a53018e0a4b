//===- Prover.cpp - Invariants proved by Z3, with counterexamples ---------===//
#include "compiler/Verify/Prover.h"

#include "runtime/Hash.h"
#include "runtime/KernelCache.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"

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
/// NAUTILUS_PROOF_CACHE=0 turns it off, as does `options.disk`.
std::optional<rt::KernelCache> diskCache(const ProofCacheOptions &options) {
  const char *off = std::getenv("NAUTILUS_PROOF_CACHE");
  if (!options.disk || (off && std::string(off) == "0"))
    return std::nullopt;
  std::string dir = options.directory.empty() ? rt::defaultCacheDirectory()
                                              : options.directory;
  if (dir.empty())
    return std::nullopt;
  return rt::KernelCache(dir + "/proofs");
}

std::optional<CachedAnswer> loadAnswer(const std::string &key,
                                       const ProofCacheOptions &options) {
  std::optional<rt::KernelCache> cache = diskCache(options);
  if (!cache)
    return std::nullopt;
  std::optional<std::string> entry = cache->load(rt::fnv1a64(key));
  if (!entry)
    return std::nullopt;
  size_t first = entry->find('\n');
  size_t second =
      first == std::string::npos ? first : entry->find('\n', first + 1);
  if (second == std::string::npos ||
      entry->compare(second + 1, std::string::npos, key))
    return std::nullopt;
  std::string verdict = entry->substr(0, first);
  if (verdict != "proved" && verdict != "refuted")
    return std::nullopt;
  return CachedAnswer{verdict == "proved" ? Verdict::Proved : Verdict::Refuted,
                      entry->substr(first + 1, second - first - 1)};
}

void storeAnswer(const std::string &key, const CachedAnswer &answer,
                 const ProofCacheOptions &options) {
  if (std::optional<rt::KernelCache> cache = diskCache(options))
    (void)cache->store(
        rt::fnv1a64(key),
        std::string(answer.verdict == Verdict::Proved ? "proved" : "refuted") +
            "\n" + answer.detail + "\n" + key);
}

} // namespace

/// A function symbol with its indices ((_ extract 3 3) and (_ extract 2 2)
/// print alike as declarations) and its sorts.
static std::string symbolText(const z3::func_decl &decl) {
  std::string text = decl.to_string();
  z3::context &ctx = decl.ctx();
  for (unsigned i = 0, n = Z3_get_decl_num_parameters(ctx, decl); i < n; ++i) {
    text += i ? " " : " [";
    switch (Z3_get_decl_parameter_kind(ctx, decl, i)) {
    case Z3_PARAMETER_INT:
      text += std::to_string(Z3_get_decl_int_parameter(ctx, decl, i));
      break;
    case Z3_PARAMETER_DOUBLE:
      text += std::to_string(Z3_get_decl_double_parameter(ctx, decl, i));
      break;
    case Z3_PARAMETER_RATIONAL:
      text += Z3_get_decl_rational_parameter(ctx, decl, i);
      break;
    case Z3_PARAMETER_SYMBOL:
      text += z3::symbol(ctx, Z3_get_decl_symbol_parameter(ctx, decl, i)).str();
      break;
    case Z3_PARAMETER_SORT:
      text +=
          z3::sort(ctx, Z3_get_decl_sort_parameter(ctx, decl, i)).to_string();
      break;
    case Z3_PARAMETER_AST:
      text +=
          z3::expr(ctx, Z3_get_decl_ast_parameter(ctx, decl, i)).to_string();
      break;
    case Z3_PARAMETER_FUNC_DECL:
      text += z3::func_decl(ctx, Z3_get_decl_func_decl_parameter(ctx, decl, i))
                  .to_string();
      break;
    default:
      text += "?";
    }
    if (i + 1 == n)
      text += "]";
  }
  return text;
}

/// Builds a query's text from its structure, not from Z3's term ids (which
/// depend on what the process built before): each distinct node once,
/// numbered in the order a depth-first walk first meets it, as its function
/// symbol (with its indices and sorts) or numeral, and its arguments'
/// numbers. Two formulas get the same text only if they are the same
/// formula. Z3's printer is slow (tens of microseconds a call), so each
/// symbol and sort of a context is printed once (`printed`, the Prover's).
class StructureText {
public:
  explicit StructureText(PrintedNames &printed) : printed(printed) {}

  /// Appends `e` (and what it reads) to `out`; returns its number.
  unsigned append(const z3::expr &e, std::string &out) {
    if (auto it = numbers.find(e.id()); it != numbers.end())
      return it->second;
    std::string line;
    if (e.is_app()) {
      for (unsigned i = 0; i < e.num_args(); ++i)
        line += " " + std::to_string(append(e.arg(i), out));
      line = (e.is_numeral() ? numeralText(e) : symbol(e.decl())) + line;
    } else {
      line = e.to_string(); // a quantifier or bound variable: not made today
    }
    unsigned number = numbers.size();
    numbers[e.id()] = number;
    out += std::to_string(number) + " = " + line + "\n";
    return number;
  }

private:
  std::string numeralText(const z3::expr &e) {
    z3::sort sort = e.get_sort();
    auto [it, inserted] =
        printed.sorts.try_emplace(Z3_get_sort_id(sort.ctx(), sort));
    if (inserted) {
      it->second = sort.to_string();
      printed.held.push_back(sort);
    }
    return std::string(Z3_get_numeral_string(e.ctx(), e)) + " : " + it->second;
  }

  const std::string &symbol(const z3::func_decl &decl) {
    auto [it, inserted] = printed.symbols.try_emplace(decl.id());
    if (inserted) {
      it->second = symbolText(decl);
      printed.held.push_back(decl);
    }
    return it->second;
  }

  llvm::DenseMap<unsigned, unsigned> numbers;
  PrintedNames &printed;
};

/// The cache's key of a query: the invariant (two invariants may pose the
/// same formula and describe its models differently), then the formula's
/// structure. Made without a solver: creating one costs more (2.5 ms)
/// than answering from the cache.
static std::string queryKey(const std::string &invariant,
                            const z3::expr &violation, PrintedNames &printed) {
  std::string key = invariant + "\n";
  StructureText(printed).append(violation, key);
  return key;
}

Prover::Prover(unsigned timeoutMs, ProofCacheOptions cache)
    : timeoutMs(timeoutMs), cache(std::move(cache)) {}

Finding
Prover::prove(std::string invariant, std::string subject,
              const z3::expr &violation,
              const std::function<std::string(const z3::model &)> &describe,
              std::optional<z3::expr> preferred) {
  auto start = std::chrono::steady_clock::now();
  Finding finding;
  finding.invariant = std::move(invariant);
  finding.subject = std::move(subject);
  std::string key = queryKey(finding.invariant, violation, printedNames);
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = cache.memory ? answers().find(key) : answers().end();
    std::optional<CachedAnswer> found;
    if (it != answers().end())
      found = it->second;
    else if ((found = loadAnswer(key, cache)) && cache.memory)
      answers()[key] = *found;
    // (A refutation is solved again: its counterexample's text names the
    // subject's buffers, which another subject posing the same formula
    // names differently.)
    if (found && found->verdict != Verdict::Refuted) {
      finding.verdict = found->verdict;
      finding.detail = found->detail;
      finding.cached = true;
      finding.seconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count();
      return finding;
    }
  }
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", timeoutMs);
  solver.set(params);
  solver.add(violation);
  switch (solver.check()) {
  case z3::unsat:
    finding.verdict = Verdict::Proved;
    break;
  case z3::sat: {
    finding.verdict = Verdict::Refuted;
    z3::model model = solver.get_model();
    if (preferred) {
      // A fresh solver: Z3's incremental one, after the first check, is
      // far slower on bit-vectors than a new query.
      z3::solver readable(ctx);
      readable.set(params);
      readable.add(violation && *preferred);
      if (readable.check() == z3::sat)
        model = readable.get_model();
    }
    finding.detail = describe(model);
    break;
  }
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
    storeAnswer(key, answer, cache);
    if (cache.memory) {
      std::lock_guard<std::mutex> lock(cacheMutex);
      answers()[key] = answer;
    }
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
