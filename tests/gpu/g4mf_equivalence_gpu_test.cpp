// Every shared skinned glTF asset, converted to G4MF (WriteG4mf) and loaded back, deforms like the
// original (docs/semantics.md, "Sparse skinning"; docs/G4MF.md): dense glTF skinning on the CPU ==
// sparse G4MF skinning on the CPU == sparse on the GPU, corner by corner, at several poses and at
// three times of every clip of the glTF file (G4MF has no animation: the glTF clip's joint matrices
// drive both).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bake.h"
#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/group_palette_job.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew {
namespace {

using loader::LoadedAsset;

constexpr const char* kSkinnedAssets[] = {
    "Fox/Fox.glb",
    "CesiumMan/CesiumMan.glb",
    "SimpleSkin/SimpleSkin.gltf",
    "three_RobotExpressive/RobotExpressive.glb",
    "assimp_simple_skin/quad_skin.glb",
    "assimp_simple_skin/simple_skin.gltf",
    "synthetic/SimpleSkin_interp_bindpose.gltf",
    "synthetic/quad_skin_posed.glb",
};
constexpr int kPoses = 3;

struct Converted {
  LoadedAsset gltf, g4mf;
};

Converted Convert(const std::string& relative, bool binary,
                  const loader::GltfOptions& gltf_options = {},
                  const loader::G4mfOptions& g4mf_options = {}) {
  Converted out;
  auto gltf = loader::LoadGltf(testing::TestAssets() / relative, gltf_options);
  EXPECT_TRUE(gltf.ok()) << gltf.error().ToString();
  if (!gltf.ok()) return out;
  out.gltf = std::move(gltf.value());
  loader::G4mfWriteOptions options;
  options.binary = binary;
  options.zstd = binary;
  auto bytes = loader::WriteG4mf(out.gltf.asset, options);
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  if (!bytes.ok()) return out;
  const size_t size = bytes->size();
  bytes->resize(size + loader::ReadPadding(), 0);
  auto g4mf = loader::LoadG4mfFromMemory(std::span(bytes->data(), size), ".", g4mf_options);
  EXPECT_TRUE(g4mf.ok()) << g4mf.error().ToString();
  if (g4mf.ok()) out.g4mf = std::move(g4mf.value());
  return out;
}

// Scene-space matrices of every node, with each skin joint's local transform turned by a rotation
// that depends on the pose and the joint (pose 0 is the file's rest pose).
std::vector<Float4x4> PosedWorlds(const Asset& a, const std::vector<uint32_t>& joints, int pose) {
  std::vector<Float4x4> local(a.nodes.size()), world(a.nodes.size());
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    const Node& node = a.nodes[n];
    local[n] =
        node.has_matrix ? node.matrix : ComposeTrs(node.translation, node.rotation, node.scale);
  }
  for (uint32_t j : joints) {
    const float angle = pose == 0 ? 0.0f : 0.4f * std::sin(1.7f * float(pose) + float(j));
    const Float3 axis = NormalizeOrKeep(Float3{std::sin(float(j)), std::cos(float(j)), 0.5f});
    local[j] = Multiply(local[j],
                        ComposeTrs({}, AxisAngle(axis.x, axis.y, axis.z, angle), Float3{1, 1, 1}));
  }
  std::vector<bool> done(a.nodes.size(), false);
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    std::vector<size_t> chain;  // n and its ancestors not yet computed, child first
    for (int32_t m = int32_t(n); m >= 0 && !done[size_t(m)]; m = a.nodes[size_t(m)].parent) {
      chain.push_back(size_t(m));
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const int32_t parent = a.nodes[*it].parent;
      world[*it] = parent < 0 ? local[*it] : Multiply(world[size_t(parent)], local[*it]);
      done[*it] = true;
    }
  }
  return world;
}

// Entries of the palette a primitive's influence indices address (at least 1).
size_t PaletteSize(const Primitive& p) {
  size_t size = std::max<size_t>(1, p.sparse_influences.group_count);
  for (uint16_t j : p.influences.joints) size = std::max<size_t>(size, j + 1u);
  return size;
}

struct Case {
  Primitive dense, sparse;
  std::vector<Float3x4> dense_palette, group_palette;
  std::vector<uint32_t> dense_corners, sparse_corners;
  std::string name;
};

// One case per skinned node instance, primitive and pose.
std::vector<Case> Cases(const Converted& c, const std::string& asset) {
  std::vector<Case> cases;
  const Asset& g = c.gltf.asset;
  const Asset& s = c.g4mf.asset;
  std::vector<size_t> g4mf_instances;
  for (size_t n = 0; n < s.nodes.size(); ++n) {
    if (s.nodes[n].skin >= 0) g4mf_instances.push_back(n);
  }
  size_t instance = 0;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].mesh < 0 || g.nodes[n].skin < 0) continue;
    EXPECT_LT(instance, g4mf_instances.size()) << asset;
    if (instance >= g4mf_instances.size()) break;
    const Node& sn = s.nodes[g4mf_instances[instance++]];
    const Skin& gskin = g.skins[size_t(g.nodes[n].skin)];
    const Skin& sskin = s.skins[size_t(sn.skin)];
    const Mesh& gmesh = g.meshes[size_t(g.nodes[n].mesh)];
    const Mesh& smesh = s.meshes[size_t(sn.mesh)];
    EXPECT_EQ(gmesh.primitives.size(), smesh.primitives.size()) << asset;
    EXPECT_EQ(sskin.group_joints.size(), gskin.joints.size()) << asset;
    // Poses: the rest pose and turned joints, then three times (start, middle, end) of every clip.
    const int poses = kPoses + 3 * int(g.animations.size());
    for (int pose = 0; pose < poses; ++pose) {
      std::vector<Float4x4> world;
      if (pose < kPoses) {
        world = PosedWorlds(g, gskin.joints, pose);
      } else {
        const int32_t clip = (pose - kPoses) / 3;
        const cpu::ClipRange range = cpu::RangeOf(g.animations[size_t(clip)]);
        auto scene = cpu::EvaluateScene(
            g, clip, range.start + range.duration() * 0.5f * float((pose - kPoses) % 3));
        EXPECT_TRUE(scene.ok()) << scene.error().ToString();
        if (!scene.ok()) continue;
        world = std::move(scene->world);
      }
      std::vector<Float3x4> dense_palette(gskin.joints.size());
      for (size_t j = 0; j < gskin.joints.size(); ++j) {
        dense_palette[j] = ToFloat3x4(Multiply(world[gskin.joints[j]], gskin.inverse_binds[j]));
      }
      // G4MF bone k is glTF joint j where group_joints[j] == k (the writer's groups = joints).
      std::vector<Float3x4> bone_palette(sskin.joints.size());
      for (size_t j = 0; j < sskin.group_joints.size(); ++j) {
        const int32_t k = sskin.group_joints[j];
        if (k < 0) continue;
        bone_palette[size_t(k)] =
            ToFloat3x4(Multiply(world[gskin.joints[j]], sskin.inverse_binds[size_t(k)]));
      }
      for (size_t p = 0; p < std::min(gmesh.primitives.size(), smesh.primitives.size()); ++p) {
        const Primitive& gp = gmesh.primitives[p];
        const Primitive& sp = smesh.primitives[p];
        Case k;
        k.name = asset + " node " + std::to_string(n) + " primitive " + std::to_string(p) +
                 (pose < kPoses ? " pose " + std::to_string(pose)
                                : " clip " + std::to_string((pose - kPoses) / 3) + " time " +
                                      std::to_string((pose - kPoses) % 3) + "/2");
        k.dense = gp;
        k.sparse = sp;
        k.dense_palette = dense_palette;
        k.group_palette.resize(PaletteSize(sp));
        cpu::GroupPaletteJob job;
        job.joints = sskin.group_joints;
        job.bone_palette = bone_palette;
        job.output = k.group_palette;
        const Status status = job.Run();
        EXPECT_TRUE(status.ok()) << status.error().ToString();
        k.dense_corners = gp.indices;
        if (k.dense_corners.empty()) {
          for (uint32_t v = 0; v < gp.vertex_count(); ++v) k.dense_corners.push_back(v);
        }
        k.sparse_corners = sp.indices;
        cases.push_back(std::move(k));
      }
    }
  }
  EXPECT_EQ(instance, g4mf_instances.size()) << asset;
  return cases;
}

testing::Streams Skin(const Primitive& mesh, const std::vector<Float3x4>& palette) {
  testing::Streams out;
  out.positions.resize(mesh.positions.size());
  out.normals.resize(mesh.normals.size());
  out.tangents.resize(mesh.tangents.size());
  const Status status = cpu::SkinMesh(mesh, palette, out.positions, out.normals, out.tangents);
  EXPECT_TRUE(status.ok()) << status.error().ToString();
  return out;
}

class G4mfEquivalence : public ::testing::TestWithParam<const char*> {};

TEST_P(G4mfEquivalence, SparseSkinningOfTheConvertedAssetMatchesDenseSkinningOfTheOriginal) {
  for (bool binary : {false, true}) {
    const Converted c = Convert(GetParam(), binary);
    const std::vector<Case> cases = Cases(c, GetParam());
    ASSERT_FALSE(cases.empty());
    for (const Case& k : cases) {
      ASSERT_EQ(k.dense_corners.size(), k.sparse_corners.size()) << k.name;
      const testing::Streams dense = Skin(k.dense, k.dense_palette);
      const testing::Streams sparse = Skin(k.sparse, k.group_palette);
      const float extent = BoundsDiagonal(dense.positions);
      float position_error = 0, normal_error = 0;
      for (size_t corner = 0; corner < k.dense_corners.size(); ++corner) {
        const size_t d = k.dense_corners[corner], s = k.sparse_corners[corner];
        for (size_t i = 0; i < 3; ++i) {
          position_error = std::max(
              position_error, std::fabs(dense.positions[d * 3 + i] - sparse.positions[s * 3 + i]));
          if (!dense.normals.empty()) {
            normal_error = std::max(
                normal_error, std::fabs(dense.normals[d * 3 + i] - sparse.normals[s * 3 + i]));
          }
        }
      }
      EXPECT_LE(position_error, 1e-5f * extent) << k.name << (binary ? " (.g4b)" : " (.g4tf)");
      EXPECT_LE(normal_error, 1e-5f) << k.name;
      EXPECT_EQ(dense.normals.empty(), sparse.normals.empty()) << k.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, G4mfEquivalence, ::testing::ValuesIn(kSkinnedAssets));

// The loaders' `influences` option: glTF loaded as sparse and G4MF loaded as dense (lossless K)
// deform exactly like their native layouts.
TEST(G4mfEquivalenceOptions, EitherLayoutAtLoadDeformsLikeTheNativeOne) {
  loader::GltfOptions gltf_sparse;
  gltf_sparse.influences = InfluenceLayout::kSparse;
  loader::G4mfOptions g4mf_dense;
  g4mf_dense.influences = InfluenceLayout::kDense;
  for (const char* asset : kSkinnedAssets) {
    const std::vector<Case> native = Cases(Convert(asset, false), asset);
    const std::vector<Case> swapped = Cases(Convert(asset, false, gltf_sparse, g4mf_dense), asset);
    ASSERT_EQ(native.size(), swapped.size()) << asset;
    for (size_t i = 0; i < native.size(); ++i) {
      ASSERT_TRUE(swapped[i].dense.sparse()) << swapped[i].name;
      ASSERT_FALSE(swapped[i].sparse.sparse()) << swapped[i].name;
      const float extent = BoundsDiagonal(native[i].dense.positions);
      EXPECT_LE(testing::MaxAbsDiff(Skin(native[i].dense, native[i].dense_palette).positions,
                                    Skin(swapped[i].dense, swapped[i].dense_palette).positions),
                1e-6f * extent)
          << native[i].name << " (glTF as sparse)";
      EXPECT_LE(testing::MaxAbsDiff(Skin(native[i].sparse, native[i].group_palette).positions,
                                    Skin(swapped[i].sparse, swapped[i].group_palette).positions),
                1e-6f * extent)
          << native[i].name << " (G4MF as dense)";
    }
  }
}

// What `sinew bake --device cpu` computes for every drawn mesh instance (tool::BakeAsset, the
// command's own path), in bind pose (`--pose bind`) or at rest, grouped per mesh node: in the order
// WriteG4mf writes mesh instances when `writer_order` (skinned nodes first, then unskinned, each by
// node index), else by node index.
struct BakedInstance {
  uint32_t node = 0;
  std::vector<cpu::DeformedPrimitive> primitives;
};

std::vector<BakedInstance> Bake(const Asset& a, bool bind, bool writer_order) {
  std::vector<BakedInstance> out;
  tool::BakeOptions options;
  options.pose = bind ? "bind" : "rest";
  auto baked = tool::BakeAsset(a, options);
  EXPECT_TRUE(baked.ok()) << baked.error().ToString();
  if (!baked.ok()) return out;
  for (tool::BakedPrimitive& p : baked->primitives) {
    if (out.empty() || out.back().node != p.node) out.push_back({p.node, {}});
    out.back().primitives.push_back(std::move(p.data));
  }
  std::stable_sort(out.begin(), out.end(), [&](const BakedInstance& x, const BakedInstance& y) {
    const bool x_later = writer_order && a.nodes[x.node].skin < 0;
    const bool y_later = writer_order && a.nodes[y.node].skin < 0;
    return x_later != y_later ? y_later : x.node < y.node;
  });
  return out;
}

std::vector<uint32_t> CornersOf(const Primitive& p) {
  std::vector<uint32_t> corners = p.indices;
  if (corners.empty()) {
    for (uint32_t v = 0; v < p.vertex_count(); ++v) corners.push_back(v);
  }
  return corners;
}

// Every mesh instance of the file (skinned or not, morph targets at their default weights), baked
// in bind pose from the glTF original and from its G4MF conversion (whose file pose is its bind
// pose), agrees corner by corner within 1e-5 x the asset's extent.
class G4mfBake : public ::testing::TestWithParam<const char*> {};

TEST_P(G4mfBake, TheConvertedAssetBakesInBindPoseLikeTheOriginal) {
  for (bool binary : {false, true}) {
    const Converted c = Convert(GetParam(), binary);
    const std::string name = std::string(GetParam()) + (binary ? " (.g4b)" : " (.g4tf)");
    const std::vector<BakedInstance> gltf = Bake(c.gltf.asset, true, true);
    ASSERT_FALSE(gltf.empty()) << name;
    for (bool g4mf_bind : {false, true}) {
      const std::vector<BakedInstance> g4mf = Bake(c.g4mf.asset, g4mf_bind, false);
      ASSERT_EQ(g4mf.size(), gltf.size()) << name << (g4mf_bind ? ", bind" : ", rest");
      std::vector<float> all;
      for (const BakedInstance& instance : gltf) {
        for (const cpu::DeformedPrimitive& p : instance.primitives) {
          all.insert(all.end(), p.positions.begin(), p.positions.end());
        }
      }
      const float extent = BoundsDiagonal(all);
      ASSERT_GT(extent, 0) << name;
      for (size_t i = 0; i < gltf.size(); ++i) {
        const Mesh& gmesh = c.gltf.asset.meshes[size_t(c.gltf.asset.nodes[gltf[i].node].mesh)];
        const Mesh& smesh = c.g4mf.asset.meshes[size_t(c.g4mf.asset.nodes[g4mf[i].node].mesh)];
        ASSERT_EQ(gmesh.primitives.size(), smesh.primitives.size()) << name << " instance " << i;
        EXPECT_EQ(c.g4mf.asset.nodes[g4mf[i].node].skin >= 0,
                  c.gltf.asset.nodes[gltf[i].node].skin >= 0)
            << name << " instance " << i;
        for (size_t p = 0; p < gmesh.primitives.size(); ++p) {
          const std::vector<uint32_t> gc = CornersOf(gmesh.primitives[p]);
          const std::vector<uint32_t> sc = CornersOf(smesh.primitives[p]);
          ASSERT_EQ(gc.size(), sc.size()) << name << " instance " << i << " primitive " << p;
          const cpu::DeformedPrimitive& gd = gltf[i].primitives[p];
          const cpu::DeformedPrimitive& sd = g4mf[i].primitives[p];
          float position_error = 0, normal_error = 0;
          for (size_t corner = 0; corner < gc.size(); ++corner) {
            for (size_t k = 0; k < 3; ++k) {
              position_error = std::max(
                  position_error,
                  std::fabs(gd.positions[gc[corner] * 3 + k] - sd.positions[sc[corner] * 3 + k]));
              if (!gd.normals.empty() && !sd.normals.empty()) {
                normal_error = std::max(normal_error, std::fabs(gd.normals[gc[corner] * 3 + k] -
                                                                sd.normals[sc[corner] * 3 + k]));
              }
            }
          }
          EXPECT_LE(position_error, 1e-5f * extent)
              << name << " instance " << i << " (node " << gltf[i].node << ") primitive " << p
              << (g4mf_bind ? ", G4MF --pose bind" : ", G4MF --pose rest");
          EXPECT_LE(normal_error, 1e-5f) << name << " instance " << i << " primitive " << p;
          EXPECT_EQ(gd.normals.empty(), sd.normals.empty()) << name << " primitive " << p;
        }
      }
    }
  }
}

constexpr const char* kBakedAssets[] = {
    "CesiumMan/CesiumMan.glb",
    "Fox/Fox.glb",
    "three_RobotExpressive/RobotExpressive.glb",
    "SimpleSkin/SimpleSkin.gltf",
    "assimp_simple_skin/quad_skin.glb",
    "synthetic/quad_skin_posed.glb",
    "SimpleMorph/SimpleMorph.gltf",
};

INSTANTIATE_TEST_SUITE_P(SharedAssets, G4mfBake, ::testing::ValuesIn(kBakedAssets));

class G4mfEquivalenceGpu : public testing::GpuTest,
                           public ::testing::WithParamInterface<const char*> {};

TEST_P(G4mfEquivalenceGpu, GpuSparseSkinningOfTheConvertedAssetMatchesTheCpu) {
  const Converted c = Convert(GetParam(), false);
  for (const Case& k : Cases(c, GetParam())) {
    SCOPED_TRACE(k.name);
    testing::ExpectGpuMatchesCpu(*context_, k.sparse, k.group_palette, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, G4mfEquivalenceGpu, ::testing::ValuesIn(kSkinnedAssets));

}  // namespace
}  // namespace sinew
