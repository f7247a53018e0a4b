//===- ContractionSamples.h - Contractions of unbound sizes --*- C++ -*-===//
//
// A GEMM compiled without its M or N (a bundle an application launches
// at every number of tokens) gets one schedule for every shape. The
// contraction model (CostModel.h) predicts a schedule at bound M and N,
// so such a contraction is viewed at sample shapes (SampleShapes.h): each
// unbound one of M and N at each of kUnboundSizeSamples, every
// combination (K, where unbound, as the model assumes it: kUnboundK).
// Every candidate of the space is predicted at every sample, and ranked
// by its regrets over them (the geometric mean, then the worst), then as
// the search orders equal predictions (the deeper pipeline, the larger
// tile, the first enumerated). The space does not depend on M and N but
// for the rasterisations that walk alike (ContractionSpace.cpp), so the
// candidates are the union of the samples' spaces.
// Where one schedule serves some shapes badly, the model may divide M or
// N into ranges, each with its own schedule, launched by the size
// (LaunchRanges.h; a decoding step's single row, a GEMM's few columns).
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_AUTOSCHEDULER_CONTRACTIONSAMPLES_H
#define NAUTILUS_AUTOSCHEDULER_CONTRACTIONSAMPLES_H

#include "autoscheduler/CostModel.h"
#include "autoscheduler/LaunchRanges.h"
#include "autoscheduler/SampleShapes.h"

#include <functional>
#include <optional>
#include <vector>

namespace nautilus::autosched {

/// `problem` at each sample shape of its unbound sizes: M (where
/// `mUnbound`) and N (where `nUnbound`), in that order, at each of
/// kUnboundSizeSamples, N varying fastest (the last sample the largest).
std::vector<ContractionProblem>
contractionSamples(ContractionProblem problem, bool mUnbound, bool nUnbound);

/// A candidate ranked over sample shapes.
struct SampledContraction {
  ContractionCandidate candidate;
  CostBreakdown atLargest; // its breakdown at the last (largest) sample
  SampleRegrets regrets;
};

/// Every candidate of the samples' spaces on `target`, ranked as above,
/// best first; at most `keep` (0: all). `bestUs`, when given, receives the
/// best candidate's time at each sample (what sampledContraction takes).
std::vector<SampledContraction>
rankContractionOverSamples(const std::vector<ContractionProblem> &samples,
                           const TargetInfo &target, size_t keep = 0,
                           std::vector<double> *bestUs = nullptr);

/// `candidate` over `samples`, `bestUs` the best time at each.
SampledContraction
sampledContraction(const std::vector<ContractionProblem> &samples,
                   const std::vector<double> &bestUs,
                   const ContractionCandidate &candidate,
                   const TargetInfo &target);

/// Which candidates a choice may take (the verifier refuted the others).
using ContractionFilter = std::function<bool(const ContractionCandidate &)>;

/// A division of a contraction's unbound M or N (or within its ranges,
/// of the other) into ranges launched by the size (LaunchRanges.h), and
/// the candidates its ranges name.
struct ContractionLaunchRanges {
  LaunchRanges division;
  std::vector<ContractionCandidate> candidates;
};

/// The best division of `problem`'s unbound M (where `mUnbound`) or N
/// (where `nUnbound`), in that order the unbound sizes, against `oneTile`
/// (the candidate ranked best over the samples), as LaunchRanges.h
/// divides; std::nullopt where none earns its copies. Each sample shape's
/// candidates are the whole space there, `allowed` (when given).
std::optional<ContractionLaunchRanges> chooseContractionLaunchRanges(
    const ContractionProblem &problem, bool mUnbound, bool nUnbound,
    const ContractionCandidate &oneTile, const TargetInfo &target,
    const ContractionFilter &allowed = {});

} // namespace nautilus::autosched

#endif
