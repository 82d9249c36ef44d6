// KHR_materials_variants, KHR_character_skeleton_bindpose and SINEW_morph_inbetweens.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
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

// --- KHR_materials_variants -------------------------------------------------------------------

// Three variants, three materials; the primitive's default material is 0.
std::string WithVariants(const std::string& mappings) {
  std::string json = Replace(ValidGltf(), R"("scene": 0,)", R"("scene": 0,
    "extensionsUsed": ["KHR_materials_variants"],
    "extensions": {"KHR_materials_variants": {"variants": [{"name": "red"}, {"name": "green"},
                                                           {"name": "blue"}]}},
    "materials": [{}, {}, {}],)");
  return Replace(json, R"("WEIGHTS_0": 2}})",
                 R"("WEIGHTS_0": 2}, "material": 0,
      "extensions": {"KHR_materials_variants": {"mappings": )" +
                     mappings + "}}}");
}

constexpr const char* kMappingsWhere =
    "/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings";

TEST(MaterialsVariants, BuildsAMaterialTablePerPrimitive) {
  auto loaded = LoadBytes(
      WithVariants(R"([{"material": 1, "variants": [0, 2]}, {"material": 2, "variants": [1]}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.variants, (std::vector<std::string>{"red", "green", "blue"}));
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  EXPECT_EQ(p.variant_materials, (std::vector<int32_t>{1, 2, 1}));
  EXPECT_EQ(p.MaterialFor(-1), 0);  // No active variant: the default material.
  EXPECT_EQ(p.MaterialFor(0), 1);
  EXPECT_EQ(p.MaterialFor(1), 2);
  EXPECT_EQ(p.MaterialFor(2), 1);
}

TEST(MaterialsVariants, AnUnmappedVariantKeepsTheDefaultMaterial) {
  auto loaded = LoadBytes(WithVariants(R"([{"material": 2, "variants": [1]}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  EXPECT_EQ(p.MaterialFor(0), 0);
  EXPECT_EQ(p.MaterialFor(1), 2);
  EXPECT_EQ(p.MaterialFor(2), 0);
}

TEST(MaterialsVariants, RejectsAVariantMappedTwiceInOnePrimitiveNamingIt) {
  auto json =
      WithVariants(R"([{"material": 1, "variants": [0]}, {"material": 2, "variants": [2, 0]}])");
  ExpectError(json, Error::kInvalidValue, std::string(kMappingsWhere) + "/1/variants/1");
  auto loaded = LoadBytes(json);
  EXPECT_NE(loaded.error().message.find("/meshes/0/primitives/0"), std::string::npos);
}

TEST(MaterialsVariants, RejectsAnUnknownVariantIndex) {
  ExpectError(WithVariants(R"([{"material": 1, "variants": [3]}])"), Error::kInvalidReference,
              std::string(kMappingsWhere) + "/0/variants/0");
}

TEST(MaterialsVariants, RejectsAnUnknownMaterialIndex) {
  ExpectError(WithVariants(R"([{"material": 3, "variants": [0]}])"), Error::kInvalidReference,
              std::string(kMappingsWhere) + "/0/material");
}

TEST(MaterialsVariants, RejectsAVariantWithoutAName) {
  ExpectError(Replace(WithVariants("[]"), R"({"name": "green"})", "{}"), Error::kMissingProperty,
              "/extensions/KHR_materials_variants/variants/1/name");
}

// --- KHR_character_skeleton_bindpose ----------------------------------------------------------

std::string WithPoses(const std::string& poses) {
  return Replace(ValidGltf(), R"("skins": [{"joints": [0, 1]}])",
                 R"("skins": [{"joints": [0, 1], "extensions": {"KHR_character_skeleton_bindpose":
                    {"poses": )" +
                     poses + "}}}]");
}

const std::string kIdentity = "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]";
const std::string kUp = "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1]";
constexpr const char* kPosesWhere = "/skins/0/extensions/KHR_character_skeleton_bindpose/poses";

TEST(SkeletonBindPose, LoadsEachPoseInJointOrder) {
  auto loaded = LoadBytes(WithPoses(R"([{"poseType": "TPose", "bindPoses": [{"matrix": )" +
                                    kIdentity + R"(}, {"matrix": )" + kUp + R"(}]},
                                        {"poseType": "APose", "bindPoses": [{"matrix": )" +
                                    kIdentity + R"(}, {"matrix": )" + kIdentity + "}]}]"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Skin& skin = loaded->asset.skins[0];
  ASSERT_EQ(skin.bind_poses.size(), 2u);
  EXPECT_EQ(skin.bind_poses[0].type, PoseType::kTPose);
  EXPECT_EQ(skin.bind_poses[1].type, PoseType::kAPose);
  ASSERT_EQ(skin.bind_poses[0].matrices.size(), 2u);
  EXPECT_EQ(skin.bind_poses[0].matrices[1].m[3][1], 1.0f);  // Column 3 is the translation.
}

TEST(SkeletonBindPose, LoadsTheSharedSyntheticAsset) {
  const std::filesystem::path assets = sinew::testing::TestAssets();
  auto loaded = LoadGltf(assets / "synthetic/SimpleSkin_interp_bindpose.gltf");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Skin& skin = loaded->asset.skins[0];
  ASSERT_EQ(skin.bind_poses.size(), 2u);
  EXPECT_EQ(skin.bind_poses[0].type, PoseType::kIPose);
  EXPECT_EQ(skin.bind_poses[1].type, PoseType::kTPose);
  EXPECT_EQ(skin.bind_poses[1].matrices.size(), skin.joints.size());
}

TEST(SkeletonBindPose, RejectsTwoPosesOfOneType) {
  ExpectError(WithPoses(R"([{"poseType": "TPose", "bindPoses": [{"matrix": )" + kIdentity +
                        R"(}, {"matrix": )" + kIdentity + R"(}]},
                            {"poseType": "TPose", "bindPoses": [{"matrix": )" +
                        kIdentity + R"(}, {"matrix": )" + kIdentity + "}]}]"),
              Error::kInvalidValue, std::string(kPosesWhere) + "/1/poseType");
}

TEST(SkeletonBindPose, RejectsAnUnknownPoseType) {
  ExpectError(WithPoses(R"([{"poseType": "XPose", "bindPoses": []}])"), Error::kInvalidValue,
              std::string(kPosesWhere) + "/0/poseType");
}

TEST(SkeletonBindPose, RejectsALengthOtherThanTheJointCount) {
  ExpectError(WithPoses(R"([{"poseType": "IPose", "bindPoses": [{"matrix": )" + kIdentity + "}]}]"),
              Error::kInvalidValue, std::string(kPosesWhere) + "/0/bindPoses");
}

TEST(SkeletonBindPose, RejectsAMatrixThatIsNotAffine) {
  ExpectError(WithPoses(R"([{"poseType": "IPose", "bindPoses": [{"matrix": )" + kIdentity +
                        R"(}, {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0.5, 0,0,0,1]}]}])"),
              Error::kInvalidValue, std::string(kPosesWhere) + "/0/bindPoses/1/matrix");
}

TEST(SkeletonBindPose, RejectsAMatrixOfFifteenNumbers) {
  ExpectError(WithPoses(R"([{"poseType": "IPose", "bindPoses": [{"matrix": [1,0,0,0, 0,1,0,0,
                            0,0,1,0, 0,0,1]}, {"matrix": )" +
                        kIdentity + "}]}]"),
              Error::kInvalidValue, std::string(kPosesWhere) + "/0/bindPoses/0/matrix");
}

// --- SINEW_morph_inbetweens -------------------------------------------------------------------

// The fixture's primitive with 4 morph targets (all reusing the positions as offsets).
std::string WithInbetweens(const std::string& shapes) {
  std::string json = Replace(ValidGltf(), R"("WEIGHTS_0": 2}})",
                             R"("WEIGHTS_0": 2},
      "targets": [{"POSITION": 0}, {"POSITION": 0}, {"POSITION": 0}, {"POSITION": 0}]})");
  return Replace(json, R"("meshes": [{"primitives")",
                 R"("meshes": [{"extensions": {"SINEW_morph_inbetweens": {"shapes": )" + shapes +
                     R"(}}, "primitives")");
}

constexpr const char* kShapesWhere = "/meshes/0/extensions/SINEW_morph_inbetweens/shapes";

TEST(MorphInbetweens, LoadsShapesWithTheirInbetweensInFileOrder) {
  auto loaded = LoadBytes(WithInbetweens(
      R"([{"target": 0, "inbetweens": [{"target": 2, "weight": 0.5},
                                       {"target": 1, "weight": -0.5}]},
          {"target": 3, "inbetweens": []}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const auto& shapes = loaded->asset.meshes[0].inbetween_shapes;
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].primary, 0u);
  ASSERT_EQ(shapes[0].inbetweens.size(), 2u);
  EXPECT_EQ(shapes[0].inbetweens[0].target, 2u);
  EXPECT_EQ(shapes[0].inbetweens[0].weight, 0.5f);
  EXPECT_EQ(shapes[0].inbetweens[1].target, 1u);
  EXPECT_EQ(shapes[0].inbetweens[1].weight, -0.5f);
  EXPECT_TRUE(shapes[1].inbetweens.empty());
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(MorphInbetweens, IgnoresWeightsAtZeroOrOneWithAWarning) {
  auto loaded = LoadBytes(WithInbetweens(
      R"([{"target": 0, "inbetweens": [{"target": 1, "weight": 1.0000001},
                                       {"target": 2, "weight": 0.0}]}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->asset.meshes[0].inbetween_shapes[0].inbetweens.empty());
  ASSERT_EQ(loaded->warnings.size(), 2u);
  EXPECT_EQ(loaded->warnings[0].where, std::string(kShapesWhere) + "/0/inbetweens/0/weight");
  EXPECT_EQ(loaded->warnings[1].where, std::string(kShapesWhere) + "/0/inbetweens/1/weight");
}

TEST(MorphInbetweens, KeepsTheFirstOfTwoEqualWeightsWithAWarning) {
  auto loaded = LoadBytes(WithInbetweens(
      R"([{"target": 0, "inbetweens": [{"target": 2, "weight": 0.5},
                                       {"target": 1, "weight": 0.5}]}])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const auto& inbetweens = loaded->asset.meshes[0].inbetween_shapes[0].inbetweens;
  ASSERT_EQ(inbetweens.size(), 1u);
  EXPECT_EQ(inbetweens[0].target, 2u);
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, std::string(kShapesWhere) + "/0/inbetweens/1/weight");
}

TEST(MorphInbetweens, RejectsAnInbetweenThatIsItsOwnPrimary) {
  ExpectError(WithInbetweens(R"([{"target": 0, "inbetweens": [{"target": 0, "weight": 0.5}]}])"),
              Error::kInvalidValue, std::string(kShapesWhere) + "/0/inbetweens/0/target");
}

TEST(MorphInbetweens, RejectsATargetUsedByTwoShapes) {
  ExpectError(WithInbetweens(R"([{"target": 0, "inbetweens": [{"target": 2, "weight": 0.5}]},
                                 {"target": 1, "inbetweens": [{"target": 2, "weight": 0.5}]}])"),
              Error::kInvalidValue, std::string(kShapesWhere) + "/1/inbetweens/0/target");
}

TEST(MorphInbetweens, RejectsATargetPastTheMorphTargets) {
  ExpectError(WithInbetweens(R"([{"target": 4, "inbetweens": []}])"), Error::kInvalidReference,
              std::string(kShapesWhere) + "/0/target");
}

TEST(MorphInbetweens, RequiresAWeight) {
  ExpectError(WithInbetweens(R"([{"target": 0, "inbetweens": [{"target": 1}]}])"),
              Error::kMissingProperty, std::string(kShapesWhere) + "/0/inbetweens/0/weight");
}

TEST(MorphInbetweens, IsAcceptedWhenRequired) {
  auto loaded = LoadBytes(
      Replace(WithInbetweens(R"([{"target": 0, "inbetweens": [{"target": 1, "weight": 0.5}]}])"),
              R"("scene": 0,)",
              R"("scene": 0, "extensionsUsed": ["SINEW_morph_inbetweens"],
         "extensionsRequired": ["SINEW_morph_inbetweens"],)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
}

}  // namespace
}  // namespace sinew::loader
