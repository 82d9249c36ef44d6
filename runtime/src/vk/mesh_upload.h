// Laying a SkinnedMesh's rest data out for the GPU and writing it into upload memory: one piece
// of code for DeviceMesh (a buffer of its own) and SkinCache (a range of its mesh pool).
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/asset/morph_deltas.h"
#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/error.h"
#include "sinew/vk/context.h"
#include "sinew/vk/mesh_layout.h"

namespace sinew::vk::detail {

// A validated mesh planned for upload: its layout and its packed morph targets.
struct MeshUpload {
  MeshLayout layout;
  MorphDeltas morphs;
};

// The alignment of every stream (16 bytes, or the device's minStorageBufferOffsetAlignment).
VkDeviceSize StreamAlignment(const Context& context);

// Validates `mesh` (SkinnedMesh::Validate; kInvalidArgument for a mesh without vertices) and
// plans its streams from offset 0 at `alignment`.
Result<MeshUpload> PlanMeshUpload(const SkinnedMesh& mesh, VkDeviceSize alignment);

// Writes every stream of `mesh` at its planned offset into `bytes` (upload.layout.bytes bytes,
// zeroed between streams).
void WriteMeshUpload(const SkinnedMesh& mesh, const MeshUpload& upload, void* bytes);

// Records the copy of `region` from `staging` to `dst` into `cmd` (queue family `family`), then
// makes it visible to the skinning kernels: a barrier to the compute stage on the Context's
// family; on another family (a transfer queue may not name the compute stage) a queue family
// release of `dst` to the Context's family, which the host acquires there (queue_ownership.h).
void RecordUpload(const Context& context, VkCommandBuffer cmd, uint32_t family, VkBuffer staging,
                  VkBuffer dst, const VkBufferCopy& region);

}  // namespace sinew::vk::detail
