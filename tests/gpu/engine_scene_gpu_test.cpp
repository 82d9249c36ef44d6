// The engine sample's scene (samples/engine/engine_scene.h): several characters of one asset in
// one SkinCache, each posed at its own time and place, deformed and drawn in one command buffer.
// The picture is checked against the CPU reference of every character (gpu/picture_check.h).
#include <gtest/gtest.h>

#include <vector>

#include "bake.h"
#include "camera.h"
#include "engine_scene.h"
#include "gpu/gpu_test.h"
#include "gpu/picture_check.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/loader/load_asset.h"
#include "test_assets.h"

namespace sinew {
namespace {

class EngineSceneGpu : public testing::GpuTest {};

// Three RobotExpressive characters walking in a row, each a third of a second further into the
// clip, over two frames: each picture shows the three CPU-reference characters where the camera
// projects them.
TEST_F(EngineSceneGpu, DrawsEveryCharacterWhereTheCpuReferencePutsIt) {
  auto loaded =
      loader::LoadAsset(testing::TestAssets() / "three_RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  constexpr uint32_t kCharacters = 3, kWidth = 384, kHeight = 192;
  engine::SceneOptions options;
  options.characters = kCharacters;
  options.width = kWidth;
  options.height = kHeight;
  auto scene = engine::EngineScene::Create(*context_, a, options, VK_NULL_HANDLE);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_EQ((*scene)->Pose(kCharacters, {}, {}, -1).code(), Error::kInvalidArgument);

  const float spacing = 3.0f;
  engine::Bounds row;
  row.Add({-1.5f, 0, -1});
  row.Add({spacing * (kCharacters - 1) + 1.5f, 5, 1});
  const Float4x4 camera = engine::FramingViewProjection(row, float(kWidth) / float(kHeight));
  for (int frame = 0; frame < 2; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    std::vector<cpu::DeformedPrimitive> deformed;  // the CPU reference, every character
    std::vector<tool::BakedPrimitive> baked;
    for (uint32_t c = 0; c < kCharacters; ++c) {
      auto posed = cpu::EvaluateScene(a, 10, 0.1f * float(frame) + 0.33f * float(c), true);
      ASSERT_TRUE(posed.ok()) << posed.error().ToString();
      Float4x4 place;
      place.m[3] = {spacing * float(c), 0, 0, 1};
      for (Float4x4& m : posed->world) m = Multiply(place, m);
      ASSERT_TRUE((*scene)->Pose(c, posed->world, posed->pose.weights, -1).ok());
      for (const cpu::DrawnMesh& drawn : cpu::DrawnMeshes(a)) {
        auto palette = cpu::InstancePalette(a, drawn.node, posed->world);
        ASSERT_TRUE(palette.ok());
        const Mesh& mesh = a.meshes[drawn.mesh];
        for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
          tool::BakedPrimitive b;
          b.mode = mesh.primitives[k].mode;
          b.indices = &mesh.primitives[k].indices;
          ASSERT_TRUE(cpu::DeformPrimitive(a, drawn.node, k, posed->world,
                                           posed->pose.weights[drawn.node], *palette, &b.data)
                          .ok());
          baked.push_back(std::move(b));
        }
      }
    }
    Status recorded;
    ASSERT_TRUE(context_
                    ->SubmitAndWait([&](VkCommandBuffer cmd) {
                      recorded = (*scene)->Record(cmd, camera, engine::FramingLight());
                    })
                    .ok());
    ASSERT_TRUE(recorded.ok()) << recorded.error().ToString();
    const std::vector<uint8_t> picture = (*scene)->pass().Pixels();
    testing::ExpectPictureShows({kWidth, kHeight, &picture}, baked, camera);
  }
}

}  // namespace
}  // namespace sinew
