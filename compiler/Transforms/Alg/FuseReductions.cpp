//===- FuseReductions.cpp - Stream chains of reductions in one pass -------===//
//
// A sum C over index k that reads a max (or min) R over the same k through
// a repairable term (Repair.h) becomes one alg.online_reduce with R as its
// leader; the sums C's epilogue reads that follow the same leaders join it
// (softmax's denominator beside attention's numerator). Reductions the
// stream's body reads point by point (attention's S) are then recomputed
// there as nested alg.reduce, so that nothing of the stream's full domain
// is stored. Leaders and sums that later definitions read, and
// element-wise definitions of them alone (a log-sum-exp beside attention's
// O), are stored by the stream beside its result (`exports`, over a
// projection of its domain). Each fusion, and each refusal with its
// reason, is a remark.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/SchedulingPass.h"
#include "compiler/Transforms/Alg/Algebra.h"
#include "compiler/Transforms/Alg/Inlining.h"
#include "compiler/Transforms/Alg/Passes.h"
#include "compiler/Transforms/Alg/ReductionChain.h"
#include "dialects/Tile/Utils/ContractionStream.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace nautilus {
#define GEN_PASS_DEF_ALGFUSEREDUCTIONS
#include "compiler/Transforms/Alg/Passes.h.inc"
} // namespace nautilus

using namespace mlir;
using namespace nautilus;

namespace {
//===----------------------------------------------------------------------===//
// Recomputing what a stream reads point by point
//===----------------------------------------------------------------------===//

/// Replaces `load` (in a stream's body, of the reduction `def`) by a
/// nested alg.reduce computing the element, and `def`'s epilogue.
void recomputeAt(alg::DefineOp def, alg::LoadOp load) {
  OpBuilder builder(load);
  MLIRContext *ctx = def.getContext();
  Location loc = load.getLoc();
  AffineMap map = load.getMap();
  unsigned domain = map.getNumDims(), reduced = def.getNumReduced();
  auto reduce = alg::ReduceOp::create(builder, loc, def.getBodyType(),
                                      *def.getKind(), def.getReduceDimsAttr());
  Block *body = builder.createBlock(&reduce.getBody());
  for (unsigned i = 0; i < domain + reduced; ++i)
    body->addArgument(builder.getIndexType(), loc);
  SmallVector<AffineExpr> at(widenMap(map, domain + reduced).getResults());
  for (unsigned i = 0; i < reduced; ++i)
    at.push_back(getAffineDimExpr(domain + i, ctx));
  IRMapping mapping;
  Value term = inlineBlock(builder, def.getBody().front(),
                           AffineMap::get(domain + reduced,
                                          map.getNumSymbols(), at, ctx),
                           mapping)
                   ->front();
  alg::YieldOp::create(builder, loc, term);
  builder.setInsertionPointAfter(reduce);
  Value value = reduce.getResult();
  if (!def.getEpilogue().empty()) {
    Block &epilogue = def.getEpilogue().front();
    IRMapping inner;
    inner.map(epilogue.getArgument(def.getRank()), value);
    value = inlineBlock(builder, epilogue, map, inner)->front();
  }
  load.getResult().replaceAllUsesWith(value);
  load.erase();
}

/// Whether every read of `def` is a load in the body of a stream.
bool readOnlyByStreams(alg::DefineOp def) {
  return llvm::all_of(def->getUsers(), [](Operation *user) {
    auto load = dyn_cast<alg::LoadOp>(user);
    return load && load.getIndirect().empty() &&
           isa<alg::OnlineReduceOp>(load->getParentOp()) &&
           load->getParentRegion() ==
               &cast<alg::OnlineReduceOp>(load->getParentOp()).getBody();
  });
}

std::string names(const ReductionChain &chain) {
  std::string s;
  for (const ChainFollower &f : chain.followers)
    s += (s.empty() ? "'" : ", '") + f.def.getName().str() + "'" +
         (f.exported ? " (stored beside it)" : "");
  return s;
}

struct AlgFuseReductionsPass
    : public SchedulingPass<
          nautilus::impl::AlgFuseReductionsBase<AlgFuseReductionsPass>> {
  using SchedulingPass::SchedulingPass;

  void setExplain(bool value) { explain = value; }

  void runOnOperation() override {
    std::optional<TargetInfo> target = moduleTarget();
    if (!target)
      return;
    for (auto kernel :
         llvm::make_early_inc_range(getOperation().getOps<alg::KernelOp>())) {
      if (target->isCPU())
        fuse(kernel, *target, explain);
      else
        fuseWhereStreamsRun(kernel, *target);
    }
  }

  /// A GPU runs a stream as one flash kernel or as a row stream
  /// (gpuStreamRefusal says which streams it runs): the kernel's chains
  /// are fused on a copy first, and the fusion is kept only if the GPU
  /// runs every stream it made; otherwise the reductions stay separate
  /// programs, with the reason as a remark.
  void fuseWhereStreamsRun(alg::KernelOp kernel, const TargetInfo &target) {
    OpBuilder b(kernel);
    auto trial = cast<alg::KernelOp>(b.clone(*kernel));
    fuse(trial, target, /*explainNow=*/false);
    std::string refusal;
    alg::OnlineReduceOp refused;
    for (auto stream : trial.getBody().getOps<alg::OnlineReduceOp>()) {
      refusal = gpuStreamRefusal(stream, innermostExtent(kernel, stream),
                                 target.hasMmaSync());
      if (!refusal.empty()) {
        refused = stream;
        break;
      }
    }
    if (!refused) {
      trial.erase();
      fuse(kernel, target, explain);
      return;
    }
    if (explain)
      for (auto def : kernel.getBody().getOps<alg::DefineOp>()) {
        std::string why;
        if (def.getName() == refused.getName())
          def.emitRemark() << "'" << def.getName() << "' could stream, but "
                           << "not as a "
                           << (recomputesReduction(refused) ? "flash kernel"
                                                            : "row stream")
                           << " on " << target.name << ": " << refusal;
        else if (failed(analyseReductionChain(def, why)) && !why.empty())
          def.emitRemark() << "'" << def.getName()
                           << "' is not streamed: " << why;
      }
    trial.erase();
  }

  /// The bound extent of `stream`'s innermost output dimension.
  static std::optional<int64_t> innermostExtent(alg::KernelOp kernel,
                                                alg::OnlineReduceOp stream) {
    if (stream.getDims().empty())
      return std::nullopt;
    auto name = cast<StringAttr>(stream.getDims().getValue().back());
    if (DictionaryAttr bindings = kernel.getBindingsAttr())
      if (auto value = bindings.getAs<IntegerAttr>(name))
        return value.getInt();
    return std::nullopt;
  }

  /// Streams every chain of `kernel` that the provider lets fuse, with
  /// the remarks when `explainNow`.
  void fuse(alg::KernelOp kernel, const TargetInfo &target, bool explainNow) {
    alg::ReturnOp ret = kernel.getReturn();
    SmallVector<alg::DefineOp> defines(kernel.getBody().getOps<alg::DefineOp>());
    llvm::SmallPtrSet<Operation *, 8> erased;
    auto dropIfDead = [&](alg::DefineOp def) {
      if (def->use_empty() &&
          !llvm::is_contained(ret.getOutputs(), def.getResult()) &&
          erased.insert(def).second)
        def.erase();
    };
    // Last first: a consumer takes the sums its epilogue reads with it.
    for (alg::DefineOp consumer : llvm::reverse(defines)) {
      if (erased.contains(consumer))
        continue;
      std::string why;
      FailureOr<ReductionChain> chain = analyseReductionChain(consumer, why);
      if (failed(chain)) {
        if (!why.empty() && explainNow)
          consumer.emitRemark() << "'" << consumer.getName()
                                << "' is not streamed: " << why;
        continue;
      }
      // (A scalar's stream has no lowering: its tiles have no dimension.)
      if (consumer.getRank() == 0) {
        if (explainNow)
          consumer.emitRemark() << "'" << consumer.getName()
                                << "' is not streamed: its result is a "
                                   "scalar";
        continue;
      }
      std::string refusal;
      if (!schedules->fusesReductions(target, refusal)) {
        if (explainNow)
          consumer.emitRemark() << "'" << consumer.getName()
                                << "' could stream, but not on "
                                << target.name << ": " << refusal;
        continue;
      }
      alg::OnlineReduceOp stream = buildStream(*chain);
      if (explainNow) {
        InFlightDiagnostic remark = consumer.emitRemark();
        remark << "streamed " << names(*chain) << " over "
               << chain->consumer.getReduceDimsAttr()[0] << " with leader";
        for (const ChainLeader &l : chain->leaders)
          remark << " '" << l.def.getName() << "'"
                 << (l.mean ? " (a mean)" : "")
                 << (l.exported ? " (stored beside it)" : "");
        for (const ChainComputed &c : chain->computed)
          remark << "; computes '" << c.def.getName() << "' beside it";
        remark << "; repairs:";
        for (const ChainFollower &f : chain->followers) {
          remark << " '" << f.def.getName() << "'";
          if (chain->leaders.front().mean)
            remark << " " << describeMeanRepair(f.meanRepair);
          for (const Repair &r : f.repairs)
            remark << " " << describeRepair(r);
        }
      }
      consumer.getResult().replaceAllUsesWith(stream.getResult());
      erased.insert(consumer);
      consumer.erase();
      // The exports in order: leaders, followers, then computed values.
      // The computed go first: they read the others.
      auto exported = stream.getExported();
      unsigned e = exported.size() - chain->computed.size();
      for (const ChainComputed &c : chain->computed) {
        c.def.getResult().replaceAllUsesWith(exported[e++]);
        erased.insert(c.def);
        c.def.erase();
      }
      e = 0;
      for (const ChainLeader &l : chain->leaders)
        if (l.exported) {
          l.def.getResult().replaceAllUsesWith(exported[e++]);
          erased.insert(l.def);
          l.def.erase();
        }
      for (const ChainFollower &f : chain->followers)
        if (f.exported) {
          f.def.getResult().replaceAllUsesWith(exported[e++]);
          erased.insert(f.def);
          f.def.erase();
        } else if (f.def != chain->consumer) {
          dropIfDead(f.def);
        }
      for (const ChainLeader &l : chain->leaders)
        if (!l.exported)
          dropIfDead(l.def);
    }
    recomputeReadsOfStreams(kernel, ret, target, explainNow);
  }

  /// Reductions read only point by point by streams (attention's S) are
  /// recomputed there, and no longer stored, where the provider says so.
  void recomputeReadsOfStreams(alg::KernelOp kernel, alg::ReturnOp ret,
                               const TargetInfo &target, bool explainNow) {
    SmallVector<alg::DefineOp> defines(kernel.getBody().getOps<alg::DefineOp>());
    for (alg::DefineOp def : defines) {
      if (!def.isReduction() || def->use_empty() ||
          llvm::is_contained(ret.getOutputs(), def.getResult()) ||
          !readOnlyByStreams(def))
        continue;
      std::string why;
      if (!schedules->recomputesInStreams(target, why)) {
        if (explainNow)
          def.emitRemark() << "'" << def.getName() << "' stays stored: "
                           << why;
        continue;
      }
      for (alg::LoadOp load : mergeIdenticalReads(def.getResult()))
        recomputeAt(def, load);
      if (explainNow)
        def.emitRemark() << "'" << def.getName()
                         << "' is recomputed where the streams read it, "
                            "and not stored";
      def.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> nautilus::createAlgFuseReductions(
    std::shared_ptr<ScheduleProvider> schedules, bool explain) {
  auto pass = std::make_unique<AlgFuseReductionsPass>(std::move(schedules));
  pass->setExplain(explain);
  return pass;
}
