// A skinned mesh's rest data on the GPU, uploaded once and immutable afterwards.
#pragma once

#include <memory>

#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/error.h"
#include "sinew/vk/context.h"
#include "sinew/vk/mesh_layout.h"

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

  // Where each stream lives in buffer(), and the mesh's sizes and flags.
  const MeshLayout& layout() const { return layout_; }
  uint32_t vertex_count() const { return layout_.vertex_count; }
  // True for sparse (CSR) influences, false for dense (SkinnedMesh::sparse()).
  bool sparse() const { return layout_.sparse; }
  // K of a dense mesh; 0 for a sparse one.
  uint32_t influences_per_vertex() const { return layout_.influences_per_vertex; }
  // Entries of one instance's palette: joints (dense) or groups (sparse).
  uint32_t palette_size() const { return layout_.palette_size; }
  bool has_normals() const { return layout_.has_normals; }
  bool has_tangents() const { return layout_.has_tangents; }
  uint32_t morph_target_count() const { return layout_.morph_target_count; }

  // One device-local buffer holds every stream (offsets in layout()).
  using Range = BufferRange;
  VkBuffer buffer() const { return buffer_.handle(); }

 private:
  DeviceMesh() = default;

  const Context* context_ = nullptr;
  uint32_t upload_family_ = 0;
  Buffer buffer_;
  Buffer staging_;
  MeshLayout layout_;
};

}  // namespace sinew::vk
