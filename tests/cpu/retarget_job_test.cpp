#include "sinew/cpu/retarget_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cpu/rig_fixture.h"
#include "sinew/cpu/bind_pose_job.h"

// Retargeting between skeletons built in the test, against results worked out by hand
// (docs/retargeting.md): rotations away from the common reference carry over in scene space, the
// target keeps its own bone lengths and rest orientations, joints missing on either side, the
// root displacement scaled by the height ratio, and every validation error.

namespace sinew::cpu {
namespace {

using testing::At;
using testing::ExpectMatrixNear;
using testing::ExpectNear;
using testing::ExpectSameRotation;
using testing::kPi;
using testing::Rig;
using testing::RotX;
using testing::RotY;
using testing::RotZ;
using testing::World;

const float kHalfSqrt2 = std::sqrt(0.5f);

// The rig in its own bind pose of `type`: where a test starts a source pose from.
ScenePose ReferencePose(Rig& rig, PoseType type = PoseType::kTPose) {
  ScenePose pose = RestPose(rig.asset);
  BindPoseJob job;
  job.nodes = rig.asset.nodes;
  job.skin = &rig.skin();
  job.type = type;
  job.pose = &pose;
  EXPECT_TRUE(job.Run().ok());
  return pose;
}

RetargetJob Job(Rig& a, const ScenePose& source, Rig& b, ScenePose* target,
                RootTranslation mode = RootTranslation::kScaledByHeight) {
  RetargetJob job;
  job.source_nodes = a.asset.nodes;
  job.source_skin = &a.skin();
  job.source_pose = &source;
  job.target_nodes = b.asset.nodes;
  job.target_skin = &b.skin();
  job.target_pose = target;
  job.reference = a.type;
  job.root_translation = mode;
  return job;
}

// Skeleton A: Hips (0, 1, 0) -> Spine (0, 1.5, 0) -> Head (0, 2, 0), nodes 0, 1, 2.
Rig ChainA() {
  Rig rig;
  rig.AddJoint("Hips", -1, At({0, 1, 0}));
  rig.AddJoint("Spine", 0, At({0, 1.5f, 0}));
  rig.AddJoint("Head", 1, At({0, 2, 0}));
  return rig;
}

// Skeleton B: the same joints, twice as tall with bones twice as long.
Rig ChainB() {
  Rig rig;
  rig.AddJoint("Hips", -1, At({0, 2, 0}));
  rig.AddJoint("Spine", 0, At({0, 3, 0}));
  rig.AddJoint("Head", 1, At({0, 4, 0}));
  return rig;
}

// (b) Different bone lengths.

TEST(RetargetJob, CarriesRotationsOverAndKeepsTheTargetsBoneLengths) {
  Rig a = ChainA(), b = ChainB();
  ScenePose source = ReferencePose(a);
  source.rotations[1] = RotZ(90);  // A's spine turned 90 degrees about Z: the head goes to -x
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  ExpectMatrixNear(world[0], At({0, 2, 0}));
  ExpectMatrixNear(world[1], At({0, 3, 0}, RotZ(90)));
  // B's head is B's spine length (1, not A's 0.5) from the spine, along the turned +y: -x.
  ExpectMatrixNear(world[2], At({-1, 3, 0}, RotZ(90)));
  ExpectNear(target.translations[1], {0, 1, 0});
  ExpectNear(target.translations[2], {0, 1, 0});
}

TEST(RetargetJob, ComposesRotationsDownTheChain) {
  Rig a = ChainA(), b = ChainB();
  ScenePose source = ReferencePose(a);
  source.rotations[0] = RotY(90);
  source.rotations[1] = RotZ(90);
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  const Quat both = Multiply(RotY(90), RotZ(90));
  ExpectMatrixNear(world[0], At({0, 2, 0}, RotY(90)));
  ExpectMatrixNear(world[1], At({0, 3, 0}, both));
  // (0, 1, 0) turned by RotZ(90) is (-1, 0, 0), by RotY(90) then (0, 0, 1).
  ExpectMatrixNear(world[2], At({0, 3, 1}, both));
}

// (c) Different rest orientations: A's reference has the arm lowered 45 degrees (an A-pose) with
// the joint frames along the bone; B's has the arm horizontal (a T-pose) with the joint frames
// turned 90 degrees about X. Both poses are tagged Custom, the common reference.

Rig ArmA() {
  Rig rig(PoseType::kCustom);
  rig.AddJoint("Hips", -1, At({0, 1, 0}));
  rig.AddJoint("Arm", 0, At({0.2f, 1.5f, 0}, RotZ(-45)));
  rig.AddJoint("Hand", 1, At({0.2f + 0.5f * kHalfSqrt2, 1.5f - 0.5f * kHalfSqrt2, 0}, RotZ(-45)));
  return rig;
}

Rig ArmB() {
  Rig rig(PoseType::kCustom);
  rig.AddJoint("Hips", -1, At({0, 2, 0}));
  rig.AddJoint("Arm", 0, At({0.3f, 1.8f, 0}, RotX(90)));
  rig.AddJoint("Hand", 1, At({0.9f, 1.8f, 0}, RotX(90)));
  return rig;
}

TEST(RetargetJob, GivesTheTargetsReferenceForTheSourcesReference) {
  Rig a = ArmA(), b = ArmB();
  const ScenePose source = ReferencePose(a, PoseType::kCustom);
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  for (size_t j = 0; j < 3; ++j) {
    SCOPED_TRACE("joint " + std::to_string(j));
    ExpectMatrixNear(world[b.skin().joints[j]], b.skin().bind_poses[0].matrices[j]);
  }
}

TEST(RetargetJob, RaisesTheTargetsArmAboutTheSameModelAxisAsTheSources) {
  Rig a = ArmA(), b = ArmB();
  ScenePose source = ReferencePose(a, PoseType::kCustom);
  source.rotations[1] = RotZ(-15);  // 30 degrees up from A's -45 (the hips are not turned)
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  const Quat raised = Multiply(RotZ(30), RotX(90));  // 30 degrees about Z from B's reference
  ExpectMatrixNear(world[1], At({0.3f, 1.8f, 0}, raised));
  // B's 0.6 forearm, 30 degrees above horizontal.
  ExpectMatrixNear(
      world[2], At({0.3f + 0.6f * std::cos(kPi / 6), 1.8f + 0.6f * std::sin(kPi / 6), 0}, raised));
}

TEST(RetargetJob, TwistsTheTargetsArmAboutTheSameModelAxisAsTheSources) {
  // 30 degrees about A's arm direction a = (√½, -√½, 0), a model axis.
  Rig a = ArmA(), b = ArmB();
  const Quat twist = AxisAngle(kHalfSqrt2, -kHalfSqrt2, 0, kPi / 6);
  ScenePose source = ReferencePose(a, PoseType::kCustom);
  source.rotations[1] = Multiply(twist, RotZ(-45));
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  // B's arm is 30 degrees about the same axis from B's reference.
  Quat arm;
  ASSERT_TRUE(DecomposeTrs(world[1], nullptr, &arm, nullptr));
  ExpectSameRotation(Multiply(arm, Conjugate(RotX(90))), twist);
  // The hand: (0.6, 0, 0) about a by 30 degrees (Rodrigues): the part along a, (0.3, -0.3, 0),
  // stays; the rest, (0.3, 0.3, 0), shrinks by cos 30; a × v = (0, 0, 0.6·√½) comes in by sin 30.
  const float c = std::cos(kPi / 6);
  ExpectNear(Float3{world[2].m[3][0], world[2].m[3][1], world[2].m[3][2]},
             {0.3f + 0.3f + 0.3f * c, 1.8f - 0.3f + 0.3f * c, 0.3f * kHalfSqrt2});
}

// (d) Missing joints. A has a Tail B lacks; B has a Neck A lacks, whose reference frame is turned
// 30 degrees about X.

Rig TailedA() {
  Rig rig = ChainA();
  rig.AddJoint("Tail", 1, At({0, 1.5f, -0.5f}));  // node 3
  return rig;
}

Rig NeckedB() {
  Rig rig;
  rig.AddJoint("Hips", -1, At({0, 2, 0}));
  rig.AddJoint("Spine", 0, At({0, 3, 0}));
  rig.AddJoint("Neck", 1, At({0, 3.5f, 0}, RotX(30)));
  rig.AddJoint("Head", 2, At({0, 4, 0}));
  return rig;
}

TEST(RetargetJob, KeepsAnUnmatchedJointsReferenceOrientationRelativeToItsRetargetedParent) {
  Rig a = TailedA(), b = NeckedB();
  ScenePose source = ReferencePose(a);
  source.rotations[1] = RotZ(90);
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  ExpectMatrixNear(world[1], At({0, 3, 0}, RotZ(90)));
  // The neck: its reference local (30 degrees about X, 0.5 up) under the turned spine.
  ExpectSameRotation(target.rotations[2], RotX(30));
  ExpectMatrixNear(world[2], At({-0.5f, 3, 0}, Multiply(RotZ(90), RotX(30))));
  // The head is matched: A's head is turned 90 degrees about Z from its reference, so is B's. Its
  // reference offset from the neck, (0, 0.5, 0) in the scene, turns with the spine to (-0.5, 0, 0).
  ExpectMatrixNear(world[3], At({-1, 3, 0}, RotZ(90)));
}

TEST(RetargetJob, IgnoresASourceJointTheTargetLacks) {
  Rig a = TailedA(), b = NeckedB();
  ScenePose source = ReferencePose(a);
  source.rotations[1] = RotZ(90);
  ScenePose first = RestPose(b.asset), second = RestPose(b.asset);
  source.rotations[3] = RotX(77);
  ASSERT_TRUE(Job(a, source, b, &first).Run().ok());
  source.rotations[3] = RotY(-120);
  source.translations[3] = {5, 5, 5};
  ASSERT_TRUE(Job(a, source, b, &second).Run().ok());
  for (size_t n = 0; n < b.asset.nodes.size(); ++n) {
    ExpectNear(first.translations[n], second.translations[n], 0);
    EXPECT_EQ(first.rotations[n].x, second.rotations[n].x);
    EXPECT_EQ(first.rotations[n].y, second.rotations[n].y);
    EXPECT_EQ(first.rotations[n].z, second.rotations[n].z);
    EXPECT_EQ(first.rotations[n].w, second.rotations[n].w);
  }
}

TEST(RetargetJob, LeavesAnUnnamedJointUnmatched) {
  Rig a = ChainA(), b = ChainB();
  a.asset.nodes[1].name.clear();  // two unnamed source joints: allowed, they match nothing
  a.asset.nodes[2].name.clear();
  b.asset.nodes[1].name.clear();
  ScenePose source = ReferencePose(a);
  source.rotations[1] = RotZ(90);
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  ExpectMatrixNear(world[1], At({0, 3, 0}));  // unmatched: the hips' (identity) delta
  ExpectMatrixNear(world[2], At({0, 4, 0}));  // "Head" has no source of that name any more
}

// (e) Root translation.

TEST(RetargetJob, ScalesTheRootDisplacementByTheRatioOfTheReferenceHeights) {
  Rig a = ChainA(), b = ChainB();
  ScenePose source = ReferencePose(a);
  source.translations[0] = {0.5f, 1.25f, 0.25f};  // (0.5, 0.25, 0.25) from A's reference
  ScenePose target = RestPose(b.asset);
  // h_B / h_A = 2 / 1.
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  std::vector<Float4x4> world = World(b.asset, target);
  ExpectMatrixNear(world[0], At({1, 2.5f, 0.5f}));
  ExpectMatrixNear(world[2], At({1, 4.5f, 0.5f}));  // the rest of B follows at B's lengths
  ASSERT_TRUE(Job(a, source, b, &target, RootTranslation::kUnscaled).Run().ok());
  world = World(b.asset, target);
  ExpectMatrixNear(world[0], At({0.5f, 2.25f, 0.25f}));
  ASSERT_TRUE(Job(a, source, b, &target, RootTranslation::kReference).Run().ok());
  world = World(b.asset, target);
  ExpectMatrixNear(world[0], At({0, 2, 0}));
}

TEST(RetargetJob, UsesTheRatioOneWhenAReferenceHeightIsZero) {
  Rig a;  // A's hips on the ground
  a.AddJoint("Hips", -1, At({0, 0, 0}));
  a.AddJoint("Spine", 0, At({0, 0.5f, 0}));
  Rig b = ChainB();
  ScenePose source = ReferencePose(a);
  source.translations[0] = {0.5f, 0.25f, 0};
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  ExpectMatrixNear(World(b.asset, target)[0], At({0.5f, 2.25f, 0}));
}

TEST(RetargetJob, MovesTheTopmostMatchedJointInSceneSpaceUnderAnArmature) {
  // B: a scaled, turned armature node, then an unmatched Root joint on the ground, then the chain.
  // The hips are B's topmost matched joint: they take the displacement; the Root, with no matched
  // joint above it, stays at its reference.
  Rig a = ChainA();
  Rig b;
  const uint32_t armature = b.AddNode("Armature", -1, {1, 0, 0}, RotX(-90), {0.01f, 0.01f, 0.01f});
  const uint32_t root = b.AddJoint("Root", int32_t(armature), At({0, 0, 0}));
  const uint32_t hips = b.AddJoint("Hips", int32_t(root), At({0, 2, 0}));
  const uint32_t spine = b.AddJoint("Spine", int32_t(hips), At({0, 3, 0}));
  const uint32_t head = b.AddJoint("Head", int32_t(spine), At({0, 4, 0}));
  ScenePose source = ReferencePose(a);
  source.translations[0] = {0.5f, 1.25f, 0.25f};
  source.rotations[1] = RotZ(90);
  ScenePose target = RestPose(b.asset);
  ASSERT_TRUE(Job(a, source, b, &target).Run().ok());
  const std::vector<Float4x4> world = World(b.asset, target);
  ExpectMatrixNear(world[root], At({0, 0, 0}), 1e-4f);
  ExpectMatrixNear(world[hips], At({1, 2.5f, 0.5f}), 1e-4f);
  ExpectMatrixNear(world[spine], At({1, 3.5f, 0.5f}, RotZ(90)), 1e-4f);
  ExpectMatrixNear(world[head], At({0, 3.5f, 0.5f}, RotZ(90)), 1e-4f);
  ExpectNear(target.translations[armature], {1, 0, 0}, 0);
}

// (f) Validation: the exact code and where.

void ExpectError(const RetargetJob& job, Error code, const std::string& where) {
  const Status validated = job.Validate();
  EXPECT_EQ(validated.code(), code) << validated.error().ToString();
  EXPECT_EQ(validated.error().where, where);
  const Status ran = job.Run();
  EXPECT_EQ(ran.code(), code);
  EXPECT_EQ(ran.error().where, where);
}

struct Fixture {
  Rig a = ChainA(), b = ChainB();
  ScenePose source = RestPose(a.asset), target = RestPose(b.asset);
  RetargetJob job() { return Job(a, source, b, &target); }
};

TEST(RetargetJob, RequiresBothSkinsAndBothPoses) {
  Fixture f;
  RetargetJob job = f.job();
  job.source_skin = nullptr;
  ExpectError(job, Error::kInvalidArgument, "source/skin");
  job = f.job();
  job.source_pose = nullptr;
  ExpectError(job, Error::kInvalidArgument, "source/pose");
  job = f.job();
  job.target_skin = nullptr;
  ExpectError(job, Error::kInvalidArgument, "target/skin");
  job = f.job();
  job.target_pose = nullptr;
  ExpectError(job, Error::kInvalidArgument, "target/pose");
}

TEST(RetargetJob, RejectsPosesSizedForAnotherAsset) {
  Fixture f;
  f.source.scales.pop_back();
  ExpectError(f.job(), Error::kSizeMismatch, "source/pose");
  Fixture g;
  g.target.translations.push_back({});
  ExpectError(g.job(), Error::kSizeMismatch, "target/pose");
}

TEST(RetargetJob, RejectsACycleInEitherHierarchy) {
  Fixture f;
  f.b.asset.nodes[0].parent = 2;
  ExpectError(f.job(), Error::kInvalidHierarchy, "target/nodes/0");
  Fixture g;
  g.a.asset.nodes[1].parent = 7;
  ExpectError(g.job(), Error::kInvalidHierarchy, "source/nodes/1");
}

TEST(RetargetJob, RejectsAJointThatIsNotANode) {
  Fixture f;
  f.a.skin().joints[2] = 3;
  ExpectError(f.job(), Error::kJointIndexOutOfRange, "source/joints/2");
}

TEST(RetargetJob, RejectsATargetJointThatIsAMatrixNode) {
  Fixture f;
  f.b.asset.nodes[1].has_matrix = true;
  ExpectError(f.job(), Error::kUnsupportedFeature, "target/joints/1");
}

TEST(RetargetJob, AcceptsASourceJointThatIsAMatrixNode) {
  // Only read: A's spine held at its reference by its matrix, whatever the pose says.
  Fixture f;
  f.a.asset.nodes[1].has_matrix = true;
  f.a.asset.nodes[1].matrix = At({0, 0.5f, 0});
  // (BindPoseJob cannot pose a matrix node: the hips and head are put in place by hand.)
  f.source.translations[0] = {0, 1, 0};
  f.source.rotations[0] = {};
  f.source.scales[0] = {1, 1, 1};
  f.source.translations[2] = {0, 0.5f, 0};
  f.source.rotations[2] = RotZ(90);
  f.source.scales[2] = {1, 1, 1};
  ASSERT_TRUE(f.job().Run().ok());
  const std::vector<Float4x4> world = World(f.b.asset, f.target);
  ExpectMatrixNear(world[1], At({0, 3, 0}));
  ExpectMatrixNear(world[2], At({0, 4, 0}, RotZ(90)));
}

TEST(RetargetJob, NamesTheReferenceTypeMissingFromEitherSkin) {
  Fixture f;
  RetargetJob job = f.job();
  job.reference = PoseType::kAPose;
  ExpectError(job, Error::kInvalidArgument, "source/bind_poses");
  EXPECT_NE(job.Validate().error().message.find("APose"), std::string::npos);
  f.a.skin().bind_poses.push_back({PoseType::kAPose, f.a.skin().bind_poses[0].matrices});
  ExpectError(job, Error::kInvalidArgument, "target/bind_poses");
  EXPECT_NE(job.Validate().error().message.find("APose"), std::string::npos);
}

TEST(RetargetJob, RejectsAReferenceWithoutOneMatrixPerJoint) {
  Fixture f;
  f.a.skin().bind_poses[0].matrices.push_back({});
  ExpectError(f.job(), Error::kSizeMismatch, "source/matrices");
}

TEST(RetargetJob, RejectsANonFiniteReferenceMatrix) {
  Fixture f;
  f.b.skin().bind_poses[0].matrices[1].m[0][0] = std::numeric_limits<float>::infinity();
  ExpectError(f.job(), Error::kNonFiniteValue, "target/matrices/1");
}

TEST(RetargetJob, RejectsAReferenceMatrixWithShear) {
  Fixture f;
  f.a.skin().bind_poses[0].matrices[0].m[2] = {0, 0.5f, 1, 0};
  ExpectError(f.job(), Error::kUnsupportedFeature, "source/matrices/0");
}

TEST(RetargetJob, RejectsTwoSourceJointsWithTheSameName) {
  Fixture f;
  f.a.asset.nodes[2].name = "Hips";
  ExpectError(f.job(), Error::kInvalidArgument, "source/joints/2");
}

TEST(RetargetJob, RejectsAnUnknownRootTranslationMode) {
  Fixture f;
  RetargetJob job = f.job();
  job.root_translation = static_cast<RootTranslation>(7);
  ExpectError(job, Error::kInvalidArgument, "root_translation");
}

TEST(RetargetJob, RejectsASourceSceneMatrixWithShear) {
  // A's spine stretched along its y and its head turned inside that stretch: the head's scene
  // matrix has shear, so it has no rotation to take. Found while running.
  Fixture f;
  f.source = ReferencePose(f.a);
  f.source.scales[1] = {1, 2, 1};
  f.source.rotations[2] = RotZ(45);
  RetargetJob job = f.job();
  EXPECT_TRUE(job.Validate().ok());
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(status.error().where, "source/nodes/2");
}

TEST(RetargetJob, RejectsATargetParentWhoseSceneMatrixHasShear) {
  // B's armature stretches y; the retargeted hips turn 45 degrees inside it, so the spine's parent
  // frame has shear.
  Rig a = ChainA();
  Rig b;
  const uint32_t armature = b.AddNode("Armature", -1, {}, {}, {1, 2, 1});
  const uint32_t hips = b.AddJoint("Hips", int32_t(armature), At({0, 2, 0}));
  b.AddJoint("Spine", int32_t(hips), At({0, 3, 0}));
  ScenePose source = ReferencePose(a);
  source.rotations[0] = RotZ(45);
  ScenePose target = RestPose(b.asset);
  const RetargetJob job = Job(a, source, b, &target);
  EXPECT_TRUE(job.Validate().ok());
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(status.error().where, "target/nodes/1");
}

}  // namespace
}  // namespace sinew::cpu
