// The GPU path on real assets: every primitive of every shared skinned or morphing asset and of
// Pixar's UsdSkel scenes, two characters at four times of every clip, deformed in a SkinCache by
// the fused GPU kernel (morph targets, then skinning or the node's transform as one rigid joint)
// == the CPU reference within 1e-5 x extent. And RobotExpressive's face shapes, which none of its
// clips drives, with weights set through the API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "gpu/shared_assets.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/load_asset.h"
#include "sinew/vk/deform_once.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache_asset.h"
#include "test_assets.h"

namespace sinew {
namespace {

class AssetDeformGpu : public testing::GpuTest,
                       public ::testing::WithParamInterface<const char*> {};

// As an engine draws the asset: its meshes in a SkinCache (vk::AddAssetMeshes), two characters
// (vk::AddAssetInstance) posed at different times of the clip (vk::PoseAssetInstance), one
// Record() for both, every primitive of each read back from the cache's output buffer.
TEST_P(AssetDeformGpu, EveryPrimitiveOfTwoCharactersMatchesTheCpuAtFourTimesOfEveryClip) {
  auto loaded = loader::LoadAsset(testing::SharedAssetPath(GetParam()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  // Sized for exactly two characters: SkinCacheOptionsFor's bound must hold every asset.
  auto cache = vk::SkinCache::Create(*context_, vk::SkinCacheOptionsFor(a, 2));
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  auto meshes = vk::AddAssetMeshes(**cache, a);
  ASSERT_TRUE(meshes.ok()) << meshes.error().ToString();
  std::vector<vk::AssetInstance> characters;
  for (int c = 0; c < 2; ++c) {
    auto character = vk::AddAssetInstance(**cache, *meshes);
    ASSERT_TRUE(character.ok()) << character.error().ToString();
    characters.push_back(std::move(character.value()));
  }
  EXPECT_EQ(vk::AddAssetInstance(**cache, *meshes).code(), Error::kCapacityExceeded)
      << "sized for two, not more";
  size_t compared = 0;
  const int32_t clips = std::max<int32_t>(1, int32_t(a.animations.size()));
  for (int32_t clip = 0; clip < clips; ++clip) {
    const cpu::ClipRange range =
        a.animations.empty() ? cpu::ClipRange{} : cpu::RangeOf(a.animations[size_t(clip)]);
    for (int step = 0; step < 4; ++step) {
      std::vector<cpu::EvaluatedScene> scenes;
      for (size_t c = 0; c < characters.size(); ++c) {
        const float time = range.start + range.duration() * (float(step) + 0.5f * float(c)) / 3;
        auto scene = cpu::EvaluateScene(a, a.animations.empty() ? -1 : clip, time);
        ASSERT_TRUE(scene.ok()) << scene.error().ToString();
        ASSERT_TRUE(vk::PoseAssetInstance(**cache, a, *meshes, characters[c], scene->world,
                                          scene->pose.weights)
                        .ok());
        scenes.push_back(std::move(scene.value()));
      }
      const Status frame = testing::DeformFrameForReadback(*context_, **cache);
      ASSERT_TRUE(frame.ok()) << frame.error().ToString();
      EXPECT_LE((*cache)->last_frame_stats().dispatches, 2u);
      for (size_t c = 0; c < characters.size(); ++c) {
        const cpu::EvaluatedScene& scene = scenes[c];
        for (size_t d = 0; d < meshes->drawn.size(); ++d) {
          const uint32_t n = meshes->drawn[d].node;
          std::vector<Float3x4> skin_palette;
          if (a.nodes[n].skin >= 0) {
            auto palette = cpu::NodePalette(a, n, scene.world);
            ASSERT_TRUE(palette.ok()) << palette.error().ToString();
            skin_palette = std::move(palette.value());
          }
          const Mesh& mesh = a.meshes[meshes->drawn[d].mesh];
          for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
            SCOPED_TRACE("clip " + std::to_string(clip) + " step " + std::to_string(step) +
                         " character " + std::to_string(c) + " node " + std::to_string(n) +
                         " primitive " + std::to_string(k));
            cpu::DeformedPrimitive expected;
            ASSERT_TRUE(cpu::DeformPrimitive(a, n, k, scene.world, scene.pose.weights[n],
                                             skin_palette, &expected)
                            .ok());
            const vk::InstanceOutputs out = (*cache)->outputs(characters[c].instances[d][k]);
            const auto read = [&](VkDeviceSize offset, size_t floats) {
              auto r = vk::ReadFloats(*context_, out.buffer, offset, floats * 4);
              EXPECT_TRUE(r.ok());
              return r.ok() ? std::move(r.value()) : std::vector<float>();
            };
            const float extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
            EXPECT_LE(testing::MaxAbsDiff(read(out.positions, expected.positions.size()),
                                          expected.positions),
                      1e-5f * extent);
            if (out.has_normals) {
              EXPECT_LE(
                  testing::MaxAbsDiff(read(out.normals, expected.normals.size()), expected.normals),
                  1e-5f);
            }
            if (out.has_tangents) {
              EXPECT_LE(testing::MaxAbsDiff(read(out.tangents, expected.tangents.size()),
                                            expected.tangents),
                        1e-5f);
            }
            EXPECT_EQ(out.has_normals, !expected.normals.empty());
            EXPECT_EQ(out.has_tangents, !expected.tangents.empty());
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 0u);
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, AssetDeformGpu,
                         ::testing::ValuesIn(testing::kSkinnedOrMorphingAssets));

// Pixar's UsdSkel scenes as LoadAsset loads them (.usda).
INSTANTIATE_TEST_SUITE_P(UsdSkelScenes, AssetDeformGpu,
                         ::testing::ValuesIn(testing::kUsdSkelScenes));

// The real binary USD packages (.usdz holding a .usdc).
INSTANTIATE_TEST_SUITE_P(UsdPackages, AssetDeformGpu, ::testing::ValuesIn(testing::kUsdPackages));

class AssetCrowdGpu : public testing::GpuTest {};

// A crowd of several assets in one cache sized by SkinCacheOptionsFor(crowd), in output pages small
// enough that the crowd takes several: exactly the characters asked for fit, each asset's
// capacities as its own options count them, and the output pages' slack counted for the whole
// crowd.
TEST_F(AssetCrowdGpu, OptionsForACrowdOfSeveralAssetsHoldExactlyItsCharacters) {
  std::vector<loader::LoadedFile> files;
  for (const char* name : {"Fox/Fox.glb", "three_RobotExpressive/RobotExpressive.glb"}) {
    auto loaded = loader::LoadAsset(testing::SharedAssetPath(name));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    files.push_back(std::move(loaded.value()));
  }
  const vk::AssetCharacters crowd[] = {{&files[0].loaded.asset, 3}, {&files[1].loaded.asset, 2}};
  // Output pages of 256 KiB, so that the crowd's outputs (about 650 KB) take more than one and
  // the pages' slack counts.
  vk::SkinCacheOptions base;
  base.output_page_bytes = 256 << 10;
  const vk::SkinCacheOptions options = vk::SkinCacheOptionsFor(crowd, base);
  const vk::SkinCacheOptions fox = vk::SkinCacheOptionsFor(files[0].loaded.asset, 3, base);
  const vk::SkinCacheOptions robot = vk::SkinCacheOptionsFor(files[1].loaded.asset, 2, base);
  EXPECT_EQ(options.max_instances, fox.max_instances + robot.max_instances);
  EXPECT_EQ(options.max_palettes, fox.max_palettes + robot.max_palettes);
  EXPECT_EQ(options.max_palette_entries, fox.max_palette_entries + robot.max_palette_entries);
  EXPECT_EQ(options.max_morph_weights, fox.max_morph_weights + robot.max_morph_weights);
  EXPECT_EQ(options.mesh_bytes, fox.mesh_bytes + robot.mesh_bytes);
  // The outputs: whole pages, more than either asset's alone. (Not bounded by the two assets'
  // options added up: Fox's three characters fit one page and need no slack alone, but not beside
  // RobotExpressive's in pages shared with them.)
  EXPECT_EQ(options.output_bytes % base.output_page_bytes, 0u);
  EXPECT_GT(options.output_bytes, std::max(fox.output_bytes, robot.output_bytes));

  auto cache = vk::SkinCache::Create(*context_, options);
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  for (size_t f = 0; f < files.size(); ++f) {
    auto meshes = vk::AddAssetMeshes(**cache, files[f].loaded.asset);
    ASSERT_TRUE(meshes.ok()) << meshes.error().ToString();
    for (uint32_t c = 0; c < crowd[f].characters; ++c) {
      auto character = vk::AddAssetInstance(**cache, *meshes);
      ASSERT_TRUE(character.ok()) << f << " " << c << ": " << character.error().ToString();
    }
    if (f + 1 == files.size()) {
      EXPECT_EQ(vk::AddAssetInstance(**cache, *meshes).code(), Error::kCapacityExceeded)
          << "sized for the crowd, not more";
    }
  }
}

// RobotExpressive's meshes in a cache of one character (the face has morph targets).
class AssetPoseGpu : public testing::GpuTest {
 protected:
  void SetUp() override {
    testing::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto file =
        loader::LoadAsset(testing::SharedAssetPath("three_RobotExpressive/RobotExpressive.glb"));
    ASSERT_TRUE(file.ok()) << file.error().ToString();
    loaded_ = std::make_unique<loader::LoadedFile>(std::move(file.value()));
    auto created = vk::SkinCache::Create(*context_, vk::SkinCacheOptionsFor(robot(), 1));
    ASSERT_TRUE(created.ok()) << created.error().ToString();
    cache_ = std::move(created.value());
    auto added = vk::AddAssetMeshes(*cache_, robot());
    ASSERT_TRUE(added.ok()) << added.error().ToString();
    meshes_ = std::move(added.value());
  }
  void TearDown() override {
    cache_.reset();
    testing::GpuTest::TearDown();
  }
  const Asset& robot() const { return loaded_->loaded.asset; }

  std::unique_ptr<loader::LoadedFile> loaded_;
  std::unique_ptr<vk::SkinCache> cache_;
  vk::AssetMeshes meshes_;
};

// A character that was never added (AddAssetInstance's result unchecked), or the meshes of
// another asset, are errors naming the argument, not reads past the end of its lists; and NaN
// node weights are refused as SetMorphWeights refuses them, not read as 0.
TEST_F(AssetPoseGpu, AMismatchedCharacterOrAssetOrNanWeightsAreErrors) {
  const Asset& a = robot();
  vk::SkinCache* const cache = cache_.get();
  const vk::AssetMeshes* const meshes = &meshes_;
  auto posed = cpu::EvaluateScene(a);
  ASSERT_TRUE(posed.ok()) << posed.error().ToString();
  const Status unadded =
      vk::PoseAssetInstance(*cache, a, *meshes, vk::AssetInstance{}, posed->world, {});
  EXPECT_EQ(unadded.code(), Error::kInvalidArgument);
  EXPECT_EQ(unadded.error().where, "instance");
  auto character = vk::AddAssetInstance(*cache, *meshes);
  ASSERT_TRUE(character.ok()) << character.error().ToString();
  const Asset other;
  const Status foreign =
      vk::PoseAssetInstance(*cache, other, *meshes, *character, posed->world, {});
  EXPECT_EQ(foreign.code(), Error::kInvalidArgument);
  EXPECT_EQ(foreign.error().where, "meshes");
  std::vector<std::vector<float>> weights = posed->pose.weights;
  bool morphed = false;
  for (std::vector<float>& w : weights) {
    if (!w.empty()) w[0] = std::numeric_limits<float>::quiet_NaN(), morphed = true;
  }
  ASSERT_TRUE(morphed);
  const Status nan = vk::PoseAssetInstance(*cache, a, *meshes, *character, posed->world, weights);
  EXPECT_EQ(nan.code(), Error::kNonFiniteValue);
}

// PoseAssetInstance's morph weights: none given leaves those SetMorphWeights set (a game drives
// the face on its own); given, every morphed node needs one per morph target, and a list of
// another length is refused rather than zeroing the face.
TEST_F(AssetPoseGpu, MorphWeightsAreLeftAloneWhenNoneAreGivenAndRefusedWhenMiscounted) {
  const Asset& a = robot();
  std::unique_ptr<vk::SkinCache>* const cache = &cache_;
  const vk::AssetMeshes* const meshes = &meshes_;
  auto character = vk::AddAssetInstance(**cache, *meshes);
  ASSERT_TRUE(character.ok()) << character.error().ToString();
  size_t head = meshes->drawn.size();
  for (size_t i = 0; i < meshes->drawn.size(); ++i) {
    if (a.meshes[meshes->drawn[i].mesh].name == "Head") head = i;
  }
  ASSERT_LT(head, meshes->drawn.size());
  const uint32_t node = meshes->drawn[head].node;
  const vk::InstanceId face = character->instances[head][2];
  auto scene = cpu::EvaluateScene(a, 0, 0.5f);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  ASSERT_EQ(scene->pose.weights[node].size(), 3u);

  const std::vector<float> smile = {0.8f, 0.0f, 0.25f};
  ASSERT_TRUE((*cache)->SetMorphWeights(face, smile).ok());
  ASSERT_TRUE(vk::PoseAssetInstance(**cache, a, *meshes, *character, scene->world, {}).ok());
  const std::span<const float> kept = (*cache)->morph_weights(face);
  EXPECT_EQ(std::vector<float>(kept.begin(), kept.end()), smile);

  std::vector<std::vector<float>> weights = scene->pose.weights;
  weights[node] = {1.0f, 0.0f};
  // Refused before anything is written: no palette of the character moves either.
  auto rest = cpu::EvaluateScene(a);
  ASSERT_TRUE(rest.ok()) << rest.error().ToString();
  ASSERT_TRUE(vk::PoseAssetInstance(**cache, a, *meshes, *character, rest->world, {}).ok());
  std::vector<std::vector<Float3x4>> palettes;
  for (const vk::PaletteId id : character->palettes) {
    const std::span<const Float3x4> p = (*cache)->palette(id);
    palettes.emplace_back(p.begin(), p.end());
  }
  const Status two = vk::PoseAssetInstance(**cache, a, *meshes, *character, scene->world, weights);
  EXPECT_EQ(two.code(), Error::kSizeMismatch);
  EXPECT_EQ(two.error().where, "nodes/" + std::to_string(node) + "/weights");
  EXPECT_EQ(two.error().message, "2 weights, the mesh has 3 morph targets");
  weights.resize(node);
  EXPECT_EQ(vk::PoseAssetInstance(**cache, a, *meshes, *character, scene->world, weights).code(),
            Error::kSizeMismatch);
  const std::span<const float> still = (*cache)->morph_weights(face);
  EXPECT_EQ(std::vector<float>(still.begin(), still.end()), smile);
  for (size_t i = 0; i < palettes.size(); ++i) {
    const std::span<const Float3x4> p = (*cache)->palette(character->palettes[i]);
    ASSERT_EQ(p.size(), palettes[i].size());
    EXPECT_EQ(std::memcmp(p.data(), palettes[i].data(), p.size_bytes()), 0) << "palette " << i;
  }

  weights = scene->pose.weights;
  weights[node] = {0.0f, 1.0f, 0.0f};
  ASSERT_TRUE(vk::PoseAssetInstance(**cache, a, *meshes, *character, scene->world, weights).ok());
  const std::span<const float> posed = (*cache)->morph_weights(face);
  EXPECT_EQ(std::vector<float>(posed.begin(), posed.end()), weights[node]);
}

class RobotExpressiveFaceGpu : public testing::GpuTest {};

// RobotExpressive's face shapes (mesh "Head": Angry, Surprised, Sad, over three primitives, of
// which only the third has nonzero offsets): every clip and the mesh's defaults hold their weights
// at 0, so the walk above never morphs them. Here the weights are set through the API
// (SkinCache::SetMorphWeights, through DeformOnce, on the GPU, DeformPrimitive's weights on the
// CPU) — each shape alone, a mix with a negative weight, one past 1 — at the rest pose and at the
// middle of the "Yes" clip, which nods the Head joint the mesh's (unskinned) node hangs under.
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
        auto gpu = vk::DeformOnce(*context_, mesh.primitives[k], *palette, weights);
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
