// RunUntilSteady (samples/sinew/run_until_steady.h): how `sinew bench` warms a GPU up with its copy
// kernel and settles each case's frames before it times them. A fake clock makes each call take
// 10 ms, so the tests run no GPU and wait for nothing.
#include "run_until_steady.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace sinew::tool {
namespace {

// Runs RunUntilSteady over `times` (the last repeated once they run out) from 0 ms; returns the
// number of steps it took.
int StepsUntilSteady(const std::vector<double>& times, double min_ms, double max_ms,
                     Status* status = nullptr) {
  double now_ms = 0;  // the fake clock: 10 ms more each time a step runs
  int steps = 0;
  const Status s = RunUntilSteady(
      [&]() -> Result<double> {
        now_ms += 10;
        const double t = times[std::min<size_t>(steps, times.size() - 1)];
        ++steps;
        if (t < 0) return Status{Error::kVulkanCallFailed, "step failed"};
        return t;
      },
      min_ms, max_ms, [&] { return now_ms; });
  if (status) *status = s;
  return steps;
}

TEST(RunUntilSteady, StopsAtTheMinimumTimeOnceTwoStepsInARowAgree) {
  // Steady from the first step: it still runs min_ms (50 ms: 5 steps of 10).
  EXPECT_EQ(StepsUntilSteady({1.0}, 50, 1000), 5);
  // Slow first steps (a GPU's clocks coming up), then steady: it stops at the second steady one.
  EXPECT_EQ(StepsUntilSteady({3.5, 3.0, 2.0, 1.5, 1.0, 1.01}, 20, 1000), 6);
  // Within 3 % counts as agreeing; 4 % does not.
  EXPECT_EQ(StepsUntilSteady({1.0, 1.02}, 0, 1000), 2);
  EXPECT_EQ(StepsUntilSteady({1.0, 1.04, 1.0, 1.04, 1.04}, 0, 1000), 5);
}

TEST(RunUntilSteady, GivesUpAtTheMaximumTimeWhenTheStepsNeverAgree) {
  std::vector<double> alternating;
  for (int i = 0; i < 200; ++i) alternating.push_back(i % 2 ? 2.0 : 1.0);
  EXPECT_EQ(StepsUntilSteady(alternating, 50, 300), 30);
}

TEST(RunUntilSteady, ReturnsTheFirstErrorOfAStep) {
  Status status;
  EXPECT_EQ(StepsUntilSteady({1.0, 2.0, -1.0, 1.0, 1.0}, 50, 1000, &status), 3);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message, "step failed");
}

}  // namespace
}  // namespace sinew::tool
