// Building what the skinning kernels read (instance records, work items, morph slots, descriptor
// sets) and recording their dispatches: what SkinCache records each frame.
#pragma once

#include <vulkan/vulkan_core.h>

#include <span>

#include "kernels.h"
#include "sinew/core/error.h"
#include "sinew/vk/context.h"
#include "sinew/vk/gpu_layout.h"
#include "sinew/vk/mesh_layout.h"

namespace sinew::vk::detail {

// Workgroups of `workgroup_size` vertices each of a mesh.
inline uint32_t GroupCount(uint32_t vertex_count, uint32_t workgroup_size) {
  return (vertex_count + workgroup_size - 1) / workgroup_size;
}

// Bytes from one output vertex to the next in each stream of an instance with normals and
// tangents as given (InstanceOutputs' strides): separate streams, or one interleaved vertex;
// interleaved, where the normal and the tangent sit in the vertex (bytes after its position).
struct OutputStrides {
  uint32_t positions, normals, tangents;
  uint32_t normal_offset = 0, tangent_offset = 0;
};
OutputStrides OutputStridesOf(bool normals, bool tangents, const VertexFormats& formats);
// Output bytes per vertex of such an instance: positions, normals and tangents, and with
// `previous` the previous positions' range (interleaved: the whole vertex again).
uint32_t OutputBytesPerVertex(bool normals, bool tangents, const VertexFormats& formats,
                              bool previous);

// The per-mesh choices `layout`'s kernel is specialized for (kernels.h's kChoice* bits).
uint32_t KernelChoices(const MeshLayout& layout);

// The mesh half of an instance record (SkinInstance): sizes, flags and the word offsets of
// `layout`'s streams in a mesh buffer where the layout starts at byte `base` (16-byte aligned).
SkinInstance MeshRecord(const MeshLayout& layout, VkDeviceSize base);

// Writes the work items of instance record `record` (one per group of `workgroup_size` of its
// vertex_count vertices) to `out`; returns how many (GroupCount).
uint32_t WriteWorkItems(uint32_t record, uint32_t vertex_count, uint32_t workgroup_size,
                        SkinWorkItem* out);

// kNonFiniteValue (where "weights/<t>") for a NaN or infinite weight, which would poison every
// vertex its target moves (as cpu::MorphTargetsJob refuses it).
Status CheckMorphWeights(std::span<const float> weights);
// Writes the morph slot of `weights` (gpu_layout.h MorphSlotWords(weights.size()) words): the
// active count, (target, weight) for every nonzero weight in ascending target order (the order the
// CPU reference sums in), then every weight.
void WriteMorphSlot(std::span<const float> weights, uint32_t* words);

// What one descriptor set of the skinning kernels points at (gpu_layout.h SkinBinding); the mesh
// buffer serves the three mesh views.
struct SkinDescriptors {
  VkDescriptorBufferInfo mesh{};
  VkDescriptorBufferInfo instances{};
  VkDescriptorBufferInfo work_items{};
  VkDescriptorBufferInfo palette{};
  VkDescriptorBufferInfo morph_slots{};
  VkDescriptorBufferInfo out_positions{};
  VkDescriptorBufferInfo out_normals{};
  VkDescriptorBufferInfo out_tangents{};
};

// A descriptor pool with `count` sets of the skinning layout, named `name`.
struct SkinDescriptorPool {
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
};
Result<SkinDescriptorPool> CreateSkinDescriptorPool(const Context& context, uint32_t count,
                                                    const char* name);
void DestroySkinDescriptorPool(const Context& context, SkinDescriptorPool& pool);
void WriteSkinDescriptors(const Context& context, VkDescriptorSet set, const SkinDescriptors& d);

// Records the dispatches of work items [first, first + count) with `kernel` and `set`: one
// dispatch (x up to maxComputeWorkGroupCount[0], then rows in y) unless there are more items than
// one dispatch holds. Returns the number of dispatches (0 for count 0, which records nothing).
uint32_t RecordSkinDispatches(const Context& context, VkCommandBuffer cmd, const Kernel& kernel,
                              VkDescriptorSet set, uint32_t first, uint32_t count);

// The usual barrier after the skinning writes: COMPUTE_SHADER / SHADER_WRITE -> `dst_stage` /
// `dst_access`.
void RecordComputeWriteBarrier(const Context& context, VkCommandBuffer cmd,
                               VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

}  // namespace sinew::vk::detail
