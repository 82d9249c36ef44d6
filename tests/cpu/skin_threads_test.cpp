// The CPU reference split over threads (the skinning jobs' `threads`, SkinMesh's and
// DeformPrimitive's): every method and layout gives the one-thread outputs bit for bit, whatever
// the number of threads, on a procedural character large enough to be split.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sinew/asset/influence_layout.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/thread_count.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/procedural/face_shapes.h"

namespace sinew::cpu {
namespace {

struct Outputs {
  std::vector<float> positions, normals, tangents;
  bool operator==(const Outputs& o) const {
    const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
      return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 4) == 0;
    };
    return same(positions, o.positions) && same(normals, o.normals) && same(tangents, o.tangents);
  }
};

struct Fixture {
  Primitive mesh;
  std::vector<Float3x4> palette;
  std::vector<float> weights;  // morph weights (empty: none)
};

// 50,001 vertices, K = 8: split into up to 12 ranges (4,096 vertices or more each), the last one
// shorter.
Fixture Character() {
  procedural::CharacterOptions o;
  o.vertex_count = 50001;
  o.influences_per_vertex = 8;
  auto c = procedural::MakeCharacter(o);
  EXPECT_TRUE(c.ok());
  Fixture f;
  f.mesh = std::move(c->mesh);
  f.palette.resize(c->skeleton.joint_count());
  EXPECT_TRUE(procedural::CrowdPalette(c->skeleton, 0.4f, 3, f.palette).ok());
  return f;
}

Outputs Skin(const Fixture& f, uint32_t threads, bool rigid = false) {
  Outputs out;
  out.positions.resize(f.mesh.positions.size());
  out.normals.resize(f.mesh.normals.size());
  out.tangents.resize(f.mesh.tangents.size());
  const Status s =
      rigid ? SkinAttributes(f.mesh, {f.mesh.positions, f.mesh.normals, f.mesh.tangents}, f.palette,
                             out.positions, out.normals, out.tangents, true, threads)
            : SkinMesh(f.mesh, f.palette, f.weights, out.positions, out.normals, out.tangents,
                       threads);
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

void ExpectTheSameOnAnyThreads(const Fixture& f, bool rigid = false) {
  const Outputs one = Skin(f, 1, rigid);
  ASSERT_FALSE(one.positions.empty());
  for (uint32_t threads : {2u, 3u, 7u, 64u, 0u}) {
    EXPECT_TRUE(Skin(f, threads, rigid) == one) << threads << " threads";
  }
}

TEST(SkinThreads, LinearBlendingIsTheSameOnAnyNumberOfThreads) {
  ExpectTheSameOnAnyThreads(Character());
}

TEST(SkinThreads, UsdSkelsPerJointNormalsAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  f.mesh.normal_blend = NormalBlend::kPerJoint;
  ExpectTheSameOnAnyThreads(f);
}

TEST(SkinThreads, DualQuaternionsAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  f.mesh.skinning = SkinningMethod::kDualQuaternion;
  ExpectTheSameOnAnyThreads(f);
}

TEST(SkinThreads, SparseInfluencesAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  ASSERT_TRUE(UseInfluenceLayout(f.mesh, InfluenceLayout::kSparse, 0, f.palette.size()).ok());
  ASSERT_TRUE(f.mesh.sparse());
  ExpectTheSameOnAnyThreads(f);
}

TEST(SkinThreads, ARigidMeshIsTheSameOnAnyNumberOfThreads) {
  ExpectTheSameOnAnyThreads(Character(), true);
}

TEST(SkinThreads, MorphTargetsThenSkinningAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  procedural::FaceShapeOptions o;
  o.shapes = 6;
  auto shapes = procedural::MakeFaceShapes(f.mesh, o);
  ASSERT_TRUE(shapes.ok());
  f.mesh.targets = shapes->targets;
  f.weights.assign(f.mesh.targets.size(), 0.5f);
  ExpectTheSameOnAnyThreads(f);
}

TEST(SkinThreads, ZeroThreadsMeansEveryHardwareThread) {
  EXPECT_GE(ThreadCount(0), 1u);
  EXPECT_EQ(ThreadCount(3), 3u);
}

}  // namespace
}  // namespace sinew::cpu
