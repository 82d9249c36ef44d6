// Dual-quaternion skinning on the GPU (shaders/dual_quaternion.glsl, SkinCache's dual-quaternion
// palettes): dense and sparse meshes, with and without scale in the palette, fused with blend
// shapes, deform as the CPU reference (cpu::SkinMesh with Primitive::skinning) — and not as linear
// blending, which the same poses visibly differ from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/procedural/face_shapes.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

using testing::CharacterMesh;
using testing::DefaultJoints;
using testing::DefaultSkeleton;

class DualQuaternionGpuTest : public testing::GpuTest {};

Primitive DualQuaternion(Primitive mesh) {
  mesh.skinning = SkinningMethod::kDualQuaternion;
  return mesh;
}

// Every palette entry followed by a non-uniform scale of its own (so that the palette has a
// scale/shear part, which the blend applies in bind space before the rotation).
std::vector<Float3x4> Scaled(std::vector<Float3x4> palettes) {
  for (size_t i = 0; i < palettes.size(); ++i) {
    const float s[3] = {1.0f + 0.1f * float(i % 3), 0.8f + 0.05f * float(i % 5), 1.2f};
    for (Float4& row : palettes[i].row) {
      row.x *= s[0];
      row.y *= s[1];
      row.z *= s[2];
    }
  }
  return palettes;
}

// The largest difference between the CPU reference's positions with dual quaternions and with
// linear blending: what a kernel that blended linearly would be off by.
float DualQuaternionAgainstLinear(const Primitive& mesh, const std::vector<Float3x4>& palettes,
                                  uint32_t instances) {
  Primitive linear = mesh;
  linear.skinning = SkinningMethod::kLinear;
  return testing::MaxAbsDiff(testing::SkinOnCpu(mesh, palettes, instances).positions,
                             testing::SkinOnCpu(linear, palettes, instances).positions);
}

TEST_F(DualQuaternionGpuTest, DenseMeshesMatchTheCpuReferenceAndNotLinearBlending) {
  const std::vector<Float3x4> palettes = testing::CrowdPalettes(DefaultSkeleton(), 3);
  for (uint32_t k : {4u, 8u}) {
    SCOPED_TRACE(k);
    const Primitive mesh = DualQuaternion(CharacterMesh(500, k));
    EXPECT_GT(DualQuaternionAgainstLinear(mesh, palettes, 3), 1e-3f);
    testing::ExpectGpuMatchesCpu(*context_, mesh, palettes, 3);
  }
  testing::ExpectGpuMatchesCpu(*context_, DualQuaternion(CharacterMesh(200, 4, false, false)),
                               palettes, 3);
}

TEST_F(DualQuaternionGpuTest, ASparseMeshMatchesTheCpuReference) {
  const std::vector<Float3x4> palettes = testing::CrowdPalettes(DefaultSkeleton(), 3);
  const Primitive mesh = DualQuaternion(testing::SparseCharacterMesh(CharacterMesh(400, 4)));
  EXPECT_GT(DualQuaternionAgainstLinear(mesh, palettes, 3), 1e-3f);
  testing::ExpectGpuMatchesCpu(*context_, mesh, palettes, 3);
}

// With scale in the palette the blended scale/shear applies to every vertex (positions, and its
// inverse-transpose to normals), dense and sparse alike.
TEST_F(DualQuaternionGpuTest, PalettesWithScaleMatchTheCpuReference) {
  const std::vector<Float3x4> palettes = Scaled(testing::CrowdPalettes(DefaultSkeleton(), 2));
  testing::ExpectGpuMatchesCpu(*context_, DualQuaternion(CharacterMesh(300, 4)), palettes, 2);
  testing::ExpectGpuMatchesCpu(
      *context_, DualQuaternion(testing::SparseCharacterMesh(CharacterMesh(300, 8))), palettes, 2);
}

// Whether a palette has scale is the instance's own (the kernels skip the scale sums without it):
// in one dispatch, the middle one of three instances has scale, the first and the last none, and
// each matches the CPU reference. Weights summing to 3/4 make the scale sums show either way: a
// kernel that took another instance's flag would drop the middle one's scale, or scale the others
// by 3/4.
TEST_F(DualQuaternionGpuTest, InstancesWithAndWithoutScaleShareADispatch) {
  std::vector<Float3x4> palettes = testing::CrowdPalettes(DefaultSkeleton(), 3);
  const size_t j = palettes.size() / 3;
  const std::vector<Float3x4> scaled = Scaled(palettes);
  std::copy(scaled.begin() + j, scaled.begin() + 2 * j, palettes.begin() + j);  // instance 1
  Primitive dense = DualQuaternion(CharacterMesh(300, 4));
  for (float& w : dense.influences.weights) w *= 0.75f;
  Primitive sparse = DualQuaternion(testing::SparseCharacterMesh(CharacterMesh(300, 8)));
  for (float& w : sparse.sparse_influences.weights) w *= 0.75f;
  testing::ExpectGpuMatchesCpu(*context_, dense, palettes, 3);
  testing::ExpectGpuMatchesCpu(*context_, sparse, palettes, 3);
}

TEST_F(DualQuaternionGpuTest, BlendShapesAreAppliedBeforeTheDualQuaternionBlend) {
  Primitive mesh = DualQuaternion(CharacterMesh(400, 4));
  procedural::FaceShapeOptions o;
  o.shapes = 8;
  auto shapes = procedural::MakeFaceShapes(mesh, o);
  ASSERT_TRUE(shapes.ok());
  mesh.targets = shapes->targets;
  std::vector<float> weights(2 * mesh.targets.size(), 0.0f);
  for (size_t t = 0; t < mesh.targets.size(); ++t) weights[t] = 0.1f * float(t + 1);
  weights[mesh.targets.size() + 3] = 1.0f;
  testing::ExpectGpuMatchesCpu(*context_, mesh, testing::CrowdPalettes(DefaultSkeleton(), 2), 2,
                               weights);
}

// Reads an instance's positions.
std::vector<float> Positions(const vk::Context& ctx, const vk::SkinCache& cache,
                             vk::InstanceId id) {
  auto out = vk::ReadInstanceOutputs(ctx, cache, id);
  EXPECT_TRUE(out.ok()) << out.error().ToString();
  return out.ok() ? out->positions : std::vector<float>();
}

// One dual-quaternion palette feeds a linear mesh (the matrices) and a dual-quaternion mesh (their
// dual quaternions); written once, in the first frame, it keeps its value in every frame slot
// after (three frames in flight), and writing it again is seen in the next frame.
TEST_F(DualQuaternionGpuTest, OnePaletteFeedsLinearAndDualQuaternionMeshesFrameAfterFrame) {
  auto created = vk::SkinCache::Create(*context_, {.frames_in_flight = 3});
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  vk::SkinCache& cache = **created;
  const Primitive linear = CharacterMesh(300, 4);
  const Primitive dual = DualQuaternion(CharacterMesh(250, 8));
  auto linear_id = cache.AddMesh(linear, DefaultJoints());
  auto dual_id = cache.AddMesh(dual, DefaultJoints());
  ASSERT_TRUE(linear_id.ok() && dual_id.ok());
  EXPECT_TRUE(cache.mesh_layout(*dual_id)->dual_quaternion);
  EXPECT_FALSE(cache.mesh_layout(*linear_id)->dual_quaternion);
  auto palette = cache.AddPalette(DefaultJoints(), SkinningMethod::kDualQuaternion);
  ASSERT_TRUE(palette.ok());
  auto a = cache.AddInstance(*linear_id, *palette);
  auto b = cache.AddInstance(*dual_id, *palette);
  ASSERT_TRUE(a.ok() && b.ok());

  const std::vector<Float3x4> poses = testing::CrowdPalettes(DefaultSkeleton(), 2);
  const auto pose = [&](uint32_t i) {
    return std::vector<Float3x4>(poses.begin() + i * DefaultJoints(),
                                 poses.begin() + (i + 1) * DefaultJoints());
  };
  for (int frame = 0; frame < 5; ++frame) {
    SCOPED_TRACE(frame);
    const uint32_t member = frame < 3 ? 0 : 1;
    if (frame == 0) {
      ASSERT_TRUE(cache.SetPalette(*palette, pose(0)).ok());
    }
    if (frame == 3) {
      const std::vector<Float3x4> next = pose(1);
      std::span<Float3x4> in_place = cache.palette(*palette);
      ASSERT_EQ(in_place.size(), next.size());
      std::copy(next.begin(), next.end(), in_place.begin());
    }
    ASSERT_TRUE(testing::DeformFrameForReadback(*context_, cache).ok());
    const float linear_tolerance = 1e-5f * BoundsDiagonal(linear.positions);
    const float dual_tolerance = 1e-5f * BoundsDiagonal(dual.positions);
    EXPECT_LE(testing::MaxAbsDiff(Positions(*context_, cache, *a),
                                  testing::SkinOnCpu(linear, pose(member), 1).positions),
              linear_tolerance);
    EXPECT_LE(testing::MaxAbsDiff(Positions(*context_, cache, *b),
                                  testing::SkinOnCpu(dual, pose(member), 1).positions),
              dual_tolerance);
  }
}

TEST_F(DualQuaternionGpuTest, ADualQuaternionMeshRefusesALinearPalette) {
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok());
  auto mesh = (*cache)->AddMesh(DualQuaternion(CharacterMesh(64, 4)), DefaultJoints());
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  auto palette = (*cache)->AddPalette(DefaultJoints());
  ASSERT_TRUE(palette.ok());
  const auto instance = (*cache)->AddInstance(*mesh, *palette);
  EXPECT_EQ(instance.code(), Error::kInvalidArgument);
  EXPECT_EQ(instance.error().where, "palette");
}

// A dual-quaternion palette takes its matrices and its 128-byte entries of the palette range.
TEST_F(DualQuaternionGpuTest, ADualQuaternionPaletteTakesItsDualQuaternionsOfThePaletteRange) {
  EXPECT_EQ(vk::PaletteUnits(10, SkinningMethod::kLinear), 10u);
  EXPECT_EQ(vk::PaletteUnits(3, SkinningMethod::kDualQuaternion), 3u + 8u);
  EXPECT_EQ(vk::PaletteUnits(10, SkinningMethod::kDualQuaternion), 10u + 27u);
  auto cache = vk::SkinCache::Create(*context_, {.max_palette_entries = 11});
  ASSERT_TRUE(cache.ok());
  ASSERT_TRUE((*cache)->AddPalette(3, SkinningMethod::kDualQuaternion).ok());
  EXPECT_EQ((*cache)->AddPalette(1).code(), Error::kCapacityExceeded);
}

// A matrix that cannot be split into a dual quaternion (a NaN) fails the Record before anything
// is recorded, naming the instance and the entry; the frame stays open, the last frame's
// statistics stand, and once the matrix is mended the next Record deforms as the CPU does.
TEST_F(DualQuaternionGpuTest, AMatrixThatCannotBeConvertedFailsTheRecordUntilMended) {
  auto created = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(created.ok());
  vk::SkinCache& cache = **created;
  const Primitive mesh = DualQuaternion(CharacterMesh(64, 4));
  auto mesh_id = cache.AddMesh(mesh, DefaultJoints());
  auto palette = cache.AddPalette(DefaultJoints(), SkinningMethod::kDualQuaternion);
  ASSERT_TRUE(mesh_id.ok() && palette.ok());
  auto instance = cache.AddInstance(*mesh_id, *palette);
  ASSERT_TRUE(instance.ok());
  const std::vector<Float3x4> pose = testing::CrowdPalettes(DefaultSkeleton(), 1);
  ASSERT_TRUE(cache.SetPalette(*palette, pose).ok());
  ASSERT_TRUE(testing::DeformFrameForReadback(*context_, cache).ok());
  const uint64_t frame = cache.frame();
  ASSERT_EQ(cache.last_frame_stats().dispatches, 1u);

  cache.palette(*palette)[2].row[1].y = std::nanf("");
  const Status failed = testing::DeformFrameForReadback(*context_, cache);
  EXPECT_EQ(failed.code(), Error::kNonFiniteValue);
  EXPECT_EQ(failed.error().where, "active/0/palette/2");
  EXPECT_EQ(cache.frame(), frame);
  EXPECT_EQ(cache.last_frame_stats().dispatches, 1u);

  ASSERT_TRUE(cache.SetPalette(*palette, pose).ok());
  ASSERT_TRUE(testing::DeformFrameForReadback(*context_, cache).ok());
  EXPECT_EQ(cache.frame(), frame + 1);
  EXPECT_LE(testing::MaxAbsDiff(Positions(*context_, cache, *instance),
                                testing::SkinOnCpu(mesh, pose, 1).positions),
            1e-5f * BoundsDiagonal(mesh.positions));
}

// A palette a linear mesh alone reads this frame is not converted: its NaN reaches that mesh as
// it would through a linear palette, and the Record goes on.
TEST_F(DualQuaternionGpuTest, APaletteOnlyLinearMeshesReadIsNotConverted) {
  auto created = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(created.ok());
  vk::SkinCache& cache = **created;
  auto mesh_id = cache.AddMesh(CharacterMesh(64, 4), DefaultJoints());
  auto palette = cache.AddPalette(DefaultJoints(), SkinningMethod::kDualQuaternion);
  ASSERT_TRUE(mesh_id.ok() && palette.ok());
  ASSERT_TRUE(cache.AddInstance(*mesh_id, *palette).ok());
  cache.palette(*palette)[2].row[1].y = std::nanf("");
  EXPECT_TRUE(testing::DeformFrameForReadback(*context_, cache).ok());
}

Float3x4 Trs(Float3 t, Quat r, Float3 s = {1, 1, 1}) { return ToFloat3x4(ComposeTrs(t, r, s)); }

// The blend's corner cases, as the CPU reference's tests state them, on the GPU: two entries in
// opposite hemispheres, a vertex without weight, a weight sum of 0.5, a mirror, a singular entry
// (alone and beside another). With the mirror the palette has scale; without it (a rotation in
// its place) it has none and the weight sum stops scaling.
TEST_F(DualQuaternionGpuTest, TheBlendsCornerCasesMatchTheCpuReference) {
  constexpr float kPi = 3.14159265f;
  Primitive mesh;
  mesh.skinning = SkinningMethod::kDualQuaternion;
  mesh.positions = {1,    0,    0,     1,    2,    3,    1,    0,    0,
                    0.3f, 0.7f, -0.4f, 0.2f, 0.1f, 0.5f, 0.2f, 0.1f, 0.5f};
  mesh.normals = {0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0.6f, 0.8f, 1, 0, 0, 0, 0, 1};
  mesh.influences.influences_per_vertex = 4;
  mesh.influences.joints = {0, 1, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 4, 0, 0, 2, 0, 0, 0};
  mesh.influences.weights = {0.5f, 0.5f, 0, 0, 0,    0,    0, 0, 0.5f, 0, 0, 0,
                             1,    0,    0, 0, 0.5f, 0.5f, 0, 0, 1,    0, 0, 0};
  Float3x4 singular = Trs({1, 0, 0}, {});
  singular.row[2] = {0, 0, 0, 0};
  const Quat r = AxisAngle(0.6f, 0, 0.8f, 0.7f);
  std::vector<Float3x4> palette = {
      Trs({}, AxisAngle(0, 0, 1, 0.9f * kPi)), Trs({}, AxisAngle(0, 0, 1, -0.9f * kPi)), singular,
      Trs({0.5f, -1, 2}, r, {-1, 1, 1}), Trs({1, 0, 0}, AxisAngle(1, 0, 0, kPi / 2))};
  testing::ExpectGpuMatchesCpu(*context_, mesh, palette, 1);
  palette[3] = Trs({0.5f, -1, 2}, r);
  testing::ExpectGpuMatchesCpu(*context_, mesh, palette, 1);
}

// RemovePalette gives back all of a dual-quaternion palette's units: the same palette fits again.
TEST_F(DualQuaternionGpuTest, ARemovedDualQuaternionPaletteGivesBackItsWholeRange) {
  const uint32_t units = vk::PaletteUnits(DefaultJoints(), SkinningMethod::kDualQuaternion);
  auto cache = vk::SkinCache::Create(*context_, {.max_palette_entries = units});
  ASSERT_TRUE(cache.ok());
  for (int round = 0; round < 3; ++round) {
    auto palette = (*cache)->AddPalette(DefaultJoints(), SkinningMethod::kDualQuaternion);
    ASSERT_TRUE(palette.ok()) << round;
    EXPECT_EQ((*cache)->AddPalette(1).code(), Error::kCapacityExceeded);
    ASSERT_TRUE((*cache)->RemovePalette(*palette).ok());
  }
  // A palette too large for the range is refused before anything is allocated for it.
  EXPECT_EQ((*cache)->AddPalette(1u << 30, SkinningMethod::kDualQuaternion).code(),
            Error::kCapacityExceeded);
  EXPECT_EQ(vk::PaletteUnits(UINT32_MAX, SkinningMethod::kDualQuaternion), UINT32_MAX);
}

}  // namespace
}  // namespace sinew
