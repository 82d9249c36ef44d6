// The GPU path fed from evaluated poses every frame (issue 4, DESIGN.md §4.6): one DeviceMesh and
// one Deformer per primitive of a shared animated character, created once, three instances each
// playing a clip at its own time. Every frame the CPU samples each instance's clip
// (SampleAnimationJob), computes its scene matrices (SceneTransformsJob) and its skin's palette
// (SkinInstancePaletteJob), uploads it with Deformer::SetPalette (one instance writes it in place
// into Deformer::palette instead), and the GPU deforms all instances in one recorded dispatch.
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
#include "sinew/vk/deformer.h"
#include "sinew/vk/device_mesh.h"
#include "sinew/vk/readback.h"
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

  // Created once: a device mesh and a deformer of kInstances per primitive.
  std::vector<std::unique_ptr<vk::DeviceMesh>> device_meshes;
  std::vector<std::unique_ptr<vk::Deformer>> deformers;
  for (const Primitive& p : mesh.primitives) {
    auto device_mesh = vk::DeviceMesh::Create(*context_, cpu::SkinnedMeshOf(p, skin.joints.size()));
    ASSERT_TRUE(device_mesh.ok()) << device_mesh.error().ToString();
    vk::DeformerOptions options;
    options.instance_count = kInstances;
    auto deformer = vk::Deformer::Create(*context_, **device_mesh, options);
    ASSERT_TRUE(deformer.ok()) << deformer.error().ToString();
    device_meshes.push_back(std::move(device_mesh.value()));
    deformers.push_back(std::move(deformer.value()));
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
    // its palette, uploaded to its slot of every primitive's deformer.
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
      // The last instance's job writes straight into the first deformer's mapped slot (no copy,
      // Deformer::palette); every other upload goes through SetPalette.
      const bool in_place = i + 1 == kInstances;
      palette.output = in_place ? deformers[0]->palette(i) : std::span<Float3x4>(instance.palette);
      ASSERT_TRUE(palette.Run().ok());
      if (in_place) {
        const std::span<const Float3x4> written = deformers[0]->palette(i);
        std::copy(written.begin(), written.end(), instance.palette.begin());
      }
      for (size_t d = in_place ? 1 : 0; d < deformers.size(); ++d) {
        ASSERT_TRUE(deformers[d]->SetPalette(i, instance.palette).ok());
      }
    }
    // GPU: every primitive, every instance, one submission.
    ASSERT_TRUE(context_
                    ->SubmitAndWait([&](VkCommandBuffer cmd) {
                      for (auto& deformer : deformers) deformer->Record(cmd);
                    })
                    .ok());
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& p = mesh.primitives[k];
      const VkDeviceSize v = p.vertex_count();
      auto positions =
          vk::ReadFloats(*context_, deformers[k]->out_positions(), 0, kInstances * v * 12);
      ASSERT_TRUE(positions.ok()) << positions.error().ToString();
      for (uint32_t i = 0; i < kInstances; ++i) {
        SCOPED_TRACE("frame " + std::to_string(frame) + " primitive " + std::to_string(k) +
                     " instance " + std::to_string(i));
        cpu::DeformedPrimitive expected;
        ASSERT_TRUE(cpu::DeformPrimitive(a, node, k, instances[i].world,
                                         instances[i].pose.weights[node], instances[i].palette,
                                         &expected)
                        .ok());
        const std::vector<float> gpu(positions->begin() + std::ptrdiff_t(i * v * 3),
                                     positions->begin() + std::ptrdiff_t((i + 1) * v * 3));
        const float extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
        EXPECT_LE(testing::MaxAbsDiff(gpu, expected.positions), 1e-5f * extent);
        if (!p.normals.empty()) {
          auto normals = vk::ReadFloats(*context_, deformers[k]->out_normals(),
                                        deformers[k]->normals_offset(i), v * 12);
          ASSERT_TRUE(normals.ok());
          EXPECT_LE(testing::MaxAbsDiff(*normals, expected.normals), 1e-5f);
        }
      }
      // The poses move from frame to frame (by far more than the tolerance), so a palette not
      // uploaded again could not pass.
      if (frame > 0) {
        EXPECT_GT(testing::MaxAbsDiff(*positions, previous[k]),
                  1e-2f * BoundsDiagonal(p.positions));
      }
      previous[k] = std::move(positions.value());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, AnimatedInstancesGpu,
                         ::testing::Values("CesiumMan/CesiumMan.glb", "Fox/Fox.glb"));

}  // namespace
}  // namespace sinew
