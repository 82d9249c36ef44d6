#include "sinew/core/error.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

namespace sinew {
namespace {

TEST(ErrorName, NamesEachValueAsSpelledInTheEnum) {
  EXPECT_STREQ(ErrorName(Error::kNone), "kNone");
  EXPECT_STREQ(ErrorName(Error::kSizeMismatch), "kSizeMismatch");
  EXPECT_STREQ(ErrorName(Error::kJointIndexOutOfRange), "kJointIndexOutOfRange");
  EXPECT_STREQ(ErrorName(Error::kVulkanCallFailed), "kVulkanCallFailed");
  EXPECT_STREQ(ErrorName(Error::kInvalidHandle), "kInvalidHandle");
  EXPECT_STREQ(ErrorName(Error::kValidationLayerMissing), "kValidationLayerMissing");
}

TEST(ErrorName, NamesEveryValueDistinctlyAndNeverReturnsNull) {
  const auto last = static_cast<uint32_t>(Error::kInUse);
  for (uint32_t i = 0; i <= last; ++i) {
    const char* name = ErrorName(static_cast<Error>(i));
    ASSERT_NE(name, nullptr);
    EXPECT_STRNE(name, "kUnknown") << "value " << i;
    for (uint32_t j = 0; j < i; ++j) EXPECT_STRNE(name, ErrorName(static_cast<Error>(j)));
  }
}

TEST(ErrorName, CallsAnOutOfRangeValueUnknown) {
  EXPECT_STREQ(ErrorName(static_cast<Error>(9999)), "kUnknown");
}

TEST(Prefixed, PutsThePartInFrontOfTheLocationAndKeepsSuccess) {
  EXPECT_EQ(Prefixed(Status(Error::kSizeMismatch, "m", "weights/2"), "nodes/3").error().where,
            "nodes/3/weights/2");
  EXPECT_EQ(Prefixed(Status(Error::kSizeMismatch, "m"), "nodes/3").error().where, "nodes/3");
  EXPECT_EQ(Prefixed(Status(Error::kSizeMismatch, "m"), "nodes/3").code(), Error::kSizeMismatch);
  EXPECT_TRUE(Prefixed(Status(), "nodes/3").ok());
}

TEST(ErrorInfo, ToStringIsTheNameAloneWithoutDetails) {
  EXPECT_EQ((ErrorInfo{Error::kSizeMismatch, "", "", 0}.ToString()), "kSizeMismatch");
}

TEST(ErrorInfo, ToStringPutsWhereThenTheMessage) {
  const ErrorInfo info{Error::kSizeMismatch, "message", "/x", 0};
  EXPECT_EQ(info.ToString(), "kSizeMismatch at /x: message");
}

TEST(ErrorInfo, ToStringOmitsAnEmptyWhere) {
  const ErrorInfo info{Error::kFileNotFound, "no such file", "", 0};
  EXPECT_EQ(info.ToString(), "kFileNotFound: no such file");
}

TEST(ErrorInfo, ToStringAppendsTheVkResult) {
  const ErrorInfo info{Error::kVulkanCallFailed, "vkCreateDevice failed", "", -3};
  EXPECT_EQ(info.ToString(), "kVulkanCallFailed: vkCreateDevice failed (VkResult -3)");
}

TEST(Status, IsOkByDefault) {
  const Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(static_cast<bool>(status));
  EXPECT_EQ(status.code(), Error::kNone);
  EXPECT_TRUE(status.error().message.empty());
}

TEST(Status, CarriesTheCodeMessageAndWhereOfAFailure) {
  const Status status(Error::kInvalidHierarchy, "bad parent", "parents/3");
  EXPECT_FALSE(status.ok());
  EXPECT_FALSE(static_cast<bool>(status));
  EXPECT_EQ(status.code(), Error::kInvalidHierarchy);
  EXPECT_EQ(status.error().message, "bad parent");
  EXPECT_EQ(status.error().where, "parents/3");
  EXPECT_EQ(status.error().vk_result, 0);
}

TEST(Status, KeepsTheVkResultOfAnErrorInfo) {
  const Status status(ErrorInfo{Error::kVulkanCallFailed, "m", "w", -4});
  EXPECT_EQ(status.code(), Error::kVulkanCallFailed);
  EXPECT_EQ(status.error().vk_result, -4);
}

TEST(Result, HoldsAValue) {
  Result<int> result = 42;
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(static_cast<bool>(result));
  EXPECT_EQ(result.code(), Error::kNone);
  EXPECT_EQ(result.value(), 42);
  EXPECT_EQ(*result, 42);
  EXPECT_TRUE(result.status().ok());
}

TEST(Result, HoldsAnError) {
  Result<int> result = ErrorInfo{Error::kNegativeWeight, "weight -1", "influences/weights/2", 0};
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(result.code(), Error::kNegativeWeight);
  EXPECT_EQ(result.error().where, "influences/weights/2");
  const Status status = result.status();
  EXPECT_EQ(status.code(), Error::kNegativeWeight);
  EXPECT_EQ(status.error().message, "weight -1");
}

TEST(Result, TakesTheErrorOfAFailedStatus) {
  Result<std::string> result = Status(Error::kFileReadFailed, "short read", "file.bin");
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.code(), Error::kFileReadFailed);
  EXPECT_EQ(result.error().message, "short read");
  EXPECT_EQ(result.error().where, "file.bin");
}

// A success carries no value: a Result made from one fails, saying so, rather than holding
// nothing.
TEST(Result, MadeFromASuccessFailsInsteadOfHoldingNothing) {
  const Result<int> from_status = Status();
  EXPECT_FALSE(from_status.ok());
  EXPECT_EQ(from_status.code(), Error::kInvalidArgument);
  const Result<int> from_info = ErrorInfo{};
  EXPECT_EQ(from_info.code(), Error::kInvalidArgument);
}

// sinew throws nothing: error() of a success is kNone, and value() of a failure aborts with the
// error on stderr (a programming error, like reading past a span).
TEST(Result, NeverThrows) {
  const Result<int> ok = 3;
  EXPECT_EQ(ok.error().code, Error::kNone);
  EXPECT_TRUE(ok.status().ok());
  const Result<int> failed = Status(Error::kSizeMismatch, "three", "/x");
  EXPECT_DEATH((void)failed.value(), "value\\(\\) of a failed Result: kSizeMismatch at /x: three");
}

TEST(Result, GivesAccessToMembersAndMovesItsValueOut) {
  Result<std::string> result = std::string("sinew");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->size(), 5u);
  result.value() += "!";
  const std::string moved = std::move(result).value();
  EXPECT_EQ(moved, "sinew!");
}

// `*` on a temporary Result moves its value out, as std::optional's does: a move-only value can be
// taken straight from the call that made it, and a large one is not copied.
TEST(Result, DereferencedAsATemporaryMovesItsValueOut) {
  const auto make = [] { return Result<std::unique_ptr<int>>(std::make_unique<int>(9)); };
  std::unique_ptr<int> owned = *make();
  ASSERT_NE(owned, nullptr);
  EXPECT_EQ(*owned, 9);
  static_assert(std::is_same_v<decltype(*make()), std::unique_ptr<int>&&>);
  struct Counted {  // how many copies made it
    int copies = 0;
    Counted() = default;
    Counted(const Counted& other) : copies(other.copies + 1) {}
    Counted(Counted&&) = default;
  };
  Result<Counted> counted = Counted{};
  const Counted taken = *std::move(counted);
  EXPECT_EQ(taken.copies, 0);
}

TEST(Result, HoldsAMoveOnlyValue) {
  Result<std::unique_ptr<int>> result = std::make_unique<int>(7);
  ASSERT_TRUE(result.ok());
  std::unique_ptr<int> owned = std::move(result).value();
  ASSERT_NE(owned, nullptr);
  EXPECT_EQ(*owned, 7);
}

}  // namespace
}  // namespace sinew
