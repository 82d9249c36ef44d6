// Laying a Primitive's rest data out for the GPU, writing it into upload memory and recording
// its copy into a SkinCache's mesh pool.
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/asset/morph_deltas.h"
#include "sinew/asset/primitive.h"
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

// Validates `mesh` (Primitive::Validate(joints); kInvalidArgument for a mesh without vertices)
// and plans its streams from offset 0 at `alignment`, in `formats` (MeshLayout::formats says
// where a mesh keeps float32 instead). A rigid mesh is planned as a dense one of K = 4 on palette
// entry 0 (WriteMeshUpload writes those influences).
Result<MeshUpload> PlanMeshUpload(const Primitive& mesh, uint32_t joints, VkDeviceSize alignment,
                                  const VertexFormats& formats = {});

// Writes every stream of `mesh` at its planned offset and in its planned format into `bytes`
// (upload.layout.bytes bytes, zeroed between streams).
void WriteMeshUpload(const Primitive& mesh, const MeshUpload& upload, void* bytes);

// Records the copy of `region` from `staging` to `dst` into `cmd` (queue family `family`); on the
// Context's family, then a barrier that makes it visible to the skinning kernels. On another
// family (a transfer queue may not name the compute stage), `dst` is shared concurrently with the
// Context's family and the host's semaphore between the two submissions makes the copy visible.
void RecordUpload(const Context& context, VkCommandBuffer cmd, uint32_t family, VkBuffer staging,
                  VkBuffer dst, const VkBufferCopy& region);

}  // namespace sinew::vk::detail
