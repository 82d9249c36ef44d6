#include "sinew/cpu/sub_shape_weights_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/loader/file.h"
#include "sinew/loader/gltf.h"

// In-between resolution (DESIGN.md §4.3): every worked case of notes/usdskel.md §2 (UsdSkel's
// ComputeSubShapeWeights), and an in-between glTF asset deformed at weights computed by hand.

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

// A triangle whose vertex 0 moves by (0, 1, 0) in the primary shape (target 0) and by (1, 0, 0)
// in an in-between at 0.5 (target 1, through SINEW_morph_inbetweens). Vertex 0 at weight w is
// (0, 0, 0) + I·(1, 0, 0) + P·(0, 1, 0) with (P, I) resolved as above:
//   w = -0.5: I = -1 -> (-1, 0);   0.25: I = 0.5 -> (0.5, 0);   0.5: I = 1 -> (1, 0);
//   0.75: I = P = 0.5 -> (0.5, 0.5);   1: P = 1 -> (0, 1);   1.5: I = -1, P = 2 -> (-1, 2).
TEST(SubShapeWeightsJob, DeformsAnInbetweenAssetAsComputedByHand) {
  const std::string gltf = R"({
    "asset": {"version": "2.0"}, "extensionsUsed": ["SINEW_morph_inbetweens"],
    "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0},
                                "targets": [{"POSITION": 1}, {"POSITION": 2}]}],
                "extensions": {"SINEW_morph_inbetweens": {
                  "shapes": [{"target": 0, "inbetweens": [{"target": 1, "weight": 0.5}]}]}}}],
    "accessors": [
      {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
       "min": [0, 0, 0], "max": [1, 1, 0]},
      {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3",
       "min": [0, 0, 0], "max": [0, 1, 0]},
      {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3",
       "min": [0, 0, 0], "max": [1, 0, 0]}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                    {"buffer": 0, "byteOffset": 36, "byteLength": 36},
                    {"buffer": 0, "byteOffset": 72, "byteLength": 36}],
    "buffers": [{"byteLength": 108, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}]
  })";
  std::vector<uint8_t> bytes(gltf.begin(), gltf.end());
  bytes.resize(gltf.size() + loader::ReadPadding(), 0);
  auto loaded = loader::LoadGltfFromMemory(std::span(bytes.data(), gltf.size()), ".");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  ASSERT_EQ(a.meshes[0].inbetween_shapes.size(), 1u);
  auto scene = EvaluateScene(a);
  ASSERT_TRUE(scene.ok());
  const struct {
    float w, x, y;
  } kCases[] = {{-0.5f, -1, 0},      {0.25f, 0.5f, 0}, {0.5f, 1, 0},
                {0.75f, 0.5f, 0.5f}, {1, 0, 1},        {1.5f, -1, 2}};
  for (const auto& c : kCases) {
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
