#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "sinew/cpu/skin_dense_job.h"

namespace sinew::procedural {
namespace {

Character Make(uint32_t vertices, uint32_t k = 4, uint32_t seed = 1) {
  CharacterOptions o;
  o.vertex_count = vertices;
  o.influences_per_vertex = k;
  o.seed = seed;
  auto mesh = MakeCharacter(o);
  EXPECT_TRUE(mesh.ok()) << mesh.error().ToString();
  return std::move(mesh.value());
}

template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool SameBytes(const Character& a, const Character& b) {
  const Primitive &am = a.mesh, &bm = b.mesh;
  return SameBytes(am.positions, bm.positions) && SameBytes(am.normals, bm.normals) &&
         SameBytes(am.tangents, bm.tangents) &&
         SameBytes(am.influences.joints, bm.influences.joints) &&
         SameBytes(am.influences.weights, bm.influences.weights) &&
         SameBytes(a.skeleton.parents, b.skeleton.parents) &&
         SameBytes(a.skeleton.rest_local, b.skeleton.rest_local) &&
         SameBytes(a.skeleton.inverse_binds, b.skeleton.inverse_binds) &&
         a.skeleton.names == b.skeleton.names;
}

TEST(MakeCharacter, ProducesExactlyTheRequestedVertexCount) {
  for (uint32_t vertices : {1u, 63u, 64u, 65u, 20000u}) {
    const Character character = Make(vertices);
    const Primitive& mesh = character.mesh;
    EXPECT_EQ(mesh.vertex_count(), vertices);
    EXPECT_EQ(mesh.positions.size(), vertices * 3u);
    EXPECT_EQ(mesh.normals.size(), vertices * 3u);
    EXPECT_EQ(mesh.tangents.size(), vertices * 4u);
    EXPECT_EQ(mesh.influences.joints.size(), vertices * 4u);
    EXPECT_EQ(mesh.influences.weights.size(), vertices * 4u);
  }
}

TEST(MakeCharacter, PassesValidation) {
  for (uint32_t k : {4u, 8u, 12u}) {
    const Character character = Make(1000, k);
    const Primitive& mesh = character.mesh;
    EXPECT_EQ(mesh.influences.influences_per_vertex, k);
    const Status status = mesh.Validate(character.skeleton.joint_count());
    EXPECT_TRUE(status.ok()) << "K=" << k << ": " << status.error().ToString();
  }
}

TEST(MakeCharacter, BuildsASkeletonOfOneRootAndSixLimbs) {
  for (uint32_t joints_per_limb : {1u, 3u, 4u}) {
    CharacterOptions o;
    o.vertex_count = 50;
    o.joints_per_limb = joints_per_limb;
    auto mesh = MakeCharacter(o);
    ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
    const Skeleton& skeleton = mesh->skeleton;
    ASSERT_EQ(skeleton.joint_count(), 1 + 6 * joints_per_limb);
    EXPECT_EQ(skeleton.parents[0], Skeleton::kNoParent);
    for (size_t j = 1; j < skeleton.joint_count(); ++j) {
      EXPECT_GE(skeleton.parents[j], 0);
      EXPECT_LT(skeleton.parents[j], static_cast<int32_t>(j));
    }
    ASSERT_EQ(skeleton.names.size(), skeleton.joint_count());
    EXPECT_EQ(skeleton.names[0], "pelvis");
    EXPECT_EQ(skeleton.names[1], "spine_0");
    EXPECT_TRUE(skeleton.Validate().ok());
  }
}

TEST(MakeCharacter, FillsSlotsPastTheJointCountWithJointZeroAndWeightZero) {
  CharacterOptions o;
  o.vertex_count = 10;
  o.joints_per_limb = 1;  // 7 joints.
  o.influences_per_vertex = 12;
  auto mesh = MakeCharacter(o);
  ASSERT_TRUE(mesh.ok()) << mesh.error().ToString();
  for (size_t v = 0; v < mesh->mesh.vertex_count(); ++v) {
    for (size_t s = 7; s < 12; ++s) {
      EXPECT_EQ(mesh->mesh.influences.joints[v * 12 + s], 0);
      EXPECT_EQ(mesh->mesh.influences.weights[v * 12 + s], 0.0f);
    }
    EXPECT_GT(mesh->mesh.influences.weights[v * 12 + 6], 0.0f);
  }
}

TEST(MakeCharacter, WeightsSumToOneAndDescend) {
  for (uint32_t k : {4u, 8u, 12u}) {
    const Character character = Make(2000, k);
    const Primitive& mesh = character.mesh;
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
      const float* w = &mesh.influences.weights[v * k];
      float sum = 0.0f;
      for (uint32_t s = 0; s < k; ++s) {
        sum += w[s];
        if (s > 0) {
          ASSERT_LE(w[s], w[s - 1]) << "vertex " << v << " slot " << s;
        }
      }
      ASSERT_NEAR(sum, 1.0f, 1e-5f) << "vertex " << v;
      EXPECT_GT(w[0], 0.0f);
    }
  }
}

TEST(MakeCharacter, IsDeterministicForASeed) {
  const Character a = Make(3000, 8, 7);
  const Character b = Make(3000, 8, 7);
  const Character c = Make(3000, 8, 8);
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_FALSE(SameBytes(a.mesh.positions, c.mesh.positions));
  EXPECT_FALSE(SameBytes(a.skeleton.rest_local, c.skeleton.rest_local));
}

TEST(MakeCharacter, RejectsZeroVertices) {
  CharacterOptions o;
  o.vertex_count = 0;
  auto mesh = MakeCharacter(o);
  EXPECT_EQ(mesh.code(), Error::kInvalidArgument);
  EXPECT_EQ(mesh.error().where, "vertex_count");
}

TEST(MakeCharacter, RejectsZeroJointsPerLimb) {
  CharacterOptions o;
  o.joints_per_limb = 0;
  auto mesh = MakeCharacter(o);
  EXPECT_EQ(mesh.code(), Error::kInvalidArgument);
  EXPECT_EQ(mesh.error().where, "joints_per_limb");
}

TEST(MakeCharacter, RejectsInfluenceCountNotMultipleOfFour) {
  for (uint32_t k : {0u, 1u, 3u, 5u, 6u, 10u}) {
    CharacterOptions o;
    o.vertex_count = 10;
    o.influences_per_vertex = k;
    auto mesh = MakeCharacter(o);
    EXPECT_EQ(mesh.code(), Error::kInvalidInfluenceCount) << "K=" << k;
  }
}

TEST(MakeCharacter, OmitsNormalsAndTangentsWhenAskedTo) {
  CharacterOptions o;
  o.vertex_count = 100;
  o.with_normals = false;
  o.with_tangents = false;
  auto mesh = MakeCharacter(o);
  ASSERT_TRUE(mesh.ok());
  EXPECT_TRUE(mesh->mesh.normals.empty());
  EXPECT_TRUE(mesh->mesh.tangents.empty());
  EXPECT_EQ(mesh->mesh.positions.size(), 300u);
}

TEST(MakeCharacter, RestPoseSkinsToRestPositions) {
  for (uint32_t k : {4u, 12u}) {
    const Character character = Make(5000, k);
    const Primitive& mesh = character.mesh;
    std::vector<Float3x4> palette(character.skeleton.joint_count());
    ASSERT_TRUE(RestPalette(character.skeleton, palette).ok());

    std::vector<float> positions(mesh.positions.size()), normals(mesh.normals.size()),
        tangents(mesh.tangents.size());
    cpu::SkinDenseJob skin = cpu::SkinDenseJobFor(mesh, palette);
    skin.out_positions = positions;
    skin.out_normals = normals;
    skin.out_tangents = tangents;
    const Status status = skin.Run();
    ASSERT_TRUE(status.ok()) << status.error().ToString();

    const float extent = BoundsDiagonal(mesh.positions);
    ASSERT_GT(extent, 1.0f);  // A human-sized figure.
    for (size_t i = 0; i < positions.size(); ++i) {
      ASSERT_NEAR(positions[i], mesh.positions[i], 1e-5f * extent) << "float " << i;
    }
    for (size_t i = 0; i < normals.size(); ++i) ASSERT_NEAR(normals[i], mesh.normals[i], 1e-5f);
    for (size_t i = 0; i < tangents.size(); ++i) ASSERT_NEAR(tangents[i], mesh.tangents[i], 1e-5f);
  }
}

TEST(MakeCharacter, NormalsAndTangentsAreUnitLength) {
  const Character character = Make(4000);
  const Primitive& mesh = character.mesh;
  for (size_t v = 0; v < mesh.vertex_count(); ++v) {
    const Float3 n{mesh.normals[v * 3], mesh.normals[v * 3 + 1], mesh.normals[v * 3 + 2]};
    const Float3 t{mesh.tangents[v * 4], mesh.tangents[v * 4 + 1], mesh.tangents[v * 4 + 2]};
    ASSERT_NEAR(Length(n), 1.0f, 1e-5f) << "vertex " << v;
    ASSERT_NEAR(Length(t), 1.0f, 1e-5f) << "vertex " << v;
    ASSERT_NEAR(Dot(n, t), 0.0f, 1e-5f) << "vertex " << v;
    const float w = mesh.tangents[v * 4 + 3];
    ASSERT_TRUE(w == 1.0f || w == -1.0f) << "vertex " << v << " w " << w;
  }
}

TEST(MakeCharacter, GivesTheSingleVertexOfATinyMeshValidAttributes) {
  const Character character = Make(1, 8);
  const Primitive& mesh = character.mesh;
  ASSERT_EQ(mesh.vertex_count(), 1u);
  for (float x : mesh.positions) EXPECT_TRUE(std::isfinite(x));
  EXPECT_NEAR(Length({mesh.normals[0], mesh.normals[1], mesh.normals[2]}), 1.0f, 1e-5f);
  EXPECT_NEAR(Length({mesh.tangents[0], mesh.tangents[1], mesh.tangents[2]}), 1.0f, 1e-5f);
  EXPECT_TRUE(mesh.Validate(character.skeleton.joint_count()).ok());
}

TEST(PoseCharacter, IsRepeatableAndDiffersBetweenInstancesAndTimes) {
  const Character character = Make(10);
  const size_t j = character.skeleton.joint_count();
  std::vector<Float4x4> a(j), again(j), other_instance(j), later(j);
  ASSERT_TRUE(PoseCharacter(character.skeleton, 0.5f, 3, a).ok());
  ASSERT_TRUE(PoseCharacter(character.skeleton, 0.5f, 3, again).ok());
  ASSERT_TRUE(PoseCharacter(character.skeleton, 0.5f, 4, other_instance).ok());
  ASSERT_TRUE(PoseCharacter(character.skeleton, 0.9f, 3, later).ok());
  EXPECT_TRUE(SameBytes(a, again));
  EXPECT_FALSE(SameBytes(a, other_instance));
  EXPECT_FALSE(SameBytes(a, later));
}

TEST(PoseCharacter, RotatesEachJointAboutItsRestTransform) {
  const Character character = Make(10);
  const size_t j = character.skeleton.joint_count();
  std::vector<Float4x4> locals(j);
  ASSERT_TRUE(PoseCharacter(character.skeleton, 1.25f, 2, locals).ok());
  for (size_t i = 0; i < j; ++i) {
    const Float4x4& rest = character.skeleton.rest_local[i];
    // Same translation: the rotation is applied on the joint's side of its rest transform.
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(locals[i].m[3][r], rest.m[3][r], 1e-6f);
    // Still a rotation: orthonormal columns.
    for (int c = 0; c < 3; ++c) {
      const Float3 column{locals[i].m[c][0], locals[i].m[c][1], locals[i].m[c][2]};
      EXPECT_NEAR(Length(column), 1.0f, 1e-5f);
    }
  }
}

TEST(PoseCharacter, RejectsWrongSize) {
  const Character character = Make(10);
  std::vector<Float4x4> too_few(character.skeleton.joint_count() - 1);
  Status status = PoseCharacter(character.skeleton, 0.0f, 0, too_few);
  EXPECT_EQ(status.code(), Error::kSizeMismatch);
  EXPECT_EQ(status.error().where, "out_locals");
  std::vector<Float4x4> too_many(character.skeleton.joint_count() + 1);
  EXPECT_EQ(PoseCharacter(character.skeleton, 0.0f, 0, too_many).code(), Error::kSizeMismatch);
}

}  // namespace
}  // namespace sinew::procedural
