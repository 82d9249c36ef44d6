#include "sinew/asset/primitive.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "sinew/asset/skeleton.h"
#include "sinew/cpu/skin_mesh.h"

namespace sinew {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

// Two joints: a root and its child.
Skeleton ValidSkeleton() {
  Skeleton skeleton;
  skeleton.parents = {Skeleton::kNoParent, 0};
  skeleton.rest_local = {Float4x4{}, Translation(0, 1, 0)};
  skeleton.inverse_binds = {Float4x4{}, Translation(0, -1, 0)};
  skeleton.names = {"root", "child"};
  return skeleton;
}

constexpr size_t kJoints = 2;

// Two vertices with normals, tangents and K = 4, skinned by ValidSkeleton's two joints.
Primitive ValidMesh() {
  Primitive mesh;
  mesh.positions = {0, 0, 0, 0, 1, 0};
  mesh.normals = {1, 0, 0, 1, 0, 0};
  mesh.tangents = {0, 0, 1, 1, 0, 0, 1, -1};
  mesh.influences.influences_per_vertex = 4;
  mesh.influences.joints = {0, 0, 0, 0, 1, 0, 0, 0};
  mesh.influences.weights = {1, 0, 0, 0, 0.75f, 0.25f, 0, 0};
  return mesh;
}

void ExpectError(const Status& status, Error code, const std::string& where) {
  EXPECT_EQ(status.code(), code) << status.error().ToString();
  EXPECT_EQ(status.error().where, where) << status.error().ToString();
}

TEST(Skeleton, AcceptsAValidSkeleton) {
  const Status status = ValidSkeleton().Validate();
  EXPECT_TRUE(status.ok()) << status.error().ToString();
}

TEST(Skeleton, AcceptsASkeletonWithoutNames) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.names.clear();
  EXPECT_TRUE(skeleton.Validate().ok());
}

TEST(Skeleton, RejectsRestTransformsOfTheWrongCount) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.rest_local.pop_back();
  ExpectError(skeleton.Validate(), Error::kSizeMismatch, "skeleton/rest_local");
}

TEST(Skeleton, RejectsInverseBindsOfTheWrongCount) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.inverse_binds.push_back(Float4x4{});
  ExpectError(skeleton.Validate(), Error::kSizeMismatch, "skeleton/inverse_binds");
}

TEST(Skeleton, RejectsNamesOfTheWrongCount) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.names.pop_back();
  ExpectError(skeleton.Validate(), Error::kSizeMismatch, "skeleton/names");
}

TEST(Skeleton, RejectsAParentListedAfterItsChild) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.parents = {1, Skeleton::kNoParent};
  ExpectError(skeleton.Validate(), Error::kInvalidHierarchy, "skeleton/parents/0");
}

TEST(Skeleton, RejectsAJointThatIsItsOwnParent) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.parents = {Skeleton::kNoParent, 1};
  ExpectError(skeleton.Validate(), Error::kInvalidHierarchy, "skeleton/parents/1");
}

TEST(Skeleton, RejectsANegativeParentOtherThanNoParent) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.parents = {Skeleton::kNoParent, -7};
  ExpectError(skeleton.Validate(), Error::kInvalidHierarchy, "skeleton/parents/1");
}

TEST(Skeleton, RejectsANonFiniteRestTransform) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.rest_local[1].m[3][1] = kNaN;
  ExpectError(skeleton.Validate(), Error::kNonFiniteValue, "skeleton/rest_local/1");
}

TEST(Skeleton, RejectsANonFiniteInverseBind) {
  Skeleton skeleton = ValidSkeleton();
  skeleton.inverse_binds[0].m[0][0] = kInfinity;
  ExpectError(skeleton.Validate(), Error::kNonFiniteValue, "skeleton/inverse_binds/0");
}

TEST(Primitive, AcceptsAValidMesh) {
  const Status status = ValidMesh().Validate(kJoints);
  EXPECT_TRUE(status.ok()) << status.error().ToString();
}

TEST(Primitive, AcceptsAMeshWithoutNormalsOrTangents) {
  Primitive mesh = ValidMesh();
  mesh.normals.clear();
  mesh.tangents.clear();
  EXPECT_TRUE(mesh.Validate(kJoints).ok());
}

TEST(Primitive, AcceptsEightInfluencesPerVertex) {
  Primitive mesh = ValidMesh();
  mesh.influences.influences_per_vertex = 8;
  mesh.influences.joints = {0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0};
  mesh.influences.weights = {0.5f, 0, 0, 0, 0, 0, 0, 0.5f, 1, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_TRUE(mesh.Validate(kJoints).ok());
}

TEST(Primitive, AcceptsARigidMeshWhateverThePaletteSays) {
  Primitive mesh = ValidMesh();
  mesh.influences = {};
  EXPECT_FALSE(mesh.skinned());
  EXPECT_EQ(mesh.palette_size(kJoints), 1u);
  EXPECT_TRUE(mesh.Validate(0).ok());
}

TEST(Primitive, HasAPaletteOfItsGroupsWhenSparseAndOfTheSkinsJointsWhenDense) {
  Primitive mesh = ValidMesh();
  EXPECT_EQ(mesh.palette_size(7), 7u);
  mesh.influences = {};
  mesh.sparse_influences.offsets = {0, 1, 2};
  mesh.sparse_influences.groups = {0, 4};
  mesh.sparse_influences.weights = {1, 1};
  mesh.sparse_influences.group_count = 5;
  EXPECT_EQ(mesh.palette_size(7), 5u);
  EXPECT_TRUE(mesh.Validate(7).ok());
}

TEST(Primitive, RejectsPositionsThatAreNotWholeTriples) {
  Primitive mesh = ValidMesh();
  mesh.positions.pop_back();
  ExpectError(mesh.Validate(kJoints), Error::kSizeMismatch, "positions");
}

TEST(Primitive, RejectsNormalsOfTheWrongCount) {
  Primitive mesh = ValidMesh();
  mesh.normals.resize(3);
  ExpectError(mesh.Validate(kJoints), Error::kSizeMismatch, "normals");
}

TEST(Primitive, RejectsTangentsOfTheWrongCount) {
  Primitive mesh = ValidMesh();
  mesh.tangents.resize(6);  // xyz without w.
  ExpectError(mesh.Validate(kJoints), Error::kSizeMismatch, "tangents");
}

TEST(Primitive, RejectsANonFinitePosition) {
  Primitive mesh = ValidMesh();
  mesh.positions[4] = kInfinity;
  ExpectError(mesh.Validate(kJoints), Error::kNonFiniteValue, "positions/1");
}

TEST(Primitive, RejectsZeroInfluencesPerVertex) {
  Primitive mesh = ValidMesh();
  mesh.influences.influences_per_vertex = 0;
  ExpectError(mesh.Validate(kJoints), Error::kInvalidInfluenceCount,
              "influences/influences_per_vertex");
}

TEST(Primitive, RejectsInfluencesNotAMultipleOfFour) {
  Primitive mesh = ValidMesh();
  mesh.influences.influences_per_vertex = 2;
  mesh.influences.joints = {0, 0, 1, 0};
  mesh.influences.weights = {1, 0, 1, 0};
  ExpectError(mesh.Validate(kJoints), Error::kInvalidInfluenceCount,
              "influences/influences_per_vertex");
}

TEST(Primitive, RejectsJointsOfTheWrongCount) {
  Primitive mesh = ValidMesh();
  mesh.influences.joints.pop_back();
  ExpectError(mesh.Validate(kJoints), Error::kSizeMismatch, "influences/joints");
}

TEST(Primitive, RejectsWeightsOfTheWrongCount) {
  Primitive mesh = ValidMesh();
  mesh.influences.weights.push_back(0);
  ExpectError(mesh.Validate(kJoints), Error::kSizeMismatch, "influences/weights");
}

TEST(Primitive, RejectsADenseMeshWithAnEmptyPalette) {
  Primitive mesh = ValidMesh();
  ExpectError(mesh.Validate(0), Error::kEmptyPalette, "palette");
}

TEST(Primitive, RejectsAJointIndexPastTheSkeleton) {
  Primitive mesh = ValidMesh();
  mesh.influences.joints[5] = 2;  // Vertex 1, slot 1; the skeleton has joints 0 and 1.
  ExpectError(mesh.Validate(kJoints), Error::kJointIndexOutOfRange, "influences/joints/5");
}

TEST(Primitive, RejectsANegativeWeight) {
  Primitive mesh = ValidMesh();
  mesh.influences.weights[6] = -0.5f;
  ExpectError(mesh.Validate(kJoints), Error::kNegativeWeight, "influences/weights/6");
}

TEST(Primitive, RejectsANonFiniteWeight) {
  Primitive mesh = ValidMesh();
  mesh.influences.weights[3] = kNaN;
  ExpectError(mesh.Validate(kJoints), Error::kNonFiniteValue, "influences/weights/3");
}

// Half an influence stream is not a rigid mesh: dense weights without their joints, sparse groups
// and weights without their offsets, are refused (Validate, and cpu::SkinMesh through
// ValidateInfluenceKind), as is a mesh with both kinds.
TEST(Primitive, RejectsHalfAnInfluenceStreamAndTwoKindsAtOnce) {
  Primitive dense = ValidMesh();
  dense.influences.joints.clear();
  ExpectError(dense.Validate(kJoints), Error::kSizeMismatch, "influences/joints");
  std::vector<float> out(6);
  const std::vector<Float3x4> palette(kJoints);
  ExpectError(cpu::SkinMesh(dense, palette, out, {}, {}), Error::kSizeMismatch,
              "influences/joints");
  Primitive sparse = ValidMesh();
  sparse.normals.clear();
  sparse.tangents.clear();
  sparse.influences = {};
  sparse.sparse_influences.group_count = 2;
  sparse.sparse_influences.groups = {0, 1};
  sparse.sparse_influences.weights = {1, 1};
  ExpectError(sparse.Validate(kJoints), Error::kSizeMismatch, "sparse_influences/offsets");
  ExpectError(cpu::SkinMesh(sparse, palette, out, {}, {}), Error::kSizeMismatch,
              "sparse_influences/offsets");
  sparse.sparse_influences.offsets = {0, 1, 2};
  ASSERT_TRUE(sparse.Validate(kJoints).ok());
  sparse.influences = ValidMesh().influences;
  ExpectError(sparse.Validate(kJoints), Error::kInvalidArgument, "influences");
  ExpectError(cpu::SkinMesh(sparse, palette, out, {}, {}), Error::kInvalidArgument, "influences");
}

TEST(ValidateDenseInfluences, ChecksInTheDocumentedOrder) {
  const std::vector<uint16_t> joints = {0, 0, 0, 9};
  const std::vector<float> weights = {1, 0, 0, -1};
  // A bad K is reported before the sizes, sizes before the palette, the palette before indices.
  ExpectError(ValidateDenseInfluences(2, 3, joints, weights, 0), Error::kInvalidInfluenceCount,
              "influences/influences_per_vertex");
  ExpectError(ValidateDenseInfluences(2, 4, joints, weights, 0), Error::kSizeMismatch,
              "influences/joints");
  ExpectError(ValidateDenseInfluences(1, 4, joints, weights, 0), Error::kEmptyPalette, "palette");
  ExpectError(ValidateDenseInfluences(1, 4, joints, weights, 9), Error::kJointIndexOutOfRange,
              "influences/joints/3");
  ExpectError(ValidateDenseInfluences(1, 4, joints, weights, 10), Error::kNegativeWeight,
              "influences/weights/3");
}

TEST(ValidateDenseInfluences, AcceptsNoVertices) {
  EXPECT_TRUE(ValidateDenseInfluences(0, 4, {}, {}, 1).ok());
}

}  // namespace
}  // namespace sinew
