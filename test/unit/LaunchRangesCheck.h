//===- LaunchRangesCheck.h - A division's ranges checked -------*- C++ -*-===//
//
// What every division into launch ranges (autoscheduler/LaunchRanges.h)
// must hold, whatever its model: two ranges or more, at most
// kMostLaunchRanges, covering every value of its size in order (each
// from where the one before ends, the last unbounded, each boundary a
// power of two), at a mean regret below the one candidate's by more than
// each extra copy's toll (or, no worse in the mean, a worst regret
// kLaunchRangeWorstGain below the one candidate's), and neighbours with
// different candidates.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_TEST_UNIT_LAUNCHRANGESCHECK_H
#define NAUTILUS_TEST_UNIT_LAUNCHRANGESCHECK_H

#include "autoscheduler/LaunchRanges.h"

#include <gtest/gtest.h>

#include <cmath>

namespace nautilus::test {

inline void expectRangesInOrder(const autosched::LaunchRanges &division) {
  using namespace autosched;
  ASSERT_GE(division.ranges.size(), 2u);
  ASSERT_LE(division.ranges.size(), kMostLaunchRanges);
  // Earned by its mean, or by the worst loss it removes.
  bool byMean = division.meanRegret *
                    std::pow(kLaunchRangeGain, division.ranges.size() - 1) <
                division.oneTileMeanRegret;
  bool byWorst = division.worstRegret * kLaunchRangeWorstGain <=
                     division.oneTileWorstRegret * (1 + 1e-9) &&
                 division.meanRegret <= division.oneTileMeanRegret * (1 + 1e-9);
  EXPECT_TRUE(byMean || byWorst);
  EXPECT_EQ(division.earnedByWorst, !byMean);
  int64_t next = 0;
  for (size_t r = 0; r < division.ranges.size(); ++r) {
    const LaunchRange &range = division.ranges[r];
    EXPECT_EQ(range.atLeast, next);
    EXPECT_EQ(range.below.has_value(), r + 1 < division.ranges.size());
    if (range.below) {
      EXPECT_GT(*range.below, range.atLeast);
      EXPECT_EQ(*range.below & (*range.below - 1), 0) << *range.below;
      next = *range.below;
    }
    EXPECT_GE(range.meanRegret, 1.0);
    EXPECT_GE(range.worstRegret, range.meanRegret);
    if (r > 0) {
      EXPECT_NE(range.candidate, division.ranges[r - 1].candidate);
    }
  }
}

} // namespace nautilus::test

#endif
