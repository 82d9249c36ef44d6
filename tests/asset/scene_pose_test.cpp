#include "sinew/asset/scene_pose.h"

#include <gtest/gtest.h>

#include <vector>

// A pose checked against its nodes (ValidatePose: sizes, parents, cycles, with the exact error),
// and the rest pose's morph weights (node, then mesh defaults, then zeros).

namespace sinew {
namespace {

Asset ThreeNodes() {
  Asset a;
  a.nodes.resize(3);
  a.SetChildren(0, {1});
  a.nodes[1].parent = 0;
  return a;
}

void ExpectError(const Status& s, Error code, const std::string& where,
                 const std::string& message) {
  EXPECT_EQ(s.code(), code);
  EXPECT_EQ(s.error().where, where);
  EXPECT_EQ(s.error().message, message);
}

TEST(ValidatePose, AcceptsTheRestPoseOfAValidHierarchy) {
  const Asset a = ThreeNodes();
  const ScenePose pose = RestPose(a);
  EXPECT_TRUE(ValidatePose(a.nodes, &pose).ok());
}

TEST(ValidatePose, RejectsAMissingPoseAndEveryStreamOfAnotherSize) {
  const Asset a = ThreeNodes();
  const std::string message = "the pose must have one entry per node";
  ExpectError(ValidatePose(a.nodes, nullptr), Error::kSizeMismatch, "pose", message);
  for (int stream = 0; stream < 4; ++stream) {
    SCOPED_TRACE(stream);
    ScenePose pose = RestPose(a);
    if (stream == 0) pose.translations.pop_back();
    if (stream == 1) pose.rotations.pop_back();
    if (stream == 2) pose.scales.emplace_back();
    if (stream == 3) pose.weights.pop_back();
    ExpectError(ValidatePose(a.nodes, &pose), Error::kSizeMismatch, "pose", message);
  }
}

TEST(ValidatePose, RejectsAParentOutOfRangeAtTheNodeThatNamesIt) {
  Asset a = ThreeNodes();
  const ScenePose pose = RestPose(a);
  a.nodes[2].parent = 3;
  ExpectError(ValidatePose(a.nodes, &pose), Error::kInvalidHierarchy, "nodes/2",
              "parent out of range or a cycle");
}

TEST(ValidatePose, RejectsACycleAtTheFirstNodeOnIt) {
  Asset a = ThreeNodes();
  const ScenePose pose = RestPose(a);
  a.nodes[0].parent = 1;  // 0 -> 1 -> 0
  ExpectError(ValidatePose(a.nodes, &pose), Error::kInvalidHierarchy, "nodes/0",
              "parent out of range or a cycle");
  a.nodes[0].parent = -1;
  a.nodes[2].parent = 2;  // its own parent
  ExpectError(ValidatePose(a.nodes, &pose), Error::kInvalidHierarchy, "nodes/2",
              "parent out of range or a cycle");
}

TEST(RestPose, TakesMorphWeightsFromTheNodeThenTheMeshThenZeros) {
  Asset a = ThreeNodes();
  Primitive p;
  p.positions = {0, 0, 0};
  p.targets.resize(2);
  a.meshes.push_back({"", {p}, {0.25f, 0.5f}, {}});
  a.nodes[0].mesh = 0;
  a.nodes[0].weights = {1, 0.75f};
  a.nodes[1].mesh = 0;
  a.meshes.push_back({"", {p}, {}, {}});
  a.nodes[2].mesh = 1;
  a.nodes[2].translation = {1, 2, 3};
  const ScenePose pose = RestPose(a);
  EXPECT_EQ(pose.weights[0], (std::vector<float>{1, 0.75f}));
  EXPECT_EQ(pose.weights[1], (std::vector<float>{0.25f, 0.5f}));
  EXPECT_EQ(pose.weights[2], (std::vector<float>{0, 0}));
  EXPECT_EQ(pose.translations[2].y, 2);
}

}  // namespace
}  // namespace sinew
