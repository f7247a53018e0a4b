//===- Timing.h - The median time of repeated runs -------------*- C++ -*-===//
//
// `nautc run --time`'s measurement, which the JIT's and the tuner's
// measurements share: a run repeated at least `minRuns` times and until
// `budgetSeconds` have passed (at most `maxRuns`), its median reported.
// Before them, runs for kWarmUpShare of the budget (once at least) warm
// up, uncounted.
// Plain C++17.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_TIMING_H
#define NAUTILUS_RUNTIME_TIMING_H

#include <cstddef>
#include <functional>

namespace nautilus::rt {

struct Timing {
  double medianSeconds = 0;
  size_t runs = 0;
};

/// The share of a timing's budget spent warming up.
constexpr double kWarmUpShare = 0.05;

Timing timeRuns(const std::function<void()> &run, size_t minRuns = 5,
                size_t maxRuns = 100, double budgetSeconds = 2.0);

} // namespace nautilus::rt

#endif
