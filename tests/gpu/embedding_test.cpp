// What an engine embedding sinew relies on: allocation callbacks, debug names, device-address
// outputs, pipelines created once per Context, and legal queue-family barriers
// (docs/embedding.md).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/vk/queue_ownership.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

using testing::GpuTest;

// The handles of `context` (a headless one), for a second Context adopting its device.
vk::AdoptInfo AdoptInfoOf(const vk::Context& context) {
  vk::AdoptInfo info;
  info.get_instance_proc_addr = context.get_instance_proc_addr();
  info.instance = context.instance();
  info.physical_device = context.physical_device();
  info.device = context.device();
  info.queue_family = context.queue_family();
  info.queue = context.queue();
  return info;
}

class EmbeddingTest : public GpuTest {};

// A SkinCache holding `instances` instances of `mesh`, each with a palette of its own (posed).
struct Cached {
  std::unique_ptr<vk::SkinCache> cache;
  std::vector<vk::InstanceId> ids;
};
Cached CacheOf(const vk::Context& ctx, const Primitive& mesh, const Skeleton& skeleton,
               uint32_t instances, vk::SkinCacheOptions options = {}) {
  Cached out;
  auto cache = vk::SkinCache::Create(ctx, options);
  EXPECT_TRUE(cache.ok()) << cache.error().ToString();
  if (!cache.ok()) return out;
  out.cache = std::move(cache.value());
  auto mesh_id = out.cache->AddMesh(mesh, uint32_t(skeleton.joint_count()));
  EXPECT_TRUE(mesh_id.ok()) << mesh_id.error().ToString();
  if (!mesh_id.ok()) return out;
  const std::vector<Float3x4> palettes = testing::CrowdPalettes(skeleton, instances);
  const size_t j = mesh.palette_size(skeleton.joint_count());
  for (uint32_t i = 0; i < instances; ++i) {
    const vk::PaletteId palette = out.cache->AddPalette(uint32_t(j)).value();
    EXPECT_TRUE(out.cache->SetPalette(palette, std::span(palettes).subspan(i * j, j)).ok());
    out.ids.push_back(out.cache->AddInstance(*mesh_id, palette).value());
  }
  return out;
}

// Host memory callbacks that count what is live; each block keeps its size and alignment in a
// header so realloc can copy.
struct CountingAllocator {
  std::atomic<int64_t> live{0};
  std::atomic<int64_t> total{0};

  struct Header {
    size_t size;
    size_t offset;  // from the malloc'd pointer to the user pointer
  };

  static void* Allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* self = static_cast<CountingAllocator*>(user);
    alignment = std::max(alignment, alignof(Header));
    const size_t offset = (sizeof(Header) + alignment - 1) / alignment * alignment;
    auto* raw = static_cast<unsigned char*>(std::malloc(size + offset));
    if (!raw) return nullptr;
    unsigned char* user_ptr = raw + offset;
    Header header{size, offset};
    std::memcpy(user_ptr - sizeof(Header), &header, sizeof(Header));
    ++self->live;
    ++self->total;
    return user_ptr;
  }
  static Header HeaderOf(void* p) {
    Header h;
    std::memcpy(&h, static_cast<unsigned char*>(p) - sizeof(Header), sizeof(Header));
    return h;
  }
  static void Free(void* user, void* p) {
    if (!p) return;
    --static_cast<CountingAllocator*>(user)->live;
    std::free(static_cast<unsigned char*>(p) - HeaderOf(p).offset);
  }
  static void* Reallocate(void* user, void* p, size_t size, size_t alignment,
                          VkSystemAllocationScope scope) {
    if (!p) return Allocate(user, size, alignment, scope);
    if (size == 0) {
      Free(user, p);
      return nullptr;
    }
    void* fresh = Allocate(user, size, alignment, scope);
    if (!fresh) return nullptr;
    std::memcpy(fresh, p, std::min(size, HeaderOf(p).size));
    Free(user, p);
    return fresh;
  }

  VkAllocationCallbacks Callbacks() {
    VkAllocationCallbacks c{};
    c.pUserData = this;
    c.pfnAllocation = Allocate;
    c.pfnReallocation = Reallocate;
    c.pfnFree = Free;
    return c;
  }
};

TEST(EmbeddingAllocator, EveryObjectIsCreatedAndFreedThroughTheHostsCallbacks) {
  CountingAllocator counter;
  const VkAllocationCallbacks callbacks = counter.Callbacks();
  {
    vk::ContextOptions options;
    options.allocator = &callbacks;
    options.validation = vk::Validation::kOff;  // Count the driver's allocations, not the layer's.
    const std::unique_ptr<vk::Context> created = testing::CreateContextOrReport(options);
    if (!created) GTEST_SKIP() << "no Vulkan device";
    const vk::Context& ctx = *created;
    EXPECT_EQ(ctx.allocator(), &callbacks);
    const int64_t after_context = counter.total.load();
    EXPECT_GT(after_context, 0) << "the instance and device went through the callbacks";
    const procedural::Character character = testing::Character(300, 4);

    const Primitive& mesh = character.mesh;
    const Cached cached = CacheOf(ctx, mesh, character.skeleton, 2);
    ASSERT_EQ(cached.ids.size(), 2u);
    EXPECT_GT(counter.total.load(), after_context) << "buffers, memory and pipelines too";
  }
  EXPECT_EQ(counter.live.load(), 0) << "everything allocated through the callbacks was freed";
}

TEST(EmbeddingNames, ObjectsCarrySinewNamesInValidationMessages) {
  vk::ContextOptions options;
  options.validation = vk::Validation::kOn;
  const std::unique_ptr<vk::Context> created = testing::CreateContextOrReport(options);
  if (!created) GTEST_SKIP() << "no Vulkan device or validation layer";
  const vk::Context& ctx = *created;
  ASSERT_TRUE(ctx.debug_names());
  const procedural::Character character = testing::Character(100, 4);

  const Primitive& mesh = character.mesh;
  const Cached cached = CacheOf(ctx, mesh, character.skeleton, 1);
  ASSERT_EQ(cached.ids.size(), 1u);
  ASSERT_TRUE(ctx.validation_messages().empty());
  // A deliberate misuse of the output buffer (a fill at an offset that is not a multiple of 4,
  // VUID-vkCmdFillBuffer-dstOffset-00025): the layer's message names the buffer as sinew did.
  auto fill = reinterpret_cast<PFN_vkCmdFillBuffer>(
      ctx.get_device_proc_addr()(ctx.device(), "vkCmdFillBuffer"));
  ASSERT_NE(fill, nullptr);
  ASSERT_TRUE(ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
                   fill(cmd, cached.cache->outputs(cached.ids[0]).buffer, 2, 4, 0);
                 })
                  .ok());
  const std::vector<std::string> messages = ctx.validation_messages();
  ASSERT_FALSE(messages.empty());
  bool named = false;
  for (const std::string& m : messages) {
    named |= m.find("sinew skin cache outputs") != std::string::npos;
  }
  EXPECT_TRUE(named) << messages.front();
}

// Synchronization validation (on in every GPU test's fixture) reports a missing barrier: copying
// the outputs right after Record() is a read-after-write hazard unless RecordOutputBarrier()
// orders the copy after the compute writes. The clean half also proves that no read-only binding
// of the kernel stands in with an output buffer (a read the validation layer would see).
TEST(EmbeddingSynchronization, ValidationReportsACopyOfTheOutputsWithoutTheOutputBarrier) {
  vk::ContextOptions options;
  options.validation = vk::Validation::kOn;
  options.synchronization_validation = true;
  const std::unique_ptr<vk::Context> created = testing::CreateContextOrReport(options);
  if (!created) GTEST_SKIP() << "no Vulkan device or validation layer";
  const vk::Context& ctx = *created;
  const procedural::Character character = testing::Character(100, 4);

  const Primitive& mesh = character.mesh;
  vk::SkinCacheOptions cache_options;
  cache_options.previous_positions = vk::PreviousPositions::kNone;  // every frame writes one range
  const Cached cached = CacheOf(ctx, mesh, character.skeleton, 1, cache_options);
  ASSERT_EQ(cached.ids.size(), 1u);
  vk::SkinCache& cache = *cached.cache;
  const vk::InstanceOutputs out = cache.outputs(cached.ids[0]);
  const VkDeviceSize bytes = mesh.positions.size() * sizeof(float);
  auto readback =
      ctx.CreateBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUsage::kReadback);
  ASSERT_TRUE(readback.ok());
  auto copy = reinterpret_cast<PFN_vkCmdCopyBuffer>(
      ctx.get_device_proc_addr()(ctx.device(), "vkCmdCopyBuffer"));
  const VkBufferCopy region{out.positions, 0, bytes};
  // Two frames back to back, the second after the reuse barrier, then the copy after the output
  // barrier: clean.
  ASSERT_TRUE(ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
                   ASSERT_TRUE(cache.Record(cmd).ok());
                   cache.RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0);
                   ASSERT_TRUE(cache.Record(cmd).ok());
                   cache.RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                             VK_ACCESS_TRANSFER_READ_BIT);
                   copy(cmd, out.buffer, readback->handle(), 1, &region);
                 })
                  .ok());
  EXPECT_TRUE(ctx.validation_messages().empty()) << ctx.validation_messages().front();
  ASSERT_TRUE(ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
                   cache.RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                            VK_ACCESS_TRANSFER_READ_BIT);
                   ASSERT_TRUE(cache.Record(cmd).ok());
                   copy(cmd, out.buffer, readback->handle(), 1, &region);
                 })
                  .ok());
  const std::vector<std::string> messages = ctx.validation_messages();
  bool hazard = false;
  for (const std::string& m : messages) {
    hazard |= m.find("SYNC-HAZARD-READ-AFTER-WRITE") != std::string::npos;
  }
  EXPECT_TRUE(hazard) << (messages.empty() ? std::string("no message") : messages.front());
}

TEST_F(EmbeddingTest, OutputsWithDeviceAddressUsageAreAllocatedForIt) {
  // lavapipe and every desktop GPU have the feature; a headless Context enables it.
  ASSERT_TRUE(context_->buffer_device_address());
  const procedural::Character character = testing::Character(200, 4);

  const Primitive& mesh = character.mesh;
  vk::SkinCacheOptions options;
  options.extra_output_usage = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  const Cached cached = CacheOf(*context_, mesh, character.skeleton, 2, options);
  ASSERT_EQ(cached.ids.size(), 2u);
  auto address_of = reinterpret_cast<PFN_vkGetBufferDeviceAddress>(
      context_->get_device_proc_addr()(context_->device(), "vkGetBufferDeviceAddress"));
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  info.buffer = cached.cache->outputs(cached.ids[0]).buffer;
  EXPECT_NE(address_of(context_->device(), &info), 0u);
  ASSERT_TRUE(
      context_
          ->SubmitAndWait([&](VkCommandBuffer cmd) { ASSERT_TRUE(cached.cache->Record(cmd).ok()); })
          .ok());
  // The fixture fails the test on any validation message (memory without the device-address flag
  // was one).
}

// The host's word decides: adopted without AdoptInfo::buffer_device_address, device-address usage
// is refused before any Vulkan call, whatever the device supports.
TEST_F(EmbeddingTest, DeviceAddressUsageIsRefusedWhenTheHostDidNotEnableTheFeature) {
  const vk::AdoptInfo info = AdoptInfoOf(*context_);
  auto adopted = vk::Context::Adopt(info);
  ASSERT_TRUE(adopted.ok()) << adopted.error().ToString();
  EXPECT_FALSE((*adopted)->buffer_device_address());
  EXPECT_EQ(
      (*adopted)
          ->CreateBuffer(
              64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
              vk::MemoryUsage::kDeviceLocal)
          .code(),
      Error::kFeatureNotEnabled);
}

// A queue family the device does not have is named as such, not as one without compute.
TEST_F(EmbeddingTest, AdoptingAQueueFamilyTheDeviceLacksSaysItDoesNotExist) {
  vk::AdoptInfo info = AdoptInfoOf(*context_);
  info.queue_family = 1000;
  auto adopted = vk::Context::Adopt(info);
  EXPECT_EQ(adopted.code(), Error::kInvalidArgument);
  EXPECT_EQ(adopted.error().where, "AdoptInfo::queue_family");
  EXPECT_NE(adopted.error().message.find("queue family 1000 does not exist (the device has "),
            std::string::npos)
      << adopted.error().message;
}

TEST_F(EmbeddingTest, PipelinesAreCreatedOncePerContextAndKernelVariant) {
  procedural::Character dense_a_character = testing::Character(150, 4);
  Primitive& dense_a = dense_a_character.mesh;
  procedural::Character dense_b_character = testing::Character(90, 8);
  Primitive& dense_b = dense_b_character.mesh;
  procedural::Character sparse_character = testing::Character(120, 4);
  Primitive& sparse = sparse_character.mesh;
  auto converted = DenseToSparse(sparse.vertex_count(), sparse.influences,
                                 sparse_character.skeleton.joint_count());
  ASSERT_TRUE(converted.ok());
  sparse.sparse_influences = std::move(converted.value());
  sparse.influences = {};
  std::vector<Cached> caches;
  for (const Primitive* mesh : {&dense_a, &dense_b, &sparse, &dense_a}) {
    for (uint32_t i = 0; i < 2; ++i)
      caches.push_back(CacheOf(*context_, *mesh, dense_a_character.skeleton, 2));
  }
  for (const Cached& cached : caches) {
    ASSERT_TRUE(context_
                    ->SubmitAndWait(
                        [&](VkCommandBuffer cmd) { ASSERT_TRUE(cached.cache->Record(cmd).ok()); })
                    .ok());
  }
  // Dense K = 4, dense K = 8 and sparse (K is a constant of the dense kernels), for 8 caches of
  // 4 meshes each.
  EXPECT_EQ(context_->pipelines_created(), 3u);
}

TEST(QueueOwnership, ReleaseAndAcquireNameBothFamiliesAndSplitTheAccessMasks) {
  const VkBuffer buffers[] = {reinterpret_cast<VkBuffer>(uintptr_t{0x10}),
                              reinterpret_cast<VkBuffer>(uintptr_t{0x20})};
  const vk::OwnershipTransfer transfer{2, 0, buffers};
  const auto release = vk::ReleaseBarriers(transfer, VK_ACCESS_TRANSFER_WRITE_BIT);
  const auto acquire = vk::AcquireBarriers(transfer, VK_ACCESS_SHADER_READ_BIT);
  ASSERT_EQ(release.size(), 2u);
  ASSERT_EQ(acquire.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(release[i].buffer, buffers[i]);
    EXPECT_EQ(release[i].srcQueueFamilyIndex, 2u);
    EXPECT_EQ(release[i].dstQueueFamilyIndex, 0u);
    EXPECT_EQ(release[i].srcAccessMask, VkAccessFlags{VK_ACCESS_TRANSFER_WRITE_BIT});
    EXPECT_EQ(release[i].dstAccessMask, 0u);
    EXPECT_EQ(release[i].size, VK_WHOLE_SIZE);
    EXPECT_EQ(acquire[i].srcQueueFamilyIndex, 2u);
    EXPECT_EQ(acquire[i].dstQueueFamilyIndex, 0u);
    EXPECT_EQ(acquire[i].srcAccessMask, 0u);
    EXPECT_EQ(acquire[i].dstAccessMask, VkAccessFlags{VK_ACCESS_SHADER_READ_BIT});
  }
}

TEST(QueueOwnership, EqualFamiliesAreNoTransferAndRecordNothing) {
  const VkBuffer buffer = reinterpret_cast<VkBuffer>(uintptr_t{0x10});
  EXPECT_TRUE(vk::ReleaseBarriers({1, 1, {&buffer, 1}}, VK_ACCESS_SHADER_WRITE_BIT).empty());
  EXPECT_TRUE(vk::AcquireBarriers({1, 1, {&buffer, 1}}, VK_ACCESS_SHADER_READ_BIT).empty());
}

// An engine reads outputs back without sinew submitting anything: it copies the instance's
// InstanceOutputRange in its own command buffer, after the output barrier, and decodes the bytes
// with DecodeInstanceOutputs. Separate float32 streams and interleaved packed ones both come back
// as the CPU reference deformed them (packed directions within their format's error).
TEST_F(EmbeddingTest, AnEnginesOwnCopyOfTheOutputRangeDecodesAsTheCpuDeformed) {
  const procedural::Character character = testing::Character(300, 4);
  const Primitive& mesh = character.mesh;
  const testing::Streams cpu =
      testing::SkinOnCpu(mesh, testing::CrowdPalettes(character.skeleton, 1), 1);
  auto copy = reinterpret_cast<PFN_vkCmdCopyBuffer>(
      context_->get_device_proc_addr()(context_->device(), "vkCmdCopyBuffer"));
  for (const bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact, interleaved" : "float32, separate");
    vk::SkinCacheOptions options;
    options.previous_positions = vk::PreviousPositions::kNone;
    if (compact) {
      options.formats = VertexFormats::Compact();
      options.formats.outputs = OutputLayout::kInterleaved;
    }
    const Cached cached = CacheOf(*context_, mesh, character.skeleton, 1, options);
    ASSERT_EQ(cached.ids.size(), 1u);
    const vk::InstanceOutputs out = cached.cache->outputs(cached.ids[0]);
    const vk::OutputRange range = vk::InstanceOutputRange(out);
    ASSERT_GT(range.size, 0u);
    auto readback = context_->CreateBuffer(range.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                           vk::MemoryUsage::kReadback);
    ASSERT_TRUE(readback.ok());
    const VkBufferCopy region{range.offset, 0, range.size};
    ASSERT_TRUE(context_
                    ->SubmitAndWait([&](VkCommandBuffer cmd) {
                      ASSERT_TRUE(cached.cache->Record(cmd).ok());
                      cached.cache->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                        VK_ACCESS_TRANSFER_READ_BIT);
                      copy(cmd, out.buffer, readback->handle(), 1, &region);
                    })
                    .ok());
    const std::span<const uint8_t> bytes(static_cast<const uint8_t*>(readback->mapped()),
                                         range.size);
    auto decoded = vk::DecodeInstanceOutputs(out, bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
    const float extent = BoundsDiagonal(cpu.positions);
    EXPECT_LE(testing::MaxAbsDiff(decoded->positions, cpu.positions), 1e-5f * extent);
    // Octahedral directions come back within 0.01 degrees: well within 1e-3 per component.
    const float direction = compact ? 1e-3f : 1e-5f;
    EXPECT_LE(testing::MaxAbsDiff(decoded->normals, cpu.normals), direction);
    EXPECT_LE(testing::MaxAbsDiff(decoded->tangents, cpu.tangents), direction);
    EXPECT_EQ(vk::DecodeInstanceOutputs(out, bytes.first(bytes.size() - 4)).code(),
              Error::kSizeMismatch);
  }
  EXPECT_EQ(vk::DecodeInstanceOutputs(vk::InstanceOutputs{}, {}).code(), Error::kInvalidHandle);
  EXPECT_EQ(vk::InstanceOutputRange(vk::InstanceOutputs{}).size, 0u);
}

// AddMesh into a command buffer of the Context's family (the default upload_family) records the
// copy and a barrier to the compute stage: a Record() later in the same command buffer reads the
// mesh (synchronization validation, on in the fixture, would report a missing barrier). With one
// frame in flight, the staging buffer must outlive that Record() (the validation layer reports a
// command buffer submitted with a destroyed buffer).
TEST_F(EmbeddingTest, AnUploadOnTheContextsFamilyIsVisibleToARecordInTheSameCommandBuffer) {
  const procedural::Character character = testing::Character(200, 4);

  const Primitive& mesh = character.mesh;
  auto cache = vk::SkinCache::Create(*context_, {.frames_in_flight = 1});
  ASSERT_TRUE(cache.ok());
  EXPECT_EQ((*cache)->options().upload_family, context_->queue_family());
  const std::vector<Float3x4> palette = testing::CrowdPalettes(character.skeleton, 1);
  vk::InstanceId instance;
  ASSERT_TRUE(context_
                  ->SubmitAndWait([&](VkCommandBuffer cmd) {
                    auto mesh_id =
                        (*cache)->AddMesh(mesh, uint32_t(character.skeleton.joint_count()), cmd);
                    ASSERT_TRUE(mesh_id.ok());
                    const vk::PaletteId p = (*cache)->AddPalette(uint32_t(palette.size())).value();
                    ASSERT_TRUE((*cache)->SetPalette(p, palette).ok());
                    instance = (*cache)->AddInstance(*mesh_id, p).value();
                    ASSERT_TRUE((*cache)->Record(cmd).ok());
                    (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                  VK_ACCESS_TRANSFER_READ_BIT);
                  })
                  .ok());
  auto gpu = vk::ReadInstanceOutputs(*context_, **cache, instance);
  ASSERT_TRUE(gpu.ok());
  const testing::Streams cpu = testing::SkinOnCpu(mesh, palette, 1);
  EXPECT_LE(testing::MaxAbsDiff(gpu->positions, cpu.positions),
            1e-5f * BoundsDiagonal(mesh.positions));
}

}  // namespace
}  // namespace sinew
