// Morph targets packed for the fused GPU kernel (docs/semantics.md, "Blend shapes"): sparse deltas
// gathered per group of 64 vertices (the smallest compute workgroup: a larger one holds several
// whole groups, and the choice below stays the same within each). Each group lists, target by
// target in ascending order, a block {target, 64-bit mask of the group's vertices it moves, first
// delta}; a vertex finds its delta by counting the mask bits below its own. Per group, the kernel
// walks the shorter of the instance's active targets (nonzero weight, ascending; each found through
// block_index) and the group's blocks (each with its weight): min(A, B) steps per vertex for A
// active targets and B blocks in the group, so targets at weight 0 cost nothing per vertex when
// A <= B (and an instance with none active skips the stage), at most B steps otherwise. Every
// vertex adds its deltas in one fixed order, target by target (deterministic, no atomics).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/morph_target.h"

namespace sinew {

inline constexpr uint32_t kMorphGroupSize = 64;         // vertices per group
inline constexpr uint32_t kNoMorphBlock = 0xFFFFFFFFu;  // block_index: the target moves nothing

struct MorphDeltas {
  uint32_t target_count = 0;
  bool normals = false;   // deltas carry normal offsets (some target has them)
  bool tangents = false;  // deltas carry tangent offsets
  // Blocks of group g: [group_offsets[g], group_offsets[g + 1]); ceil(V / 64) + 1 entries.
  std::vector<uint32_t> group_offsets;
  // Four u32 per block: target, mask of vertices 0-31 of the group, of 32-63, first delta.
  std::vector<uint32_t> blocks;
  // Group-major lookup: block_index[g * target_count + t] is target t's block in group g, or
  // kNoMorphBlock. target_count · ceil(V / 64) entries: 4 · target_count / 64 bytes per vertex
  // (60 targets: 3.75 B/vertex), whatever the targets touch.
  std::vector<uint32_t> block_index;
  // stride() floats per delta: position xyz, then normal xyz (if normals), tangent xyz (if
  // tangents); a block's deltas follow its mask's bit order.
  std::vector<float> deltas;

  uint32_t stride() const { return 3u + (normals ? 3u : 0u) + (tangents ? 3u : 0u); }
  size_t block_count() const { return blocks.size() / 4; }
  size_t delta_count() const { return deltas.size() / stride(); }
};

// Packs `targets` (each stream empty or one xyz per vertex, as SkinnedMesh::Validate checks) for
// `vertex_count` vertices. A vertex is in a target's block when any of its offsets is nonzero.
MorphDeltas PackMorphTargets(size_t vertex_count, std::span<const MorphTarget> targets);

}  // namespace sinew
