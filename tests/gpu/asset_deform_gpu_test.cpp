// The GPU path on real assets (DESIGN.md §9, issues 4 and 6): every primitive of every shared
// skinned or morphing asset, at four times of every clip, deformed by the fused GPU kernel
// (morph targets, then skinning or the node's transform as one rigid joint) == the CPU reference
// within 1e-5 x extent, as `sinew bake --device gpu` does it.
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
        "AnimatedMorphSphere/AnimatedMorphSphere.gltf", "AnimatedMorphCube/AnimatedMorphCube.gltf",
        "MorphPrimitivesTest/MorphPrimitivesTest.gltf", "SimpleMorph/SimpleMorph.gltf"));

}  // namespace
}  // namespace sinew
