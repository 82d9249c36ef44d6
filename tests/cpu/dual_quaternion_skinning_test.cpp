// Dual-quaternion skinning on the CPU reference (docs/semantics.md, "Dual-quaternion skinning"):
// the palette conversion, and the blend's rules one test each.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/skin_sparse_job.h"

namespace sinew::cpu {
namespace {

constexpr float kPi = 3.14159265358979f;

Float3x4 Trs(Float3 t, Quat r, Float3 s = {1, 1, 1}) { return ToFloat3x4(ComposeTrs(t, r, s)); }

std::vector<DualQuaternion> Convert(const std::vector<Float3x4>& palette) {
  std::vector<DualQuaternion> out(palette.size());
  DualQuaternionPaletteJob job;
  job.palette = palette;
  job.output = out;
  const Status s = job.Run();
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

// Skins `positions` (K = 4 slots per vertex) with dual quaternions; normals alongside if given.
struct Skinned {
  std::vector<float> positions, normals;
};
Skinned SkinDq(const std::vector<Float3x4>& palette, const std::vector<float>& positions,
               const std::vector<uint16_t>& joints, const std::vector<float>& weights,
               const std::vector<float>& normals = {}) {
  const std::vector<DualQuaternion> dq = Convert(palette);
  Skinned out{std::vector<float>(positions.size()), std::vector<float>(normals.size())};
  SkinDenseJob job;
  job.positions = positions;
  job.normals = normals;
  job.joints = joints;
  job.weights = weights;
  job.palette = palette;
  job.dual_quaternions = dq;
  job.out_positions = out.positions;
  job.out_normals = out.normals;
  const Status s = job.Run();
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

void ExpectNear(const float* got, Float3 want, float tolerance = 1e-5f) {
  EXPECT_NEAR(got[0], want.x, tolerance);
  EXPECT_NEAR(got[1], want.y, tolerance);
  EXPECT_NEAR(got[2], want.z, tolerance);
}

TEST(DualQuaternionPaletteJob, SplitsAMatrixIntoItsRotationTranslationAndScale) {
  const Quat r = AxisAngle(0.6f, 0.8f, 0.0f, 1.1f);  // unit axis
  const std::vector<DualQuaternion> dq = Convert({Trs({1, 2, 3}, r, {2.0f, 0.5f, 1.5f})});
  EXPECT_NEAR(dq[0].real.x, r.x, 1e-6f);
  EXPECT_NEAR(dq[0].real.y, r.y, 1e-6f);
  EXPECT_NEAR(dq[0].real.z, r.z, 1e-6f);
  EXPECT_NEAR(dq[0].real.w, r.w, 1e-6f);
  // K = the axis scale, R · K · p = R · S · p.
  EXPECT_NEAR(dq[0].scale[0].x, 2.0f, 1e-5f);
  EXPECT_NEAR(dq[0].scale[1].y, 0.5f, 1e-5f);
  EXPECT_NEAR(dq[0].scale[2].z, 1.5f, 1e-5f);
  EXPECT_NEAR(dq[0].scale[0].y, 0.0f, 1e-5f);
  EXPECT_NEAR(dq[0].normal_scale[1].y, 2.0f, 1e-5f);  // 1 / 0.5
  EXPECT_TRUE(HasScale(dq));
  EXPECT_FALSE(HasScale(Convert({Trs({1, 2, 3}, r)})));
}

TEST(DualQuaternionPaletteJob, GivesASingularMatrixAZeroRotationThatAddsNothing) {
  Float3x4 flat = Trs({1, 0, 0}, {});
  flat.row[2] = {0, 0, 0, 0};
  const std::vector<DualQuaternion> dq = Convert({flat});
  EXPECT_EQ(dq[0].real.w, 0.0f);
  EXPECT_EQ(dq[0].dual.x, 0.0f);
  EXPECT_EQ(dq[0].scale[2].z, 1.0f);
}

TEST(DualQuaternionPaletteJob, RefusesANonFiniteMatrixAndAWrongOutputSize) {
  std::vector<Float3x4> palette(2);
  palette[1].row[0].w = std::nanf("");
  std::vector<DualQuaternion> out(2);
  DualQuaternionPaletteJob job;
  job.palette = palette;
  job.output = out;
  EXPECT_EQ(job.Run().error().where, "palette/1");
  job.output = std::span(out).first(1);
  EXPECT_EQ(job.Run().code(), Error::kSizeMismatch);
}

// One influence: whatever M is (rotation, translation, non-uniform scale, a mirror), the vertex
// goes where M takes it, and its normal where M's inverse-transpose does.
TEST(SkinDenseJob, WithOneInfluenceDualQuaternionsReproduceTheMatrix) {
  const Quat r = AxisAngle(0.6f, 0, 0.8f, 0.7f);
  for (const Float3 scale : {Float3{1, 1, 1}, Float3{2, 0.5f, 1.5f}, Float3{-1, 1, 1}}) {
    const Float3x4 m = Trs({0.5f, -1, 2}, r, scale);
    const std::vector<float> p = {0.3f, 0.7f, -0.4f};
    const std::vector<float> n = {0, 0.6f, 0.8f};
    const Skinned out = SkinDq({m}, p, {0, 0, 0, 0}, {1, 0, 0, 0}, n);
    ExpectNear(out.positions.data(), TransformPoint(m, {p[0], p[1], p[2]}));
    // The LBS normal: normalize(sign(det) cofactor(M) n).
    std::vector<float> lbs_p(3), lbs_n(3);
    SkinDenseJob lbs;
    const std::vector<uint16_t> joints = {0, 0, 0, 0};
    const std::vector<float> weights = {1, 0, 0, 0};
    const std::vector<Float3x4> palette = {m};
    lbs.positions = p, lbs.normals = n, lbs.joints = joints, lbs.weights = weights;
    lbs.palette = palette, lbs.out_positions = lbs_p, lbs.out_normals = lbs_n;
    ASSERT_TRUE(lbs.Run().ok());
    ExpectNear(out.normals.data(), {lbs_n[0], lbs_n[1], lbs_n[2]});
  }
}

// The candy wrapper: two joints twisted ±90° about the bone (x) axis, a vertex half on each.
// Linear blending averages the two rotations' matrices and pulls the vertex onto the axis; dual
// quaternions blend the rotations and keep its distance from the axis.
TEST(SkinDenseJob, DualQuaternionsKeepAVertexHalfwayBetweenTwistedJointsOffTheAxis) {
  const std::vector<Float3x4> palette = {Trs({}, AxisAngle(1, 0, 0, kPi / 2)),
                                         Trs({}, AxisAngle(1, 0, 0, -kPi / 2))};
  const std::vector<float> p = {0.5f, 1, 0};
  const std::vector<uint16_t> joints = {0, 1, 0, 0};
  const std::vector<float> weights = {0.5f, 0.5f, 0, 0};
  const Skinned dq = SkinDq(palette, p, joints, weights);
  ExpectNear(dq.positions.data(), {0.5f, 1, 0});  // the two twists cancel out
  std::vector<float> linear(3);
  SkinDenseJob lbs;
  lbs.positions = p, lbs.joints = joints, lbs.weights = weights, lbs.palette = palette;
  lbs.out_positions = linear;
  ASSERT_TRUE(lbs.Run().ok());
  ExpectNear(linear.data(), {0.5f, 0, 0});  // collapsed onto the axis
}

// q and −q are the same rotation: an entry whose quaternion lies in the other hemisphere is
// flipped to the heaviest influence's side before the blend.
TEST(SkinDenseJob, DualQuaternionsBlendAcrossTheHemisphereOfTheHeaviestInfluence) {
  const Quat a = AxisAngle(0, 0, 1, 0.9f * kPi), b = AxisAngle(0, 0, 1, -0.9f * kPi);
  const std::vector<Float3x4> palette = {Trs({}, a), Trs({}, b)};
  const std::vector<DualQuaternion> dq = Convert(palette);
  ASSERT_LT(dq[0].real.x * dq[1].real.x + dq[0].real.y * dq[1].real.y +
                dq[0].real.z * dq[1].real.z + dq[0].real.w * dq[1].real.w,
            0.0f);  // 162° and −162° about z: quaternions in opposite hemispheres
  // Halfway between them is the rotation by 180° (the short way round), not by 0°.
  const Skinned out = SkinDq(palette, {1, 0, 0}, {0, 1, 0, 0}, {0.5f, 0.5f, 0, 0});
  ExpectNear(out.positions.data(), {-1, 0, 0});
}

// Without a scaled joint in the palette, the weights set the blend's proportions only: a vertex
// whose weights sum to 0.5 is rotated, not shrunk (linear blending would halve it).
TEST(SkinDenseJob, DualQuaternionsWithoutScaleIgnoreTheWeightSum) {
  const Float3x4 m = Trs({0, 0, 0}, AxisAngle(0, 0, 1, kPi / 2));
  const Skinned out = SkinDq({m}, {1, 0, 0}, {0, 0, 0, 0}, {0.5f, 0, 0, 0});
  ExpectNear(out.positions.data(), {0, 1, 0});
}

// With a scaled joint somewhere in the palette, scale is blended linearly in bind space, weights
// as stored: two joints scaling by 2 and 4, half each, scale by 3.
TEST(SkinDenseJob, DualQuaternionsBlendScaleLinearlyBeforeTheRigidMotion) {
  const Quat r = AxisAngle(0, 0, 1, kPi / 2);
  const std::vector<Float3x4> palette = {Trs({1, 0, 0}, r, {2, 2, 2}),
                                         Trs({1, 0, 0}, r, {4, 4, 4})};
  const Skinned out = SkinDq(palette, {1, 0, 0}, {0, 1, 0, 0}, {0.5f, 0.5f, 0, 0});
  ExpectNear(out.positions.data(), {1, 3, 0});
}

TEST(SkinDenseJob, DualQuaternionsLeaveAVertexWithoutWeightAtRest) {
  const Float3x4 m = Trs({5, 0, 0}, AxisAngle(0, 0, 1, 1.0f), {2, 2, 2});
  const Skinned out = SkinDq({m}, {1, 2, 3}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0});
  ExpectNear(out.positions.data(), {1, 2, 3});
  ExpectNear(out.normals.data(), {0, 1, 0});
}

TEST(SkinDenseJob, RefusesADualQuaternionPaletteOfAnotherSize) {
  const std::vector<float> p = {0, 0, 0}, out(3);
  const std::vector<uint16_t> joints = {0, 0, 0, 0};
  const std::vector<float> weights = {1, 0, 0, 0};
  const std::vector<Float3x4> palette(2);
  const std::vector<DualQuaternion> dq(1);
  std::vector<float> result(3);
  SkinDenseJob job;
  job.positions = p, job.joints = joints, job.weights = weights, job.palette = palette;
  job.dual_quaternions = dq, job.out_positions = result;
  EXPECT_EQ(job.Validate().code(), Error::kSizeMismatch);
  EXPECT_EQ(job.Validate().error().where, "dual_quaternions");
}

// cpu::SkinMesh follows Primitive::skinning, dense and sparse alike.
TEST(SkinMesh, FollowsThePrimitivesSkinningMethodInEitherLayout) {
  Primitive mesh;
  mesh.positions = {0.5f, 1, 0, 2, 0, 1};
  mesh.influences.joints = {0, 1, 0, 0, 1, 0, 0, 0};
  mesh.influences.weights = {0.5f, 0.5f, 0, 0, 0.7f, 0.3f, 0, 0};
  const std::vector<Float3x4> palette = {Trs({0, 1, 0}, AxisAngle(1, 0, 0, kPi / 2)),
                                         Trs({0, 0, 1}, AxisAngle(1, 0, 0, -kPi / 2), {1, 2, 1})};
  std::vector<float> linear(6), dense(6), sparse(6);
  ASSERT_TRUE(SkinMesh(mesh, palette, linear, {}, {}).ok());
  mesh.skinning = SkinningMethod::kDualQuaternion;
  ASSERT_TRUE(SkinMesh(mesh, palette, dense, {}, {}).ok());
  EXPECT_GT(std::fabs(dense[1] - linear[1]) + std::fabs(dense[2] - linear[2]), 0.1f);
  mesh.sparse_influences.offsets = {0, 2, 4};
  mesh.sparse_influences.groups = {0, 1, 1, 0};
  mesh.sparse_influences.weights = {0.5f, 0.5f, 0.7f, 0.3f};
  mesh.sparse_influences.group_count = 2;
  mesh.influences = {};
  ASSERT_TRUE(SkinMesh(mesh, palette, sparse, {}, {}).ok());
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(sparse[i], dense[i]) << i;
}

}  // namespace
}  // namespace sinew::cpu
