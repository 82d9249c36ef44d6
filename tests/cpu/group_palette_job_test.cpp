#include "sinew/cpu/group_palette_job.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpu/matrix_literals.h"

// The group palette of sparse skinning (docs/semantics.md, "Palettes"): group -> bone through the
// skeleton's joints array, with duplicates, -1 and missing entries.

namespace sinew::cpu {
namespace {

using testing::Translate;

// Bone b moves by b + 1 along one axis, so every bone is told apart by its translation.
const std::vector<Float3x4> kBones = {Translate(1, 0, 0), Translate(0, 2, 0), Translate(0, 0, 3)};

void ExpectTranslation(const Float3x4& m, float x, float y, float z) {
  const float expected[3][4] = {{1, 0, 0, x}, {0, 1, 0, y}, {0, 0, 1, z}};
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(m.row[r].x, expected[r][0]) << "row " << r;
    EXPECT_EQ(m.row[r].y, expected[r][1]) << "row " << r;
    EXPECT_EQ(m.row[r].z, expected[r][2]) << "row " << r;
    EXPECT_EQ(m.row[r].w, expected[r][3]) << "row " << r;
  }
}

void ExpectIdentity(const Float3x4& m) { ExpectTranslation(m, 0, 0, 0); }

// A palette entry no job would write: -7 everywhere.
Float3x4 Sentinel() {
  Float3x4 m;
  m.row = {{{-7, -7, -7, -7}, {-7, -7, -7, -7}, {-7, -7, -7, -7}}};
  return m;
}

TEST(GroupPaletteJob, MapsGroupsToBonesWithSharedBonesAndMinusOneAsIdentity) {
  const std::vector<int32_t> joints = {2, -1, 0, 2};
  std::vector<Float3x4> output(4, Sentinel());
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  ASSERT_TRUE(job.Run().ok());
  ExpectTranslation(output[0], 0, 0, 3);  // Bone 2.
  ExpectIdentity(output[1]);              // -1.
  ExpectTranslation(output[2], 1, 0, 0);  // Bone 0.
  ExpectTranslation(output[3], 0, 0, 3);  // Bone 2 again.
}

TEST(GroupPaletteJob, MakesGroupsPastTheEndOfJointsIdentity) {
  const std::vector<int32_t> joints = {1};
  std::vector<Float3x4> output(3, Sentinel());
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  ASSERT_TRUE(job.Run().ok());
  ExpectTranslation(output[0], 0, 2, 0);
  ExpectIdentity(output[1]);
  ExpectIdentity(output[2]);
}

TEST(GroupPaletteJob, IgnoresJointsEntriesPastTheEndOfOutput) {
  const std::vector<int32_t> joints = {0, 1, 2};
  std::vector<Float3x4> output(1, Sentinel());
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  ASSERT_TRUE(job.Run().ok());
  ExpectTranslation(output[0], 1, 0, 0);
}

TEST(GroupPaletteJob, NeedsNoBonesWhenEveryGroupIsIdentity) {
  const std::vector<int32_t> joints = {-1, -1};
  std::vector<Float3x4> output(2, Sentinel());
  GroupPaletteJob job;
  job.joints = joints;
  job.output = output;
  ASSERT_TRUE(job.Run().ok());
  ExpectIdentity(output[0]);
  ExpectIdentity(output[1]);
}

// Bad input: the exact error and where.

void ExpectError(const GroupPaletteJob& job, Error code, const std::string& where) {
  const Status status = job.Validate();
  EXPECT_EQ(status.code(), code) << status.error().ToString();
  EXPECT_EQ(status.error().where, where);
}

TEST(GroupPaletteJob, RejectsAJointEqualToTheBonePaletteSize) {
  const std::vector<int32_t> joints = {0, -1, 3};
  std::vector<Float3x4> output(3);
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  ExpectError(job, Error::kJointIndexOutOfRange, "joints/2");
}

TEST(GroupPaletteJob, RejectsANegativeJointOtherThanMinusOne) {
  const std::vector<int32_t> joints = {-2};
  std::vector<Float3x4> output(1);
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  ExpectError(job, Error::kJointIndexOutOfRange, "joints/0");
}

TEST(GroupPaletteJob, RejectsABadJointsEntryEvenPastTheEndOfOutput) {
  // The header's rule is "every joints entry": a broken joints array is rejected whichever mesh
  // it is used with.
  const std::vector<int32_t> joints = {0, 3};
  std::vector<Float3x4> output(1);
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  ExpectError(job, Error::kJointIndexOutOfRange, "joints/1");
}

TEST(GroupPaletteJob, RejectsAnEmptyOutput) {
  const std::vector<int32_t> joints = {0};
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  ExpectError(job, Error::kEmptyPalette, "output");
}

TEST(GroupPaletteJob, RunValidatesFirstAndLeavesTheOutputUntouched) {
  const std::vector<int32_t> joints = {0, 1, 5};
  std::vector<Float3x4> output(3, Sentinel());
  GroupPaletteJob job;
  job.joints = joints;
  job.bone_palette = kBones;
  job.output = output;
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(status.error().where, "joints/2");
  for (const Float3x4& m : output) EXPECT_EQ(m.row[0].x, -7.0f);
}

}  // namespace
}  // namespace sinew::cpu
