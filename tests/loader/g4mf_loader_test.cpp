// The G4MF loader on valid input: the fixture character loads with exact values (transforms,
// expanded corners, sparse influences, skins and their rest-pose inverse binds, blend shapes),
// the warnings of docs/G4MF.md ("Validation rules") at the right place, and a .g4b (plain
// or Zstd) loads the same asset as its .g4tf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "g4mf/g4b.h"
#include "loader/g4mf_fixture.h"
#include "sinew/loader/g4mf.h"

namespace sinew::loader {
namespace {

using g4mf_testing::Bytes;
using g4mf_testing::Character;
using g4mf_testing::Document;
using g4mf_testing::ExpectOneWarning;
using g4mf_testing::JsonObject;
using g4mf_testing::Load;
using g4mf_testing::LoadBytes;
using g4mf_testing::MakeG4b;
using g4mf_testing::Replace;
using g4mf_testing::ValidCharacter;
using g4mf_testing::Zstd;

constexpr float kHalfSqrt2 = 0.70710678f;

void ExpectMatrixNear(const Float4x4& actual, const Float4x4& expected, float tolerance = 1e-5f) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(actual.m[c][r], expected.m[c][r], tolerance) << "column " << c << ", row " << r;
    }
  }
}

// A column-major matrix from its four columns.
Float4x4 Columns(Float4 c0, Float4 c1, Float4 c2, Float4 c3) {
  Float4x4 m;
  m.m[0] = {c0.x, c0.y, c0.z, c0.w};
  m.m[1] = {c1.x, c1.y, c1.z, c1.w};
  m.m[2] = {c2.x, c2.y, c2.z, c2.w};
  m.m[3] = {c3.x, c3.y, c3.z, c3.w};
  return m;
}

Float4x4 LocalMatrix(const Node& node) {
  return node.has_matrix ? node.matrix : ComposeTrs(node.translation, node.rotation, node.scale);
}

Float4x4 WorldMatrix(const Asset& asset, int32_t node) {
  Float4x4 world = LocalMatrix(asset.nodes[size_t(node)]);
  for (int32_t p = asset.nodes[size_t(node)].parent; p >= 0; p = asset.nodes[size_t(p)].parent) {
    world = Multiply(LocalMatrix(asset.nodes[size_t(p)]), world);
  }
  return world;
}

// ---------------------------------------------------------------------------------------------
// The valid character

TEST(G4mfLoader, LoadsTheValidCharacterWithoutWarnings) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty()) << loaded->warnings[0].where;
  const Asset& a = loaded->asset;
  ASSERT_EQ(a.nodes.size(), 5u);
  ASSERT_EQ(a.meshes.size(), 1u);
  ASSERT_EQ(a.skins.size(), 1u);
  ASSERT_EQ(a.scenes.size(), 1u);
  EXPECT_EQ(a.scene, 0);
  EXPECT_EQ(a.scenes[0].nodes, std::vector<uint32_t>{0});
  EXPECT_TRUE(a.animations.empty());
}

TEST(G4mfLoader, BuildsTheHierarchyFromChildren) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const std::vector<Node>& nodes = loaded->asset.nodes;
  const std::vector<std::string> names = {"Root", "Armature", "Hips", "Spine", "Body"};
  const std::vector<int32_t> parents = {-1, 0, 1, 2, 1};
  for (size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ(nodes[i].name, names[i]);
    EXPECT_EQ(nodes[i].parent, parents[i]) << "node " << i;
  }
  const auto children = [&](size_t n) {
    const std::span<const uint32_t> c = loaded->asset.Children(n);
    return std::vector<uint32_t>(c.begin(), c.end());
  };
  EXPECT_EQ(children(0), std::vector<uint32_t>{1});
  EXPECT_EQ(children(1), (std::vector<uint32_t>{2, 4}));
  EXPECT_EQ(children(2), std::vector<uint32_t>{3});
  EXPECT_TRUE(children(3).empty());
  EXPECT_EQ(nodes[4].mesh, 0);
  EXPECT_EQ(nodes[4].skin, 0);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(nodes[i].mesh, -1);
    EXPECT_EQ(nodes[i].skin, -1);
  }
}

TEST(G4mfLoader, KeepsPositionRotorAndScaleAsTrs) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const std::vector<Node>& nodes = loaded->asset.nodes;
  EXPECT_FALSE(nodes[0].has_matrix);
  EXPECT_EQ(nodes[0].translation.x, 0.0f);
  EXPECT_EQ(nodes[0].rotation.w, 1.0f);
  EXPECT_EQ(nodes[1].translation.x, 10.0f);
  EXPECT_EQ(nodes[3].translation.y, 1.0f);
  EXPECT_EQ(nodes[3].rotation.w, 1.0f);
  const Node& hips = nodes[2];
  EXPECT_FALSE(hips.has_matrix);
  EXPECT_EQ(hips.translation.x, 0.0f);
  EXPECT_EQ(hips.translation.y, 1.0f);
  EXPECT_EQ(hips.translation.z, 0.0f);
  // rotor [s, xy, xz, yz] = [cos 45°, sin 45°, 0, 0] -> quaternion (yz, -xz, xy, s): 90° about +Z.
  EXPECT_NEAR(hips.rotation.x, 0.0f, 1e-7f);
  EXPECT_NEAR(hips.rotation.y, 0.0f, 1e-7f);
  EXPECT_NEAR(hips.rotation.z, kHalfSqrt2, 1e-6f);
  EXPECT_NEAR(hips.rotation.w, kHalfSqrt2, 1e-6f);
  EXPECT_EQ(hips.scale.x, 1.0f);
  EXPECT_EQ(hips.scale.y, 1.0f);
  EXPECT_EQ(hips.scale.z, 1.0f);
  // It turns +X into +Y, as godot-4d's from_xy rotor does.
  const Float3 x = TransformPoint(LocalMatrix(hips), {1, 0, 0});
  EXPECT_NEAR(x.x, 0.0f, 1e-6f);
  EXPECT_NEAR(x.y, 2.0f, 1e-6f);  // (0, 1, 0) + R·(1, 0, 0)
  EXPECT_NEAR(x.z, 0.0f, 1e-6f);
}

TEST(G4mfLoader, MapsEachRotorBivectorToItsQuaternionAxis) {
  // [s, xy, xz, yz] -> (x, y, z, w) = (yz, -xz, xy, s); four different magnitudes, unit length.
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("rotor", "[0.1, 0.3, 0.5, 0.806225774829855]");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
  const Quat& q = loaded->asset.nodes[2].rotation;
  EXPECT_NEAR(q.x, 0.8062258f, 1e-6f);
  EXPECT_NEAR(q.y, -0.5f, 1e-6f);
  EXPECT_NEAR(q.z, 0.3f, 1e-6f);
  EXPECT_NEAR(q.w, 0.1f, 1e-6f);
}

TEST(G4mfLoader, ReadsUniformAndPerAxisScale) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("scale", "[3]");
  c.doc.nodes[2].Set("scale", "[1, 2, 4]");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Float3& uniform = loaded->asset.nodes[3].scale;
  EXPECT_EQ(uniform.x, 3.0f);
  EXPECT_EQ(uniform.y, 3.0f);
  EXPECT_EQ(uniform.z, 3.0f);
  const Float3& axes = loaded->asset.nodes[2].scale;
  EXPECT_EQ(axes.x, 1.0f);
  EXPECT_EQ(axes.y, 2.0f);
  EXPECT_EQ(axes.z, 4.0f);
}

TEST(G4mfLoader, TurnsABasisIntoAColumnMajorMatrixWithThePosition) {
  Character c = ValidCharacter();
  // A sheared basis, so that row and column order cannot be confused.
  c.doc.nodes[4].Set("basis", "[1, 2, 3, 4, 5, 6, 7, 8, 10]");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Node& body = loaded->asset.nodes[4];
  ASSERT_TRUE(body.has_matrix);
  const Float4x4 expected = Columns({1, 2, 3, 0}, {4, 5, 6, 0}, {7, 8, 10, 0}, {0, 0, 1, 1});
  EXPECT_EQ(body.matrix.m, expected.m);
}

TEST(G4mfLoader, ExpandsEachDistinctVertexNormalCornerIntoOneGpuVertex) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Mesh& mesh = loaded->asset.meshes[0];
  EXPECT_EQ(mesh.name, "BodyMesh");
  ASSERT_EQ(mesh.primitives.size(), 1u);
  const Primitive& p = mesh.primitives[0];
  EXPECT_EQ(p.mode, 4u);
  EXPECT_EQ(p.material, -1);
  // Corners in order: (v0,n0) (v1,n0) (v2,n0) | (v2,n1) (v1,n0) (v3,n0): v2 is split in two.
  ASSERT_EQ(p.vertex_count(), 5u);
  EXPECT_EQ(p.indices, (std::vector<uint32_t>{0, 1, 2, 3, 1, 4}));
  EXPECT_EQ(p.positions, (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(p.normals, (std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1}));
  EXPECT_TRUE(p.tangents.empty());
  EXPECT_TRUE(p.influences.joints.empty());
  EXPECT_TRUE(p.skinned());
}

TEST(G4mfLoader, GivesEachGpuVertexTheInfluencesOfItsG4mfVertex) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const SparseInfluences& s = loaded->asset.meshes[0].primitives[0].sparse_influences;
  // GPU vertices come from v0, v1, v2, v2, v3; v3 has no influence.
  EXPECT_EQ(s.offsets, (std::vector<uint32_t>{0, 1, 3, 5, 7, 7}));
  // v1's tie (authored groups 1, 0) in increasing group order; v2's groups 3 (0.75), 2 (0.25).
  EXPECT_EQ(s.groups, (std::vector<uint32_t>{0, 0, 1, 3, 2, 3, 2}));
  EXPECT_EQ(s.weights, (std::vector<float>{1, 0.5f, 0.5f, 0.75f, 0.25f, 0.75f, 0.25f}));
  EXPECT_EQ(s.group_count, 4u);
}

TEST(G4mfLoader, MakesOneSkinPerSkinnedInstanceWithGroupsMappedToDistinctJoints) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Skin& skin = loaded->asset.skins[0];
  EXPECT_EQ(skin.name, "Armature");
  EXPECT_EQ(skin.skeleton, 1);
  // skeleton.joints [2, 3, -1, 3]: the duplicate 3 shares a joint, -1 is untransformed.
  EXPECT_EQ(skin.joints, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(skin.group_joints, (std::vector<int32_t>{0, 1, -1, 1}));
  EXPECT_TRUE(skin.bind_poses.empty());
}

TEST(G4mfLoader, ComputesInverseBindsFromTheRestPose) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  const Skin& skin = a.skins[0];
  ASSERT_EQ(skin.inverse_binds.size(), 2u);
  // inverse(world(bone)) · world(Body). Armature's translation cancels; relative to it,
  // Hips = T(0,1,0)·Rz(90°), Spine = Hips·T(0,1,0) = T(-1,1,0)·Rz(90°), Body = T(0,0,1)·2I.
  // Hips:  Rz(-90°)·T(0,-1,1)·2I  -> linear 2·Rz(-90°), translation Rz(-90°)(0,-1,1) = (-1,0,1).
  // Spine: Rz(-90°)·T(1,-1,1)·2I  -> linear 2·Rz(-90°), translation Rz(-90°)(1,-1,1) = (-1,-1,1).
  ExpectMatrixNear(skin.inverse_binds[0],
                   Columns({0, -2, 0, 0}, {2, 0, 0, 0}, {0, 0, 2, 0}, {-1, 0, 1, 1}));
  ExpectMatrixNear(skin.inverse_binds[1],
                   Columns({0, -2, 0, 0}, {2, 0, 0, 0}, {0, 0, 2, 0}, {-1, -1, 1, 1}));
  // At rest every palette entry world(joint) · inverse_bind is the mesh node's world transform.
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    ExpectMatrixNear(Multiply(WorldMatrix(a, int32_t(skin.joints[j])), skin.inverse_binds[j]),
                     WorldMatrix(a, 4));
  }
}

TEST(G4mfLoader, ScattersBlendOffsetsToTheExpandedVertices) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  ASSERT_EQ(p.targets.size(), 1u);
  const MorphTarget& t = p.targets[0];
  // Positions by G4MF vertex (v0 +(0.25,0,0), v2 +(0,0,0.5) on both of its GPU vertices).
  EXPECT_EQ(t.positions,
            (std::vector<float>{0.25f, 0, 0, 0, 0, 0, 0, 0, 0.5f, 0, 0, 0.5f, 0, 0, 0}));
  // Normals by normal value: value 1 is bound only at GPU vertex 3 (v2's second corner).
  EXPECT_EQ(t.normals, (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(t.tangents.empty());
}

TEST(G4mfLoader, AddsUpBlendOffsetsOfARepeatedIndex) {
  // v2 listed twice: its offsets (0,0,0.5) and (0,1,0) add up on both of its GPU vertices.
  Character c = ValidCharacter();
  c.doc.Refill<uint8_t>(c.blend_indices, "uint8", {2, 0, 2});
  c.doc.Refill<double>(c.blend_offsets, "float64", {0, 0, 0.5, 0.25, 0, 0, 0, 1, 0}, 3);
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].targets[0].positions,
            (std::vector<float>{0.25f, 0, 0, 0, 0, 0, 0, 1, 0.5f, 0, 1, 0.5f, 0, 0, 0}));
}

TEST(G4mfLoader, TakesMeshWeightsFromAmountsAndNodeWeightsFromBlendAmounts) {
  auto loaded = Load(ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].weights, std::vector<float>{0.5f});
  EXPECT_EQ(loaded->asset.nodes[4].weights, std::vector<float>{0.25f});
}

TEST(G4mfLoader, LeavesWeightsEmptyWithoutAmounts) {
  Character c = ValidCharacter();
  c.doc.meshes[0].Set("blend",
                      Replace(*c.doc.meshes[0].Find("blend"), R"("amounts": [0.5], )", ""));
  c.doc.nodes[4].Set("meshInstance", R"({"mesh": 0})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->asset.meshes[0].weights.empty());
  EXPECT_TRUE(loaded->asset.nodes[4].weights.empty());
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].targets.size(), 1u);
}

TEST(G4mfLoader, KeepsOneVertexPerG4mfVertexWithoutNormals) {
  Character c = ValidCharacter();
  c.doc.meshes[0].Set("surfaces", R"([{"simplexes": )" + std::to_string(c.simplexes) + "}]");
  c.doc.meshes[0].Erase("blend");
  c.doc.nodes[4].Set("meshInstance", R"({"mesh": 0})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  EXPECT_EQ(p.vertex_count(), 4u);
  EXPECT_EQ(p.indices, (std::vector<uint32_t>{0, 1, 2, 2, 1, 3}));
  EXPECT_TRUE(p.normals.empty());
  EXPECT_EQ(p.sparse_influences.offsets, (std::vector<uint32_t>{0, 1, 3, 5, 5}));
}

TEST(G4mfLoader, DrawsASurfacelessMeshAsPoints) {
  Character c = ValidCharacter();
  c.doc.meshes[0].Erase("surfaces");
  c.doc.meshes[0].Erase("blend");
  c.doc.nodes[4].Set("meshInstance", R"({"mesh": 0})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.meshes[0].primitives.size(), 1u);
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  EXPECT_EQ(p.mode, 0u);
  EXPECT_TRUE(p.indices.empty());
  EXPECT_EQ(p.vertex_count(), 4u);
  EXPECT_EQ(p.sparse_influences.offsets, (std::vector<uint32_t>{0, 1, 3, 5, 5}));
}

TEST(G4mfLoader, WidensEveryReadableComponentType) {
  Character c = ValidCharacter();
  Document& d = c.doc;
  d.Refill<double>(c.positions, "float64", {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, 3);
  d.Refill<int32_t>(c.simplexes, "int32", {0, 1, 2, 2, 1, 3}, 3);
  d.Refill<uint8_t>(c.skin_vertices, "uint8", {0, 1, 1, 2, 2});
  d.Refill<uint64_t>(c.skin_groups, "uint64", {0, 1, 0, 3, 2});
  d.Refill<uint16_t>(c.skin_weights, "float16", {0x3C00, 0x3800, 0x3800, 0x3A00, 0x3400});
  d.Refill<float>(c.blend_offsets, "float32", {0, 0, 0.5f, 0.25f, 0, 0}, 3);
  auto loaded = Load(d);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  EXPECT_EQ(p.positions, (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(p.indices, (std::vector<uint32_t>{0, 1, 2, 3, 1, 4}));
  EXPECT_EQ(p.sparse_influences.groups, (std::vector<uint32_t>{0, 0, 1, 3, 2, 3, 2}));
  EXPECT_EQ(p.sparse_influences.weights,
            (std::vector<float>{1, 0.5f, 0.5f, 0.75f, 0.25f, 0.75f, 0.25f}));
  EXPECT_EQ(p.targets[0].positions[8], 0.5f);
}

TEST(G4mfLoader, AcceptsAMinusOneJoint) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [-1, 2, 3, 3]})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
  EXPECT_EQ(loaded->asset.skins[0].joints, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(loaded->asset.skins[0].group_joints, (std::vector<int32_t>{-1, 0, 1, 1}));
}

TEST(G4mfLoader, AcceptsABoneMassOfZero) {
  // skeleton.md:106 allows exactly 0 (the schema's exclusiveMinimum contradicts it).
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("bone", R"({"mass": 0})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(G4mfLoader, AcceptsABoneShapeWithItsLength) {
  Character c = ValidCharacter();
  c.doc.extra.Set("shapes", "[{}]");
  c.doc.nodes[2].Set("bone", R"({"length": 1, "mass": 2.5, "shape": 0})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(G4mfLoader, RecordsExtensionsUsed) {
  Character c = ValidCharacter();
  c.doc.asset.Set("extensionsUsed", R"(["KRONOSTA_scene_dimensional_stack"])");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.extensions_used,
            std::vector<std::string>{"KRONOSTA_scene_dimensional_stack"});
}

TEST(G4mfLoader, ValidatesButDoesNotLoadTextureMaps) {
  Character c = ValidCharacter();
  const uint32_t uvs = c.doc.Float32({0, 0, 1, 0}, 2);
  const uint32_t uv_corners = c.doc.Uint32({0, 1, 0, 0, 1, 1}, 3);
  c.doc.meshes[0].Set("surfaces", R"([{"simplexes": )" + std::to_string(c.simplexes) +
                                      R"(, "normals": {"values": )" +
                                      std::to_string(c.normal_values) + R"(, "simplexes": )" +
                                      std::to_string(c.normal_simplexes) +
                                      R"(}, "textureMap": {"values": )" + std::to_string(uvs) +
                                      R"(, "simplexes": )" + std::to_string(uv_corners) + "}}]");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].vertex_count(), 5u);
}

TEST(G4mfLoader, ReadsAnExternalBufferBesideTheFile) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "sinew_g4mf_external_buffer";
  std::filesystem::create_directories(dir);
  Character c = ValidCharacter();
  {
    std::ofstream bin(dir / "body.bin", std::ios::binary);
    bin.write(reinterpret_cast<const char*>(c.doc.data.data()), std::streamsize(c.doc.data.size()));
  }
  auto inline_data = Load(c.doc);
  ASSERT_TRUE(inline_data.ok()) << inline_data.error().ToString();
  c.doc.buffers = {c.doc.DataBuffer().Set("uri", R"("body.bin")")};
  {
    std::ofstream text(dir / "body.g4tf", std::ios::binary);
    text << c.doc.Json();
  }
  // The same from a .g4b whose JSON chunk is Zstd-compressed: the buffer's name is in no text.
  {
    const std::vector<uint8_t> g4b =
        MakeG4b({{g4mf::kG4bChunkJson, g4mf::kG4bEncodingZstd, Zstd(Bytes(c.doc.Json()))}});
    std::ofstream binary(dir / "body.g4b", std::ios::binary);
    binary.write(reinterpret_cast<const char*>(g4b.data()), std::streamsize(g4b.size()));
  }
  auto loaded = LoadG4mf(dir / "body.g4tf");
  auto from_binary = LoadG4mf(dir / "body.g4b");
  // Each says which file beside it it read (LoadedAsset::external_files).
  for (const auto* l : {&loaded, &from_binary}) {
    ASSERT_TRUE(l->ok()) << l->error().ToString();
    ASSERT_EQ((*l)->external_files.size(), 1u);
    EXPECT_TRUE(std::filesystem::equivalent((*l)->external_files[0], dir / "body.bin"));
  }
  EXPECT_TRUE(inline_data->external_files.empty());
  std::filesystem::remove_all(dir);
  const Primitive& p = loaded->asset.meshes[0].primitives[0];
  EXPECT_EQ(p.positions, inline_data->asset.meshes[0].primitives[0].positions);
  EXPECT_EQ(p.sparse_influences.weights,
            inline_data->asset.meshes[0].primitives[0].sparse_influences.weights);
  EXPECT_EQ(from_binary->asset.meshes[0].primitives[0].positions, p.positions);
}

// ---------------------------------------------------------------------------------------------
// Warnings (the warning rows of docs/G4MF.md, "Validation rules")

TEST(G4mfLoader, WarnsAboutGroupsPastTheSkeletonsJoints) {
  Character c = ValidCharacter();
  c.doc.Refill<uint16_t>(c.skin_groups, "uint16", {0, 1, 0, 4, 2});
  ExpectOneWarning(c.doc, "/nodes/4/meshInstance");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok());
  // The group stays; the palette treats it as untransformed (g >= group_joints.size()).
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].sparse_influences.group_count, 5u);
  EXPECT_EQ(loaded->asset.skins[0].group_joints.size(), 4u);
}

TEST(G4mfLoader, WarnsAboutWeightsThatDoNotSumToOne) {
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.skin_weights, "float32", {1, 0.5f, 0.5f, 0.75f, 0.5f});
  ExpectOneWarning(c.doc, "/meshes/0/skin/weights");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok());
  // Used as authored, not normalized.
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].sparse_influences.weights[4], 0.5f);
}

TEST(G4mfLoader, DrawsUnskinnedASkinnedMeshThatIsNotAChildOfASkeleton) {
  Character c = ValidCharacter();
  c.doc.nodes[0].Set("children", "[1, 4]");
  c.doc.nodes[1].Set("children", "[2]");
  ExpectOneWarning(c.doc, "/nodes/4/meshInstance");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->asset.nodes[4].parent, 0);
  EXPECT_EQ(loaded->asset.nodes[4].mesh, 0);
  EXPECT_EQ(loaded->asset.nodes[4].skin, -1);
  EXPECT_TRUE(loaded->asset.skins.empty());
}

TEST(G4mfLoader, WarnsAboutJointsThatAreNotIncreasing) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [3, 2, -1, 2]})");
  ExpectOneWarning(c.doc, "/nodes/1/skeleton/joints");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->asset.skins[0].joints, (std::vector<uint32_t>{3, 2}));
  EXPECT_EQ(loaded->asset.skins[0].group_joints, (std::vector<int32_t>{0, 1, -1, 1}));
}

TEST(G4mfLoader, WarnsAboutAParentBoneListedAfterItsChild) {
  // Node indices increase (2, 3) but bone 2 is the child of bone 3.
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("children", "[3, 4]");
  c.doc.nodes[2].Erase("children");
  c.doc.nodes[3].Set("children", "[2]");
  ExpectOneWarning(c.doc, "/nodes/1/skeleton/joints");
}

TEST(G4mfLoader, WarnsAboutASingleRootBoneThatIsNotTheSkeletonsFirstChild) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("children", "[4, 2]");
  ExpectOneWarning(c.doc, "/nodes/1/children");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok());
  EXPECT_NE(loaded->warnings[0].message.find("#11, skeleton.md:132"), std::string::npos);
}

TEST(G4mfLoader, AcceptsASingleRootBoneThatIsNotAJointAnywhere) {  // the rule is about joints only
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [3, 3, -1, 3]})");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(G4mfLoader, AcceptsTwoRootBonesInAnyOrder) {  // the rule is about a single root bone
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("children", "[4, 3, 2]");
  c.doc.nodes[2].Erase("children");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(G4mfLoader, AcceptsASkeletonUnderAMeshInstanceOfAnother) {  // not inside a bone chain
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("children", "[5]");
  c.doc.nodes.push_back({{"name", R"("Prop")"}, {"skeleton", "{}"}, {"children", "[6]"}});
  c.doc.nodes.push_back({{"name", R"("Handle")"}, {"bone", "{}"}});
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(G4mfLoader, NormalizesAndWarnsAboutARotorThatIsNotUnitLength) {
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("rotor", "[1, 1, 0, 0]");
  ExpectOneWarning(c.doc, "/nodes/2/rotor");
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok());
  const Quat& q = loaded->asset.nodes[2].rotation;
  EXPECT_NEAR(q.z, kHalfSqrt2, 1e-6f);
  EXPECT_NEAR(q.w, kHalfSqrt2, 1e-6f);
}

// ---------------------------------------------------------------------------------------------
// .g4b: the same document with its buffer in a BLOB chunk, plain or Zstd-encoded

// The character with buffer 0 = {"byteLength": N, "chunk": 1} (plus `extra` members).
std::string G4bJson(const Character& c, const std::string& extra = "") {
  Document d = c.doc;
  d.buffers = {{{"byteLength", std::to_string(d.data.size())}, {"chunk", "1"}}};
  if (!extra.empty()) d.buffers->at(0).Set("encoding", extra);
  return d.Json();
}

void ExpectSameAsset(const Asset& a, const Asset& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = a.nodes[i];
    const Node& y = b.nodes[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_TRUE(std::ranges::equal(a.Children(x), b.Children(y))) << "node " << i;
    EXPECT_EQ(x.has_matrix, y.has_matrix);
    EXPECT_EQ(LocalMatrix(x).m, LocalMatrix(y).m);
    EXPECT_EQ(x.mesh, y.mesh);
    EXPECT_EQ(x.skin, y.skin);
    EXPECT_EQ(x.weights, y.weights);
  }
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    EXPECT_EQ(a.meshes[m].weights, b.meshes[m].weights);
    ASSERT_EQ(a.meshes[m].primitives.size(), b.meshes[m].primitives.size());
    for (size_t k = 0; k < a.meshes[m].primitives.size(); ++k) {
      const Primitive& p = a.meshes[m].primitives[k];
      const Primitive& q = b.meshes[m].primitives[k];
      EXPECT_EQ(p.positions, q.positions);
      EXPECT_EQ(p.normals, q.normals);
      EXPECT_EQ(p.indices, q.indices);
      EXPECT_EQ(p.sparse_influences.offsets, q.sparse_influences.offsets);
      EXPECT_EQ(p.sparse_influences.groups, q.sparse_influences.groups);
      EXPECT_EQ(p.sparse_influences.weights, q.sparse_influences.weights);
      EXPECT_EQ(p.sparse_influences.group_count, q.sparse_influences.group_count);
      ASSERT_EQ(p.targets.size(), q.targets.size());
      for (size_t t = 0; t < p.targets.size(); ++t) {
        EXPECT_EQ(p.targets[t].positions, q.targets[t].positions);
        EXPECT_EQ(p.targets[t].normals, q.targets[t].normals);
      }
    }
  }
  ASSERT_EQ(a.skins.size(), b.skins.size());
  for (size_t s = 0; s < a.skins.size(); ++s) {
    EXPECT_EQ(a.skins[s].joints, b.skins[s].joints);
    EXPECT_EQ(a.skins[s].group_joints, b.skins[s].group_joints);
    EXPECT_EQ(a.skins[s].skeleton, b.skins[s].skeleton);
    ASSERT_EQ(a.skins[s].inverse_binds.size(), b.skins[s].inverse_binds.size());
    for (size_t j = 0; j < a.skins[s].inverse_binds.size(); ++j) {
      EXPECT_EQ(a.skins[s].inverse_binds[j].m, b.skins[s].inverse_binds[j].m);
    }
  }
}

class G4mfBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    auto text = Load(character_.doc);
    ASSERT_TRUE(text.ok()) << text.error().ToString();
    text_ = std::move(text.value().asset);
  }

  void ExpectLoadsTheTextAsset(const std::vector<uint8_t>& g4b) {
    auto loaded = LoadBytes(g4b);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    EXPECT_TRUE(loaded->warnings.empty());
    ExpectSameAsset(loaded->asset, text_);
  }

  Character character_ = ValidCharacter();
  Asset text_;
};

TEST_F(G4mfBinary, LoadsAPlainBlobChunkLikeTheTextFile) {
  ExpectLoadsTheTextAsset(MakeG4b({{g4mf::kG4bChunkJson, 0, Bytes(G4bJson(character_))},
                                   {g4mf::kG4bChunkBlob, 0, character_.doc.data}}));
}

TEST_F(G4mfBinary, LoadsAZstdBlobChunkLikeTheTextFile) {
  ExpectLoadsTheTextAsset(
      MakeG4b({{g4mf::kG4bChunkJson, 0, Bytes(G4bJson(character_))},
               {g4mf::kG4bChunkBlob, g4mf::kG4bEncodingZstd, Zstd(character_.doc.data)}}));
}

TEST_F(G4mfBinary, LoadsAZstdJsonChunkLikeTheTextFile) {
  ExpectLoadsTheTextAsset(
      MakeG4b({{g4mf::kG4bChunkJson, g4mf::kG4bEncodingZstd, Zstd(Bytes(G4bJson(character_)))},
               {g4mf::kG4bChunkBlob, g4mf::kG4bEncodingZstd, Zstd(character_.doc.data)}}));
}

TEST_F(G4mfBinary, LoadsABufferWhoseOwnEncodingIsZstdInAPlainChunk) {
  ExpectLoadsTheTextAsset(MakeG4b({{g4mf::kG4bChunkJson, 0, Bytes(G4bJson(character_, "\"Zstd\""))},
                                   {g4mf::kG4bChunkBlob, 0, Zstd(character_.doc.data)}}));
}

TEST_F(G4mfBinary, FindsTheJsonChunkAfterTheBlobChunk) {
  // The JSON chunk is the first chunk of type JSON, not necessarily chunk 0; chunk indices count
  // every chunk.
  Document d = character_.doc;
  d.buffers = {{{"byteLength", std::to_string(d.data.size())}, {"chunk", "0"}}};
  ExpectLoadsTheTextAsset(
      MakeG4b({{g4mf::kG4bChunkBlob, 0, d.data}, {g4mf::kG4bChunkJson, 0, Bytes(d.Json())}}));
}

TEST_F(G4mfBinary, LoadsAZstdBufferUriInATextFileLikeThePlainOne) {
  Document d = character_.doc;
  const std::vector<uint8_t> packed = Zstd(d.data);
  Document carrier;
  carrier.data = packed;
  JsonObject buffer = carrier.DataBuffer();
  buffer.Set("byteLength", std::to_string(d.data.size())).Set("encoding", "\"Zstd\"");
  d.buffers = {buffer};
  auto loaded = Load(d);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ExpectSameAsset(loaded->asset, text_);
}

}  // namespace
}  // namespace sinew::loader
