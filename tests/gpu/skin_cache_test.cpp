// The frame model (sinew/vk/skin_cache.h): a mixed crowd deforms as the CPU reference while
// instances come, go and sit out frames; frames in flight under synchronization validation;
// previous positions; the dispatch count; ids and capacities.
#include "sinew/vk/skin_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/procedural/crowd.h"
#include "sinew/procedural/face_shapes.h"
#include "sinew/vk/readback.h"

namespace sinew {
namespace {

using testing::GpuTest;

class SkinCacheTest : public GpuTest {};

// Every procedural character below has the same skeleton (the default joints per limb).
using testing::CharacterMesh;
using testing::DefaultJoints;
using testing::DefaultSkeleton;

Primitive WithFaceShapes(Primitive mesh) {
  procedural::FaceShapeOptions o;
  o.shapes = 12;
  auto shapes = procedural::MakeFaceShapes(mesh, o);
  EXPECT_TRUE(shapes.ok());
  mesh.targets = shapes->targets;
  return mesh;
}

// The crowd member `member`'s pose at `time`: one palette for the procedural skeleton, which
// every mesh below shares (same joints per limb).
std::vector<Float3x4> Pose(const Primitive&, float time, uint32_t member) {
  std::vector<Float3x4> palette(DefaultJoints());
  EXPECT_TRUE(procedural::CrowdPalette(DefaultSkeleton(), time, member, palette).ok());
  return palette;
}

// Reads `floats` floats at byte `offset` of `buffer`.
std::vector<float> Read(const vk::Context& ctx, VkBuffer buffer, VkDeviceSize offset,
                        size_t floats) {
  auto read = vk::ReadFloats(ctx, buffer, offset, floats * sizeof(float));
  EXPECT_TRUE(read.ok()) << read.error().ToString();
  return read.ok() ? std::move(read.value()) : std::vector<float>();
}

// One frame, submitted and waited for: the barrier before (last frame's copies and writes), the
// deformation of `active`, the barrier to a copy.
void RunFrame(const vk::Context& ctx, vk::SkinCache& cache,
              std::span<const vk::InstanceId> active) {
  Status recorded;
  const Status submitted = ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
    cache.RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    recorded = cache.Record(cmd, active);
    cache.RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  });
  ASSERT_TRUE(recorded.ok()) << recorded.error().ToString();
  ASSERT_TRUE(submitted.ok()) << submitted.error().ToString();
}

// Expects instance `id` (of `mesh`) to hold the CPU reference for `palette` and `weights`.
void ExpectDeformed(const vk::Context& ctx, const vk::SkinCache& cache, vk::InstanceId id,
                    const Primitive& mesh, const std::vector<Float3x4>& palette,
                    const std::vector<float>& weights, const char* what) {
  SCOPED_TRACE(what);
  const std::vector<Float3x4> used(palette.begin(),
                                   palette.begin() + ptrdiff_t(mesh.palette_size(DefaultJoints())));
  const testing::Streams expected = testing::SkinOnCpu(mesh, used, 1, weights);
  const vk::InstanceOutputs out = cache.outputs(id);
  ASSERT_EQ(out.vertex_count, mesh.vertex_count());
  const size_t v = mesh.vertex_count();
  EXPECT_LE(testing::MaxAbsDiff(Read(ctx, out.buffer, out.positions, v * 3), expected.positions),
            1e-4f);
  ASSERT_EQ(out.has_normals, !mesh.normals.empty());
  if (out.has_normals) {
    EXPECT_LE(testing::MaxAbsDiff(Read(ctx, out.buffer, out.normals, v * 3), expected.normals),
              1e-5f);
  }
  ASSERT_EQ(out.has_tangents, !mesh.tangents.empty());
  if (out.has_tangents) {
    EXPECT_LE(testing::MaxAbsDiff(Read(ctx, out.buffer, out.tangents, v * 4), expected.tangents),
              1e-5f);
  }
}

// A mixed crowd over six frames: dense meshes of K = 4 and 8 (with and without normals and
// tangents), a sparse one and one with blend shapes; two meshes share each palette; instances are
// added and removed between frames, and some sit frames out. Every deformed instance matches the
// CPU reference; an instance left out keeps its last outputs; the whole frame is one dispatch per
// kernel variant in use (up to five), not one per mesh.
TEST_F(SkinCacheTest, AMixedCrowdMatchesTheCpuReferenceWhileInstancesComeGoAndSitOut) {
  auto created = vk::SkinCache::Create(*context_, {.frames_in_flight = 2, .max_instances = 32});
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  vk::SkinCache& cache = **created;
  const std::vector<Primitive> meshes = {CharacterMesh(300, 4), CharacterMesh(130, 8, true, false),
                                         testing::SparseCharacterMesh(CharacterMesh(200, 4)),
                                         WithFaceShapes(CharacterMesh(260, 4, true, false)),
                                         CharacterMesh(70, 4, false, false)};
  std::vector<vk::MeshId> mesh_ids;
  for (const Primitive& m : meshes) {
    auto id = cache.AddMesh(m, DefaultJoints());
    ASSERT_TRUE(id.ok()) << id.error().ToString();
    mesh_ids.push_back(*id);
  }
  const uint32_t joints = DefaultJoints();

  struct Member {
    uint32_t member;  // crowd member: its pose
    vk::PaletteId palette;
    std::vector<std::pair<size_t, vk::InstanceId>> parts;  // mesh index, instance
    std::vector<float> weights;                            // the blend-shape mesh's
    std::map<size_t, std::vector<float>> last;             // part -> last positions read
  };
  std::vector<Member> crowd;
  uint32_t next_member = 0;
  const auto spawn = [&](std::vector<size_t> parts) {
    Member m;
    m.member = next_member++;
    auto palette = cache.AddPalette(joints);
    ASSERT_TRUE(palette.ok());
    m.palette = *palette;
    for (size_t k : parts) {
      auto instance = cache.AddInstance(mesh_ids[k], m.palette);
      ASSERT_TRUE(instance.ok()) << instance.error().ToString();
      m.parts.push_back({k, *instance});
      if (!meshes[k].targets.empty()) {
        m.weights.assign(meshes[k].targets.size(), 0.0f);
        for (size_t t = 0; t < m.weights.size(); t += 3) m.weights[t] = 0.25f * float(t % 4 + 1);
        ASSERT_TRUE(cache.SetMorphWeights(*instance, m.weights).ok());
      }
    }
    crowd.push_back(std::move(m));
  };
  spawn({0, 3});
  spawn({1, 2});
  spawn({2, 4, 0});
  spawn({3});

  for (uint32_t frame = 0; frame < 6; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    // Changes between frames: one leaves at frame 2, two arrive at frames 1 and 3.
    if (frame == 1) spawn({4, 1});
    if (frame == 2) {
      for (auto& [k, id] : crowd[1].parts) ASSERT_TRUE(cache.RemoveInstance(id).ok());
      ASSERT_TRUE(cache.RemovePalette(crowd[1].palette).ok());
      crowd.erase(crowd.begin() + 1);
    }
    if (frame == 3) spawn({2, 3, 1});
    // Every member moves; member 0 sits out odd frames.
    std::vector<vk::InstanceId> active;
    std::map<uint32_t, std::vector<Float3x4>> poses;
    for (Member& m : crowd) {
      poses[m.member] = Pose(meshes[0], 0.2f + 0.13f * float(frame), m.member);
      ASSERT_TRUE(cache.SetPalette(m.palette, poses[m.member]).ok());
      if (m.member == 0 && frame % 2 == 1) continue;
      for (auto& [k, id] : m.parts) active.push_back(id);
    }
    RunFrame(*context_, cache, active);
    const vk::SkinCacheFrameStats& stats = cache.last_frame_stats();
    EXPECT_EQ(stats.instances, active.size());
    // One dispatch per kernel variant in use, never one per mesh: dense K = 4 with normals and
    // tangents, dense K = 8 with normals, sparse, blend shapes with normal offsets, dense bare.
    std::set<std::tuple<bool, bool, bool, bool, uint32_t>> variants;
    for (const vk::InstanceId& id : active) {
      for (const Member& m : crowd) {
        for (const auto& [k, instance] : m.parts) {
          if (instance.index != id.index) continue;
          const Primitive& p = meshes[k];
          variants.insert({p.sparse(), !p.normals.empty(), !p.tangents.empty(),
                           !p.targets.empty() && !p.targets[0].normals.empty(),
                           p.sparse() ? 0u : p.influences.influences_per_vertex});
        }
      }
    }
    EXPECT_EQ(stats.kernel_variants, variants.size());
    EXPECT_EQ(stats.dispatches, stats.kernel_variants) << "for " << stats.meshes << " meshes";
    for (Member& m : crowd) {
      const bool sat_out = m.member == 0 && frame % 2 == 1;
      for (auto& [k, id] : m.parts) {
        const vk::InstanceOutputs out = cache.outputs(id);
        const std::vector<float> now =
            Read(*context_, out.buffer, out.positions, out.vertex_count * 3);
        if (sat_out) {
          EXPECT_EQ(now, m.last[k]) << "an instance left out keeps its last outputs";
          continue;
        }
        const std::vector<float> weights =
            meshes[k].targets.empty() ? std::vector<float>() : m.weights;
        ExpectDeformed(*context_, cache, id, meshes[k], poses[m.member], weights, "deformed");
        m.last[k] = now;
      }
    }
  }
  // One pipeline per variant the meshes need (the five above), not per mesh or instance; the
  // cache made the two common linear ones when it was created.
  EXPECT_EQ(context_->pipelines_created(), 5u);
}

// A primitive without influences (a prop, or a mesh whose node has no skin) is uploaded as it is
// and moves rigidly with palette entry 0, its node's world matrix, on the GPU as on the CPU; its
// palette has one entry whatever the joint count says.
TEST_F(SkinCacheTest, ARigidPrimitiveMovesWithPaletteEntryZero) {
  Primitive mesh = CharacterMesh(150, 4);
  mesh.influences = {};
  ASSERT_FALSE(mesh.skinned());
  ASSERT_EQ(mesh.palette_size(DefaultJoints()), 1u);
  Float3x4 world = ToFloat3x4(Translation(1, 2, 3));
  world.row[0].x = -2.0f;  // a mirror and a scale: normals by the cofactor, not the matrix
  world.row[1].y = 0.5f;
  testing::ExpectGpuMatchesCpu(*context_, mesh, {world, world}, 2);
  // The CPU reference is the matrix itself.
  std::vector<float> positions(mesh.positions.size()), normals(mesh.normals.size()),
      tangents(mesh.tangents.size());
  ASSERT_TRUE(cpu::SkinMesh(mesh, std::span(&world, 1), positions, normals, tangents).ok());
  for (size_t v = 0; v < mesh.vertex_count(); ++v) {
    const float* p = &mesh.positions[v * 3];
    ASSERT_NEAR(positions[v * 3 + 0], -2.0f * p[0] + 1.0f, 1e-5f);
    ASSERT_NEAR(positions[v * 3 + 1], 0.5f * p[1] + 2.0f, 1e-5f);
    ASSERT_NEAR(positions[v * 3 + 2], p[2] + 3.0f, 1e-5f);
  }
}

// The dispatch count does not grow with the number of meshes: ten meshes of two kernel variants
// are two dispatches, as two meshes are.
TEST_F(SkinCacheTest, TenMeshesAreOneDispatchPerKernelVariant) {
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok());
  auto palette = (*cache)->AddPalette(DefaultJoints());
  ASSERT_TRUE(palette.ok());
  for (uint32_t m = 0; m < 10; ++m) {
    auto mesh = (*cache)->AddMesh(CharacterMesh(100 + 37 * m, 4 + 4 * (m % 2)), DefaultJoints());
    ASSERT_TRUE(mesh.ok());
    for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE((*cache)->AddInstance(*mesh, *palette).ok());
  }
  ASSERT_TRUE(
      context_->SubmitAndWait([&](VkCommandBuffer cmd) { ASSERT_TRUE((*cache)->Record(cmd).ok()); })
          .ok());
  // Two kinds of mesh (K = 4 and K = 8, a constant of the dense kernel): two dispatches.
  EXPECT_EQ((*cache)->last_frame_stats().kernel_variants, 2u);
  EXPECT_EQ((*cache)->last_frame_stats().dispatches, 2u);
  EXPECT_EQ((*cache)->last_frame_stats().meshes, 10u);
  EXPECT_EQ((*cache)->last_frame_stats().instances, 30u);
}

// Outputs beyond one page (maxStorageBufferRange; here a small output_page_bytes) go in further
// pages: each page used adds a dense and a sparse dispatch, and every instance still matches.
TEST_F(SkinCacheTest, InstancesSpreadOverOutputPagesStillMatchTheCpu) {
  vk::SkinCacheOptions options;
  options.output_page_bytes = 16 << 10;
  options.output_bytes = 64 << 10;
  auto created = vk::SkinCache::Create(*context_, options);
  ASSERT_TRUE(created.ok()) << created.error().ToString();
  vk::SkinCache& cache = **created;
  EXPECT_EQ(cache.output_pages(), 4u);
  const Primitive dense = CharacterMesh(100, 4);  // 5.2 KB of outputs an instance
  const Primitive sparse = testing::SparseCharacterMesh(CharacterMesh(90, 4));
  const vk::MeshId dense_id = cache.AddMesh(dense, DefaultJoints()).value();
  const vk::MeshId sparse_id = cache.AddMesh(sparse, DefaultJoints()).value();
  std::vector<std::pair<const Primitive*, vk::InstanceId>> instances;
  std::vector<vk::PaletteId> palettes;
  for (uint32_t i = 0; i < 8; ++i) {
    palettes.push_back(cache.AddPalette(DefaultJoints()).value());
    const bool is_sparse = i % 2 == 1;
    auto id = cache.AddInstance(is_sparse ? sparse_id : dense_id, palettes.back());
    ASSERT_TRUE(id.ok()) << id.error().ToString();
    instances.push_back({is_sparse ? &sparse : &dense, *id});
    ASSERT_TRUE(cache.SetPalette(palettes.back(), Pose(dense, 0.3f, i)).ok());
  }
  std::vector<VkBuffer> buffers;
  for (const auto& [mesh, id] : instances) buffers.push_back(cache.outputs(id).buffer);
  std::sort(buffers.begin(), buffers.end());
  const size_t pages = size_t(std::unique(buffers.begin(), buffers.end()) - buffers.begin());
  EXPECT_GE(pages, 3u);
  std::vector<vk::InstanceId> all;
  for (const auto& [mesh, id] : instances) all.push_back(id);
  RunFrame(*context_, cache, all);
  EXPECT_EQ(cache.last_frame_stats().dispatches, 2 * pages);
  for (uint32_t i = 0; i < instances.size(); ++i) {
    ExpectDeformed(*context_, cache, instances[i].second, *instances[i].first, Pose(dense, 0.3f, i),
                   {}, "paged");
  }
}

// A palette not written in a frame keeps its value (palette() and Record() copy it forward into
// the new frame slot); OverwritePalette() hands out the slot as it is, for callers that write every
// entry.
TEST_F(SkinCacheTest, APaletteNotWrittenKeepsItsValueAndOverwritePaletteSkipsTheCopy) {
  auto cache = vk::SkinCache::Create(*context_, {.frames_in_flight = 2}).value();
  const Primitive mesh = CharacterMesh(120, 4);
  const vk::MeshId m = cache->AddMesh(mesh, DefaultJoints()).value();
  const vk::PaletteId p = cache->AddPalette(DefaultJoints()).value();
  const vk::InstanceId id = cache->AddInstance(m, p).value();
  const std::vector<Float3x4> first = Pose(mesh, 0.4f, 1), second = Pose(mesh, 1.3f, 2);
  ASSERT_TRUE(cache->SetPalette(p, first).ok());
  const vk::InstanceId all[] = {id};
  RunFrame(*context_, *cache, all);  // frame 0, slot 0
  // Frame 1 (slot 1): not written; deformed with frame 0's palette.
  RunFrame(*context_, *cache, all);
  ExpectDeformed(*context_, *cache, id, mesh, first, {}, "kept across a frame");
  // Frame 2 (slot 0 again): palette() starts from the newest matrices.
  const std::span<Float3x4> kept = cache->palette(p);
  EXPECT_EQ(kept[3].row[1].w, first[3].row[1].w);
  // Frame 2, another palette written in full through OverwritePalette.
  const std::span<Float3x4> slot = cache->OverwritePalette(p);
  ASSERT_EQ(slot.size(), second.size());
  std::copy(second.begin(), second.end(), slot.begin());
  RunFrame(*context_, *cache, all);
  ExpectDeformed(*context_, *cache, id, mesh, second, {}, "overwritten");
  EXPECT_TRUE(cache->OverwritePalette(vk::PaletteId{p.index, p.generation + 1, p.cache}).empty());
}

// A frame slot keeps its work table while the same instances are deformed in the same order; an
// instance removed and another added in its slot (same index, another mesh) rewrites it.
TEST_F(SkinCacheTest, TheWorkTableFollowsAnInstanceReplacedInTheSameSlot) {
  auto cache = vk::SkinCache::Create(*context_, {.frames_in_flight = 1}).value();
  const Primitive small = CharacterMesh(70, 4), large = CharacterMesh(300, 8);
  const vk::MeshId small_id = cache->AddMesh(small, DefaultJoints()).value();
  const vk::MeshId large_id = cache->AddMesh(large, DefaultJoints()).value();
  const vk::PaletteId p = cache->AddPalette(DefaultJoints()).value();
  ASSERT_TRUE(cache->SetPalette(p, Pose(small, 0.9f, 0)).ok());
  const vk::InstanceId a = cache->AddInstance(small_id, p).value();
  const vk::InstanceId first[] = {a};
  RunFrame(*context_, *cache, first);
  RunFrame(*context_, *cache, first);  // the same table again
  ExpectDeformed(*context_, *cache, a, small, Pose(small, 0.9f, 0), {}, "small");
  ASSERT_TRUE(cache->RemoveInstance(a).ok());
  const vk::InstanceId b = cache->AddInstance(large_id, p).value();
  ASSERT_EQ(b.index, a.index);
  const vk::InstanceId second[] = {b};
  RunFrame(*context_, *cache, second);
  EXPECT_EQ(cache->last_frame_stats().work_items, (300u + 63) / 64);
  ExpectDeformed(*context_, *cache, b, large, Pose(small, 0.9f, 0), {}, "large, same slot");
}

// SkinCacheOptionsFor leaves room for what pages waste at their ends: five instances, of which no
// two fit in one page, all find a place.
TEST_F(SkinCacheTest, OptionsForAMeshHoldTheirInstancesWhateverThePagesWaste) {
  const Primitive mesh = CharacterMesh(100, 4);  // 5.2 KB of outputs an instance
  vk::SkinCacheOptions base;
  base.output_page_bytes = 8192;
  auto options = vk::SkinCacheOptionsFor(mesh, DefaultJoints(), 5, base);
  ASSERT_TRUE(options.ok());
  auto cache = vk::SkinCache::Create(*context_, *options);
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  const vk::MeshId m = (*cache)->AddMesh(mesh, DefaultJoints()).value();
  for (int i = 0; i < 5; ++i) {
    const vk::PaletteId p = (*cache)->AddPalette(DefaultJoints()).value();
    auto instance = (*cache)->AddInstance(m, p);
    ASSERT_TRUE(instance.ok()) << "instance " << i << ": " << instance.error().ToString();
  }
  EXPECT_EQ(vk::SkinCacheOutputBytes(1000, 500), 1000u) << "one page holds it all";
  EXPECT_EQ(vk::SkinCacheOutputBytes(4000, 500, 768), 15u * 768) << "268 usable bytes a page";
}

// Three frames in flight on one queue: the host writes frame f+1's palettes while frame f runs
// (no wait but for the frame that used the same slot), under synchronization validation (on in
// the fixture: any hazard fails the test). Each frame's outputs, copied out by that frame's own
// commands, are the CPU reference for that frame's palettes.
TEST_F(SkinCacheTest, ThreeFramesInFlightEachDeformWithTheirOwnPalettes) {
  constexpr uint32_t kFrames = 3;
  auto created = vk::SkinCache::Create(*context_, {.frames_in_flight = kFrames});
  ASSERT_TRUE(created.ok());
  vk::SkinCache& cache = **created;
  const Primitive dense = CharacterMesh(3000, 4);
  const Primitive sparse = testing::SparseCharacterMesh(CharacterMesh(2000, 4));
  auto dense_id = cache.AddMesh(dense, DefaultJoints());
  auto sparse_id = cache.AddMesh(sparse, DefaultJoints());
  ASSERT_TRUE(dense_id.ok() && sparse_id.ok());
  std::vector<vk::PaletteId> palettes;
  std::vector<vk::InstanceId> instances;  // dense, sparse of member 0, then member 1
  for (uint32_t member = 0; member < 2; ++member) {
    auto palette = cache.AddPalette(DefaultJoints());
    ASSERT_TRUE(palette.ok());
    palettes.push_back(*palette);
    instances.push_back(cache.AddInstance(*dense_id, *palette).value());
    instances.push_back(cache.AddInstance(*sparse_id, *palette).value());
  }

  // The host's side of a frame loop, through the Context's entry points.
  const vk::Context& ctx = *context_;
  const auto load = [&](const char* name) {
    return ctx.get_device_proc_addr()(ctx.device(), name);
  };
  auto create_pool = reinterpret_cast<PFN_vkCreateCommandPool>(load("vkCreateCommandPool"));
  auto destroy_pool = reinterpret_cast<PFN_vkDestroyCommandPool>(load("vkDestroyCommandPool"));
  auto allocate = reinterpret_cast<PFN_vkAllocateCommandBuffers>(load("vkAllocateCommandBuffers"));
  auto begin = reinterpret_cast<PFN_vkBeginCommandBuffer>(load("vkBeginCommandBuffer"));
  auto end = reinterpret_cast<PFN_vkEndCommandBuffer>(load("vkEndCommandBuffer"));
  auto create_fence = reinterpret_cast<PFN_vkCreateFence>(load("vkCreateFence"));
  auto destroy_fence = reinterpret_cast<PFN_vkDestroyFence>(load("vkDestroyFence"));
  auto wait = reinterpret_cast<PFN_vkWaitForFences>(load("vkWaitForFences"));
  auto reset_fence = reinterpret_cast<PFN_vkResetFences>(load("vkResetFences"));
  auto submit = reinterpret_cast<PFN_vkQueueSubmit>(load("vkQueueSubmit"));
  auto copy = reinterpret_cast<PFN_vkCmdCopyBuffer>(load("vkCmdCopyBuffer"));
  auto device_wait = reinterpret_cast<PFN_vkDeviceWaitIdle>(load("vkDeviceWaitIdle"));
  auto fence_status = reinterpret_cast<PFN_vkGetFenceStatus>(load("vkGetFenceStatus"));
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = ctx.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(create_pool(ctx.device(), &pool_info, nullptr, &pool), VK_SUCCESS);
  VkCommandBuffer cmds[kFrames];
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = kFrames;
  ASSERT_EQ(allocate(ctx.device(), &alloc, cmds), VK_SUCCESS);
  VkFence fences[kFrames];
  std::vector<vk::Buffer> readbacks;
  VkDeviceSize bytes = 0;
  for (vk::InstanceId id : instances) bytes += cache.outputs(id).vertex_count * 12;
  for (uint32_t f = 0; f < kFrames; ++f) {
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    ASSERT_EQ(create_fence(ctx.device(), &fence_info, nullptr, &fences[f]), VK_SUCCESS);
    readbacks.push_back(
        ctx.CreateBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUsage::kReadback)
            .value());
  }

  // What frame `frame` must have produced: every instance's positions, in `instances` order.
  const auto expected = [&](uint32_t frame) {
    std::vector<float> all;
    for (size_t i = 0; i < instances.size(); ++i) {
      const Primitive& mesh = i % 2 ? sparse : dense;
      const testing::Streams s =
          testing::SkinOnCpu(mesh, Pose(dense, 0.1f * float(frame), uint32_t(i / 2)), 1);
      all.insert(all.end(), s.positions.begin(), s.positions.end());
    }
    return all;
  };
  std::vector<int> in_slot(kFrames, -1);  // the frame each slot last ran
  uint32_t overlapped = 0;  // frames still running when the next one's palettes were written
  const auto check = [&](uint32_t slot) {
    if (in_slot[slot] < 0) return;
    const auto* got = static_cast<const float*>(readbacks[slot].mapped());
    const std::vector<float> want = expected(uint32_t(in_slot[slot]));
    EXPECT_LE(testing::MaxAbsDiff(std::vector<float>(got, got + want.size()), want), 1e-4f)
        << "frame " << in_slot[slot];
  };
  for (uint32_t frame = 0; frame < 9; ++frame) {
    const uint32_t slot = cache.frame_slot();
    ASSERT_EQ(slot, frame % kFrames);
    // Wait only for the frame that used this slot; frames f-1 and f-2 may still be running.
    ASSERT_EQ(wait(ctx.device(), 1, &fences[slot], VK_TRUE, UINT64_MAX), VK_SUCCESS);
    check(slot);
    ASSERT_EQ(reset_fence(ctx.device(), 1, &fences[slot]), VK_SUCCESS);
    for (uint32_t member = 0; member < 2; ++member) {
      const std::vector<Float3x4> pose = Pose(dense, 0.1f * float(frame), member);
      std::span<Float3x4> mapped = cache.palette(palettes[member]);
      std::copy(pose.begin(), pose.end(), mapped.begin());
    }
    if (frame > 0) {
      const VkResult r = fence_status(ctx.device(), fences[(frame - 1) % kFrames]);
      overlapped += r == VK_NOT_READY ? 1 : 0;
    }
    VkCommandBuffer cmd = cmds[slot];
    VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin_info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    ASSERT_EQ(begin(cmd, &begin_info), VK_SUCCESS);
    cache.RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    ASSERT_TRUE(cache.Record(cmd).ok());
    cache.RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkDeviceSize at = 0;
    for (vk::InstanceId id : instances) {
      const vk::InstanceOutputs out = cache.outputs(id);
      const VkBufferCopy region{out.positions, at, VkDeviceSize{out.vertex_count} * 12};
      copy(cmd, out.buffer, readbacks[slot].handle(), 1, &region);
      at += region.size;
    }
    ASSERT_EQ(end(cmd), VK_SUCCESS);
    VkSubmitInfo submit_info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit_info.commandBufferCount = 1;
    submit_info.pCommandBuffers = &cmd;
    ASSERT_EQ(submit(ctx.queue(), 1, &submit_info, fences[slot]), VK_SUCCESS);
    in_slot[slot] = int(frame);
  }
  ASSERT_EQ(wait(ctx.device(), kFrames, fences, VK_TRUE, UINT64_MAX), VK_SUCCESS);
  for (uint32_t slot = 0; slot < kFrames; ++slot) check(slot);
  EXPECT_GT(overlapped, 0u) << "every frame had finished before the host wrote the next one's "
                               "palettes: nothing overlapped, nothing was tested";
  device_wait(ctx.device());
  for (VkFence fence : fences) destroy_fence(ctx.device(), fence, nullptr);
  destroy_pool(ctx.device(), pool, nullptr);
}

class SkinCachePreviousTest : public GpuTest,
                              public ::testing::WithParamInterface<vk::PreviousPositions> {};

// Previous positions are the last frame's outputs; an instance's first frame, a frame after
// Teleport() and an instance left out of the last frame have previous == current.
TEST_P(SkinCachePreviousTest, PreviousPositionsAreTheLastFramesOutputs) {
  vk::SkinCacheOptions options;
  options.previous_positions = GetParam();
  auto created = vk::SkinCache::Create(*context_, options);
  ASSERT_TRUE(created.ok());
  vk::SkinCache& cache = **created;
  const Primitive mesh = CharacterMesh(150, 4);
  auto mesh_id = cache.AddMesh(mesh, DefaultJoints());
  auto palette = cache.AddPalette(DefaultJoints());
  ASSERT_TRUE(mesh_id.ok() && palette.ok());
  const vk::InstanceId id = cache.AddInstance(*mesh_id, *palette).value();
  const size_t floats = mesh.vertex_count() * 3;
  const auto frame = [&](float time, bool active) {
    ASSERT_TRUE(cache.SetPalette(*palette, Pose(mesh, time, 0)).ok());
    std::vector<vk::InstanceId> list;
    if (active) list.push_back(id);
    RunFrame(*context_, cache, list);
  };
  const auto current = [&] {
    return Read(*context_, cache.outputs(id).buffer, cache.outputs(id).positions, floats);
  };
  const auto previous = [&] {
    return Read(*context_, cache.outputs(id).buffer, cache.outputs(id).previous_positions, floats);
  };

  frame(0.1f, true);
  EXPECT_EQ(previous(), current()) << "the first frame has no motion";
  std::vector<float> first = current();
  frame(0.6f, true);
  if (GetParam() == vk::PreviousPositions::kNone) {
    EXPECT_EQ(previous(), current());
    return;
  }
  EXPECT_EQ(previous(), first) << "the second frame's previous positions are the first's outputs";
  EXPECT_NE(current(), first);
  std::vector<float> second = current();
  ASSERT_TRUE(cache.Teleport(id).ok());
  frame(1.1f, true);
  EXPECT_EQ(previous(), current()) << "after a teleport";
  EXPECT_NE(current(), second);
  std::vector<float> third = current();
  frame(1.6f, false);
  EXPECT_EQ(current(), third) << "left out: the outputs stay";
  EXPECT_EQ(previous(), third) << "left out: no motion";
  frame(2.1f, true);
  EXPECT_EQ(previous(), third);
  ExpectDeformed(*context_, cache, id, mesh, Pose(mesh, 2.1f, 0), {}, "after sitting out");
  frame(2.6f, true);
  EXPECT_NE(previous(), third);
  ExpectDeformed(*context_, cache, id, mesh, Pose(mesh, 2.6f, 0), {}, "two frames on");
}

INSTANTIATE_TEST_SUITE_P(Modes, SkinCachePreviousTest,
                         ::testing::Values(vk::PreviousPositions::kPingPong,
                                           vk::PreviousPositions::kCopy,
                                           vk::PreviousPositions::kNone),
                         [](const auto& mode) {
                           switch (mode.param) {
                             case vk::PreviousPositions::kPingPong:
                               return "PingPong";
                             case vk::PreviousPositions::kCopy:
                               return "Copy";
                             default:
                               return "None";
                           }
                         });

TEST_F(SkinCacheTest, RemovedIdsAreRefusedEvenAfterTheirSlotIsReused) {
  auto cache = vk::SkinCache::Create(*context_).value();
  const Primitive mesh = CharacterMesh(100, 4);
  const vk::MeshId m = cache->AddMesh(mesh, DefaultJoints()).value();
  const vk::PaletteId p = cache->AddPalette(DefaultJoints()).value();
  const vk::InstanceId a = cache->AddInstance(m, p).value();
  ASSERT_TRUE(cache->RemoveInstance(a).ok());
  const vk::InstanceId b = cache->AddInstance(m, p).value();
  EXPECT_EQ(b.index, a.index) << "the slot is reused";
  EXPECT_EQ(cache->RemoveInstance(a).code(), Error::kInvalidHandle);
  EXPECT_EQ(cache->SetMorphWeights(a, {}).code(), Error::kInvalidHandle);
  EXPECT_EQ(cache->outputs(a).vertex_count, 0u);
  const vk::InstanceId list[] = {b, a};
  const Status refused = context_->SubmitAndWait([&](VkCommandBuffer cmd) {
    const Status s = cache->Record(cmd, list);
    EXPECT_EQ(s.code(), Error::kInvalidHandle);
    EXPECT_EQ(s.error().where, "active/1");
  });
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(cache->frame(), 0u) << "a refused Record leaves the frame open";
  const vk::InstanceId twice[] = {b, b};
  ASSERT_TRUE(context_
                  ->SubmitAndWait([&](VkCommandBuffer cmd) {
                    EXPECT_EQ(cache->Record(cmd, twice).code(), Error::kInvalidHandle);
                  })
                  .ok());
}

// Mistakes an engine could make, each an error value naming what was wrong: an instance's outputs
// read before any Record() deformed it (its ranges hold nothing yet), an upload queue family the
// device lacks, output pages by the thousand, nothing to record, an instance of another cache
// (with its article right).
TEST_F(SkinCacheTest, MisusesAreErrorsThatSayWhatWasWrong) {
  auto cache = vk::SkinCache::Create(*context_).value();
  const vk::MeshId m = cache->AddMesh(CharacterMesh(100, 4), DefaultJoints()).value();
  const vk::PaletteId p = cache->AddPalette(DefaultJoints()).value();
  const vk::InstanceId i = cache->AddInstance(m, p).value();
  EXPECT_FALSE(cache->outputs(i).deformed);
  const auto early = vk::ReadInstanceOutputs(*context_, *cache, i);
  EXPECT_EQ(early.code(), Error::kInvalidArgument);
  EXPECT_EQ(early.error().where, "instance");
  ASSERT_TRUE(context_
                  ->SubmitAndWait([&](VkCommandBuffer cmd) {
                    ASSERT_TRUE(cache->Record(cmd).ok());
                    cache->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                               VK_ACCESS_TRANSFER_READ_BIT);
                  })
                  .ok());
  EXPECT_TRUE(cache->outputs(i).deformed);
  EXPECT_TRUE(vk::ReadInstanceOutputs(*context_, *cache, i).ok());
  cache->RecordOutputBarrier(VK_NULL_HANDLE, VK_PIPELINE_STAGE_TRANSFER_BIT, 0);  // (nothing)
  vk::SkinCacheOptions options;
  options.upload_family = 99;
  const auto no_family = vk::SkinCache::Create(*context_, options);
  EXPECT_EQ(no_family.code(), Error::kInvalidArgument);
  EXPECT_EQ(no_family.error().where, "SkinCacheOptions::upload_family");
  vk::SkinCacheOptions tiny_pages;
  tiny_pages.output_page_bytes = 1;  // a buffer and a descriptor set every 256 bytes
  const auto pages = vk::SkinCache::Create(*context_, tiny_pages);
  EXPECT_EQ(pages.code(), Error::kInvalidArgument);
  EXPECT_EQ(pages.error().where, "SkinCacheOptions::output_page_bytes");
  const Status nothing = context_->SubmitAndWait({});
  EXPECT_EQ(nothing.code(), Error::kInvalidArgument);
  EXPECT_EQ(nothing.error().where, "record");
  EXPECT_EQ(vk::ReadFloats(*context_, VK_NULL_HANDLE, 0, 16).code(), Error::kInvalidArgument);
  auto other = vk::SkinCache::Create(*context_).value();
  EXPECT_EQ(other->RemoveInstance(i).error().message, "an instance of another SkinCache");
}

// Ids carry the cache that gave them: two caches number their first mesh, palette and instance
// alike, and each refuses the other's.
TEST_F(SkinCacheTest, IdsOfAnotherCacheAreRefused) {
  auto a = vk::SkinCache::Create(*context_).value();
  auto b = vk::SkinCache::Create(*context_).value();
  const Primitive mesh = CharacterMesh(100, 4);
  const vk::MeshId mesh_a = a->AddMesh(mesh, DefaultJoints()).value();
  const vk::MeshId mesh_b = b->AddMesh(mesh, DefaultJoints()).value();
  const vk::PaletteId palette_a = a->AddPalette(DefaultJoints()).value();
  const vk::PaletteId palette_b = b->AddPalette(DefaultJoints()).value();
  EXPECT_EQ(mesh_a.index, mesh_b.index);
  EXPECT_EQ(mesh_a.generation, mesh_b.generation);
  EXPECT_NE(mesh_a, mesh_b);
  const auto foreign_mesh = b->AddInstance(mesh_a, palette_b);
  EXPECT_EQ(foreign_mesh.code(), Error::kInvalidHandle);
  EXPECT_EQ(foreign_mesh.error().message, "a mesh of another SkinCache");
  const auto foreign_palette = b->AddInstance(mesh_b, palette_a);
  EXPECT_EQ(foreign_palette.code(), Error::kInvalidHandle);
  EXPECT_EQ(foreign_palette.error().message, "a palette of another SkinCache");
  EXPECT_EQ(b->mesh_layout(mesh_a), nullptr);
  EXPECT_EQ(b->RemovePalette(palette_a).code(), Error::kInvalidHandle);
  const vk::InstanceId instance_a = a->AddInstance(mesh_a, palette_a).value();
  EXPECT_EQ(b->RemoveInstance(instance_a).code(), Error::kInvalidHandle);
  EXPECT_EQ(b->outputs(instance_a).vertex_count, 0u);
  EXPECT_NE(a->outputs(instance_a).vertex_count, 0u);
}

// Two Contexts' caches number their ids apart too: an engine with a Context per device (or one
// for tools beside the game's) gets kInvalidHandle, not another cache's mesh, for a stray id.
TEST_F(SkinCacheTest, IdsOfACacheOnAnotherContextAreRefused) {
  auto other_context = testing::CreateContextOrReport({});
  if (!other_context) GTEST_SKIP() << "no second Vulkan context";
  auto a = vk::SkinCache::Create(*context_).value();
  auto b = vk::SkinCache::Create(*other_context).value();
  const Primitive mesh = CharacterMesh(100, 4);
  const vk::MeshId mesh_a = a->AddMesh(mesh, DefaultJoints()).value();
  const vk::MeshId mesh_b = b->AddMesh(mesh, DefaultJoints()).value();
  const vk::PaletteId palette_b = b->AddPalette(DefaultJoints()).value();
  EXPECT_NE(mesh_a, mesh_b);
  const auto foreign_mesh = b->AddInstance(mesh_a, palette_b);
  EXPECT_EQ(foreign_mesh.code(), Error::kInvalidHandle);
  EXPECT_EQ(b->mesh_layout(mesh_a), nullptr);
  b.reset();
  testing::ExpectNoValidationMessages(*other_context);
}

// A null command buffer is refused where one is taken, before anything is placed or recorded.
TEST_F(SkinCacheTest, ANullCommandBufferIsRefused) {
  auto cache = vk::SkinCache::Create(*context_).value();
  const auto mesh = cache->AddMesh(CharacterMesh(100, 4), DefaultJoints(), VK_NULL_HANDLE);
  EXPECT_EQ(mesh.code(), Error::kInvalidArgument);
  EXPECT_EQ(mesh.error().where, "upload_cmd");
  const Status record = cache->Record(VK_NULL_HANDLE);
  EXPECT_EQ(record.code(), Error::kInvalidArgument);
  EXPECT_EQ(record.error().where, "cmd");
  EXPECT_EQ(cache->frame(), 0u);
}

// A Context destroyed before a SkinCache made from it stops the program, naming the mistake,
// instead of leaving the cache to free its buffers on a device that is gone.
TEST_F(SkinCacheTest, AContextDestroyedBeforeItsCacheStopsTheProgramSayingWhy) {
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        auto context = vk::Context::Create(vk::ContextOptions{});
        if (!context) std::abort();
        auto cache = vk::SkinCache::Create(**context);
        if (!cache) std::abort();
        context->reset();
      },
      "vk::Context destroyed while 1 SkinCache\\(s\\) created on it still exist");
  GTEST_FLAG_SET(death_test_style, style);
}

TEST_F(SkinCacheTest, MeshesAndPalettesInUseAreNotRemoved) {
  auto cache = vk::SkinCache::Create(*context_).value();
  const Primitive mesh = CharacterMesh(100, 4);
  const vk::MeshId m = cache->AddMesh(mesh, DefaultJoints()).value();
  const vk::PaletteId p = cache->AddPalette(DefaultJoints()).value();
  const vk::PaletteId small = cache->AddPalette(2).value();
  EXPECT_EQ(cache->AddInstance(m, small).code(), Error::kSizeMismatch);
  const vk::InstanceId i = cache->AddInstance(m, p).value();
  EXPECT_EQ(cache->RemoveMesh(m).code(), Error::kInUse);
  EXPECT_EQ(cache->RemovePalette(p).code(), Error::kInUse);
  ASSERT_TRUE(cache->RemoveInstance(i).ok());
  EXPECT_TRUE(cache->RemoveMesh(m).ok());
  EXPECT_TRUE(cache->RemovePalette(p).ok());
  EXPECT_EQ(cache->mesh_layout(m), nullptr);
}

// A full pool is an error that names the option sizing it; the output range of a removed
// instance is reused only once the frames that may still write it are over.
TEST_F(SkinCacheTest, CapacitiesAreErrorsAndOutputsAreReusedAfterTheFramesInFlight) {
  const Primitive mesh = CharacterMesh(100, 4, false, false);
  vk::SkinCacheOptions options;
  options.frames_in_flight = 2;
  options.max_instances = 2;
  options.previous_positions = vk::PreviousPositions::kNone;
  options.output_bytes = 2 * 1200;  // two instances of 100 vertices, positions only
  auto cache = vk::SkinCache::Create(*context_, options).value();
  const vk::MeshId m = cache->AddMesh(mesh, DefaultJoints()).value();
  const vk::PaletteId p = cache->AddPalette(DefaultJoints()).value();
  const vk::InstanceId a = cache->AddInstance(m, p).value();
  const vk::InstanceId b = cache->AddInstance(m, p).value();
  auto third = cache->AddInstance(m, p);
  EXPECT_EQ(third.code(), Error::kCapacityExceeded);
  EXPECT_EQ(third.error().where, "SkinCacheOptions::max_instances");
  const VkDeviceSize a_range = cache->outputs(a).positions;
  ASSERT_TRUE(cache->RemoveInstance(a).ok());
  auto reused = cache->AddInstance(m, p);
  EXPECT_EQ(reused.code(), Error::kCapacityExceeded) << "frames in flight may still write it";
  EXPECT_EQ(reused.error().where, "SkinCacheOptions::output_bytes");
  // The message says why, and when the range comes back.
  EXPECT_EQ(reused.error().message,
            "the output buffer is full; 1200 bytes of removed instances are still used by frames "
            "in flight and come back within 2 Record() calls");
  for (int frame = 0; frame < 2; ++frame) {
    ASSERT_TRUE(
        context_->SubmitAndWait([&](VkCommandBuffer cmd) { ASSERT_TRUE(cache->Record(cmd).ok()); })
            .ok());
  }
  auto later = cache->AddInstance(m, p);
  ASSERT_TRUE(later.ok()) << later.error().ToString();
  EXPECT_EQ(cache->outputs(*later).positions, a_range);
  EXPECT_NE(cache->outputs(b).positions, a_range);
  vk::SkinCacheOptions bad;
  bad.frames_in_flight = 0;
  EXPECT_EQ(vk::SkinCache::Create(*context_, bad).code(), Error::kInvalidArgument);
}

}  // namespace
}  // namespace sinew
