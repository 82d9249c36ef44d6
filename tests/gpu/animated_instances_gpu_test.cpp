// The GPU path fed from evaluated poses every frame: a shared animated character
// in one SkinCache, created once, three instances each playing a clip at its own time, each with
// one palette its mesh's primitives share. Every frame the CPU samples each instance's clip
// (SampleAnimationJob), computes its scene matrices (SceneTransformsJob) and its skin's palette
// (SkinInstancePaletteJob), uploads it once with SkinCache::SetPalette (one instance writes it in
// place into SkinCache::palette instead), and the GPU deforms everything in one Record().
// Each instance, each frame, must equal the CPU reference of its own pose (DeformPrimitive) within
// 1e-5 x extent; a palette not uploaded again would show the previous pose.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/scene_transforms_job.h"
#include "sinew/cpu/skin_instance_palette_job.h"
#include "sinew/loader/gltf.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"
#include "test_assets.h"

namespace sinew {
namespace {

constexpr uint32_t kInstances = 3;
constexpr int kFrames = 4;

// One instance's animation state, kept across frames as an engine would.
struct Instance {
  ScenePose pose;
  std::vector<Float4x4> world;
  std::vector<Float3x4> palette;
};

class AnimatedInstancesGpu : public testing::GpuTest,
                             public ::testing::WithParamInterface<const char*> {};

TEST_P(AnimatedInstancesGpu, EveryFramesUploadedPalettesDeformEveryInstanceLikeTheCpu) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  ASSERT_FALSE(a.animations.empty());
  // The first drawn skinned node with a mesh.
  uint32_t node = 0;
  const std::vector<uint32_t> drawn = cpu::DrawnNodes(a);
  const auto it = std::find_if(drawn.begin(), drawn.end(), [&](uint32_t n) {
    return a.nodes[n].skin >= 0 && a.nodes[n].mesh >= 0;
  });
  ASSERT_NE(it, drawn.end());
  node = *it;
  const Skin& skin = a.skins[size_t(a.nodes[node].skin)];
  const Mesh& mesh = a.meshes[size_t(a.nodes[node].mesh)];

  // Created once: the primitives' meshes, a palette per instance, an instance per primitive.
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  std::vector<vk::MeshId> meshes;
  for (const Primitive& p : mesh.primitives) {
    auto id = (*cache)->AddMesh(p, uint32_t(skin.joints.size()));
    ASSERT_TRUE(id.ok()) << id.error().ToString();
    meshes.push_back(*id);
  }
  std::vector<vk::PaletteId> palettes;
  std::vector<std::vector<vk::InstanceId>> parts(kInstances);  // [instance][primitive]
  for (uint32_t i = 0; i < kInstances; ++i) {
    palettes.push_back((*cache)->AddPalette(uint32_t(skin.joints.size())).value());
    for (vk::MeshId m : meshes) parts[i].push_back((*cache)->AddInstance(m, palettes[i]).value());
  }
  std::vector<Instance> instances(kInstances);
  for (Instance& i : instances) {
    i.pose = RestPose(a);
    i.world.resize(a.nodes.size());
    i.palette.resize(skin.joints.size());
  }
  std::vector<std::vector<float>> previous(mesh.primitives.size());

  for (int frame = 0; frame < kFrames; ++frame) {
    // CPU: each instance's pose at its own time (and, with several clips, its own clip), then
    // its palette, uploaded once for every primitive.
    for (uint32_t i = 0; i < kInstances; ++i) {
      Instance& instance = instances[i];
      const Animation& clip = a.animations[i % a.animations.size()];
      cpu::SampleAnimationJob sample;
      sample.animation = &clip;
      sample.time = cpu::RangeOf(clip).start + cpu::RangeOf(clip).duration() *
                                                   (0.1f + 0.37f * float(frame) + 0.23f * float(i));
      sample.loop = true;
      sample.pose = &instance.pose;
      ASSERT_TRUE(sample.Run().ok());
      cpu::SceneTransformsJob transforms;
      transforms.nodes = a.nodes;
      transforms.pose = &instance.pose;
      transforms.output = instance.world;
      ASSERT_TRUE(transforms.Run().ok());
      cpu::SkinInstancePaletteJob palette;
      palette.skin = &skin;
      palette.world = instance.world;
      palette.node = node;
      // The last instance's job writes straight into the cache's memory for this frame (no
      // copy, SkinCache::palette); the others go through SetPalette. Once for all primitives.
      const bool in_place = i + 1 == kInstances;
      palette.output =
          in_place ? (*cache)->palette(palettes[i]) : std::span<Float3x4>(instance.palette);
      ASSERT_TRUE(palette.Run().ok());
      if (in_place) {
        const std::span<const Float3x4> written = (*cache)->palette(palettes[i]);
        std::copy(written.begin(), written.end(), instance.palette.begin());
      } else {
        ASSERT_TRUE((*cache)->SetPalette(palettes[i], instance.palette).ok());
      }
    }
    // GPU: every primitive, every instance, one submission.
    Status recorded;
    ASSERT_TRUE(context_
                    ->SubmitAndWait([&](VkCommandBuffer cmd) {
                      (*cache)->RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                   VK_ACCESS_TRANSFER_READ_BIT);
                      recorded = (*cache)->Record(cmd);
                      (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                    VK_ACCESS_TRANSFER_READ_BIT);
                    })
                    .ok());
    ASSERT_TRUE(recorded.ok());
    EXPECT_EQ((*cache)->last_frame_stats().dispatches, 1u);
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& p = mesh.primitives[k];
      std::vector<float> positions;  // every instance's, for the frame-to-frame check
      for (uint32_t i = 0; i < kInstances; ++i) {
        SCOPED_TRACE("frame " + std::to_string(frame) + " primitive " + std::to_string(k) +
                     " instance " + std::to_string(i));
        cpu::DeformedPrimitive expected;
        ASSERT_TRUE(cpu::DeformPrimitive(a, node, k, instances[i].world,
                                         instances[i].pose.weights[node], instances[i].palette,
                                         &expected)
                        .ok());
        auto gpu = vk::ReadInstanceOutputs(*context_, **cache, parts[i][k]);
        ASSERT_TRUE(gpu.ok()) << gpu.error().ToString();
        const float extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
        EXPECT_LE(testing::MaxAbsDiff(gpu->positions, expected.positions), 1e-5f * extent);
        EXPECT_LE(testing::MaxAbsDiff(gpu->normals, expected.normals), 1e-5f);
        positions.insert(positions.end(), gpu->positions.begin(), gpu->positions.end());
      }
      // The poses move from frame to frame (by far more than the tolerance), so a palette not
      // uploaded again could not pass.
      if (frame > 0) {
        EXPECT_GT(testing::MaxAbsDiff(positions, previous[k]), 1e-2f * BoundsDiagonal(p.positions));
      }
      previous[k] = std::move(positions);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, AnimatedInstancesGpu,
                         ::testing::Values("CesiumMan/CesiumMan.glb", "Fox/Fox.glb"));

}  // namespace
}  // namespace sinew
