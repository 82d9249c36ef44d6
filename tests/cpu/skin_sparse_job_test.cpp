#include "sinew/cpu/skin_sparse_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "asset/sparse_order.h"
#include "cpu/matrix_literals.h"
#include "cpu/mesh_outputs.h"
#include "cpu/validation_on_threads.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/group_palette_job.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"

// The CPU reference of sparse (CSR) skinning (docs/semantics.md, "Sparse skinning" and
// "Normals and tangents"): hand-computed vectors, the exact errors, and equivalence with dense
// skinning of the same character.

namespace sinew::cpu {
namespace {

using sinew::testing::InSparseOrder;

using testing::Rows;
using testing::Translate;

constexpr float kInvSqrt2 = 0.70710678f;  // 1/√2
constexpr float kTolerance = 1e-6f;

// A matrix no vertex should ever see: scales by 3, 5, 7 and moves by 100.
const Float3x4 kWild = Rows({3, 0, 0, 100}, {0, 5, 0, 100}, {0, 0, 7, 100});

// Inputs and outputs of one job, outputs sized like the inputs and filled with a sentinel.
struct Skin {
  static constexpr float kSentinel = -12345.0f;

  std::vector<float> positions, normals, tangents;
  SparseInfluences influences;
  std::vector<Float3x4> palette;
  std::vector<float> out_positions, out_normals, out_tangents;

  SkinSparseJob Job() {
    out_positions.assign(positions.size(), kSentinel);
    out_normals.assign(normals.size(), kSentinel);
    out_tangents.assign(tangents.size(), kSentinel);
    return Bind();
  }
  // The job over the current vectors, without resizing the outputs.
  SkinSparseJob Bind() {
    SkinSparseJob job;
    job.positions = positions;
    job.normals = normals;
    job.tangents = tangents;
    job.influences = &influences;
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

// One vertex at (1, 2, 3), normal +Z, tangent +X with w = -1; the caller sets the influences.
Skin OneVertex() {
  Skin s;
  s.positions = {1, 2, 3};
  s.normals = {0, 0, 1};
  s.tangents = {1, 0, 0, -1};
  return s;
}

TEST(SkinSparseJob, BlendsTwoEntriesByWeight) {
  // Group 0 turns 90° about +Z then moves by (2, 0, 0); group 1 moves by (0, 0, 4). Half each
  // (a tie: lower group first) gives M = rows (0.5 -0.5 0 1), (0.5 0.5 0 0), (0 0 1 2):
  // (1, 2, 3) -> (0.5 - 1 + 1, 0.5 + 1, 3 + 2) = (0.5, 1.5, 5). M₃ₓ₃ is a 45° turn scaled by
  // 1/√2, so normal (1, 0, 0) and tangent (1, 0, 0) both end at (1, 1, 0)/√2.
  Skin s = OneVertex();
  s.normals = {1, 0, 0};
  s.influences = {{0, 2}, {0, 1}, {0.5f, 0.5f}, 2};
  s.palette = {Rows({0, -1, 0, 2}, {1, 0, 0, 0}, {0, 0, 1, 0}), Translate(0, 0, 4)};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 0.5f, 1.5f, 5);
  ExpectNear3(&s.out_normals[0], kInvSqrt2, kInvSqrt2, 0);
  ExpectNear3(&s.out_tangents[0], kInvSqrt2, kInvSqrt2, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
}

// UsdSkel's normal rule on sparse influences: half diag(2, 1, 1), half identity takes the normal
// (1, 1, 0)/√2 to ∝ 0.5 · (0.5, 1, 0) + 0.5 · (1, 1, 0) = (0.6, 0.8, 0) normalized, where the
// blended matrix's inverse-transpose gives (2, 3, 0)/√13.
TEST(SkinSparseJob, SumsEachGroupsInverseTransposeByWeightForPerJointNormals) {
  Skin s = OneVertex();
  s.normals = {kInvSqrt2, kInvSqrt2, 0};
  s.influences = {{0, 2}, {0, 1}, {0.5f, 0.5f}, 2};
  s.palette = {Rows({2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}), Translate(0, 0, 0)};
  SkinSparseJob job = s.Job();
  job.normal_blend = NormalBlend::kPerJoint;
  ASSERT_TRUE(job.Run().ok());
  ExpectNear3(&s.out_positions[0], 1.5f, 2, 3);
  ExpectNear3(&s.out_normals[0], 0.6f, 0.8f, 0);
  job.normal_blend = NormalBlend::kBlendedMatrix;
  ASSERT_TRUE(job.Run().ok());
  ExpectNear3(&s.out_normals[0], 0.55470020f, 0.83205029f, 0);
}

TEST(SkinSparseJob, KeepsTheRestAttributesOfAVertexWithNoEntries) {
  // Vertex 0 has no entries; vertex 1 is moved by (0, 10, 0).
  Skin s;
  s.positions = {1, 2, 3, 4, 5, 6};
  s.normals = {0, 0, 1, 0, 1, 0};
  s.tangents = {1, 0, 0, -1, 1, 0, 0, 1};
  s.influences = {{0, 0, 1}, {1}, {1.0f}, 2};
  s.palette = {kWild, Translate(0, 10, 0)};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 1, 2, 3);
  ExpectNear3(&s.out_normals[0], 0, 0, 1);
  ExpectNear3(&s.out_tangents[0], 1, 0, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
  ExpectNear3(&s.out_positions[3], 4, 15, 6);
  ExpectNear3(&s.out_normals[3], 0, 1, 0);
  ExpectNear3(&s.out_tangents[4], 1, 0, 0);
  EXPECT_EQ(s.out_tangents[7], 1.0f);
}

TEST(SkinSparseJob, KeepsTheRestAttributesOfAVertexWhoseWeightsAreZero) {
  Skin s = OneVertex();
  s.influences = {{0, 2}, {0, 1}, {0.0f, 0.0f}, 2};
  s.palette = {kWild, kWild};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 1, 2, 3);
  ExpectNear3(&s.out_normals[0], 0, 0, 1);
  ExpectNear3(&s.out_tangents[0], 1, 0, 0);
  EXPECT_EQ(s.out_tangents[3], -1.0f);
}

TEST(SkinSparseJob, UsesAllTwelveEntriesWithWeightsAsAuthored) {
  // Twelve entries of 0.125 (a tie: groups ascending), group g moving by (g, 0, 0). The weights
  // sum to 1.5 and are not normalized: M₃ₓ₃ = 1.5·I and the translation is 0.125 · (0 + 1 + ...
  // + 11) = 8.25 in x, so (1, 2, 3) -> (1.5 + 8.25, 3, 4.5). Directions only scale: unchanged.
  Skin s = OneVertex();
  s.influences.offsets = {0, 12};
  for (uint32_t g = 0; g < 12; ++g) {
    s.influences.groups.push_back(g);
    s.influences.weights.push_back(0.125f);
    s.palette.push_back(Translate(static_cast<float>(g), 0, 0));
  }
  s.influences.group_count = 12;
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 9.75f, 3, 4.5f);
  ExpectNear3(&s.out_normals[0], 0, 0, 1);
  ExpectNear3(&s.out_tangents[0], 1, 0, 0);
}

TEST(SkinSparseJob, SkinsPositionsOnlyWhenThereAreNoNormalsOrTangents) {
  Skin s = OneVertex();
  s.normals.clear();
  s.tangents.clear();
  s.influences = {{0, 1}, {0}, {1.0f}, 1};
  s.palette = {Translate(1, 1, 1)};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 2, 3, 4);
}

TEST(SkinSparseJob, AcceptsAPaletteLargerThanTheGroupCount) {
  Skin s = OneVertex();
  s.influences = {{0, 1}, {0}, {1.0f}, 1};
  s.palette = {Translate(1, 0, 0), kWild};
  ASSERT_TRUE(s.Run().ok());
  ExpectNear3(&s.out_positions[0], 2, 2, 3);
}

TEST(SkinSparseJob, AcceptsNoVerticesAtAll) {
  Skin s;
  s.influences = {{0}, {}, {}, 1};
  s.palette = {kWild};
  EXPECT_TRUE(s.Run().ok());
}

// Bad input: the exact error and where.

// One valid vertex bound to group 0 of a one-group palette.
Skin Valid() {
  Skin s = OneVertex();
  s.influences = {{0, 1}, {0}, {1.0f}, 1};
  s.palette = {Translate(0, 0, 0)};
  s.Job();
  return s;
}

void ExpectError(Skin& s, Error code, const std::string& where) {
  const Status status = s.Bind().Validate();
  EXPECT_EQ(status.code(), code) << status.error().ToString();
  EXPECT_EQ(status.error().where, where);
}

TEST(SkinSparseJob, AcceptsTheValidFixture) {
  Skin s = Valid();
  EXPECT_TRUE(s.Bind().Validate().ok());
}

TEST(SkinSparseJob, RejectsPositionsThatAreNotWholeTriples) {
  Skin s = Valid();
  s.positions.push_back(4);
  ExpectError(s, Error::kSizeMismatch, "positions");
}

TEST(SkinSparseJob, RejectsNormalsOfTheWrongCount) {
  Skin s = Valid();
  s.normals.push_back(0);
  ExpectError(s, Error::kSizeMismatch, "normals");
}

TEST(SkinSparseJob, RejectsTangentsOfTheWrongCount) {
  Skin s = Valid();
  s.tangents.resize(3);  // xyz without w.
  ExpectError(s, Error::kSizeMismatch, "tangents");
}

TEST(SkinSparseJob, RejectsOutputPositionsTooSmall) {
  Skin s = Valid();
  s.out_positions.pop_back();
  ExpectError(s, Error::kSizeMismatch, "out_positions");
}

TEST(SkinSparseJob, RejectsNormalsWithoutOutputNormals) {
  Skin s = Valid();
  s.out_normals.clear();
  ExpectError(s, Error::kSizeMismatch, "out_normals");
}

TEST(SkinSparseJob, RejectsOutputTangentsWithoutTangents) {
  Skin s = Valid();
  s.tangents.clear();
  ExpectError(s, Error::kSizeMismatch, "out_tangents");
}

TEST(SkinSparseJob, RejectsMissingInfluences) {
  Skin s = Valid();
  SkinSparseJob job = s.Bind();
  job.influences = nullptr;
  const Status status = job.Validate();
  EXPECT_EQ(status.code(), Error::kInvalidArgument) << status.error().ToString();
  EXPECT_EQ(status.error().where, "influences");
}

TEST(SkinSparseJob, RejectsInfluencesForAnotherVertexCount) {
  Skin s = Valid();
  s.influences.offsets = {0, 1, 1};
  ExpectError(s, Error::kSizeMismatch, "sparse_influences/offsets");
}

TEST(SkinSparseJob, RejectsAGroupPastTheGroupCount) {
  Skin s = Valid();
  s.influences.groups = {1};
  ExpectError(s, Error::kJointIndexOutOfRange, "sparse_influences/groups/0");
}

TEST(SkinSparseJob, RejectsAPaletteSmallerThanTheGroupCount) {
  Skin s = Valid();
  s.influences.group_count = 2;
  ExpectError(s, Error::kSizeMismatch, "palette");
}

TEST(SkinSparseJob, RejectsAnEmptyPalette) {
  Skin s = Valid();
  s.palette.clear();
  ExpectError(s, Error::kSizeMismatch, "palette");
}

TEST(SkinSparseJob, RunValidatesFirstAndLeavesOutputsUntouched) {
  Skin s = OneVertex();
  s.influences = {{0, 1}, {0}, {-1.0f}, 1};
  s.palette = {Translate(1, 2, 3)};
  const Status status = s.Run();
  EXPECT_EQ(status.code(), Error::kNegativeWeight);
  EXPECT_EQ(status.error().where, "sparse_influences/weights/0");
  for (float x : s.out_positions) EXPECT_EQ(x, Skin::kSentinel);
  for (float x : s.out_normals) EXPECT_EQ(x, Skin::kSentinel);
  for (float x : s.out_tangents) EXPECT_EQ(x, Skin::kSentinel);
}

// Validation runs on the job's threads where nothing is wrong; a fault in any thread's range is
// named as one thread names it, and nothing is written.
TEST(SkinSparseJob, ValidationOnThreadsNamesTheFirstFaultAsOneThreadDoes) {
  // Ranges of 4,096 vertices or more (kTestVerticesPerThread): up to four threads.
  constexpr uint32_t kVertices = 20000;
  Skin s;
  s.positions.assign(size_t{kVertices} * 3, 1.0f);
  for (uint32_t v = 0; v <= kVertices; ++v) s.influences.offsets.push_back(2 * v);
  for (uint32_t v = 0; v < kVertices; ++v) {
    s.influences.groups.insert(s.influences.groups.end(), {1, 0});  // heavier first
    s.influences.weights.insert(s.influences.weights.end(), {0.75f, 0.25f});
  }
  s.influences.group_count = 2;
  s.palette = {Translate(4, 0, 0), Translate(0, 4, 0)};
  // The same vertices with one entry each (group 0): offsets that decrease then name overlapping
  // entries that are still in order, so only the offsets show the fault.
  Skin single = s;
  single.influences.offsets.clear();
  for (uint32_t v = 0; v <= kVertices; ++v) single.influences.offsets.push_back(v);
  single.influences.groups.assign(kVertices, 0);
  single.influences.weights.assign(kVertices, 1.0f);
  struct Fault {
    const Skin* base;
    void (*apply)(SparseInfluences&);
    Error code;
    const char* where;
  };
  const Fault faults[] = {
      {&s, [](SparseInfluences& in) { in.groups[2 * 19000 + 1] = 2; }, Error::kJointIndexOutOfRange,
       "sparse_influences/groups/38001"},
      {&s, [](SparseInfluences& in) { std::swap(in.weights[18000], in.weights[18001]); },
       Error::kInvalidArgument, "sparse_influences/weights/18001"},
      {&single, [](SparseInfluences& in) { in.offsets[15001] = in.offsets[15000] - 1; },
       Error::kSizeMismatch, "sparse_influences/offsets/15001"},
      {&s, [](SparseInfluences& in) { in.weights[5] = NAN; }, Error::kNonFiniteValue,
       "sparse_influences/weights/5"},
      {&s, [](SparseInfluences& in) { in.weights[2 * 12000] = -1.0f; }, Error::kNegativeWeight,
       "sparse_influences/weights/24000"},
      // At vertex 10,000, where a range starts on two threads and on four: a decrease across the
      // boundary, and an offset past the streams.
      {&single, [](SparseInfluences& in) { in.offsets[10000] = in.offsets[9999] - 1; },
       Error::kSizeMismatch, "sparse_influences/offsets/10000"},
      {&single, [](SparseInfluences& in) { in.offsets[10000] = 0xFFFFFFFFu; }, Error::kSizeMismatch,
       "sparse_influences/offsets/10001"},
  };
  for (const Fault& f : faults) {
    SCOPED_TRACE(f.where);
    Skin bad = *f.base;
    f.apply(bad.influences);
    sinew::testing::ExpectTheSameFaultOnAnyThreads(bad, f.code, f.where);
  }
  sinew::testing::ExpectRunsOnAnyThreads(s);              // and nothing wrong: it skins
  EXPECT_EQ(s.out_positions[3 * (kVertices - 1)], 2.0f);  // 1 + 0.25 · 4
}

// The influences' faults come before the palette's and the dual quaternions' (Validate()'s
// order, kept where the influence checks run on the job's threads).
TEST(SkinSparseJob, AnInfluenceFaultComesBeforeThePalettesAndTheDualQuaternions) {
  Skin s = OneVertex();
  s.influences = {{0, 1}, {1}, {-1.0f}, 2};
  s.palette = {Translate(1, 2, 3)};  // too small for two groups
  sinew::testing::ExpectTheSameFaultOnAnyThreads(s, Error::kNegativeWeight,
                                                 "sparse_influences/weights/0");
  s.palette.push_back(Translate(0, 0, 0));
  const std::vector<DualQuaternion> one(1);  // one short of the palette
  for (const uint32_t threads : {1u, 2u}) {
    SkinSparseJob job = s.Job();
    job.dual_quaternions = one;
    job.run.threads = threads;
    job.run.min_vertices_per_thread = sinew::testing::kTestVerticesPerThread;
    EXPECT_EQ(job.Run().code(), Error::kNegativeWeight) << threads << " threads";
  }
}

// ---- Equivalence with dense skinning -----------------------------------------------------------

using Outputs = sinew::testing::MeshOutputs;

float MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  float m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

// Whether vertex v's outputs are bit-identical in a and b.
bool SameVertex(const Outputs& a, const Outputs& b, size_t v) {
  for (size_t c = 0; c < 3; ++c) {
    if (a.positions[v * 3 + c] != b.positions[v * 3 + c]) return false;
    if (!a.normals.empty() && a.normals[v * 3 + c] != b.normals[v * 3 + c]) return false;
  }
  for (size_t c = 0; c < 4 && !a.tangents.empty(); ++c) {
    if (a.tangents[v * 4 + c] != b.tangents[v * 4 + c]) return false;
  }
  return true;
}

procedural::Character Character(uint32_t k) {
  procedural::CharacterOptions options;
  options.vertex_count = 3000;
  options.influences_per_vertex = k;
  auto character = procedural::MakeCharacter(options);
  EXPECT_TRUE(character.ok()) << character.error().ToString();
  return std::move(character.value());
}

// Skins `mesh` densely (its own influences) and sparsely (DenseToSparse of `dense_for_sparse`)
// with one crowd palette; the group palette comes from GroupPaletteJob with group g -> bone g.
void SkinBothWays(const procedural::Character& character, const DenseInfluences& dense_for_sparse,
                  Outputs* dense_out, Outputs* sparse_out) {
  const Primitive& mesh = character.mesh;
  const size_t joint_count = character.skeleton.joint_count();
  std::vector<Float3x4> bones(joint_count);
  ASSERT_TRUE(procedural::CrowdPalette(character.skeleton, 1.3f, 2, bones).ok());

  SkinDenseJob dense = SkinDenseJobFor(mesh, bones);
  dense.out_positions = dense_out->positions;
  dense.out_normals = dense_out->normals;
  dense.out_tangents = dense_out->tangents;
  ASSERT_TRUE(dense.Run().ok());

  auto sparse = DenseToSparse(mesh.vertex_count(), dense_for_sparse, joint_count);
  ASSERT_TRUE(sparse.ok()) << sparse.error().ToString();
  std::vector<int32_t> joints(joint_count);
  for (size_t g = 0; g < joint_count; ++g) joints[g] = static_cast<int32_t>(g);
  std::vector<Float3x4> groups(sparse->group_count);
  GroupPaletteJob group_palette;
  group_palette.joints = joints;
  group_palette.bone_palette = bones;
  group_palette.output = groups;
  ASSERT_TRUE(group_palette.Run().ok());

  SkinSparseJob job;
  job.positions = mesh.positions;
  job.normals = mesh.normals;
  job.tangents = mesh.tangents;
  job.influences = &*sparse;
  job.palette = groups;
  job.out_positions = sparse_out->positions;
  job.out_normals = sparse_out->normals;
  job.out_tangents = sparse_out->tangents;
  ASSERT_TRUE(job.Run().ok());
}

class SparseMatchesDense : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SparseMatchesDense, ForTheProceduralCharacter) {
  const procedural::Character character = Character(GetParam());
  const Primitive& mesh = character.mesh;
  Outputs dense(mesh), sparse(mesh);
  SkinBothWays(character, mesh.influences, &dense, &sparse);
  if (HasFatalFailure()) return;
  // The contract (docs/semantics.md, "Tolerances"), over every vertex.
  const float extent = BoundsDiagonal(mesh.positions);
  EXPECT_LE(MaxAbsDiff(dense.positions, sparse.positions), 1e-6f * extent);
  EXPECT_LE(MaxAbsDiff(dense.normals, sparse.normals), 1e-6f);
  EXPECT_LE(MaxAbsDiff(dense.tangents, sparse.tangents), 1e-6f);
  // What is in fact true: bit-identical wherever the dense slots are already in the sparse order.
  // DenseToSparse then keeps them in slot order minus the zeros, which SkinDenseJob skips too, so
  // both jobs add the same products in the same order and share the per-vertex code
  // (src/cpu/skin_vertex.h). MakeCharacter's slots descend, but a few vertices hold two equal
  // weights with the higher joint first (distances that differ yet round to one weight, e.g. 4
  // of 3000 at K = 12); there the two additions swap and the results may differ by rounding.
  size_t reordered = 0, different = 0;
  for (size_t v = 0; v < mesh.vertex_count(); ++v) {
    if (!InSparseOrder(mesh.influences, v)) {
      ++reordered;
    } else if (!SameVertex(dense, sparse, v)) {
      ADD_FAILURE() << "vertex " << v << " differs although its slots are in the sparse order";
      if (++different == 10) break;
    }
  }
  EXPECT_LT(reordered, mesh.vertex_count() / 100);
}

INSTANTIATE_TEST_SUITE_P(InfluenceCounts, SparseMatchesDense, ::testing::Values(4u, 8u, 12u));

TEST(SkinSparseJob, MatchesDenseWithinToleranceWhenTheDenseSlotsAreNotSorted) {
  // Dense slots reversed (ascending weights): DenseToSparse still sorts them descending, so the
  // two jobs add in opposite orders and may differ by rounding, within the tolerances of
  // docs/semantics.md, "Tolerances".
  procedural::Character character = Character(8);
  Primitive& mesh = character.mesh;
  const uint32_t k = mesh.influences.influences_per_vertex;
  for (size_t v = 0; v < mesh.vertex_count(); ++v) {
    std::reverse(mesh.influences.joints.begin() + v * k,
                 mesh.influences.joints.begin() + v * k + k);
    std::reverse(mesh.influences.weights.begin() + v * k,
                 mesh.influences.weights.begin() + v * k + k);
  }
  Outputs dense(mesh), sparse(mesh);
  SkinBothWays(character, mesh.influences, &dense, &sparse);
  if (HasFatalFailure()) return;
  const float extent = BoundsDiagonal(mesh.positions);
  EXPECT_LE(MaxAbsDiff(dense.positions, sparse.positions), 1e-6f * extent);
  EXPECT_LE(MaxAbsDiff(dense.normals, sparse.normals), 1e-6f);
  EXPECT_LE(MaxAbsDiff(dense.tangents, sparse.tangents), 1e-6f);
}

}  // namespace
}  // namespace sinew::cpu
