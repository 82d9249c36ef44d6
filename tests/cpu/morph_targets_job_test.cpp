#include "sinew/cpu/morph_targets_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

// Morph targets on the CPU (docs/semantics.md, "Blend shapes"): offsets weighted and summed,
// normals and tangents renormalized (only when some weight is nonzero), handedness kept.

namespace sinew::cpu {
namespace {

struct Morph {
  std::vector<float> positions{0, 0, 0, 1, 1, 1};
  std::vector<float> normals{0, 0, 1, 0, 0, 1};
  std::vector<float> tangents{1, 0, 0, -1, 1, 0, 0, 1};
  std::vector<MorphTarget> targets;
  std::vector<float> weights;
  std::vector<float> out_positions = std::vector<float>(6), out_normals = std::vector<float>(6),
                     out_tangents = std::vector<float>(8);
  Status Run() {
    MorphTargetsJob job;
    job.positions = positions, job.normals = normals, job.tangents = tangents;
    job.targets = targets, job.weights = weights;
    job.out_positions = out_positions, job.out_normals = out_normals;
    job.out_tangents = out_tangents;
    return job.Run();
  }
};

TEST(MorphTargetsJob, AddsWeightedOffsetsOfEveryTarget) {
  Morph m;
  MorphTarget a, b;
  a.positions = {1, 0, 0, 0, 2, 0};
  b.positions = {0, 0, 4, 0, 0, 0};
  m.targets = {a, b};
  m.weights = {0.5f, -0.25f};
  ASSERT_TRUE(m.Run().ok());
  const float expected[] = {0.5f, 0, -1, 1, 2, 1};
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(m.out_positions[size_t(i)], expected[i]);
  // Targets without normal offsets leave normals unit and unchanged.
  EXPECT_FLOAT_EQ(m.out_normals[2], 1);
}

TEST(MorphTargetsJob, RenormalizesNormalsAndTangentsAndKeepsHandedness) {
  Morph m;
  MorphTarget t;
  t.normals = {1, 0, 0, 0, 0, 0};
  t.tangents = {0, 1, 0, 0, 0, 0};
  m.targets = {t};
  m.weights = {1};
  ASSERT_TRUE(m.Run().ok());
  const float h = std::sqrt(0.5f);
  EXPECT_NEAR(m.out_normals[0], h, 1e-6f);
  EXPECT_NEAR(m.out_normals[2], h, 1e-6f);
  EXPECT_NEAR(m.out_tangents[0], h, 1e-6f);
  EXPECT_NEAR(m.out_tangents[1], h, 1e-6f);
  EXPECT_EQ(m.out_tangents[3], -1);  // handedness untouched
  EXPECT_EQ(m.out_tangents[7], 1);
}

TEST(MorphTargetsJob, EveryWeightZeroCopiesTheInputsWithoutRenormalizing) {
  // The fused GPU kernel skips an instance without active targets altogether; so does the job.
  Morph m;
  m.normals = {0, 0, 2, 0, 3, 0};
  m.tangents = {2, 0, 0, -1, 0, 0.5f, 0, 1};
  MorphTarget t;
  t.positions = {1, 1, 1, 1, 1, 1};
  t.normals = {1, 0, 0, 1, 0, 0};
  m.targets = {t, t};
  m.weights = {0, -0.0f};
  ASSERT_TRUE(m.Run().ok());
  EXPECT_EQ(m.out_positions, m.positions);
  EXPECT_EQ(m.out_normals, m.normals);
  EXPECT_EQ(m.out_tangents, m.tangents);
}

TEST(MorphTargetsJob, ANonzeroWeightRenormalizesEveryVertexEvenOnesItDoesNotMove) {
  Morph m;
  m.normals = {0, 0, 2, 0, 3, 0};
  m.tangents = {2, 0, 0, -1, 0, 0.5f, 0, 1};
  MorphTarget t;
  t.positions = {0, 0, 0, 0, 1, 0};  // moves vertex 1's position only
  m.targets = {MorphTarget{}, t};
  m.weights = {0, 0.5f};
  ASSERT_TRUE(m.Run().ok());
  EXPECT_EQ(m.out_positions, (std::vector<float>{0, 0, 0, 1, 1.5f, 1}));
  EXPECT_EQ(m.out_normals, (std::vector<float>{0, 0, 1, 0, 1, 0}));
  EXPECT_EQ(m.out_tangents, (std::vector<float>{1, 0, 0, -1, 0, 1, 0, 1}));
}

TEST(MorphTargetsJob, RejectsAWeightCountThatDiffersFromTheTargets) {
  Morph m;
  m.targets.resize(2);
  m.weights = {1};
  const Status s = m.Run();
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "weights");
}

TEST(MorphTargetsJob, RejectsATargetSizedForAnotherVertexCount) {
  Morph m;
  MorphTarget t;
  t.positions = {1, 2, 3};
  m.targets = {t};
  m.weights = {1};
  const Status s = m.Run();
  EXPECT_EQ(s.code(), Error::kSizeMismatch);
  EXPECT_EQ(s.error().where, "targets/0/positions");
}

TEST(MorphTargetsJob, RejectsANonFiniteWeight) {
  Morph m;
  m.targets.resize(1);
  m.weights = {std::nanf("")};
  EXPECT_EQ(m.Run().code(), Error::kNonFiniteValue);
}

}  // namespace
}  // namespace sinew::cpu
