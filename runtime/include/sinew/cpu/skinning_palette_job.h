// Builds the skinning palette: joint model matrix x inverse bind matrix, as 3x4 rows.
#pragma once

#include <span>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

struct SkinningPaletteJob {
  // Validate() checks: inverse_binds and output sized like models (kSizeMismatch), which is not
  // empty (kEmptyPalette).
  Status Validate() const;
  // Validates, then output[i] = ToFloat3x4(models[i] * inverse_binds[i]).
  Status Run() const;

  // Scene-space matrix of each joint (LocalToModelJob's output). Required.
  std::span<const Float4x4> models;
  // Inverse bind matrix of each joint. Required, one per joint.
  std::span<const Float4x4> inverse_binds;
  // Palette, one 3x4 per joint. Required.
  std::span<Float3x4> output;
};

}  // namespace sinew::cpu
