#include "mesh_upload.h"

#include <algorithm>
#include <cstring>

#include "functions.h"
#include "sinew/vk/gpu_layout.h"

namespace sinew::vk::detail {
namespace {

static_assert(kMorphGroupSize == kSkinWorkgroupSize, "a morph group is one workgroup");
static_assert(kNoMorphBlock == kNoMorphBlockIndex, "SINEW_NO_MORPH_BLOCK");

VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

VkDeviceSize StreamAlignment(const Context& context) {
  return std::max<VkDeviceSize>(16, context.properties().limits.minStorageBufferOffsetAlignment);
}

Result<MeshUpload> PlanMeshUpload(const Primitive& mesh, uint32_t joints, VkDeviceSize alignment) {
  if (Status s = mesh.Validate(joints); !s) return s;
  if (mesh.vertex_count() == 0) {
    return ErrorInfo{Error::kInvalidArgument, "the mesh has no vertices", "positions", 0};
  }
  MeshUpload out;
  MeshLayout& l = out.layout;
  l.vertex_count = static_cast<uint32_t>(mesh.vertex_count());
  l.sparse = mesh.sparse();
  l.rigid = !mesh.skinned();
  l.dual_quaternion = mesh.dual_quaternion();
  l.per_joint_normals = mesh.skinned() && !l.dual_quaternion && !mesh.normals.empty() &&
                        mesh.normal_blend == NormalBlend::kPerJoint;
  l.influences_per_vertex =
      mesh.sparse() ? 0 : (l.rigid ? 4 : mesh.influences.influences_per_vertex);
  l.palette_size = static_cast<uint32_t>(mesh.palette_size(joints));
  l.has_normals = !mesh.normals.empty();
  l.has_tangents = !mesh.tangents.empty();

  VkDeviceSize cursor = 0;
  const auto place = [&](BufferRange* range, VkDeviceSize bytes) {
    range->offset = bytes ? cursor : 0;
    range->size = bytes;
    cursor = AlignUp(cursor + bytes, alignment);
  };
  place(&l.positions, mesh.positions.size() * sizeof(float));
  place(&l.normals, mesh.normals.size() * sizeof(float));
  place(&l.tangents, mesh.tangents.size() * sizeof(float));
  const SparseInfluences& sparse = mesh.sparse_influences;
  if (mesh.sparse()) {
    place(&l.influence_indices, sparse.groups.size() * sizeof(uint32_t));
    place(&l.weights, sparse.weights.size() * sizeof(float));
    place(&l.influence_offsets, sparse.offsets.size() * sizeof(uint32_t));
  } else {
    const size_t slots = size_t{l.vertex_count} * l.influences_per_vertex;
    place(&l.influence_indices, slots * sizeof(uint16_t));
    place(&l.weights, slots * sizeof(float));
  }
  if (!mesh.targets.empty()) {
    out.morphs = PackMorphTargets(mesh.vertex_count(), mesh.targets);
    const MorphDeltas& m = out.morphs;
    l.morph_target_count = m.target_count;
    l.morph_stride = m.stride();
    l.morph_normals = m.normals;
    l.morph_tangents = m.tangents;
    place(&l.morph_lookup, (m.group_offsets.size() + m.block_index.size()) * sizeof(uint32_t));
    place(&l.morph_blocks, m.blocks.size() * sizeof(uint32_t));
    place(&l.morph_deltas, m.deltas.size() * sizeof(float));
  }
  l.bytes = std::max(cursor, alignment);
  return out;
}

void WriteMeshUpload(const Primitive& mesh, const MeshUpload& upload, void* out) {
  const MeshLayout& l = upload.layout;
  auto* bytes = static_cast<unsigned char*>(out);
  std::memset(bytes, 0, l.bytes);
  const auto copy = [&](const BufferRange& range, const void* src) {
    if (range.size) std::memcpy(bytes + range.offset, src, range.size);
  };
  copy(l.positions, mesh.positions.data());
  copy(l.normals, mesh.normals.data());
  copy(l.tangents, mesh.tangents.data());
  const SparseInfluences& sparse = mesh.sparse_influences;
  if (mesh.sparse()) {
    copy(l.influence_indices, sparse.groups.data());
    copy(l.weights, sparse.weights.data());
    copy(l.influence_offsets, sparse.offsets.data());
  } else if (l.rigid) {  // joint 0 (zeroed above), weight 1 in the first slot of each vertex
    auto* weights = bytes + l.weights.offset;
    for (size_t v = 0; v < l.vertex_count; ++v) {
      const float one = 1.0f;
      std::memcpy(weights + v * 4 * sizeof(float), &one, sizeof(float));
    }
  } else {
    copy(l.influence_indices, mesh.influences.joints.data());
    copy(l.weights, mesh.influences.weights.data());
  }
  const MorphDeltas& m = upload.morphs;
  if (l.morph_lookup.size) {
    const size_t offsets_bytes = m.group_offsets.size() * sizeof(uint32_t);
    std::memcpy(bytes + l.morph_lookup.offset, m.group_offsets.data(), offsets_bytes);
    std::memcpy(bytes + l.morph_lookup.offset + offsets_bytes, m.block_index.data(),
                m.block_index.size() * sizeof(uint32_t));
  }
  copy(l.morph_blocks, m.blocks.data());
  copy(l.morph_deltas, m.deltas.data());
}

void RecordUpload(const Context& context, VkCommandBuffer cmd, uint32_t family, VkBuffer staging,
                  VkBuffer dst, const VkBufferCopy& region) {
  const Functions& f = Fn(context);
  f.vkCmdCopyBuffer(cmd, staging, dst, 1, &region);
  if (family != context.queue_family()) return;
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = dst;
  barrier.offset = region.dstOffset;
  barrier.size = region.size;
  f.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 0, nullptr, 1, &barrier, 0, nullptr);
}

}  // namespace sinew::vk::detail
