// The CPU reference on whole assets (docs/semantics.md, "Palettes", "Dense skinning",
// "Pose evaluation"): SimpleSkin's clip against values worked out by hand, every shared skinned
// asset posed at its bind pose through the pose evaluation, an unskinned node in its world space, a
// G4MF blend shape driven by blendAmounts (and by weights set through the API) as computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "cpu/g4mf_blend_triangle.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/cpu/bind_pose_job.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/scene_transforms_job.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::cpu {
namespace {

constexpr float kPi = 3.14159265358979f;

DeformedPrimitive Deform(const Asset& a, const EvaluatedScene& scene, uint32_t node,
                         uint32_t primitive) {
  std::vector<Float3x4> palette;
  if (a.nodes[node].skin >= 0) {
    auto p = NodePalette(a, node, scene.world);
    EXPECT_TRUE(p.ok()) << p.error().ToString();
    if (p.ok()) palette = std::move(p.value());
  }
  DeformedPrimitive out;
  const Status s =
      DeformPrimitive(a, node, primitive, scene.world, scene.pose.weights[node], palette, &out);
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

// SimpleSkin: two joints, node 1 at (0, 1, 0) and node 2 its child, rotated about Z by the clip;
// both inverse binds translate by (-0.5, -1, 0). Vertex p with weights (w0, w1) goes to
//   w0 · (p + (-0.5, 0, 0)) + w1 · (R(θ) · (p - (0.5, 1, 0)) + (0, 1, 0)).
// The clip's keys (every 0.5 s) are rotations about Z of about 0°, 45°, 90°, 90°, 45°, 0°, 0°,
// -45°, -90°, -90°, -45°, 0°, stored to three decimals (so not exactly unit): θ of a key is
// 2·atan2(z, w), and slerp between two keys about one axis is linear in that angle.
TEST(DeformAsset, SimpleSkinFollowsItsClipAsComputedByHand) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / "SimpleSkin/SimpleSkin.gltf");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  const Primitive& p = a.meshes[0].primitives[0];
  const std::span<const float> keys = a.animations[0].Output(a.animations[0].samplers[0]);
  const auto angle = [&](size_t key) {
    return 2 * std::atan2(keys[key * 4 + 2], keys[key * 4 + 3]);
  };
  const struct {
    float time;
    size_t key;      // the key at or before the time
    float fraction;  // of the way to the next key
  } kCases[] = {{0, 0, 0},        {0.25f, 0, 0.5f}, {1.0f, 2, 0},
                {1.25f, 2, 0.5f}, {3.75f, 7, 0.5f}, {10, 11, 0}};
  for (const auto& c : kCases) {
    auto scene = EvaluateScene(a, 0, c.time);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    const DeformedPrimitive out = Deform(a, *scene, 0, 0);
    const float th = c.fraction == 0
                         ? angle(c.key)
                         : angle(c.key) + c.fraction * (angle(c.key + 1) - angle(c.key));
    const float co = std::cos(th), si = std::sin(th);
    for (size_t v = 0; v < p.vertex_count(); ++v) {
      const float x = p.positions[v * 3], y = p.positions[v * 3 + 1];
      float w0 = 0, w1 = 0;
      for (size_t k = 0; k < 4; ++k) {
        (p.influences.joints[v * 4 + k] == 0 ? w0 : w1) += p.influences.weights[v * 4 + k];
      }
      const float rx = x - 0.5f, ry = y - 1.0f;
      const float ex = w0 * (x - 0.5f) + w1 * (co * rx - si * ry);
      const float ey = w0 * y + w1 * (si * rx + co * ry + 1.0f);
      EXPECT_NEAR(out.positions[v * 3], ex, 1e-5f) << "t " << c.time << " vertex " << v;
      EXPECT_NEAR(out.positions[v * 3 + 1], ey, 1e-5f) << "t " << c.time << " vertex " << v;
      EXPECT_NEAR(out.positions[v * 3 + 2], 0, 1e-6f);
    }
  }
}

// The mesh as bound, through the whole pose evaluation: every skin's joints posed by BindPoseJob
// into the pose its inverse bind matrices describe (InverseBindPose: joint j at inverse(IBM_j);
// the job writes joint-local T/R/S solved against the nodes above, armatures with their own
// transforms included), then SceneTransformsJob composes the scene matrices parents first,
// SkinInstancePaletteJob makes world · IBM and the skinning jobs deform. The output must be the
// input positions and normals (≤ 1e-5 × extent, 1e-5), which holds only if the TRS split and
// recomposition, the hierarchy walk and the palette product all agree. Where the file's own rest
// pose is its bind pose (`rest_is_bind`), the plain rest pose must give the input too, with no
// bind pose job at all; where it is not, the check that it is not keeps the flag honest.
struct BindPoseCase {
  const char* file;
  bool rest_is_bind;
};

class BindPoseIdentity : public ::testing::TestWithParam<BindPoseCase> {};

float MaxDeviation(const std::vector<float>& a, const std::vector<float>& b) {
  float m = a.size() == b.size() ? 0.0f : INFINITY;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

TEST_P(BindPoseIdentity, EveryJointPosedAtItsBindMatrixReturnsTheRestMesh) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / GetParam().file);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  ScenePose rest = RestPose(a);
  for (auto& w : rest.weights) std::fill(w.begin(), w.end(), 0.0f);
  auto rest_world = SceneTransforms(a, rest);
  ASSERT_TRUE(rest_world.ok());
  size_t checked = 0;
  float rest_deviation = 0;
  for (uint32_t n : DrawnNodes(a)) {
    if (a.nodes[n].skin < 0 || a.nodes[n].mesh < 0) continue;
    Skin skin = a.skins[size_t(a.nodes[n].skin)];
    auto bound = InverseBindPose(skin);
    ASSERT_TRUE(bound.ok()) << bound.error().ToString();
    skin.bind_poses = {*bound};
    // A pose cannot move a matrix node (the assimp quads' joints are matrices): as T/R/S here.
    EvaluatedScene posed{rest, {}};
    std::vector<Node> nodes = a.nodes;
    MatrixNodesToTrs(nodes, &posed.pose);
    BindPoseJob job;
    job.nodes = nodes;
    job.skin = &skin;
    job.type = PoseType::kCustom;
    job.pose = &posed.pose;
    const Status posed_status = job.Run();
    ASSERT_TRUE(posed_status.ok()) << "node " << n << ": " << posed_status.error().ToString();
    posed.world.resize(nodes.size());
    SceneTransformsJob transforms;
    transforms.nodes = nodes;
    transforms.pose = &posed.pose;
    transforms.output = posed.world;
    ASSERT_TRUE(transforms.Run().ok());
    const EvaluatedScene at_rest{rest, *rest_world};
    const Mesh& mesh = a.meshes[size_t(a.nodes[n].mesh)];
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& p = mesh.primitives[k];
      SCOPED_TRACE("node " + std::to_string(n) + " primitive " + std::to_string(k));
      const float extent = BoundsDiagonal(p.positions);
      const DeformedPrimitive out = Deform(a, posed, n, k);
      EXPECT_LE(MaxDeviation(out.positions, p.positions), 1e-5f * extent);
      EXPECT_LE(MaxDeviation(out.normals, p.normals), 1e-5f);
      const DeformedPrimitive from_rest = Deform(a, at_rest, n, k);
      rest_deviation = std::max(
          rest_deviation, MaxDeviation(from_rest.positions, p.positions) / std::max(extent, 1e-6f));
      ++checked;
    }
  }
  EXPECT_GT(checked, 0u);
  if (GetParam().rest_is_bind) {
    EXPECT_LE(rest_deviation, 1e-5f) << "the rest pose should skin to the input";
  } else {
    EXPECT_GT(rest_deviation, 1e-3f) << "the rest pose skins to the input: set rest_is_bind";
  }
}

INSTANTIATE_TEST_SUITE_P(
    SharedAssets, BindPoseIdentity,
    ::testing::Values(BindPoseCase{"Fox/Fox.glb", true},
                      BindPoseCase{"CesiumMan/CesiumMan.glb", false},
                      BindPoseCase{"SimpleSkin/SimpleSkin.gltf", false},
                      BindPoseCase{"three_RobotExpressive/RobotExpressive.glb", false},
                      BindPoseCase{"assimp_simple_skin/quad_skin.glb", false},
                      BindPoseCase{"assimp_simple_skin/simple_skin.gltf", false},
                      BindPoseCase{"synthetic/SimpleSkin_interp_bindpose.gltf", false},
                      BindPoseCase{"synthetic/quad_skin_posed.glb", false}),
    [](const ::testing::TestParamInfo<BindPoseCase>& param) {
      std::string name = param.param.file;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(DeformAsset, AnUnskinnedNodeIsOutputInItsWorldSpace) {
  Asset a;
  a.nodes.resize(2);
  a.SetChildren(0, {1});
  a.nodes[0].translation = {2, 0, 0};
  a.nodes[1].parent = 0;
  a.nodes[1].rotation = AxisAngle(0, 0, 1, kPi / 2);  // 90° about Z
  a.nodes[1].scale = {2, 1, 1};
  a.nodes[1].mesh = 0;
  Primitive p;
  p.positions = {1, 0, 0, 0, 1, 0};
  p.normals = {1, 0, 0, 0, 1, 0};
  a.meshes.push_back({"m", {p}, {}, {}});
  auto scene = EvaluateScene(a);
  ASSERT_TRUE(scene.ok());
  const DeformedPrimitive out = Deform(a, *scene, 1, 0);
  // (1,0,0) -> scale (2,0,0) -> rotate (0,2,0) -> translate (2,2,0); (0,1,0) -> (-1,0,0) ->
  // (1,0,0).
  const float expected[] = {2, 2, 0, 1, 0, 0};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(out.positions[size_t(i)], expected[i], 1e-6f);
  // Normals by the inverse transpose: x stays along the rotated x axis, y along the rotated y.
  const float normals[] = {0, 1, 0, -1, 0, 0};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(out.normals[size_t(i)], normals[i], 1e-6f);
}

TEST(DeformAsset, DrawsTheDefaultScenesTreesParentsFirst) {
  Asset a;
  a.nodes.resize(4);
  a.SetChildren(2, {0});
  a.nodes[0].parent = 2;
  a.scenes.push_back({"", {2}});
  a.scene = 0;
  EXPECT_EQ(DrawnNodes(a), (std::vector<uint32_t>{2, 0}));
  a.scene = -1;  // no default scene: every root
  EXPECT_EQ(DrawnNodes(a), (std::vector<uint32_t>{1, 2, 3, 0}));
}

// RobotExpressive draws skinned meshes of several primitives under one skin, and its
// SimpleSkin-like peers one skinned node each: DrawnMeshes lists every node with a mesh, with the
// palette its primitives share (NodePalette's size), and a rigid node with one entry.
TEST(DeformAsset, DrawnMeshesAreTheNodesWithAMeshAndTheirPaletteSizes) {
  auto robot =
      loader::LoadGltf(testing::TestAssets() / "three_RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(robot.ok()) << robot.error().ToString();
  const Asset& a = robot->asset;
  const std::vector<DrawnMesh> drawn = DrawnMeshes(a);
  std::vector<uint32_t> with_mesh;
  for (uint32_t n : DrawnNodes(a)) {
    if (a.nodes[n].mesh >= 0) with_mesh.push_back(n);
  }
  ASSERT_EQ(drawn.size(), with_mesh.size());
  bool several_primitives = false;
  for (size_t i = 0; i < drawn.size(); ++i) {
    const DrawnMesh& d = drawn[i];
    EXPECT_EQ(d.node, with_mesh[i]);
    EXPECT_EQ(int32_t(d.mesh), a.nodes[d.node].mesh);
    EXPECT_EQ(d.skin, a.nodes[d.node].skin);
    auto scene = EvaluateScene(a);
    ASSERT_TRUE(scene.ok());
    auto palette = InstancePalette(a, d.node, scene->world);
    ASSERT_TRUE(palette.ok());
    EXPECT_EQ(d.palette_size, palette->size());
    several_primitives |= d.skin >= 0 && a.meshes[d.mesh].primitives.size() > 1;
  }
  EXPECT_TRUE(several_primitives) << "a skin shared by the primitives of a mesh";
  Asset rigid;
  rigid.nodes.resize(1);
  rigid.nodes[0].mesh = 0;
  rigid.meshes.push_back({"m", {}, {}, {}});
  ASSERT_EQ(DrawnMeshes(rigid).size(), 1u);
  EXPECT_EQ(DrawnMeshes(rigid)[0].palette_size, 1u);
  EXPECT_EQ(DrawnMeshes(rigid)[0].skin, -1);
  EXPECT_EQ(NodePaletteSize(rigid, 0), 0u);
}

// The G4MF blend triangle (cpu/g4mf_blend_triangle.h): the node's blendAmounts (0.5), the mesh's
// amounts for a node without them (0.25), and weights given to DeformPrimitive (0, -1, 2), at rest
// and with Hips turned.
TEST(DeformAsset, AG4mfBlendShapeFollowsItsAmountsAsComputedByHand) {
  auto loaded = testing::LoadG4mfBlendTriangle();
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  for (const bool posed : {false, true}) {
    Asset a = loaded->asset;
    if (posed) testing::PoseHips(&a);
    auto scene = EvaluateScene(a);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    for (const testing::BlendTriangleCase& c : testing::BlendTriangleCases()) {
      SCOPED_TRACE("posed " + std::to_string(posed) + " node " + std::to_string(c.node) +
                   " amount " + std::to_string(c.amount));
      auto palette = NodePalette(a, c.node, scene->world);
      ASSERT_TRUE(palette.ok()) << palette.error().ToString();
      const std::vector<float>& weights =
          c.weights.empty() ? scene->pose.weights[c.node] : c.weights;
      DeformedPrimitive out;
      ASSERT_TRUE(DeformPrimitive(a, c.node, 0, scene->world, weights, *palette, &out).ok());
      const testing::BlendTriangle expected = testing::ExpectedBlendTriangle(c.amount, posed);
      ASSERT_EQ(out.positions.size(), expected.positions.size());
      ASSERT_EQ(out.normals.size(), expected.normals.size());
      for (size_t i = 0; i < expected.positions.size(); ++i) {
        EXPECT_NEAR(out.positions[i], expected.positions[i], 1e-6f) << i;
        EXPECT_NEAR(out.normals[i], expected.normals[i], 1e-6f) << i;
      }
    }
  }
}

// A node's morph weights are one per morph target, or none (no morphing): a list of another length
// is refused, where it used to leave the mesh unmorphed without a word.
TEST(DeformAsset, RefusesMorphWeightsOfAnotherCountThanTheMorphTargets) {
  auto loaded = testing::LoadG4mfBlendTriangle();
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  auto scene = EvaluateScene(a);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const testing::BlendTriangleCase c = testing::BlendTriangleCases().front();
  auto palette = NodePalette(a, c.node, scene->world);
  ASSERT_TRUE(palette.ok()) << palette.error().ToString();
  std::vector<float> weights = scene->pose.weights[c.node];
  ASSERT_FALSE(weights.empty());
  DeformedPrimitive out;
  EXPECT_TRUE(DeformPrimitive(a, c.node, 0, scene->world, weights, *palette, &out).ok());
  EXPECT_TRUE(DeformPrimitive(a, c.node, 0, scene->world, {}, *palette, &out).ok());
  weights.push_back(1.0f);
  const Status more = DeformPrimitive(a, c.node, 0, scene->world, weights, *palette, &out);
  EXPECT_EQ(more.code(), Error::kSizeMismatch);
  EXPECT_EQ(more.error().where, "weights");
  EXPECT_EQ(MorphPrimitive(a, c.node, 0, weights, &out).code(), Error::kSizeMismatch);
}

}  // namespace
}  // namespace sinew::cpu
