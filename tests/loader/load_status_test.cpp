// LoadStatus and the SINEW_TRY / SINEW_TRY_ASSIGN macros (loader/src/common/load_status.h), by
// which every loader pass hands its failures up.
#include "common/load_status.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sinew::loader {
namespace {

LoadStatus Fail(const char* where) { return {Error::kInvalidValue, "bad", where}; }
LoadStatus Succeed() { return {}; }

// Runs `first`, then `second`, counting how far it got.
LoadStatus Both(LoadStatus (*first)(), LoadStatus (*second)(), int* reached) {
  SINEW_TRY(first());
  ++*reached;
  SINEW_TRY(second());
  ++*reached;
  return {};
}

LoadStatus FailAtA() { return Fail("/a"); }
LoadStatus FailAtB() { return Fail("/b"); }

TEST(SinewTry, ReturnsTheFirstFailureAndRunsNothingAfterIt) {
  int reached = 0;
  const LoadStatus s = Both(FailAtA, FailAtB, &reached);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().where, "/a");
  EXPECT_EQ(reached, 0);
  reached = 0;
  const LoadStatus t = Both(Succeed, FailAtB, &reached);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().where, "/b");
  EXPECT_EQ(reached, 1);
}

TEST(SinewTry, GoesOnAfterSuccessesAndEvaluatesItsExpressionOnce) {
  int reached = 0;
  EXPECT_TRUE(Both(Succeed, Succeed, &reached).ok());
  EXPECT_EQ(reached, 2);
  int calls = 0;
  const auto counted = [&]() -> LoadStatus {
    ++calls;
    return {};
  };
  const auto run = [&]() -> LoadStatus {
    SINEW_TRY(counted());
    return {};
  };
  EXPECT_TRUE(run().ok());
  EXPECT_EQ(calls, 1);
}

Status AsStatus(const char* where) {
  SINEW_TRY(Fail(where));
  return {};
}

Result<int> AsResult(bool fail) {
  SINEW_TRY(fail ? Fail("/r") : Succeed());
  SINEW_TRY(Status());
  return 7;
}

LoadStatus FromStatus() {
  SINEW_TRY(Status(Error::kOutOfBounds, "past the end", "/s"));
  return {};
}

TEST(SinewTry, HandsTheFailureUpAsTheStatusOrResultTheFunctionReturns) {
  const Status s = AsStatus("/x");
  EXPECT_EQ(s.code(), Error::kInvalidValue);
  EXPECT_EQ(s.error().where, "/x");
  EXPECT_EQ(s.error().message, "bad");
  const Result<int> failed = AsResult(true);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().where, "/r");
  const Result<int> value = AsResult(false);
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, 7);
  const LoadStatus from_status = FromStatus();
  ASSERT_FALSE(from_status.ok());
  EXPECT_EQ(from_status.error().code, Error::kOutOfBounds);
  EXPECT_EQ(from_status.error().where, "/s");
}

Result<std::vector<int>> Numbers(bool fail) {
  if (fail) return Status(Error::kMissingProperty, "required", "/n");
  return std::vector<int>{1, 2, 3};
}

LoadStatus Sum(bool fail, int* out) {
  SINEW_TRY_ASSIGN(const std::vector<int> numbers, Numbers(fail));
  *out = 0;
  for (const int n : numbers) *out += n;
  std::vector<int> again;
  SINEW_TRY_ASSIGN(again, Numbers(false));
  *out += int(again.size());
  return {};
}

TEST(SinewTryAssign, AssignsTheValueOrReturnsTheFailure) {
  int sum = -1;
  EXPECT_TRUE(Sum(false, &sum).ok());
  EXPECT_EQ(sum, 9);
  sum = -1;
  const LoadStatus s = Sum(true, &sum);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Error::kMissingProperty);
  EXPECT_EQ(s.error().where, "/n");
  EXPECT_EQ(sum, -1);
}

}  // namespace
}  // namespace sinew::loader
