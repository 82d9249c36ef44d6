// `sinew bake`'s values (docs/bake.md), through BakeAsset and the writers the command runs: bind
// poses on a hand-made skeleton and a shared asset, explicit morph weights, material variants in
// the manifest, the manifest's layout, the binary and OBJ read back, and the CPU reference on a
// shared clip.
#include "bake.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bake_files.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/usd.h"
#include "test_assets.h"
#include "tool/tool_run.h"

namespace sinew::tool {
namespace {

constexpr float kPi = 3.14159265358979f;

Quat RotZ(float degrees) { return AxisAngle(0, 0, 1, degrees * kPi / 180); }

Float4x4 Translate(Float3 t) { return ComposeTrs(t, {}, {1, 1, 1}); }

void ExpectPositions(const std::vector<float>& actual, const std::vector<float>& expected,
                     float tolerance = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "vertex " << i / 3 << " axis " << i % 3;
  }
}

using testing::JsonDocument;
using testing::JsonValue;
using testing::ReadText;
using testing::ScratchDir;

// The manifest's primitive whose node is named `node_name`.
JsonValue PrimitiveOfNode(const JsonValue& manifest, const std::string& node_name) {
  for (const JsonValue& p : manifest["primitives"].Elements()) {
    if (p["nodeName"].String() == node_name) return p;
  }
  throw std::runtime_error("no primitive of node '" + node_name + "'");
}

// Joints Root (node 0) -> Arm (node 1) -> Hat (node 2, not a joint, with an unskinned triangle at
// (1, 0, 0) from Arm); Body (node 3) skins a triangle with them. Bound with Root at (0, 1, 0) and
// Arm at (0, 2, 0); the TPose has Arm turned 90° about Z. Every joint's own TRS is far off, so only
// a bind pose can put the joints where the checks expect them.
Asset ArmWithAHat() {
  Asset a;
  a.nodes.resize(4);
  a.nodes[0].name = "Root";
  a.SetChildren(0, {1});
  a.nodes[1].name = "Arm";
  a.nodes[1].parent = 0;
  a.SetChildren(1, {2});
  for (int j : {0, 1}) {
    a.nodes[size_t(j)].translation = {9, -9, 9};
    a.nodes[size_t(j)].rotation = AxisAngle(1, 0, 0, 1.3f);
    a.nodes[size_t(j)].scale = {3, 3, 3};
  }
  a.nodes[2].name = "Hat";
  a.nodes[2].parent = 1;
  a.nodes[2].translation = {1, 0, 0};
  a.nodes[2].mesh = 1;
  a.nodes[3].name = "Body";
  a.nodes[3].mesh = 0;
  a.nodes[3].skin = 0;
  a.nodes[3].translation = {100, 0, 0};  // a skinned node's own transform is ignored
  a.scenes.push_back({"", {0, 3}});
  a.scene = 0;

  Skin skin;
  skin.joints = {0, 1};
  skin.inverse_binds = {Translate({0, -1, 0}), Translate({0, -2, 0})};
  skin.bind_poses.push_back(
      {PoseType::kTPose, {Translate({0, 1, 0}), ComposeTrs({0, 2, 0}, RotZ(90), {1, 1, 1})}});
  a.skins.push_back(skin);

  Primitive body;
  body.positions = {0, 1, 0, 1, 2, 0, 0.5f, 2, 0};  // on Root, on Arm, half and half
  body.influences.influences_per_vertex = 4;
  body.influences.joints = {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
  body.influences.weights = {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};
  Primitive hat;
  hat.positions = {0, 0, 0, 0, 1, 0, 0, 0, 1};
  a.meshes.push_back({"body", {body}, {}, {}});
  a.meshes.push_back({"hat", {hat}, {}, {}});
  return a;
}

TEST(Bake, BindTPosePutsTheSkinInItsPoseAndTheJointsChildrenFollow) {
  const Asset a = ArmWithAHat();
  BakeOptions o;
  o.pose = "bind:TPose";
  auto baked = BakeAsset(a, o);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ASSERT_EQ(baked->primitives.size(), 2u);
  // Drawn order: Root, Body, Arm, Hat.
  EXPECT_EQ(baked->primitives[0].node, 3u);
  EXPECT_EQ(baked->primitives[1].node, 2u);
  // Root's palette entry is T(0,1,0)·T(0,-1,0) = identity; Arm's turns 90° about (0, 2, 0):
  // (1, 2, 0) -> (0, 3, 0); (0.5, 2, 0) -> (0, 2.5, 0), averaged with itself: (0.25, 2.25, 0).
  ExpectPositions(baked->primitives[0].data.positions, {0, 1, 0, 0, 3, 0, 0.25f, 2.25f, 0});
  // The hat: T(0,2,0)·RotZ(90)·T(1,0,0) applied to (0,0,0), (0,1,0), (0,0,1).
  ExpectPositions(baked->primitives[1].data.positions, {0, 3, 0, -1, 3, 0, 0, 3, 1});
}

TEST(Bake, BindPoseIsTheMeshAsBoundWithTheJointsChildrenAtTheirBoundPlaces) {
  const Asset a = ArmWithAHat();
  BakeOptions o;
  o.pose = "bind";
  auto baked = BakeAsset(a, o);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ASSERT_EQ(baked->primitives.size(), 2u);
  ExpectPositions(baked->primitives[0].data.positions, a.meshes[0].primitives[0].positions);
  ExpectPositions(baked->primitives[1].data.positions, {1, 2, 0, 1, 3, 0, 1, 2, 1});
}

TEST(Bake, ABindTypeNoSkinHasIsAnError) {
  BakeOptions o;
  o.pose = "bind:APose";
  auto baked = BakeAsset(ArmWithAHat(), o);
  ASSERT_FALSE(baked.ok());
  EXPECT_EQ(baked.code(), Error::kInvalidArgument);
  EXPECT_EQ(baked.error().message, "no skin has a bind pose of type APose");
  o.pose = "bind:Tpose";
  EXPECT_EQ(BakeAsset(ArmWithAHat(), o).code(), Error::kInvalidArgument);
  EXPECT_FALSE(IsBakePose("bind:Tpose"));
  EXPECT_TRUE(IsBakePose("bind:Custom"));
}

TEST(Bake, ABindPoseTheSkinCannotTakeNamesTheSkin) {
  Asset a = ArmWithAHat();
  // Sheared: not translation, rotation and scale.
  a.skins[0].bind_poses[0].matrices[1] =
      Multiply(Scaling(1, 2, 1), ComposeTrs({}, RotZ(45), {1, 1, 1}));
  BakeOptions o;
  o.pose = "bind:TPose";
  auto baked = BakeAsset(a, o);
  EXPECT_EQ(baked.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(baked.error().where, "skins/0/matrices/1");
}

// Joints given as matrices are posed all the same (as T/R/S nodes).
TEST(Bake, ABindPoseMovesJointsTheFileGivesAsMatrices) {
  Asset a = ArmWithAHat();
  a.nodes[1].has_matrix = true;
  a.nodes[1].matrix = Translate({7, 7, 7});
  BakeOptions o;
  o.pose = "bind:TPose";
  auto baked = BakeAsset(a, o);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ExpectPositions(baked->primitives[0].data.positions, {0, 1, 0, 0, 3, 0, 0.25f, 2.25f, 0});
  ExpectPositions(baked->primitives[1].data.positions, {0, 3, 0, -1, 3, 0, 0, 3, 1});
}

// synthetic/SimpleSkin_interp_bindpose.gltf: joints 1 and 2 bound at (0.5, 1, 0); its TPose turns
// joint 2 by 30° about Z at that point, its IPose is the bind pose.
TEST(Bake, SharedAssetInItsTPoseAndIPoseAsComputedByHand) {
  auto loaded =
      loader::LoadGltf(testing::TestAssets() / "synthetic/SimpleSkin_interp_bindpose.gltf");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  const Primitive& p = a.meshes[0].primitives[0];
  BakeOptions o;
  o.anim = "linear";
  o.time = 1;  // the clip moves joint 2; the bind pose replaces it
  o.pose = "bind:TPose";
  auto tpose = BakeAsset(a, o);
  ASSERT_TRUE(tpose.ok()) << tpose.error().ToString();
  ASSERT_EQ(tpose->primitives.size(), 1u);
  const float c = std::cos(kPi / 6), s = std::sin(kPi / 6);
  std::vector<float> expected;
  for (size_t v = 0; v < p.vertex_count(); ++v) {
    const float x = p.positions[v * 3], y = p.positions[v * 3 + 1];
    float w1 = 0;
    for (size_t k = 0; k < 4; ++k) {
      if (p.influences.joints[v * 4 + k] == 1) w1 += p.influences.weights[v * 4 + k];
    }
    const float rx = x - 0.5f, ry = y - 1;
    expected.push_back((1 - w1) * x + w1 * (c * rx - s * ry + 0.5f));
    expected.push_back((1 - w1) * y + w1 * (s * rx + c * ry + 1));
    expected.push_back(0);
  }
  ExpectPositions(tpose->primitives[0].data.positions, expected);
  o.pose = "bind:IPose";
  auto ipose = BakeAsset(a, o);
  ASSERT_TRUE(ipose.ok()) << ipose.error().ToString();
  ExpectPositions(ipose->primitives[0].data.positions, p.positions);
}

// SimpleMorph: vertex 2 at (0.5, 0.5, 0), target 0 moves it by (-1, 1, 0), target 1 by (1, 1, 0).
TEST(Bake, ExplicitWeightsOverrideTheClip) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / "SimpleMorph/SimpleMorph.gltf");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  BakeOptions o;
  o.anim = "0";
  o.time = 1;
  o.weights = {{"0", {0.25f, 0.5f}}};
  auto baked = BakeAsset(loaded->asset, o);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ASSERT_EQ(baked->primitives.size(), 1u);
  // (0.5, 0.5) + 0.25·(-1, 1) + 0.5·(1, 1) = (0.75, 1.25); vertices 0 and 1 have no deltas.
  ExpectPositions(baked->primitives[0].data.positions, {0, 0, 0, 1, 0, 0, 0.75f, 1.25f, 0});

  o.weights = {{"0", {0.25f}}};
  auto wrong = BakeAsset(loaded->asset, o);
  EXPECT_EQ(wrong.code(), Error::kInvalidArgument);
  EXPECT_EQ(wrong.error().message, "--weights: mesh '0' has 2 targets, got 1 weights");
  o.weights = {{"face", {0.25f, 0.5f}}};
  EXPECT_EQ(BakeAsset(loaded->asset, o).error().message, "--weights: no mesh 'face'");
}

TEST(Bake, AVariantChangesTheManifestsMaterial) {
  Asset a = ArmWithAHat();
  a.variants = {"red", "blue"};
  a.meshes[0].primitives[0].material = 0;
  a.meshes[0].primitives[0].variant_materials = {-1, 2};  // red keeps material 0
  a.meshes[1].primitives[0].material = 1;
  a.meshes[1].primitives[0].variant_materials = {3, 3};
  ScratchDir dir;
  for (const auto& [variant, body, hat] :
       {std::tuple{"", 0, 1}, std::tuple{"red", 0, 3}, std::tuple{"blue", 2, 3}}) {
    SCOPED_TRACE(variant);
    BakeOptions o;
    o.variant = variant;
    auto baked = BakeAsset(a, o);
    ASSERT_TRUE(baked.ok()) << baked.error().ToString();
    EXPECT_EQ(baked->primitives[0].material, body);
    EXPECT_EQ(baked->primitives[1].material, hat);
    const std::string prefix = dir.Prefix("variant");
    ASSERT_TRUE(WriteBakeBin(prefix, {"arm.gltf", "cpu", o}, a, *baked));
    const JsonDocument manifest(ReadText(prefix + ".json"));
    const JsonValue body_primitive = PrimitiveOfNode(manifest.root(), "Body");
    EXPECT_EQ(body_primitive["node"].Int(), 3);
    EXPECT_EQ(body_primitive["mesh"].Int(), 0);
    EXPECT_EQ(body_primitive["primitive"].Int(), 0);
    EXPECT_EQ(body_primitive["vertexCount"].Int(), 3);
    EXPECT_EQ(body_primitive["material"].Int(), body);
    const JsonValue hat_primitive = PrimitiveOfNode(manifest.root(), "Hat");
    EXPECT_EQ(hat_primitive["mesh"].Int(), 1);
    EXPECT_EQ(hat_primitive["primitive"].Int(), 0);
    EXPECT_EQ(hat_primitive["vertexCount"].Int(), 3);
    EXPECT_EQ(hat_primitive["material"].Int(), hat);
  }
  BakeOptions o;
  o.variant = "green";
  EXPECT_EQ(BakeAsset(a, o).error().message, "no material variant 'green'");
}

TEST(Bake, TheBinaryHoldsThePositionsAtTheManifestsOffsets) {
  const Asset a = ArmWithAHat();
  BakeOptions o;
  o.pose = "bind:TPose";
  auto baked = BakeAsset(a, o);
  ASSERT_TRUE(baked.ok());
  ScratchDir dir;
  const std::string prefix = dir.Prefix("bin");
  ASSERT_TRUE(WriteBakeBin(prefix, {"arm.gltf", "cpu", o}, a, *baked));
  const JsonDocument manifest(ReadText(prefix + ".json"));
  const JsonValue m = manifest.root();
  EXPECT_EQ(m["pose"].String(), "bind:TPose");
  ASSERT_EQ(m["primitives"].size(), 2u);
  EXPECT_EQ(m["primitives"][0]["positionsByteOffset"].Int(), 0);
  EXPECT_EQ(m["primitives"][1]["positionsByteOffset"].Int(), 36);
  EXPECT_FALSE(m["primitives"][0].Has("normalsByteOffset"));  // the hand-made mesh has none
  EXPECT_EQ(m["byteLength"].Int(), 72);
  std::ifstream bin(prefix + ".bin", std::ios::binary);
  std::vector<float> values(18);
  bin.read(reinterpret_cast<char*>(values.data()), 72);
  ASSERT_TRUE(bin);
  EXPECT_EQ(bin.peek(), std::ifstream::traits_type::eof());
  std::vector<float> expected = baked->primitives[0].data.positions;
  for (float v : baked->primitives[1].data.positions) expected.push_back(v);
  EXPECT_EQ(values, expected);
}

// The manifest as docs/bake.md shows it: one member a line, the animation and each primitive on a
// line of their own.
TEST(Bake, TheManifestIsLaidOutAsTheDocsShowIt) {
  const Asset a = ArmWithAHat();
  BakeOptions o;
  o.time = 0.7f;
  auto baked = BakeAsset(a, o);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ScratchDir dir;
  const std::string prefix = dir.Prefix("layout");
  ASSERT_TRUE(WriteBakeBin(prefix, {"arm \"1\".gltf", "cpu", o}, a, *baked));
  EXPECT_EQ(
      ReadText(prefix + ".json"),
      "{\n"
      "  \"format\": \"sinew-bake\",\n"
      "  \"version\": 1,\n"
      "  \"source\": \"arm \\\"1\\\".gltf\",\n"
      "  \"bin\": \"layout.bin\",\n"
      "  \"space\": \"scene\",\n"
      "  \"device\": \"cpu\",\n"
      "  \"animation\": null,\n"
      "  \"time\": 0.7,\n"
      "  \"pose\": \"rest\",\n"
      "  \"skinning\": \"linear\",\n"
      "  \"primitives\": [\n"
      "    {\"node\": 3, \"nodeName\": \"Body\", \"mesh\": 0, \"primitive\": 0, \"vertexCount\": "
      "3, "
      "\"material\": -1, \"skinning\": \"linear\", \"positionsByteOffset\": 0},\n"
      "    {\"node\": 2, \"nodeName\": \"Hat\", \"mesh\": 1, \"primitive\": 0, \"vertexCount\": 3, "
      "\"material\": -1, \"skinning\": \"linear\", \"positionsByteOffset\": 36}\n"
      "  ],\n"
      "  \"rigid\": [],\n"
      "  \"byteLength\": 72\n"
      "}\n");
}

// A rigid gprim under a moved Xform: the bake places it in scene space, as it places vertices,
// not relative to its parent (which the written .usda does not transform). Bound to the joint at
// its bind pose with the identity geomBindTransform, it sits at the identity, not at the
// parent's inverse.
TEST(Bake, PlacesRigidGprimsInSceneSpaceWhateverTheirParentsTransform) {
  const std::string usda =
      "#usda 1.0\n"
      "def SkelRoot \"R\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n"
      "    rel skel:skeleton = </R/Skel>\n"
      "    def Skeleton \"Skel\"\n    {\n"
      "        uniform token[] joints = [\"a\"]\n"
      "        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(1,2,3,1))]\n"
      "        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(1,2,3,1))]\n"
      "    }\n"
      "    def Xform \"Offset\"\n    {\n"
      "        double3 xformOp:translate = (0, 5, 0)\n"
      "        uniform token[] xformOpOrder = [\"xformOp:translate\"]\n"
      "        def Sphere \"S\" (\n            prepend apiSchemas = [\"SkelBindingAPI\"]\n        "
      ")\n"
      "        {\n"
      "            int[] primvars:skel:jointIndices = [0] (interpolation = \"constant\")\n"
      "            float[] primvars:skel:jointWeights = [1] (interpolation = \"constant\")\n"
      "        }\n    }\n}\n";
  auto loaded = loader::LoadUsdaFromMemory(
      std::span(reinterpret_cast<const uint8_t*>(usda.data()), usda.size()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.rigid_bindings.size(), 1u);
  auto baked = BakeAsset(loaded->asset, {});
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ASSERT_EQ(baked->rigid.size(), 1u);
  for (size_t c = 0; c < 4; ++c) {
    for (size_t r = 0; r < 4; ++r) {
      EXPECT_NEAR(baked->rigid[0].m[c][r], c == r ? 1.0f : 0.0f, 1e-6f) << c << "," << r;
    }
  }
}

TEST(Bake, ObjParsesBackToTheBakedPositionsAndTriangles) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / "CesiumMan/CesiumMan.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  BakeOptions o;
  o.anim = "0";
  o.time = 0.7f;
  auto baked = BakeAsset(loaded->asset, o);
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  ScratchDir dir;
  const std::string prefix = dir.Prefix("mesh");
  ASSERT_TRUE(WriteBakeMesh(prefix, "obj", "CesiumMan.glb", *baked));
  std::ifstream in(prefix + ".obj");
  std::vector<float> positions, normals;
  std::vector<size_t> faces;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string tag;
    s >> tag;
    if (tag == "v" || tag == "vn") {
      float x, y, z;
      s >> x >> y >> z;
      for (float f : {x, y, z}) (tag == "v" ? positions : normals).push_back(f);
    } else if (tag == "f") {
      std::string corner;
      while (s >> corner) {
        const size_t slash = corner.find("//");
        ASSERT_NE(slash, std::string::npos);  // CesiumMan has normals: f v//vn
        EXPECT_EQ(corner.substr(0, slash), corner.substr(slash + 2));
        faces.push_back(std::stoul(corner.substr(0, slash)) - 1);
      }
    }
  }
  std::vector<float> expected, expected_normals;
  std::vector<size_t> expected_faces;
  for (const BakedPrimitive& b : baked->primitives) {
    const size_t base = expected.size() / 3;
    expected.insert(expected.end(), b.data.positions.begin(), b.data.positions.end());
    expected_normals.insert(expected_normals.end(), b.data.normals.begin(), b.data.normals.end());
    for (uint32_t i : *b.indices) expected_faces.push_back(base + i);
  }
  EXPECT_EQ(positions, expected);  // %.9g round-trips a float exactly
  EXPECT_EQ(normals, expected_normals);
  EXPECT_EQ(faces, expected_faces);
}

// The CPU bake is the CPU reference of every primitive at that time of the clip: the pose sampled
// by SampleAnimationJob, the scene matrices, the skin's palette, DeformPrimitive.
TEST(Bake, CpuBakeOfASharedClipIsTheCpuReference) {
  for (const char* file : {"CesiumMan/CesiumMan.glb", "Fox/Fox.glb"}) {
    SCOPED_TRACE(file);
    auto loaded = loader::LoadGltf(testing::TestAssets() / file);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const Asset& a = loaded->asset;
    const int32_t clip = int32_t(a.animations.size()) - 1;
    const float time = cpu::RangeOf(a.animations[size_t(clip)]).duration() * 0.4f;
    BakeOptions o;
    o.anim = std::to_string(clip);
    o.time = time;
    auto baked = BakeAsset(a, o);
    ASSERT_TRUE(baked.ok()) << baked.error().ToString();
    EXPECT_EQ(baked->animation, clip);
    auto scene = cpu::EvaluateScene(a, clip, time);
    ASSERT_TRUE(scene.ok());
    size_t i = 0;
    for (uint32_t n : cpu::DrawnNodes(a)) {
      if (a.nodes[n].mesh < 0) continue;
      auto palette = cpu::NodePalette(a, n, scene->world);
      ASSERT_TRUE(palette.ok());
      for (uint32_t k = 0; k < a.meshes[size_t(a.nodes[n].mesh)].primitives.size(); ++k, ++i) {
        ASSERT_LT(i, baked->primitives.size());
        cpu::DeformedPrimitive expected;
        ASSERT_TRUE(
            cpu::DeformPrimitive(a, n, k, scene->world, scene->pose.weights[n], *palette, &expected)
                .ok());
        EXPECT_EQ(baked->primitives[i].node, n);
        EXPECT_EQ(baked->primitives[i].data.positions, expected.positions);
        EXPECT_EQ(baked->primitives[i].data.normals, expected.normals);
        // And it moved: not the mesh as authored.
        EXPECT_NE(expected.positions, a.meshes[size_t(a.nodes[n].mesh)].primitives[k].positions);
      }
    }
    EXPECT_EQ(i, baked->primitives.size());
    EXPECT_GT(i, 0u);
  }
}

}  // namespace
}  // namespace sinew::tool
