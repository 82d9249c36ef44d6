// A skinned mesh's rest data on the GPU, uploaded once and immutable afterwards.
#pragma once

#include <memory>

#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/error.h"
#include "sinew/vk/context.h"

namespace sinew::vk {

class DeviceMesh {
 public:
  // Headless contexts: validates `mesh` (SkinnedMesh::Validate, so an out-of-range joint index
  // never reaches the GPU), uploads it through a staging buffer and waits.
  // kNotAllowedInAdoptMode on an adopted context: use the overload taking a command buffer.
  static Result<std::unique_ptr<DeviceMesh>> Create(const Context& context,
                                                    const SkinnedMesh& mesh);
  // Any context: validates `mesh`, then records the upload into `upload_cmd`, a command buffer in
  // the recording state of queue family `upload_family` (default: the Context's).
  // * Same family as the Context's: a barrier then makes the data visible to compute shaders.
  // * Another family (e.g. a transfer-only queue): the copy is followed by a queue family
  //   release to the Context's family (no compute stage is named on the transfer queue); the host
  //   orders the two submissions with a semaphore and records RecordAcquire() on the Context's
  //   family before the first Record() that reads this mesh.
  // The staging memory is kept until ReleaseStaging(), which the caller calls once the command
  // buffer has finished executing.
  static Result<std::unique_ptr<DeviceMesh>> Create(const Context& context, const SkinnedMesh& mesh,
                                                    VkCommandBuffer upload_cmd,
                                                    uint32_t upload_family = kContextFamily);
  // Means "the Context's queue family" for upload_family.
  static constexpr uint32_t kContextFamily = VK_QUEUE_FAMILY_IGNORED;

  // The acquire half of an upload recorded on another family (see Create); records nothing when
  // the upload was recorded on the Context's family. `cmd` belongs to the Context's family.
  void RecordAcquire(VkCommandBuffer cmd) const;
  // The queue family the upload was recorded on.
  uint32_t upload_family() const { return upload_family_; }

  // Frees the staging buffer; only after the upload commands have completed on the GPU.
  void ReleaseStaging() { staging_ = Buffer(); }

  uint32_t vertex_count() const { return vertex_count_; }
  // True for sparse (CSR) influences, false for dense (SkinnedMesh::sparse()).
  bool sparse() const { return sparse_; }
  // K of a dense mesh; 0 for a sparse one.
  uint32_t influences_per_vertex() const { return influences_per_vertex_; }
  // Entries of one instance's palette: joints (dense) or groups (sparse).
  uint32_t palette_size() const { return palette_size_; }
  bool has_normals() const { return has_normals_; }
  bool has_tangents() const { return has_tangents_; }

  // One device-local buffer holds every stream; a stream absent from the mesh has size 0.
  struct Range {
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
  };
  VkBuffer buffer() const { return buffer_.handle(); }
  Range positions() const { return positions_; }
  Range normals() const { return normals_; }
  Range tangents() const { return tangents_; }
  // Dense: u16 joint indices; sparse: u32 groups.
  Range influence_indices() const { return influence_indices_; }
  Range weights() const { return weights_; }
  // Sparse only: the CSR offsets (vertex_count + 1 u32); size 0 for a dense mesh.
  Range influence_offsets() const { return influence_offsets_; }
  // Morph targets packed per group of 64 vertices (MorphDeltas); sizes 0 without targets.
  // morph_lookup: MorphDeltas::group_offsets followed by MorphDeltas::block_index (u32 each).
  uint32_t morph_target_count() const { return morph_target_count_; }
  uint32_t morph_stride() const { return morph_stride_; }
  bool morph_normals() const { return morph_normals_; }
  bool morph_tangents() const { return morph_tangents_; }
  Range morph_lookup() const { return morph_lookup_; }
  Range morph_blocks() const { return morph_blocks_; }
  Range morph_deltas() const { return morph_deltas_; }

 private:
  DeviceMesh() = default;

  const Context* context_ = nullptr;
  uint32_t upload_family_ = 0;
  Buffer buffer_;
  Buffer staging_;
  uint32_t vertex_count_ = 0;
  bool sparse_ = false;
  uint32_t influences_per_vertex_ = 0;
  uint32_t palette_size_ = 0;
  bool has_normals_ = false;
  bool has_tangents_ = false;
  Range positions_, normals_, tangents_, influence_indices_, weights_, influence_offsets_;
  uint32_t morph_target_count_ = 0;
  uint32_t morph_stride_ = 0;
  bool morph_normals_ = false;
  bool morph_tangents_ = false;
  Range morph_lookup_, morph_blocks_, morph_deltas_;
};

}  // namespace sinew::vk
