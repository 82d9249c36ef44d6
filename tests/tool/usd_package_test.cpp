// Binary USD that sinew writes: shared glTF characters converted to .usdc and baked on the GPU
// match their originals baked on the CPU reference (loader/usda_writer_test.cpp checks every
// encoding on the CPU).
//
// Real binary USD: the three packages under the test assets' usd/ (tests/test_assets.h; .usdz
// holding a crate 0.8.0 .usdc, written by a common glTF-to-USD converter) load through LoadAsset
// and deform like their glTF originals at times across the clip, on the CPU reference and on the
// GPU. RiggedSimple's glTF original is not among the shared assets: its checks are the bind pose,
// the GPU against the CPU, and the clip's length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bake.h"
#include "gpu/gpu_test.h"
#include "sinew/core/math.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/loader/usd.h"
#include "sinew/loader/usda_writer.h"
#include "test_assets.h"

namespace sinew::tool {
namespace {

loader::LoadedFile Load(const std::string& relative) {
  auto loaded = loader::LoadAsset(sinew::testing::TestAssets() / relative);
  EXPECT_TRUE(loaded.ok()) << relative << ": " << loaded.error().ToString();
  return loaded.ok() ? std::move(loaded.value()) : loader::LoadedFile();
}

BakeResult Bake(const Asset& asset, float time, const vk::Context* context = nullptr,
                const std::string& pose = "rest") {
  BakeOptions o;
  o.anim = asset.animations.empty() ? "" : "0";
  o.time = time;
  o.pose = pose;
  auto baked = BakeAsset(asset, o, context);
  EXPECT_TRUE(baked.ok()) << baked.error().ToString();
  return baked.ok() ? std::move(baked.value()) : BakeResult();
}

std::vector<float> Stream(const BakeResult& baked, bool normals) {
  std::vector<float> out;
  for (const BakedPrimitive& p : baked.primitives) {
    const auto& s = normals ? p.data.normals : p.data.positions;
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

float Worst(const std::vector<float>& a, const std::vector<float>& b) {
  float worst = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

// How a converter stored the original: another unit scale and up axis (a uniform scale and a
// signed permutation of the axes about the bounds' centres), and another vertex order.
struct Conversion {
  float scale = 1;          // package extent / original extent
  int axis[3] = {0, 1, 2};  // original axis k = sign[k] * package axis axis[k]
  float sign[3] = {1, 1, 1};
  float from[3] = {}, to[3] = {};   // the package's and the original's bounds centres
  std::vector<size_t> original_of;  // per package vertex, the original vertex it is

  float Position(const std::vector<float>& p, size_t v, int k) const {
    return to[k] + sign[k] * (p[v * 3 + size_t(axis[k])] - from[axis[k]]) / scale;
  }
  float Normal(const std::vector<float>& n, size_t v, int k) const {
    return sign[k] * n[v * 3 + size_t(axis[k])];
  }
};

void Centre(const std::vector<float>& p, float out[3]) {
  for (int k = 0; k < 3; ++k) {
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = size_t(k); i < p.size(); i += 3)
      lo = std::min(lo, p[i]), hi = std::max(hi, p[i]);
    out[k] = 0.5f * (lo + hi);
  }
}

// The conversions that map every package vertex (position and normal) onto an original vertex
// within `tolerance` × the original's extent, among the 48 signed axis permutations. A symmetric
// rest mesh (a cube, a sphere) admits several: the clip tells them apart.
std::vector<Conversion> FindConversions(const std::vector<float>& package,
                                        const std::vector<float>& package_normals,
                                        const std::vector<float>& original,
                                        const std::vector<float>& original_normals,
                                        float tolerance) {
  std::vector<Conversion> out;
  const size_t n = original.size() / 3;
  if (package.size() != original.size() || n == 0) return out;
  Conversion c;
  c.scale = BoundsDiagonal(package) / BoundsDiagonal(original);
  Centre(package, c.from);
  Centre(original, c.to);
  const float limit = tolerance * BoundsDiagonal(original);
  const auto find = [&](size_t v) -> size_t {
    for (size_t o = 0; o < n; ++o) {
      bool same = true;
      for (int k = 0; k < 3 && same; ++k) {
        same = std::fabs(c.Position(package, v, k) - original[o * 3 + size_t(k)]) <= limit &&
               std::fabs(c.Normal(package_normals, v, k) - original_normals[o * 3 + size_t(k)]) <=
                   1e-3f;
      }
      if (same) return o;
    }
    return n;
  };
  int perm[3] = {0, 1, 2};
  do {
    for (int signs = 0; signs < 8; ++signs) {
      for (int k = 0; k < 3; ++k) c.axis[k] = perm[k], c.sign[k] = (signs >> k) & 1 ? -1.0f : 1.0f;
      c.original_of.assign(n, n);
      bool all = true;
      for (size_t v = 0; v < n && all; ++v) all = (c.original_of[v] = find(v)) < n;
      if (all) out.push_back(c);
    }
  } while (std::next_permutation(perm, perm + 3));
  return out;
}

// The package and its glTF original, baked at every key time of the original's clip: for the
// conversion (found on the rest meshes) that fits the clip best, the same vertices within
// 1e-5 × the original's extent and the same normals within 1e-4 at every one of those times.
void ExpectDeformsLikeOriginal(const std::string& package, const std::string& original,
                               const vk::Context* context = nullptr) {
  const loader::LoadedFile usd = Load(package), gltf = Load(original);
  ASSERT_TRUE(loader::IsUsd(usd.format));
  ASSERT_EQ(usd.loaded.asset.animations.size(), 1u);
  ASSERT_FALSE(gltf.loaded.asset.animations.empty());
  BakeOptions rest;
  auto usd_rest = BakeAsset(usd.loaded.asset, rest), gltf_rest = BakeAsset(gltf.loaded.asset, rest);
  ASSERT_TRUE(usd_rest.ok() && gltf_rest.ok());
  const std::vector<Conversion> conversions =
      FindConversions(Stream(*usd_rest, false), Stream(*usd_rest, true), Stream(*gltf_rest, false),
                      Stream(*gltf_rest, true), 1e-5f);
  ASSERT_FALSE(conversions.empty())
      << "no scale and axis change maps the package's rest mesh onto the original's";
  const Animation& clip = gltf.loaded.asset.animations[0];
  std::vector<float> times;
  for (const AnimationSampler& s : clip.samplers) {
    times.insert(times.end(), clip.keys.begin() + std::ptrdiff_t(s.input.offset),
                 clip.keys.begin() + std::ptrdiff_t(s.input.offset + s.input.count));
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  ASSERT_GT(times.size(), 10u);
  // Each key time's streams, flattened once: every conversion below compares against them.
  struct Streams {
    std::vector<float> want_positions, want_normals, got_positions, got_normals;
  };
  std::vector<Streams> at;
  float moved = 0, extent = 0;
  const std::vector<float> first = Stream(*gltf_rest, false);
  for (const float t : times) {
    const BakeResult want = Bake(gltf.loaded.asset, t), got = Bake(usd.loaded.asset, t, context);
    at.push_back({Stream(want, false), Stream(want, true), Stream(got, false), Stream(got, true)});
    const Streams& a = at.back();
    ASSERT_EQ(a.got_positions.size(), a.want_positions.size());
    ASSERT_EQ(a.got_normals.size(), a.want_normals.size());
    extent = std::max(extent, BoundsDiagonal(a.want_positions));
    moved = std::max(moved, Worst(first, a.want_positions));
  }
  EXPECT_GT(moved, 1e-2f * extent)
      << "the clip never changes the shape: the comparison proves nothing";
  float best = INFINITY, best_normal = INFINITY;
  for (const Conversion& c : conversions) {
    float worst = 0, worst_normal = 0;
    for (const Streams& a : at) {
      for (size_t v = 0; v < c.original_of.size(); ++v) {
        const size_t o = c.original_of[v];
        for (int k = 0; k < 3; ++k) {
          worst = std::max(worst, std::fabs(c.Position(a.got_positions, v, k) -
                                            a.want_positions[o * 3 + size_t(k)]));
          worst_normal = std::max(worst_normal, std::fabs(c.Normal(a.got_normals, v, k) -
                                                          a.want_normals[o * 3 + size_t(k)]));
        }
      }
    }
    if (worst < best) best = worst, best_normal = worst_normal;
  }
  EXPECT_LE(best, 1e-5f * extent) << "at " << times.size() << " key times, " << conversions.size()
                                  << " conversions tried";
  EXPECT_LE(best_normal, 1e-4f);
}

TEST(UsdPackages, AnimatedMorphCubeDeformsLikeItsGltfOriginal) {
  ExpectDeformsLikeOriginal("usd/AnimatedMorphCube.usdz",
                            "AnimatedMorphCube/AnimatedMorphCube.gltf");
}

TEST(UsdPackages, AnimatedMorphSphereDeformsLikeItsGltfOriginal) {
  ExpectDeformsLikeOriginal("usd/AnimatedMorphSphere.usdz",
                            "AnimatedMorphSphere/AnimatedMorphSphere.gltf");
}

// Skinned at the bind pose, every point is where the mesh's rest points put it (scene space: the
// Z_UP and Armature Xforms above the SkelRoot applied); the clip bends it.
TEST(UsdPackages, RiggedSimpleAtItsBindPoseIsItsRestMeshAndItsClipBendsIt) {
  const loader::LoadedFile usd = Load("usd/RiggedSimple.usdz");
  const Asset& a = usd.loaded.asset;
  ASSERT_EQ(a.skins.size(), 1u);
  EXPECT_EQ(a.skins[0].joints.size(), 2u);
  ASSERT_EQ(a.animations.size(), 1u);
  const cpu::ClipRange range = cpu::RangeOf(a.animations[0]);
  // 50 time codes from 1 at 24 a second.
  EXPECT_NEAR(range.start, 1.0f / 24, 1e-6f);
  EXPECT_NEAR(range.duration(), 49.0f / 24, 1e-5f);
  const BakeResult bind = Bake(a, 0, nullptr, "bind");
  ASSERT_EQ(bind.primitives.size(), 1u);
  const std::vector<float> rest = Stream(bind, false);
  ASSERT_EQ(rest.size(), 160u * 3);
  const float extent = BoundsDiagonal(rest);
  EXPECT_GT(extent, 1.0f);
  // (At the bind pose each joint's world matrix undoes its inverse bind matrix: the points are
  // the mesh's own, as the loader placed them.)
  const Primitive& mesh = a.meshes.at(size_t(bind.primitives[0].mesh)).primitives.at(0);
  EXPECT_LE(Worst(rest, mesh.positions), 1e-5f * extent);
  const BakeResult mid = Bake(a, range.start + 0.5f * range.duration());
  EXPECT_GT(Worst(Stream(mid, false), rest), 0.1f * extent) << "the clip does not bend the mesh";
}

class UsdPackagesOnGpu : public sinew::testing::GpuTest {};

TEST_F(UsdPackagesOnGpu, AnimatedMorphCubeDeformsLikeItsGltfOriginalOnTheGpu) {
  ExpectDeformsLikeOriginal("usd/AnimatedMorphCube.usdz",
                            "AnimatedMorphCube/AnimatedMorphCube.gltf", context_.get());
}

TEST_F(UsdPackagesOnGpu, AnimatedMorphSphereDeformsLikeItsGltfOriginalOnTheGpu) {
  ExpectDeformsLikeOriginal("usd/AnimatedMorphSphere.usdz",
                            "AnimatedMorphSphere/AnimatedMorphSphere.gltf", context_.get());
}

TEST_F(UsdPackagesOnGpu, RiggedSimpleOnTheGpuMatchesTheCpuReference) {
  const loader::LoadedFile usd = Load("usd/RiggedSimple.usdz");
  const cpu::ClipRange range = cpu::RangeOf(usd.loaded.asset.animations.at(0));
  for (float f : {0.0f, 0.5f, 1.0f}) {
    const float t = range.start + f * range.duration();
    const std::vector<float> cpu = Stream(Bake(usd.loaded.asset, t), false);
    const std::vector<float> gpu = Stream(Bake(usd.loaded.asset, t, context_.get()), false);
    ASSERT_EQ(gpu.size(), cpu.size());
    EXPECT_LE(Worst(gpu, cpu), 1e-5f * BoundsDiagonal(cpu)) << "t = " << t;
  }
}

// The original by UsdSkel's normal rule (what is read back from USD uses it), on the CPU; its
// .usdc read back, on the GPU: the same vertices at the clip's start, middle and end.
TEST_F(UsdPackagesOnGpu, ConvertedCharactersAsUsdcDeformOnTheGpuLikeTheirGltfOriginals) {
  for (const char* file : {"CesiumMan/CesiumMan.glb", "Fox/Fox.glb"}) {
    SCOPED_TRACE(file);
    loader::LoadedFile gltf = Load(file);
    auto crate = loader::WriteUsdc(gltf.loaded.asset);
    ASSERT_TRUE(crate.ok()) << crate.error().ToString();
    auto back = loader::LoadUsdFromMemory(*crate);
    ASSERT_TRUE(back.ok()) << back.error().ToString();
    Asset& original = gltf.loaded.asset;
    for (Mesh& mesh : original.meshes) {
      for (Primitive& p : mesh.primitives) p.normal_blend = NormalBlend::kPerJoint;
    }
    const cpu::ClipRange range = cpu::RangeOf(original.animations.at(0));
    for (float f : {0.0f, 0.5f, 1.0f}) {
      const float t = range.start + f * range.duration();
      const BakeResult want = Bake(original, t), got = Bake(back->asset, t, context_.get());
      const std::vector<float> wp = Stream(want, false), gp = Stream(got, false);
      ASSERT_EQ(gp.size(), wp.size());
      EXPECT_LE(Worst(gp, wp), 1e-5f * BoundsDiagonal(wp)) << "t = " << t;
      EXPECT_LE(Worst(Stream(got, true), Stream(want, true)), 1e-4f) << "t = " << t;
    }
  }
}

}  // namespace
}  // namespace sinew::tool
