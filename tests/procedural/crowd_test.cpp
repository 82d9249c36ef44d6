#include "sinew/procedural/crowd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sinew/procedural/character.h"

namespace sinew::procedural {
namespace {

Character SmallCharacter() {
  CharacterOptions o;
  o.vertex_count = 100;
  auto mesh = MakeCharacter(o);
  EXPECT_TRUE(mesh.ok());
  return std::move(mesh.value());
}

TEST(RestPalette, IsTheIdentityForEveryJointOfAConsistentSkeleton) {
  const Character character = SmallCharacter();
  std::vector<Float3x4> palette(character.skeleton.joint_count());
  ASSERT_TRUE(RestPalette(character.skeleton, palette).ok());
  for (const Float3x4& m : palette) {
    const float expected[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
    for (int r = 0; r < 3; ++r) {
      EXPECT_NEAR(m.row[r].x, expected[r][0], 1e-5f);
      EXPECT_NEAR(m.row[r].y, expected[r][1], 1e-5f);
      EXPECT_NEAR(m.row[r].z, expected[r][2], 1e-5f);
      EXPECT_NEAR(m.row[r].w, expected[r][3], 1e-5f);
    }
  }
}

TEST(CrowdPalette, DiffersBetweenInstancesAndIsRepeatable) {
  const Character character = SmallCharacter();
  const size_t j = character.skeleton.joint_count();
  std::vector<Float3x4> a(j), b(j), again(j);
  ASSERT_TRUE(CrowdPalette(character.skeleton, 0.5f, 0, a).ok());
  ASSERT_TRUE(CrowdPalette(character.skeleton, 0.5f, 1, b).ok());
  ASSERT_TRUE(CrowdPalette(character.skeleton, 0.5f, 0, again).ok());
  float difference = 0;
  for (size_t i = 0; i < j; ++i) {
    for (int r = 0; r < 3; ++r) {
      difference += std::fabs(a[i].row[r].x - b[i].row[r].x);
      EXPECT_EQ(a[i].row[r].x, again[i].row[r].x);
      EXPECT_EQ(a[i].row[r].w, again[i].row[r].w);
    }
  }
  EXPECT_GT(difference, 1e-3f);
}

TEST(CrowdPalette, RejectsAnOutputOfTheWrongSize) {
  const Character character = SmallCharacter();
  std::vector<Float3x4> palette(character.skeleton.joint_count() + 1);
  EXPECT_EQ(CrowdPalette(character.skeleton, 0.0f, 0, palette).code(), Error::kSizeMismatch);
  EXPECT_EQ(RestPalette(character.skeleton, palette).code(), Error::kSizeMismatch);
}

}  // namespace
}  // namespace sinew::procedural
