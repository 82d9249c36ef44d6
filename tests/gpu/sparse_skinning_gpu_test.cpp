// The sparse (CSR) skinning kernel against the CPU reference, and against the dense layout
// (docs/semantics.md, "Sparse skinning", "Tolerances").
#include <gtest/gtest.h>

#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/group_palette_job.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

using testing::Character;
using testing::CrowdPalettes;
using testing::GpuTest;
using testing::MaxAbsDiff;

// The procedural character with its dense influences converted to sparse (groups = joints).
procedural::Character SparseCharacter(uint32_t vertices, uint32_t k) {
  procedural::Character character = Character(vertices, k);
  Primitive& mesh = character.mesh;
  const size_t joints = character.skeleton.joint_count();
  auto sparse = DenseToSparse(mesh.vertex_count(), mesh.influences, joints);
  EXPECT_TRUE(sparse.ok()) << sparse.error().ToString();
  mesh.sparse_influences = std::move(sparse.value());
  mesh.influences.joints.clear();
  mesh.influences.weights.clear();
  EXPECT_TRUE(mesh.Validate(joints).ok());
  return character;
}

class SparseSkinningGpu : public GpuTest,
                          public ::testing::WithParamInterface<std::tuple<uint32_t, uint32_t>> {};

TEST_P(SparseSkinningGpu, MatchesTheCpuReferenceForEveryInstance) {
  const auto [vertices, k] = GetParam();
  const procedural::Character character = SparseCharacter(vertices, k);

  const Primitive& mesh = character.mesh;
  testing::ExpectGpuMatchesCpu(*context_, mesh, CrowdPalettes(character.skeleton, 3), 3);
}

INSTANTIATE_TEST_SUITE_P(SizesAndInfluenceCounts, SparseSkinningGpu,
                         ::testing::Combine(::testing::Values(1u, 65u, 20000u),
                                            ::testing::Values(4u, 12u)));

class SparseSkinningGpuTest : public GpuTest {};

TEST_F(SparseSkinningGpuTest, HandlesVaryingInfluenceCountsIncludingNone) {
  // Most vertices 1-2 entries, every 10th all 12, every 7th none (keeps its rest attributes).
  procedural::Character character = SparseCharacter(3000, 12);

  Primitive& mesh = character.mesh;
  SparseInfluences& s = mesh.sparse_influences;
  SparseInfluences varied;
  varied.group_count = s.group_count;
  varied.offsets.push_back(0);
  for (size_t v = 0; v < mesh.vertex_count(); ++v) {
    const uint32_t available = s.offsets[v + 1] - s.offsets[v];
    const uint32_t keep =
        v % 7 == 0 ? 0 : (v % 10 == 0 ? available : std::min<uint32_t>(available, 1 + v % 2));
    for (uint32_t e = 0; e < keep; ++e) {
      varied.groups.push_back(s.groups[s.offsets[v] + e]);
      varied.weights.push_back(s.weights[s.offsets[v] + e]);
    }
    varied.offsets.push_back(static_cast<uint32_t>(varied.groups.size()));
  }
  s = std::move(varied);
  ASSERT_TRUE(mesh.Validate(character.skeleton.joint_count()).ok());
  testing::ExpectGpuMatchesCpu(*context_, mesh, CrowdPalettes(character.skeleton, 2), 2);
}

TEST_F(SparseSkinningGpuTest, GroupsMapToBonesThroughJointsWithDuplicatesAndMinusOne) {
  // Two skeleton instances bind the same mesh with different joints arrays: the group palette is
  // built per instance (GroupPaletteJob), so the kernel never sees the mapping.
  const procedural::Character character = SparseCharacter(500, 8);

  const Primitive& mesh = character.mesh;
  const size_t groups = mesh.palette_size(character.skeleton.joint_count());
  const std::vector<Float3x4> bones = CrowdPalettes(character.skeleton, 1);
  std::vector<int32_t> joints_a(groups), joints_b(groups / 2);  // b: later groups are identity
  for (size_t g = 0; g < groups; ++g) joints_a[g] = g % 5 == 0 ? -1 : int32_t(g / 2 * 2);
  for (size_t g = 0; g < joints_b.size(); ++g) joints_b[g] = int32_t(groups - 1 - g);
  std::vector<Float3x4> palettes(2 * groups);
  for (int i = 0; i < 2; ++i) {
    cpu::GroupPaletteJob job;
    job.joints = i == 0 ? std::span<const int32_t>(joints_a) : std::span<const int32_t>(joints_b);
    job.bone_palette = bones;
    job.output = std::span(palettes).subspan(size_t(i) * groups, groups);
    ASSERT_TRUE(job.Run().ok());
  }
  testing::ExpectGpuMatchesCpu(*context_, mesh, palettes, 2);
}

TEST_F(SparseSkinningGpuTest, SparseAndDenseLayoutsDeformIdentically) {
  const procedural::Character dense_character = Character(2000, 8);

  const Primitive& dense = dense_character.mesh;
  Primitive sparse = dense;
  auto converted =
      DenseToSparse(dense.vertex_count(), dense.influences, dense_character.skeleton.joint_count());
  ASSERT_TRUE(converted.ok());
  sparse.sparse_influences = std::move(converted.value());
  sparse.influences.joints.clear();
  sparse.influences.weights.clear();
  const std::vector<Float3x4> palettes = CrowdPalettes(dense_character.skeleton, 2);
  const testing::Streams a = testing::SkinOnCpu(dense, palettes, 2);
  const testing::Streams b = testing::SkinOnCpu(sparse, palettes, 2);
  EXPECT_LE(MaxAbsDiff(a.positions, b.positions), 1e-5f * BoundsDiagonal(dense.positions));
  EXPECT_LE(MaxAbsDiff(a.normals, b.normals), 1e-5f);
  // And each layout's GPU kernel matches its CPU reference.
  testing::ExpectGpuMatchesCpu(*context_, dense, palettes, 2);
  testing::ExpectGpuMatchesCpu(*context_, sparse, palettes, 2);
}

TEST_F(SparseSkinningGpuTest, UploadRejectsAGroupPastGroupCount) {
  procedural::Character character = SparseCharacter(10, 4);

  Primitive& mesh = character.mesh;
  mesh.sparse_influences.groups[3] = mesh.sparse_influences.group_count;
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok());
  auto added = (*cache)->AddMesh(mesh, uint32_t(character.skeleton.joint_count()));
  EXPECT_EQ(added.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(added.error().where, "sparse_influences/groups/3");
}

}  // namespace
}  // namespace sinew
