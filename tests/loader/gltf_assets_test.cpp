// Every shared asset loads with the counts written down from the files themselves (read with an
// independent JSON reader when this table was made).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::loader {
namespace {

std::filesystem::path Assets() { return sinew::testing::TestAssets(); }

struct Expected {
  const char* path;
  size_t nodes, meshes, primitives, vertices;  // vertices summed over all primitives
  std::vector<size_t> skin_joints;
  size_t animations;
  uint32_t first_skinned_k;  // K of the first skinned primitive (0: none)
  size_t first_targets;      // morph targets of the first mesh
  int32_t scene;
};

const Expected kAssets[] = {
    {"AnimatedMorphCube/AnimatedMorphCube.gltf", 1, 1, 1, 24, {}, 1, 0, 2, 0},
    {"AnimatedMorphSphere/AnimatedMorphSphere.gltf", 1, 1, 1, 1876, {}, 1, 0, 2, 0},
    {"CesiumMan/CesiumMan.glb", 22, 1, 1, 3273, {19}, 1, 4, 0, 0},
    {"Fox/Fox.glb", 26, 1, 1, 1728, {24}, 3, 4, 0, 0},
    {"MorphPrimitivesTest/MorphPrimitivesTest.gltf", 2, 1, 2, 30, {}, 0, 0, 1, 0},
    {"MorphStressTest/MorphStressTest.gltf", 1, 1, 2, 1528, {}, 3, 0, 8, 0},
    {"MorphStressTest_embedded/MorphStressTest.gltf", 1, 1, 2, 1528, {}, 3, 0, 8, 0},
    {"SimpleMorph/SimpleMorph.gltf", 1, 1, 1, 3, {}, 1, 0, 2, 0},
    {"SimpleSkin/SimpleSkin.gltf", 3, 1, 1, 10, {2}, 1, 4, 0, -1},
    {"assimp_simple_skin/quad_skin.glb", 23, 1, 1, 4, {10}, 0, 12, 0, 0},
    {"assimp_simple_skin/simple_skin.gltf", 3, 1, 1, 10, {2}, 1, 4, 0, -1},
    {"synthetic/SimpleSkin_interp_bindpose.gltf", 3, 1, 1, 10, {2}, 3, 4, 0, -1},
    {"synthetic/quad_skin_posed.glb", 23, 1, 1, 4, {10}, 0, 12, 0, 0},
    {"three_RobotExpressive/RobotExpressive.glb", 74, 14, 19, 7214, {43, 43}, 14, 4, 0, 0},
};

// Shown by gtest and ctest instead of the parameter's raw bytes.
void PrintTo(const Expected& e, std::ostream* os) { *os << e.path; }

class SharedAsset : public ::testing::TestWithParam<Expected> {};

TEST_P(SharedAsset, LoadsWithTheCountsInTheFile) {
  const Expected& e = GetParam();
  const auto path = Assets() / e.path;
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " (set SINEW_TEST_ASSETS)";
  auto loaded = LoadGltf(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  EXPECT_EQ(a.nodes.size(), e.nodes);
  // The children, packed in node_children, are the nodes whose parent each node is, once each.
  size_t child_entries = 0;
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    for (uint32_t child : a.Children(n)) {
      ASSERT_LT(child, a.nodes.size());
      EXPECT_EQ(a.nodes[child].parent, int32_t(n)) << "node " << child;
      ++child_entries;
    }
  }
  EXPECT_EQ(child_entries, size_t(std::count_if(a.nodes.begin(), a.nodes.end(),
                                                [](const Node& n) { return n.parent >= 0; })));
  EXPECT_EQ(a.node_children.size(), child_entries);
  EXPECT_EQ(a.meshes.size(), e.meshes);
  size_t primitives = 0, vertices = 0;
  uint32_t first_k = 0;
  for (const Mesh& m : a.meshes) {
    for (const Primitive& p : m.primitives) {
      ++primitives;
      vertices += p.vertex_count();
      if (first_k == 0 && p.skinned()) first_k = p.influences.influences_per_vertex;
      if (!p.normals.empty()) {
        EXPECT_EQ(p.normals.size(), p.positions.size());
      }
      if (!p.tangents.empty()) {
        EXPECT_EQ(p.tangents.size(), p.vertex_count() * 4);
      }
      for (const MorphTarget& t : p.targets) {
        if (!t.positions.empty()) {
          EXPECT_EQ(t.positions.size(), p.positions.size());
        }
      }
    }
  }
  EXPECT_EQ(primitives, e.primitives);
  // Each stream is one allocation in the runtime's format, 16-byte aligned (asset.h).
  const auto aligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
  for (const Mesh& m : a.meshes) {
    for (const Primitive& p : m.primitives) {
      EXPECT_TRUE(aligned(p.positions.data()));
      if (!p.normals.empty()) {
        EXPECT_TRUE(aligned(p.normals.data()));
      }
      if (!p.tangents.empty()) {
        EXPECT_TRUE(aligned(p.tangents.data()));
      }
      if (!p.indices.empty()) {
        EXPECT_TRUE(aligned(p.indices.data()));
      }
      if (!p.influences.joints.empty()) {
        EXPECT_TRUE(aligned(p.influences.joints.data()));
        EXPECT_TRUE(aligned(p.influences.weights.data()));
      }
    }
  }
  EXPECT_EQ(vertices, e.vertices);
  EXPECT_EQ(first_k, e.first_skinned_k);
  ASSERT_FALSE(a.meshes.empty());
  EXPECT_EQ(a.meshes[0].primitives[0].targets.size(), e.first_targets);
  std::vector<size_t> joints;
  for (const Skin& s : a.skins) {
    joints.push_back(s.joints.size());
    EXPECT_EQ(s.inverse_binds.size(), s.joints.size());
  }
  EXPECT_EQ(joints, e.skin_joints);
  EXPECT_EQ(a.animations.size(), e.animations);
  EXPECT_EQ(a.scene, e.scene);
  // Default weight mode: every skinned vertex's weights sum to 1 (or to 0).
  for (const Mesh& m : a.meshes) {
    for (const Primitive& p : m.primitives) {
      const uint32_t k = p.influences.influences_per_vertex;
      for (size_t v = 0; p.skinned() && v < p.vertex_count(); ++v) {
        const float sum = std::accumulate(p.influences.weights.begin() + long(v * k),
                                          p.influences.weights.begin() + long(v * k + k), 0.0f);
        if (sum != 0.0f) {
          ASSERT_NEAR(sum, 1.0f, 1e-5f) << e.path << " vertex " << v;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Assets, SharedAsset, ::testing::ValuesIn(kAssets),
                         [](const ::testing::TestParamInfo<Expected>& param_info) {
                           std::string name = param_info.param.path;
                           name = name.substr(0, name.find('/')) + "_" +
                                  name.substr(name.rfind('.') + 1);
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name + "_" + std::to_string(param_info.index);
                         });

// A .gltf says which files beside it it read (its external buffers, once each in the order read);
// a .glb whose buffer is its BIN chunk, none.
TEST(LoadGltf, NamesTheExternalFilesItRead) {
  auto gltf = LoadGltf(Assets() / "AnimatedMorphCube/AnimatedMorphCube.gltf");
  ASSERT_TRUE(gltf.ok()) << gltf.error().ToString();
  ASSERT_EQ(gltf->external_files.size(), 1u);
  EXPECT_TRUE(std::filesystem::equivalent(gltf->external_files[0],
                                          Assets() / "AnimatedMorphCube/AnimatedMorphCube.bin"));
  auto glb = LoadGltf(Assets() / "Fox/Fox.glb");
  ASSERT_TRUE(glb.ok()) << glb.error().ToString();
  EXPECT_TRUE(glb->external_files.empty());
}

// glTF prescribes +Y up and meters, and keys in seconds: the loaded asset says so, as a USD stage
// says its own (tests/loader/usd_asset_test.cpp).
TEST(LoadGltf, SaysItsCoordinatesAreYUpInMetersAndItsKeysInSeconds) {
  auto fox = LoadGltf(Assets() / "Fox/Fox.glb");
  ASSERT_TRUE(fox.ok()) << fox.error().ToString();
  EXPECT_EQ(fox->up_axis, UpAxis::kY);
  EXPECT_EQ(fox->meters_per_unit, 1.0);
  EXPECT_FALSE(fox->time_codes_per_second.has_value());
}

TEST(LoadGltf, KeepsWeightsAsAuthoredWhenAsked) {
  // RobotExpressive has skin weights summing to up to 1.75 (assets/LICENSES.md).
  GltfOptions options;
  options.weights = WeightMode::kAsAuthored;
  auto loaded = LoadGltf(Assets() / "three_RobotExpressive/RobotExpressive.glb", options);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  float max_sum = 0;
  for (const Mesh& m : loaded->asset.meshes) {
    for (const Primitive& p : m.primitives) {
      const uint32_t k = p.influences.influences_per_vertex;
      for (size_t v = 0; p.skinned() && v < p.vertex_count(); ++v) {
        max_sum = std::max(max_sum,
                           std::accumulate(p.influences.weights.begin() + long(v * k),
                                           p.influences.weights.begin() + long(v * k + k), 0.0f));
      }
    }
  }
  EXPECT_NEAR(max_sum, 1.75f, 0.01f);
  bool warned = false;
  for (const Warning& w : loaded->warnings) {
    warned |= w.message.find("do not sum to 1") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace sinew::loader
