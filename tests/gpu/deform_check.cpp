#include "gpu/deform_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"

namespace sinew::testing {

procedural::Character Character(uint32_t vertices, uint32_t k, bool normals, bool tangents) {
  procedural::CharacterOptions o;
  o.vertex_count = vertices;
  o.influences_per_vertex = k;
  o.with_normals = normals;
  o.with_tangents = tangents;
  auto mesh = procedural::MakeCharacter(o);
  EXPECT_TRUE(mesh.ok());
  return std::move(mesh.value());
}

Primitive CharacterMesh(uint32_t vertices, uint32_t k, bool normals, bool tangents) {
  return Character(vertices, k, normals, tangents).mesh;
}

const Skeleton& DefaultSkeleton() {
  static const Skeleton skeleton = Character(1, 4).skeleton;
  return skeleton;
}

uint32_t DefaultJoints() { return uint32_t(DefaultSkeleton().joint_count()); }

std::vector<Float3x4> CrowdPalettes(const Skeleton& skeleton, uint32_t instances) {
  const size_t j = skeleton.joint_count();
  std::vector<Float3x4> palettes(instances * j);
  for (uint32_t i = 0; i < instances; ++i) {
    EXPECT_TRUE(procedural::CrowdPalette(skeleton, 0.3f + float(i), i,
                                         std::span(palettes).subspan(i * j, j))
                    .ok());
  }
  return palettes;
}

Streams SkinOnCpu(const Primitive& mesh, const std::vector<Float3x4>& palettes, uint32_t instances,
                  const std::vector<float>& morph_weights) {
  const size_t targets = mesh.targets.size();
  const size_t v = mesh.vertex_count(), j = palettes.size() / instances;
  Streams out;
  out.positions.resize(instances * v * 3);
  out.normals.resize(mesh.normals.empty() ? 0 : instances * v * 3);
  out.tangents.resize(mesh.tangents.empty() ? 0 : instances * v * 4);
  for (uint32_t i = 0; i < instances; ++i) {
    const auto palette = std::span(palettes).subspan(i * j, j);
    const auto positions = std::span(out.positions).subspan(i * v * 3, v * 3);
    const auto normals = mesh.normals.empty() ? std::span<float>()
                                              : std::span(out.normals).subspan(i * v * 3, v * 3);
    const auto tangents = mesh.tangents.empty() ? std::span<float>()
                                                : std::span(out.tangents).subspan(i * v * 4, v * 4);
    const auto weights = morph_weights.empty()
                             ? std::span<const float>()
                             : std::span(morph_weights).subspan(i * targets, targets);
    const Status s = cpu::SkinMesh(mesh, palette, weights, positions, normals, tangents);
    EXPECT_TRUE(s.ok()) << s.error().ToString();
  }
  return out;
}

Primitive SparseCharacterMesh(Primitive mesh) {
  auto converted = DenseToSparse(mesh.vertex_count(), mesh.influences, DefaultJoints());
  EXPECT_TRUE(converted.ok());
  if (converted.ok()) mesh.sparse_influences = std::move(converted.value());
  mesh.influences = {};
  return mesh;
}

float MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  float m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

Status DeformFrameForReadback(const vk::Context& ctx, vk::SkinCache& cache) {
  Status recorded;
  const Status submitted = ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
    cache.RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    recorded = cache.Record(cmd);
    cache.RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  });
  return recorded ? submitted : recorded;
}

std::vector<MorphTarget> RandomMorphTargets(size_t vertices, size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> offset(-0.2f, 0.2f);
  std::vector<MorphTarget> targets(count);
  for (size_t t = 0; t < count; ++t) {
    MorphTarget& m = targets[t];
    m.positions.assign(vertices * 3, 0.0f);
    if (t % 3 == 0) m.normals.assign(vertices * 3, 0.0f);
    if (t % 4 == 0) m.tangents.assign(vertices * 3, 0.0f);
    const size_t touched = std::max<size_t>(1, vertices / 20);
    for (size_t k = 0; k < touched; ++k) {
      const size_t v = rng() % vertices;
      for (size_t c = 0; c < 3; ++c) {
        m.positions[v * 3 + c] = offset(rng);
        if (!m.normals.empty()) m.normals[v * 3 + c] = offset(rng);
        if (!m.tangents.empty()) m.tangents[v * 3 + c] = offset(rng);
      }
    }
  }
  return targets;
}

std::vector<float> CrowdMorphWeights(size_t targets, uint32_t instances) {
  std::vector<float> w(targets * instances);
  for (size_t i = 0; i < w.size(); ++i) w[i] = i % 5 == 0 ? 0.0f : -0.5f + float(i % 9) * 0.25f;
  return w;
}

void ExpectGpuMatchesCpu(const vk::Context& ctx, const Primitive& mesh,
                         const std::vector<Float3x4>& palettes, uint32_t instances,
                         const std::vector<float>& morph_weights,
                         const vk::SkinCacheOptions& base) {
  const size_t j = palettes.size() / instances;
  ASSERT_EQ(palettes.size(), instances * j);
  ASSERT_EQ(mesh.palette_size(j), j);
  const Streams expected = SkinOnCpu(mesh, palettes, instances, morph_weights);

  // As an engine: one SkinCache, one palette and instance per crowd member, one Record().
  auto options = vk::SkinCacheOptionsFor(mesh, uint32_t(j), instances, base);
  ASSERT_TRUE(options.ok()) << options.error().ToString();
  auto cache = vk::SkinCache::Create(ctx, *options);
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  auto mesh_id = (*cache)->AddMesh(mesh, uint32_t(j));
  ASSERT_TRUE(mesh_id.ok()) << mesh_id.error().ToString();
  EXPECT_EQ((*cache)->mesh_layout(*mesh_id)->sparse, mesh.sparse());
  std::vector<vk::InstanceId> ids;
  const size_t targets = mesh.targets.size();
  for (uint32_t i = 0; i < instances; ++i) {
    auto palette =
        (*cache)->AddPalette(uint32_t(j), mesh.dual_quaternion() ? SkinningMethod::kDualQuaternion
                                                                 : SkinningMethod::kLinear);
    ASSERT_TRUE(palette.ok());
    ASSERT_TRUE((*cache)->SetPalette(*palette, std::span(palettes).subspan(i * j, j)).ok());
    auto id = (*cache)->AddInstance(*mesh_id, *palette);
    ASSERT_TRUE(id.ok()) << id.error().ToString();
    if (!morph_weights.empty()) {
      const Status s =
          (*cache)->SetMorphWeights(*id, std::span(morph_weights).subspan(i * targets, targets));
      ASSERT_TRUE(s.ok()) << s.error().ToString();
    }
    ids.push_back(*id);
  }
  Status recorded;
  ASSERT_TRUE(ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
                   recorded = (*cache)->Record(cmd);
                   (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                 VK_ACCESS_TRANSFER_READ_BIT);
                 })
                  .ok());
  ASSERT_TRUE(recorded.ok()) << recorded.error().ToString();
  EXPECT_LE((*cache)->last_frame_stats().dispatches, (*cache)->output_pages());

  Streams got;
  for (vk::InstanceId id : ids) {
    auto out = vk::ReadInstanceOutputs(ctx, **cache, id);
    ASSERT_TRUE(out.ok()) << out.error().ToString();
    got.positions.insert(got.positions.end(), out->positions.begin(), out->positions.end());
    got.normals.insert(got.normals.end(), out->normals.begin(), out->normals.end());
    got.tangents.insert(got.tangents.end(), out->tangents.begin(), out->tangents.end());
  }
  const float extent = BoundsDiagonal(mesh.positions);
  const float tolerance = 1e-5f * std::max(extent, 1e-3f);
  EXPECT_LE(MaxAbsDiff(got.positions, expected.positions), tolerance);
  EXPECT_EQ(got.normals.size(), expected.normals.size());
  EXPECT_LE(MaxAbsDiff(got.normals, expected.normals), 1e-5f);
  EXPECT_EQ(got.tangents.size(), expected.tangents.size());
  EXPECT_LE(MaxAbsDiff(got.tangents, expected.tangents), 1e-5f);
}

void ExpectCrowdMatchesCpuAtWorkgroupSize(const vk::Context& ctx, const Primitive& mesh,
                                          uint32_t instances, uint32_t workgroup_size) {
  SCOPED_TRACE(workgroup_size);
  vk::SkinCacheOptions base;
  base.workgroup_size = workgroup_size;
  ExpectGpuMatchesCpu(ctx, mesh, CrowdPalettes(DefaultSkeleton(), instances), instances,
                      CrowdMorphWeights(mesh.targets.size(), instances), base);
}

}  // namespace sinew::testing
