// The engine sample's scene (samples/engine/engine_scene.h): several characters of one asset in
// one SkinCache, each posed at its own time and place, deformed and drawn in one command buffer.
// The picture is checked against the CPU reference of every character (gpu/picture_check.h).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bake.h"
#include "bake_files.h"
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

// A character's CPU reference at clip `clip`'s time `time` (looping), moved `dx` along x: each
// drawn primitive in scene space; `world` and `weights` get the pose (to pose the GPU alike).
std::vector<tool::BakedPrimitive> PlacedCharacter(const Asset& a, int32_t clip, float time,
                                                  float dx, std::vector<Float4x4>* world,
                                                  std::vector<std::vector<float>>* weights) {
  auto posed = cpu::EvaluateScene(a, clip, time, true);
  EXPECT_TRUE(posed.ok());
  if (!posed.ok()) return {};
  Float4x4 place;
  place.m[3] = {dx, 0, 0, 1};
  for (Float4x4& m : posed->world) m = Multiply(place, m);
  std::vector<tool::BakedPrimitive> baked;
  for (const cpu::DrawnMesh& drawn : cpu::DrawnMeshes(a)) {
    auto palette = cpu::InstancePalette(a, drawn.node, posed->world);
    EXPECT_TRUE(palette.ok());
    const Mesh& mesh = a.meshes[drawn.mesh];
    for (uint32_t k = 0; k < mesh.primitives.size() && palette.ok(); ++k) {
      tool::BakedPrimitive b;
      b.mode = mesh.primitives[k].mode;
      b.indices = &mesh.primitives[k].indices;
      EXPECT_TRUE(cpu::DeformPrimitive(a, drawn.node, k, posed->world,
                                       posed->pose.weights[drawn.node], *palette, &b.data)
                      .ok());
      baked.push_back(std::move(b));
    }
  }
  *world = posed->world;
  *weights = posed->pose.weights;
  return baked;
}

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
    std::vector<tool::BakedPrimitive> baked;  // the CPU reference, every character
    std::vector<Float4x4> world;
    std::vector<std::vector<float>> weights;
    for (uint32_t c = 0; c < kCharacters; ++c) {
      std::vector<tool::BakedPrimitive> character = PlacedCharacter(
          a, 10, 0.1f * float(frame) + 0.33f * float(c), spacing * float(c), &world, &weights);
      ASSERT_TRUE((*scene)->Pose(c, world, weights, -1).ok());
      baked.insert(baked.end(), character.begin(), character.end());
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

// Motion vectors: CesiumMan drawn once, then moved 0.05 to the side and a tenth of a second on:
// at every vertex of the CPU reference in sight (a corner of the nearest triangle at its pixel,
// by a CPU depth buffer), the picture holds the screen-space motion of that vertex between the two
// CPU poses, within half a pixel and 5 % (the bytes hold 1/8 pixel steps). And drawn again without
// a change, it holds no motion anywhere.
TEST_F(EngineSceneGpu, MotionVectorsAreEachVertexsScreenSpaceMotionSinceTheLastFrame) {
  auto loaded = loader::LoadAsset(testing::TestAssets() / "CesiumMan/CesiumMan.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  constexpr uint32_t kSize = 256;
  constexpr float kScale = 1.0f / 32;  // 1 byte = 255 / 32 ~ 1/8 pixel
  engine::SceneOptions options;
  options.width = options.height = kSize;
  options.motion_vectors = true;
  auto scene = engine::EngineScene::Create(*context_, a, options, VK_NULL_HANDLE);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  engine::Bounds box;
  box.Add({-0.6f, 0, -0.6f});
  box.Add({0.6f, 1.6f, 0.6f});
  const Float4x4 camera = engine::FramingViewProjection(box, 1.0f);
  std::vector<Float4x4> world;
  std::vector<std::vector<float>> weights;
  const auto draw = [&](float time, float dx, bool motion) {
    auto baked = PlacedCharacter(a, 0, time, dx, &world, &weights);
    EXPECT_TRUE((*scene)->Pose(0, world, weights, -1).ok());
    Status recorded;
    EXPECT_TRUE(context_
                    ->SubmitAndWait([&](VkCommandBuffer cmd) {
                      recorded = motion ? (*scene)->RecordMotionVectors(cmd, camera, kScale)
                                        : (*scene)->Record(cmd, camera, engine::FramingLight());
                    })
                    .ok());
    EXPECT_TRUE(recorded.ok());
    return baked;
  };
  const std::vector<tool::BakedPrimitive> before = draw(0.5f, 0, false);
  constexpr float kTime = 0.6f, kMove = 0.05f;
  const std::vector<tool::BakedPrimitive> after = draw(kTime, kMove, true);
  const std::vector<uint8_t> picture = (*scene)->pass().Pixels();
  const std::vector<testing::NearestTriangle> nearest =
      testing::NearestTriangles(after, camera, kSize, kSize);
  std::vector<std::vector<uint32_t>> triangles;
  for (const tool::BakedPrimitive& b : after) triangles.push_back(tool::BakedTriangles(b));
  size_t checked = 0, wrong = 0;
  for (size_t p = 0; p < after.size(); ++p) {
    for (size_t v = 0; v + 2 < after[p].data.positions.size(); v += 3) {
      const float* q = &after[p].data.positions[v];
      const float* q0 = &before[p].data.positions[v];
      float x = 0, y = 0, x0 = 0, y0 = 0;
      if (!engine::ProjectToPixel(camera, {q[0], q[1], q[2]}, kSize, kSize, &x, &y) ||
          !engine::ProjectToPixel(camera, {q0[0], q0[1], q0[2]}, kSize, kSize, &x0, &y0)) {
        continue;
      }
      if (x < 0 || y < 0 || x >= kSize || y >= kSize) continue;
      const size_t pixel = size_t(std::floor(y)) * kSize + size_t(std::floor(x));
      // In sight: the nearest triangle at the pixel's centre has the vertex as a corner (by
      // position: seams repeat vertices), not another part of the body in front of it.
      const testing::NearestTriangle& n = nearest[pixel];
      if (n.primitive < 0) continue;
      bool own = false;
      for (uint32_t k = 0; k < 3; ++k) {
        const float* c = &after[size_t(n.primitive)]
                              .data.positions[triangles[size_t(n.primitive)][n.first + k] * 3];
        own |= c[0] == q[0] && c[1] == q[1] && c[2] == q[2];
      }
      if (!own) continue;
      if (picture[pixel * 4 + 3] == 0) continue;  // a sliver's tip: the coverage test's concern
      ++checked;
      const float dx = (float(picture[pixel * 4]) - 128) / 255 / kScale;
      const float dy = (float(picture[pixel * 4 + 1]) - 128) / 255 / kScale;
      const float want_x = x - x0, want_y = y - y0;
      if (std::fabs(dx - want_x) > 0.5f + 0.05f * std::fabs(want_x) ||
          std::fabs(dy - want_y) > 0.5f + 0.05f * std::fabs(want_y)) {
        ++wrong;
        ADD_FAILURE() << "vertex " << v / 3 << ": motion (" << dx << ", " << dy << "), want ("
                      << want_x << ", " << want_y << ")";
        if (wrong > 5) return;
      }
    }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_EQ(wrong, 0u) << "of " << checked;

  draw(kTime, kMove, true);  // the same pose again: nothing moved
  const std::vector<uint8_t> still = (*scene)->pass().Pixels();
  size_t drawn = 0;
  for (size_t i = 0; i < size_t(kSize) * kSize; ++i) {
    if (still[i * 4 + 3] == 0) continue;
    ++drawn;
    ASSERT_EQ(still[i * 4], 128) << "pixel " << i;
    ASSERT_EQ(still[i * 4 + 1], 128) << "pixel " << i;
    ASSERT_EQ(still[i * 4 + 2], 128) << "pixel " << i;
  }
  EXPECT_GT(drawn, 100u);
}

}  // namespace
}  // namespace sinew
