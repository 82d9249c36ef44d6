#include "gpu/deform_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sinew/cpu/skin_mesh.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/vk/deformer.h"
#include "sinew/vk/device_mesh.h"
#include "sinew/vk/readback.h"

namespace sinew::testing {

SkinnedMesh Character(uint32_t vertices, uint32_t k, bool normals, bool tangents) {
  procedural::CharacterOptions o;
  o.vertex_count = vertices;
  o.influences_per_vertex = k;
  o.with_normals = normals;
  o.with_tangents = tangents;
  auto mesh = procedural::MakeCharacter(o);
  EXPECT_TRUE(mesh.ok());
  return std::move(mesh.value());
}

std::vector<Float3x4> CrowdPalettes(const SkinnedMesh& mesh, uint32_t instances) {
  const size_t j = mesh.skeleton.joint_count();
  std::vector<Float3x4> palettes(instances * j);
  for (uint32_t i = 0; i < instances; ++i) {
    EXPECT_TRUE(procedural::CrowdPalette(mesh.skeleton, 0.3f + float(i), i,
                                         std::span(palettes).subspan(i * j, j))
                    .ok());
  }
  return palettes;
}

Streams SkinOnCpu(const SkinnedMesh& mesh, const std::vector<Float3x4>& palettes,
                  uint32_t instances, const std::vector<float>& morph_weights) {
  const size_t targets = mesh.morph_targets.size();
  const size_t v = mesh.vertex_count(), j = mesh.palette_size();
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

float MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  float m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

void ExpectGpuMatchesCpu(const vk::Context& ctx, const SkinnedMesh& mesh,
                         const std::vector<Float3x4>& palettes, uint32_t instances,
                         const std::vector<float>& morph_weights) {
  const size_t j = mesh.palette_size();
  ASSERT_EQ(palettes.size(), instances * j);
  const Streams expected = SkinOnCpu(mesh, palettes, instances, morph_weights);

  auto device_mesh = vk::DeviceMesh::Create(ctx, mesh);
  ASSERT_TRUE(device_mesh.ok()) << device_mesh.error().ToString();
  EXPECT_EQ((*device_mesh)->sparse(), mesh.sparse());
  vk::DeformerOptions options;
  options.instance_count = instances;
  auto deformer = vk::Deformer::Create(ctx, **device_mesh, options);
  ASSERT_TRUE(deformer.ok()) << deformer.error().ToString();
  for (uint32_t i = 0; i < instances; ++i) {
    ASSERT_TRUE((*deformer)->SetPalette(i, std::span(palettes).subspan(i * j, j)).ok());
    const size_t targets = mesh.morph_targets.size();
    if (!morph_weights.empty()) {
      const Status s =
          (*deformer)->SetMorphWeights(i, std::span(morph_weights).subspan(i * targets, targets));
      ASSERT_TRUE(s.ok()) << s.error().ToString();
    }
  }
  ASSERT_TRUE(ctx.SubmitAndWait([&](VkCommandBuffer cmd) { (*deformer)->Record(cmd); }).ok());

  const VkDeviceSize v = mesh.vertex_count();
  auto positions = vk::ReadFloats(ctx, (*deformer)->out_positions(), 0, instances * v * 12);
  ASSERT_TRUE(positions.ok()) << positions.error().ToString();
  const float extent = BoundsDiagonal(mesh.positions);
  const float tolerance = 1e-5f * std::max(extent, 1e-3f);
  EXPECT_LE(MaxAbsDiff(*positions, expected.positions), tolerance);
  if (!mesh.normals.empty()) {
    auto normals = vk::ReadFloats(ctx, (*deformer)->out_normals(), 0, instances * v * 12);
    ASSERT_TRUE(normals.ok());
    EXPECT_LE(MaxAbsDiff(*normals, expected.normals), 1e-5f);
  } else {
    EXPECT_EQ((*deformer)->out_normals(), VK_NULL_HANDLE);
  }
  if (!mesh.tangents.empty()) {
    auto tangents = vk::ReadFloats(ctx, (*deformer)->out_tangents(), 0, instances * v * 16);
    ASSERT_TRUE(tangents.ok());
    EXPECT_LE(MaxAbsDiff(*tangents, expected.tangents), 1e-5f);
  } else {
    EXPECT_EQ((*deformer)->out_tangents(), VK_NULL_HANDLE);
  }
}

}  // namespace sinew::testing
