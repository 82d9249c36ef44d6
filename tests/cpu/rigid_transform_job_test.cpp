#include "sinew/cpu/rigid_transform_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "cpu/matrix_literals.h"

// UsdSkel's skinned transform of a rigidly bound prim (docs/semantics.md, "Rigid bindings"), on
// vectors worked out by hand: joints A (the identity) and B, which turns 90° about +Z (x to y) and
// moves by (1, -1, 0) — the skinning transforms of a two-joint chain whose child, bound at
// (1, 0, 0), is posed at (1, 0, 0) and turned.

namespace sinew::cpu {
namespace {

using testing::Columns;
using testing::Move;
using testing::Rows;

constexpr float kInvSqrt2 = 0.70710678f;

const std::vector<Float3x4> kPalette = {
    Rows({1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}),
    Rows({0, -1, 0, 1}, {1, 0, 0, -1}, {0, 0, 1, 0}),
};

void ExpectColumns(const Float4x4& m, const Float4x4& want) {
  for (size_t c = 0; c < 4; ++c) {
    for (size_t r = 0; r < 4; ++r) {
      EXPECT_NEAR(m.m[c][r], want.m[c][r], 1e-6f) << "column " << c << " row " << r;
    }
  }
}

Result<Float4x4> Place(const RigidBinding& binding) {
  Float4x4 out;
  RigidTransformJob job;
  job.binding = &binding;
  job.palette = kPalette;
  job.output = &out;
  if (Status s = job.Run(); !s) return s;
  return out;
}

RigidBinding HalfEach(SkinningMethod method) {
  RigidBinding b;
  b.joints = {0, 1};
  b.weights = {0.5f, 0.5f};
  b.skinning = method;
  return b;
}

// One joint of weight 1: its skinning transform times geom_bind, exactly.
TEST(RigidTransformJob, OneFullInfluenceIsTheJointTimesTheGeomBind) {
  RigidBinding b;
  b.joints = {1};
  b.weights = {1};
  b.geom_bind = Move(0, 0, 2);
  auto x = Place(b);
  ASSERT_TRUE(x.ok()) << x.error().ToString();
  ExpectColumns(*x, Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, -1, 2, 1}));
}

// Half A, half B, linearly: the frame's points blend to rows (0.5, 0.5, 0), (-0.5, 0.5, 0),
// (0, 0, 1) and translation (0.5, -0.5, 0) in USD's row-vector notation — columns here.
TEST(RigidTransformJob, BlendsTheFrameLinearlyForLinearSkinning) {
  auto x = Place(HalfEach(SkinningMethod::kLinear));
  ASSERT_TRUE(x.ok()) << x.error().ToString();
  ExpectColumns(
      *x, Columns({0.5f, 0.5f, 0, 0}, {-0.5f, 0.5f, 0, 0}, {0, 0, 1, 0}, {0.5f, -0.5f, 0, 1}));
}

// The same with G = T(0, 0, 1): the frame starts one up, so does the result.
TEST(RigidTransformJob, StartsFromTheGeomBindFrame) {
  RigidBinding b = HalfEach(SkinningMethod::kLinear);
  b.geom_bind = Move(0, 0, 1);
  auto x = Place(b);
  ASSERT_TRUE(x.ok()) << x.error().ToString();
  ExpectColumns(
      *x, Columns({0.5f, 0.5f, 0, 0}, {-0.5f, 0.5f, 0, 0}, {0, 0, 1, 0}, {0.5f, -0.5f, 1, 1}));
}

// Dual quaternions: half of the 90° turn is a 45° turn, with no shrinking, and the point (2, 0, 0)
// goes where UsdSkel's DQS takes it, (1.7071068, 0.7071068, 0): so the origin goes to
// (1.7071068, 0.7071068, 0) - R45 · (2, 0, 0) = (0.2928932, -0.7071068, 0).
TEST(RigidTransformJob, BlendsTheFrameAsDualQuaternionsForDualQuaternionSkinning) {
  auto x = Place(HalfEach(SkinningMethod::kDualQuaternion));
  ASSERT_TRUE(x.ok()) << x.error().ToString();
  ExpectColumns(*x, Columns({kInvSqrt2, kInvSqrt2, 0, 0}, {-kInvSqrt2, kInvSqrt2, 0, 0},
                            {0, 0, 1, 0}, {0.29289322f, -0.70710678f, 0, 1}));
}

TEST(RigidTransformJob, RejectsAJointPastThePalette) {
  RigidBinding b = HalfEach(SkinningMethod::kLinear);
  b.joints[1] = 2;
  auto x = Place(b);
  ASSERT_FALSE(x.ok());
  EXPECT_EQ(x.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(x.error().where, "joints/1");
}

TEST(RigidTransformJob, RejectsWeightsThatDoNotMatchTheJoints) {
  RigidBinding b = HalfEach(SkinningMethod::kLinear);
  b.weights.pop_back();
  EXPECT_EQ(Place(b).code(), Error::kSizeMismatch);
  b.joints.clear();
  b.weights.clear();
  EXPECT_EQ(Place(b).code(), Error::kSizeMismatch);
}

TEST(RigidTransformJob, RejectsANaNWeight) {
  RigidBinding b = HalfEach(SkinningMethod::kLinear);
  b.weights[0] = std::numeric_limits<float>::quiet_NaN();
  auto x = Place(b);
  EXPECT_EQ(x.code(), Error::kNonFiniteValue);
  EXPECT_EQ(x.error().where, "weights/0");
}

}  // namespace
}  // namespace sinew::cpu
