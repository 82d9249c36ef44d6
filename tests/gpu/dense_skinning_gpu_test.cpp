// The dense skinning kernel against the CPU reference (docs/semantics.md, "Dense skinning",
// "Normals and tangents", "Tolerances").
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/vk/deform_once.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

using testing::GpuTest;

using testing::Character;
using testing::CrowdPalettes;
using testing::MaxAbsDiff;

// Poses `instances` crowd members, optionally distorts each palette entry (e.g. adds scale or
// mirroring), and checks the GPU against the CPU.
void ExpectGpuMatchesCpu(const vk::Context& ctx, const procedural::Character& character,
                         uint32_t instances,
                         Float3x4 (*distort)(const Float3x4&, size_t) = nullptr) {
  std::vector<Float3x4> palettes = CrowdPalettes(character.skeleton, instances);
  if (distort) {
    for (size_t e = 0; e < palettes.size(); ++e) palettes[e] = distort(palettes[e], e);
  }
  testing::ExpectGpuMatchesCpu(ctx, character.mesh, palettes, instances);
}

class DenseSkinningGpu : public GpuTest,
                         public ::testing::WithParamInterface<std::tuple<uint32_t, uint32_t>> {};

TEST_P(DenseSkinningGpu, MatchesTheCpuReferenceForEveryInstance) {
  const auto [vertices, k] = GetParam();
  ExpectGpuMatchesCpu(*context_, Character(vertices, k), 3);
}

// Sizes around a 64-vertex workgroup (the default on most devices), a single vertex, and a
// character-sized mesh; K = 4, 8, 12 (constants of their kernels) and 20 (read from the instance
// record).
INSTANTIATE_TEST_SUITE_P(SizesAndInfluenceCounts, DenseSkinningGpu,
                         ::testing::Combine(::testing::Values(1u, 63u, 64u, 65u, 1000u, 20000u),
                                            ::testing::Values(4u, 8u, 12u, 20u)));

class DenseSkinningGpuTest : public GpuTest {};

TEST_F(DenseSkinningGpuTest, SkinsPositionsOnlyWhenTheMeshHasNoNormalsOrTangents) {
  ExpectGpuMatchesCpu(*context_, Character(777, 4, false, false), 2);
}

TEST_F(DenseSkinningGpuTest, SkinsNormalsWithoutTangents) {
  ExpectGpuMatchesCpu(*context_, Character(300, 8, true, false), 2);
}

// Scales the columns of every joint's 3x3 part by (-1.3, 0.5, 1): non-uniform scale and a mirror
// (det < 0) everywhere, so blended matrices stay far from singular while the kernel's
// inverse-transpose normals and sign(det) handling are exercised as on the CPU.
Float3x4 ScaleAndMirror(const Float3x4& m, size_t) {
  const float sx = -1.3f, sy = 0.5f, sz = 1.0f;
  Float3x4 out = m;
  for (auto& row : out.row) {
    row.x *= sx;
    row.y *= sy;
    row.z *= sz;
  }
  return out;
}

TEST_F(DenseSkinningGpuTest, MatchesTheCpuUnderNonUniformScaleAndMirroring) {
  ExpectGpuMatchesCpu(*context_, Character(2000, 8), 3, ScaleAndMirror);
}

TEST_F(DenseSkinningGpuTest, HandlesManyInstancesInOneDispatch) {
  ExpectGpuMatchesCpu(*context_, Character(100, 4), 200);
}

TEST_F(DenseSkinningGpuTest, RestPaletteLeavesTheMeshInPlace) {
  const procedural::Character character = Character(500, 8);

  const Primitive& mesh = character.mesh;
  std::vector<Float3x4> palette(character.skeleton.joint_count());
  ASSERT_TRUE(procedural::RestPalette(character.skeleton, palette).ok());
  auto out = vk::DeformOnce(*context_, mesh, palette);
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_LE(MaxAbsDiff(out->positions, mesh.positions), 1e-5f * BoundsDiagonal(mesh.positions));
}

TEST_F(DenseSkinningGpuTest, UploadRejectsAnOutOfRangeJointBeforeTouchingTheGpu) {
  procedural::Character character = Character(10, 4);

  Primitive& mesh = character.mesh;
  mesh.influences.joints[7] = static_cast<uint16_t>(character.skeleton.joint_count());
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok());
  auto added = (*cache)->AddMesh(mesh, uint32_t(character.skeleton.joint_count()));
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(added.error().where, "influences/joints/7");
}

TEST_F(DenseSkinningGpuTest, UploadRejectsAnEmptyMesh) {
  procedural::Character character = Character(10, 4, false, false);

  Primitive& mesh = character.mesh;
  mesh.positions.clear();
  mesh.influences.joints.clear();
  mesh.influences.weights.clear();
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok());
  EXPECT_EQ((*cache)->AddMesh(mesh, uint32_t(character.skeleton.joint_count())).code(),
            Error::kInvalidArgument);
}

TEST_F(DenseSkinningGpuTest, SetPaletteChecksTheIdAndTheSize) {
  const procedural::Character character = Character(10, 4);

  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok());
  const vk::PaletteId palette = (*cache)->AddPalette(character.skeleton.joint_count()).value();
  std::vector<Float3x4> matrices(character.skeleton.joint_count());
  EXPECT_EQ(
      (*cache)->SetPalette(vk::PaletteId{palette.index + 1, 0, palette.cache}, matrices).code(),
      Error::kInvalidHandle);
  matrices.pop_back();
  EXPECT_EQ((*cache)->SetPalette(palette, matrices).code(), Error::kSizeMismatch);
  EXPECT_TRUE((*cache)->palette(vk::PaletteId{palette.index + 1, 0, palette.cache}).empty());
  EXPECT_EQ((*cache)->palette(palette).size(), character.skeleton.joint_count());
  EXPECT_EQ((*cache)->AddPalette(0).code(), Error::kInvalidArgument);
}

}  // namespace
}  // namespace sinew
