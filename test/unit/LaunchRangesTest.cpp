//===- LaunchRangesTest.cpp - Dividing a size's values, any model ---------===//
//
// LaunchRanges.h's division against a model of two candidates: one best
// at every shape but a few, where it loses badly. The division is earned
// by its mean where the loss is broad, by the worst loss it removes where
// it is at one shape of many (kLaunchRangeWorstGain), and not where the
// loss is small.
//
//===----------------------------------------------------------------------===//
#include "autoscheduler/LaunchRanges.h"
#include "test/unit/LaunchRangesCheck.h"

#include <gtest/gtest.h>

using namespace nautilus::autosched;

namespace {

/// Two candidates over sizes (B, M): `steady` costs 1 everywhere but at
/// B = 1 and M >= `from`, where it costs `loss`; `split` costs 1 there
/// and `splitCost` elsewhere.
class TwoCandidates final : public LaunchRangeModel {
public:
  TwoCandidates(double loss, int64_t from, double splitCost)
      : loss(loss), from(from), splitCost(splitCost) {}
  std::optional<Sample> sampleAt(const std::vector<int64_t> &extents) override {
    Sample s;
    double a = *timeOf(0, extents), b = *timeOf(1, extents);
    s.bestUs = std::min(a, b);
    s.candidates =
        a <= b ? std::vector<size_t>{0, 1} : std::vector<size_t>{1, 0};
    return s;
  }
  std::optional<double> timeOf(size_t candidate,
                               const std::vector<int64_t> &extents) override {
    bool few = extents[0] == 1 && extents[1] >= from;
    if (candidate == 0)
      return few ? loss : 1.0;
    return few ? 1.0 : splitCost;
  }

private:
  double loss;
  int64_t from;
  double splitCost;
};

} // namespace

TEST(LaunchRanges, AWorstLossAtOneShapeEarnsACopy) {
  // 2.2x at one shape of twelve: the mean over them gains 7%, less than a
  // copy's 10%, but the worst falls from 2.2x to 1.05x.
  TwoCandidates model(2.2, 4096, 1.05);
  std::optional<LaunchRanges> division = chooseLaunchRanges(2, model, 0);
  ASSERT_TRUE(division);
  nautilus::test::expectRangesInOrder(*division);
  EXPECT_TRUE(division->earnedByWorst);
  EXPECT_NEAR(division->oneTileWorstRegret, 2.2, 1e-9);
  EXPECT_LE(division->worstRegret * kLaunchRangeWorstGain,
            division->oneTileWorstRegret);
}

TEST(LaunchRanges, ABroadLossEarnsCopiesByTheMean) {
  // 3x at B = 1 for every M: a third of the shapes.
  TwoCandidates model(3.0, 0, 1.05);
  std::optional<LaunchRanges> division = chooseLaunchRanges(2, model, 0);
  ASSERT_TRUE(division);
  nautilus::test::expectRangesInOrder(*division);
  EXPECT_FALSE(division->earnedByWorst);
  EXPECT_EQ(division->size, 0u); // B
}

TEST(LaunchRanges, ASmallLossAtOneShapeEarnsNothing) {
  // 1.4x at one shape: neither the mean nor the worst pays for a copy.
  TwoCandidates model(1.4, 4096, 1.05);
  EXPECT_FALSE(chooseLaunchRanges(2, model, 0));
}
