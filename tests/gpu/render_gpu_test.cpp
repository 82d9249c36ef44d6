// `sinew render`'s pictures (samples/sinew/render.h: a SkinCache's outputs drawn by the engine
// sample's graphics pass) checked against the CPU reference, not against stored pictures: the
// CPU bake of the same pose, projected with the same camera, must land on drawn pixels, and the
// drawn area must be the area its triangles cover. Every shared skinned or morphing asset and
// Pixar's UsdSkel scenes, one time of one clip each, on lavapipe with the validation layer on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bake.h"
#include "bake_files.h"
#include "camera.h"
#include "gpu/gpu_test.h"
#include "gpu/picture_check.h"
#include "gpu/shared_assets.h"
#include "render.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/load_asset.h"
#include "test_assets.h"

namespace sinew {
namespace {

using tool::BakeAsset;
using tool::BakedPrimitive;
using tool::RenderAsset;
using tool::RenderedFrames;
using tool::RenderOptions;

constexpr uint32_t kSize = 256;

// The pose of the test: clip 0 (when there is one) at 40 % of its range.
RenderOptions PoseOf(const Asset& a) {
  RenderOptions o;
  o.width = o.height = kSize;
  if (!a.animations.empty()) {
    o.pose.anim = std::to_string(0);  // (assigning "0" trips a GCC 12 -Wrestrict false positive)
    const cpu::ClipRange range = cpu::RangeOf(a.animations[0]);
    o.pose.time = range.start + 0.4f * range.duration();
  }
  return o;
}

class RenderGpu : public testing::GpuTest, public ::testing::WithParamInterface<const char*> {};

// The picture against the CPU bake of the same pose, projected with the same camera
// (ExpectPictureShows, gpu/picture_check.h).
TEST_P(RenderGpu, APictureShowsTheCpuBakeOfTheSamePoseWhereTheCameraProjectsIt) {
  auto loaded = loader::LoadAsset(testing::SharedAssetPath(GetParam()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  const RenderOptions o = PoseOf(a);
  auto rendered = RenderAsset(*context_, a, o);
  ASSERT_TRUE(rendered.ok()) << rendered.error().ToString();
  ASSERT_EQ(rendered->pictures.size(), 1u);
  const std::vector<uint8_t>& rgba = rendered->pictures[0];
  ASSERT_EQ(rgba.size(), size_t(kSize) * kSize * 4);
  auto baked = BakeAsset(a, o.pose);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  testing::ExpectPictureShows({kSize, kSize, &rgba}, baked->primitives, rendered->view_projection);
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, RenderGpu,
                         ::testing::ValuesIn(testing::kSkinnedOrMorphingAssets));

INSTANTIATE_TEST_SUITE_P(UsdSkelScenes, RenderGpu, ::testing::ValuesIn(testing::kUsdSkelScenes));

INSTANTIATE_TEST_SUITE_P(UsdPackages, RenderGpu, ::testing::ValuesIn(testing::kUsdPackages));

class RenderCompactGpu : public testing::GpuTest,
                         public ::testing::WithParamInterface<const char*> {};

// Drawn from compact outputs (VertexFormats::Compact(): octahedral normals read as raw words and
// decoded by the engine sample's vertex shader with shaders/vertex_formats.glsl), the picture
// still shows the CPU
// bake where the camera projects it, and it is the float32 picture but for at most 1 % of its
// pixels, none of them by more than 8 levels of 255 (normals within 0.006 degrees move the
// shading by at most a level or two).
TEST_P(RenderCompactGpu, APictureFromCompactOutputsIsTheFloat32Picture) {
  auto loaded = loader::LoadAsset(testing::SharedAssetPath(GetParam()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  RenderOptions o = PoseOf(a);
  auto reference = RenderAsset(*context_, a, o);
  ASSERT_TRUE(reference.ok()) << reference.error().ToString();
  o.formats = VertexFormats::Compact();
  auto rendered = RenderAsset(*context_, a, o);
  ASSERT_TRUE(rendered.ok()) << rendered.error().ToString();
  const std::vector<uint8_t>& rgba = rendered->pictures[0];
  const std::vector<uint8_t>& want = reference->pictures[0];
  ASSERT_EQ(rgba.size(), want.size());
  size_t differing = 0;
  int worst = 0;
  for (size_t p = 0; p < rgba.size(); p += 4) {
    int d = 0;
    for (size_t c = 0; c < 4; ++c) d = std::max(d, std::abs(int(rgba[p + c]) - int(want[p + c])));
    differing += d > 0 ? 1 : 0;
    worst = std::max(worst, d);
  }
  EXPECT_LE(differing, rgba.size() / 4 / 100) << "pixels that differ";
  EXPECT_LE(worst, 8);
  auto baked = BakeAsset(a, o.pose);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  testing::ExpectPictureShows({kSize, kSize, &rgba}, baked->primitives, rendered->view_projection);
}

INSTANTIATE_TEST_SUITE_P(SkinnedWithNormals, RenderCompactGpu,
                         ::testing::Values("CesiumMan/CesiumMan.glb", "Fox/Fox.glb",
                                           "three_RobotExpressive/RobotExpressive.glb",
                                           "usdskel/lbs.usda",
                                           "usdskel/blendshapesWithNormals.usda"));

class RenderG4mfGpu : public testing::GpuTest {};

// A G4MF character draws like any other: CesiumMan and Fox written as binary G4MF (WriteG4mf)
// and loaded back, each picture against the CPU bake of the loaded G4MF asset.
TEST_F(RenderG4mfGpu, AG4mfCharacterShowsItsCpuBakeWhereTheCameraProjectsIt) {
  for (const char* file : {"CesiumMan/CesiumMan.glb", "Fox/Fox.glb"}) {
    SCOPED_TRACE(file);
    auto gltf = loader::LoadGltf(testing::TestAssets() / file);
    ASSERT_TRUE(gltf.ok()) << gltf.error().ToString();
    loader::G4mfWriteOptions write;
    write.binary = true;
    auto bytes = loader::WriteG4mf(gltf->asset, write);
    ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
    const size_t size = bytes->size();
    bytes->resize(size + loader::ReadPadding(), 0);
    auto g4mf = loader::LoadG4mfFromMemory(std::span(bytes->data(), size), ".");
    ASSERT_TRUE(g4mf.ok()) << g4mf.error().ToString();
    const Asset& a = g4mf->asset;
    const RenderOptions o = PoseOf(a);
    auto rendered = RenderAsset(*context_, a, o);
    ASSERT_TRUE(rendered.ok()) << rendered.error().ToString();
    auto baked = BakeAsset(a, o.pose);
    ASSERT_TRUE(baked.ok()) << baked.error().ToString();
    testing::ExpectPictureShows({kSize, kSize, &rendered->pictures[0]}, baked->primitives,
                                rendered->view_projection);
  }
}

class RenderCamerasGpu : public testing::GpuTest {};

// The other camera views frame the character as well: Fox seen from the front, the side and the
// top shows its CPU bake where each camera projects it.
TEST_F(RenderCamerasGpu, EveryViewShowsTheCpuBakeWhereItsCameraProjectsIt) {
  auto loaded = loader::LoadAsset(testing::TestAssets() / "Fox/Fox.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  RenderOptions o = PoseOf(a);
  auto baked = BakeAsset(a, o.pose);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  for (const char* view : {"front", "side", "top"}) {
    SCOPED_TRACE(view);
    o.camera = view;
    auto rendered = RenderAsset(*context_, a, o);
    ASSERT_TRUE(rendered.ok()) << rendered.error().ToString();
    testing::ExpectPictureShows({kSize, kSize, &rendered->pictures[0]}, baked->primitives,
                                rendered->view_projection);
  }
}

// An asset's frame to the engine sample's (+Y up, metres), as main.cpp places each character:
// a Z-up centimetre stage's up (+Z) becomes +Y, its -Y (USD's front) +Z, a hundredth of its
// numbers; a box's corners go through it, empty staying empty; +Y up in metres is the identity.
TEST(FramingCamera, TakesAnAssetsUpAxisAndUnitsToYUpMetres) {
  const Float4x4 z_cm = engine::ToYUpMeters(engine::UpAxis::kZ, 0.01f);
  const auto expect_near = [](const Float3& a, const Float3& b) {
    EXPECT_NEAR(a.x, b.x, 1e-6f);
    EXPECT_NEAR(a.y, b.y, 1e-6f);
    EXPECT_NEAR(a.z, b.z, 1e-6f);
  };
  expect_near(TransformPoint(z_cm, {0, 0, 100}), {0, 1, 0});
  expect_near(TransformPoint(z_cm, {0, -100, 0}), {0, 0, 1});
  expect_near(TransformPoint(z_cm, {100, 0, 0}), {1, 0, 0});
  expect_near(TransformPoint(engine::ToYUpMeters(engine::UpAxis::kY, 1.0f), {1, 2, 3}), {1, 2, 3});
  expect_near(TransformPoint(engine::ToYUpMeters(engine::UpAxis::kY, 0.01f), {100, 200, 300}),
              {1, 2, 3});
  // Placed where main.cpp puts a character: turned and scaled, then moved.
  expect_near(TransformPoint(engine::Placed(z_cm, {5, 0, -2}), {0, 0, 100}), {5, 1, -2});
  engine::Bounds box;
  box.Add(Float3{-100, -200, 0});
  box.Add(Float3{100, 200, 180});
  const engine::Bounds turned = engine::Transformed(box, z_cm);
  expect_near(turned.min, {-1, 0, -2});
  expect_near(turned.max, {1, 1.8f, 2});
  EXPECT_TRUE(engine::Transformed(engine::Bounds{}, z_cm).empty());
}

// A +Z-up stage (a USD upAxis "Z") is drawn with +Z up in every view, as a +Y-up one is with +Y:
// a point above the box's centre along the up axis lands straight above it in the picture, and
// the views turn with the scene ("front" from -Y, "top" from +Z with +Y up). The light turns
// with them.
TEST(FramingCamera, TurnsTheViewsWithAZUpScene) {
  engine::Bounds box;
  box.Add(Float3{-1, -2, -3});
  box.Add(Float3{2, 1, 4});
  const Float3 c{0.5f, -0.5f, 0.5f};
  const auto pixel = [](const Float4x4& vp, Float3 p) {
    float x = 0, y = 0;
    EXPECT_TRUE(engine::ProjectToPixel(vp, p, 100, 100, &x, &y));
    return std::pair<float, float>{x, y};
  };
  for (const engine::UpAxis up : {engine::UpAxis::kY, engine::UpAxis::kZ}) {
    const bool z = up == engine::UpAxis::kZ;
    const Float3 above = z ? Float3{c.x, c.y, c.z + 1} : Float3{c.x, c.y + 1, c.z};
    for (const char* view : {"auto", "front", "side"}) {
      SCOPED_TRACE(std::string(view) + (z ? " Z up" : " Y up"));
      const Float4x4 vp = engine::FramingViewProjection(box, 1.0f, view, up);
      const auto [cx, cy] = pixel(vp, c);
      const auto [ax, ay] = pixel(vp, above);
      EXPECT_NEAR(cx, 50.0f, 1e-3f);
      EXPECT_NEAR(cy, 50.0f, 1e-3f);
      EXPECT_LT(ay, cy - 5);  // picture rows run down
      if (std::string_view(view) != "auto") {
        EXPECT_NEAR(ax, cx, 1e-3f);
      }
    }
    // "front" looks from +Z (Y up) or -Y (Z up): a point towards it is nearer the camera.
    const Float4x4 front = engine::FramingViewProjection(box, 1.0f, "front", up);
    float near_depth = 0, centre_depth = 0, x = 0, y = 0;
    const Float3 towards = z ? Float3{c.x, c.y - 1, c.z} : Float3{c.x, c.y, c.z + 1};
    ASSERT_TRUE(engine::ProjectToPixel(front, towards, 100, 100, &x, &y, &near_depth));
    ASSERT_TRUE(engine::ProjectToPixel(front, c, 100, 100, &x, &y, &centre_depth));
    EXPECT_LT(near_depth, centre_depth);
    // "top" looks down the up axis, with +Y up (Z up) or -Z up (Y up) in the picture.
    const Float4x4 top = engine::FramingViewProjection(box, 1.0f, "top", up);
    const Float3 picture_up = z ? Float3{c.x, c.y + 1, c.z} : Float3{c.x, c.y, c.z - 1};
    EXPECT_LT(pixel(top, picture_up).second, pixel(top, c).second - 5);
    EXPECT_NEAR(pixel(top, above).first, 50.0f, 1e-3f);
    EXPECT_NEAR(pixel(top, above).second, 50.0f, 1e-3f);
  }
  const Float3 y_light = engine::FramingLight(), z_light = engine::FramingLight(engine::UpAxis::kZ);
  EXPECT_EQ(z_light.x, y_light.x);
  EXPECT_EQ(z_light.y, -y_light.z);
  EXPECT_EQ(z_light.z, y_light.y);
}

class RenderVariantsGpu : public testing::GpuTest {};

// KHR_materials_variants at draw time: RobotExpressive given two variants, "plain" (every
// primitive keeps its material) and "red" (one primitive mapped to a red material). Switching
// changes nothing in the geometry (the same pixels are drawn, the CPU bake is the same) and the
// colour of exactly that primitive: every pixel that changes lies where its triangles project,
// and turns red.
TEST_F(RenderVariantsGpu, SwitchingAVariantRecoloursExactlyThePrimitivesItMaps) {
  auto loaded =
      loader::LoadAsset(testing::TestAssets() / "three_RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  Asset a = std::move(loaded->loaded.asset);
  ASSERT_FALSE(a.variants.size());
  a.variants = {"plain", "red"};
  a.materials.push_back({"red", {1, 0, 0, 1}});
  const int32_t red = int32_t(a.materials.size() - 1);
  // The mapped primitive: the one with the most vertices.
  size_t mapped_mesh = 0, mapped_primitive = 0, most = 0;
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    for (size_t k = 0; k < a.meshes[m].primitives.size(); ++k) {
      Primitive& p = a.meshes[m].primitives[k];
      p.variant_materials = {-1, -1};
      if (p.vertex_count() > most) {
        most = p.vertex_count();
        mapped_mesh = m;
        mapped_primitive = k;
      }
    }
  }
  a.meshes[mapped_mesh].primitives[mapped_primitive].variant_materials = {-1, red};

  RenderOptions o = PoseOf(a);
  auto none = RenderAsset(*context_, a, o);
  o.pose.variant = "plain";
  auto plain = RenderAsset(*context_, a, o);
  auto baked_plain = BakeAsset(a, o.pose);
  o.pose.variant = "red";
  auto recoloured = RenderAsset(*context_, a, o);
  auto baked_red = BakeAsset(a, o.pose);
  ASSERT_TRUE(none.ok() && plain.ok() && recoloured.ok() && baked_plain.ok() && baked_red.ok());
  EXPECT_EQ(plain->pictures[0], none->pictures[0]) << "a variant mapping nothing changes nothing";

  // The geometry: the same CPU bake, the same pixels drawn.
  ASSERT_EQ(baked_red->primitives.size(), baked_plain->primitives.size());
  for (size_t i = 0; i < baked_red->primitives.size(); ++i) {
    EXPECT_EQ(baked_red->primitives[i].data.positions, baked_plain->primitives[i].data.positions);
  }
  const std::vector<uint8_t>& before = none->pictures[0];
  const std::vector<uint8_t>& after = recoloured->pictures[0];
  std::vector<BakedPrimitive> mapped;
  for (const BakedPrimitive& b : baked_red->primitives) {
    if (b.mesh == int32_t(mapped_mesh) && b.primitive == mapped_primitive) mapped.push_back(b);
  }
  ASSERT_FALSE(mapped.empty());
  const std::vector<uint8_t> where =
      testing::CoveredByTriangles(mapped, recoloured->view_projection, kSize, kSize);
  size_t changed = 0, outside = 0, not_red = 0;
  for (size_t i = 0; i < where.size(); ++i) {
    EXPECT_EQ(after[i * 4 + 3], before[i * 4 + 3]) << "pixel " << i << " drawn in one, not both";
    if (std::equal(&after[i * 4], &after[i * 4 + 3], &before[i * 4])) continue;
    ++changed;
    // Within a pixel of the mapped primitive's projected triangles.
    const int x = int(i % kSize), y = int(i / kSize);
    bool near = false;
    for (int dy = -1; dy <= 1 && !near; ++dy) {
      for (int dx = -1; dx <= 1 && !near; ++dx) {
        const int nx = x + dx, ny = y + dy;
        near = nx >= 0 && ny >= 0 && nx < int(kSize) && ny < int(kSize) &&
               where[size_t(ny) * kSize + size_t(nx)];
      }
    }
    outside += !near;
    not_red += !(after[i * 4] > 0 && after[i * 4 + 1] == 0 && after[i * 4 + 2] == 0);
  }
  EXPECT_GT(changed, size_t(kSize) * kSize / 500);
  EXPECT_EQ(outside, 0u) << "of " << changed << " changed pixels";
  EXPECT_EQ(not_red, 0u) << "of " << changed << " changed pixels";
  // And the mapped primitive's own visible pixels (where it is the nearest surface, by a CPU
  // depth buffer of the whole character) all turned red, but for edges the CPU and the GPU
  // rasterize differently: at most 3 % of them.
  size_t mapped_index = 0;
  while (mapped_index < baked_red->primitives.size() &&
         !(baked_red->primitives[mapped_index].mesh == int32_t(mapped_mesh) &&
           baked_red->primitives[mapped_index].primitive == mapped_primitive)) {
    ++mapped_index;
  }
  const std::vector<testing::NearestTriangle> nearest =
      testing::NearestTriangles(baked_red->primitives, recoloured->view_projection, kSize, kSize);
  size_t visible = 0, kept = 0;
  for (size_t i = 0; i < nearest.size(); ++i) {
    if (nearest[i].primitive != int32_t(mapped_index)) continue;
    ++visible;
    kept += !(after[i * 4] > 0 && after[i * 4 + 1] == 0 && after[i * 4 + 2] == 0);
  }
  EXPECT_GT(visible, 100u);
  EXPECT_LE(kept, visible * 3 / 100) << "of " << visible << " pixels of the mapped primitive";
}

}  // namespace
}  // namespace sinew
