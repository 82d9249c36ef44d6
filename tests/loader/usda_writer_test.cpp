// Writing USD (sinew/loader/usda_writer.h): shared glTF characters written as UsdSkel layers — as
// .usda text, as a .usdc crate file and as a .usdz package — and read back by the UsdSkel loader
// deform as the originals at times across their clip — skeletons,
// the clip as SkelAnimations, influences, blend shapes with their weights — and what cannot be
// written is refused or reported.
#include "sinew/loader/usda_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "loader/face_shapes_fixture.h"
#include "loader/g4mf_fixture.h"
#include "sinew/core/math.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/loader/usd.h"
#include "test_assets.h"

namespace sinew::loader {
namespace {

// Every drawn skinned primitive of `asset`, deformed at `time` of clip `clip` by the generic CPU
// path, its positions (and normals) one after the other in drawn order.
struct Baked {
  std::vector<float> positions, normals;
};

Baked Bake(const Asset& asset, int32_t clip, float time) {
  Baked out;
  auto scene = cpu::EvaluateScene(asset, clip, time);
  EXPECT_TRUE(scene.ok()) << scene.error().ToString();
  if (!scene.ok()) return out;
  for (const cpu::DrawnMesh& d : cpu::DrawnMeshes(asset)) {
    if (d.skin < 0) continue;
    auto palette = cpu::NodePalette(asset, d.node, scene->world);
    EXPECT_TRUE(palette.ok()) << palette.error().ToString();
    if (!palette.ok()) return out;
    for (uint32_t p = 0; p < asset.meshes[d.mesh].primitives.size(); ++p) {
      cpu::DeformedPrimitive deformed;
      const Status s = cpu::DeformPrimitive(asset, d.node, p, scene->world,
                                            scene->pose.weights[d.node], *palette, &deformed);
      EXPECT_TRUE(s.ok()) << s.error().ToString();
      out.positions.insert(out.positions.end(), deformed.positions.begin(),
                           deformed.positions.end());
      out.normals.insert(out.normals.end(), deformed.normals.begin(), deformed.normals.end());
    }
  }
  return out;
}

Asset LoadShared(const char* relative) {
  auto loaded = LoadAsset(sinew::testing::TestAssets() / relative);
  EXPECT_TRUE(loaded.ok()) << loaded.error().ToString();
  return loaded.ok() ? std::move(loaded->loaded.asset) : Asset();
}

Asset ReadBack(std::span<const uint8_t> bytes) {
  auto loaded = LoadUsdFromMemory(bytes);
  EXPECT_TRUE(loaded.ok()) << loaded.error().ToString();
  return loaded.ok() ? std::move(loaded->asset) : Asset();
}

// `original` written in each of USD's three encodings and read back.
std::vector<std::pair<std::string, Asset>> WriteAndReadBack(const Asset& original) {
  std::vector<std::pair<std::string, Asset>> out;
  UsdaWriteReport report;
  auto text = WriteUsda(original, {}, &report);
  EXPECT_TRUE(text.ok()) << text.error().ToString();
  if (!text.ok()) return out;
  out.emplace_back(
      "usda", ReadBack(std::span(reinterpret_cast<const uint8_t*>(text->data()), text->size())));
  auto crate = WriteUsdc(original);
  EXPECT_TRUE(crate.ok()) << crate.error().ToString();
  if (crate.ok()) out.emplace_back("usdc", ReadBack(*crate));
  auto package = WriteUsdz(original, "Character.usdc");
  EXPECT_TRUE(package.ok()) << package.error().ToString();
  if (package.ok()) out.emplace_back("usdz", ReadBack(*package));
  return out;
}

// `original`'s clip 0, and the only clip of `original` written and read back, at the clip's
// start, end and three times between: positions within `tolerance` × the original's extent,
// normals within 1e-4. What is read back skins its normals by UsdSkel's rule
// (NormalBlend::kPerJoint), so the original is baked by that rule too.
void ExpectRoundTrip(Asset original, float tolerance) {
  const auto encodings = WriteAndReadBack(original);
  ASSERT_EQ(encodings.size(), 3u);
  for (Mesh& mesh : original.meshes) {
    for (Primitive& primitive : mesh.primitives) primitive.normal_blend = NormalBlend::kPerJoint;
  }
  for (const auto& [encoding, back] : encodings) {
    SCOPED_TRACE(encoding);
    ASSERT_EQ(back.animations.size(), 1u);
    const cpu::ClipRange range = cpu::RangeOf(original.animations.at(0));
    for (float f : {0.0f, 0.23f, 0.5f, 0.77f, 1.0f}) {
      const float t = range.start + f * range.duration();
      SCOPED_TRACE(t);
      const Baked want = Bake(original, 0, t), got = Bake(back, 0, t);
      ASSERT_EQ(got.positions.size(), want.positions.size());
      ASSERT_FALSE(want.positions.empty());
      const float extent = BoundsDiagonal(want.positions);
      float worst = 0;
      for (size_t i = 0; i < want.positions.size(); ++i) {
        worst = std::max(worst, std::fabs(got.positions[i] - want.positions[i]));
      }
      EXPECT_LE(worst, tolerance * extent);
      ASSERT_EQ(got.normals.size(), want.normals.size());
      float worst_normal = 0;
      for (size_t i = 0; i < want.normals.size(); ++i) {
        worst_normal = std::max(worst_normal, std::fabs(got.normals[i] - want.normals[i]));
      }
      EXPECT_LE(worst_normal, 1e-4f);
    }
  }
}

TEST(UsdaWriter, CesiumManReadBackDeformsAsTheGltfOriginal) {
  ExpectRoundTrip(LoadShared("CesiumMan/CesiumMan.glb"), 1e-5f);
}

TEST(UsdaWriter, FoxReadBackDeformsAsTheGltfOriginal) {
  ExpectRoundTrip(LoadShared("Fox/Fox.glb"), 1e-5f);
}

// The G4MF writer writes no clip, so the character is compared at its rest pose, read back from
// the Skeleton's restTransforms. Its bones stand in their bind pose there, which makes every
// palette entry the identity whatever joint an influence names; so each joint is turned a little
// first, by an angle of its own.
TEST(UsdaWriter, AG4mfCharacterReadBackDeformsAsItsG4mfSelf) {
  Asset g4mf = g4mf_testing::WriteAndLoadG4mf(LoadShared("CesiumMan/CesiumMan.glb"));
  ASSERT_FALSE(g4mf.skins.empty());
  ASSERT_FALSE(g4mf.skins[0].group_joints.empty());
  ASSERT_TRUE(g4mf.meshes.at(0).primitives.at(0).sparse());
  // Groups numbered backwards, so that no group's number is its joint's: the same deformation.
  Skin& skin = g4mf.skins[0];
  const uint32_t groups = uint32_t(skin.group_joints.size());
  std::reverse(skin.group_joints.begin(), skin.group_joints.end());
  for (Mesh& mesh : g4mf.meshes) {
    for (Primitive& primitive : mesh.primitives) {
      ASSERT_LE(primitive.sparse_influences.group_count, groups);
      primitive.sparse_influences.group_count = groups;
      for (uint32_t& group : primitive.sparse_influences.groups) group = groups - 1 - group;
    }
  }
  for (size_t j = 0; j < g4mf.skins[0].joints.size(); ++j) {
    Node& joint = g4mf.nodes[g4mf.skins[0].joints[j]];
    const Quat turn = AxisAngle(1, 0, 0, 0.05f * float(j % 7 + 1));
    if (joint.has_matrix) {
      joint.matrix = Multiply(joint.matrix, ComposeTrs({0, 0, 0}, turn, {1, 1, 1}));
    } else {
      joint.rotation = Multiply(joint.rotation, turn);
    }
  }
  UsdaWriteReport report;
  auto text = WriteUsda(g4mf, {}, &report);
  ASSERT_TRUE(text.ok()) << text.error().ToString();
  EXPECT_TRUE(report.left_out.empty()) << report.left_out.at(0);
  const Asset back =
      ReadBack(std::span(reinterpret_cast<const uint8_t*>(text->data()), text->size()));
  for (Mesh& mesh : g4mf.meshes) {
    for (Primitive& primitive : mesh.primitives) primitive.normal_blend = NormalBlend::kPerJoint;
  }
  const Baked want = Bake(g4mf, -1, 0), got = Bake(back, -1, 0);
  ASSERT_FALSE(want.positions.empty());
  ASSERT_EQ(got.positions.size(), want.positions.size());
  const float extent = BoundsDiagonal(want.positions);
  float worst = 0, moved = 0;
  const std::vector<float>& rest = g4mf.meshes[0].primitives[0].positions;
  for (size_t i = 0; i < want.positions.size(); ++i) {
    worst = std::max(worst, std::fabs(got.positions[i] - want.positions[i]));
    if (i < rest.size()) moved = std::max(moved, std::fabs(want.positions[i] - rest[i]));
  }
  EXPECT_LE(worst, 1e-5f * extent);
  EXPECT_GT(moved, 0.01f * extent);  // the turned joints moved the mesh
}

// A weight on a group without a joint (G4MF's untransformed vertices, which stay in their mesh's
// space) has no UsdSkel form: that primitive is left out, and said.
TEST(UsdaWriter, AG4mfPrimitiveWeightedOnAGroupWithoutAJointIsLeftOut) {
  Asset g4mf = g4mf_testing::WriteAndLoadG4mf(LoadShared("CesiumMan/CesiumMan.glb"));
  ASSERT_FALSE(g4mf.skins.empty());
  g4mf.skins[0].group_joints.at(0) = -1;
  UsdaWriteReport report;
  EXPECT_TRUE(WriteUsda(g4mf, {}, &report).ok());  // the skeleton alone
  ASSERT_EQ(report.left_out.size(), 1u);
  EXPECT_NE(report.left_out[0].find("group 0 has no joint"), std::string::npos)
      << report.left_out[0];
}

// A dual-quaternion primitive is written with primvars:skel:skinningMethod "dualQuaternion", so
// it reads back as dual-quaternion skinning and deforms as before (CesiumMan switched to it; its
// clip bends the knees and elbows, where the two methods differ).
TEST(UsdaWriter, DualQuaternionSkinningReadsBackAsDualQuaternionSkinning) {
  Asset original = LoadShared("CesiumMan/CesiumMan.glb");
  for (Mesh& mesh : original.meshes) {
    for (Primitive& primitive : mesh.primitives)
      primitive.skinning = SkinningMethod::kDualQuaternion;
  }
  for (const auto& [encoding, back] : WriteAndReadBack(original)) {
    SCOPED_TRACE(encoding);
    for (const Mesh& mesh : back.meshes) {
      for (const Primitive& primitive : mesh.primitives) {
        EXPECT_EQ(primitive.skinning, SkinningMethod::kDualQuaternion);
      }
    }
  }
  ExpectRoundTrip(original, 1e-5f);
}

// A UsdSkel skeleton written back keeps its joint tokens ("joint1/joint2", not
// "joint1/joint1_joint2"): what binds to joints by name — an external SkelAnimation, skel:joints,
// retargeting — still finds them.
TEST(UsdaWriter, AUsdSkelSkeletonsJointTokensReadBackAsTheyWere) {
  auto loaded = LoadAsset(sinew::testing::TestConformance() / "usdskel/lbs.usda");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& original = loaded->loaded.asset;
  const auto joint_names = [](const Asset& a) {
    std::vector<std::string> names;
    for (const uint32_t j : a.skins.at(0).joints) names.push_back(a.nodes[j].name);
    return names;
  };
  ASSERT_EQ(joint_names(original),
            (std::vector<std::string>{"joint1", "joint1/joint2", "joint1/joint2/joint3"}));
  for (const auto& [encoding, back] : WriteAndReadBack(original)) {
    SCOPED_TRACE(encoding);
    EXPECT_EQ(joint_names(back), joint_names(original));
  }
}

// Its skinned meshes' two skins (the same joints, the same inverse binds) become one skeleton, so
// one clip moves them all.
TEST(UsdaWriter, RobotExpressivesTwoSkinsOfOneSkeletonReadBackAsOneAndDeformAsTheOriginal) {
  ExpectRoundTrip(LoadShared("three_RobotExpressive/RobotExpressive.glb"), 1e-5f);
}

// No shared skinned file has blend shapes: CesiumMan gets procedural ones (positions and normal
// offsets, every fifth shape with an in-between at 0.5) at nonzero weights, which reach the layer
// as BlendShapes and the SkelAnimation's blend-shape weights.
TEST(UsdaWriter, BlendShapesWithInbetweensOnASkinnedMeshReadBackAsTheOriginal) {
  Asset cesium = LoadShared("CesiumMan/CesiumMan.glb");
  ASSERT_EQ(cesium.meshes.size(), 1u);
  Mesh& mesh = cesium.meshes[0];
  ASSERT_NO_FATAL_FAILURE(writer_testing::AddFaceShapes(&mesh));
  size_t weighted = 0;
  for (Node& node : cesium.nodes) {
    if (node.mesh != 0) continue;
    node.weights.resize(mesh.primitives[0].targets.size());
    for (size_t t = 0; t < node.weights.size(); ++t) node.weights[t] = 0.1f * float(t % 9 + 1);
    ++weighted;
  }
  ASSERT_EQ(weighted, 1u);
  ExpectRoundTrip(cesium, 1e-5f);
}

// A UsdSkel clip with a blocked sample (the skeleton at rest from time code 7 to 9, the pose
// before it held) jumps at 7: its keys there, a float step apart, are written so that the jump
// stays at time code 7 and the hold before it stays a hold, in each encoding.
TEST(UsdaWriter, AClipThatJumpsAtABlockedSampleReadsBackJumpingThere) {
  const std::string text =
      "#usda 1.0\n(\n    timeCodesPerSecond = 24\n)\n"
      "def SkelRoot \"R\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n"
      "    def Skeleton \"Skel\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n"
      "    {\n"
      "        uniform token[] joints = [\"a\"]\n"
      "        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
      "        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
      "        rel skel:animationSource = </R/Skel/Anim>\n"
      "        def SkelAnimation \"Anim\"\n        {\n"
      "            uniform token[] joints = [\"a\"]\n"
      "            float3[] translations.timeSamples = { 0: [(0,0,0)], 5: [(0,4,0)], 7: None, "
      "9: [(0,10,0)], 10: [(0,12,0)] }\n"
      "            quatf[] rotations = [(1, 0, 0, 0)]\n"
      "            half3[] scales = [(1, 1, 1)]\n"
      "        }\n"
      "    }\n"
      "    def Mesh \"M\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n"
      "        rel skel:skeleton = </R/Skel>\n"
      "        point3f[] points = [(0,0,0), (1,0,0), (1,1,0)]\n"
      "        int[] faceVertexCounts = [3]\n"
      "        int[] faceVertexIndices = [0, 1, 2]\n"
      "        int[] primvars:skel:jointIndices = [0] (interpolation = \"constant\")\n"
      "        float[] primvars:skel:jointWeights = [1] (interpolation = \"constant\")\n"
      "    }\n}\n";
  const Asset original =
      ReadBack(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  ASSERT_EQ(original.animations.size(), 1u);
  for (const auto& [encoding, back] : WriteAndReadBack(original)) {
    SCOPED_TRACE(encoding);
    // Point 0's y: 0 → 4 over 0..5, held 4 until 7, rest (0) until 9, then 10 → 12.
    for (const auto& [code, y] : std::vector<std::pair<double, float>>{
             {2.5, 2}, {5, 4}, {6, 4}, {6.99, 4}, {7, 0}, {8, 0}, {8.99, 0}, {9, 10}, {9.5, 11}}) {
      SCOPED_TRACE(code);
      const float t = float(code / 24);
      const Baked want = Bake(original, 0, t), got = Bake(back, 0, t);
      ASSERT_EQ(want.positions.size(), 9u);
      ASSERT_EQ(got.positions.size(), 9u);
      EXPECT_NEAR(want.positions[1], y, 1e-4f);
      EXPECT_NEAR(got.positions[1], y, 1e-4f);
    }
  }
}

TEST(UsdaWriter, OtherClipsAreReportedAsLeftOut) {
  const Asset fox = LoadShared("Fox/Fox.glb");
  ASSERT_EQ(fox.animations.size(), 3u);
  UsdaWriteReport report;
  UsdaWriteOptions options;
  options.animation = 1;
  ASSERT_TRUE(WriteUsda(fox, options, &report).ok());
  EXPECT_EQ(report.left_out.size(), 2u);
}

TEST(UsdaWriter, AnAssetWithoutASkinIsRefused) {
  const Asset cube = LoadShared("AnimatedMorphCube/AnimatedMorphCube.gltf");
  const auto text = WriteUsda(cube);
  EXPECT_EQ(text.code(), Error::kInvalidArgument);
  EXPECT_EQ(text.error().where, "nodes");
  UsdaWriteOptions bad;
  bad.time_codes_per_second = 0;
  EXPECT_EQ(WriteUsda(LoadShared("Fox/Fox.glb"), bad).code(), Error::kInvalidArgument);
}

}  // namespace
}  // namespace sinew::loader
