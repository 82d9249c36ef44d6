#include "sinew/vk/device_mesh.h"

#include <cstring>

#include "functions.h"
#include "sinew/vk/queue_ownership.h"

#include "sinew/asset/morph_deltas.h"
#include "sinew/vk/gpu_layout.h"

namespace sinew::vk {
namespace {

static_assert(kMorphGroupSize == kSkinWorkgroupSize, "a morph group is one workgroup");
static_assert(kNoMorphBlock == kNoMorphBlockIndex, "SINEW_NO_MORPH_BLOCK");

VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

Result<std::unique_ptr<DeviceMesh>> DeviceMesh::Create(const Context& context,
                                                       const SkinnedMesh& mesh) {
  if (context.adopted()) {
    return ErrorInfo{Error::kNotAllowedInAdoptMode,
                     "pass a command buffer to DeviceMesh::Create on an adopted context",
                     {},
                     0};
  }
  std::unique_ptr<DeviceMesh> out;
  Status recorded;
  Status submitted = context.SubmitAndWait([&](VkCommandBuffer cmd) {
    auto created = Create(context, mesh, cmd);
    if (created) {
      out = std::move(created.value());
    } else {
      recorded = created.status();
    }
  });
  if (!recorded) return recorded;
  if (!submitted) return submitted;
  out->ReleaseStaging();
  return out;
}

Result<std::unique_ptr<DeviceMesh>> DeviceMesh::Create(const Context& context,
                                                       const SkinnedMesh& mesh,
                                                       VkCommandBuffer upload_cmd,
                                                       uint32_t upload_family) {
  if (Status s = mesh.Validate(); !s) return s;
  if (mesh.vertex_count() == 0) {
    return ErrorInfo{Error::kInvalidArgument, "the mesh has no vertices", "positions", 0};
  }
  std::unique_ptr<DeviceMesh> out(new DeviceMesh());
  out->context_ = &context;
  out->upload_family_ = upload_family == kContextFamily ? context.queue_family() : upload_family;
  out->vertex_count_ = static_cast<uint32_t>(mesh.vertex_count());
  out->sparse_ = mesh.sparse();
  out->influences_per_vertex_ = mesh.sparse() ? 0 : mesh.influences.influences_per_vertex;
  out->palette_size_ = static_cast<uint32_t>(mesh.palette_size());
  out->has_normals_ = !mesh.normals.empty();
  out->has_tangents_ = !mesh.tangents.empty();

  // Lay the streams out in one buffer, each at a storage-buffer-aligned offset.
  const VkDeviceSize align =
      std::max<VkDeviceSize>(16, context.properties().limits.minStorageBufferOffsetAlignment);
  VkDeviceSize cursor = 0;
  const auto place = [&](Range* range, VkDeviceSize bytes) {
    range->offset = cursor;
    range->size = bytes;
    cursor = AlignUp(cursor + bytes, align);
  };
  place(&out->positions_, mesh.positions.size() * sizeof(float));
  place(&out->normals_, mesh.normals.size() * sizeof(float));
  place(&out->tangents_, mesh.tangents.size() * sizeof(float));
  const SparseInfluences& sparse = mesh.sparse_influences;
  if (mesh.sparse()) {
    place(&out->influence_indices_, sparse.groups.size() * sizeof(uint32_t));
    place(&out->weights_, sparse.weights.size() * sizeof(float));
    place(&out->influence_offsets_, sparse.offsets.size() * sizeof(uint32_t));
  } else {
    place(&out->influence_indices_, mesh.influences.joints.size() * sizeof(uint16_t));
    place(&out->weights_, mesh.influences.weights.size() * sizeof(float));
  }
  MorphDeltas morphs;
  if (!mesh.morph_targets.empty()) {
    morphs = PackMorphTargets(mesh.vertex_count(), mesh.morph_targets);
    out->morph_target_count_ = morphs.target_count;
    out->morph_stride_ = morphs.stride();
    out->morph_normals_ = morphs.normals;
    out->morph_tangents_ = morphs.tangents;
    place(&out->morph_lookup_,
          (morphs.group_offsets.size() + morphs.block_index.size()) * sizeof(uint32_t));
    place(&out->morph_blocks_, morphs.blocks.size() * sizeof(uint32_t));
    place(&out->morph_deltas_, morphs.deltas.size() * sizeof(float));
  }
  const VkDeviceSize total = cursor;

  auto buffer = context.CreateBuffer(
      total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      MemoryUsage::kDeviceLocal, "sinew mesh");
  if (!buffer) return buffer.status();
  out->buffer_ = std::move(buffer.value());
  auto staging = context.CreateBuffer(total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::kUpload,
                                      "sinew mesh staging");
  if (!staging) return staging.status();
  out->staging_ = std::move(staging.value());

  auto* bytes = static_cast<unsigned char*>(out->staging_.mapped());
  std::memset(bytes, 0, total);
  const auto copy = [&](const Range& range, const void* src) {
    if (range.size) std::memcpy(bytes + range.offset, src, range.size);
  };
  copy(out->positions_, mesh.positions.data());
  copy(out->normals_, mesh.normals.data());
  copy(out->tangents_, mesh.tangents.data());
  if (mesh.sparse()) {
    copy(out->influence_indices_, sparse.groups.data());
    copy(out->weights_, sparse.weights.data());
    copy(out->influence_offsets_, sparse.offsets.data());
  } else {
    copy(out->influence_indices_, mesh.influences.joints.data());
    copy(out->weights_, mesh.influences.weights.data());
  }
  if (out->morph_lookup_.size) {
    const size_t offsets_bytes = morphs.group_offsets.size() * sizeof(uint32_t);
    std::memcpy(bytes + out->morph_lookup_.offset, morphs.group_offsets.data(), offsets_bytes);
    std::memcpy(bytes + out->morph_lookup_.offset + offsets_bytes, morphs.block_index.data(),
                morphs.block_index.size() * sizeof(uint32_t));
  }
  copy(out->morph_blocks_, morphs.blocks.data());
  copy(out->morph_deltas_, morphs.deltas.data());

  const detail::Functions& t = detail::Fn(context);
  VkBufferCopy region{0, 0, total};
  t.vkCmdCopyBuffer(upload_cmd, out->staging_.handle(), out->buffer_.handle(), 1, &region);
  const VkBuffer uploaded = out->buffer_.handle();
  if (out->upload_family_ != context.queue_family()) {
    // A transfer queue may not name the compute stage: release to the Context's family instead.
    RecordRelease(context, upload_cmd,
                  {out->upload_family_, context.queue_family(), {&uploaded, 1}},
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    return out;
  }
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = uploaded;
  barrier.offset = 0;
  barrier.size = VK_WHOLE_SIZE;
  t.vkCmdPipelineBarrier(upload_cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 1, &barrier, 0,
                         nullptr);
  return out;
}

void DeviceMesh::RecordAcquire(VkCommandBuffer cmd) const {
  const VkBuffer uploaded = buffer_.handle();
  vk::RecordAcquire(*context_, cmd, {upload_family_, context_->queue_family(), {&uploaded, 1}},
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
}

}  // namespace sinew::vk
