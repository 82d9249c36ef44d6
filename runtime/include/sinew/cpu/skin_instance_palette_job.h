// The skinning palette of one skinned node of an asset (docs/semantics.md, "Palettes"): entry i =
// world(joints[i]) · inverse_binds[i] for a glTF skin; for a G4MF skin (group_joints), entry g =
// that of joint group_joints[g], or world(skinned node) for a group that is -1 or past the map
// (untransformed: the vertex stays in its mesh node's space). Output in scene space; the skinned
// node's own transform is otherwise ignored, as glTF specifies.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

// Palette entries a skinned primitive of `skin` needs: the joint count for a glTF skin; for a G4MF
// skin at least the group count of its influences (pass the largest over the mesh's primitives).
size_t PaletteSizeFor(const Skin& skin, size_t group_count);

struct SkinInstancePaletteJob {
  // Validate() checks: skin given (kInvalidArgument); joints and the node within world
  // (kJointIndexOutOfRange, "joints/<i>"; "node"); inverse_binds one per joint, output not empty,
  // and for a glTF skin exactly one entry per joint (kSizeMismatch).
  Status Validate() const;
  Status Run() const;

  const Skin* skin = nullptr;
  std::span<const Float4x4> world;  // SceneTransformsJob's output
  uint32_t node = 0;                // the skinned node
  std::span<Float3x4> output;
};

}  // namespace sinew::cpu
