#include "sinew/vk/deformer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "functions.h"
#include "kernels.h"
#include "sinew/vk/gpu_layout.h"

namespace sinew::vk {
namespace {

constexpr VkDeviceSize kPositionBytes = 12;
constexpr VkDeviceSize kNormalBytes = 12;
constexpr VkDeviceSize kTangentBytes = 16;

}  // namespace

Deformer::~Deformer() {
  if (!context_) return;
  if (pool_)
    detail::Fn(*context_).vkDestroyDescriptorPool(context_->device(), pool_, context_->allocator());
}

Result<std::unique_ptr<Deformer>> Deformer::Create(const Context& context, const DeviceMesh& mesh,
                                                   const DeformerOptions& options) {
  if (options.instance_count == 0) {
    return ErrorInfo{Error::kInvalidArgument, "instance_count must be >= 1",
                     "DeformerOptions::instance_count", 0};
  }
  const uint64_t groups_x =
      (uint64_t{mesh.vertex_count()} + kSkinWorkgroupSize - 1) / kSkinWorkgroupSize;
  if (groups_x > context.properties().limits.maxComputeWorkGroupCount[0]) {
    return ErrorInfo{Error::kInvalidArgument,
                     "mesh of " + std::to_string(mesh.vertex_count()) +
                         " vertices exceeds one dispatch's workgroup count",
                     "DeviceMesh::vertex_count", 0};
  }
  std::unique_ptr<Deformer> d(new Deformer());
  d->context_ = &context;
  d->mesh_ = &mesh;
  d->instance_count_ = options.instance_count;
  const detail::Functions& t = detail::Fn(context);
  const VkDevice device = context.device();
  const VkDeviceSize n = options.instance_count;
  const VkDeviceSize v = mesh.vertex_count();

  // Buffers.
  auto palette = context.CreateBuffer(n * mesh.palette_size() * kPaletteEntryBytes,
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::kUpload,
                                      "sinew palettes");
  if (!palette) return palette.status();
  d->palette_ = std::move(palette.value());
  for (uint32_t i = 0; i < options.instance_count; ++i) {
    auto slot = d->palette(i);
    std::fill(slot.begin(), slot.end(), Float3x4{});  // Identity until the caller sets a pose.
  }
  if (mesh.morph_target_count()) {
    d->morph_weights_.assign(n * mesh.morph_target_count(), 0.0f);
    const VkDeviceSize active_bytes =
        n * MorphSlotWords(mesh.morph_target_count()) * sizeof(uint32_t);
    auto active = context.CreateBuffer(active_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       MemoryUsage::kUpload, "sinew morph weights");
    if (!active) return active.status();
    d->morph_active_ = std::move(active.value());
    std::memset(d->morph_active_.mapped(), 0, active_bytes);  // every weight 0, none active
  }
  const VkBufferUsageFlags out_usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | options.extra_output_usage;
  auto positions = context.CreateBuffer(n * v * kPositionBytes, out_usage,
                                        MemoryUsage::kDeviceLocal, "sinew out positions");
  if (!positions) return positions.status();
  d->out_positions_ = std::move(positions.value());
  if (mesh.has_normals()) {
    auto normals = context.CreateBuffer(n * v * kNormalBytes, out_usage, MemoryUsage::kDeviceLocal,
                                        "sinew out normals");
    if (!normals) return normals.status();
    d->out_normals_ = std::move(normals.value());
  }
  if (mesh.has_tangents()) {
    auto tangents = context.CreateBuffer(n * v * kTangentBytes, out_usage,
                                         MemoryUsage::kDeviceLocal, "sinew out tangents");
    if (!tangents) return tangents.status();
    d->out_tangents_ = std::move(tangents.value());
  }

  // The Context's pipeline for this mesh's influence layout (created once per Context).
  auto kernel = detail::KernelsOf(context).Get(mesh.sparse() ? detail::KernelKind::kSkinSparse
                                                             : detail::KernelKind::kSkinDense);
  if (!kernel) return kernel.status();
  d->pipeline_ = kernel->pipeline;
  d->pipeline_layout_ = kernel->layout;

  // Descriptors.
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSkinBindingCount};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (VkResult r = t.vkCreateDescriptorPool(device, &pool_info, context.allocator(), &d->pool_);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateDescriptorPool", r);
  }
  detail::SetName(context, VK_OBJECT_TYPE_DESCRIPTOR_POOL, d->pool_, "sinew deformer descriptors");
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = d->pool_;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &kernel->set_layout;
  if (VkResult r = t.vkAllocateDescriptorSets(device, &alloc, &d->set_); r != VK_SUCCESS) {
    return VulkanError("vkAllocateDescriptorSets", r);
  }
  // A stream the mesh lacks is never read or written (the kernel's flags say so), but its
  // descriptor must be valid: inputs stand in with the rest positions (or, for the per-instance
  // morph slots, the palettes: a read-only binding on an output buffer is a read-after-write
  // hazard to synchronization validation), outputs with the output positions.
  const auto in_range = [&](DeviceMesh::Range r) {
    const DeviceMesh::Range used = r.size ? r : mesh.positions();
    return VkDescriptorBufferInfo{mesh.buffer(), used.offset, used.size};
  };
  const auto whole = [&](const Buffer& b) {
    return VkDescriptorBufferInfo{b.handle() ? b.handle() : d->out_positions_.handle(), 0,
                                  VK_WHOLE_SIZE};
  };
  std::array<VkDescriptorBufferInfo, kSkinBindingCount> infos{};
  infos[kBindingRestPositions] = in_range(mesh.positions());
  infos[kBindingRestNormals] = in_range(mesh.normals());
  infos[kBindingRestTangents] = in_range(mesh.tangents());
  infos[kBindingInfluenceIndices] = in_range(mesh.influence_indices());
  infos[kBindingWeights] = in_range(mesh.weights());
  infos[kBindingInfluenceOffsets] = in_range(mesh.influence_offsets());
  infos[kBindingPalette] = whole(d->palette_);
  infos[kBindingOutPositions] = whole(d->out_positions_);
  infos[kBindingOutNormals] = whole(d->out_normals_);
  infos[kBindingOutTangents] = whole(d->out_tangents_);
  infos[kBindingMorphLookup] = in_range(mesh.morph_lookup());
  infos[kBindingMorphBlocks] = in_range(mesh.morph_blocks());
  infos[kBindingMorphDeltas] = in_range(mesh.morph_deltas());
  infos[kBindingMorphInstances] = whole(d->morph_active_.handle() ? d->morph_active_ : d->palette_);
  std::array<VkWriteDescriptorSet, kSkinBindingCount> writes{};
  for (uint32_t b = 0; b < kSkinBindingCount; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = d->set_;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  t.vkUpdateDescriptorSets(device, kSkinBindingCount, writes.data(), 0, nullptr);
  return d;
}

std::span<Float3x4> Deformer::palette(uint32_t instance) {
  if (instance >= instance_count_) return {};
  auto* base = static_cast<Float3x4*>(palette_.mapped());
  return {base + size_t{instance} * mesh_->palette_size(), mesh_->palette_size()};
}

Status Deformer::SetPalette(uint32_t instance, std::span<const Float3x4> matrices) {
  if (instance >= instance_count_) {
    return {Error::kInstanceIndexOutOfRange,
            "instance " + std::to_string(instance) + " of " + std::to_string(instance_count_)};
  }
  if (matrices.size() != mesh_->palette_size()) {
    return {Error::kSizeMismatch,
            "palette has " + std::to_string(matrices.size()) + " matrices, the mesh needs " +
                std::to_string(mesh_->palette_size()),
            "palette"};
  }
  std::memcpy(palette(instance).data(), matrices.data(), matrices.size_bytes());
  return {};
}

std::span<const float> Deformer::morph_weights(uint32_t instance) const {
  const uint32_t targets = mesh_->morph_target_count();
  if (instance >= instance_count_ || targets == 0) return {};
  return std::span(morph_weights_).subspan(size_t{instance} * targets, targets);
}

Status Deformer::SetMorphWeights(uint32_t instance, std::span<const float> weights) {
  if (instance >= instance_count_) {
    return {Error::kInstanceIndexOutOfRange,
            "instance " + std::to_string(instance) + " of " + std::to_string(instance_count_)};
  }
  const uint32_t targets = mesh_->morph_target_count();
  if (weights.size() != targets) {
    return {Error::kSizeMismatch,
            std::to_string(weights.size()) + " weights, the mesh has " + std::to_string(targets) +
                " morph targets",
            "weights"};
  }
  if (weights.empty()) return {};
  // As cpu::MorphTargetsJob: a NaN or infinite weight would poison every vertex the target moves.
  for (size_t t = 0; t < weights.size(); ++t) {
    if (!std::isfinite(weights[t])) {
      return {Error::kNonFiniteValue, "weight is not finite", "weights/" + std::to_string(t)};
    }
  }
  std::copy(weights.begin(), weights.end(),
            morph_weights_.begin() + ptrdiff_t(size_t{instance} * targets));
  // The instance's slot (gpu_layout.h): the active count, (target, weight) for every nonzero
  // weight in ascending target order (the order the CPU reference sums in), then every weight.
  auto* words =
      static_cast<uint32_t*>(morph_active_.mapped()) + size_t{instance} * MorphSlotWords(targets);
  auto* entries = reinterpret_cast<MorphActiveTarget*>(words);
  std::memcpy(words + MorphSlotWeightsWord(targets), weights.data(), targets * sizeof(float));
  uint32_t active = 0;
  for (uint32_t t = 0; t < targets; ++t) {
    if (weights[t] != 0.0f) entries[1 + active++] = MorphActiveTarget{t, weights[t]};
  }
  entries[0] = MorphActiveTarget{active, 0.0f};
  return {};
}

void Deformer::Record(VkCommandBuffer cmd) const {
  const detail::Functions& t = detail::Fn(*context_);
  t.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  t.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1, &set_, 0,
                            nullptr);
  SkinPushConstants pc{};
  pc.vertex_count = mesh_->vertex_count();
  pc.influences_per_vertex = mesh_->influences_per_vertex();
  pc.palette_stride = mesh_->palette_size();
  pc.flags = (mesh_->has_normals() ? kFlagNormals : 0u) |
             (mesh_->has_tangents() ? kFlagTangents : 0u) |
             (mesh_->morph_normals() ? kFlagMorphNormals : 0u) |
             (mesh_->morph_tangents() ? kFlagMorphTangents : 0u);
  pc.morph_target_count = mesh_->morph_target_count();
  pc.morph_stride = mesh_->morph_stride();
  const uint32_t groups_x = (mesh_->vertex_count() + kSkinWorkgroupSize - 1) / kSkinWorkgroupSize;
  const uint32_t max_y = context_->properties().limits.maxComputeWorkGroupCount[1];
  // One dispatch covers every instance, unless there are more than the device's y limit.
  for (uint32_t base = 0; base < instance_count_; base += max_y) {
    pc.instance_base = base;
    t.vkCmdPushConstants(cmd, pipeline_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    t.vkCmdDispatch(cmd, groups_x, std::min(max_y, instance_count_ - base), 1);
  }
}

void Deformer::RecordOutputBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                                   VkAccessFlags dst_access) const {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = dst_access;
  detail::Fn(*context_).vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stage,
                                             0, 1, &barrier, 0, nullptr, 0, nullptr);
}

VkDeviceSize Deformer::positions_offset(uint32_t instance) const {
  return VkDeviceSize{instance} * mesh_->vertex_count() * kPositionBytes;
}
VkDeviceSize Deformer::normals_offset(uint32_t instance) const {
  return VkDeviceSize{instance} * mesh_->vertex_count() * kNormalBytes;
}
VkDeviceSize Deformer::tangents_offset(uint32_t instance) const {
  return VkDeviceSize{instance} * mesh_->vertex_count() * kTangentBytes;
}

}  // namespace sinew::vk
