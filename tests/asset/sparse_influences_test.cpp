#include "sinew/asset/sparse_influences.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "asset/small_sparse.h"
#include "asset/sparse_order.h"
#include "sinew/procedural/character.h"

// Sparse (CSR) influences (docs/semantics.md, "Sparse skinning"): the validation rules with their
// exact errors, and the conversions both ways. Expected numbers are written out by hand.

namespace sinew {
namespace {

using sinew::testing::InSparseOrder;
using sinew::testing::SmallSparse;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

void ExpectError(const Status& status, Error code, const std::string& where) {
  EXPECT_EQ(status.code(), code) << status.error().ToString();
  EXPECT_EQ(status.error().where, where) << status.error().ToString();
}

// ---- ValidateSparseInfluences -------------------------------------------------------------------

TEST(ValidateSparseInfluences, AcceptsValidInfluencesWithAnEmptyVertexAndATie) {
  const Status status = ValidateSparseInfluences(3, SmallSparse());
  EXPECT_TRUE(status.ok()) << status.error().ToString();
}

TEST(ValidateSparseInfluences, AcceptsNoVerticesAtAll) {
  SparseInfluences s;
  s.offsets = {0};
  s.group_count = 1;
  EXPECT_TRUE(ValidateSparseInfluences(0, s).ok());
}

TEST(ValidateSparseInfluences, AcceptsTheSameGroupAndWeightTwiceInAVertex) {
  SparseInfluences s = SmallSparse();
  s.groups = {2, 0, 3, 3};
  EXPECT_TRUE(ValidateSparseInfluences(3, s).ok());
}

TEST(ValidateSparseInfluences, RejectsOffsetsForAnotherVertexCount) {
  ExpectError(ValidateSparseInfluences(4, SmallSparse()), Error::kSizeMismatch,
              "sparse_influences/offsets");
}

TEST(ValidateSparseInfluences, RejectsEmptyOffsets) {
  SparseInfluences s;
  s.group_count = 1;
  ExpectError(ValidateSparseInfluences(0, s), Error::kSizeMismatch, "sparse_influences/offsets");
}

TEST(ValidateSparseInfluences, RejectsOffsetsThatDoNotStartAtZero) {
  SparseInfluences s = SmallSparse();
  s.offsets = {1, 2, 2, 4};
  ExpectError(ValidateSparseInfluences(3, s), Error::kSizeMismatch, "sparse_influences/offsets/0");
}

TEST(ValidateSparseInfluences, RejectsDecreasingOffsets) {
  SparseInfluences s = SmallSparse();
  s.offsets = {0, 2, 1, 4};
  ExpectError(ValidateSparseInfluences(3, s), Error::kSizeMismatch, "sparse_influences/offsets/2");
}

TEST(ValidateSparseInfluences, RejectsGroupsShorterThanTheOffsetsSay) {
  SparseInfluences s = SmallSparse();
  s.groups.pop_back();
  ExpectError(ValidateSparseInfluences(3, s), Error::kSizeMismatch, "sparse_influences/groups");
}

TEST(ValidateSparseInfluences, RejectsOffsetsEndingShortOfTheEntries) {
  SparseInfluences s = SmallSparse();
  s.offsets = {0, 2, 2, 3};
  ExpectError(ValidateSparseInfluences(3, s), Error::kSizeMismatch, "sparse_influences/groups");
}

TEST(ValidateSparseInfluences, RejectsWeightsOfTheWrongCount) {
  SparseInfluences s = SmallSparse();
  s.weights.push_back(0.0f);
  ExpectError(ValidateSparseInfluences(3, s), Error::kSizeMismatch, "sparse_influences/weights");
}

TEST(ValidateSparseInfluences, RejectsAGroupCountOfZero) {
  SparseInfluences s = SmallSparse();
  s.group_count = 0;
  ExpectError(ValidateSparseInfluences(3, s), Error::kEmptyPalette,
              "sparse_influences/group_count");
}

TEST(ValidateSparseInfluences, RejectsAGroupEqualToTheGroupCount) {
  SparseInfluences s = SmallSparse();
  s.groups[3] = 4;
  ExpectError(ValidateSparseInfluences(3, s), Error::kJointIndexOutOfRange,
              "sparse_influences/groups/3");
}

TEST(ValidateSparseInfluences, RejectsANaNWeight) {
  SparseInfluences s = SmallSparse();
  s.weights[1] = kNaN;
  ExpectError(ValidateSparseInfluences(3, s), Error::kNonFiniteValue,
              "sparse_influences/weights/1");
}

TEST(ValidateSparseInfluences, RejectsAnInfiniteWeight) {
  SparseInfluences s = SmallSparse();
  s.weights[0] = kInfinity;
  ExpectError(ValidateSparseInfluences(3, s), Error::kNonFiniteValue,
              "sparse_influences/weights/0");
}

TEST(ValidateSparseInfluences, RejectsANegativeWeight) {
  SparseInfluences s = SmallSparse();
  s.weights[1] = -0.25f;
  ExpectError(ValidateSparseInfluences(3, s), Error::kNegativeWeight,
              "sparse_influences/weights/1");
}

TEST(ValidateSparseInfluences, RejectsAscendingWeightsWithinAVertex) {
  SparseInfluences s = SmallSparse();
  s.weights = {0.4f, 0.6f, 0.5f, 0.5f};
  ExpectError(ValidateSparseInfluences(3, s), Error::kInvalidArgument,
              "sparse_influences/weights/1");
}

TEST(ValidateSparseInfluences, RejectsATieWithTheHigherGroupFirst) {
  SparseInfluences s = SmallSparse();
  s.groups = {2, 0, 3, 1};
  ExpectError(ValidateSparseInfluences(3, s), Error::kInvalidArgument,
              "sparse_influences/weights/3");
}

TEST(ValidateSparseInfluences, DoesNotCompareWeightsAcrossVertices) {
  // Vertex 0 ends at 0.1, vertex 2 starts at 0.9: each vertex descends on its own.
  SparseInfluences s = SmallSparse();
  s.weights = {0.2f, 0.1f, 0.9f, 0.1f};
  EXPECT_TRUE(ValidateSparseInfluences(3, s).ok());
}

// ---- DenseToSparse -----------------------------------------------------------------------------

TEST(DenseToSparse, DropsZerosSortsDescendingAndBreaksTiesByLowerGroup) {
  DenseInfluences dense;
  dense.influences_per_vertex = 4;
  dense.joints = {2, 3, 4, 1,   // 0.25, 0, 0.5, 0.25: a zero and a tie (2 before 1).
                  0, 1, 2, 3,   // All zero: no entries.
                  0, 3, 0, 0};  // Ascending in the slots.
  dense.weights = {0.25f, 0, 0.5f, 0.25f, 0, 0, 0, 0, 0.125f, 0.875f, 0, 0};
  auto sparse = DenseToSparse(3, dense, 5);
  ASSERT_TRUE(sparse.ok()) << sparse.error().ToString();
  EXPECT_EQ(sparse->offsets, (std::vector<uint32_t>{0, 3, 3, 5}));
  EXPECT_EQ(sparse->groups, (std::vector<uint32_t>{4, 1, 2, 3, 0}));
  EXPECT_EQ(sparse->weights, (std::vector<float>{0.5f, 0.25f, 0.25f, 0.875f, 0.125f}));
  EXPECT_EQ(sparse->group_count, 5u);
  EXPECT_EQ(sparse->entry_count(), 5u);
  EXPECT_TRUE(ValidateSparseInfluences(3, *sparse).ok());
}

TEST(DenseToSparse, RejectsAnInvalidDenseStream) {
  DenseInfluences dense;
  dense.joints = {0, 0, 5, 0};  // Joint 5 of a 5-joint palette.
  dense.weights = {0.5f, 0, 0.5f, 0};
  auto sparse = DenseToSparse(1, dense, 5);
  ExpectError(sparse.status(), Error::kJointIndexOutOfRange, "influences/joints/2");
}

// ---- SparseToDense -----------------------------------------------------------------------------

TEST(SparseToDense, CopiesEntriesUnchangedAndPadsWithGroupZeroWhenNothingIsDropped) {
  auto dense = SparseToDense(3, SmallSparse(), 4);
  ASSERT_TRUE(dense.ok()) << dense.error().ToString();
  EXPECT_EQ(dense->influences_per_vertex, 4u);
  EXPECT_EQ(dense->joints, (std::vector<uint16_t>{2, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0}));
  EXPECT_EQ(dense->weights, (std::vector<float>{0.6f, 0.4f, 0, 0, 0, 0, 0, 0, 0.5f, 0.5f, 0, 0}));
  EXPECT_TRUE(ValidateDenseInfluences(3, 4, dense->joints, dense->weights, 4).ok());
}

// One vertex with six entries summing to 2 (as authored; sparse weights are not normalized).
SparseInfluences SixEntries() {
  SparseInfluences s;
  s.offsets = {0, 6};
  s.groups = {5, 1, 0, 4, 2, 3};
  s.weights = {0.75f, 0.5f, 0.25f, 0.25f, 0.125f, 0.125f};
  s.group_count = 6;
  return s;
}

TEST(SparseToDense, ScalesTheKeptEntriesOfATruncatedVertexToItsAuthoredTotal) {
  // K = 4 keeps 0.75 + 0.5 + 0.25 + 0.25 = 1.75 of 2: each is scaled by 2 / 1.75 = 8/7.
  auto dense = SparseToDense(1, SixEntries(), 4);
  ASSERT_TRUE(dense.ok()) << dense.error().ToString();
  EXPECT_EQ(dense->joints, (std::vector<uint16_t>{5, 1, 0, 4}));
  ASSERT_EQ(dense->weights.size(), 4u);
  EXPECT_FLOAT_EQ(dense->weights[0], 6.0f / 7.0f);
  EXPECT_FLOAT_EQ(dense->weights[1], 4.0f / 7.0f);
  EXPECT_FLOAT_EQ(dense->weights[2], 2.0f / 7.0f);
  EXPECT_FLOAT_EQ(dense->weights[3], 2.0f / 7.0f);
}

TEST(SparseToDense, KeepsEverySixEntriesInEightSlots) {
  auto dense = SparseToDense(1, SixEntries(), 8);
  ASSERT_TRUE(dense.ok()) << dense.error().ToString();
  EXPECT_EQ(dense->joints, (std::vector<uint16_t>{5, 1, 0, 4, 2, 3, 0, 0}));
  EXPECT_EQ(dense->weights, (std::vector<float>{0.75f, 0.5f, 0.25f, 0.25f, 0.125f, 0.125f, 0, 0}));
}

TEST(SparseToDense, LeavesAnAllZeroTruncatedVertexZero) {
  SparseInfluences s = SixEntries();
  s.groups = {0, 1, 2, 3, 4, 5};  // Ties: lower group first.
  s.weights.assign(6, 0.0f);
  auto dense = SparseToDense(1, s, 4);
  ASSERT_TRUE(dense.ok()) << dense.error().ToString();
  EXPECT_EQ(dense->joints, (std::vector<uint16_t>{0, 1, 2, 3}));
  EXPECT_EQ(dense->weights, (std::vector<float>{0, 0, 0, 0}));
}

TEST(SparseToDense, RejectsSixInfluencesPerVertex) {
  ExpectError(SparseToDense(3, SmallSparse(), 6).status(), Error::kInvalidInfluenceCount,
              "influences_per_vertex");
}

TEST(SparseToDense, RejectsZeroInfluencesPerVertex) {
  ExpectError(SparseToDense(3, SmallSparse(), 0).status(), Error::kInvalidInfluenceCount,
              "influences_per_vertex");
}

TEST(SparseToDense, RejectsAGroupThatDoesNotFitSixteenBits) {
  SparseInfluences s;
  s.offsets = {0, 1, 3};
  s.groups = {65535, 70000, 0};
  s.weights = {1, 0.75f, 0.25f};
  s.group_count = 70001;
  ExpectError(SparseToDense(2, s, 4).status(), Error::kUnsupportedFeature,
              "sparse_influences/groups/1");
}

TEST(SparseToDense, AcceptsTheLargestSixteenBitGroup) {
  SparseInfluences s;
  s.offsets = {0, 1};
  s.groups = {65535};
  s.weights = {1};
  s.group_count = 65536;
  auto dense = SparseToDense(1, s, 4);
  ASSERT_TRUE(dense.ok()) << dense.error().ToString();
  EXPECT_EQ(dense->joints, (std::vector<uint16_t>{65535, 0, 0, 0}));
}

TEST(SparseToDense, RejectsInvalidSparseInfluences) {
  SparseInfluences s = SmallSparse();
  s.weights[2] = -1.0f;
  ExpectError(SparseToDense(3, s, 4).status(), Error::kNegativeWeight,
              "sparse_influences/weights/2");
}

// ---- Round trips on the procedural character ---------------------------------------------------

// Vertex v's nonzero (joint, weight) slots in the sparse order.
std::vector<std::pair<float, uint16_t>> SortedSlots(const DenseInfluences& dense, size_t v) {
  const size_t k = dense.influences_per_vertex;
  std::vector<std::pair<float, uint16_t>> slots;
  for (size_t i = v * k; i < (v + 1) * k; ++i) {
    if (dense.weights[i] != 0.0f) slots.push_back({dense.weights[i], dense.joints[i]});
  }
  std::sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  return slots;
}

// (K, joints per limb): 1 joint per limb is a 7-joint skeleton, so K = 8 and 12 leave slots past
// the joint count (joint 0, weight 0) that the round trip must restore.
class SparseRoundTrip : public ::testing::TestWithParam<std::tuple<uint32_t, uint32_t>> {};

TEST_P(SparseRoundTrip, DenseToSparseToDenseRestoresTheCharactersInfluences) {
  // MakeCharacter sorts each vertex's slots by distance to the joint (nearest first, ties by lower
  // joint), so its weights descend; but two different distances can round to the same weight with
  // the higher joint first (on x86-64, vertex 547 of 2000 at K = 4: joints 7 then 5). Such a vertex
  // comes back in the sparse order (5 then 7); every other vertex comes back slot for slot, bit for
  // bit.
  const auto [k, joints_per_limb] = GetParam();
  procedural::CharacterOptions options;
  options.vertex_count = 2000;
  options.influences_per_vertex = k;
  options.joints_per_limb = joints_per_limb;
  auto character = procedural::MakeCharacter(options);
  ASSERT_TRUE(character.ok()) << character.error().ToString();
  const Primitive* mesh = &character->mesh;
  const size_t v_count = mesh->vertex_count();
  const DenseInfluences& original = mesh->influences;

  auto sparse = DenseToSparse(v_count, original, character->skeleton.joint_count());
  ASSERT_TRUE(sparse.ok()) << sparse.error().ToString();
  EXPECT_TRUE(ValidateSparseInfluences(v_count, *sparse).ok());
  EXPECT_EQ(sparse->group_count, character->skeleton.joint_count());
  EXPECT_EQ(sparse->entry_count(),
            v_count * std::min<size_t>(k, character->skeleton.joint_count()));

  auto dense = SparseToDense(v_count, *sparse, k);
  ASSERT_TRUE(dense.ok()) << dense.error().ToString();
  EXPECT_EQ(dense->influences_per_vertex, k);
  ASSERT_EQ(dense->joints.size(), original.joints.size());
  ASSERT_EQ(dense->weights.size(), original.weights.size());
  size_t reordered = 0;
  for (size_t v = 0; v < v_count; ++v) {
    if (InSparseOrder(original, v)) {
      for (size_t i = v * k; i < (v + 1) * k; ++i) {
        EXPECT_EQ(dense->joints[i], original.joints[i]) << "vertex " << v << " slot " << i - v * k;
        EXPECT_EQ(dense->weights[i], original.weights[i])
            << "vertex " << v << " slot " << i - v * k;
      }
    } else {
      ++reordered;
      EXPECT_TRUE(InSparseOrder(*dense, v)) << "vertex " << v;
      EXPECT_EQ(SortedSlots(*dense, v), SortedSlots(original, v)) << "vertex " << v;
    }
  }
  EXPECT_LT(reordered, v_count / 100);  // Rounding ties are rare.
}

INSTANTIATE_TEST_SUITE_P(InfluenceCounts, SparseRoundTrip,
                         ::testing::Values(std::make_tuple(4u, 4u), std::make_tuple(8u, 4u),
                                           std::make_tuple(8u, 1u), std::make_tuple(12u, 1u)));

TEST(SparseToDense, TruncatingTheCharacterKeepsEachVertexsWeightSum) {
  // K = 12 -> sparse -> K = 4 drops 8 entries per vertex and rescales the rest to the old sum, 1.
  procedural::CharacterOptions options;
  options.vertex_count = 500;
  options.influences_per_vertex = 12;
  auto character = procedural::MakeCharacter(options);
  ASSERT_TRUE(character.ok());
  auto sparse = DenseToSparse(500, character->mesh.influences, character->skeleton.joint_count());
  ASSERT_TRUE(sparse.ok());
  auto dense = SparseToDense(500, *sparse, 4);
  ASSERT_TRUE(dense.ok());
  for (size_t v = 0; v < 500; ++v) {
    float sum = 0;
    for (size_t s = 0; s < 4; ++s) {
      EXPECT_EQ(dense->joints[v * 4 + s], character->mesh.influences.joints[v * 12 + s]);
      sum += dense->weights[v * 4 + s];
    }
    EXPECT_NEAR(sum, 1.0f, 1e-6f) << "vertex " << v;
  }
}

}  // namespace
}  // namespace sinew
