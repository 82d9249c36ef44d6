// Per-instance deformation state of one DeviceMesh, and the commands that deform it.
//
// Each instance has its own skinning palette (host-visible, written by the CPU every frame) and
// its own slice of the output buffers. Record() deforms every instance with one dispatch. The
// simplest way to deform one mesh; an engine with many meshes, frames in flight, instances coming
// and going and motion vectors uses a SkinCache (skin_cache.h), which runs the same kernels.
//
// Synchronization the caller provides (sinew records no barrier it cannot know about; the whole
// frame, also in synchronization2 terms, is in docs/embedding.md):
// * before Record(): palette and morph weight writes by the host are made visible by
//   vkQueueSubmit itself; the host must not overwrite a palette or call SetMorphWeights while a
//   submitted Record() that reads them is still executing.
//   The output buffers must not be read by earlier commands still in flight (e.g. last frame's
//   draw): in one queue, a barrier VERTEX_ATTRIBUTE_READ -> SHADER_WRITE (vertex input -> compute),
//   or simply submit after last frame's fence.
// * after Record(): the outputs were written by a compute shader; before drawing from them,
//   RecordOutputBarrier() (or your own barrier COMPUTE_SHADER/SHADER_WRITE -> your stage/access).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/vk/context.h"
#include "sinew/vk/device_mesh.h"

namespace sinew::vk {

struct DeformerOptions {
  // Number of instances (crowd members) deformed by each Record(); >= 1.
  uint32_t instance_count = 1;
  // Extra usage bits for the output buffers, on top of STORAGE | VERTEX | TRANSFER_SRC.
  VkBufferUsageFlags extra_output_usage = 0;
};

class Deformer {
 public:
  // kInvalidArgument for instance_count 0 or a mesh too large for one dispatch.
  static Result<std::unique_ptr<Deformer>> Create(const Context& context, const DeviceMesh& mesh,
                                                  const DeformerOptions& options = {});
  ~Deformer();
  Deformer(const Deformer&) = delete;
  Deformer& operator=(const Deformer&) = delete;

  uint32_t instance_count() const { return instance_count_; }

  // Copies `palette` (mesh.palette_size() entries: one 3x4 per joint of a dense mesh, per group of
  // a sparse one, e.g. from cpu::GroupPaletteJob) into instance's slot. kInstanceIndexOutOfRange,
  // kSizeMismatch.
  Status SetPalette(uint32_t instance, std::span<const Float3x4> palette);
  // The mapped palette of an instance, to write in place (mesh.palette_size() entries);
  // empty for an instance past instance_count().
  std::span<Float3x4> palette(uint32_t instance);

  // Sets one weight per morph target of the mesh (already resolved over in-betweens, e.g. by
  // cpu::SubShapeWeightsJob) for an instance; weights start at 0. The GPU also gets the
  // instance's active targets (nonzero weight) in ascending order: per group of 64 vertices the
  // kernel takes min(active targets, the group's blocks) steps (morph_deltas.h), and an instance
  // with every weight 0 skips morphing altogether
  // (positions, normals and tangents as skinning alone; cpu::MorphTargetsJob's rule).
  // kInstanceIndexOutOfRange, kSizeMismatch (also for a mesh without morph targets and a
  // non-empty span), kNonFiniteValue (where "weights/<t>"; the instance's weights unchanged).
  Status SetMorphWeights(uint32_t instance, std::span<const float> weights);
  // The morph weights last set for an instance; empty without morph targets.
  std::span<const float> morph_weights(uint32_t instance) const;
  // Records the deformation of every instance into `cmd` (recording, compute-capable queue):
  // morph targets and skinning in one pass.
  void Record(VkCommandBuffer cmd) const;
  // A barrier from the compute writes to `dst_stage`/`dst_access`, e.g. VERTEX_INPUT /
  // VERTEX_ATTRIBUTE_READ to draw, or TRANSFER / TRANSFER_READ to copy.
  void RecordOutputBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                           VkAccessFlags dst_access) const;

  // Output streams: instance i's vertices start at i * vertex_count. Positions and normals are
  // float xyz (12-byte stride), tangents float xyzw (16-byte stride). Normals and tangents are
  // VK_NULL_HANDLE when the mesh has none.
  VkBuffer out_positions() const { return out_positions_.handle(); }
  VkBuffer out_normals() const { return out_normals_.handle(); }
  VkBuffer out_tangents() const { return out_tangents_.handle(); }
  VkDeviceSize positions_offset(uint32_t instance) const;
  VkDeviceSize normals_offset(uint32_t instance) const;
  VkDeviceSize tangents_offset(uint32_t instance) const;

 private:
  Deformer() = default;

  const Context* context_ = nullptr;
  const DeviceMesh* mesh_ = nullptr;
  uint32_t instance_count_ = 0;
  Buffer palette_;
  std::vector<float> morph_weights_;  // instance_count x morph_target_count, as set
  // instance_count x (2 morph_target_count + 1) MorphActiveTarget (gpu_layout.h), host-visible.
  Buffer morph_active_;
  Buffer out_positions_, out_normals_, out_tangents_;
  // One instance record per instance and their work items (gpu_layout.h), written once.
  Buffer records_, work_items_;
  uint32_t item_count_ = 0;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;  // The Context's (not owned).
  VkPipeline pipeline_ = VK_NULL_HANDLE;               // The Context's (not owned).
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace sinew::vk
