// `sinew bake --device gpu` (BakeAsset with a context): the fused GPU kernel on the baked pose ==
// the CPU bake within 1e-5 x extent, at a time of a clip and in a bind pose (docs/bake.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "bake.h"
#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::tool {
namespace {

class BakeGpu : public testing::GpuTest {};

TEST_F(BakeGpu, GpuBakeEqualsTheCpuBake) {
  const struct {
    const char* file;
    BakeOptions options;
  } kCases[] = {
      {"CesiumMan/CesiumMan.glb", {.anim = "0", .time = 0.9f}},
      {"Fox/Fox.glb", {.anim = "2", .time = 0.4f}},
      {"synthetic/SimpleSkin_interp_bindpose.gltf", {.pose = "bind:TPose"}},
      {"AnimatedMorphCube/AnimatedMorphCube.gltf", {.anim = "0", .time = 1.3f}},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.file);
    auto loaded = loader::LoadGltf(sinew::testing::TestAssets() / c.file);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    auto cpu = BakeAsset(loaded->asset, c.options);
    ASSERT_TRUE(cpu.ok()) << cpu.error().ToString();
    auto gpu = BakeAsset(loaded->asset, c.options, context_.get());
    ASSERT_TRUE(gpu.ok()) << gpu.error().ToString();
    ASSERT_EQ(gpu->primitives.size(), cpu->primitives.size());
    ASSERT_GT(cpu->primitives.size(), 0u);
    for (size_t i = 0; i < cpu->primitives.size(); ++i) {
      const cpu::DeformedPrimitive& expected = cpu->primitives[i].data;
      const cpu::DeformedPrimitive& actual = gpu->primitives[i].data;
      const float extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
      EXPECT_LE(sinew::testing::MaxAbsDiff(actual.positions, expected.positions), 1e-5f * extent);
      EXPECT_LE(sinew::testing::MaxAbsDiff(actual.normals, expected.normals), 1e-5f);
      EXPECT_LE(sinew::testing::MaxAbsDiff(actual.tangents, expected.tangents), 1e-5f);
    }
  }
}

}  // namespace
}  // namespace sinew::tool
