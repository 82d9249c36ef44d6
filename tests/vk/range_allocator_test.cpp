// The SkinCache's pool carving (runtime/src/vk/range_allocator.h).
#include "vk/range_allocator.h"

#include <gtest/gtest.h>

namespace sinew::vk::detail {
namespace {

TEST(RangeAllocator, GivesAlignedDisjointBlocksUntilFull) {
  RangeAllocator a(100);
  EXPECT_EQ(a.Allocate(10), 0u);
  EXPECT_EQ(a.Allocate(10, 16), 16u) << "aligned past the first block";
  EXPECT_EQ(a.Allocate(4), 10u) << "the gap the alignment left is used first";
  EXPECT_EQ(a.used(), 24u);
  EXPECT_EQ(a.Allocate(80), std::nullopt) << "no free run of 80 is left";
  EXPECT_EQ(a.Allocate(0), std::nullopt);
  EXPECT_EQ(a.Allocate(4, 0), std::nullopt);
}

TEST(RangeAllocator, MergesFreedNeighboursIntoOneBlock) {
  RangeAllocator a(30);
  const auto x = a.Allocate(10), y = a.Allocate(10), z = a.Allocate(10);
  ASSERT_TRUE(x && y && z);
  EXPECT_EQ(a.Allocate(1), std::nullopt);
  a.Free(*x, 10);
  a.Free(*z, 10);
  EXPECT_EQ(a.Allocate(20), std::nullopt) << "two separate runs of 10";
  a.Free(*y, 10);
  EXPECT_EQ(a.used(), 0u);
  EXPECT_EQ(a.Allocate(30), 0u) << "the three merged back into the whole range";
}

}  // namespace
}  // namespace sinew::vk::detail
