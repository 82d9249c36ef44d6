// C++ mirror of the structs and bindings in shaders/skinning_common.glsl.
// Change both together; the static_asserts catch size and offset drift.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sinew::vk {

inline constexpr uint32_t kFlagNormals = 1u;        // SINEW_FLAG_NORMALS
inline constexpr uint32_t kFlagTangents = 2u;       // SINEW_FLAG_TANGENTS
inline constexpr uint32_t kFlagMorphNormals = 4u;   // SINEW_FLAG_MORPH_NORMALS
inline constexpr uint32_t kFlagMorphTangents = 8u;  // SINEW_FLAG_MORPH_TANGENTS
inline constexpr uint32_t kSkinWorkgroupSize = 64;  // local_size_x of every skinning kernel
inline constexpr uint32_t kNoMorphBlockIndex = 0xFFFFFFFFu;  // SINEW_NO_MORPH_BLOCK

// layout(push_constant) uniform SkinPushConstants
struct SkinPushConstants {
  uint32_t vertex_count;
  uint32_t influences_per_vertex;
  uint32_t palette_stride;  // palette entries per instance (joints dense, groups sparse)
  uint32_t flags;
  uint32_t instance_base;
  uint32_t morph_target_count;  // morph targets of the mesh; 0: none
  uint32_t morph_stride;        // floats per morph delta
  uint32_t pad;
};
static_assert(sizeof(SkinPushConstants) == 32);
static_assert(offsetof(SkinPushConstants, vertex_count) == 0);
static_assert(offsetof(SkinPushConstants, influences_per_vertex) == 4);
static_assert(offsetof(SkinPushConstants, palette_stride) == 8);
static_assert(offsetof(SkinPushConstants, flags) == 12);
static_assert(offsetof(SkinPushConstants, instance_base) == 16);
static_assert(offsetof(SkinPushConstants, morph_target_count) == 20);
static_assert(offsetof(SkinPushConstants, morph_stride) == 24);

// An instance's morph slot (binding kBindingMorphInstances, 32-bit words; T = morph_target_count):
// instance i's slot is MorphSlotWords(T) words from i * MorphSlotWords(T). Its first T + 1
// MorphActiveTarget entries: entry 0's target is the active count A, entries 1..A the targets with
// a nonzero weight, in ascending target order; then T floats, target t's weight, for every target
// (Deformer::SetMorphWeights; GLSL reads them as uint words, skinning_common.glsl).
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

// Descriptor set 0 bindings.
enum SkinBinding : uint32_t {
  kBindingRestPositions = 0,
  kBindingRestNormals = 1,
  kBindingRestTangents = 2,
  kBindingInfluenceIndices = 3,  // dense: u16 joint pairs; sparse: u32 groups
  kBindingWeights = 4,
  kBindingPalette = 5,
  kBindingOutPositions = 6,
  kBindingOutNormals = 7,
  kBindingOutTangents = 8,
  kBindingInfluenceOffsets = 9,  // sparse only: CSR offsets (vertex_count + 1)
  kBindingMorphLookup = 10,      // MorphDeltas::group_offsets, then block_index
  kBindingMorphBlocks = 11,      // MorphDeltas::blocks (uvec4 each)
  kBindingMorphDeltas = 12,      // MorphDeltas::deltas
  kBindingMorphInstances = 13,   // per instance, MorphSlotWords(T) words
  kSkinBindingCount = 14
};

// Bytes per palette entry: three vec4 rows.
inline constexpr size_t kPaletteEntryBytes = 48;

}  // namespace sinew::vk
