// `sinew render`'s pictures (samples/sinew/render.h: a SkinCache's outputs drawn by the engine
// sample's graphics pass) checked against the CPU reference, not against stored pictures: the
// CPU bake of the same pose, projected with the same camera, must land on drawn pixels, and the
// drawn area must be the area its triangles cover. Every shared skinned or morphing asset and
// Pixar's UsdSkel scenes, one time of one clip each, on lavapipe with the validation layer on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bake.h"
#include "bake_files.h"
#include "camera.h"
#include "gpu/gpu_test.h"
#include "gpu/shared_assets.h"
#include "render.h"
#include "sinew/cpu/sample_animation_job.h"
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
    o.pose.anim = "0";
    const cpu::ClipRange range = cpu::RangeOf(a.animations[0]);
    o.pose.time = range.start + 0.4f * range.duration();
  }
  return o;
}

// Pixels whose centre lies inside (or on the edge of) a projected triangle of `baked`, as a
// rasterizer covers them: the CPU's own picture of the area.
std::vector<uint8_t> CoveredByTriangles(const std::vector<BakedPrimitive>& baked,
                                        const Float4x4& view_projection) {
  std::vector<uint8_t> mask(size_t(kSize) * kSize, 0);
  for (const BakedPrimitive& b : baked) {
    const std::vector<uint32_t> tris = tool::BakedTriangles(b);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
      float x[3], y[3];
      bool visible = true;
      for (int k = 0; k < 3; ++k) {
        const float* p = &b.data.positions[size_t(tris[t + size_t(k)]) * 3];
        visible &=
            engine::ProjectToPixel(view_projection, {p[0], p[1], p[2]}, kSize, kSize, &x[k], &y[k]);
      }
      if (!visible) continue;
      const float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
      if (area == 0) continue;
      const int x0 = std::max(0, int(std::floor(std::min({x[0], x[1], x[2]}))));
      const int x1 = std::min(int(kSize) - 1, int(std::ceil(std::max({x[0], x[1], x[2]}))));
      const int y0 = std::max(0, int(std::floor(std::min({y[0], y[1], y[2]}))));
      const int y1 = std::min(int(kSize) - 1, int(std::ceil(std::max({y[0], y[1], y[2]}))));
      for (int py = y0; py <= y1; ++py) {
        for (int px = x0; px <= x1; ++px) {
          const float cx = float(px) + 0.5f, cy = float(py) + 0.5f;
          float e[3];
          for (int k = 0; k < 3; ++k) {
            const int n = (k + 1) % 3;
            e[k] = ((x[n] - x[k]) * (cy - y[k]) - (y[n] - y[k]) * (cx - x[k])) / area;
          }
          if (e[0] >= 0 && e[1] >= 0 && e[2] >= 0) mask[size_t(py) * kSize + size_t(px)] = 1;
        }
      }
    }
  }
  return mask;
}

class RenderGpu : public testing::GpuTest, public ::testing::WithParamInterface<const char*> {};

// Whether the 3x3 pixels around (x, y) hold a nonzero entry of `mask` (stride 1) or, with
// stride 4 and offset 3, a drawn pixel of an RGBA picture.
bool AnyAround(const std::vector<uint8_t>& data, size_t stride, size_t offset, int x, int y) {
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= int(kSize) || ny >= int(kSize)) continue;
      if (data[(size_t(ny) * kSize + size_t(nx)) * stride + offset] != 0) return true;
    }
  }
  return false;
}

// The picture against the CPU bake of the same pose, projected with the same camera:
// * every vertex it draws that projects into the picture falls on a drawn pixel (within one
//   pixel) wherever the CPU's own coverage of the triangles puts one there — that is, except at
//   the tip of a sliver too thin to cover a pixel centre, which may be 1 % of the vertices (and
//   two more);
// * the drawn pixels are the pixels the projected triangles cover: for assets of triangles only,
//   the two differ in at most 1 % of that area (pixels whose centre lies on an edge), and lines
//   and points only add pixels;
// * the camera frames the character: more than 0.5 % of the picture is drawn.
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
  const std::vector<uint8_t> mask =
      CoveredByTriangles(baked->primitives, rendered->view_projection);

  size_t projected = 0, missed = 0, slivers = 0;
  bool triangles_only = true;
  for (const BakedPrimitive& b : baked->primitives) {
    triangles_only &= b.mode == 4;
    if (b.mode != 0 && b.mode != 1 && b.mode != 4) continue;
    // The vertices the primitive draws (an index buffer may leave some out).
    std::vector<bool> used(b.data.positions.size() / 3, !b.indices || b.indices->empty());
    if (b.indices) {
      for (uint32_t i : *b.indices) used.at(i) = true;
    }
    for (size_t v = 0; v < used.size(); ++v) {
      if (!used[v]) continue;
      float x = 0, y = 0;
      const float* p = &b.data.positions[v * 3];
      if (!engine::ProjectToPixel(rendered->view_projection, {p[0], p[1], p[2]}, kSize, kSize, &x,
                                  &y) ||
          x < 0 || y < 0 || x >= float(kSize) || y >= float(kSize)) {
        continue;
      }
      ++projected;
      const int px = int(std::floor(x)), py = int(std::floor(y));
      if (b.mode == 4 && !AnyAround(mask, 1, 0, px, py)) {
        ++slivers;
        continue;
      }
      if (!AnyAround(rgba, 4, 3, px, py)) {
        ++missed;
        ADD_FAILURE() << "vertex " << v << " at pixel (" << x << ", " << y << ") not drawn";
      }
    }
  }
  EXPECT_GT(projected, 0u);
  EXPECT_EQ(missed, 0u) << "of " << projected << " projected vertices";
  EXPECT_LE(slivers, projected / 100 + 2) << "of " << projected << " projected vertices";

  size_t cpu_area = 0, gpu_area = 0, differ = 0;
  for (size_t i = 0; i < mask.size(); ++i) {
    const bool drawn = rgba[i * 4 + 3] != 0;
    cpu_area += mask[i];
    gpu_area += drawn;
    differ += drawn != (mask[i] != 0);
  }
  EXPECT_GT(gpu_area, size_t(kSize) * kSize / 200);
  if (triangles_only) {
    EXPECT_LE(double(differ), 0.01 * double(cpu_area) + 4)
        << "pixels drawn but not covered, or covered but not drawn, of " << cpu_area;
  } else {
    EXPECT_GE(double(gpu_area), 0.99 * double(cpu_area));
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, RenderGpu,
                         ::testing::ValuesIn(testing::kSkinnedOrMorphingAssets));

INSTANTIATE_TEST_SUITE_P(UsdSkelScenes, RenderGpu, ::testing::ValuesIn(testing::kUsdSkelScenes));

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
  const std::vector<uint8_t> where = CoveredByTriangles(mapped, recoloured->view_projection);
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
}

}  // namespace
}  // namespace sinew
