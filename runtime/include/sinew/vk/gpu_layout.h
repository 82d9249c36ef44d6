// C++ mirror of the structs and bindings in shaders/skinning_common.glsl.
// Change both together; the static_asserts catch size and offset drift.
//
// Every skinning dispatch walks a work table: one work item per workgroup, naming an instance
// record (which mesh, where its data and outputs live) and a group of its vertices, as many as
// the workgroup has invocations (SkinCacheOptions::workgroup_size). Meshes
// of any size and any number of instances share one dispatch per kernel variant (the kernel and
// the mesh's specialization choices: runtime/src/vk/kernels.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sinew::vk {

// Flags in SkinInstance::flags: what this frame does with previous positions. (What a mesh has,
// such as normals, tangents or morph normals, is not a flag: each kernel variant takes it as a
// specialization constant, vk/kernels.h.)
// SINEW_FLAG_COPY_PREVIOUS: before writing a position, copy the one it replaces to
// previous_positions.
inline constexpr uint32_t kFlagCopyPrevious = 1u;
// SINEW_FLAG_PREVIOUS_IS_CURRENT: also write the new position to previous_positions (an
// instance's first frame, or one after a teleport, has no motion).
inline constexpr uint32_t kFlagPreviousIsCurrent = 2u;
// The workgroup sizes (local_size_x, vertices per work item) a SkinCache may run its kernels
// with: powers of two from one morph group (64 vertices,
// runtime/include/sinew/asset/morph_deltas.h) to 1024, the most Vulkan devices commonly allow.
inline constexpr uint32_t kMinSkinWorkgroupSize = 64;
inline constexpr uint32_t kMaxSkinWorkgroupSize = 1024;
inline constexpr uint32_t kMorphGroupVertices = 64;  // SINEW_MORPH_GROUP_SIZE (kMorphGroupSize)
inline constexpr uint32_t kNoMorphBlockIndex = 0xFFFFFFFFu;  // SINEW_NO_MORPH_BLOCK

// layout(push_constant) uniform SkinPushConstants
struct SkinPushConstants {
  uint32_t item_base;   // first work item of this dispatch
  uint32_t item_count;  // work items of this dispatch (workgroups past it return at once)
  uint32_t pad0;
  uint32_t pad1;
};
static_assert(sizeof(SkinPushConstants) == 16);
static_assert(offsetof(SkinPushConstants, item_base) == 0);
static_assert(offsetof(SkinPushConstants, item_count) == 4);

// One work item (binding kBindingWorkItems): instance record `instance`, vertices
// [W group, W group + W) of it, W the kernels' workgroup size.
struct SkinWorkItem {
  uint32_t instance;
  uint32_t group;
};
static_assert(sizeof(SkinWorkItem) == 8);

// One instance record (binding kBindingInstances). Offsets count 32-bit words into the buffer of
// their binding, except where a field says vec4 (16-byte units; those streams are 16-byte
// aligned). A stream the mesh lacks has offset 0 and is never touched (the kernel variant's
// specialization constants say which exist).
struct SkinInstance {
  // The mesh (binding kBindingMeshWords and its vec4/uvec4 views).
  uint32_t vertex_count;
  uint32_t influences_per_vertex;  // K of a dense mesh; 0 for a sparse one
  uint32_t flags;                  // kFlag*
  uint32_t morph_target_count;     // 0: no morph targets
  uint32_t morph_stride;           // values (floats or halves) per morph delta
  uint32_t rest_positions;         // xyz floats per vertex; unorm16: grid (2 vec4), then packed
  uint32_t rest_normals;           // xyz floats, or one packed word, per vertex
  uint32_t rest_tangents;          // vec4 units: xyzw per vertex; words when packed
  uint32_t influence_indices;      // joint indices (dense) or groups (sparse), 8/16/32 bits
  uint32_t weights;                // floats, or unorm16/unorm8 packed in words
  uint32_t influence_offsets;      // sparse only: CSR offsets (vertex_count + 1)
  uint32_t morph_lookup;           // MorphDeltas::group_offsets, then block_index
  uint32_t morph_blocks;           // uvec4 units: MorphDeltas::blocks
  uint32_t morph_deltas;           // MorphDeltas::deltas
  // The instance.
  uint32_t palette;        // vec4 units into kBindingPalette: its first entry's first row
  uint32_t morph_slot;     // into kBindingMorphInstances: MorphSlotWords(T) words
  uint32_t out_positions;  // into kBindingOutPositions: xyz floats, kOutStride words apart
  uint32_t out_normals;    // into kBindingOutNormals: xyz floats or one word per vertex
  // vec4 units into kBindingOutTangents (float32, separate); else words into kBindingOutNormals
  uint32_t out_tangents;
  uint32_t previous_positions;  // into kBindingOutPositions (kFlagCopyPrevious and
                                // kFlagPreviousIsCurrent only)
};
static_assert(sizeof(SkinInstance) == 80);
static_assert(offsetof(SkinInstance, rest_positions) == 20);
static_assert(offsetof(SkinInstance, palette) == 56);
static_assert(offsetof(SkinInstance, previous_positions) == 76);

// An instance's morph slot (binding kBindingMorphInstances, 32-bit words; T = morph_target_count):
// MorphSlotWords(T) words from SkinInstance::morph_slot. Its first T + 1 MorphActiveTarget
// entries: entry 0's target is the active count A, entries 1..A the targets with a nonzero weight,
// in ascending target order; then T floats, target t's weight, for every target
// (WriteMorphSlot in runtime/src/vk/skin_records.h; GLSL reads them as uint words).
inline constexpr size_t MorphSlotWords(uint32_t targets) { return 3 * size_t{targets} + 2; }
// Word offset of the every-target weights within a slot.
inline constexpr size_t MorphSlotWeightsWord(uint32_t targets) { return 2 * size_t{targets} + 2; }
struct MorphActiveTarget {
  uint32_t target;
  float weight;
};
static_assert(sizeof(MorphActiveTarget) == 8);
static_assert(offsetof(MorphActiveTarget, target) == 0);
static_assert(offsetof(MorphActiveTarget, weight) == 4);

// Descriptor set 0 bindings. The three mesh bindings view one buffer (every mesh's rest data);
// the three output bindings view one buffer too (packed tangents are written through
// kBindingOutNormals).
enum SkinBinding : uint32_t {
  kBindingMeshWords = 0,       // uint[]: every stream, floats as bits
  kBindingMeshVec4 = 1,        // vec4[]: rest tangents
  kBindingMeshBlocks = 2,      // uvec4[]: morph blocks
  kBindingInstances = 3,       // SkinInstance[]
  kBindingWorkItems = 4,       // SkinWorkItem[]
  kBindingPalette = 5,         // vec4[]: 3x4 matrices, three rows each
  kBindingMorphInstances = 6,  // uint[]: morph slots
  kBindingOutPositions = 7,    // float[] (read too: kFlagCopyPrevious)
  kBindingOutNormals = 8,      // uint[]: normals, and packed tangents
  kBindingOutTangents = 9,     // vec4[]
  kSkinBindingCount = 10
};

// Bytes per palette entry: three vec4 rows.
inline constexpr size_t kPaletteEntryBytes = 48;

}  // namespace sinew::vk
