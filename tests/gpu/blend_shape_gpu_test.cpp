// The fused blend-shape + skinning kernels against the CPU reference (docs/semantics.md,
// "Blend shapes" and "In-betweens"): sparse morph targets with position, normal and tangent
// offsets, per-instance weights (zero, negative, above 1), dense and sparse skinning, partial last
// groups; only the active shapes of each instance applied, also as weights change from frame to
// frame; an in-between glTF asset and a G4MF blend shape with blendAmounts at weights computed by
// hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/g4mf_blend_triangle.h"
#include "cpu/inbetween_triangle.h"
#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/asset/morph_deltas.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sub_shape_weights_job.h"
#include "sinew/procedural/face_shapes.h"
#include "sinew/vk/deform_once.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

using testing::CharacterMesh;
using testing::CrowdPalettes;
using testing::DefaultJoints;
using testing::DefaultSkeleton;

class BlendShapeGpu : public testing::GpuTest,
                      public ::testing::WithParamInterface<std::tuple<uint32_t, bool>> {};

TEST_P(BlendShapeGpu, FusedMorphAndSkinMatchesTheCpuReference) {
  const auto [vertices, sparse] = GetParam();
  Primitive mesh = CharacterMesh(vertices, 4);
  if (sparse) {
    ASSERT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kSparse, 0, DefaultJoints()).ok());
  }
  mesh.targets = testing::RandomMorphTargets(vertices, 12, vertices);
  ASSERT_TRUE(mesh.Validate(DefaultJoints()).ok())
      << mesh.Validate(DefaultJoints()).error().ToString();
  testing::ExpectGpuMatchesCpu(*context_, mesh, CrowdPalettes(DefaultSkeleton(), 3), 3,
                               testing::CrowdMorphWeights(12, 3));
}

INSTANTIATE_TEST_SUITE_P(SizesAndLayouts, BlendShapeGpu,
                         ::testing::Combine(::testing::Values(1u, 65u, 3000u), ::testing::Bool()));

class BlendShapeGpuTest : public testing::GpuTest {};

TEST_F(BlendShapeGpuTest, ProceduralFaceShapesWithInbetweensMatchTheCpu) {
  Primitive mesh = CharacterMesh(4000, 8);
  auto face = procedural::MakeFaceShapes(mesh);
  ASSERT_TRUE(face.ok()) << face.error().ToString();
  mesh.targets = face->targets;
  // Three instances: primaries at 0.25, 0.8 and 1.4 (through and past the in-betweens).
  std::vector<float> resolved;
  for (float w : {0.25f, 0.8f, 1.4f}) {
    std::vector<float> weights(face->targets.size(), 0.0f), out(weights.size());
    for (size_t t = 0; t < 50; ++t) weights[t] = t % 3 == 0 ? 0.0f : w;
    cpu::SubShapeWeightsJob job;
    job.shapes = face->inbetweens;
    job.weights = weights;
    job.output = out;
    ASSERT_TRUE(job.Run().ok());
    resolved.insert(resolved.end(), out.begin(), out.end());
  }
  testing::ExpectGpuMatchesCpu(*context_, mesh, CrowdPalettes(DefaultSkeleton(), 3), 3, resolved);
}

TEST_F(BlendShapeGpuTest, AllWeightsZeroLeavesPositionsAsSkinningAlone) {
  Primitive mesh = CharacterMesh(500, 4, /*normals=*/false, /*tangents=*/false);
  const std::vector<Float3x4> palettes = CrowdPalettes(DefaultSkeleton(), 1);
  const testing::Streams plain = testing::SkinOnCpu(mesh, palettes, 1);
  mesh.targets = testing::RandomMorphTargets(500, 4, 7);
  testing::ExpectGpuMatchesCpu(*context_, mesh, palettes, 1, std::vector<float>(4, 0.0f));
  const testing::Streams zero = testing::SkinOnCpu(mesh, palettes, 1, std::vector<float>(4, 0.0f));
  EXPECT_EQ(testing::MaxAbsDiff(plain.positions, zero.positions), 0.0f);
}

TEST_F(BlendShapeGpuTest, ATargetMovesOnlyItsVerticesByItsWeight) {
  // Unskinned-like: identity palette, so the output is the rest position plus w · offset.
  Primitive mesh = CharacterMesh(130, 4, false, false);
  mesh.targets.resize(1);
  mesh.targets[0].positions.assign(130 * 3, 0.0f);
  mesh.targets[0].positions[64 * 3 + 1] = 2.0f;    // first vertex of group 1
  mesh.targets[0].positions[129 * 3 + 2] = -1.0f;  // last vertex
  const std::vector<Float3x4> identity(mesh.palette_size(DefaultJoints()));
  const testing::Streams out = testing::SkinOnCpu(mesh, identity, 1, {0.75f});
  EXPECT_FLOAT_EQ(out.positions[64 * 3 + 1], mesh.positions[64 * 3 + 1] + 1.5f);
  EXPECT_FLOAT_EQ(out.positions[129 * 3 + 2], mesh.positions[129 * 3 + 2] - 0.75f);
  EXPECT_FLOAT_EQ(out.positions[63 * 3 + 1], mesh.positions[63 * 3 + 1]);
  testing::ExpectGpuMatchesCpu(*context_, mesh, identity, 1, {0.75f});
}

// The in-between triangle (cpu/inbetween_triangle.h) deformed by the GPU kernel lands where the
// hand computation says: the primary's weight resolved over the in-betweens on the CPU
// (MorphWeightsFor), the resolved weights applied by the fused kernel.
TEST_F(BlendShapeGpuTest, DeformsAnInbetweenAssetAsComputedByHand) {
  auto loaded = testing::LoadInbetweenTriangle();
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  const Mesh& mesh = a.meshes[0];
  ASSERT_EQ(mesh.inbetween_shapes.size(), 1u);
  auto scene = cpu::EvaluateScene(a);
  ASSERT_TRUE(scene.ok());
  auto palette = cpu::InstancePalette(a, 0, scene->world);
  ASSERT_TRUE(palette.ok()) << palette.error().ToString();
  const Primitive& skinned = mesh.primitives[0];
  for (const testing::InbetweenCase& c : testing::kInbetweenCases) {
    const std::vector<float> weights = cpu::MorphWeightsFor(mesh, std::vector<float>{c.w, 0.0f});
    auto gpu = vk::DeformOnce(*context_, skinned, *palette, weights);
    ASSERT_TRUE(gpu.ok()) << gpu.error().ToString();
    EXPECT_NEAR(gpu->positions[0], c.x, 1e-6f) << "w " << c.w;
    EXPECT_NEAR(gpu->positions[1], c.y, 1e-6f) << "w " << c.w;
    EXPECT_NEAR(gpu->positions[2], 0, 1e-6f) << "w " << c.w;
    EXPECT_NEAR(gpu->positions[3], 1, 1e-6f);  // vertex 1 is in no shape
    EXPECT_NEAR(gpu->positions[4], 0, 1e-6f);
  }
}

// The G4MF blend triangle (cpu/g4mf_blend_triangle.h) on the GPU: sparse skinning fused with its
// blend shape, driven by the node's blendAmounts (0.5), the mesh's amounts (0.25) and weights set
// through the API (0, -1, 2), at rest and with Hips turned, lands where the hand computation says.
TEST_F(BlendShapeGpuTest, AG4mfBlendShapeFollowsItsAmountsAsComputedByHand) {
  auto loaded = testing::LoadG4mfBlendTriangle();
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  for (const bool posed : {false, true}) {
    Asset a = loaded->asset;
    if (posed) testing::PoseHips(&a);
    auto scene = cpu::EvaluateScene(a);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    for (const testing::BlendTriangleCase& c : testing::BlendTriangleCases()) {
      SCOPED_TRACE("posed " + std::to_string(posed) + " node " + std::to_string(c.node) +
                   " amount " + std::to_string(c.amount));
      auto palette = cpu::InstancePalette(a, c.node, scene->world);
      ASSERT_TRUE(palette.ok()) << palette.error().ToString();
      const Mesh& mesh = a.meshes[0];
      const std::vector<float> weights =
          cpu::MorphWeightsFor(mesh, c.weights.empty() ? scene->pose.weights[c.node] : c.weights);
      const Primitive& skinned = mesh.primitives[0];
      ASSERT_FALSE(skinned.sparse_influences.offsets.empty());  // G4MF's own sparse layout
      auto gpu = vk::DeformOnce(*context_, skinned, *palette, weights);
      ASSERT_TRUE(gpu.ok()) << gpu.error().ToString();
      const testing::BlendTriangle expected = testing::ExpectedBlendTriangle(c.amount, posed);
      ASSERT_EQ(gpu->positions.size(), expected.positions.size());
      ASSERT_EQ(gpu->normals.size(), expected.normals.size());
      for (size_t i = 0; i < expected.positions.size(); ++i) {
        EXPECT_NEAR(gpu->positions[i], expected.positions[i], 1e-6f) << i;
        EXPECT_NEAR(gpu->normals[i], expected.normals[i], 1e-6f) << i;
      }
    }
  }
}

// Zero weights cost nothing per vertex (asset/morph_deltas.h): the SkinCache hands the kernel only
// each instance's active targets, and an instance without any skips morphing (no renormalization).

// 60 face-shape targets on a `vertices`-vertex character (dense K = 4, or sparse).
Primitive FaceMesh(uint32_t vertices, bool sparse) {
  Primitive mesh = CharacterMesh(vertices, 4);
  auto face = procedural::MakeFaceShapes(mesh);
  EXPECT_TRUE(face.ok()) << face.error().ToString();
  mesh.targets = face->targets;
  if (sparse) {
    EXPECT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kSparse, 0, DefaultJoints()).ok());
  }
  return mesh;
}

// Weights with only `active` targets nonzero (0.4 + 0.1 k for the k-th of them, from 0).
std::vector<float> Only(size_t targets, std::initializer_list<uint32_t> active) {
  std::vector<float> w(targets, 0.0f);
  float value = 0.3f;
  for (uint32_t t : active) w[t] = (value += 0.1f);
  return w;
}

std::vector<float> Concat(std::initializer_list<std::vector<float>> parts) {
  std::vector<float> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// `instances` instances of a mesh in one persistent SkinCache, each with its own palette,
// deformed frame after frame.
class Deformed {
 public:
  Deformed(const vk::Context& ctx, const Primitive& mesh, uint32_t instances) : ctx_(ctx) {
    auto options = vk::SkinCacheOptionsFor(mesh, DefaultJoints(), instances);
    EXPECT_TRUE(options.ok()) << options.error().ToString();
    auto cache = vk::SkinCache::Create(ctx, *options);
    EXPECT_TRUE(cache.ok()) << cache.error().ToString();
    cache_ = std::move(cache.value());
    const vk::MeshId id = cache_->AddMesh(mesh, DefaultJoints()).value();
    for (uint32_t i = 0; i < instances; ++i) {
      palettes_.push_back(cache_->AddPalette(uint32_t(mesh.palette_size(DefaultJoints()))).value());
      instances_.push_back(cache_->AddInstance(id, palettes_.back()).value());
    }
  }
  Status SetPalette(uint32_t i, std::span<const Float3x4> m) {
    return cache_->SetPalette(palettes_[i], m);
  }
  Status SetMorphWeights(uint32_t i, std::span<const float> w) {
    return cache_->SetMorphWeights(instances_[i], w);
  }
  std::span<const float> morph_weights(uint32_t i) const {
    return cache_->morph_weights(instances_[i]);
  }
  // Records, submits, waits, and reads every instance's outputs back, one after the other.
  testing::Streams Run() {
    Status recorded;
    EXPECT_TRUE(ctx_.SubmitAndWait([&](VkCommandBuffer cmd) {
                      cache_->RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                 VK_ACCESS_TRANSFER_READ_BIT);
                      recorded = cache_->Record(cmd);
                      cache_->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                  VK_ACCESS_TRANSFER_READ_BIT);
                    })
                    .ok());
    EXPECT_TRUE(recorded.ok());
    testing::Streams out;
    for (vk::InstanceId id : instances_) {
      auto read = vk::ReadInstanceOutputs(ctx_, *cache_, id);
      EXPECT_TRUE(read.ok());
      if (!read.ok()) continue;
      out.positions.insert(out.positions.end(), read->positions.begin(), read->positions.end());
      out.normals.insert(out.normals.end(), read->normals.begin(), read->normals.end());
      out.tangents.insert(out.tangents.end(), read->tangents.begin(), read->tangents.end());
    }
    return out;
  }

 private:
  const vk::Context& ctx_;
  std::unique_ptr<vk::SkinCache> cache_;
  std::vector<vk::PaletteId> palettes_;
  std::vector<vk::InstanceId> instances_;
};

void ExpectWithinTolerance(const Primitive& mesh, const testing::Streams& gpu,
                           const testing::Streams& cpu) {
  EXPECT_LE(testing::MaxAbsDiff(gpu.positions, cpu.positions),
            1e-5f * BoundsDiagonal(mesh.positions));
  EXPECT_LE(testing::MaxAbsDiff(gpu.normals, cpu.normals), 1e-5f);
  EXPECT_LE(testing::MaxAbsDiff(gpu.tangents, cpu.tangents), 1e-5f);
}

// Instance i's slice of every stream.
testing::Streams Instance(const testing::Streams& s, uint32_t i, size_t vertices) {
  const auto slice = [&](const std::vector<float>& v, size_t per) {
    return std::vector<float>(v.begin() + ptrdiff_t(i * vertices * per),
                              v.begin() + ptrdiff_t((i + 1) * vertices * per));
  };
  return {slice(s.positions, 3), slice(s.normals, 3), slice(s.tangents, 4)};
}

class ActiveShapesGpu : public testing::GpuTest, public ::testing::WithParamInterface<bool> {};

TEST_P(ActiveShapesGpu, AFewActiveShapesAmongManyAtZeroMatchTheCpu) {
  const Primitive mesh = FaceMesh(3000, GetParam());
  const size_t t = mesh.targets.size();
  ASSERT_GE(t, 50u);
  // Instance 0: four scattered targets; instance 1: one target, the last; instance 2: every
  // other target (more than most groups hold blocks: the kernel walks the group's blocks).
  std::vector<float> every_other(t, 0.0f);
  for (size_t k = 0; k < t; k += 2) every_other[k] = 0.9f - 0.02f * float(k);
  const std::vector<float> weights =
      Concat({Only(t, {2, 9, 31, 47}), Only(t, {uint32_t(t - 1)}), every_other});
  // The kernel takes the active list when an instance's active count A <= the group's block count
  // B, else the group's blocks: both paths must be taken here for the test to cover them.
  const MorphDeltas packed = PackMorphTargets(mesh.vertex_count(), mesh.targets);
  bool active_list = false, block_walk = false;
  for (uint32_t i = 0; i < 3; ++i) {
    const size_t a = size_t(std::count_if(weights.begin() + ptrdiff_t(i * t),
                                          weights.begin() + ptrdiff_t((i + 1) * t),
                                          [](float w) { return w != 0.0f; }));
    for (size_t g = 0; g + 1 < packed.group_offsets.size(); ++g) {
      const size_t b = packed.group_offsets[g + 1] - packed.group_offsets[g];
      (a <= b ? active_list : block_walk) = true;
    }
  }
  ASSERT_TRUE(active_list);
  ASSERT_TRUE(block_walk);
  testing::ExpectGpuMatchesCpu(*context_, mesh, CrowdPalettes(DefaultSkeleton(), 3), 3, weights);
}

TEST_P(ActiveShapesGpu, AnInstanceWithEveryWeightZeroBesideActiveOnesIsSkinningAlone) {
  Primitive mesh = FaceMesh(3000, GetParam());
  // Rest normals and tangents of length 3 (still valid): renormalizing them before skinning
  // would change low bits of the outputs, so skipping the stage is visible below.
  for (float& n : mesh.normals) n *= 3.0f;
  for (size_t i = 0; i < mesh.tangents.size(); ++i) mesh.tangents[i] *= i % 4 == 3 ? 1.0f : 3.0f;
  const size_t t = mesh.targets.size();
  const std::vector<Float3x4> palettes = CrowdPalettes(DefaultSkeleton(), 3);
  const std::vector<float> weights =
      Concat({Only(t, {0, 5, 40}), std::vector<float>(t, 0.0f), Only(t, {1, 6, 41, 59})});
  testing::ExpectGpuMatchesCpu(*context_, mesh, palettes, 3, weights);

  // Bit for bit what the mesh without morph targets gives: the morph stage was skipped.
  Primitive plain = mesh;
  plain.targets.clear();
  Deformed with(*context_, mesh, 3), without(*context_, plain, 3);
  for (uint32_t i = 0; i < 3; ++i) {
    const size_t j = mesh.palette_size(DefaultJoints());
    ASSERT_TRUE(with.SetPalette(i, std::span(palettes).subspan(i * j, j)).ok());
    ASSERT_TRUE(without.SetPalette(i, std::span(palettes).subspan(i * j, j)).ok());
    ASSERT_TRUE(with.SetMorphWeights(i, std::span(weights).subspan(i * t, t)).ok());
  }
  const size_t v = mesh.vertex_count();
  const testing::Streams a = Instance(with.Run(), 1, v), b = Instance(without.Run(), 1, v);
  EXPECT_EQ(testing::MaxAbsDiff(a.positions, b.positions), 0.0f);
  EXPECT_EQ(testing::MaxAbsDiff(a.normals, b.normals), 0.0f);
  EXPECT_EQ(testing::MaxAbsDiff(a.tangents, b.tangents), 0.0f);
}

// As the CPU reference (MorphTargetsJob), a NaN or infinite weight is refused, naming it, and the
// instance keeps the weights it had.
TEST_P(ActiveShapesGpu, SetMorphWeightsRefusesANonFiniteWeight) {
  const Primitive mesh = FaceMesh(200, GetParam());
  const size_t t = mesh.targets.size();
  Deformed gpu(*context_, mesh, 1);
  const std::vector<float> before = Only(t, {3});
  ASSERT_TRUE(gpu.SetMorphWeights(0, before).ok());
  for (const float bad :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    std::vector<float> weights = Only(t, {3, 7});
    weights[7] = bad;
    const Status s = gpu.SetMorphWeights(0, weights);
    EXPECT_EQ(s.code(), Error::kNonFiniteValue);
    EXPECT_EQ(s.error().where, "weights/7");
    const std::span<const float> kept = gpu.morph_weights(0);
    EXPECT_EQ(std::vector<float>(kept.begin(), kept.end()), before);
  }
}

TEST_P(ActiveShapesGpu, WeightsChangedBetweenFramesInOneSkinCacheMatchTheCpu) {
  const Primitive mesh = FaceMesh(3000, GetParam());
  const size_t t = mesh.targets.size(), j = mesh.palette_size(DefaultJoints());
  const std::vector<Float3x4> palettes = CrowdPalettes(DefaultSkeleton(), 2);
  Deformed gpu(*context_, mesh, 2);
  for (uint32_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(gpu.SetPalette(i, std::span(palettes).subspan(i * j, j)).ok());
  }
  const std::vector<float> zero(t, 0.0f);
  // Instance 0: active -> inactive -> active with other targets; instance 1 the other way round.
  const std::vector<std::vector<float>> frames = {
      Concat({Only(t, {3, 8, 12, 33, 50}), zero}),
      Concat({zero, Only(t, {4, 20})}),
      Concat({Only(t, {8, 44}), zero}),
  };
  const testing::Streams skin_only = testing::SkinOnCpu(mesh, palettes, 2);
  for (size_t f = 0; f < frames.size(); ++f) {
    SCOPED_TRACE("frame " + std::to_string(f));
    for (uint32_t i = 0; i < 2; ++i) {
      ASSERT_TRUE(gpu.SetMorphWeights(i, std::span(frames[f]).subspan(i * t, t)).ok());
      const auto set = gpu.morph_weights(i);
      EXPECT_TRUE(std::equal(set.begin(), set.end(), frames[f].begin() + ptrdiff_t(i * t)));
    }
    const testing::Streams out = gpu.Run();
    ExpectWithinTolerance(mesh, out, testing::SkinOnCpu(mesh, palettes, 2, frames[f]));
    // The inactive instance is skinning alone, not last frame's shapes.
    const uint32_t inactive = f == 1 ? 0 : 1;
    const size_t v = mesh.vertex_count();
    ExpectWithinTolerance(mesh, Instance(out, inactive, v), Instance(skin_only, inactive, v));
  }
}

INSTANTIATE_TEST_SUITE_P(DenseAndSparse, ActiveShapesGpu, ::testing::Bool());

}  // namespace
}  // namespace sinew
