#include "sinew/cpu/sample_animation_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

// Sampling glTF clips (docs/semantics.md, "Animation sampling"; glTF 2.0 Appendix C): LINEAR, STEP
// and CUBICSPLINE against values worked out by hand, the shorter arc for rotations, clamping and
// looping.

namespace sinew::cpu {
namespace {

constexpr float kTolerance = 1e-6f;

// One node, one channel on it.
struct Clip {
  Animation animation;
  ScenePose pose;

  Clip(AnimationPath path, Interpolation interpolation, std::vector<float> input,
       std::vector<float> output, uint32_t components) {
    animation.AddSampler(input, output, components, interpolation);
    animation.channels.push_back({0, 0, path});
    pose.translations.resize(1);
    pose.rotations.resize(1);
    pose.scales.resize(1);
    pose.weights.resize(1);
  }
  Status At(float time, bool loop = false) {
    SampleAnimationJob job;
    job.animation = &animation;
    job.time = time;
    job.loop = loop;
    job.pose = &pose;
    return job.Run();
  }
  Float3 Translation(float time, bool loop = false) {
    EXPECT_TRUE(At(time, loop).ok());
    return pose.translations[0];
  }
};

void ExpectNear(const Float3& a, float x, float y, float z, float tolerance = kTolerance) {
  EXPECT_NEAR(a.x, x, tolerance);
  EXPECT_NEAR(a.y, y, tolerance);
  EXPECT_NEAR(a.z, z, tolerance);
}

TEST(SampleAnimationJob, InterpolatesTranslationsLinearly) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {1, 3}, {0, 0, 0, 4, -2, 8}, 3);
  ExpectNear(c.Translation(2), 2, -1, 4);
  ExpectNear(c.Translation(1.5f), 1, -0.5f, 2);
}

// Keys whose difference is past a float's range (±3e38) still interpolate to a finite value:
// a + t·(b − a) overflowed to NaN there.
TEST(SampleAnimationJob, InterpolatesKeysWhoseDifferenceOverflows) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {0, 1},
         {0, 3e38f, -3e38f, 0, -3e38f, 3e38f}, 3);
  const Float3 t = c.Translation(0.5f);
  EXPECT_TRUE(std::isfinite(t.y) && std::isfinite(t.z)) << t.y << " " << t.z;
  EXPECT_NEAR(t.y, 0.0f, 1e32f);
  EXPECT_NEAR(t.z, 0.0f, 1e32f);
  ExpectNear(c.Translation(0.25f), 0, 1.5e38f, -1.5e38f, 1e32f);
}

TEST(SampleAnimationJob, HoldsTheFirstAndLastValuesOutsideTheKeys) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {1, 3}, {0, 0, 0, 4, -2, 8}, 3);
  ExpectNear(c.Translation(0), 0, 0, 0);
  ExpectNear(c.Translation(-5), 0, 0, 0);
  ExpectNear(c.Translation(10), 4, -2, 8);
}

TEST(SampleAnimationJob, StepHoldsEachKeyUntilTheNext) {
  Clip c(AnimationPath::kScale, Interpolation::kStep, {0, 1, 2}, {1, 1, 1, 2, 2, 2, 3, 3, 3}, 3);
  ASSERT_TRUE(c.At(0.999f).ok());
  ExpectNear(c.pose.scales[0], 1, 1, 1);
  ASSERT_TRUE(c.At(1.0f).ok());
  ExpectNear(c.pose.scales[0], 2, 2, 2);
  ASSERT_TRUE(c.At(1.5f).ok());
  ExpectNear(c.pose.scales[0], 2, 2, 2);
  ASSERT_TRUE(c.At(2.0f).ok());
  ExpectNear(c.pose.scales[0], 3, 3, 3);
}

TEST(SampleAnimationJob, CubicSplineScalesTangentsByTheKeyInterval) {
  // Keys at t = 0 and 2 (dt = 2): x goes 0 -> 1, out-tangent of key 0 is 1 per second, in-tangent
  // of key 1 is 0. At a = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, so
  // x = 0.125 * 2 * 1 + 0.5 * 1 = 0.75. y has zero tangents: smoothstep, 0.5 at the middle.
  // Per key: in-tangent, value, out-tangent.
  Clip c(AnimationPath::kTranslation, Interpolation::kCubicSpline, {0, 2},
         {0, 0, 0, 0, 0, 0, 1, 0, 0,  //
          0, 0, 0, 1, 1, 0, 0, 0, 0},
         3);
  ExpectNear(c.Translation(1), 0.75f, 0.5f, 0);
  // At a = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875:
  // x = 0.140625 * 2 + 0.15625 = 0.4375, y = 0.15625.
  ExpectNear(c.Translation(0.5f), 0.4375f, 0.15625f, 0);
  // The keys themselves are the values, not the tangents.
  ExpectNear(c.Translation(2), 1, 1, 0);
}

TEST(SampleAnimationJob, CubicSplineRotationsComeOutNormalized) {
  // Two keys 90 degrees apart about Z with zero tangents: the Hermite blend of the components is
  // shorter than 1 between the keys; the job normalizes it.
  const float h = std::sqrt(0.5f);
  Clip c(AnimationPath::kRotation, Interpolation::kCubicSpline, {0, 1},
         {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,  //
          0, 0, 0, 0, 0, 0, h, h, 0, 0, 0, 0},
         4);
  ASSERT_TRUE(c.At(0.5f).ok());
  const Quat q = c.pose.rotations[0];
  EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0f, 1e-6f);
  EXPECT_NEAR(q.z / q.w, std::tan(float(M_PI) / 8), 1e-5f);  // halfway: 45 degrees
}

TEST(SampleAnimationJob, SlerpsRotationsAlongTheShorterArc) {
  // The second key is -(90 degrees about Z): the same rotation with the sign flipped. Halfway is
  // 45 degrees about Z, not the long way round.
  const float h = std::sqrt(0.5f);
  Clip c(AnimationPath::kRotation, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 0, 0, -h, -h}, 4);
  ASSERT_TRUE(c.At(0.5f).ok());
  const Quat q = c.pose.rotations[0];
  const float angle = 2 * std::atan2(q.z, q.w);
  EXPECT_NEAR(std::fabs(angle), float(M_PI) / 4, 1e-5f);
  EXPECT_NEAR(q.x, 0, kTolerance);
  EXPECT_NEAR(q.y, 0, kTolerance);
  // A quarter of the way: 22.5 degrees.
  ASSERT_TRUE(c.At(0.25f).ok());
  EXPECT_NEAR(std::fabs(2 * std::atan2(c.pose.rotations[0].z, c.pose.rotations[0].w)),
              float(M_PI) / 8, 1e-5f);
}

TEST(SampleAnimationJob, SlerpIsUniformInAngle) {
  // 0 -> 120 degrees about X: at a = 0.25 exactly 30 degrees (a normalized lerp would not be).
  const float s = std::sin(float(M_PI) / 3), co = std::cos(float(M_PI) / 3);
  Clip c(AnimationPath::kRotation, Interpolation::kLinear, {0, 4}, {0, 0, 0, 1, s, 0, 0, co}, 4);
  ASSERT_TRUE(c.At(1).ok());
  EXPECT_NEAR(2 * std::atan2(c.pose.rotations[0].x, c.pose.rotations[0].w), float(M_PI) / 6, 1e-5f);
}

TEST(SampleAnimationJob, LoopsIntoTheClipRange) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {1, 3}, {0, 0, 0, 4, 0, 0}, 3);
  ExpectNear(c.Translation(4, true), 2, 0, 0);      // 4 wraps to 2
  ExpectNear(c.Translation(-0.5f, true), 1, 0, 0);  // -0.5 wraps to 1.5
}

TEST(SampleAnimationJob, WritesMorphWeightsUpToTheNodesTargetCount) {
  Clip c(AnimationPath::kWeights, Interpolation::kLinear, {0, 1}, {0, 1, 1, 0}, 2);
  c.pose.weights[0] = {7, 7};
  ASSERT_TRUE(c.At(0.25f).ok());
  EXPECT_NEAR(c.pose.weights[0][0], 0.25f, kTolerance);
  EXPECT_NEAR(c.pose.weights[0][1], 0.75f, kTolerance);
}

TEST(SampleAnimationJob, IgnoresAChannelWithoutANodeAndLeavesOtherNodesAlone) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 1, 1}, 3);
  c.animation.channels[0].node = -1;
  c.pose.translations[0] = {5, 6, 7};
  ASSERT_TRUE(c.At(0.5f).ok());
  ExpectNear(c.pose.translations[0], 5, 6, 7);
}

TEST(SampleAnimationJob, ReportsTheClipRangeOverAllSamplers) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {1, 3}, {0, 0, 0, 4, 0, 0}, 3);
  c.animation.AddSampler(std::vector<float>{2, 5}, std::vector<float>{0, 0, 0, 4, 0, 0}, 3,
                         Interpolation::kLinear);
  const ClipRange r = RangeOf(c.animation);
  EXPECT_EQ(r.start, 1);
  EXPECT_EQ(r.end, 5);
}

TEST(SampleAnimationJob, RejectsAnOutputOfTheWrongSize) {
  Clip c(AnimationPath::kTranslation, Interpolation::kCubicSpline, {0, 1}, {0, 0, 0, 1, 1, 1},
         3);  // cubic needs 3 vectors per key
  const Status s = c.At(0.5f);
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "channels/0");
}

TEST(SampleAnimationJob, RejectsASamplerRangePastTheClipsKeys) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 1, 1}, 3);
  c.animation.samplers[0].output.offset = 3;  // 6 floats from 3: past the 8 keys
  const Status s = c.At(0.5f);
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "samplers/0");
}

// Run reads every sampler's key times (the clip's range), so a sampler no channel uses is checked
// too.
TEST(SampleAnimationJob, RejectsAnUnusedSamplerWhoseRangeIsPastTheClipsKeys) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 1, 1}, 3);
  c.animation.AddSampler(std::vector<float>{0}, std::vector<float>{0}, 1, Interpolation::kStep);
  c.animation.samplers[1].input.offset = 100;
  const Status s = c.At(0.5f);
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "samplers/1");
}

TEST(Animation, AddSamplerPacksKeyTimesAndValuesIntoTheClipsKeys) {
  Animation a;
  EXPECT_EQ(a.AddSampler(std::vector<float>{0, 1}, std::vector<float>{1, 2, 3, 4, 5, 6}, 3,
                         Interpolation::kStep),
            0u);
  EXPECT_EQ(a.AddSampler(std::vector<float>{2}, std::vector<float>{7}, 1, Interpolation::kLinear),
            1u);
  EXPECT_EQ(a.keys, (std::vector<float>{0, 1, 1, 2, 3, 4, 5, 6, 2, 7}));
  EXPECT_EQ(a.samplers[1].input.offset, 8u);
  EXPECT_EQ(a.Output(a.samplers[1])[0], 7);
  EXPECT_EQ(a.samplers[0].interpolation, Interpolation::kStep);
  EXPECT_EQ(a.samplers[0].components, 3u);
}

TEST(SampleAnimationJob, RejectsANonFiniteTime) {
  Clip c(AnimationPath::kTranslation, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 1, 1}, 3);
  EXPECT_EQ(c.At(std::nanf("")).code(), Error::kNonFiniteValue);
}

}  // namespace
}  // namespace sinew::cpu
