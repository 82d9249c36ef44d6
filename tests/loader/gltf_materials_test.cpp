// glTF materials as sinew::Material: the name and pbrMetallicRoughness.baseColorFactor, what a
// renderer of the deformed meshes draws with (docs/gltf.md, "Materials").
#include <gtest/gtest.h>

#include <string>

#include "loader/gltf_fixture.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::loader {
namespace {

using testing::ExpectError;
using testing::LoadBytes;
using testing::Replace;
using testing::ValidGltf;

std::string WithMaterials(const std::string& materials) {
  return Replace(ValidGltf(), R"("scene": 0,)", R"("scene": 0, "materials": )" + materials + ",");
}

TEST(GltfMaterials, ReadsTheNameAndBaseColorFactor) {
  auto loaded = LoadBytes(WithMaterials(
      R"([{"name": "skin", "pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1, 0.75]}}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.materials.size(), 1u);
  const Material& m = loaded->asset.materials[0];
  EXPECT_EQ(m.name, "skin");
  EXPECT_EQ(m.base_color.x, 0.5f);
  EXPECT_EQ(m.base_color.y, 0.25f);
  EXPECT_EQ(m.base_color.z, 1.0f);
  EXPECT_EQ(m.base_color.w, 0.75f);
  EXPECT_TRUE(loaded->warnings.empty());
}

// The spec's default base colour is opaque white.
TEST(GltfMaterials, DefaultsToWhiteWithoutAFactor) {
  auto loaded = LoadBytes(WithMaterials(R"([{}, {"pbrMetallicRoughness": {}}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.materials.size(), 2u);
  for (const Material& m : loaded->asset.materials) {
    EXPECT_EQ(m.base_color.x, 1.0f);
    EXPECT_EQ(m.base_color.w, 1.0f);
    EXPECT_EQ(m.name, "");
  }
}

// Out of the spec's [0, 1] changes no geometry: clamped, with a warning naming the component.
TEST(GltfMaterials, ClampsAFactorOutsideZeroToOneWithAWarning) {
  auto loaded = LoadBytes(
      WithMaterials(R"([{"pbrMetallicRoughness": {"baseColorFactor": [1.5, 0, 0, 1]}}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.materials[0].base_color.x, 1.0f);
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/materials/0/pbrMetallicRoughness/baseColorFactor/0");
}

TEST(GltfMaterials, RejectsAFactorOfThreeNumbers) {
  ExpectError(WithMaterials(R"([{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1]}}])"),
              Error::kInvalidValue, "/materials/0/pbrMetallicRoughness/baseColorFactor");
}

TEST(GltfMaterials, RejectsAMaterialThatIsNotAnObject) {
  ExpectError(WithMaterials(R"([{}, 3])"), Error::kWrongType, "/materials/1");
}

// Every shared asset's materials load: CesiumMan's one textured material keeps white.
TEST(GltfMaterials, LoadsCesiumMansMaterial) {
  auto loaded = LoadGltf(sinew::testing::TestAssets() / "CesiumMan/CesiumMan.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.materials.size(), 1u);
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].material, 0);
  const Float4& white = loaded->asset.materials[0].base_color;
  EXPECT_EQ(white.x, 1.0f);
  EXPECT_EQ(white.y, 1.0f);
  EXPECT_EQ(white.z, 1.0f);
  EXPECT_EQ(white.w, 1.0f);
}

}  // namespace
}  // namespace sinew::loader
