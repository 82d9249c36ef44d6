// The dense skinning kernel against the CPU reference (DESIGN.md §4.1, §4.4, §9).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpu/gpu_test.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/vk/deformer.h"
#include "sinew/vk/device_mesh.h"
#include "sinew/vk/readback.h"

namespace sinew {
namespace {

using testing::GpuTest;

struct Streams {
  std::vector<float> positions, normals, tangents;
};

// CPU reference for every instance, laid out as the Deformer's outputs.
Streams SkinOnCpu(const SkinnedMesh& mesh, const std::vector<Float3x4>& palettes,
                  uint32_t instances) {
  const size_t v = mesh.vertex_count(), j = mesh.skeleton.joint_count();
  Streams out;
  out.positions.resize(instances * v * 3);
  out.normals.resize(mesh.normals.empty() ? 0 : instances * v * 3);
  out.tangents.resize(mesh.tangents.empty() ? 0 : instances * v * 4);
  for (uint32_t i = 0; i < instances; ++i) {
    cpu::SkinDenseJob job = cpu::SkinDenseJobFor(mesh, std::span(palettes).subspan(i * j, j));
    job.out_positions = std::span(out.positions).subspan(i * v * 3, v * 3);
    if (!mesh.normals.empty()) job.out_normals = std::span(out.normals).subspan(i * v * 3, v * 3);
    if (!mesh.tangents.empty()) {
      job.out_tangents = std::span(out.tangents).subspan(i * v * 4, v * 4);
    }
    EXPECT_TRUE(job.Run().ok());
  }
  return out;
}

float MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  float m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

// Deforms `instances` posed copies of `mesh` on the GPU and checks them against the CPU.
// `distort`, when given, changes each palette entry after posing (e.g. adds scale or mirroring).
void ExpectGpuMatchesCpu(const vk::Context& ctx, const SkinnedMesh& mesh, uint32_t instances,
                         Float3x4 (*distort)(const Float3x4&, size_t) = nullptr) {
  const size_t j = mesh.skeleton.joint_count();
  std::vector<Float3x4> palettes(instances * j);
  for (uint32_t i = 0; i < instances; ++i) {
    ASSERT_TRUE(procedural::CrowdPalette(mesh.skeleton, 0.3f + float(i), i,
                                         std::span(palettes).subspan(i * j, j))
                    .ok());
  }
  if (distort) {
    for (size_t e = 0; e < palettes.size(); ++e) palettes[e] = distort(palettes[e], e);
  }
  const Streams expected = SkinOnCpu(mesh, palettes, instances);

  auto device_mesh = vk::DeviceMesh::Create(ctx, mesh);
  ASSERT_TRUE(device_mesh.ok()) << device_mesh.error().ToString();
  vk::DeformerOptions options;
  options.instance_count = instances;
  auto deformer = vk::Deformer::Create(ctx, **device_mesh, options);
  ASSERT_TRUE(deformer.ok()) << deformer.error().ToString();
  for (uint32_t i = 0; i < instances; ++i) {
    ASSERT_TRUE((*deformer)->SetPalette(i, std::span(palettes).subspan(i * j, j)).ok());
  }
  ASSERT_TRUE(ctx.SubmitAndWait([&](VkCommandBuffer cmd) { (*deformer)->Record(cmd); }).ok());

  const VkDeviceSize v = mesh.vertex_count();
  auto positions = vk::ReadFloats(ctx, (*deformer)->out_positions(), 0, instances * v * 12);
  ASSERT_TRUE(positions.ok()) << positions.error().ToString();
  const float extent = BoundsDiagonal(mesh.positions);
  const float tolerance = 1e-5f * std::max(extent, 1e-3f);
  EXPECT_LE(MaxAbsDiff(*positions, expected.positions), tolerance);
  if (!mesh.normals.empty()) {
    auto normals = vk::ReadFloats(ctx, (*deformer)->out_normals(), 0, instances * v * 12);
    ASSERT_TRUE(normals.ok());
    EXPECT_LE(MaxAbsDiff(*normals, expected.normals), 1e-5f);
  } else {
    EXPECT_EQ((*deformer)->out_normals(), VK_NULL_HANDLE);
  }
  if (!mesh.tangents.empty()) {
    auto tangents = vk::ReadFloats(ctx, (*deformer)->out_tangents(), 0, instances * v * 16);
    ASSERT_TRUE(tangents.ok());
    EXPECT_LE(MaxAbsDiff(*tangents, expected.tangents), 1e-5f);
  } else {
    EXPECT_EQ((*deformer)->out_tangents(), VK_NULL_HANDLE);
  }
}

SkinnedMesh Character(uint32_t vertices, uint32_t k, bool normals = true, bool tangents = true) {
  procedural::CharacterOptions o;
  o.vertex_count = vertices;
  o.influences_per_vertex = k;
  o.with_normals = normals;
  o.with_tangents = tangents;
  auto mesh = procedural::MakeCharacter(o);
  EXPECT_TRUE(mesh.ok());
  return std::move(mesh.value());
}

class DenseSkinningGpu : public GpuTest,
                         public ::testing::WithParamInterface<std::tuple<uint32_t, uint32_t>> {};

TEST_P(DenseSkinningGpu, MatchesTheCpuReferenceForEveryInstance) {
  const auto [vertices, k] = GetParam();
  ExpectGpuMatchesCpu(*context_, Character(vertices, k), 3);
}

// Sizes around the 64-wide workgroup, a single vertex, and a character-sized mesh; K = 4, 8, 12.
INSTANTIATE_TEST_SUITE_P(SizesAndInfluenceCounts, DenseSkinningGpu,
                         ::testing::Combine(::testing::Values(1u, 63u, 64u, 65u, 1000u, 20000u),
                                            ::testing::Values(4u, 8u, 12u)));

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
  const SkinnedMesh mesh = Character(500, 8);
  std::vector<Float3x4> palette(mesh.skeleton.joint_count());
  ASSERT_TRUE(procedural::RestPalette(mesh.skeleton, palette).ok());
  auto device_mesh = vk::DeviceMesh::Create(*context_, mesh);
  ASSERT_TRUE(device_mesh.ok());
  auto deformer = vk::Deformer::Create(*context_, **device_mesh);
  ASSERT_TRUE(deformer.ok());
  ASSERT_TRUE((*deformer)->SetPalette(0, palette).ok());
  ASSERT_TRUE(context_->SubmitAndWait([&](VkCommandBuffer c) { (*deformer)->Record(c); }).ok());
  auto out = vk::ReadFloats(*context_, (*deformer)->out_positions(), 0, mesh.positions.size() * 4);
  ASSERT_TRUE(out.ok());
  EXPECT_LE(MaxAbsDiff(*out, mesh.positions), 1e-5f * BoundsDiagonal(mesh.positions));
}

TEST_F(DenseSkinningGpuTest, UploadRejectsAnOutOfRangeJointBeforeTouchingTheGpu) {
  SkinnedMesh mesh = Character(10, 4);
  mesh.influences.joints[7] = static_cast<uint16_t>(mesh.skeleton.joint_count());
  auto device_mesh = vk::DeviceMesh::Create(*context_, mesh);
  ASSERT_FALSE(device_mesh.ok());
  EXPECT_EQ(device_mesh.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(device_mesh.error().where, "influences/joints/7");
}

TEST_F(DenseSkinningGpuTest, UploadRejectsAnEmptyMesh) {
  SkinnedMesh mesh = Character(10, 4, false, false);
  mesh.positions.clear();
  mesh.influences.joints.clear();
  mesh.influences.weights.clear();
  EXPECT_EQ(vk::DeviceMesh::Create(*context_, mesh).code(), Error::kInvalidArgument);
}

TEST_F(DenseSkinningGpuTest, DeformerRejectsZeroInstances) {
  auto device_mesh = vk::DeviceMesh::Create(*context_, Character(10, 4));
  ASSERT_TRUE(device_mesh.ok());
  vk::DeformerOptions options;
  options.instance_count = 0;
  EXPECT_EQ(vk::Deformer::Create(*context_, **device_mesh, options).code(),
            Error::kInvalidArgument);
}

TEST_F(DenseSkinningGpuTest, SetPaletteChecksInstanceAndSize) {
  const SkinnedMesh mesh = Character(10, 4);
  auto device_mesh = vk::DeviceMesh::Create(*context_, mesh);
  ASSERT_TRUE(device_mesh.ok());
  vk::DeformerOptions options;
  options.instance_count = 2;
  auto deformer = vk::Deformer::Create(*context_, **device_mesh, options);
  ASSERT_TRUE(deformer.ok());
  std::vector<Float3x4> palette(mesh.skeleton.joint_count());
  EXPECT_EQ((*deformer)->SetPalette(2, palette).code(), Error::kInstanceIndexOutOfRange);
  palette.pop_back();
  EXPECT_EQ((*deformer)->SetPalette(1, palette).code(), Error::kSizeMismatch);
  EXPECT_TRUE((*deformer)->palette(2).empty());
  EXPECT_EQ((*deformer)->palette(1).size(), mesh.skeleton.joint_count());
}

}  // namespace
}  // namespace sinew
