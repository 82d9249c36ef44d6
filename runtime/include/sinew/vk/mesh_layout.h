// Where each stream of a skinned mesh's rest data lives in a GPU buffer, and what the kernels
// need to know about it: a SkinCache keeps one per mesh (offsets from the start of the mesh's
// range in the cache's mesh pool).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "sinew/core/vertex_formats.h"

namespace sinew::vk {

// A byte range of a buffer; size 0 for a stream the mesh lacks.
struct BufferRange {
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
};

struct MeshLayout {
  uint32_t vertex_count = 0;
  // True for sparse (CSR) influences, false for dense or rigid (Primitive::sparse()).
  bool sparse = false;
  // True for a mesh without influences (Primitive::skinned() false), moved by palette entry 0.
  bool rigid = false;
  // True for a skinned mesh blended with dual quaternions (Primitive::skinning): its instances
  // need a dual-quaternion palette (SkinCache::AddPalette).
  bool dual_quaternion = false;
  // True for a linearly skinned mesh whose normals follow NormalBlend::kPerJoint.
  bool per_joint_normals = false;
  // K of a dense mesh (4 for a rigid one, uploaded as one joint of weight 1); 0 for a sparse one.
  uint32_t influences_per_vertex = 0;
  // Entries of one instance's palette: joints (dense) or groups (sparse).
  uint32_t palette_size = 0;
  bool has_normals = false;
  bool has_tangents = false;
  uint32_t morph_target_count = 0;
  uint32_t morph_stride = 0;  // floats per morph delta
  bool morph_normals = false;
  bool morph_tangents = false;
  // The formats the streams are stored in, as asked for (SkinCacheOptions::formats) except that a
  // mesh with a weight above 1, which unorm cannot hold, keeps float32 weights, and one with a
  // morph delta past kHalfMax float32 deltas;
  // output_directions is the cache's. joint_bits: JointIndexBits(palette_size).
  VertexFormats formats;
  uint32_t joint_bits = 16;

  // Each stream at a 16-byte (and minStorageBufferOffsetAlignment) aligned offset.
  BufferRange positions, normals, tangents;
  // Dense: joint indices; sparse: groups (joint_bits each).
  BufferRange influence_indices;
  BufferRange weights;
  // Sparse only: the CSR offsets (vertex_count + 1 u32).
  BufferRange influence_offsets;
  // Morph targets packed per group of 64 vertices (MorphDeltas): group_offsets followed by
  // block_index (u32 each), the blocks (4 u32 each), the deltas.
  BufferRange morph_lookup, morph_blocks, morph_deltas;
  // Bytes of the whole layout (a multiple of the alignment).
  VkDeviceSize bytes = 0;
};

// Bytes one vertex of `l` moves when deformed, on average: its rest streams read (position,
// normal, tangent, influence indices, weights, CSR offsets) and its outputs written (position,
// normal, tangent in formats.output_directions). Left out: morph data (it depends on the active
// targets), palette reads (shared by a character's vertices), previous positions.
inline double BytesPerVertex(const MeshLayout& l) {
  if (l.vertex_count == 0) return 0;
  const VkDeviceSize read = l.positions.size + l.normals.size + l.tangents.size +
                            l.influence_indices.size + l.weights.size + l.influence_offsets.size;
  const DirectionFormat out = l.formats.output_directions;
  const uint32_t written =
      12 + (l.has_normals ? NormalBytes(out) : 0) + (l.has_tangents ? TangentBytes(out) : 0);
  return double(read) / double(l.vertex_count) + written;
}

}  // namespace sinew::vk
