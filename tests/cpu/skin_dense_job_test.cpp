#include "sinew/cpu/skin_dense_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cpu/matrix_literals.h"
#include "cpu/validation_on_threads.h"

// Hand-computed vectors for the CPU reference of dense skinning (docs/semantics.md,
// "Dense skinning" and "Normals and tangents"). Every expected number below is written out, not
// computed by the code under test.

namespace sinew::cpu {
namespace {

using testing::Rows;
using testing::Translate;

// 1/√2, 1/√5 and 2/√5, the components of the normalized vectors below.
constexpr float kInvSqrt2 = 0.70710678f;
constexpr float kInvSqrt5 = 0.44721360f;
constexpr float kTwoInvSqrt5 = 0.89442719f;
constexpr float kTolerance = 1e-6f;

// Inputs and outputs of one job, outputs sized like the inputs and filled with a sentinel.
struct Skin {
  static constexpr float kSentinel = -12345.0f;

  uint32_t k = 4;
  std::vector<float> positions, normals, tangents;
  std::vector<uint16_t> joints;
  std::vector<float> weights;
  std::vector<Float3x4> palette;
  std::vector<float> out_positions, out_normals, out_tangents;

  SkinDenseJob Job() {
    out_positions.assign(positions.size(), kSentinel);
    out_normals.assign(normals.size(), kSentinel);
    out_tangents.assign(tangents.size(), kSentinel);
    return Bind();
  }
  // The job over the current vectors, without resizing the outputs.
  SkinDenseJob Bind() {
    SkinDenseJob job;
    job.influences_per_vertex = k;
    job.positions = positions;
    job.normals = normals;
    job.tangents = tangents;
    job.joints = joints;
    job.weights = weights;
    job.palette = palette;
    job.out_positions = out_positions;
    job.out_normals = out_normals;
    job.out_tangents = out_tangents;
    return job;
  }
  Status Run() { return Job().Run(); }
};

void ExpectNear3(const float* actual, float x, float y, float z) {
  EXPECT_NEAR(actual[0], x, kTolerance);
  EXPECT_NEAR(actual[1], y, kTolerance);
  EXPECT_NEAR(actual[2], z, kTolerance);
}

// One vertex at (1, 2, 3) with normal +Z and tangent +X (w = -1), fully bound to joint 0.
Skin OneVertex(const Float3x4& joint0) {
  Skin s;
  s.positions = {1, 2, 3};
  s.normals = {0, 0, 1};
  s.tangents = {1, 0, 0, -1};
  s.joints = {0, 0, 0, 0};
  s.weights = {1, 0, 0, 0};
  s.palette = {joint0};
  return s;
}

TEST(SkinDenseJob, TranslatesPositionsAndLeavesDirectionsAlone) {
  Skin s = OneVertex(Translate(5, -2, 0.5f));
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 6, 0, 3.5f);
  ExpectNear3(&s.out_normals[0], 0, 0, 1);
  ExpectNear3(&s.out_tangents[0], 1, 0, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
}

TEST(SkinDenseJob, RotatesPositionNormalAndTangentAndKeepsHandedness) {
  // 90° about +Z (x -> y, y -> -x), then a translation of (10, 0, 0).
  Skin s = OneVertex(Rows({0, -1, 0, 10}, {1, 0, 0, 0}, {0, 0, 1, 0}));
  s.normals = {1, 0, 0};
  s.tangents = {0, 1, 0, -1};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 8, 1, 3);  // (1, 2, 3) -> (-2, 1, 3) + (10, 0, 0).
  ExpectNear3(&s.out_normals[0], 0, 1, 0);
  ExpectNear3(&s.out_tangents[0], -1, 0, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
}

TEST(SkinDenseJob, SkinsNormalsByTheInverseTransposeUnderNonUniformScale) {
  // diag(2, 1, 1): the 45° normal (1, 1, 0)/√2 goes to diag(1/2, 1, 1)·n ∝ (0.5, 1, 0), i.e.
  // (1, 2, 0)/√5; the tangent (1, 1, 0)/√2 goes to (2, 1, 0)/√5.
  Skin s = OneVertex(Rows({2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}));
  s.normals = {kInvSqrt2, kInvSqrt2, 0};
  s.tangents = {kInvSqrt2, kInvSqrt2, 0, 1};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 2, 2, 3);
  ExpectNear3(&s.out_normals[0], kInvSqrt5, kTwoInvSqrt5, 0);
  ExpectNear3(&s.out_tangents[0], kTwoInvSqrt5, kInvSqrt5, 0);
  EXPECT_EQ(s.out_tangents[3], 1.0f);
}

TEST(SkinDenseJob, FollowsTheInverseTransposeThroughAMirror) {
  // diag(-2, 1, 1) has det < 0. Inverse-transpose diag(-1/2, 1, 1): (1, 1, 0)/√2 -> ∝ (-0.5, 1, 0)
  // = (-1, 2, 0)/√5. A plain cofactor would give (1, -2, 0)/√5, pointing inside out.
  Skin s = OneVertex(Rows({-2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}));
  s.normals = {kInvSqrt2, kInvSqrt2, 0};
  s.tangents = {kInvSqrt2, kInvSqrt2, 0, -1};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], -2, 2, 3);
  ExpectNear3(&s.out_normals[0], -kInvSqrt5, kTwoInvSqrt5, 0);
  ExpectNear3(&s.out_tangents[0], -kTwoInvSqrt5, kInvSqrt5, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
}

TEST(SkinDenseJob, BlendsTwoBonesByWeight) {
  // 0.75 · (+8 in y) + 0.25 · (+4 in x) = (+1, +6, 0); the blended 3x3 is the identity.
  Skin s;
  s.positions = {1, 1, 1};
  s.normals = {0, 1, 0};
  s.tangents = {0, 0, 1, 1};
  s.joints = {1, 0, 0, 0};
  s.weights = {0.75f, 0.25f, 0, 0};
  s.palette = {Translate(4, 0, 0), Translate(0, 8, 0)};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 2, 7, 1);
  ExpectNear3(&s.out_normals[0], 0, 1, 0);
  ExpectNear3(&s.out_tangents[0], 0, 0, 1);
}

// Half diag(2, 1, 1), half identity; normal (1, 1, 0)/√2. The blended matrix is diag(1.5, 1, 1),
// whose inverse-transpose takes n to ∝ (2/3, 1, 0) = (2, 3, 0)/√13. UsdSkel's rule sums each
// joint's inverse-transpose instead: 0.5 · (0.5, 1, 0) + 0.5 · (1, 1, 0) ∝ (0.75, 1, 0) =
// (0.6, 0.8, 0). Positions and tangents do not depend on the rule.
Skin HalfScaledHalfStill() {
  Skin s;
  s.positions = {1, 1, 0};
  s.normals = {kInvSqrt2, kInvSqrt2, 0};
  s.tangents = {1, 0, 0, 1};
  s.joints = {0, 1, 0, 0};
  s.weights = {0.5f, 0.5f, 0, 0};
  s.palette = {Rows({2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}), Translate(0, 0, 0)};
  return s;
}

TEST(SkinDenseJob, SkinsNormalsByTheBlendedMatrixByDefault) {
  Skin s = HalfScaledHalfStill();
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 1.5f, 1, 0);
  ExpectNear3(&s.out_normals[0], 0.55470020f, 0.83205029f, 0);
}

TEST(SkinDenseJob, SumsEachJointsInverseTransposeByWeightForPerJointNormals) {
  Skin s = HalfScaledHalfStill();
  SkinDenseJob job = s.Job();
  job.normal_blend = NormalBlend::kPerJoint;
  ASSERT_TRUE(job.Run().ok());
  ExpectNear3(&s.out_positions[0], 1.5f, 1, 0);
  ExpectNear3(&s.out_normals[0], 0.6f, 0.8f, 0);
  ExpectNear3(&s.out_tangents[0], 1, 0, 0);
}

// A joint whose 3x3 is singular has no inverse-transpose: it adds nothing to the sum.
TEST(SkinDenseJob, LeavesASingularJointOutOfPerJointNormals) {
  Skin s = HalfScaledHalfStill();
  s.palette[0] = Rows({0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0});
  SkinDenseJob job = s.Job();
  job.normal_blend = NormalBlend::kPerJoint;
  ASSERT_TRUE(job.Run().ok());
  ExpectNear3(&s.out_normals[0], kInvSqrt2, kInvSqrt2, 0);
}

TEST(SkinDenseJob, KeepsTheRestAttributesOfAVertexWithoutWeights) {
  Skin s = OneVertex(Rows({0, 0, 3, 100}, {0, 5, 0, 100}, {7, 0, 0, 100}));
  s.weights = {0, 0, 0, 0};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 1, 2, 3);
  ExpectNear3(&s.out_normals[0], 0, 0, 1);
  ExpectNear3(&s.out_tangents[0], 1, 0, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
}

TEST(SkinDenseJob, UsesEverySlotOfEightInfluences) {
  // Only slots 5 and 6 carry weight; the others name a wild joint 2 with weight 0.
  Skin s;
  s.k = 8;
  s.positions = {1, 2, 3, -1, 0, 4};
  s.joints = {2, 2, 2, 2, 2, 1, 0, 2, 2, 2, 2, 2, 2, 1, 0, 2};
  s.weights = {0, 0, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0, 0, 0, 0, 0.5f, 0.5f, 0};
  s.palette = {Translate(2, 0, 0), Translate(0, 0, -4),
               Rows({100, 0, 0, 9}, {0, 100, 0, 9}, {0, 0, 100, 9})};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 2, 2, 1);  // + (1, 0, -2)
  ExpectNear3(&s.out_positions[3], 0, 0, 2);
}

TEST(SkinDenseJob, SkinsEachVertexWithItsOwnInfluences) {
  Skin s;
  s.positions = {0, 0, 0, 1, 1, 1};
  s.joints = {0, 0, 0, 0, 1, 0, 0, 0};
  s.weights = {1, 0, 0, 0, 1, 0, 0, 0};
  s.palette = {Translate(1, 0, 0), Translate(0, 0, 1)};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 1, 0, 0);
  ExpectNear3(&s.out_positions[3], 1, 1, 2);
}

TEST(SkinDenseJob, SkinsPositionsOnlyWhenThereAreNoNormalsOrTangents) {
  Skin s = OneVertex(Translate(1, 1, 1));
  s.normals.clear();
  s.tangents.clear();
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 2, 3, 4);
}

TEST(SkinDenseJob, LeavesAZeroNormalZero) {
  Skin s = OneVertex(Rows({2, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 4, 0}));
  s.normals = {0, 0, 0};
  s.tangents = {0, 0, 0, 1};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_normals[0], 0, 0, 0);
  ExpectNear3(&s.out_tangents[0], 0, 0, 0);
}

TEST(SkinDenseJob, AcceptsNoVerticesAtAll) {
  Skin s = OneVertex(Translate(1, 1, 1));
  s.positions.clear();
  s.normals.clear();
  s.tangents.clear();
  s.joints.clear();
  s.weights.clear();
  EXPECT_TRUE(s.Run().ok());
}

// Bad input: the exact error and where.

void ExpectError(Skin& s, Error code, const std::string& where) {
  const Status status = s.Bind().Validate();
  EXPECT_EQ(status.code(), code) << status.error().ToString();
  EXPECT_EQ(status.error().where, where);
}

TEST(SkinDenseJob, RejectsPositionsThatAreNotWholeTriples) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.positions.push_back(4);
  ExpectError(s, Error::kSizeMismatch, "positions");
}

TEST(SkinDenseJob, RejectsOutputPositionsTooSmall) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.out_positions.pop_back();
  ExpectError(s, Error::kSizeMismatch, "out_positions");
}

TEST(SkinDenseJob, RejectsNormalsWithoutOutputNormals) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.out_normals.clear();
  ExpectError(s, Error::kSizeMismatch, "out_normals");
}

TEST(SkinDenseJob, RejectsOutputNormalsWithoutNormals) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.normals.clear();
  ExpectError(s, Error::kSizeMismatch, "out_normals");
}

TEST(SkinDenseJob, RejectsNormalsOfTheWrongCount) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.normals.push_back(0);
  ExpectError(s, Error::kSizeMismatch, "normals");
}

TEST(SkinDenseJob, RejectsTangentsWithoutOutputTangents) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.out_tangents.clear();
  ExpectError(s, Error::kSizeMismatch, "out_tangents");
}

TEST(SkinDenseJob, RejectsTangentsOfTheWrongCount) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.tangents.resize(3);  // xyz without w.
  ExpectError(s, Error::kSizeMismatch, "tangents");
}

TEST(SkinDenseJob, RejectsAJointCountMismatch) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.joints.pop_back();
  ExpectError(s, Error::kSizeMismatch, "influences/joints");
}

TEST(SkinDenseJob, RejectsAWeightCountMismatch) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.weights.push_back(0);
  ExpectError(s, Error::kSizeMismatch, "influences/weights");
}

TEST(SkinDenseJob, RejectsZeroInfluences) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.Job();
  s.k = 0;
  ExpectError(s, Error::kInvalidInfluenceCount, "influences/influences_per_vertex");
}

TEST(SkinDenseJob, RejectsInfluencesNotAMultipleOfFour) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.k = 6;
  s.joints.assign(6, 0);
  s.weights = {1, 0, 0, 0, 0, 0};
  s.Job();
  ExpectError(s, Error::kInvalidInfluenceCount, "influences/influences_per_vertex");
}

TEST(SkinDenseJob, RejectsAJointIndexEqualToThePaletteSize) {
  Skin s;
  s.positions = {0, 0, 0, 1, 1, 1};
  s.joints = {0, 0, 0, 0, 1, 0, 2, 0};  // Entry 6 names joint 2 of a 2-joint palette.
  s.weights = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0};
  s.palette = {Translate(0, 0, 0), Translate(1, 0, 0)};
  s.Job();
  ExpectError(s, Error::kJointIndexOutOfRange, "influences/joints/6");
}

TEST(SkinDenseJob, RejectsAnEmptyPalette) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.palette.clear();
  s.Job();
  ExpectError(s, Error::kEmptyPalette, "palette");
}

TEST(SkinDenseJob, RejectsANegativeWeight) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.weights = {1.25f, 0, -0.25f, 0};
  s.Job();
  ExpectError(s, Error::kNegativeWeight, "influences/weights/2");
}

TEST(SkinDenseJob, RejectsANaNWeight) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.weights = {1, std::numeric_limits<float>::quiet_NaN(), 0, 0};
  s.Job();
  ExpectError(s, Error::kNonFiniteValue, "influences/weights/1");
}

TEST(SkinDenseJob, RejectsAnInfiniteWeight) {
  Skin s = OneVertex(Translate(0, 0, 0));
  s.weights = {std::numeric_limits<float>::infinity(), 0, 0, 0};
  s.Job();
  ExpectError(s, Error::kNonFiniteValue, "influences/weights/0");
}

TEST(SkinDenseJob, RunValidatesFirstAndLeavesOutputsUntouched) {
  Skin s;
  s.positions = {0, 0, 0, 1, 1, 1};
  s.normals = {0, 0, 1, 0, 0, 1};
  s.tangents = {1, 0, 0, 1, 1, 0, 0, 1};
  s.joints = {0, 0, 0, 0, 0, 0, 0, 1};  // The second vertex names joint 1 of a 1-joint palette.
  s.weights = {1, 0, 0, 0, 1, 0, 0, 0};
  s.palette = {Translate(1, 2, 3)};
  const Status status = s.Run();
  EXPECT_EQ(status.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(status.error().where, "influences/joints/7");
  for (float x : s.out_positions) EXPECT_EQ(x, Skin::kSentinel);
  for (float x : s.out_normals) EXPECT_EQ(x, Skin::kSentinel);
  for (float x : s.out_tangents) EXPECT_EQ(x, Skin::kSentinel);
}

// Validation runs on the job's threads where nothing is wrong; a fault in any thread's range is
// named as one thread names it (the first in the streams), and nothing is written. K = 4 and 8.
TEST(SkinDenseJob, ValidationOnThreadsNamesTheFirstFaultAsOneThreadDoes) {
  // Ranges of 4,096 vertices or more (kTestVerticesPerThread): up to four threads.
  constexpr size_t kVertices = 20000;
  struct Fault {
    size_t vertex;
    uint32_t slot;
    bool joint;  // else the weight
    Error code;
  };
  // One in each of the four ranges of 5,000 vertices (two of 10,000).
  const Fault faults[] = {{19000, 2, true, Error::kJointIndexOutOfRange},
                          {3, 1, false, Error::kNonFiniteValue},
                          {12000, 0, false, Error::kNegativeWeight},
                          {7000, 3, true, Error::kJointIndexOutOfRange}};
  for (const uint32_t k : {4u, 8u}) {
    Skin s;
    s.k = k;
    s.positions.assign(kVertices * 3, 1.0f);
    s.joints.assign(kVertices * k, 0);
    s.weights.assign(kVertices * k, 0.0f);
    for (size_t v = 0; v < kVertices; ++v) s.weights[v * k] = 1.0f;
    s.palette = {Translate(1, 2, 3), Translate(0, 1, 0)};
    for (const Fault& f : faults) {
      const size_t slot = f.vertex * k + f.slot;
      const std::string where =
          std::string("influences/") + (f.joint ? "joints/" : "weights/") + std::to_string(slot);
      SCOPED_TRACE(where + ", K = " + std::to_string(k));
      Skin bad = s;
      if (f.joint) {
        bad.joints[slot] = 2;
      } else {
        bad.weights[slot] = f.code == Error::kNonFiniteValue ? NAN : -0.5f;
      }
      sinew::testing::ExpectTheSameFaultOnAnyThreads(bad, f.code, where);
    }
    sinew::testing::ExpectRunsOnAnyThreads(s);  // and nothing wrong: it skins
    EXPECT_EQ(s.out_positions[3 * (kVertices - 1)], 2.0f);
  }
}

}  // namespace
}  // namespace sinew::cpu
