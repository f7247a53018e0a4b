//===- Timing.cpp - The median time of repeated runs ----------------------===//
#include "runtime/Timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace nautilus::rt;

Timing nautilus::rt::timeRuns(const std::function<void()> &run,
                              size_t minRuns, size_t maxRuns,
                              double budgetSeconds) {
  using Clock = std::chrono::steady_clock;
  auto elapsed = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  // Warm up, uncounted: the first runs pay for cold caches and branch
  // predictors, threads that wake (HostWorkers.h) and clocks that rise.
  const auto warmUpStart = Clock::now();
  do
    run();
  while (elapsed(warmUpStart) < budgetSeconds * kWarmUpShare);
  std::vector<double> times;
  auto start = Clock::now();
  while (times.size() < minRuns ||
         (times.size() < maxRuns && elapsed(start) < budgetSeconds)) {
    auto t0 = Clock::now();
    run();
    times.push_back(elapsed(t0));
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.size()};
}
