// The per-instance group palette of sparse skinning (docs/semantics.md, "Palettes"): entry g is the
// skinning matrix of bone joints[g]; -1, or a group past the end of joints, is the identity.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

struct GroupPaletteJob {
  // Validate() checks: output not empty (kEmptyPalette); every joints entry is -1 or < the bone
  // palette size (kJointIndexOutOfRange, where "joints/<g>").
  Status Validate() const;
  // Validates, then fills output[g] for every group.
  Status Run() const;

  // The skeleton's joints array: group -> index into bone_palette, or -1. May be shorter or longer
  // than output (extra entries are never read; missing ones are identity).
  std::span<const int32_t> joints;
  // Skinning matrix of each bone (e.g. SkinningPaletteJob's output).
  std::span<const Float3x4> bone_palette;
  // One entry per group (SparseInfluences::group_count).
  std::span<Float3x4> output;
};

}  // namespace sinew::cpu
