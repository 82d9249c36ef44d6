#include "sinew/cpu/scene_transforms_job.h"

#include <gtest/gtest.h>

#include <vector>

#include "cpu/matrix_literals.h"
#include "cpu/rig_fixture.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"

// Scene matrices parents first whatever the node order, joints outside the scene's node tree
// (docs/semantics.md, "Pose evaluation"), matrix nodes, and the job's errors; every expectation
// worked out by hand.

namespace sinew::cpu {
namespace {

using testing::Columns;
using testing::ExpectMatrixNear;
using testing::Move;
using testing::RotZ;

std::vector<Float4x4> WorldOf(const std::vector<Node>& nodes, const ScenePose& pose) {
  std::vector<Float4x4> world(nodes.size());
  SceneTransformsJob job;
  job.nodes = nodes;
  job.pose = &pose;
  job.output = world;
  const Status s = job.Run();
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return world;
}

ScenePose PoseOf(const std::vector<Node>& nodes) {
  Asset a;
  a.nodes = nodes;
  return RestPose(a);
}

// Node 0 is the grandchild, node 1 the child, node 2 the root: every child comes before its
// parent in the array.
TEST(SceneTransformsJob, ChildrenListedBeforeTheirParentsStillComposeParentsFirst) {
  std::vector<Node> nodes(3);
  nodes[2].translation = {1, 0, 0};
  nodes[1].parent = 2;
  nodes[1].translation = {0, 2, 0};
  nodes[1].rotation = RotZ(90);
  nodes[0].parent = 1;
  nodes[0].translation = {1, 0, 0};
  nodes[0].scale = {2, 2, 2};
  const std::vector<Float4x4> world = WorldOf(nodes, PoseOf(nodes));
  ExpectMatrixNear(world[2], Move(1, 0, 0));
  // Root · T(0,2,0) · RotZ(90): x -> y, y -> -x, at (1, 2, 0).
  ExpectMatrixNear(world[1], Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 2, 0, 1}));
  // Child · T(1,0,0) · S(2): at (1, 2, 0) + RotZ(90)·(1, 0, 0) = (1, 3, 0), axes doubled.
  ExpectMatrixNear(world[0], Columns({0, 2, 0, 0}, {-2, 0, 0, 0}, {0, 0, 2, 0}, {1, 3, 0, 1}));
}

TEST(SceneTransformsJob, TheTransformComesFromThePoseNotTheNode) {
  std::vector<Node> nodes(2);
  nodes[1].parent = 0;
  ScenePose pose = PoseOf(nodes);
  pose.translations[0] = {0, 0, 5};
  pose.scales[1] = {3, 1, 1};
  const std::vector<Float4x4> world = WorldOf(nodes, pose);
  ExpectMatrixNear(world[1], Columns({3, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 5, 1}));
}

TEST(SceneTransformsJob, AMatrixNodeKeepsItsMatrixWhateverThePoseSays) {
  std::vector<Node> nodes(2);
  nodes[0].has_matrix = true;
  nodes[0].matrix = Move(4, 0, 0);
  nodes[1].parent = 0;
  nodes[1].translation = {0, 1, 0};
  ScenePose pose = PoseOf(nodes);
  pose.translations[0] = {-100, -100, -100};
  const std::vector<Float4x4> world = WorldOf(nodes, pose);
  ExpectMatrixNear(world[0], Move(4, 0, 0));
  ExpectMatrixNear(world[1], Move(4, 1, 0));
}

// The scene draws node 0 (a skinned mesh) only; the skeleton, node 1 -> node 2, is a separate
// root that no scene lists (glTF allows joints outside the scene's node tree). Its matrices are
// evaluated all the same and skin the mesh.
TEST(SceneTransformsJob, JointsOutsideTheScenesNodeTreeAreEvaluatedAndSkin) {
  Asset a;
  a.nodes.resize(3);
  a.nodes[0].mesh = 0;
  a.nodes[0].skin = 0;
  a.nodes[1].translation = {0, 5, 0};
  a.SetChildren(1, {2});
  a.nodes[2].parent = 1;
  a.nodes[2].translation = {1, 0, 0};
  a.nodes[2].rotation = RotZ(90);
  a.scenes.push_back({"", {0}});
  a.scene = 0;
  a.skins.push_back({"", {2}, {Move(0, 0, 0)}, -1, {}, {}});
  Primitive p;
  p.positions = {1, 0, 0};
  p.influences.influences_per_vertex = 4;
  p.influences.joints = {0, 0, 0, 0};
  p.influences.weights = {1, 0, 0, 0};
  a.meshes.push_back({"", {p}, {}, {}});
  EXPECT_EQ(DrawnNodes(a), (std::vector<uint32_t>{0}));  // the joints are not drawn

  auto scene = EvaluateScene(a);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  ExpectMatrixNear(scene->world[2],
                   Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 5, 0, 1}));
  auto palette = NodePalette(a, 0, scene->world);
  ASSERT_TRUE(palette.ok()) << palette.error().ToString();
  DeformedPrimitive out;
  ASSERT_TRUE(DeformPrimitive(a, 0, 0, scene->world, {}, *palette, &out).ok());
  // (1, 0, 0) turned 90° about Z is (0, 1, 0), at the joint's (1, 5, 0).
  ASSERT_EQ(out.positions.size(), 3u);
  EXPECT_NEAR(out.positions[0], 1, 1e-6f);
  EXPECT_NEAR(out.positions[1], 6, 1e-6f);
  EXPECT_NEAR(out.positions[2], 0, 1e-6f);
}

TEST(SceneTransformsJob, RejectsAMissingPoseAnOutputOfAnotherSizeAndACycle) {
  std::vector<Node> nodes(2);
  ScenePose pose = PoseOf(nodes);
  std::vector<Float4x4> world(2), short_world(1);
  SceneTransformsJob job;
  job.nodes = nodes;
  job.output = world;
  Status s = job.Run();
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "pose");

  job.pose = &pose;
  job.output = short_world;
  s = job.Run();
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "output");
  EXPECT_EQ(s.error().message, "output must have one matrix per node");

  nodes[0].parent = 1;
  nodes[1].parent = 0;
  job.nodes = nodes;
  job.output = world;
  s = job.Run();
  EXPECT_EQ(s.code(), Error::kInvalidHierarchy);
  EXPECT_EQ(s.error().where, "nodes/0");
}

}  // namespace
}  // namespace sinew::cpu
