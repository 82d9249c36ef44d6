// The GPU path on real assets (DESIGN.md §9, issues 4 and 6): every primitive of every shared
// skinned or morphing asset, at four times of every clip, deformed by the fused GPU kernel
// (morph targets, then skinning or the node's transform as one rigid joint) == the CPU reference
// within 1e-5 x extent, as `sinew bake --device gpu` does it. And RobotExpressive's face shapes,
// which none of its clips drives, with weights set through the API.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/gltf.h"
#include "sinew/vk/deform_once.h"
#include "test_assets.h"

namespace sinew {
namespace {

class AssetDeformGpu : public testing::GpuTest,
                       public ::testing::WithParamInterface<const char*> {};

TEST_P(AssetDeformGpu, EveryPrimitiveMatchesTheCpuAtFourTimesOfEveryClip) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  size_t compared = 0;
  const int32_t clips = std::max<int32_t>(1, int32_t(a.animations.size()));
  for (int32_t clip = 0; clip < clips; ++clip) {
    const cpu::ClipRange range =
        a.animations.empty() ? cpu::ClipRange{} : cpu::RangeOf(a.animations[size_t(clip)]);
    for (int step = 0; step < 4; ++step) {
      const float time = range.start + range.duration() * float(step) / 3;
      auto scene = cpu::EvaluateScene(a, a.animations.empty() ? -1 : clip, time);
      ASSERT_TRUE(scene.ok()) << scene.error().ToString();
      for (uint32_t n : cpu::DrawnNodes(a)) {
        if (a.nodes[n].mesh < 0) continue;
        auto palette = cpu::InstancePalette(a, n, scene->world);
        ASSERT_TRUE(palette.ok()) << palette.error().ToString();
        const Mesh& mesh = a.meshes[size_t(a.nodes[n].mesh)];
        const std::vector<float> weights = cpu::MorphWeightsFor(mesh, scene->pose.weights[n]);
        for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
          const Primitive& p = mesh.primitives[k];
          SCOPED_TRACE("clip " + std::to_string(clip) + " t " + std::to_string(time) + " node " +
                       std::to_string(n) + " primitive " + std::to_string(k));
          cpu::DeformedPrimitive expected;
          const std::vector<Float3x4> skin_palette =
              a.nodes[n].skin >= 0 ? *palette : std::vector<Float3x4>();
          ASSERT_TRUE(cpu::DeformPrimitive(a, n, k, scene->world, scene->pose.weights[n],
                                           skin_palette, &expected)
                          .ok());
          auto gpu = vk::DeformOnce(
              *context_, cpu::SkinnedMeshOf(p, palette->size()), *palette,
              p.targets.empty() ? std::span<const float>() : std::span<const float>(weights));
          ASSERT_TRUE(gpu.ok()) << gpu.error().ToString();
          const float extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
          EXPECT_LE(testing::MaxAbsDiff(gpu->positions, expected.positions), 1e-5f * extent);
          EXPECT_LE(testing::MaxAbsDiff(gpu->normals, expected.normals), 1e-5f);
          EXPECT_LE(testing::MaxAbsDiff(gpu->tangents, expected.tangents), 1e-5f);
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    SharedAssets, AssetDeformGpu,
    ::testing::Values(
        "Fox/Fox.glb", "CesiumMan/CesiumMan.glb", "SimpleSkin/SimpleSkin.gltf",
        "three_RobotExpressive/RobotExpressive.glb", "assimp_simple_skin/quad_skin.glb",
        "assimp_simple_skin/simple_skin.gltf", "synthetic/SimpleSkin_interp_bindpose.gltf",
        "synthetic/quad_skin_posed.glb", "MorphStressTest/MorphStressTest.gltf",
        "MorphStressTest_embedded/MorphStressTest.gltf",
        "AnimatedMorphSphere/AnimatedMorphSphere.gltf", "AnimatedMorphCube/AnimatedMorphCube.gltf",
        "MorphPrimitivesTest/MorphPrimitivesTest.gltf", "SimpleMorph/SimpleMorph.gltf"));

class RobotExpressiveFaceGpu : public testing::GpuTest {};

// RobotExpressive's face shapes (mesh "Head": Angry, Surprised, Sad, over three primitives, of
// which only the third has nonzero offsets): every clip and the mesh's defaults hold their weights
// at 0, so the walk above never morphs them. Here the weights are set through the API
// (Deformer::SetMorphWeights on the GPU, DeformPrimitive's weights on the CPU) — each shape alone,
// a mix with a negative weight, one past 1 — at the rest pose and at the middle of the "Yes" clip,
// which nods the Head joint the mesh's (unskinned) node hangs under.
TEST_F(RobotExpressiveFaceGpu, FaceShapesWithWeightsSetThroughTheApiMatchTheCpu) {
  auto loaded =
      loader::LoadGltf(testing::TestAssets() / "three_RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  int32_t head = -1;
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    if (a.nodes[n].mesh >= 0 && a.meshes[size_t(a.nodes[n].mesh)].name == "Head") {
      head = int32_t(n);
    }
  }
  ASSERT_GE(head, 0);
  const auto node = uint32_t(head);
  ASSERT_EQ(a.nodes[node].skin, -1);  // rigid: its palette is the node's world matrix
  const Mesh& mesh = a.meshes[size_t(a.nodes[node].mesh)];
  ASSERT_EQ(mesh.primitives.size(), 3u);
  ASSERT_EQ(mesh.primitives[0].targets.size(), 3u);
  int32_t yes = -1;
  for (size_t c = 0; c < a.animations.size(); ++c) {
    if (a.animations[c].name == "Yes") yes = int32_t(c);
  }
  ASSERT_GE(yes, 0);
  const std::vector<std::vector<float>> kWeights = {
      {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0.5f, -0.5f}, {-0.5f, 1.5f, 0.25f}};
  const cpu::ClipRange range = cpu::RangeOf(a.animations[size_t(yes)]);
  for (const int32_t clip : {-1, yes}) {
    auto scene = cpu::EvaluateScene(a, clip, clip < 0 ? 0.0f : range.start + range.duration() / 2);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    auto palette = cpu::InstancePalette(a, node, scene->world);
    ASSERT_TRUE(palette.ok()) << palette.error().ToString();
    for (const std::vector<float>& w : kWeights) {
      const std::vector<float> weights = cpu::MorphWeightsFor(mesh, w);
      for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
        SCOPED_TRACE("clip " + std::to_string(clip) + " weights " + std::to_string(w[0]) + " " +
                     std::to_string(w[1]) + " " + std::to_string(w[2]) + " primitive " +
                     std::to_string(k));
        cpu::DeformedPrimitive expected, rest;
        ASSERT_TRUE(cpu::DeformPrimitive(a, node, k, scene->world, w, {}, &expected).ok());
        ASSERT_TRUE(cpu::DeformPrimitive(a, node, k, scene->world, {}, {}, &rest).ok());
        auto gpu =
            vk::DeformOnce(*context_, cpu::SkinnedMeshOf(mesh.primitives[k], 1), *palette, weights);
        ASSERT_TRUE(gpu.ok()) << gpu.error().ToString();
        const float extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
        // The shapes move the face's features (primitive 2), so this is not a comparison of two
        // rest meshes; the other primitives' offsets are all 0 and leave them exactly at rest.
        const float moved = testing::MaxAbsDiff(expected.positions, rest.positions);
        if (k == 2) {
          EXPECT_GT(moved, 1e-3f * extent);
        } else {
          EXPECT_EQ(moved, 0.0f);
        }
        EXPECT_LE(testing::MaxAbsDiff(gpu->positions, expected.positions), 1e-5f * extent);
        EXPECT_LE(testing::MaxAbsDiff(gpu->normals, expected.normals), 1e-5f);
      }
    }
  }
}

}  // namespace
}  // namespace sinew
