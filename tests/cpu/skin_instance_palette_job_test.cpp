#include "sinew/cpu/skin_instance_palette_job.h"

#include <gtest/gtest.h>

#include <vector>

#include "cpu/matrix_literals.h"

// A skin instance's palette (docs/semantics.md, "Palettes"): world(joint) · inverse bind per glTF
// joint, per G4MF group through group_joints (untransformed groups at the skinned node's matrix),
// the skinned node's own matrix otherwise ignored; and the job's errors.

namespace sinew::cpu {
namespace {

using testing::Columns;
using testing::Move;
using testing::Rows;
using testing::Translate;

void ExpectPaletteNear(const Float3x4& actual, const Float3x4& expected) {
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(actual.row[r].x, expected.row[r].x, 1e-6f) << "row " << r;
    EXPECT_NEAR(actual.row[r].y, expected.row[r].y, 1e-6f) << "row " << r;
    EXPECT_NEAR(actual.row[r].z, expected.row[r].z, 1e-6f) << "row " << r;
    EXPECT_NEAR(actual.row[r].w, expected.row[r].w, 1e-6f) << "row " << r;
  }
}

// World matrices: node 0 the skinned node (far away), node 1 at (1, 2, 3), node 2 turned 90°
// about Z at (0, 4, 0).
std::vector<Float4x4> World() {
  return {Move(50, 50, 50), Move(1, 2, 3),
          Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {0, 4, 0, 1})};
}

Skin TwoJoints() {
  Skin skin;
  skin.joints = {2, 1};
  skin.inverse_binds = {Move(0, -4, 0), Move(-1, 0, 0)};
  return skin;
}

TEST(SkinInstancePaletteJob, EachJointIsItsWorldMatrixTimesItsInverseBind) {
  const Skin skin = TwoJoints();
  const std::vector<Float4x4> world = World();
  std::vector<Float3x4> palette(2);
  SkinInstancePaletteJob job;
  job.skin = &skin;
  job.world = world;
  job.node = 0;
  job.output = palette;
  ASSERT_TRUE(job.Run().ok());
  // Joint 0: RotZ(90) at (0,4,0) · T(0,-4,0): rotation about the point (0, 4, 0) -> translation
  // (0,4,0) - RotZ(90)·(0,4,0) = (4, 4, 0).
  ExpectPaletteNear(palette[0], Rows({0, -1, 0, 4}, {1, 0, 0, 4}, {0, 0, 1, 0}));
  // Joint 1: T(1,2,3) · T(-1,0,0) = T(0, 2, 3); the skinned node's T(50,50,50) plays no part.
  ExpectPaletteNear(palette[1], Translate(0, 2, 3));
}

TEST(SkinInstancePaletteJob, GroupsFollowTheirJointsAndUnmappedGroupsStayAtTheSkinnedNode) {
  Skin skin = TwoJoints();
  skin.group_joints = {1, -1, 0};
  EXPECT_EQ(PaletteSizeFor(skin, 2), 3u);
  EXPECT_EQ(PaletteSizeFor(skin, 5), 5u);
  const std::vector<Float4x4> world = World();
  std::vector<Float3x4> palette(4);  // group 3 is past the map
  SkinInstancePaletteJob job;
  job.skin = &skin;
  job.world = world;
  job.node = 0;
  job.output = palette;
  ASSERT_TRUE(job.Run().ok());
  ExpectPaletteNear(palette[0], Translate(0, 2, 3));
  ExpectPaletteNear(palette[1], Translate(50, 50, 50));
  ExpectPaletteNear(palette[2], Rows({0, -1, 0, 4}, {1, 0, 0, 4}, {0, 0, 1, 0}));
  ExpectPaletteNear(palette[3], Translate(50, 50, 50));
}

TEST(SkinInstancePaletteJob, AGltfSkinsPaletteIsOneEntryPerJoint) {
  EXPECT_EQ(PaletteSizeFor(TwoJoints(), 7), 2u);
  const Skin skin = TwoJoints();
  const std::vector<Float4x4> world = World();
  std::vector<Float3x4> palette(3);
  SkinInstancePaletteJob job;
  job.skin = &skin;
  job.world = world;
  job.output = palette;
  const Status s = job.Run();
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "output");
  EXPECT_EQ(s.error().message, "output has 3 entries for 2 joints");
}

TEST(SkinInstancePaletteJob, RejectsEachBadInputWithItsLocation) {
  const std::vector<Float4x4> world = World();
  std::vector<Float3x4> palette(2);
  const auto run = [&](const Skin* skin, uint32_t node, std::span<Float3x4> output) {
    SkinInstancePaletteJob job;
    job.skin = skin;
    job.world = world;
    job.node = node;
    job.output = output;
    return job.Run();
  };
  Status s = run(nullptr, 0, palette);
  EXPECT_EQ(s.code(), Error::kInvalidArgument);
  EXPECT_EQ(s.error().where, "skin");

  Skin skin = TwoJoints();
  s = run(&skin, 3, palette);
  EXPECT_EQ(s.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(s.error().where, "node");
  // A world of another asset: the message gives both counts.
  EXPECT_NE(s.error().message.find("none for the skinned node 3"), std::string::npos)
      << s.error().message;

  skin.joints[1] = 3;
  s = run(&skin, 0, palette);
  EXPECT_EQ(s.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(s.error().where, "joints/1");

  skin = TwoJoints();
  skin.inverse_binds.pop_back();
  s = run(&skin, 0, palette);
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "inverse_binds");

  skin = TwoJoints();
  s = run(&skin, 0, {});
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "output");

  skin.group_joints = {0, 2};
  s = run(&skin, 0, palette);
  EXPECT_EQ(s.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(s.error().where, "group_joints/1");
}

}  // namespace
}  // namespace sinew::cpu
