#include "sinew/core/math.h"

#include <gtest/gtest.h>
#include <array>

#include <cmath>
#include <limits>

// DecomposeTrs (the inverse of ComposeTrs) and the quaternion product it is used with.

namespace sinew {
namespace {

constexpr float kPi = 3.14159265358979f;

void ExpectMatrixNear(const Float4x4& actual, const Float4x4& expected, float tolerance = 1e-5f) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(actual.m[c][r], expected.m[c][r], tolerance) << "column " << c << " row " << r;
    }
  }
}

// q and -q are the same rotation.
void ExpectSameRotation(const Quat& a, const Quat& b, float tolerance = 1e-5f) {
  EXPECT_NEAR(std::fabs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w), 1.0f, tolerance)
      << "(" << a.x << ", " << a.y << ", " << a.z << ", " << a.w << ") vs (" << b.x << ", " << b.y
      << ", " << b.z << ", " << b.w << ")";
}

// Row r of the 3x4 is row r of the 4x4 (stored by columns), whose last row is 0 0 0 1.
TEST(ToFloat4x4, PutsEachRowOfTheAffineMatrixInItsPlaceAndCompletesTheLastRow) {
  Float3x4 a;
  a.row = {Float4{1, 2, 3, 4}, Float4{5, 6, 7, 8}, Float4{9, 10, 11, 12}};
  const Float4x4 m = ToFloat4x4(a);
  EXPECT_EQ(m.m[0], (std::array<float, 4>{1, 5, 9, 0}));
  EXPECT_EQ(m.m[1], (std::array<float, 4>{2, 6, 10, 0}));
  EXPECT_EQ(m.m[2], (std::array<float, 4>{3, 7, 11, 0}));
  EXPECT_EQ(m.m[3], (std::array<float, 4>{4, 8, 12, 1}));
  const Float3x4 back = ToFloat3x4(m);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(back.row[r].x, a.row[r].x);
    EXPECT_EQ(back.row[r].w, a.row[r].w);
  }
}

TEST(DecomposeTrs, RecoversTheTranslationRotationAndScaleOfAComposedMatrix) {
  const float n = 1.0f / std::sqrt(14.0f);
  const float h = std::sqrt(0.5f);
  struct Case {
    Float3 t;
    Quat r;
    Float3 s;
  };
  // Small angles and the half turns about each axis: every branch of the quaternion extraction.
  const Case cases[] = {
      {{0, 0, 0}, {}, {1, 1, 1}},
      {{1, -2, 3}, AxisAngle(0, 0, 1, 0.5f), {1, 1, 1}},
      {{4, 5, -6}, AxisAngle(n, 2 * n, 3 * n, 2.0f), {0.5f, 2, 3}},
      {{0, 1, 0}, AxisAngle(1, 0, 0, kPi), {2, 2, 2}},
      {{0, 0, 1}, AxisAngle(0, 1, 0, kPi), {1, 3, 1}},
      {{1, 0, 0}, AxisAngle(0, 0, 1, kPi), {0.25f, 1, 4}},
      {{-1, 2, 0}, AxisAngle(h, h, 0, 3.0f), {1, 1, 0.01f}},
  };
  for (const Case& c : cases) {
    const Float4x4 m = ComposeTrs(c.t, c.r, c.s);
    Float3 t, s;
    Quat r;
    ASSERT_TRUE(DecomposeTrs(m, &t, &r, &s));
    EXPECT_EQ(t.x, c.t.x);
    EXPECT_EQ(t.y, c.t.y);
    EXPECT_EQ(t.z, c.t.z);
    EXPECT_NEAR(s.x, c.s.x, 1e-5f);
    EXPECT_NEAR(s.y, c.s.y, 1e-5f);
    EXPECT_NEAR(s.z, c.s.z, 1e-5f);
    ExpectSameRotation(r, c.r);
    ExpectMatrixNear(ComposeTrs(t, r, s), m);
  }
}

TEST(DecomposeTrs, ReturnsAUnitRotationWithANonNegativeW) {
  const Quat q = AxisAngle(0, 1, 0, 1.0f);
  Quat r;
  ASSERT_TRUE(
      DecomposeTrs(ComposeTrs({}, {-q.x, -q.y, -q.z, -q.w}, {1, 1, 1}), nullptr, &r, nullptr));
  EXPECT_GE(r.w, 0.0f);
  EXPECT_NEAR(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w, 1.0f, 1e-6f);
  EXPECT_NEAR(r.y, q.y, 1e-6f);
  EXPECT_NEAR(r.w, q.w, 1e-6f);
}

TEST(DecomposeTrs, PutsAMirrorOnTheXAxis) {
  const Quat q = AxisAngle(0, 0, 1, 0.3f);
  Float3 t, s;
  Quat r;
  // Already on x: kept as it is.
  ASSERT_TRUE(DecomposeTrs(ComposeTrs({1, 2, 3}, q, {-2, 3, 4}), &t, &r, &s));
  EXPECT_NEAR(s.x, -2, 1e-5f);
  EXPECT_NEAR(s.y, 3, 1e-5f);
  EXPECT_NEAR(s.z, 4, 1e-5f);
  ExpectSameRotation(r, q);
  // On z: diag(1, 1, -1) = (half turn about y) · diag(-1, 1, 1), so R · diag(2, 3, -4) comes back
  // as (R · half turn about y) · diag(-2, 3, 4).
  const Float4x4 m = ComposeTrs({1, 2, 3}, q, {2, 3, -4});
  ASSERT_TRUE(DecomposeTrs(m, &t, &r, &s));
  EXPECT_NEAR(s.x, -2, 1e-5f);
  EXPECT_NEAR(s.y, 3, 1e-5f);
  EXPECT_NEAR(s.z, 4, 1e-5f);
  ExpectSameRotation(r, Multiply(q, AxisAngle(0, 1, 0, kPi)));
  ExpectMatrixNear(ComposeTrs(t, r, s), m);
}

TEST(DecomposeTrs, AcceptsARotationRoundedToThreeDigits) {
  // The IPose joint of the KHR_character_skeleton_bindpose example: 45 degrees about +Y written
  // as 0.707. No shear (the columns stay orthogonal), a scale of 0.707·√2.
  Float4x4 m;
  m.m = {{{0.707f, 0, -0.707f, 0}, {0, 1, 0, 0}, {0.707f, 0, 0.707f, 0}, {0, 0.5f, 0, 1}}};
  Float3 s;
  Quat r;
  ASSERT_TRUE(DecomposeTrs(m, nullptr, &r, &s));
  ExpectSameRotation(r, AxisAngle(0, 1, 0, kPi / 4));
  EXPECT_NEAR(s.x, 0.707f * std::sqrt(2.0f), 1e-6f);
  EXPECT_NEAR(s.y, 1, 1e-6f);
}

TEST(DecomposeTrs, RejectsShearAndLeavesTheOutputsUntouched) {
  Float4x4 m;
  m.m[1] = {0.5f, 1, 0, 0};  // y axis leaning towards x
  Float3 t{7, 7, 7}, s{7, 7, 7};
  Quat r{7, 7, 7, 7};
  EXPECT_FALSE(DecomposeTrs(m, &t, &r, &s));
  EXPECT_EQ(t.x, 7);
  EXPECT_EQ(s.y, 7);
  EXPECT_EQ(r.w, 7);
  // Just past the tolerance (|cos| 2e-3 > 1e-3), and just within it (5e-4).
  m.m[1] = {0.002f, 1, 0, 0};
  EXPECT_FALSE(DecomposeTrs(m, nullptr, nullptr, nullptr));
  m.m[1] = {0.0005f, 1, 0, 0};
  EXPECT_TRUE(DecomposeTrs(m, nullptr, nullptr, nullptr));
}

TEST(DecomposeTrs, RejectsASingularMatrix) {
  EXPECT_FALSE(DecomposeTrs(Scaling(1, 0, 1), nullptr, nullptr, nullptr));
  EXPECT_FALSE(DecomposeTrs(Scaling(0, 0, 0), nullptr, nullptr, nullptr));
  EXPECT_FALSE(DecomposeTrs(Scaling(1, 1, 1e-7f), nullptr, nullptr, nullptr));
  EXPECT_TRUE(DecomposeTrs(Scaling(1e-4f, 1e-4f, 1e-4f), nullptr, nullptr, nullptr));
}

TEST(DecomposeTrs, RejectsNonFiniteEntriesAndAProjectiveBottomRow) {
  Float4x4 m;
  m.m[3][0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(DecomposeTrs(m, nullptr, nullptr, nullptr));
  m = Float4x4::Identity();
  m.m[2][2] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(DecomposeTrs(m, nullptr, nullptr, nullptr));
  m = Float4x4::Identity();
  m.m[0][3] = 0.1f;  // bottom row 0.1 0 0 1
  EXPECT_FALSE(DecomposeTrs(m, nullptr, nullptr, nullptr));
  m = Float4x4::Identity();
  m.m[3][3] = 2;
  EXPECT_FALSE(DecomposeTrs(m, nullptr, nullptr, nullptr));
}

TEST(QuatMultiply, RotatesByTheRightOperandFirst) {
  const Quat a = AxisAngle(0, 0, 1, kPi / 2);
  const Quat b = AxisAngle(1, 0, 0, kPi / 2);
  ExpectMatrixNear(ComposeTrs({}, Multiply(a, b), {1, 1, 1}),
                   Multiply(ComposeTrs({}, a, {1, 1, 1}), ComposeTrs({}, b, {1, 1, 1})));
  // y -> z (b), then z stays (a): (0, 1, 0) ends at (0, 0, 1).
  const Float3 p = TransformPoint(ComposeTrs({}, Multiply(a, b), {1, 1, 1}), {0, 1, 0});
  EXPECT_NEAR(p.x, 0, 1e-6f);
  EXPECT_NEAR(p.y, 0, 1e-6f);
  EXPECT_NEAR(p.z, 1, 1e-6f);
}

TEST(QuatMultiply, ByTheConjugateGivesTheIdentity) {
  const float n = 1.0f / std::sqrt(3.0f);
  const Quat q = AxisAngle(n, n, n, 1.3f);
  ExpectSameRotation(Multiply(q, Conjugate(q)), Quat{});
  ExpectSameRotation(Multiply(Conjugate(q), q), Quat{});
}

}  // namespace
}  // namespace sinew
