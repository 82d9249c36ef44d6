#include "mesh_upload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "functions.h"
#include "sinew/vk/gpu_layout.h"

namespace sinew::vk::detail {
namespace {

static_assert(kMorphGroupVertices == kMorphGroupSize, "SINEW_MORPH_GROUP_SIZE");
static_assert(kMinSkinWorkgroupSize % kMorphGroupSize == 0, "a workgroup holds whole morph groups");
static_assert(kNoMorphBlock == kNoMorphBlockIndex, "SINEW_NO_MORPH_BLOCK");

VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// `values` of `bits` each (8, 16 or 32), packed from the lowest bits of each word up. Each word is
// built in a register and stored once: `out` is often mapped device memory across the bus, where
// a read-modify-write costs a round trip per value (seconds for a million-vertex mesh on a
// discrete GPU), so nothing here reads it.
template <typename Value>
void PackInto(std::span<const Value> values, uint32_t bits, unsigned char* out) {
  const size_t per_word = 32 / bits;
  for (size_t first = 0; first < values.size(); first += per_word) {
    uint32_t word = 0;
    const size_t count = std::min(per_word, values.size() - first);
    for (size_t k = 0; k < count; ++k) word |= uint32_t{values[first + k]} << (bits * k);
    std::memcpy(out + first / per_word * sizeof(uint32_t), &word, sizeof(word));
  }
}

// The influence indices (joints or groups) and weights into their streams, in the layout's
// formats. Quantized weights keep each vertex's sum: its `per_vertex` slots (dense), or its
// entries between the CSR `offsets` (sparse: offsets not empty). Dense joint indices are 16-bit,
// sparse groups 32-bit.
template <typename Index>
void WriteInfluences(const MeshLayout& l, std::span<const Index> indices,
                     std::span<const float> weights, uint32_t per_vertex,
                     std::span<const uint32_t> offsets, unsigned char* bytes) {
  PackInto(indices, l.joint_bits, bytes + l.influence_indices.offset);
  const WeightFormat format = l.formats.weights;
  if (format == WeightFormat::kFloat32) {
    std::memcpy(bytes + l.weights.offset, weights.data(), weights.size_bytes());
    return;
  }
  std::vector<uint32_t> q(weights.size());
  if (offsets.empty()) {
    QuantizeWeights(weights, per_vertex, format, q);
  } else {
    for (size_t v = 0; v + 1 < offsets.size(); ++v) {
      const uint32_t first = offsets[v], count = offsets[v + 1] - offsets[v];
      QuantizeWeights(weights.subspan(first, count), count, format,
                      std::span(q).subspan(first, count));
    }
  }
  PackInto(std::span<const uint32_t>(q), WeightBytes(format) * 8, bytes + l.weights.offset);
}

}  // namespace

VkDeviceSize StreamAlignment(const Context& context) {
  return std::max<VkDeviceSize>(16, context.properties().limits.minStorageBufferOffsetAlignment);
}

Result<MeshUpload> PlanMeshUpload(const Primitive& mesh, uint32_t joints, VkDeviceSize alignment,
                                  const VertexFormats& formats) {
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
  l.formats = formats;
  const std::vector<float>& weights =
      mesh.sparse() ? mesh.sparse_influences.weights : mesh.influences.weights;
  if (std::any_of(weights.begin(), weights.end(), [](float w) { return w > 1.0f; })) {
    l.formats.weights = WeightFormat::kFloat32;  // unorm holds [0, 1] only
  }
  l.joint_bits = JointIndexBits(l.palette_size);

  VkDeviceSize cursor = 0;
  const auto place = [&](BufferRange* range, VkDeviceSize bytes) {
    range->offset = bytes ? cursor : 0;
    range->size = bytes;
    cursor = AlignUp(cursor + bytes, alignment);
  };
  const size_t v = l.vertex_count;
  // unorm16 positions: the grid (origin and step, two vec4) before them.
  place(&l.positions, formats.positions == PositionFormat::kUnorm16
                          ? 32 + QuantizedPositionWords(v) * sizeof(uint32_t)
                          : mesh.positions.size() * sizeof(float));
  place(&l.normals, l.has_normals ? v * NormalBytes(formats.directions) : 0);
  place(&l.tangents, l.has_tangents ? v * TangentBytes(formats.directions) : 0);
  // Indices and weights narrower than a word fill whole words.
  const auto packed = [](size_t count, size_t bytes_each) {
    return (count * bytes_each + 3) / 4 * 4;
  };
  const size_t slots =
      mesh.sparse() ? mesh.sparse_influences.groups.size() : v * l.influences_per_vertex;
  place(&l.influence_indices, packed(slots, l.joint_bits / 8));
  place(&l.weights, packed(slots, WeightBytes(l.formats.weights)));
  if (mesh.sparse()) {
    place(&l.influence_offsets, mesh.sparse_influences.offsets.size() * sizeof(uint32_t));
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
    if (std::any_of(m.deltas.begin(), m.deltas.end(),
                    [](float d) { return std::fabs(d) > kHalfMax; })) {
      l.formats.morph_deltas = MorphDeltaFormat::kFloat32;  // a half float would be infinite
    }
    place(&l.morph_deltas, l.formats.morph_deltas == MorphDeltaFormat::kHalf
                               ? (m.deltas.size() + 1) / 2 * sizeof(uint32_t)
                               : m.deltas.size() * sizeof(float));
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
  if (l.formats.positions == PositionFormat::kUnorm16) {
    const PositionGrid grid = PositionGridOf(mesh.positions);
    const float header[8] = {grid.origin.x, grid.origin.y, grid.origin.z, 0.0f,
                             grid.step.x,   grid.step.y,   grid.step.z,   0.0f};
    std::memcpy(bytes + l.positions.offset, header, sizeof(header));
    QuantizePositions(mesh.positions, grid,
                      std::span(reinterpret_cast<uint32_t*>(bytes + l.positions.offset + 32),
                                QuantizedPositionWords(l.vertex_count)));
  } else {
    copy(l.positions, mesh.positions.data());
  }
  const DirectionFormat directions = l.formats.directions;
  if (directions == DirectionFormat::kFloat32) {
    copy(l.normals, mesh.normals.data());
    copy(l.tangents, mesh.tangents.data());
  } else {
    auto* normals = reinterpret_cast<uint32_t*>(bytes + l.normals.offset);
    auto* tangents = reinterpret_cast<uint32_t*>(bytes + l.tangents.offset);
    const size_t n = l.has_normals ? l.vertex_count : 0, t = l.has_tangents ? l.vertex_count : 0;
    for (size_t v = 0; v < n; ++v) {
      const float* d = &mesh.normals[v * 3];
      normals[v] = EncodeNormal({d[0], d[1], d[2]}, directions);
    }
    for (size_t v = 0; v < t; ++v) {
      const float* d = &mesh.tangents[v * 4];
      tangents[v] = EncodeTangent({d[0], d[1], d[2], d[3]}, directions);
    }
  }
  if (mesh.sparse()) {
    const SparseInfluences& sparse = mesh.sparse_influences;
    WriteInfluences(l, std::span<const uint32_t>(sparse.groups), sparse.weights, 0, sparse.offsets,
                    bytes);
    copy(l.influence_offsets, sparse.offsets.data());
  } else if (l.rigid) {  // joint 0 (the zeroed stream as it is), weight 1 in the first slot
    std::vector<float> weights(size_t{l.vertex_count} * 4, 0.0f);
    for (size_t v = 0; v < l.vertex_count; ++v) weights[v * 4] = 1.0f;
    WriteInfluences(l, std::span<const uint16_t>(), weights, 4, {}, bytes);
  } else {
    const DenseInfluences& dense = mesh.influences;
    WriteInfluences(l, std::span<const uint16_t>(dense.joints), dense.weights,
                    l.influences_per_vertex, {}, bytes);
  }
  const MorphDeltas& m = upload.morphs;
  if (l.morph_lookup.size) {
    const size_t offsets_bytes = m.group_offsets.size() * sizeof(uint32_t);
    std::memcpy(bytes + l.morph_lookup.offset, m.group_offsets.data(), offsets_bytes);
    std::memcpy(bytes + l.morph_lookup.offset + offsets_bytes, m.block_index.data(),
                m.block_index.size() * sizeof(uint32_t));
  }
  copy(l.morph_blocks, m.blocks.data());
  if (l.formats.morph_deltas == MorphDeltaFormat::kHalf) {
    std::vector<uint16_t> halves(m.deltas.size());
    std::transform(m.deltas.begin(), m.deltas.end(), halves.begin(), FloatToHalf);
    PackInto(std::span<const uint16_t>(halves), 16, bytes + l.morph_deltas.offset);
  } else {
    copy(l.morph_deltas, m.deltas.data());
  }
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
