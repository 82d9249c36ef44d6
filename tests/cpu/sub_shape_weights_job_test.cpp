#include "sinew/cpu/sub_shape_weights_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cpu/inbetween_triangle.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"

// In-between resolution (docs/semantics.md, "In-betweens"): the worked cases there and more
// (UsdSkel's ComputeSubShapeWeights), and an in-between glTF asset deformed at weights computed by
// hand.

namespace sinew::cpu {
namespace {

// Target weights for shapes over `targets` morph targets, given the per-target input weights.
std::vector<float> Resolve(const std::vector<InbetweenShape>& shapes, std::vector<float> weights) {
  std::vector<float> out(weights.size(), -99.0f);
  SubShapeWeightsJob job;
  job.shapes = shapes;
  job.weights = weights;
  job.output = out;
  const Status s = job.Run();
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

struct Case {
  float w;
  std::vector<float> expected;  // per target
};

void Check(const std::vector<InbetweenShape>& shapes, size_t targets, const Case& c) {
  std::vector<float> weights(targets, 0.0f);
  weights[shapes[0].primary] = c.w;
  const std::vector<float> out = Resolve(shapes, weights);
  for (size_t t = 0; t < targets; ++t) {
    EXPECT_NEAR(out[t], c.expected[t], 1e-6f) << "w " << c.w << " target " << t;
  }
}

// Sub-shapes [0 (null), 0.5 (I = target 1), 1 (P = target 0)].
TEST(SubShapeWeightsJob, ResolvesTheWorkedCasesWithAnInbetweenAtOneHalf) {
  const std::vector<InbetweenShape> shapes = {{0, {{1, 0.5f}}}};
  // Expected {P, I}.
  for (const Case& c : std::vector<Case>{{-0.25f, {0, -0.5f}},  // below: through I, not P
                                         {0, {0, 0}},
                                         {0.25f, {0, 0.5f}},
                                         {0.5f, {0, 1}},
                                         {0.75f, {0.5f, 0.5f}},
                                         {1, {1, 0}},
                                         {1.5f, {2, -1}}}) {  // above: unbounded
    Check(shapes, 2, c);
  }
}

// Sub-shapes [-0.5 (I = target 1), 0 (null), 1 (P = target 0)].
TEST(SubShapeWeightsJob, ResolvesTheWorkedCasesWithANegativeInbetween) {
  const std::vector<InbetweenShape> shapes = {{0, {{1, -0.5f}}}};
  for (const Case& c : std::vector<Case>{{-1, {0, 2}}, {-0.25f, {0, 0.5f}}, {2, {2, 0}}}) {
    Check(shapes, 2, c);
  }
}

// Sub-shapes [0 (null), 1 (P = target 0), 1.5 (Q = target 1)].
TEST(SubShapeWeightsJob, ResolvesTheWorkedCasesWithAnInbetweenAboveOne) {
  const std::vector<InbetweenShape> shapes = {{0, {{1, 1.5f}}}};
  for (const Case& c : std::vector<Case>{{0.5f, {0.5f, 0}}, {2, {-1, 2}}}) Check(shapes, 2, c);
}

TEST(SubShapeWeightsJob, PassesAShapeWithoutInbetweensAndOtherTargetsThrough) {
  // Target 0 has in-betweens (target 1); target 2 is a plain morph target; target 3 is a shape
  // with no valid in-betweens left (the fast path: the raw weight, even unclamped).
  const std::vector<InbetweenShape> shapes = {{0, {{1, 0.5f}}}, {3, {}}};
  const std::vector<float> out = Resolve(shapes, {0.75f, 0.9f, 0.3f, -2.5f});
  EXPECT_FLOAT_EQ(out[0], 0.5f);
  EXPECT_FLOAT_EQ(out[1], 0.5f);  // the in-between's own weight (0.9) is ignored
  EXPECT_FLOAT_EQ(out[2], 0.3f);
  EXPECT_FLOAT_EQ(out[3], -2.5f);
}

TEST(SubShapeWeightsJob, ADegenerateBracketContributesNothing) {
  // Two in-betweens less than 1e-6 apart at the bottom: w below them brackets (I1, I2), d <= 1e-6.
  const std::vector<InbetweenShape> shapes = {{0, {{1, -0.5f}, {2, -0.5f + 5e-7f}}}};
  const std::vector<float> out = Resolve(shapes, {-1, 0, 0});
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 0);
}

TEST(SubShapeWeightsJob, RejectsATargetPastTheWeights) {
  const std::vector<InbetweenShape> shapes = {{0, {{5, 0.5f}}}};
  std::vector<float> weights(2), out(2);
  SubShapeWeightsJob job;
  job.shapes = shapes;
  job.weights = weights;
  job.output = out;
  EXPECT_EQ(job.Run().code(), Error::kInvalidArgument);
  EXPECT_EQ(job.Run().error().where, "shapes/0");
}

// The in-between triangle (cpu/inbetween_triangle.h) at the weights computed by hand there.
TEST(SubShapeWeightsJob, DeformsAnInbetweenAssetAsComputedByHand) {
  auto loaded = testing::LoadInbetweenTriangle();
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  ASSERT_EQ(a.meshes[0].inbetween_shapes.size(), 1u);
  auto scene = EvaluateScene(a);
  ASSERT_TRUE(scene.ok());
  for (const testing::InbetweenCase& c : testing::kInbetweenCases) {
    const std::vector<float> weights = {c.w, 0.0f};  // the in-between's own weight is ignored
    DeformedPrimitive out;
    ASSERT_TRUE(DeformPrimitive(a, 0, 0, scene->world, weights, {}, &out).ok());
    EXPECT_NEAR(out.positions[0], c.x, 1e-6f) << "w " << c.w;
    EXPECT_NEAR(out.positions[1], c.y, 1e-6f) << "w " << c.w;
    EXPECT_NEAR(out.positions[3], 1, 1e-6f);  // vertex 1 is in no shape
  }
}

}  // namespace
}  // namespace sinew::cpu
