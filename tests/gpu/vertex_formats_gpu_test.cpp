// The compact vertex formats on the GPU (SkinCacheOptions::formats, vertex_formats.h): every
// primitive of every shared asset deformed from compact rest data into compact outputs stays
// within the stated bounds of the float32 CPU reference (positions 1e-4 x extent; normals and
// tangents within the angles docs/vertex_formats.md states), and joint indices of every width
// (8, 16, 32 bits, picked from the palette size) give exactly the CPU result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "gpu/shared_assets.h"
#include "sinew/core/vertex_formats.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache_asset.h"

namespace sinew {
namespace {

// A configuration under test, the position error (× the deformed primitive's bounds diagonal)
// and the angle (degrees) its normals and tangents stay within. The bounds sit above the largest
// error measured over these assets (noted beside each); 1e-4 × extent is the target for
// positions, which unorm8 weights and half-float morph deltas miss.
struct FormatCase {
  const char* name;
  VertexFormats formats;
  double max_position;
  double max_degrees;
};

const FormatCase kCases[] = {
    // measured: 3.3e-6 x extent, 0.0056 degrees
    {"Compact", VertexFormats::Compact(), 1e-5, 0.01},
    // measured: 8.5e-4 x extent, 0.29 degrees
    {"Unorm8Snorm10",
     {WeightFormat::kUnorm8, DirectionFormat::kSnorm10, DirectionFormat::kSnorm10},
     2e-3,
     0.5},
    // measured: 3.3e-6 x extent, 0.092 degrees
    {"Unorm16Snorm10InOctahedralOut",
     {WeightFormat::kUnorm16, DirectionFormat::kSnorm10, DirectionFormat::kOctahedral},
     1e-5,
     0.15},
    // measured: 8.4e-6 x extent, 0.0056 degrees
    {"CompactWithUnorm16Positions",
     {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kOctahedral,
      PositionFormat::kUnorm16},
     2e-5,
     0.01},
    // measured: 1.7e-4 x extent (AnimatedMorphSphere, 1.5e-4 AnimatedMorphCube: half floats keep
    // 11 bits of a large delta), 0.0056 degrees
    {"CompactWithHalfMorphDeltas",
     {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kOctahedral,
      PositionFormat::kFloat32, MorphDeltaFormat::kHalf},
     2.5e-4,
     0.01},
    // Interleaved outputs, ping-ponged between two whole-vertex blocks: float32 exactly as the
    // separate streams (measured: 3.8e-8 x extent, as AssetDeformGpu's separate streams), and
    // Compact() as above (3.3e-6).
    {"InterleavedFloat32",
     {WeightFormat::kFloat32, DirectionFormat::kFloat32, DirectionFormat::kFloat32,
      PositionFormat::kFloat32, MorphDeltaFormat::kFloat32, OutputLayout::kInterleaved},
     1e-5,
     1e-3},
    {"InterleavedCompact",
     {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kOctahedral,
      PositionFormat::kFloat32, MorphDeltaFormat::kFloat32, OutputLayout::kInterleaved},
     1e-5,
     0.01},
    // Compact()'s inputs, float32 outputs (the engine's vertex layout unchanged); measured:
    // 3.3e-6 x extent, 0.0031 degrees
    {"CompactInFloat32Out",
     {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kFloat32},
     1e-5,
     0.01},
    // measured: 8.5e-4 x extent, 0.20 degrees
    {"Unorm8OctahedralInFloatOut",
     {WeightFormat::kUnorm8, DirectionFormat::kOctahedral, DirectionFormat::kFloat32},
     2e-3,
     0.5},
};

// The largest angle in degrees between the xyz of corresponding `stride`-float vectors; pairs
// where the reference is a zero vector are left out (a packed direction cannot be zero).
double MaxAngleDegrees(const std::vector<float>& got, const std::vector<float>& want,
                       size_t stride) {
  double worst = 0;
  for (size_t i = 0; i + 2 < want.size() && i + 2 < got.size(); i += stride) {
    const double ax = got[i], ay = got[i + 1], az = got[i + 2];
    const double bx = want[i], by = want[i + 1], bz = want[i + 2];
    const double la = std::sqrt(ax * ax + ay * ay + az * az);
    const double lb = std::sqrt(bx * bx + by * by + bz * bz);
    if (lb == 0) continue;
    if (la == 0) return 180.0;
    const double c = std::clamp((ax * bx + ay * by + az * bz) / (la * lb), -1.0, 1.0);
    worst = std::max(worst, std::acos(c) * 180.0 / 3.14159265358979323846);
  }
  return worst;
}

class VertexFormatsGpu : public testing::GpuTest,
                         public ::testing::WithParamInterface<std::tuple<const char*, FormatCase>> {
};

// As an engine that asked for compact formats draws the asset: its meshes in a SkinCache of those
// formats, one character posed at three times of its first clip, every primitive read back
// (ReadInstanceOutputs decodes packed normals and tangents) and compared with the float32 CPU
// reference.
TEST_P(VertexFormatsGpu, EveryPrimitiveStaysWithinTheStatedErrorOfTheFloat32Reference) {
  const auto& [file, format] = GetParam();
  auto loaded = loader::LoadAsset(testing::SharedAssetPath(file));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->loaded.asset;
  vk::SkinCacheOptions base;
  base.formats = format.formats;
  auto cache = vk::SkinCache::Create(*context_, vk::SkinCacheOptionsFor(a, 1, base));
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  auto meshes = vk::AddAssetMeshes(**cache, a);
  ASSERT_TRUE(meshes.ok()) << meshes.error().ToString();
  auto character = vk::AddAssetInstance(**cache, *meshes);
  ASSERT_TRUE(character.ok()) << character.error().ToString();
  const cpu::ClipRange range =
      a.animations.empty() ? cpu::ClipRange{} : cpu::RangeOf(a.animations[0]);
  double worst_position = 0, worst_degrees = 0;
  size_t compared = 0;
  for (int step = 0; step < 3; ++step) {
    const float time = range.start + range.duration() * float(step) / 2;
    auto scene = cpu::EvaluateScene(a, a.animations.empty() ? -1 : 0, time);
    ASSERT_TRUE(scene.ok()) << scene.error().ToString();
    ASSERT_TRUE(
        vk::PoseAssetInstance(**cache, a, *meshes, *character, scene->world, scene->pose.weights)
            .ok());
    const Status frame = testing::DeformFrameForReadback(*context_, **cache);
    ASSERT_TRUE(frame.ok()) << frame.error().ToString();
    for (size_t d = 0; d < meshes->drawn.size(); ++d) {
      const uint32_t n = meshes->drawn[d].node;
      std::vector<Float3x4> skin_palette;
      if (a.nodes[n].skin >= 0) {
        auto palette = cpu::NodePalette(a, n, scene->world);
        ASSERT_TRUE(palette.ok()) << palette.error().ToString();
        skin_palette = std::move(palette.value());
      }
      const Mesh& mesh = a.meshes[meshes->drawn[d].mesh];
      for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
        SCOPED_TRACE("step " + std::to_string(step) + " node " + std::to_string(n) + " primitive " +
                     std::to_string(k));
        cpu::DeformedPrimitive expected;
        ASSERT_TRUE(cpu::DeformPrimitive(a, n, k, scene->world, scene->pose.weights[n],
                                         skin_palette, &expected)
                        .ok());
        const vk::InstanceId instance = character->instances[d][k];
        auto got = vk::ReadInstanceOutputs(*context_, **cache, instance);
        ASSERT_TRUE(got.ok()) << got.error().ToString();
        ASSERT_EQ(got->positions.size(), expected.positions.size());
        ASSERT_EQ(got->normals.size(), expected.normals.size());
        ASSERT_EQ(got->tangents.size(), expected.tangents.size());
        const double extent = std::max(BoundsDiagonal(expected.positions), 1e-3f);
        const double position = testing::MaxAbsDiff(got->positions, expected.positions) / extent;
        const double degrees = std::max(MaxAngleDegrees(got->normals, expected.normals, 3),
                                        MaxAngleDegrees(got->tangents, expected.tangents, 4));
        EXPECT_LE(position, format.max_position);
        EXPECT_LE(degrees, format.max_degrees);
        for (size_t i = 3; i < got->tangents.size(); i += 4) {
          ASSERT_EQ(got->tangents[i], expected.tangents[i]) << "handedness of tangent " << i / 4;
        }
        worst_position = std::max(worst_position, position);
        worst_degrees = std::max(worst_degrees, degrees);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 0u);
  // The measured errors, for docs/vertex_formats.md.
  std::printf("[ measured ] %s %s: position %.3g x extent, directions %.4f degrees\n", file,
              format.name, worst_position, worst_degrees);
}

std::string CaseName(const ::testing::TestParamInfo<VertexFormatsGpu::ParamType>& info) {
  std::string name = std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, VertexFormatsGpu,
                         ::testing::Combine(::testing::ValuesIn(testing::kSkinnedOrMorphingAssets),
                                            ::testing::ValuesIn(kCases)),
                         CaseName);
INSTANTIATE_TEST_SUITE_P(UsdSkelScenes, VertexFormatsGpu,
                         ::testing::Combine(::testing::ValuesIn(testing::kUsdSkelScenes),
                                            ::testing::ValuesIn(kCases)),
                         CaseName);

class VertexFormatBytesGpu : public testing::GpuTest {};

// The procedural character (dense K = 4, normals and tangents, a palette under 256 joints) as a
// SkinCache lays it out: 100 B per vertex in float32 (8-bit joint indices), 52 B in
// VertexFormats::Compact(), 48 B with unorm8 weights and snorm10 directions, 46 B with Compact()
// and unorm16 positions, 72 B with Compact()'s inputs and float32 outputs; every stream the size
// its format says.
TEST_F(VertexFormatBytesGpu, ADenseFourInfluenceVertexMovesHalfTheBytesInCompactFormats) {
  const Primitive mesh = testing::CharacterMesh(20000, 4);
  const uint32_t j = testing::DefaultJoints();
  struct Case {
    VertexFormats formats;
    double bytes;
  };
  // unorm16 positions: 6 B a vertex, and the grid's 32 B shared by the 20,000.
  for (const Case& c :
       {Case{VertexFormats{}, 100}, Case{VertexFormats::Compact(), 52},
        Case{{WeightFormat::kUnorm8, DirectionFormat::kSnorm10, DirectionFormat::kSnorm10}, 48},
        Case{{WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kOctahedral,
              PositionFormat::kUnorm16},
             46 + 32.0 / 20000},
        Case{{WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kFloat32},
             72}}) {
    vk::SkinCacheOptions base;
    base.formats = c.formats;
    auto cache = vk::SkinCache::Create(*context_, *vk::SkinCacheOptionsFor(mesh, j, 1, base));
    ASSERT_TRUE(cache.ok());
    auto id = (*cache)->AddMesh(mesh, j);
    ASSERT_TRUE(id.ok()) << id.error().ToString();
    const vk::MeshLayout& l = *(*cache)->mesh_layout(*id);
    EXPECT_EQ(l.formats, c.formats);
    EXPECT_EQ(l.joint_bits, 8u);
    EXPECT_EQ(l.weights.size, 20000u * 4 * WeightBytes(c.formats.weights));
    EXPECT_EQ(l.normals.size, 20000u * NormalBytes(c.formats.directions));
    EXPECT_DOUBLE_EQ(vk::BytesPerVertex(l), c.bytes);
  }
}

// A mesh with a weight above 1 (unorm holds [0, 1]) keeps float32 weights when compact ones are
// asked for, and its positions still match the CPU's (vertex 0's weight of 1.5 included).
TEST_F(VertexFormatBytesGpu, WeightsAboveOneKeepFloat32) {
  Primitive mesh = testing::CharacterMesh(64, 4);
  mesh.influences.weights[0] = 1.5f;
  const uint32_t j = testing::DefaultJoints();
  vk::SkinCacheOptions base;
  base.formats = VertexFormats::Compact();
  auto cache = vk::SkinCache::Create(*context_, *vk::SkinCacheOptionsFor(mesh, j, 1, base));
  ASSERT_TRUE(cache.ok());
  auto id = (*cache)->AddMesh(mesh, j);
  ASSERT_TRUE(id.ok()) << id.error().ToString();
  EXPECT_EQ((*cache)->mesh_layout(*id)->formats.weights, WeightFormat::kFloat32);
  EXPECT_EQ((*cache)->mesh_layout(*id)->formats.directions, DirectionFormat::kOctahedral);
  const std::vector<Float3x4> palettes = testing::CrowdPalettes(testing::DefaultSkeleton(), 1);
  auto palette = (*cache)->AddPalette(j);
  ASSERT_TRUE(palette.ok());
  ASSERT_TRUE((*cache)->SetPalette(*palette, palettes).ok());
  auto instance = (*cache)->AddInstance(*id, *palette);
  ASSERT_TRUE(instance.ok());
  const Status frame = testing::DeformFrameForReadback(*context_, **cache);
  ASSERT_TRUE(frame.ok()) << frame.error().ToString();
  auto got = vk::ReadInstanceOutputs(*context_, **cache, *instance);
  ASSERT_TRUE(got.ok());
  const testing::Streams expected = testing::SkinOnCpu(mesh, palettes, 1);
  EXPECT_LE(testing::MaxAbsDiff(got->positions, expected.positions),
            1e-5f * BoundsDiagonal(expected.positions));
}

class InterleavedOutputsGpu : public testing::GpuTest {};

// `count` positions `stride` bytes apart from `offset` of `buffer`, read back.
std::vector<float> StridedPositions(const vk::Context& ctx, VkBuffer buffer, VkDeviceSize offset,
                                    uint32_t stride, uint32_t count) {
  auto words = vk::ReadFloats(ctx, buffer, offset, VkDeviceSize(count - 1) * stride + 12);
  EXPECT_TRUE(words.ok());
  std::vector<float> out;
  for (uint32_t v = 0; words.ok() && v < count; ++v) {
    out.insert(out.end(), words->begin() + v * (stride / 4), words->begin() + v * (stride / 4) + 3);
  }
  return out;
}

// Interleaved outputs keep previous positions in the same layout: with ping-pong and with the
// kernel's copy, the second frame's previous positions (read at the vertex stride) are the first
// frame's positions exactly, and its positions the CPU's; the strides say where each stream is.
TEST_F(InterleavedOutputsGpu, PreviousPositionsFollowTheInterleavedLayoutInBothModes) {
  const Primitive mesh = testing::CharacterMesh(300, 4);
  const uint32_t j = testing::DefaultJoints();
  const std::vector<Float3x4> palettes = testing::CrowdPalettes(testing::DefaultSkeleton(), 2);
  for (const vk::PreviousPositions mode :
       {vk::PreviousPositions::kPingPong, vk::PreviousPositions::kCopy}) {
    SCOPED_TRACE(mode == vk::PreviousPositions::kCopy ? "copy" : "ping-pong");
    vk::SkinCacheOptions base;
    base.previous_positions = mode;
    base.formats = VertexFormats::Compact();
    base.formats.outputs = OutputLayout::kInterleaved;
    auto cache = vk::SkinCache::Create(*context_, *vk::SkinCacheOptionsFor(mesh, j, 1, base));
    ASSERT_TRUE(cache.ok());
    auto id = (*cache)->AddMesh(mesh, j);
    ASSERT_TRUE(id.ok());
    auto palette = (*cache)->AddPalette(j);
    ASSERT_TRUE(palette.ok());
    auto instance = (*cache)->AddInstance(*id, *palette);
    ASSERT_TRUE(instance.ok());
    std::vector<std::vector<float>> frames;
    for (uint32_t f = 0; f < 2; ++f) {
      const auto posed = std::span(palettes).subspan(f * j, j);
      ASSERT_TRUE((*cache)->SetPalette(*palette, posed).ok());
      const Status frame = testing::DeformFrameForReadback(*context_, **cache);
      ASSERT_TRUE(frame.ok()) << frame.error().ToString();
      const vk::InstanceOutputs out = (*cache)->outputs(*instance);
      EXPECT_EQ(out.positions_stride, 12u + 4 + 4);
      EXPECT_EQ(out.normals_stride, out.positions_stride);
      EXPECT_EQ(out.normals, out.positions + 12);
      EXPECT_EQ(out.tangents, out.positions + 16);
      auto got = vk::ReadInstanceOutputs(*context_, **cache, *instance);
      ASSERT_TRUE(got.ok());
      const testing::Streams expected =
          testing::SkinOnCpu(mesh, std::vector<Float3x4>(posed.begin(), posed.end()), 1);
      EXPECT_LE(testing::MaxAbsDiff(got->positions, expected.positions),
                1e-5f * BoundsDiagonal(expected.positions));
      const std::vector<float> previous = StridedPositions(
          *context_, out.buffer, out.previous_positions, out.positions_stride, 300);
      if (f == 1) {
        EXPECT_EQ(previous, frames[0]) << "the first frame's positions";
      } else if (mode == vk::PreviousPositions::kCopy) {
        // The kernel wrote the first frame to the copy block too (ping-pong has no other block
        // to show yet: previous_positions is positions).
        EXPECT_NE(out.previous_positions, out.positions);
        EXPECT_EQ(previous, got->positions) << "no frame before the first";
      }
      frames.push_back(got->positions);
    }
    EXPECT_NE(frames[0], frames[1]);
  }
}

class JointIndexWidthsGpu : public testing::GpuTest {};

// `mesh`'s joint indices (dense) or groups (sparse) moved up by `shift`, for a palette of `shift`
// more entries.
Primitive Shifted(Primitive mesh, uint32_t shift) {
  if (mesh.sparse()) {
    for (uint32_t& g : mesh.sparse_influences.groups) g += shift;
    mesh.sparse_influences.group_count += shift;
  } else {
    for (uint16_t& j : mesh.influences.joints) j = uint16_t(j + shift);
  }
  return mesh;
}

// Palettes of `shift` decoys (a scale of 3, which would show in every position they touched),
// then the crowd's posed entries, then `tail` decoys more, per instance.
std::vector<Float3x4> ShiftedPalettes(uint32_t instances, uint32_t shift, uint32_t tail = 0) {
  const std::vector<Float3x4> posed = testing::CrowdPalettes(testing::DefaultSkeleton(), instances);
  const uint32_t j = testing::DefaultJoints();
  Float3x4 decoy;
  decoy.row[0].x = decoy.row[1].y = decoy.row[2].z = 3.0f;
  std::vector<Float3x4> out;
  for (uint32_t i = 0; i < instances; ++i) {
    out.insert(out.end(), shift, decoy);
    out.insert(out.end(), posed.begin() + i * j, posed.begin() + (i + 1) * j);
    out.insert(out.end(), tail, decoy);
  }
  return out;
}

// 8-bit indices for a palette of up to 256 entries, 16 bits up to 65,536, 32 beyond: each width
// reads the right entries (float32 everything else, so the GPU matches the CPU exactly). A dense
// mesh's indices are 16-bit values, but the palette of a skin with more joints than that still
// takes 32-bit indices.
TEST_F(JointIndexWidthsGpu, IndicesOfEveryWidthReadTheEntriesTheCpuReads) {
  const Primitive dense = testing::CharacterMesh(300, 4);
  const Primitive sparse = testing::SparseCharacterMesh(dense);
  const uint32_t j = testing::DefaultJoints();
  struct Case {
    const Primitive* mesh;
    uint32_t shift, bits, tail = 0;
  };
  for (const Case& c : {Case{&dense, 0, 8}, Case{&dense, 300, 16}, Case{&dense, 300, 32, 70000},
                        Case{&sparse, 0, 8}, Case{&sparse, 1000, 16}, Case{&sparse, 70000, 32}}) {
    SCOPED_TRACE(std::string(c.mesh->sparse() ? "sparse" : "dense") + " shifted by " +
                 std::to_string(c.shift) + ", " + std::to_string(c.tail) + " entries after");
    const Primitive mesh = Shifted(*c.mesh, c.shift);
    const uint32_t joints = j + c.shift + c.tail;
    auto cache = vk::SkinCache::Create(*context_, *vk::SkinCacheOptionsFor(mesh, joints, 1));
    ASSERT_TRUE(cache.ok());
    auto id = (*cache)->AddMesh(mesh, joints);
    ASSERT_TRUE(id.ok()) << id.error().ToString();
    EXPECT_EQ((*cache)->mesh_layout(*id)->joint_bits, c.bits);
    testing::ExpectGpuMatchesCpu(*context_, mesh, ShiftedPalettes(2, c.shift, c.tail), 2);
  }
}

// `mesh` (dense, K = 4·n) with weights that are multiples of 1/255, exact in float32, unorm16 and
// unorm8 alike, summing to 1 per vertex; every fifth vertex with all its weights 0, and the one
// after it with every quad but the first 0.
Primitive ExactWeights(Primitive mesh) {
  const uint32_t k = mesh.influences.influences_per_vertex;
  std::vector<float>& w = mesh.influences.weights;
  for (size_t v = 0; v < mesh.vertex_count(); ++v) {
    float* slots = &w[v * k];
    const uint32_t kept = v % 5 == 0 ? 0 : v % 5 == 1 ? 4 : k;
    uint32_t rest = 0;
    for (uint32_t i = 1; i < k; ++i) {
      const uint32_t n = i < kept ? uint32_t(std::floor(slots[i] * 255.0f)) : 0;
      slots[i] = float(n) / 255.0f;
      rest += n;
    }
    slots[0] = kept ? float(255 - rest) / 255.0f : 0.0f;
  }
  return mesh;
}

// The dense kernels read a vertex's influences a quad of four slots at a time, in each weight
// format and joint index width (WeightQuad, JointQuad in shaders/skinning_common.glsl): with K = 8
// and 16 (constants of their kernels; at 16 in unorm16 weights the joint indices are read slot by
// slot, kJointsBySlot) and 20 (read from the instance record), linear and dual-quaternion, they
// read the slots the CPU reads, quads of zeros and vertices without weight included.
TEST_F(JointIndexWidthsGpu, DenseQuadsOfEveryFormatReadTheSlotsTheCpuReads) {
  const uint32_t j = testing::DefaultJoints();
  struct Width {
    uint32_t shift, tail, bits;
  };
  for (const uint32_t k : {8u, 16u, 20u}) {
    for (const bool dual_quaternion : {false, true}) {
      Primitive mesh = ExactWeights(testing::CharacterMesh(200, k));
      if (dual_quaternion) mesh.skinning = SkinningMethod::kDualQuaternion;
      for (const Width w : {Width{0, 0, 8}, Width{300, 0, 16}, Width{300, 70000, 32}}) {
        const Primitive shifted = Shifted(mesh, w.shift);
        const uint32_t joints = j + w.shift + w.tail;
        struct Format {
          WeightFormat format;
          const char* name;
        };
        for (const Format f :
             {Format{WeightFormat::kFloat32, "float32"}, Format{WeightFormat::kUnorm16, "unorm16"},
              Format{WeightFormat::kUnorm8, "unorm8"}}) {
          SCOPED_TRACE("K = " + std::to_string(k) + (dual_quaternion ? ", dqs" : "") + ", " +
                       std::to_string(w.bits) + "-bit joints, " + f.name + " weights");
          vk::SkinCacheOptions base;
          base.formats.weights = f.format;
          auto cache =
              vk::SkinCache::Create(*context_, *vk::SkinCacheOptionsFor(shifted, joints, 1, base));
          ASSERT_TRUE(cache.ok());
          auto id = (*cache)->AddMesh(shifted, joints);
          ASSERT_TRUE(id.ok()) << id.error().ToString();
          EXPECT_EQ((*cache)->mesh_layout(*id)->joint_bits, w.bits);
          testing::ExpectGpuMatchesCpu(*context_, shifted, ShiftedPalettes(2, w.shift, w.tail), 2,
                                       {}, base);
        }
      }
    }
  }
}

}  // namespace
}  // namespace sinew
