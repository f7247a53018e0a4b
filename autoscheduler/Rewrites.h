//===- Rewrites.h - The alg rewrites a search chooses -----------*- C++ -*-===//
//
// The rewrite choices of the search space: which alg rewrites shape a
// kernel's programs before any program is scheduled. Each choice gives the
// kernel another structure (other programs), which the tuner measures and
// the CPU model compares by the sum of its programs' predicted times.
//
//   - fuseReductions: alg-fuse-reductions streams chains of reductions over
//     one index (softmax's max and sum in one pass, attention's online
//     softmax); off, each reduction is a program of its own.
//   - recomputeInStreams: a reduction that streams read only point by
//     point (attention's S) is recomputed where they read it; off, it is a
//     program of its own whose result the streams read from memory.
//   - fuseSharedOperands: alg-fuse-shared-operands computes contractions
//     that share an operand (a gated MLP's X Wg and X Wu) in the
//     element-wise definition that reads them, in one pass over the
//     shared operand; off, each is a program of its own, stored.
//   - sweepRowConsumers: tile-sweep-row-consumers writes an element-wise
//     definition that reads a program's row results (softmax's Y, a
//     norm's) in that program, its threads sweeping the rows they
//     reduced (one program, the row results in registers); off, the
//     definition is a program of its own that reads them from memory.
//   - recomputeOperands: alg-fuse-elementwise recomputes an element-wise
//     definition where a reduction reads it, even where the reduction
//     reads each element again for several of its points (a contraction's
//     computed operand: an MLP's silu(G) * U once for each tile of the
//     down projection's columns); off, such a definition is a program of
//     its own, stored once, and the reduction reads it from memory.
//
// A schedule file states a choice other than the default as
// "fuse_reductions": false, "recompute_in_streams": false,
// "fuse_shared_operands": false, "sweep_row_consumers": false and
// "recompute_operands": false (the keys below).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_REWRITES_H
#define NAUTILUS_AUTOSCHEDULER_REWRITES_H

#include <string>
#include <vector>

namespace nautilus::autosched {

/// A schedule file's keys for the rewrite choices.
constexpr const char *kFuseReductionsKey = "fuse_reductions";
constexpr const char *kRecomputeInStreamsKey = "recompute_in_streams";
constexpr const char *kFuseSharedOperandsKey = "fuse_shared_operands";
constexpr const char *kSweepRowConsumersKey = "sweep_row_consumers";
constexpr const char *kRecomputeOperandsKey = "recompute_operands";

struct RewriteChoice {
  bool fuseReductions = true;
  bool recomputeInStreams = true;
  bool fuseSharedOperands = true;
  bool sweepRowConsumers = true;
  bool recomputeOperands = true;

  bool isDefault() const {
    return fuseReductions && recomputeInStreams && fuseSharedOperands &&
           sweepRowConsumers && recomputeOperands;
  }
  bool operator==(const RewriteChoice &o) const {
    return fuseReductions == o.fuseReductions &&
           recomputeInStreams == o.recomputeInStreams &&
           fuseSharedOperands == o.fuseSharedOperands &&
           sweepRowConsumers == o.sweepRowConsumers &&
           recomputeOperands == o.recomputeOperands;
  }
  bool operator!=(const RewriteChoice &o) const { return !(*this == o); }
  /// "reductions fused", "reductions fused, their reads stored",
  /// "reductions not fused", each followed by ", shared operands apart"
  /// where contractions sharing an operand are not fused, ", row
  /// consumers apart" where row consumers are not swept and ", operands
  /// stored" where reductions' reused operands are stored.
  std::string describe() const {
    std::string text = !fuseReductions      ? "reductions not fused"
                       : recomputeInStreams ? "reductions fused"
                                            : "reductions fused, their reads "
                                              "stored";
    if (!fuseSharedOperands)
      text += ", shared operands apart";
    if (!sweepRowConsumers)
      text += ", row consumers apart";
    return recomputeOperands ? text : text + ", operands stored";
  }
};

/// Every choice of the reductions' structure (reductions fused, their
/// reads, shared operands, row consumers), the default first, then, where
/// `storedOperands`, each again with reused operands stored. (Without
/// fusion nothing streams, so recomputeInStreams has no effect there: one
/// choice stands for both.)
inline std::vector<RewriteChoice> rewriteChoices(bool reductions = true,
                                                 bool storedOperands = true) {
  std::vector<RewriteChoice> choices{RewriteChoice{}};
  if (reductions) {
    choices.clear();
    for (bool sweep : {true, false})
      for (bool shared : {true, false})
        for (auto [fuse, recompute] :
             {std::pair{true, true}, std::pair{true, false},
              std::pair{false, true}})
          choices.push_back(
              RewriteChoice{fuse, recompute, shared, sweep, true});
  }
  if (storedOperands)
    for (size_t i = 0, e = choices.size(); i < e; ++i) {
      RewriteChoice stored = choices[i];
      stored.recomputeOperands = false;
      choices.push_back(stored);
    }
  return choices;
}

} // namespace nautilus::autosched

#endif
