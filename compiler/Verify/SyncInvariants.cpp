//===- SyncInvariants.cpp - Stages handed over in order -------------------===//
//
// The main loop's protocol (tile::PipelineProtocol), for every count of K
// steps n (1 .. kMaxCount = 2^31 - 1) and every step:
//
// sync.copy-ring (one block barrier a step). Step kt waits until at most
//   `copyWaitPending` of the thread's copy groups are pending (the
//   prologue committed groups 0 .. prefetch - 1, step j commits group
//   prefetch + j), then synchronises the block, issues the copies of step
//   kt + prefetch into stage (kt + prefetch) % stages, and reads stage
//   kt % stages.
//   - read after write: at step kt the group of step kt is complete and
//     the barrier has published every thread's copies to the block;
//   - write after read: the copies issued at step kt overwrite a stage
//     whose readers w (w = kt + prefetch mod stages, w < kt + prefetch)
//     are all ordered before them: by the barrier of step kt, which
//     follows every read of steps before kt whose asynchronous readers
//     (wgmma groups left in flight) have completed.
// sync.producer-consumer (mbarriers, no block barrier). The producer
//   writes step w's stage after the consumers released step w - stages;
//   a consumer releases step j at step j + releaseLag, after waiting until
//   `wgmmaInFlight` groups are pending: the group of step j + lastReadLag
//   (the last to read step j's stage) must then be complete.
// sync.wgmma-epilogue. The accumulators are read after waiting until
//   `epilogueWait` groups are pending: the last step's group must be
//   complete.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify/Encoding.h"
#include "compiler/Verify/Invariants.h"

using namespace nautilus;
using namespace nautilus::verify;

namespace {

/// Step arithmetic is 40 bits wide: up to kMaxCount steps, plus a few, and
/// whole rings of stages back, without wrapping.
constexpr unsigned kStepWidth = 40;

z3::expr stepConstant(z3::context &ctx, int64_t value) {
  return constant(ctx, value, kStepWidth);
}
z3::expr stepVariable(z3::context &ctx, const std::string &name) {
  return variable(ctx, name, kStepWidth);
}

std::string protocolName(const ProgramModel &model,
                         const tile::PipelineProtocol &p) {
  return "@" + model.name + ": the main loop (" + std::to_string(p.stages) +
         " stages, copies " + std::to_string(p.prefetch) + " steps ahead)";
}

void proveCopyRing(Prover &prover, const ProgramModel &model,
                   const tile::PipelineProtocol &p, bool asyncReads,
                   std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  z3::expr n = stepVariable(ctx, "steps"), kt = stepVariable(ctx, "step");
  z3::expr w = stepVariable(ctx, "reader step");
  z3::expr stages = stepConstant(ctx, p.stages),
           ahead = stepConstant(ctx, p.prefetch);
  z3::expr valid = z3::uge(n, stepConstant(ctx, 1)) &&
                   z3::ule(n, stepConstant(ctx, kMaxCount)) && z3::ult(kt, n);
  // Read after write: committed groups before step kt's wait, and how many
  // of them are complete after it.
  z3::expr committed = ahead + kt;
  z3::expr complete = z3::ite(
      z3::uge(committed, stepConstant(ctx, p.copyWaitPending)),
      committed - stepConstant(ctx, p.copyWaitPending), stepConstant(ctx, 0));
  z3::expr unfinished = !z3::ult(kt, complete);
  z3::expr unpublished = ctx.bool_val(!p.barrierBeforeIssue);
  // Write after read: the copies issued at step kt (when kt + prefetch < n)
  // against the reads of step w of the same stage.
  z3::expr target = kt + ahead;
  int64_t lag = asyncReads ? p.wgmmaInFlight : 0;
  z3::expr ordered = ctx.bool_val(p.barrierBeforeIssue) &&
                     z3::ule(w + stepConstant(ctx, lag + 1), kt);
  // Step w uses the same stage: it lies a whole number of rings back.
  z3::expr rings = stepVariable(ctx, "rings back");
  z3::expr overwrite = z3::ult(target, n) && z3::ult(w, target) &&
                       z3::ule(rings, n) && target - w == rings * stages &&
                       !ordered;
  std::string subject = protocolName(model, p);
  findings.push_back(prover.prove(
      "sync.copy-ring", subject,
      valid && (unfinished || unpublished || overwrite),
      [&](const z3::model &m) {
        std::string at = describeValues(m, {{"steps", n}, {"step", kt}});
        if (m.eval(unfinished, true).is_true())
          return at + ": the step reads stage " +
                 std::to_string(valueOf(m, kt) % p.stages) +
                 " while its copies may be pending (" +
                 std::to_string(valueOf(m, committed)) +
                 " groups committed, the wait leaves " +
                 std::to_string(p.copyWaitPending) + " pending)";
        if (m.eval(overwrite, true).is_true())
          return at + ": the copies of step " +
                 std::to_string(valueOf(m, target)) + " overwrite stage " +
                 std::to_string(valueOf(m, target) % p.stages) +
                 " while step " + std::to_string(valueOf(m, w)) +
                 " may still read it (no barrier orders those reads first)";
        return at + ": no barrier publishes the copies of other threads "
                    "before the stage is read";
      },
      fitsBelow(n, kReadableCount)));
}

void proveProducerConsumer(Prover &prover, const ProgramModel &model,
                           const tile::PipelineProtocol &p,
                           std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  z3::expr j = stepVariable(ctx, "released step");
  // Groups issued by the release at step j + lag: j + lag + 1; complete
  // after the wait: all but the last wgmmaInFlight.
  z3::expr issued = j + stepConstant(ctx, p.releaseLag + 1);
  z3::expr complete = issued - stepConstant(ctx, p.wgmmaInFlight);
  z3::expr lastReader = j + stepConstant(ctx, p.lastReadLag);
  z3::expr early = z3::ule(j, stepConstant(ctx, kMaxCount)) &&
                   z3::uge(issued, stepConstant(ctx, p.wgmmaInFlight)) &&
                   !z3::ult(lastReader, complete);
  findings.push_back(prover.prove(
      "sync.producer-consumer", protocolName(model, p), early,
      [&](const z3::model &m) {
        return "step " + std::to_string(valueOf(m, j)) +
               "'s stage is released while the wgmma group of step " +
               std::to_string(valueOf(m, j) + p.lastReadLag) +
               " may still read it (" + std::to_string(p.wgmmaInFlight) +
               " groups left in flight, released " +
               std::to_string(p.releaseLag) + " steps later)";
      },
      fitsBelow(j, kReadableCount)));
}

void proveEpilogue(Prover &prover, const ProgramModel &model,
                   const tile::PipelineProtocol &p,
                   std::vector<Finding> &findings) {
  z3::context &ctx = prover.context();
  z3::expr n = stepVariable(ctx, "steps");
  // Groups 0 .. n - 1 issued; complete after the wait: all but the last
  // epilogueWait. The last one's (n - 1) must be.
  z3::expr complete = n - stepConstant(ctx, p.epilogueWait);
  z3::expr early = z3::uge(n, stepConstant(ctx, 1)) &&
                   z3::ule(n, stepConstant(ctx, kMaxCount)) &&
                   !z3::ult(n - stepConstant(ctx, 1), complete);
  findings.push_back(prover.prove(
      "sync.wgmma-epilogue", "@" + model.name + ": the accumulators' reads",
      early,
      [&](const z3::model &m) {
        return "with " + std::to_string(valueOf(m, n)) +
               " steps the epilogue reads the accumulators while " +
               std::to_string(p.epilogueWait) +
               " wgmma group(s) may still write them";
      },
      fitsBelow(n, kReadableCount)));
}

} // namespace

void verify::proveSync(Prover &prover, const ProgramModel &model,
                       std::vector<Finding> &findings) {
  if (!model.pipeline)
    return;
  const tile::PipelineProtocol &p = *model.pipeline;
  if (p.kind == tile::PipelineProtocol::Kind::CopyRing)
    proveCopyRing(prover, model, p, model.wgmma, findings);
  else
    proveProducerConsumer(prover, model, p, findings);
  if (model.wgmma)
    proveEpilogue(prover, model, p, findings);
}
