// The CPU reference on whole assets (DESIGN.md §3, §4.1, §4.6): SimpleSkin's clip against values
// worked out by hand, every shared skinned asset at its bind pose, an unskinned node in its world
// space.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
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
  const std::vector<float>& keys = a.animations[0].samplers[0].output;
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

// Every joint at the inverse of its inverse bind matrix: skinning gives back the mesh as bound.
class BindPoseIdentity : public ::testing::TestWithParam<const char*> {};

TEST_P(BindPoseIdentity, EveryJointAtItsBindPoseReturnsTheRestMesh) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  auto scene = EvaluateScene(a);
  ASSERT_TRUE(scene.ok());
  for (auto& w : scene->pose.weights) std::fill(w.begin(), w.end(), 0.0f);
  size_t checked = 0;
  for (uint32_t n : DrawnNodes(a)) {
    if (a.nodes[n].skin < 0 || a.nodes[n].mesh < 0) continue;
    const Skin& skin = a.skins[size_t(a.nodes[n].skin)];
    EvaluatedScene bound = *scene;
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      ASSERT_TRUE(Invert(skin.inverse_binds[j], &bound.world[skin.joints[j]]));
    }
    const Mesh& mesh = a.meshes[size_t(a.nodes[n].mesh)];
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& p = mesh.primitives[k];
      const DeformedPrimitive out = Deform(a, bound, n, k);
      const float extent = BoundsDiagonal(p.positions);
      for (size_t i = 0; i < p.positions.size(); ++i) {
        ASSERT_NEAR(out.positions[i], p.positions[i], 1e-5f * extent) << "node " << n;
      }
      for (size_t i = 0; i < p.normals.size(); ++i) {
        ASSERT_NEAR(out.normals[i], p.normals[i], 1e-5f) << "node " << n;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, BindPoseIdentity,
                         ::testing::Values("Fox/Fox.glb", "CesiumMan/CesiumMan.glb",
                                           "SimpleSkin/SimpleSkin.gltf",
                                           "three_RobotExpressive/RobotExpressive.glb",
                                           "assimp_simple_skin/quad_skin.glb",
                                           "assimp_simple_skin/simple_skin.gltf",
                                           "synthetic/SimpleSkin_interp_bindpose.gltf",
                                           "synthetic/quad_skin_posed.glb"));

TEST(DeformAsset, AnUnskinnedNodeIsOutputInItsWorldSpace) {
  Asset a;
  a.nodes.resize(2);
  a.nodes[0].children = {1};
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
  a.nodes[2].children = {0};
  a.nodes[0].parent = 2;
  a.scenes.push_back({"", {2}});
  a.scene = 0;
  EXPECT_EQ(DrawnNodes(a), (std::vector<uint32_t>{2, 0}));
  a.scene = -1;  // no default scene: every root
  EXPECT_EQ(DrawnNodes(a), (std::vector<uint32_t>{1, 2, 3, 0}));
}

}  // namespace
}  // namespace sinew::cpu
