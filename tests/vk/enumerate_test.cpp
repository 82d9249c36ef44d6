// Vulkan's two-call list pattern (runtime/src/vk/enumerate.h), against fake queries that behave as
// the specification allows a driver to.
#include "vk/enumerate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace sinew::vk::detail {
namespace {

// A driver's list: the count with a null array, else up to *count items and VK_INCOMPLETE when
// that is fewer than it has.
VkResult FakeList(const std::vector<int>& items, uint32_t* count, int* out) {
  if (out == nullptr) {
    *count = static_cast<uint32_t>(items.size());
    return VK_SUCCESS;
  }
  const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
  std::copy_n(items.begin(), written, out);
  *count = written;
  return written < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

TEST(Enumerate, FillsTheWholeListInTwoCalls) {
  const std::vector<int> items{3, 1, 4, 1, 5};
  int calls = 0;
  std::vector<int> out{9, 9};
  EXPECT_EQ(Enumerate(out,
                      [&](uint32_t* count, int* data) {
                        ++calls;
                        return FakeList(items, count, data);
                      }),
            VK_SUCCESS);
  EXPECT_EQ(out, items);
  EXPECT_EQ(calls, 2);
}

TEST(Enumerate, AsksAgainWhenTheListGrewBetweenTheCalls) {
  std::vector<int> items{1, 2};
  std::vector<int> out;
  EXPECT_EQ(Enumerate(out,
                      [&](uint32_t* count, int* data) {
                        const VkResult r = FakeList(items, count, data);
                        if (data == nullptr && items.size() < 4) items.push_back(7);
                        return r;
                      }),
            VK_SUCCESS);
  EXPECT_EQ(out, (std::vector<int>{1, 2, 7, 7}));
}

TEST(Enumerate, GivesUpOnAListThatNeverStopsGrowing) {
  std::vector<int> items{0};
  std::vector<int> out;
  EXPECT_EQ(Enumerate(out,
                      [&](uint32_t* count, int* data) {
                        const VkResult r = FakeList(items, count, data);
                        if (data == nullptr) items.push_back(int(items.size()));
                        return r;
                      }),
            VK_INCOMPLETE);
  EXPECT_EQ(out.size(), items.size() - 1) << "what the last call filled";
}

TEST(Enumerate, KeepsWhatTheSecondCallFilledWhenTheListShrank) {
  std::vector<int> items{1, 2, 3};
  std::vector<int> out;
  EXPECT_EQ(Enumerate(out,
                      [&](uint32_t* count, int* data) {
                        const VkResult r = FakeList(items, count, data);
                        if (data == nullptr) items.pop_back();
                        return r;
                      }),
            VK_SUCCESS);
  EXPECT_EQ(out, (std::vector<int>{1, 2}));
}

TEST(Enumerate, ReturnsTheFirstErrorOfEitherCall) {
  std::vector<int> out{5};
  EXPECT_EQ(Enumerate(out, [](uint32_t*, int*) { return VK_ERROR_OUT_OF_HOST_MEMORY; }),
            VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(Enumerate(out,
                      [](uint32_t* count, int* data) {
                        *count = 2;
                        return data == nullptr ? VK_SUCCESS : VK_ERROR_DEVICE_LOST;
                      }),
            VK_ERROR_DEVICE_LOST);
  EXPECT_TRUE(out.empty()) << "no blank items left behind";
}

TEST(Enumerate, AListThatShrankToNothingLeavesNoItemsOfTheAttemptBefore) {
  std::vector<int> items{1, 2};
  std::vector<int> out;
  EXPECT_EQ(Enumerate(out,
                      [&](uint32_t* count, int* data) {
                        if (data == nullptr) {
                          *count = static_cast<uint32_t>(items.size());
                          return VK_SUCCESS;
                        }
                        const VkResult r = FakeList(std::vector<int>{1, 2, 3}, count, data);
                        items.clear();  // the next count is 0
                        return r;
                      }),
            VK_SUCCESS);
  EXPECT_TRUE(out.empty());
}

TEST(Enumerate, AnEmptyListTakesOneCall) {
  int calls = 0;
  std::vector<int> out{1};
  EXPECT_EQ(Enumerate(out,
                      [&](uint32_t* count, int* data) {
                        ++calls;
                        return FakeList({}, count, data);
                      }),
            VK_SUCCESS);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(calls, 1);
}

TEST(Enumerate, TreatsAQueryReturningVoidAsSucceeding) {
  const std::vector<int> items{8, 6};
  std::vector<int> out;
  EXPECT_EQ(Enumerate(out, [&](uint32_t* count, int* data) { FakeList(items, count, data); }),
            VK_SUCCESS);
  EXPECT_EQ(out, items);
}

TEST(Enumerate, StartsEveryItemFromTheBlankItGiven) {
  struct Item {
    int type = 0;
    int value = 0;
  };
  std::vector<Item> out;
  std::vector<int> types;
  EXPECT_EQ(Enumerate(out, Item{42, 0},
                      [&](uint32_t* count, Item* data) {
                        if (data == nullptr) {
                          *count = 3;
                          return VK_SUCCESS;
                        }
                        for (uint32_t i = 0; i < *count; ++i) types.push_back(data[i].type);
                        return VK_SUCCESS;
                      }),
            VK_SUCCESS);
  EXPECT_EQ(types, (std::vector<int>{42, 42, 42}));
}

}  // namespace
}  // namespace sinew::vk::detail
