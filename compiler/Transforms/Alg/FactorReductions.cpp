//===- FactorReductions.cpp - Constant factors out of reductions ----------===//
//
// The factors of a reduction's term that are the same at every reduced
// index move into its epilogue (Factoring.h): softmax's division by the
// denominator, once inlined into a weighted sum, divides the sum once
// instead of every term, so that `O = sum[m](P * V)` with
// `P = exp(S - Mx) / L` becomes `sum[m](exp(S - Mx) * V) / L` and streams
// with its max and its denominator (alg-fuse-reductions).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/Alg/Factoring.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/SinkScales.h"

#include "llvm/ADT/StringExtras.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGFACTORREDUCTIONS
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {

/// Whether `def` must keep its factors: a max or min that a stream could
/// follow, whose reads would not take them on (alg-sink-scales), would
/// be left with an epilogue, which a stream's leader cannot have.
bool keepsFactorsToLead(alg::DefineOp def, std::string &why) {
  if (!def.isReduction() || *def.getKind() == alg::ReductionKind::sum ||
      *def.getKind() == alg::ReductionKind::prod)
    return false;
  alg::DefineOp follower = streamFollowerOf(def);
  std::string reason;
  if (!follower || factorInvariants(def, /*apply=*/false).moved.empty() ||
      readsTakeScale(def, reason))
    return false;
  why = "in its epilogue they would stop it leading a stream of '" +
        follower.getName().str() + "' (" + reason + ")";
  return true;
}

struct AlgFactorReductionsPass
    : public nautilus::impl::AlgFactorReductionsBase<AlgFactorReductionsPass> {
  using AlgFactorReductionsBase::AlgFactorReductionsBase;

  void runOnOperation() override {
    for (alg::DefineOp def : getOperation().getBody().getOps<alg::DefineOp>()) {
      std::string why;
      if (keepsFactorsToLead(def, why)) {
        if (explain)
          def.emitRemark() << "'" << def.getName()
                           << "' keeps the factors of its term: " << why;
        continue;
      }
      Factored factored = factorInvariants(def);
      if (!explain)
        continue;
      std::string over = alg::stringifyReductionKind(
                             def.getKind().value_or(alg::ReductionKind::sum))
                             .str();
      if (!factored.moved.empty())
        def.emitRemark() << "'" << def.getName() << "': factors constant "
                         << "along the reduced index move out of the " << over
                         << " into its epilogue: "
                         << llvm::join(factored.moved, " ");
      if (factored.kept.empty())
        continue;
      InFlightDiagnostic remark = def.emitRemark();
      remark << "'" << def.getName() << "' keeps "
             << llvm::join(factored.kept, ", ") << " in its term: ";
      if (over == "sum")
        remark << "inside a choice only a factor known to be positive and "
                  "finite moves (an infinite one times 0 is not 0)";
      else
        remark << "a " << over << " commutes only with a factor known to "
               << "be positive and finite";
    }
  }
};

} // namespace
