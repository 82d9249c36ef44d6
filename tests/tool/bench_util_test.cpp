// The statistics `sinew bench` reports (samples/sinew/bench_util.h): every ms/frame, GB/s and
// %copy figure is a median of frames.
#include "bench_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace sinew::tool {
namespace {

TEST(BenchMedian, IsTheMiddleValueOfAnOddCountAndTheMeanOfTheTwoMiddleOnesOfAnEvenCount) {
  EXPECT_EQ(Median({}), 0.0);
  EXPECT_EQ(Median({4.0}), 4.0);
  EXPECT_EQ(Median({8.0, 1.0, 5.0}), 5.0);
  EXPECT_EQ(Median({8.415, 6.4079}), (8.415 + 6.4079) / 2);  // not the slower frame
  EXPECT_EQ(Median({9.0, 1.0, 3.0, 7.0}), 5.0);
}

TEST(BenchPositionError, IsOverTheReferencesExtentOrForOnePointOverItsLargestCoordinate) {
  const std::vector<float> want = {0, 0, 0, 3, 4, 0}, got = {0, 0, 0, 3, 4, 0.01f};
  EXPECT_NEAR(PositionErrorOverExtent(got, want), 0.01 / 5, 1e-9);
  // One point: float rounding of a coordinate near 2 is about 1e-7 of it, not of a tiny extent.
  const std::vector<float> one = {2, -0.5f, 1}, rounded = {std::nextafter(2.0f, 3.0f), -0.5f, 1};
  EXPECT_NEAR(PositionErrorOverExtent(rounded, one), (double(rounded[0]) - 2) / 2, 1e-12);
  EXPECT_LT(PositionErrorOverExtent(rounded, one), 1e-6);
  // One point at the origin: exact is 0, anything else out of every tolerance.
  const std::vector<float> origin = {0, 0, 0}, off = {0, 1e-6f, 0};
  EXPECT_EQ(PositionErrorOverExtent(origin, origin), 0.0);
  EXPECT_GT(PositionErrorOverExtent(off, origin), 1.0);
  EXPECT_TRUE(std::isinf(PositionErrorOverExtent(got, one)));  // sizes differ
  // A NaN is never within a tolerance (std::max would have dropped it).
  const std::vector<float> nan = {0, 0, 0, 3, 4, std::nanf("")};
  EXPECT_TRUE(std::isinf(PositionErrorOverExtent(nan, want)));
  EXPECT_TRUE(std::isinf(MaxAbsDiff(want, nan)));
}

}  // namespace
}  // namespace sinew::tool
