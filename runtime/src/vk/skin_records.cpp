#include "skin_records.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "functions.h"

namespace sinew::vk::detail {
namespace {

uint32_t Words(VkDeviceSize bytes) { return static_cast<uint32_t>(bytes / 4); }

}  // namespace

OutputStrides OutputStridesOf(bool normals, bool tangents, const VertexFormats& formats) {
  const uint32_t normal = NormalBytes(formats.output_directions);
  const uint32_t tangent = TangentBytes(formats.output_directions);
  if (formats.outputs == OutputLayout::kSeparate) return {12, normal, tangent};
  const uint32_t tangent_offset = 12 + (normals ? normal : 0);
  const uint32_t vertex = tangent_offset + (tangents ? tangent : 0);
  return {vertex, vertex, vertex, 12, tangent_offset};
}

uint32_t OutputBytesPerVertex(bool normals, bool tangents, const VertexFormats& formats,
                              bool previous) {
  const OutputStrides s = OutputStridesOf(normals, tangents, formats);
  if (formats.outputs == OutputLayout::kInterleaved) return s.positions * (previous ? 2 : 1);
  return 12 * (previous ? 2 : 1) + (normals ? s.normals : 0) + (tangents ? s.tangents : 0);
}

// K when the dense kernels take it as a constant (4, 8, 12 or 16), else 0.
uint32_t ConstantInfluences(const MeshLayout& l) {
  const uint32_t k = l.influences_per_vertex;
  return !l.sparse && k != 0 && k % 4 == 0 && k <= kMaxConstantInfluences ? k : 0u;
}

uint32_t KernelChoices(const MeshLayout& l) {
  return (l.has_normals ? kChoiceNormals : 0u) | (l.has_tangents ? kChoiceTangents : 0u) |
         (l.morph_normals ? kChoiceMorphNormals : 0u) |
         (l.morph_tangents ? kChoiceMorphTangents : 0u) |
         (l.per_joint_normals && !l.dual_quaternion ? kChoiceJointNormals : 0u) |
         (ConstantInfluences(l) / 4u) << kChoiceInfluencesShift |
         static_cast<uint32_t>(l.formats.weights) << kChoiceWeightsShift |
         (l.joint_bits == 8 ? 1u : (l.joint_bits == 32 ? 2u : 0u)) << kChoiceJointBitsShift |
         static_cast<uint32_t>(l.formats.directions) << kChoiceDirectionsShift |
         static_cast<uint32_t>(l.formats.output_directions) << kChoiceOutDirectionsShift |
         (l.formats.positions == PositionFormat::kUnorm16 ? kChoicePositions16 : 0u) |
         (l.morph_target_count && l.formats.morph_deltas == MorphDeltaFormat::kHalf
              ? kChoiceMorphHalf
              : 0u) |
         (l.formats.outputs == OutputLayout::kInterleaved ? kChoiceInterleaved : 0u) |
         (l.morph_target_count ? kChoiceMorphs : 0u);
}

SkinInstance MeshRecord(const MeshLayout& l, VkDeviceSize base) {
  SkinInstance r{};
  r.vertex_count = l.vertex_count;
  r.influences_per_vertex = l.influences_per_vertex;
  r.morph_target_count = l.morph_target_count;
  r.morph_stride = l.morph_stride;
  const auto at = [&](const BufferRange& range) {
    return range.size ? Words(base + range.offset) : 0u;
  };
  r.rest_positions = at(l.positions);
  r.rest_normals = at(l.normals);
  // vec4 units for float32 tangents, words for packed ones (skinning_common.glsl).
  r.rest_tangents = at(l.tangents) / (l.formats.directions == DirectionFormat::kFloat32 ? 4 : 1);
  // Multiples of 4 words, as every stream offset and `base` are of 16 bytes: the dense kernels read
  // both as vec4/uvec4 (WeightQuad, JointQuad in shaders/skinning_common.glsl).
  r.influence_indices = at(l.influence_indices);
  r.weights = at(l.weights);
  r.influence_offsets = at(l.influence_offsets);
  r.morph_lookup = at(l.morph_lookup);
  r.morph_blocks = at(l.morph_blocks) / 4;
  r.morph_deltas = at(l.morph_deltas);
  return r;
}

uint32_t WriteWorkItems(uint32_t record, uint32_t vertex_count, uint32_t workgroup_size,
                        SkinWorkItem* out) {
  const uint32_t groups = GroupCount(vertex_count, workgroup_size);
  for (uint32_t g = 0; g < groups; ++g) out[g] = SkinWorkItem{record, g};
  return groups;
}

Status CheckMorphWeights(std::span<const float> weights) {
  for (size_t t = 0; t < weights.size(); ++t) {
    if (!std::isfinite(weights[t])) {
      return {Error::kNonFiniteValue, "weight is not finite", "weights/" + std::to_string(t)};
    }
  }
  return {};
}

void WriteMorphSlot(std::span<const float> weights, uint32_t* words) {
  const auto targets = static_cast<uint32_t>(weights.size());
  auto* entries = reinterpret_cast<MorphActiveTarget*>(words);
  std::memcpy(words + MorphSlotWeightsWord(targets), weights.data(), weights.size_bytes());
  uint32_t active = 0;
  for (uint32_t t = 0; t < targets; ++t) {
    if (weights[t] != 0.0f) entries[1 + active++] = MorphActiveTarget{t, weights[t]};
  }
  entries[0] = MorphActiveTarget{active, 0.0f};
}

Result<SkinDescriptorPool> CreateSkinDescriptorPool(const Context& context, uint32_t count,
                                                    const char* name) {
  auto kernel = KernelsOf(context).Layouts();
  if (!kernel) return kernel.status();
  const Functions& f = Fn(context);
  SkinDescriptorPool out;
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSkinBindingCount * count};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = count;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  if (VkResult r =
          f.vkCreateDescriptorPool(context.device(), &info, context.allocator(), &out.pool);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateDescriptorPool", r);
  }
  SetName(context, VK_OBJECT_TYPE_DESCRIPTOR_POOL, out.pool, name);
  std::vector<VkDescriptorSetLayout> layouts(count, kernel->set_layout);
  out.sets.resize(count);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = out.pool;
  alloc.descriptorSetCount = count;
  alloc.pSetLayouts = layouts.data();
  if (VkResult r = f.vkAllocateDescriptorSets(context.device(), &alloc, out.sets.data());
      r != VK_SUCCESS) {
    DestroySkinDescriptorPool(context, out);
    return VulkanError("vkAllocateDescriptorSets", r);
  }
  return out;
}

void DestroySkinDescriptorPool(const Context& context, SkinDescriptorPool& pool) {
  if (pool.pool) {
    Fn(context).vkDestroyDescriptorPool(context.device(), pool.pool, context.allocator());
  }
  pool = {};
}

void WriteSkinDescriptors(const Context& context, VkDescriptorSet set, const SkinDescriptors& d) {
  std::array<VkDescriptorBufferInfo, kSkinBindingCount> infos{};
  infos[kBindingMeshWords] = d.mesh;
  infos[kBindingMeshVec4] = d.mesh;
  infos[kBindingMeshBlocks] = d.mesh;
  infos[kBindingInstances] = d.instances;
  infos[kBindingWorkItems] = d.work_items;
  infos[kBindingPalette] = d.palette;
  infos[kBindingMorphInstances] = d.morph_slots;
  infos[kBindingOutPositions] = d.out_positions;
  infos[kBindingOutNormals] = d.out_normals;
  infos[kBindingOutTangents] = d.out_tangents;
  std::array<VkWriteDescriptorSet, kSkinBindingCount> writes{};
  for (uint32_t b = 0; b < kSkinBindingCount; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  Fn(context).vkUpdateDescriptorSets(context.device(), kSkinBindingCount, writes.data(), 0,
                                     nullptr);
}

uint32_t RecordSkinDispatches(const Context& context, VkCommandBuffer cmd, const Kernel& kernel,
                              VkDescriptorSet set, uint32_t first, uint32_t count) {
  if (count == 0) return 0;
  const Functions& f = Fn(context);
  f.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
  f.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout, 0, 1, &set, 0,
                            nullptr);
  const auto& limits = context.properties().limits;
  const uint32_t max_x = limits.maxComputeWorkGroupCount[0];
  const uint64_t per_dispatch = uint64_t{max_x} * limits.maxComputeWorkGroupCount[1];
  uint32_t dispatches = 0;
  for (uint64_t done = 0; done < count; ++dispatches) {
    const auto items = static_cast<uint32_t>(std::min<uint64_t>(count - done, per_dispatch));
    const SkinPushConstants pc{first + static_cast<uint32_t>(done), items, 0, 0};
    f.vkCmdPushConstants(cmd, kernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    const uint32_t x = std::min(items, max_x);
    f.vkCmdDispatch(cmd, x, (items + x - 1) / x, 1);
    done += items;
  }
  return dispatches;
}

void RecordComputeWriteBarrier(const Context& context, VkCommandBuffer cmd,
                               VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = dst_access;
  Fn(context).vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stage, 0, 1,
                                   &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace sinew::vk::detail
