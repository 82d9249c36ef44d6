// The statistics `sinew bench` reports (samples/sinew/bench_util.h): every ms/frame, GB/s and
// %copy figure is a median of frames.
#include "bench_util.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sinew::tool
