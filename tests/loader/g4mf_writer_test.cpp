// WriteG4mf writes every mesh instance, skinned or not (G4MF meshInstance needs no skin), with its
// blend shapes, and reports what it leaves out. How the written instances deform is tested against
// the glTF originals in gpu/g4mf_equivalence_gpu_test.cpp (G4mfBake, G4mfEquivalence).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "loader/face_shapes_fixture.h"
#include "loader/g4mf_fixture.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::loader {
namespace {

Asset LoadTestGltf(const char* relative) {
  auto loaded = LoadGltf(testing::TestAssets() / relative);
  EXPECT_TRUE(loaded.ok()) << loaded.error().ToString();
  return loaded.ok() ? std::move(loaded->asset) : Asset{};
}

size_t MeshInstances(const Asset& a, bool skinned) {
  return size_t(std::count_if(a.nodes.begin(), a.nodes.end(), [&](const Node& n) {
    return n.mesh >= 0 && (n.skin >= 0) == skinned;
  }));
}

const Mesh* MeshWithTargets(const Asset& a) {
  for (const Mesh& m : a.meshes) {
    if (!m.primitives.empty() && !m.primitives[0].targets.empty()) return &m;
  }
  return nullptr;
}

TEST(G4mfWriter, WritesEveryMeshInstanceOfRobotExpressiveUnskinnedOnesAndTheHeadsShapesIncluded) {
  const Asset gltf = LoadTestGltf("three_RobotExpressive/RobotExpressive.glb");
  ASSERT_EQ(gltf.meshes.size(), 14u);
  G4mfWriteReport report;
  const Asset g4mf = g4mf_testing::WriteAndLoadG4mf(gltf, &report);
  EXPECT_EQ(g4mf.meshes.size(), 14u);
  EXPECT_EQ(MeshInstances(g4mf, true), MeshInstances(gltf, true));
  EXPECT_EQ(MeshInstances(g4mf, false), MeshInstances(gltf, false));
  EXPECT_EQ(MeshInstances(g4mf, false), 12u);
  const Mesh* head = MeshWithTargets(g4mf);
  ASSERT_NE(head, nullptr);
  EXPECT_EQ(head->name, "Head_3");  // "Head" is taken by the bone; '.'-free names
  ASSERT_EQ(head->primitives.size(), MeshWithTargets(gltf)->primitives.size());
  for (size_t p = 0; p < head->primitives.size(); ++p) {
    EXPECT_EQ(head->primitives[p].targets.size(), 3u) << p;
  }
  EXPECT_TRUE(report.meshes_left_out.empty());
  ASSERT_EQ(report.animations_left_out.size(), gltf.animations.size());
  EXPECT_EQ(report.animations_left_out[0], gltf.animations[0].name);
}

TEST(G4mfWriter, PutsAnUnskinnedMeshAttachedToAJointUnderThatJointsBone) {
  const Asset gltf = LoadTestGltf("three_RobotExpressive/RobotExpressive.glb");
  const Asset g4mf = g4mf_testing::WriteAndLoadG4mf(gltf, nullptr);
  // Expected: each unskinned mesh node of the glTF under the bone of its nearest ancestor that is
  // a joint, named as the writer names bones ('.' and the like become '_'; the first skeleton's
  // bones keep their names, and parts attach to it).
  std::vector<bool> joint(gltf.nodes.size(), false);
  for (const Skin& skin : gltf.skins) {
    for (uint32_t j : skin.joints) joint[j] = true;
  }
  const auto g4mf_name = [](std::string name) {
    for (char& ch : name) {
      if (std::string_view("\"#*.:|?@<>{}[]/\\%").find(ch) != std::string_view::npos) ch = '_';
    }
    return name;
  };
  std::vector<std::string> expected, got;
  for (const Node& n : gltf.nodes) {
    if (n.mesh < 0 || n.skin >= 0) continue;
    int32_t up = n.parent;
    while (up >= 0 && !joint[size_t(up)]) up = gltf.nodes[size_t(up)].parent;
    ASSERT_GE(up, 0) << n.name;  // every part of the robot hangs from a joint
    expected.push_back(g4mf_name(gltf.nodes[size_t(up)].name));
  }
  for (const Node& n : g4mf.nodes) {
    if (n.mesh < 0 || n.skin >= 0) continue;
    ASSERT_GE(n.parent, 0);
    got.push_back(g4mf.nodes[size_t(n.parent)].name);
  }
  ASSERT_EQ(expected.size(), 12u);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  EXPECT_NE(std::find(got.begin(), got.end(), "Foot_L"), got.end());
}

TEST(G4mfWriter, WritesAnAssetWithoutSkins) {
  const Asset gltf = LoadTestGltf("SimpleMorph/SimpleMorph.gltf");
  const Asset g4mf = g4mf_testing::WriteAndLoadG4mf(gltf, nullptr);
  EXPECT_TRUE(g4mf.skins.empty());
  EXPECT_EQ(MeshInstances(g4mf, false), MeshInstances(gltf, false));
  ASSERT_NE(MeshWithTargets(g4mf), nullptr);
  EXPECT_EQ(MeshWithTargets(g4mf)->weights, MeshWithTargets(gltf)->weights);
}

TEST(G4mfWriter, ReportsAMeshThatNoNodeInstantiates) {
  Asset asset = LoadTestGltf("SimpleSkin/SimpleSkin.gltf");
  ASSERT_FALSE(asset.meshes.empty());
  asset.meshes.push_back(asset.meshes[0]);
  asset.meshes.back().name = "Orphan";
  asset.meshes.push_back(asset.meshes[0]);
  asset.meshes.back().name = "";
  G4mfWriteReport report;
  const Asset g4mf = g4mf_testing::WriteAndLoadG4mf(asset, &report);
  EXPECT_EQ(g4mf.meshes.size(), 1u);
  EXPECT_EQ(report.meshes_left_out, (std::vector<std::string>{"Orphan", "mesh 2"}));
}

// What G4MF cannot say is reported, one sentence each: a rigid binding (UsdSkel's implicit gprim),
// a mesh skinning its normals by UsdSkel's rule, dual-quaternion skinning. A glTF asset has none.
TEST(G4mfWriter, ReportsRigidBindingsAndUsdSkelsNormalRule) {
  Asset a = LoadTestGltf("CesiumMan/CesiumMan.glb");
  G4mfWriteReport report;
  g4mf_testing::WriteAndLoadG4mf(a, &report);
  EXPECT_TRUE(report.other_left_out.empty());
  a.meshes[0].primitives[0].normal_blend = NormalBlend::kPerJoint;
  RigidBinding rigid;
  rigid.name = "/Root/Cube";
  rigid.type = "Cube";
  rigid.joints = {0};
  rigid.weights = {1};
  a.rigid_bindings.push_back(rigid);
  g4mf_testing::WriteAndLoadG4mf(a, &report);
  ASSERT_EQ(report.other_left_out.size(), 2u);
  EXPECT_EQ(report.other_left_out[0], "rigid Cube /Root/Cube: G4MF has no rigid bindings");
  EXPECT_NE(report.other_left_out[1].find("UsdSkel's normal rule"), std::string::npos)
      << report.other_left_out[1];
  // Dual-quaternion skinning, which G4MF cannot name either.
  a.rigid_bindings.clear();
  a.meshes[0].primitives[0].normal_blend = NormalBlend::kBlendedMatrix;
  a.meshes[0].primitives[0].skinning = SkinningMethod::kDualQuaternion;
  g4mf_testing::WriteAndLoadG4mf(a, &report);
  ASSERT_EQ(report.other_left_out.size(), 1u);
  EXPECT_NE(report.other_left_out[0].find("dual-quaternion skinning"), std::string::npos)
      << report.other_left_out[0];
}

// G4MF blends each shape linearly and has no in-betweens: an in-between's target is written as a
// shape of its own at amount 0 (sinew drives it through its primary and ignores its own weight,
// which a G4MF reader would apply), and the in-betweens are reported as left out.
TEST(G4mfWriter, InbetweensAreReportedAsLeftOutAndTheirTargetsWrittenAtAmountZero) {
  Asset a = LoadTestGltf("CesiumMan/CesiumMan.glb");
  ASSERT_EQ(a.meshes.size(), 1u);
  Mesh& mesh = a.meshes[0];
  ASSERT_NO_FATAL_FAILURE(writer_testing::AddFaceShapes(&mesh));
  const size_t targets = mesh.primitives[0].targets.size();
  mesh.weights.assign(targets, 0.5f);
  std::vector<bool> inbetween(targets, false);
  for (const InbetweenShape& shape : mesh.inbetween_shapes) {
    for (const InbetweenShape::Inbetween& i : shape.inbetweens) inbetween[i.target] = true;
  }
  for (Node& node : a.nodes) {
    if (node.mesh == 0) node.weights.assign(targets, 0.25f);
  }
  G4mfWriteReport report;
  const Asset g4mf = g4mf_testing::WriteAndLoadG4mf(a, &report);
  ASSERT_EQ(report.other_left_out.size(), 1u);
  EXPECT_NE(report.other_left_out[0].find("in-betweens of " +
                                          std::to_string(mesh.inbetween_shapes.size()) +
                                          " shapes (G4MF blends each shape linearly"),
            std::string::npos)
      << report.other_left_out[0];
  ASSERT_EQ(g4mf.meshes.size(), 1u);
  ASSERT_EQ(g4mf.meshes[0].weights.size(), targets);
  size_t instances = 0;
  for (const Node& node : g4mf.nodes) {
    if (node.mesh != 0) continue;
    ++instances;
    ASSERT_EQ(node.weights.size(), targets);
    for (size_t t = 0; t < targets; ++t) {
      EXPECT_EQ(node.weights[t], inbetween[t] ? 0.0f : 0.25f) << t;
      EXPECT_EQ(g4mf.meshes[0].weights[t], inbetween[t] ? 0.0f : 0.5f) << t;
    }
  }
  EXPECT_EQ(instances, 1u);
}

TEST(G4mfWriter, RejectsAnAssetWithoutMeshInstances) {
  Asset asset = LoadTestGltf("SimpleSkin/SimpleSkin.gltf");
  for (Node& n : asset.nodes) n.mesh = -1, n.skin = -1;
  auto bytes = WriteG4mf(asset);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.code(), Error::kInvalidArgument);
}

}  // namespace
}  // namespace sinew::loader
