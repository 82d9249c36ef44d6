// How the CPU skinning runs (sinew/cpu/skin_run.h: threads, eight or four vertices at a time)
// never changes what it computes: every method and layout, vectorized or not, on any number of
// threads, gives the scalar one-thread outputs bit for bit — on a procedural character large
// enough to be split, and on meshes of 1 to 9 vertices (the vectorized blocks and the scalar
// tail).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "sinew/asset/influence_layout.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/skin_run.h"
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

// Skins `f` as `run` says, with ranges of 4,096 vertices or more (not the default 32,768), so
// that these meshes of some thousands of vertices split over the threads asked for.
Outputs Skin(const Fixture& f, SkinRun run, bool rigid = false) {
  run.min_vertices_per_thread = 4096;
  Outputs out;
  out.positions.resize(f.mesh.positions.size());
  out.normals.resize(f.mesh.normals.size());
  out.tangents.resize(f.mesh.tangents.size());
  const Status s =
      rigid ? SkinAttributes(f.mesh, {f.mesh.positions, f.mesh.normals, f.mesh.tangents}, f.palette,
                             out.positions, out.normals, out.tangents, true, run)
            : SkinMesh(f.mesh, f.palette, f.weights, out.positions, out.normals, out.tangents, run);
  EXPECT_TRUE(s.ok()) << s.error().ToString();
  return out;
}

// A run of `threads` threads with AVX-512 turned off.
SkinRun WithoutAvx512(uint32_t threads) {
  SkinRun run{threads, true};
  run.avx512 = false;
  return run;
}

// The scalar code on one thread is the reference; vectorized or not, eight or four vertices at a
// time (where the CPU has AVX, four is asked for explicitly), eight with AVX-512's sums or AVX's
// (where the CPU has both), on any threads, the same.
void ExpectTheSameOnAnyThreads(const Fixture& f, bool rigid = false) {
  const Outputs scalar = Skin(f, {1, false}, rigid);
  ASSERT_FALSE(scalar.positions.empty());
  for (uint32_t threads : {1u, 2u, 3u, 7u, 64u, 0u}) {
    for (SkinRun run : {SkinRun{threads, false}, SkinRun{threads, true, 4}, SkinRun{threads, true},
                        WithoutAvx512(threads)}) {
      EXPECT_TRUE(Skin(f, run, rigid) == scalar)
          << threads << " threads, vectorized " << run.vectorized << ", at most " << run.max_lanes
          << " lanes, AVX-512 " << SkinsWithAvx512(f.mesh, run);
    }
  }
}

// The palette's dual quaternions, as SkinMesh makes them.
std::vector<DualQuaternion> DualQuaternions(std::span<const Float3x4> palette) {
  std::vector<DualQuaternion> out(palette.size());
  DualQuaternionPaletteJob job;
  job.palette = palette;
  job.output = out;
  EXPECT_TRUE(job.Run().ok());
  return out;
}

// A character of `vertices` vertices with K = `k` whose palette is the crowd's at `time` and
// `variant`, then `extra` identity entries for a test to fill.
Fixture CharacterOf(size_t vertices, uint32_t k, float time, uint32_t variant, size_t extra = 0) {
  procedural::CharacterOptions o;
  o.vertex_count = uint32_t(vertices);
  o.influences_per_vertex = k;
  auto c = procedural::MakeCharacter(o);
  EXPECT_TRUE(c.ok());
  Fixture f;
  f.mesh = std::move(c->mesh);
  const size_t joints = c->skeleton.joint_count();
  f.palette.resize(joints + extra);
  EXPECT_TRUE(
      procedural::CrowdPalette(c->skeleton, time, variant, std::span(f.palette).first(joints))
          .ok());
  return f;
}

// Zero-length normals (every 11th vertex) and tangents (every 13th), which skinning keeps.
void ZeroSomeNormalsAndTangents(Fixture& f) {
  for (size_t v = 0; v < f.mesh.vertex_count(); ++v) {
    if (v % 11 == 0) {
      for (int k = 0; k < 3; ++k) f.mesh.normals[v * 3 + size_t(k)] = 0.0f;
    }
    if (v % 13 == 0) {
      for (int k = 0; k < 3; ++k) f.mesh.tangents[v * 4 + size_t(k)] = 0.0f;
    }
  }
}

// The first `n` vertices of the character, with its influences.
Fixture FirstVertices(const Fixture& f, size_t n) {
  Fixture out = f;
  const size_t k = f.mesh.influences.influences_per_vertex;
  out.mesh.positions.resize(n * 3);
  out.mesh.normals.resize(n * 3);
  out.mesh.tangents.resize(n * 4);
  out.mesh.influences.joints.resize(n * k);
  out.mesh.influences.weights.resize(n * k);
  out.mesh.indices.clear();
  return out;
}

TEST(SkinRun, LinearBlendingIsTheSameOnAnyNumberOfThreads) {
  ExpectTheSameOnAnyThreads(Character());
}

TEST(SkinRun, UsdSkelsPerJointNormalsAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  f.mesh.normal_blend = NormalBlend::kPerJoint;
  ExpectTheSameOnAnyThreads(f);
}

// `f` skinned with dual quaternions, with its palette (which must have no scale) and again with
// joint 1 scaled (the scale sums too): the same on any threads, vectorized or not.
void ExpectDualQuaternionsTheSameWithAndWithoutScale(Fixture f) {
  f.mesh.skinning = SkinningMethod::kDualQuaternion;
  ASSERT_FALSE(HasScale(DualQuaternions(f.palette)));
  ExpectTheSameOnAnyThreads(f);
  for (Float4& row : f.palette[1].row) row.x *= 1.5f;
  ASSERT_TRUE(HasScale(DualQuaternions(f.palette)));
  ExpectTheSameOnAnyThreads(f);
}

// Dual quaternions go eight at a time where the CPU has AVX, with the crowd's palette (no scale)
// and with one joint scaled.
TEST(SkinRun, DualQuaternionsAreTheSameOnAnyNumberOfThreads) {
  ExpectDualQuaternionsTheSameWithAndWithoutScale(Character());
}

TEST(SkinRun, SparseInfluencesAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  ASSERT_TRUE(UseInfluenceLayout(f.mesh, InfluenceLayout::kSparse, 0, f.palette.size()).ok());
  ASSERT_TRUE(f.mesh.sparse());
  ExpectTheSameOnAnyThreads(f);
}

TEST(SkinRun, ARigidMeshIsTheSameOnAnyNumberOfThreads) {
  ExpectTheSameOnAnyThreads(Character(), true);
}

TEST(SkinRun, MorphTargetsThenSkinningAreTheSameOnAnyNumberOfThreads) {
  Fixture f = Character();
  procedural::FaceShapeOptions o;
  o.shapes = 6;
  auto shapes = procedural::MakeFaceShapes(f.mesh, o);
  ASSERT_TRUE(shapes.ok());
  f.mesh.targets = shapes->targets;
  f.weights.assign(f.mesh.targets.size(), 0.5f);
  ExpectTheSameOnAnyThreads(f);
}

// 1 to 9 vertices: no block of four, one with a tail of 1 to 3, two blocks (or one of eight);
// linear blending and dual quaternions.
TEST(SkinRun, SmallMeshesAreTheSameVectorizedAsScalar) {
  Fixture f = Character();
  for (SkinningMethod method : {SkinningMethod::kLinear, SkinningMethod::kDualQuaternion}) {
    f.mesh.skinning = method;
    for (size_t n = 1; n <= 9; ++n) ExpectTheSameOnAnyThreads(FirstVertices(f, n));
  }
}

// Vertices without influence (every weight +0 or -0: the identity), with one subnormal weight
// (not the identity), with one joint, with weights not summing to 1, and a palette entry that
// mirrors (negative determinant): the lanes keep them apart.
TEST(SkinRun, UnweightedMirroredAndUnnormalizedVerticesAreTheSameVectorizedAsScalar) {
  Fixture f = FirstVertices(Character(), 4096 + 7);
  const size_t k = f.mesh.influences.influences_per_vertex;
  std::vector<float>& w = f.mesh.influences.weights;
  for (size_t v = 0; v < f.mesh.vertex_count(); v += 5) {
    for (size_t i = 0; i < k; ++i) w[v * k + i] = (v / 5) % 2 ? -0.0f : 0.0f;
  }
  for (size_t v = 1; v < f.mesh.vertex_count(); v += 7) w[v * k] *= 3.0f;
  for (size_t v = 5; v < f.mesh.vertex_count(); v += 17) {
    for (size_t i = 0; i < k; ++i) w[v * k + i] = i == 2 ? 1.0e-40f : 0.0f;
  }
  for (Float4& row : f.palette[1].row) row.x = -row.x;
  ExpectTheSameOnAnyThreads(f);
}

// K = 4, with what the lanes must keep apart: -0 weights (skipped, as 0), vertices whose four
// weights are all +0 or -0 (the identity) and one whose only weight is subnormal (not the
// identity), zero-length normals and tangents (kept), a singular palette entry (determinant 0)
// and one that mirrors, and a joint whose entry is never weighted but holds infinities (a skipped
// weight never reads it into a sum).
// Then again with that entry finite and huge: the vectorized path without the zero-weight mask.
TEST(SkinRun, EdgeCasesOfFourInfluencesAreTheSameVectorizedAsScalar) {
  Fixture f = CharacterOf(4096 * 2 + 3, 4, 0.7f, 2, 1);
  const size_t unused = f.palette.size() - 1;
  for (Float4& row : f.palette[unused].row) row = {INFINITY, -INFINITY, INFINITY, 1.0f};
  for (Float4& row : f.palette[2].row) row.y = 0.0f, row.x = 0.0f;  // singular
  for (Float4& row : f.palette[3].row) row.z = -row.z;              // mirrors
  std::vector<float>& w = f.mesh.influences.weights;
  std::vector<uint16_t>& j = f.mesh.influences.joints;
  for (size_t v = 0; v < f.mesh.vertex_count(); ++v) {
    if (v % 3 == 0) w[v * 4 + 3] = -0.0f, j[v * 4 + 3] = uint16_t(unused);
    if (v % 7 == 2) {
      for (int k = 0; k < 4; ++k) w[v * 4 + size_t(k)] = v % 2 ? -0.0f : 0.0f;
    }
    if (v % 17 == 5) {
      for (int k = 0; k < 4; ++k) w[v * 4 + size_t(k)] = k == 1 ? 1.0e-40f : 0.0f;
    }
  }
  ZeroSomeNormalsAndTangents(f);
  ExpectTheSameOnAnyThreads(f);
  for (Float4& row : f.palette[unused].row) row = {3.0e38f, -3.0e38f, 3.0e38f, 1.0f};
  ExpectTheSameOnAnyThreads(f);
}

// On x86-64 the vectorized path is compiled in, so the comparisons above compare two codes,
// three where the CPU has AVX and four where it has AVX-512 as well (a CPU without AVX-512
// cannot run that code, so there it goes untested): GCC and Clang builds take
// eight lanes exactly where there is AVX, and sum with AVX-512 exactly where there is that too,
// eight lanes are taken and the run does not turn it off.
TEST(SkinRun, TheVectorizedPathIsThereOnX8664) {
#if (defined(__x86_64__)) && (defined(__GNUC__) || defined(__clang__))
  EXPECT_EQ(WidestSkinLanes(), __builtin_cpu_supports("avx") ? 8u : 4u);
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  const Fixture f = Character();
  EXPECT_EQ(SkinsWithAvx512(f.mesh, SkinRun{}), avx512);
  EXPECT_FALSE(SkinsWithAvx512(f.mesh, WithoutAvx512(1)));
  EXPECT_FALSE(SkinsWithAvx512(f.mesh, SkinRun{1, true, 4}));
  EXPECT_FALSE(SkinsWithAvx512(f.mesh, SkinRun{1, false}));
#elif defined(__x86_64__) || defined(_M_X64)
  EXPECT_EQ(WidestSkinLanes(), 4u);
#else
  GTEST_SKIP() << "no vectorized path on this architecture";
#endif
}

// Sparse entries as they come from files rather than from DenseToSparse: 0 to 6 entries a vertex
// (none: the vertex keeps its rest attributes), trailing zero weights, and a zero-weighted group
// whose entry holds infinities; then again with that entry finite and huge (the vectorized path
// without the zero-weight mask).
TEST(SkinRun, EdgeCasesOfSparseInfluencesAreTheSameVectorizedAsScalar) {
  procedural::CharacterOptions o;
  o.vertex_count = 4096 * 2 + 3;
  auto c = procedural::MakeCharacter(o);
  ASSERT_TRUE(c.ok());
  Fixture f;
  f.mesh = std::move(c->mesh);
  const uint32_t joints = uint32_t(c->skeleton.joint_count());
  f.palette.resize(joints + 1);
  ASSERT_TRUE(
      procedural::CrowdPalette(c->skeleton, 0.7f, 2, std::span(f.palette).first(joints)).ok());
  const uint32_t unused = joints;
  for (Float4& row : f.palette[unused].row) row = {INFINITY, -INFINITY, INFINITY, 1.0f};
  SparseInfluences sparse;
  sparse.group_count = joints + 1;
  sparse.offsets.push_back(0);
  for (size_t v = 0; v < f.mesh.vertex_count(); ++v) {
    const size_t count = v % 7;
    for (size_t e = 0; e < count; ++e) {  // descending weights, distinct groups
      sparse.groups.push_back(uint32_t((v * 7 + e * 13) % joints));
      sparse.weights.push_back(e + 1 == count && v % 2 ? 0.0f : 1.0f / float(e + 2));
    }
    if (count > 0 && v % 5 == 0) sparse.groups.back() = unused, sparse.weights.back() = 0.0f;
    sparse.offsets.push_back(uint32_t(sparse.groups.size()));
  }
  ASSERT_TRUE(ValidateSparseInfluences(f.mesh.vertex_count(), sparse).ok());
  f.mesh.influences = {};
  f.mesh.sparse_influences = std::move(sparse);
  ASSERT_TRUE(f.mesh.sparse());
  ExpectTheSameOnAnyThreads(f);
  for (Float4& row : f.palette[unused].row) row = {3.0e38f, -3.0e38f, 3.0e38f, 1.0f};
  ExpectTheSameOnAnyThreads(f);
}

// What the vectorized paths cover, only when asked for: linear blending, dense or sparse, with the
// blended-matrix normal rule, and dual quaternions eight at a time; the other meshes say they run
// one vertex at a time.
TEST(SkinRun, OnlyLinearMeshesWithTheBlendedMatrixRuleGoSeveralAtATime) {
  const Fixture f = Character();
  const Primitive& dense = f.mesh;
  const SkinRun fast{1, true}, four{1, true, 4}, scalar{1, false};
  EXPECT_EQ(SkinLanes(dense, fast), WidestSkinLanes());
  EXPECT_EQ(SkinLanes(dense, four), std::min(WidestSkinLanes(), 4u));
  EXPECT_EQ(SkinLanes(dense, scalar), 1u);
  const bool avx512 = SkinsWithAvx512(dense, fast);  // where the CPU has it (test above)
  EXPECT_TRUE(!avx512 || SkinLanes(dense, fast) == 8u);
  EXPECT_FALSE(SkinsWithAvx512(dense, four));
  EXPECT_FALSE(SkinsWithAvx512(dense, scalar));
  Primitive dqs = dense;
  dqs.skinning = SkinningMethod::kDualQuaternion;
  EXPECT_EQ(SkinLanes(dqs, fast), WidestSkinLanes() == 8 ? 8u : 1u);
  EXPECT_EQ(SkinLanes(dqs, four), 1u);
  EXPECT_EQ(SkinLanes(dqs, scalar), 1u);
  EXPECT_FALSE(SkinsWithAvx512(dqs, fast));
  Primitive per_joint = dense;
  per_joint.normal_blend = NormalBlend::kPerJoint;
  EXPECT_EQ(SkinLanes(per_joint, fast), 1u);
  EXPECT_FALSE(SkinsWithAvx512(per_joint, fast));
  Primitive sparse = dense;
  ASSERT_TRUE(UseInfluenceLayout(sparse, InfluenceLayout::kSparse, 0, f.palette.size()).ok());
  ASSERT_TRUE(sparse.sparse());
  EXPECT_EQ(SkinLanes(sparse, fast), WidestSkinLanes());
  EXPECT_EQ(SkinLanes(sparse, scalar), 1u);
  EXPECT_EQ(SkinsWithAvx512(sparse, fast), avx512);
  Primitive rigid = dense;
  rigid.influences = {};
  EXPECT_EQ(SkinLanes(rigid, fast), 1u);
  EXPECT_FALSE(SkinsWithAvx512(rigid, fast));
}

// Dual quaternions with a slot count the compiler does not know (K = 16; 4 and 8 are constants of
// their code), with and without scale.
TEST(SkinRun, DualQuaternionsOfSixteenInfluencesAreTheSameOnAnyNumberOfThreads) {
  ExpectDualQuaternionsTheSameWithAndWithoutScale(CharacterOf(4096 * 2 + 9, 16, 0.4f, 3));
}

// Dual quaternions eight at a time, dense and sparse, with what the lanes must keep apart:
// vertices whose weights are all 0 (rest attributes), weighted only to a singular entry or by a
// weight of 1e-12 (a real part shorter than 1e-10: the identity), blending two rotations in
// opposite hemispheres (the lighter one flipped) or at right angles (a dot product of exactly 0:
// not flipped), with weights not summing to 1, with pivot ties (the first wins: a third entry
// near both tells which), and with zero-length normals and tangents (kept).
TEST(SkinRun, EdgeCasesOfDualQuaternionsAreTheSameVectorizedAsScalar) {
  Fixture f = CharacterOf(4096 * 2 + 5, 4, 0.3f, 4, 5);
  f.mesh.skinning = SkinningMethod::kDualQuaternion;
  const size_t joints = f.palette.size() - 5;
  const uint16_t singular = uint16_t(joints), plus = uint16_t(joints + 1),
                 minus = uint16_t(joints + 2), identity = uint16_t(joints + 3),
                 half_turn = uint16_t(joints + 4);
  f.palette[half_turn].row = {{{1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, -1, 1}}};  // 180 degrees about x
  f.palette[singular].row = {{{0, 0, 0, 1}, {0, 0, 0, 2}, {0, 0, 0, 3}}};
  // 170 degrees about +x and about -x: unit quaternions whose dot product is negative.
  const float cs = std::cos(2.967f), sn = std::sin(2.967f);
  f.palette[plus].row = {{{1, 0, 0, 0.5f}, {0, cs, -sn, 0}, {0, sn, cs, 0}}};
  f.palette[minus].row = {{{1, 0, 0, 0}, {0, cs, sn, 0.25f}, {0, -sn, cs, 0}}};
  std::vector<float>& w = f.mesh.influences.weights;
  std::vector<uint16_t>& j = f.mesh.influences.joints;
  for (size_t v = 0; v < f.mesh.vertex_count(); ++v) {
    float* wv = &w[v * 4];
    uint16_t* jv = &j[v * 4];
    switch (v % 9) {
      case 1:
        wv[0] = wv[1] = wv[2] = wv[3] = 0.0f;
        break;
      case 2:
        jv[0] = singular, wv[0] = 1.0f, wv[1] = wv[2] = wv[3] = 0.0f;
        break;
      case 3:
        jv[0] = plus, jv[1] = minus, wv[0] = 0.7f, wv[1] = 0.3f, wv[2] = wv[3] = 0.0f;
        break;
      case 4:
        jv[0] = minus, jv[1] = plus, wv[0] = wv[1] = 0.5f, wv[2] = wv[3] = 0.0f;
        break;
      case 6:  // a tie between opposite hemispheres, and a third entry on both sides
        jv[0] = plus, jv[1] = minus, jv[2] = identity;
        wv[0] = wv[1] = 0.4f, wv[2] = 0.2f, wv[3] = 0.0f;
        break;
      case 7:  // the identity's real part is at right angles to the half turn's
        jv[0] = identity, jv[1] = half_turn, wv[0] = 0.6f, wv[1] = 0.4f, wv[2] = wv[3] = 0.0f;
        break;
      case 8:
        wv[0] = 1.0e-12f, wv[1] = wv[2] = wv[3] = 0.0f;
        break;
      case 5:
        wv[0] *= 2.0f;
        break;
      default:
        break;
    }
  }
  ZeroSomeNormalsAndTangents(f);
  ASSERT_FALSE(HasScale(DualQuaternions(f.palette)));
  ExpectTheSameOnAnyThreads(f);
  Primitive dense = f.mesh;
  ASSERT_TRUE(UseInfluenceLayout(f.mesh, InfluenceLayout::kSparse, 0, f.palette.size()).ok());
  ASSERT_TRUE(f.mesh.sparse());
  ExpectTheSameOnAnyThreads(f);
  // Again with scale: the identity entry stretched and sheared, dense and sparse.
  f.palette[identity].row = {{{1.5f, 0.25f, 0, 0}, {0, 0.5f, 0, 0}, {0, 0, 2.0f, 0}}};
  ASSERT_TRUE(HasScale(DualQuaternions(f.palette)));
  ExpectTheSameOnAnyThreads(f);
  f.mesh = std::move(dense);
  ExpectTheSameOnAnyThreads(f);
}

// Where the host flushes subnormal numbers to zero (MXCSR's FTZ and DAZ, which some engines set),
// a vertex whose only weight is subnormal sums its weights to 0 and keeps its rest attributes;
// the eight-lane path, which finds such vertices without summing, follows the flags. On one
// thread: the flags are the calling thread's.
TEST(SkinRun, SubnormalWeightsAreTheSameVectorizedAsScalarWhereTheHostFlushesThemToZero) {
#if defined(__SSE2__) || defined(_M_X64)
  for (uint32_t k : {4u, 8u}) {
    Fixture f = k == 4 ? CharacterOf(4096 + 7, 4, 0.7f, 2) : FirstVertices(Character(), 4096 + 7);
    std::vector<float>& w = f.mesh.influences.weights;
    for (size_t v = 3; v < f.mesh.vertex_count(); v += 5) {
      for (size_t i = 0; i < k; ++i) w[v * k + i] = i == 1 ? 1.0e-40f : 0.0f;
    }
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u);  // FTZ and DAZ
    const Outputs scalar = Skin(f, {1, false});
    const Outputs fast = Skin(f, {1, true});
    _mm_setcsr(csr);
    EXPECT_TRUE(fast == scalar) << "K = " << k;
  }
#else
  GTEST_SKIP() << "no MXCSR on this architecture";
#endif
}

// A job runs on as many threads as ranges of min_vertices_per_thread fit its vertices, at most
// the threads asked for, at least one; a minimum of 0 counts as 1.
TEST(SkinRun, AJobRunsOnAsManyThreadsAsItsSmallestRangeAllows) {
  EXPECT_EQ(SkinThreads(65535, SkinRun{2}), 1u);  // the default minimum, 32,768
  EXPECT_EQ(SkinThreads(65536, SkinRun{2}), 2u);
  EXPECT_EQ(SkinThreads(1000000, SkinRun{3}), 3u);
  EXPECT_EQ(SkinThreads(0, SkinRun{2}), 1u);
  SkinRun small{64};
  small.min_vertices_per_thread = 4096;
  EXPECT_EQ(SkinThreads(4096 * 2 + 3, small), 2u);
  small.min_vertices_per_thread = 0;
  EXPECT_EQ(SkinThreads(5, small), 5u);
  EXPECT_EQ(SkinThreads(1000, SkinRun{0}), 1u);
}

TEST(SkinRun, ZeroThreadsMeansEveryHardwareThread) {
  EXPECT_GE(ThreadCount(0), 1u);
  EXPECT_EQ(ThreadCount(3), 3u);
}

}  // namespace
}  // namespace sinew::cpu
