#include "sinew/asset/influence_layout.h"

#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "sinew/cpu/skin_mesh.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"

// Choosing and converting between the dense and the sparse influence layouts (docs/semantics.md,
// "Converting between dense and sparse"): the byte counts, the choice, and that both layouts deform
// a mesh alike.

namespace sinew {
namespace {

// A mesh with `vertex_count` vertices and one joint; vertex v has `counts[v % counts.size()]`
// nonzero entries (groups 0, 1, ...), weights 1/n each, in a sparse layout over `groups` groups.
Primitive SparseMesh(size_t vertex_count, const std::vector<uint32_t>& counts, uint32_t groups) {
  Primitive mesh;
  mesh.positions.assign(vertex_count * 3, 1.0f);
  SparseInfluences& s = mesh.sparse_influences;
  s.group_count = groups;
  s.offsets.push_back(0);
  for (size_t v = 0; v < vertex_count; ++v) {
    const uint32_t n = counts[v % counts.size()];
    for (uint32_t e = 0; e < n; ++e) {
      s.groups.push_back(e);
      s.weights.push_back(1.0f / float(n));
    }
    s.offsets.push_back(uint32_t(s.groups.size()));
  }
  return mesh;
}

TEST(InfluenceLayout, CountsTheBytesEachLayoutReads) {
  // Dense: per vertex K x (u16 joint + f32 weight).
  EXPECT_EQ(DenseInfluenceBytes(10, 4), 10u * 4 * 6);
  EXPECT_EQ(DenseInfluenceBytes(10, 16), 10u * 16 * 6);
  // Sparse: V + 1 u32 offsets, then u32 group + f32 weight per entry.
  EXPECT_EQ(SparseInfluenceBytes(10, 25), 11u * 4 + 25u * 8);
  EXPECT_EQ(SparseInfluenceBytes(0, 0), 4u);
}

TEST(InfluenceLayout, LosslessDenseKRoundsTheLongestRowUpToAMultipleOfFour) {
  EXPECT_EQ(LosslessDenseK(SparseMesh(6, {1, 2}, 8).sparse_influences), 4u);
  EXPECT_EQ(LosslessDenseK(SparseMesh(6, {4}, 8).sparse_influences), 4u);
  EXPECT_EQ(LosslessDenseK(SparseMesh(6, {1, 5, 2}, 8).sparse_influences), 8u);
  EXPECT_EQ(LosslessDenseK(SparseMesh(6, {0}, 8).sparse_influences), 4u);
  EXPECT_EQ(LosslessDenseK(SparseMesh(6, {1, 16}, 16).sparse_influences), 16u);
}

TEST(InfluenceLayout, ChoosesSparseWhenMostVerticesHaveOneOrTwoBonesAndAFewHaveMany) {
  // Rows of 1, 2, 1, 2, ..., 16: dense needs K = 16 (96 B/vertex), sparse about 16 B/vertex.
  std::vector<uint32_t> counts(20, 1);
  for (size_t i = 1; i < counts.size(); i += 2) counts[i] = 2;
  counts.back() = 16;
  const Primitive mesh = SparseMesh(200, counts, 16);
  EXPECT_LT(SparseInfluenceBytes(200, mesh.sparse_influences.entry_count()),
            DenseInfluenceBytes(200, 16));
  EXPECT_EQ(ChooseInfluenceLayout(mesh), InfluenceLayout::kSparse);
}

TEST(InfluenceLayout, ChoosesDenseForAUniformFourBoneMesh) {
  // 4 entries everywhere: dense 24 B/vertex, sparse 4 + 32 = 36 B/vertex.
  Primitive mesh = SparseMesh(100, {4}, 4);
  EXPECT_EQ(ChooseInfluenceLayout(mesh), InfluenceLayout::kDense);
  ASSERT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kDense, 0, 4).ok());
  EXPECT_EQ(ChooseInfluenceLayout(mesh), InfluenceLayout::kDense);
}

TEST(InfluenceLayout, ChoosesForADenseMeshByItsNonzeroSlots) {
  // K = 16 slots, only the first nonzero: 96 B/vertex dense against 12 B/vertex sparse.
  Primitive mesh = SparseMesh(50, {1}, 16);
  ASSERT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kDense, 16, 16).ok());
  ASSERT_FALSE(mesh.sparse());
  EXPECT_EQ(mesh.influences.influences_per_vertex, 16u);
  EXPECT_EQ(ChooseInfluenceLayout(mesh), InfluenceLayout::kSparse);
  ASSERT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kAuto, 0, 16).ok());
  EXPECT_TRUE(mesh.sparse());
  EXPECT_EQ(mesh.sparse_influences.entry_count(), 50u);
}

TEST(InfluenceLayout, ForcedSparseToDenseBelowTheLongestRowKeepsTheHeaviestEntries) {
  Primitive mesh = SparseMesh(3, {6}, 8);
  // Make the row strictly descending: 6, 5, ..., 1 (total 21).
  for (size_t e = 0; e < mesh.sparse_influences.weights.size(); ++e) {
    mesh.sparse_influences.weights[e] = float(6 - e % 6);
  }
  ASSERT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kDense, 4, 8).ok());
  ASSERT_EQ(mesh.influences.influences_per_vertex, 4u);
  // Kept 6, 5, 4, 3 (sum 18), scaled to the authored total 21.
  EXPECT_EQ(mesh.influences.joints[0], 0);
  EXPECT_EQ(mesh.influences.joints[3], 3);
  EXPECT_FLOAT_EQ(mesh.influences.weights[0], 6.0f * 21 / 18);
  EXPECT_FLOAT_EQ(mesh.influences.weights[3], 3.0f * 21 / 18);
  EXPECT_TRUE(mesh.Validate(8).ok()) << mesh.Validate(8).error().ToString();
}

TEST(InfluenceLayout, RejectsADenseKThatIsNotAMultipleOfFour) {
  Primitive mesh = SparseMesh(3, {2}, 4);
  const Status status = UseInfluenceLayout(mesh, InfluenceLayout::kDense, 6, 4);
  EXPECT_EQ(status.code(), Error::kInvalidInfluenceCount);
  EXPECT_EQ(status.error().where, "dense_k");
  EXPECT_TRUE(mesh.sparse());
}

TEST(InfluenceLayout, RefusesSparseToDenseWhenGroupsAreNotJoints) {
  Primitive mesh = SparseMesh(3, {2}, 4);
  mesh.sparse_influences.group_count = 6;  // Groups 4 and 5 map to no joint of the 4.
  const Status status = UseInfluenceLayout(mesh, InfluenceLayout::kDense, 0, 4);
  EXPECT_EQ(status.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(status.error().where, "sparse_influences/group_count");
  EXPECT_TRUE(mesh.sparse());
}

// Skins `mesh` with the crowd pose of instance 3 at t = 0.4 s.
std::vector<float> Skinned(const Primitive& mesh, const Skeleton& skeleton) {
  std::vector<Float3x4> palette(skeleton.joint_count());
  EXPECT_TRUE(procedural::CrowdPalette(skeleton, 0.4f, 3, palette).ok());
  std::vector<float> positions(mesh.positions.size()), normals(mesh.normals.size()),
      tangents(mesh.tangents.size());
  const Status status = cpu::SkinMesh(mesh, palette, positions, normals, tangents);
  EXPECT_TRUE(status.ok()) << status.error().ToString();
  positions.insert(positions.end(), normals.begin(), normals.end());
  positions.insert(positions.end(), tangents.begin(), tangents.end());
  return positions;
}

TEST(InfluenceLayout, BothLayoutsDeformTheCharacterAlike) {
  procedural::CharacterOptions options;
  options.vertex_count = 2000;
  options.influences_per_vertex = 8;
  auto character = procedural::MakeCharacter(options);
  ASSERT_TRUE(character.ok());
  const Skeleton& skeleton = character->skeleton;
  const size_t joints = skeleton.joint_count();
  const Primitive& dense = character->mesh;
  const std::vector<float> expected = Skinned(dense, skeleton);

  Primitive sparse = dense;
  ASSERT_TRUE(UseInfluenceLayout(sparse, InfluenceLayout::kSparse, 0, joints).ok());
  ASSERT_TRUE(sparse.sparse());
  ASSERT_EQ(sparse.palette_size(joints), joints);
  ASSERT_TRUE(sparse.Validate(joints).ok()) << sparse.Validate(joints).error().ToString();
  Primitive back = sparse;
  ASSERT_TRUE(UseInfluenceLayout(back, InfluenceLayout::kDense, 0, joints).ok());
  ASSERT_FALSE(back.sparse());

  for (const Primitive* mesh : {&sparse, &back}) {
    const std::vector<float> actual = Skinned(*mesh, skeleton);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
      ASSERT_NEAR(actual[i], expected[i], 1e-5f) << "float " << i;
    }
  }
}

}  // namespace
}  // namespace sinew
